"""The notebook's parts that a lesson's text cannot change — the setup's code (the engine's) and lesson.py's cells —
come from the build's cache (render/notebookparts.py NotebookParts, the store's NOTEBOOK_PARTS) when only the text
changed; whatever changed, a rebuild with the cache writes the bytes a build from scratch writes."""
from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

import pytest

from lesson_folders import build_with_theme_mine, course_with_theme_mine, files_of
from lessonkit.features import notebook
from lessonkit.support import cachekeys

PY = '''\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def factor():
    return 0.5  # how much each layer keeps


@lesson.value
def layers(factor):
    return int(np.ceil(np.log(0.01) / np.log(factor)))


@lesson.figure(caption="每层乘 {{ factor }}", alt="一条下降的折线")
def decay(plt, factor):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(np.arange(5), factor ** np.arange(5))
    return fig
'''
MD = '''\
## 第一节 {#first}

每层乘 {{ factor }}，信号变小，见 [第二节](#second) 和 @lesson:other。

{{< figure decay >}}

$$
y = x^{ {{ factor }} }
$$ {#eq:keep}

## 第二节 {#second}

{{ layers }} 层之后只剩百分之一（@fig:decay，@eq:keep），见 [@b]。
'''
YAML = "title: 衰减\nsummary: 一节小课\nobjectives:\n  - 会算层数\n"
OTHER_MD = "## 只有一节 {#only}\n\n没有数。\n"
GLOSSARY = "terms:\n  - id: layer\n    zh: 层\n    en: layer\n    definition: 网络的一层，$x^2$ 之类。\n"
BIB = """\
@book{a, author = {Alpha, Ann}, title = {First}, publisher = {P}, year = {2020}}
@book{b, author = {Beta, Bo}, title = {Second}, publisher = {P}, year = {2021}}
"""


