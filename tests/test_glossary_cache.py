"""The glossary's definitions are rendered once and kept in the build's cache (render/definitions.py kept_definitions, the
store's DEFINITIONS) under a key of everything they are made of: an edit elsewhere takes them from there, any edit
they depend on makes them again, a rebuild writes the bytes a build from scratch writes, and their problems are
reported again."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from lesson_folders import build_with_theme_mine, course_with_theme_mine, files_of
from lessonkit.features.bibtex import Bibliography
from lessonkit.features.glossary import Glossary, Term
from lessonkit.render.definitions import definitions_key
from lessonkit.support import cachekeys
from lessonkit.support.errors import ContentError
from lessonkit.support.i18n import UiStrings

PY = "from lessonkit import Lesson\n\nlesson = Lesson()\n\n\n@lesson.value\ndef two_pow():\n    return 2 ** 10\n"
MD = "## 第一节 {#first}\n\n二的十次方是 {{ two_pow }}，每一层都用到。\n"
YAML = "title: 小课\nsummary: 一节小课\nobjectives:\n  - 看懂一个数\n"
GLOSSARY = """\
terms:
  - id: layer
    zh: 层
    en: layer
    definition: 网络的一层，见 @press2022；算 $x^2$ 和 `y = 1`。
  - id: norm
    zh: 归一化
    en: normalization
    definition: 把数缩放到**统一**的尺度。
