"""The notebook's parts that a lesson's text cannot change — the setup's code (the engine's) and lesson.py's cells —
come from the build's cache (render/notebook.py NotebookParts, the store's NOTEBOOK_PARTS) when only the text
changed; whatever changed, a rebuild with the cache writes the bytes a build from scratch writes."""
from __future__ import annotations

import base64
import sys
from pathlib import Path

import pytest

from lesson_folders import PROJECT
from lessonkit.features import notebook
from lessonkit.site import Options, build
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

每层乘 {{ factor }}，信号变小。

{{< figure decay >}}

## 第二节 {#second}

{{ layers }} 层之后只剩百分之一。
'''
YAML = "title: 衰减\nsummary: 一节小课\nobjectives:\n  - 会算层数\n"
GLOSSARY = "terms:\n  - id: layer\n    zh: 层\n    en: layer\n    definition: 网络的一层，$x^2$ 之类。\n"


@pytest.fixture
def course(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796000000")
    folder = tmp_path / "content" / "decay"
    folder.mkdir(parents=True)
    (folder / "lesson.yaml").write_text(YAML, encoding="utf-8")
    (folder / "lesson.md").write_text(MD, encoding="utf-8")
    (folder / "lesson.py").write_text(PY, encoding="utf-8")
    (folder / "table.csv").write_text("a,b\n1,2\n", encoding="utf-8")   # a data file: in the setup cell
    (tmp_path / "content" / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    return tmp_path / "content"


def site(content: Path, out: Path, cache: Path | None):
    return build(Options(content=content, out=out, themes=PROJECT / "themes", cache=cache, jobs=1))


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def parts(cache: Path) -> set[str]:
    return {p.name for p in (cache / "notebooks").glob("*.json")}


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


EDITS = {   # what is edited → the notebook's parts made again (0: the text alone changed; 1: lesson.py's cells)
    "paragraph": (lambda c: replace(c / "decay" / "lesson.md", "信号变小。", "信号变得很小。"), 0),
    "heading": (lambda c: replace(c / "decay" / "lesson.md", "## 第二节", "## 第二节：层数"), 0),
    "glossary": (lambda c: replace(c / "glossary.yaml", "网络的一层", "网络里的一层"), 0),
    "data file": (lambda c: replace(c / "decay" / "table.csv", "1,2", "3,4"), 0),
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
    before = parts(cache)
    assert len(before) == 2   # the setup's code and lesson.py's cells
    change, made_again = EDITS[edit]
    change(course)
    site(course, tmp_path / "b", cache)
    assert len(parts(cache) - before) == made_again
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
    import os

    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    for entry in (cache / "notebooks").glob("*.json"):
        os.utime(entry, (1, 1))
    notebooks = {p.name for p in (cache / "notebooks").glob("*.ipynb")}
    (course / "site.yaml").write_text("title: 新的书名\n", encoding="utf-8")   # the page is made again, not its
    site(course, tmp_path / "b", cache)                                     # notebook
    assert {p.name for p in (cache / "notebooks").glob("*.ipynb")} == notebooks
    assert len(parts(cache)) == 2
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