@pytest.fixture
def course(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796000000")
    return course_with_theme_mine(tmp_path, {
        "decay/lesson.yaml": YAML, "decay/lesson.md": MD, "decay/lesson.py": PY,
        "decay/table.csv": "a,b\n1,2\n",   # a data file: in the setup cell
        "other/lesson.yaml": "title: 另一课\nsummary: 另一课\nobjectives:\n  - 读完\n", "other/lesson.md": OTHER_MD,
        "glossary.yaml": GLOSSARY, "references.bib": BIB})


site, files = build_with_theme_mine, files_of


def parts(cache: Path) -> dict[str, str]:
    """The notebook parts in the store, each with what it holds: the setup's code, lesson.py's cells, or the parts a
    notebook was made with."""
    def kind(data) -> str:
        return "made of" if isinstance(data, dict) and "parts" in data else {str: "setup", list: "code"}[type(data)]
    return {p.name: kind(json.loads(p.read_text(encoding="utf-8"))) for p in (cache / "notebooks").glob("*.json")}


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def theme_word(content: Path) -> None:
    (content.parent / "themes" / "mine" / "i18n" / "zh-CN.yaml").write_text("figure: 插图\n", encoding="utf-8")


MD_FILE = ("decay", "lesson.md")
EDITS = {   # what is edited → lesson.py's cells made again
    "paragraph": (lambda c: replace(c.joinpath(*MD_FILE), "信号变小，", "信号变得很小，"), 0),
    "heading": (lambda c: replace(c.joinpath(*MD_FILE), "## 第二节", "## 第二节：层数"), 0),  # its anchor
    "an earlier citation": (lambda c: replace(c.joinpath(*MD_FILE), "信号变小，", "信号变小 [@a]，"), 0),
    "an earlier equation": (lambda c: replace(c.joinpath(*MD_FILE), "{{< figure decay >}}",
                                              "$$\nz = 1\n$$ {#eq:first}\n\n{{< figure decay >}}"), 0),
    "another lesson's title": (lambda c: replace(c / "other" / "lesson.yaml", "title: 另一课", "title: 别的课"),
                               0),
    "a theme word": (theme_word, 0),
    "glossary": (lambda c: replace(c / "glossary.yaml", "网络的一层", "网络里的一层"), 0),
    "data file": (lambda c: replace(c / "decay" / "table.csv", "1,2", "3,4"), 0),  # (the values' key)
    "value": (lambda c: replace(c / "decay" / "lesson.py", "return 0.5", "return 0.6"), 1),
    "comment": (lambda c: replace(c / "decay" / "lesson.py", "# how much each layer keeps", "# kept"), 1),
    "new value": (lambda c: replace(c / "decay" / "lesson.py", "@lesson.figure",
                                    "@lesson.value\ndef half(factor):\n    return factor / 2\n\n\n@lesson.figure"),
                  1),
}


@pytest.mark.parametrize("edit", EDITS)
def test_a_rebuild_with_the_cache_writes_what_a_build_from_scratch_writes(course, tmp_path, edit):
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    before = parts(cache)   # (two lessons: one setup, one lesson.py)
    assert sorted(before.values()) == ["code", "made of", "made of", "setup"]
    change, code_made_again = EDITS[edit]
    change(course)
    site(course, tmp_path / "b", cache)
    new = [kind for name, kind in parts(cache).items() if name not in before]
    assert new.count("code") == code_made_again and new.count("setup") == 0
    site(course, tmp_path / "scratch", None)
    assert files(tmp_path / "b") == files(tmp_path / "scratch")
    notebook_text = (tmp_path / "b" / "decay" / "decay.ipynb").read_text(encoding="utf-8")
    assert (base64.b64encode(b"a,b\n3,4\n").decode() in notebook_text) == (edit == "data file")  # the setup's


def test_parts_taken_from_the_cache_are_what_they_would_be_made(course, tmp_path):
    """A notebook made with its parts from the cache (its own entry gone) equals one made without a cache."""
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    for entry in (cache / "notebooks").glob("*.ipynb"):
        entry.unlink()
    site(course, tmp_path / "b", cache)
    site(course, tmp_path / "scratch", None)
    assert files(tmp_path / "b") == files(tmp_path / "scratch")


def test_a_kept_notebook_marks_its_parts_used(course, tmp_path):
    """Pruning keeps what is used: a notebook taken whole from the cache still marks its parts (the next edit of
    the lesson's text needs them)."""

    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    for entry in (cache / "notebooks").glob("*.json"):
        os.utime(entry, (1, 1))
    notebooks = {p.name for p in (cache / "notebooks").glob("*.ipynb")}
    (course / "site.yaml").write_text("title: 新的书名\n", encoding="utf-8")   # the page is made again, not its
    site(course, tmp_path / "b", cache)                                     # notebook
    assert {p.name for p in (cache / "notebooks").glob("*.ipynb")} == notebooks
    assert len(parts(cache)) == 4
    assert all(entry.stat().st_mtime > 1 for entry in (cache / "notebooks").glob("*.json"))


# ── the keys ────────────────────────────────────────────────────────────────────────────────────────────────────────
def test_the_setup_key_changes_with_each_input(monkeypatch):
    base = notebook.setup_key("没有字体")
    assert notebook.setup_key("没有字体") == base
    assert notebook.setup_key("no font") != base
    versions = cachekeys.package_version
    monkeypatch.setattr(cachekeys, "package_version", lambda name: "9.9" if name == "cycler" else versions(name))
    assert notebook.setup_key("没有字体") != base
    monkeypatch.undo()
    monkeypatch.setattr(cachekeys, "engine_source_digest", lambda packages=None: "another engine")
    assert notebook.setup_key("没有字体") != base


SOURCE = "def a():\n    return 1\n\n\ndef b(a):\n    return a + 1\n"


@pytest.mark.parametrize("source, values", [
    (SOURCE + "# a comment\n", {"a": (), "b": ("a",)}),                 # the text, comments too (cells show them)
    (SOURCE.replace("return 1", "return 2"), {"a": (), "b": ("a",)}),
    (SOURCE, {"b": ("a",), "a": ()}),                                  # the values' order: the order they are shown
    (SOURCE, {"a": (), "b": ()}),                                      # what a value takes
    (SOURCE, {"a": ()}),                                               # which functions are values
])
def test_the_code_cells_key_changes_with_each_input(source, values):
    assert notebook.code_cells_key(source, values) != notebook.code_cells_key(SOURCE, {"a": (), "b": ("a",)})


def test_the_code_cells_key_names_python_and_the_engine(monkeypatch):
    base = notebook.code_cells_key(SOURCE, {"a": ()})
    assert notebook.code_cells_key(SOURCE, {"a": ()}) == base
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert notebook.code_cells_key(SOURCE, {"a": ()}) != base
    monkeypatch.undo()
    monkeypatch.setattr(cachekeys, "engine_source_digest", lambda packages=None: "another engine")
    assert notebook.code_cells_key(SOURCE, {"a": ()}) != base


def test_the_order_of_the_values_is_what_the_cells_show():
    """Why the key keeps the values' order: code_cells shows the values ready after a cell in that order."""
    source = "def x(z):\n    return z\n\n\ndef y(z):\n    return z\n\n\ndef z():\n    return 1\n"
    one = notebook.code_cells(source, {"x": ("z",), "y": ("z",), "z": ()})
    other = notebook.code_cells(source, {"y": ("z",), "x": ("z",), "z": ()})
    assert one[-1].source.endswith("lesson.get('x')\nlesson.get('y')\nlesson.get('z')")
    assert other[-1].source.endswith("lesson.get('y')\nlesson.get('x')\nlesson.get('z')")