"""
BIB = """\
@article{press2022,
  author = {Press, Ofir and Smith, Noah A. and Lewis, Mike},
  title = {Train Short, Test Long},
  journal = {ICLR},
  year = {2022},
}
"""


@pytest.fixture
def course(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796000000")
    return course_with_theme_mine(tmp_path, {"demo/lesson.yaml": YAML, "demo/lesson.md": MD, "demo/lesson.py": PY,
                                             "glossary.yaml": GLOSSARY, "references.bib": BIB})


site, files = build_with_theme_mine, files_of


def kept(cache: Path) -> set[str]:
    return {p.name for p in (cache / "definitions").glob("*.pickle")}


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


EDITS = {   # what is edited → whether the definitions are made again
    "lesson's text": (lambda c: replace(c / "demo" / "lesson.md", "每一层都用到", "每一层都要用到"), False),
    "lesson's code": (lambda c: replace(c / "demo" / "lesson.py", "2 ** 10", "2 ** 11"), False),
    "a definition": (lambda c: replace(c / "glossary.yaml", "**统一**", "**同一**"), True),
    "a line above": (lambda c: replace(c / "glossary.yaml", "terms:\n", "# 术语\nterms:\n"), True),  # (problems' lines)
    "a reference": (lambda c: replace(c / "references.bib", "2022}", "2023}"), True),
    "a theme word": (lambda c: (c.parent / "themes" / "mine" / "i18n" / "zh-CN.yaml").write_text(
        'cite_author_year: "{authors}，{year}"\n', encoding="utf-8"), True),
}


@pytest.mark.parametrize("edit", EDITS)
def test_a_rebuild_with_the_cache_writes_what_a_build_from_scratch_writes(course, tmp_path, edit):
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    before = kept(cache)
    assert len(before) == 1
    change, made_again = EDITS[edit]
    change(course)
    site(course, tmp_path / "b", cache)
    assert len(kept(cache) - before) == made_again
    site(course, tmp_path / "scratch", None)
    assert files(tmp_path / "b") == files(tmp_path / "scratch")
    glossary_page = (tmp_path / "b" / "glossary.html").read_text(encoding="utf-8")
    shown = {"a theme word": "Press 等，2022", "a reference": "Press 等（2023）"}.get(edit, "Press 等（2022）")
    assert shown in glossary_page


def test_the_definitions_problems_are_reported_again_from_the_cache(course, tmp_path):
    cache = tmp_path / "cache"
    replace(course / "glossary.yaml", "@press2022", "@press2021")
    for n in range(2):
        with pytest.raises(ContentError) as info:
            site(course, tmp_path / "out", cache)
        found = [p for p in info.value.problems if "press2021" in str(p)]
        assert len(found) == 1 and found[0].path == course / "glossary.yaml" and found[0].line == 5, n   # (its definition's line)
        assert len(kept(cache)) == 1   # the second build took them from there


def test_a_definition_with_an_image_is_rendered_every_time(course, tmp_path):
    """An image beside glossary.yaml is a file the key does not read: such definitions are not kept."""
    (course / "dot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>',
                                    encoding="utf-8")
    replace(course / "glossary.yaml", "**统一**", "**统一** ![一个点](dot.svg)")
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    assert kept(cache) == set()
    (course / "dot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>',
                                    encoding="utf-8")
    site(course, tmp_path / "b", cache)
    site(course, tmp_path / "scratch", None)
    assert files(tmp_path / "b") == files(tmp_path / "scratch") != files(tmp_path / "a")


# ── the key ─────────────────────────────────────────────────────────────────────────────────────────────────────────
PATH = Path("/course/content/glossary.yaml")
TERMS = (("layer", "网络的一层。", 5), ("norm", "把数缩放到统一的尺度，$x$。", 9))


def glossary(terms=TERMS, path=PATH) -> Glossary:
    return Glossary(path, [Term(i, i, i, (), text, line - 1, line) for i, text, line in terms])


def ui(lang="zh-CN", **words) -> UiStrings:
    return UiStrings(lang, {"cite_author_year": "{authors}（{year}）", "figure": "图", **words}, [])


REFS = Bibliography(Path("/course/content/references.bib"), {}, digest="a" * 64)


def test_the_same_inputs_give_the_same_key():
    assert definitions_key(glossary(), REFS, ui()) == definitions_key(glossary(), REFS, ui())


@pytest.mark.parametrize("changed", [
    lambda: definitions_key(glossary(((("layers",) + TERMS[0][1:]), TERMS[1])), REFS, ui()),        # an id
    lambda: definitions_key(glossary((TERMS[0], ("norm", "把数缩放到同一的尺度，$x$。", 9))), REFS, ui()),  # a text
    lambda: definitions_key(glossary((TERMS[0], ("norm", TERMS[1][1], 10))), REFS, ui()),          # a line
    lambda: definitions_key(glossary((TERMS[1], TERMS[0])), REFS, ui()),                           # the order
    lambda: definitions_key(glossary(TERMS[:1]), REFS, ui()),                                       # a term fewer
    lambda: definitions_key(glossary(path=Path("/elsewhere/glossary.yaml")), REFS, ui()),          # the file
    lambda: definitions_key(glossary(), Bibliography(REFS.path, {}, digest="b" * 64), ui()),      # the references
    lambda: definitions_key(glossary(), None, ui()),                                               # none
    lambda: definitions_key(glossary(), Bibliography(REFS.path, {}, unread=True), ui()),               # unreadable
    lambda: definitions_key(glossary(), REFS, ui(cite_author_year="{authors}，{year}")),            # a word
    lambda: definitions_key(glossary(), REFS, ui(cite_many_authors="{first} 等人")),                 # a new word
    lambda: definitions_key(glossary(), REFS, ui("en")),                                            # the language
    lambda: definitions_key(glossary(), REFS, None),                                                # no words
])
def test_each_input_changes_the_key(changed):
    assert changed() != definitions_key(glossary(), REFS, ui())


@pytest.mark.parametrize("setting", ["engine", "markdown_it", "mdit_py_plugins", "latex2mathml", "pygments", "python", "messages"])
def test_the_key_names_the_engine_the_packages_python_and_the_messages_language(setting, monkeypatch):
    import sys

    base = definitions_key(glossary(), REFS, ui())
    if setting == "engine":
        monkeypatch.setattr(cachekeys, "engine_source_digest", lambda packages=None: "another engine")
    elif setting == "python":
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    elif setting == "messages":
        monkeypatch.setenv("LESSONKIT_LANG", "zh-CN" if os.environ.get("LESSONKIT_LANG") == "en" else "en")
    else:
        versions = cachekeys.package_version
        monkeypatch.setattr(cachekeys, "package_version", lambda name: "0.0.1" if name == setting else versions(name))
    assert definitions_key(glossary(), REFS, ui()) != base


def test_definitions_that_read_a_file_or_an_unknown_bibliography_have_no_key():
    assert definitions_key(glossary((TERMS[0], ("norm", "看图 ![点](dot.svg)。", 9))), REFS, ui()) is None
    assert definitions_key(glossary(), Bibliography(REFS.path, {"k": object()}), ui()) is None   # (no digest)
