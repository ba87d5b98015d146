"""Rendered lesson.md sections kept in the cache (lessonkit/render/sectionmemo.py): a section is taken only when
rendering it again would make the same page — every case builds with the cache after an edit and compares the
bytes with a build from scratch of the same content — and what its rendering reported is reported again."""
from __future__ import annotations

import functools
import pickle
import shutil
from pathlib import Path

import pytest

from lessonkit.render.lesson import _render_fields, _section
from lessonkit.render.placers import LessonRenderer
from lessonkit.render.sectionmemo import SectionMemo, section_part
from lessonkit.site import Options, build
from lessonkit.support.cachekeys import SectionInputs, section_key
from lessonkit.support.errors import ContentError
from lessonkit.support.paths import BUILTIN_THEMES
from lessonkit.support.store import SECTIONS, Store
from lesson_folders import PROJECT
import page_setting

PY = '''\
import numpy as np
from lessonkit import Lesson, table

lesson = Lesson()


@lesson.value
def factor():
    return 0.5


@lesson.value
def layers():
    return 6


@lesson.value
def flags():
    return table({"n": [1, 2], "even": [False, True]}, caption="奇偶")


@lesson.figure(caption="每层乘 {{ factor }}", alt="一条下降的折线")
def decay(plt, factor):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(np.arange(5), factor ** np.arange(5))
    return fig


@lesson.figure(caption="增长", alt="一条上升的折线")
def growth(plt, layers):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(np.arange(layers), np.arange(layers) ** 2)
    return fig


@lesson.widget
def mask_table():
    words = ["猫", "坐", "下"]
    n = len(words)
    return {"rows": words, "cols": words, "context": "续写", "initial_mode": "encoder",
            "modes": [{"key": "encoder", "label": "编码器", "visible": np.ones((n, n), dtype=bool).tolist()},
                      {"key": "decoder", "label": "解码器", "visible": np.tril(np.ones((n, n), dtype=bool)).tolist()}]}
'''
YAML = '''\
title: 信号
summary: 信号怎样变小
objectives:
  - 读懂一个算出来的数
checks:
  - id: pow
    question: 每层乘多少？
    check:
      fields:
        - label: 系数
          answer: factor
          tolerance: {absolute: 0.01}
    answer: 乘 {{ factor }}。
challenges:
  - title: 层数
    question: 一共几层？
    answer: "{{ layers }} 层。"
'''
MD = '''\
## 第一节 {#first}

每层乘 {{ factor }}，信号变小，层数是 {{ layers }}。见 @fig:growth 与 @eq:decay [@press2022]。

$$ y = {{ factor }}^n $$ {#eq:decay}

{{< figure decay >}}

{{< check pow >}}

## 第二节 {#second}

层很多，看 @lesson:other 与 @eq:later，再引 [@vaswani2017]。

$$ z = x + f(x) $$ {#eq:later}

{{< figure growth >}}

{{< widget mask_table >}}

{{< table flags >}}

::: toggle 换一种看法
::: state 甲
甲的样子。
:::
::: state 乙
乙的样子。
:::
:::

## 第三节 {#third}

再看 [@press2022] 与 [@vaswani2017]，和 $e^{-x}$ 与 @eq:later。
'''
OTHER_MD = "## 别的 {#else}\n\n这里没有数。\n"
OTHER_YAML = "title: 另一课\nsummary: 另一课\nobjectives:\n  - 读一读\n"
BIB = '''\
@article{press2022,
  author = {Press, Ofir and Smith, Noah},
  title = {Train Short, Test Long},
  journal = {ICLR},
  year = {2022}
}
@article{vaswani2017,
  author = {Vaswani, Ashish},
  title = {Attention Is All You Need},
  journal = {NeurIPS},
  year = {2017}
}
'''
GLOSSARY = "terms:\n  - id: layer\n    zh: 层\n    en: layer\n    definition: 网络的一层。\n"


@pytest.fixture
def content(tmp_path) -> Path:
    content = tmp_path / "content"
    write(content / "waves", {"lesson.py": PY, "lesson.yaml": YAML, "lesson.md": MD})
    write(content / "other", {"lesson.py": None, "lesson.yaml": OTHER_YAML, "lesson.md": OTHER_MD})
    write(content, {"references.bib": BIB, "glossary.yaml": GLOSSARY})
    return content


def write(folder: Path, files: dict[str, str | None]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        if text is not None:
            (folder / name).write_text(text, encoding="utf-8")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def site(content: Path, out: Path, cache: Path | None, **kw):
    return build(Options(content=content, out=out, themes=kw.pop("themes", PROJECT / "themes"), cache=cache,
                         jobs=1, **kw))


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def sections_kept(cache: Path) -> set[str]:
    return {p.name for p in (cache / SECTIONS.folder).iterdir()}


def cached_equals_scratch(content: Path, tmp_path: Path, change, **kw) -> tuple[set[str], set[str]]:
    """Build with the cache, `change()` the content, build with the cache again: the same bytes as a build of the
    changed content without a cache. Returns the section entries before and after the change."""
    cache = tmp_path / "cache"
    site(content, tmp_path / "first", cache, **kw.get("first", {}))
    before = sections_kept(cache)
    change()
    site(content, tmp_path / "warm", cache, **kw.get("then", {}))
    site(content, tmp_path / "scratch", None, **kw.get("then", {}))
    assert files(tmp_path / "warm") == files(tmp_path / "scratch")
    return before, sections_kept(cache)


def test_an_edited_paragraph_renders_only_its_section_again(content, tmp_path):
    before, after = cached_equals_scratch(
        content, tmp_path, lambda: edit(content / "waves" / "lesson.md", "信号变小，", "信号变得很小，"))
    assert len(before) == 6 and len(after - before) == 1   # 3 + 1 sections, 2 lesson.yaml's; one rendered again


def test_a_paragraph_edited_again_takes_every_other_section(content, tmp_path):
    cache = tmp_path / "cache"
    site(content, tmp_path / "a", cache)
    for _ in range(2):
        edit(content / "waves" / "lesson.md", "，层数是", "，真的，层数是")
        site(content, tmp_path / "warm", cache)
    shutil.rmtree(tmp_path / "warm")
    edit(content / "waves" / "lesson.md", "再看", "然后再看")      # the third section: the first is kept as it is
    site(content, tmp_path / "warm", cache)
    site(content, tmp_path / "scratch", None)
    assert files(tmp_path / "warm") == files(tmp_path / "scratch")


CHANGES = {
    "a value": lambda c: edit(c / "waves" / "lesson.py", "return 0.5", "return 0.25"),
    "widget data": lambda c: edit(c / "waves" / "lesson.py", '"猫", "坐", "下"', '"狗", "跑", "了"'),
    "a caption": lambda c: edit(c / "waves" / "lesson.py", 'caption="增长"', 'caption="变大"'),
    "a glossary term": lambda c: edit(c / "glossary.yaml", "zh: 层", "zh: 信号"),
    "a heading": lambda c: edit(c / "waves" / "lesson.md", "## 第二节", "## 第二节，改过"),
    "citation numbers": lambda c: edit(c / "waves" / "lesson.md", "[@press2022]。", "[@vaswani2017; @press2022]。"),
    "figure numbers": lambda c: move_growth_first(c / "waves" / "lesson.md"),
    "equation numbers": lambda c: edit(c / "waves" / "lesson.md", "{{< figure decay >}}",
                                       "$$ w = 1 $$ {#eq:first}\n\n{{< figure decay >}}"),
    "a term marked": lambda c: edit(c / "waves" / "lesson.md", "层很多", "[[层]]很多"),
    "a line added": lambda c: edit(c / "waves" / "lesson.md", "## 第二节", "\n## 第二节"),
    "a reference link": lambda c: add_reference_link(c / "waves" / "lesson.md"),
    "its target, defined in another section": lambda c: edit(c / "waves" / "lesson.md", "https://example.org/a",
                                                             "https://example.org/b"),
    "a self-check": lambda c: edit(c / "waves" / "lesson.yaml", "每层乘多少？", "每一层乘多少？"),
    "another lesson's title": lambda c: edit(c / "other" / "lesson.yaml", "title: 另一课", "title: 别的课"),
    "the bibliography": lambda c: edit(c / "references.bib", "year = {2017}", "year = {2018}"),
    "the language": lambda c: write(c, {"site.yaml": "language: en\n"}),
    "a linked lesson left out": lambda c: edit(c / "other" / "lesson.yaml", "title: 别的课",
                                               "title: 别的课\ndraft: true"),
}


@pytest.mark.parametrize("changes", [list(CHANGES)[:7], list(CHANGES)[7:]], ids=["values-numbers", "text-course"])
def test_whatever_a_section_is_made_from_changes_its_page_as_a_build_from_scratch_would(content, tmp_path, changes):
    """One change after another, each built with the cache (which keeps what every build before made) and from
    scratch."""
    cache = tmp_path / "cache"
    site(content, tmp_path / "first", cache)
    for name in changes:
        CHANGES[name](content)
        shutil.rmtree(tmp_path / "warm", ignore_errors=True)
        shutil.rmtree(tmp_path / "scratch", ignore_errors=True)
        site(content, tmp_path / "warm", cache)
        site(content, tmp_path / "scratch", None)
        assert files(tmp_path / "warm") == files(tmp_path / "scratch"), name


def add_reference_link(path: Path) -> None:
    """A link in the first section whose target the last section defines."""
    edit(path, "信号变小", "信号[变小][r]")
    edit(path, "与 @eq:later。\n", "与 @eq:later。\n\n[r]: https://example.org/a\n")


def move_growth_first(path: Path) -> None:
    edit(path, "{{< figure growth >}}\n\n{{< widget", "{{< widget")
    edit(path, "{{< figure decay >}}", "{{< figure growth >}}\n\n{{< figure decay >}}")


def test_a_theme_word(content, tmp_path):
    themes = tmp_path / "themes"
    words = (BUILTIN_THEMES / "default" / "i18n" / "zh-CN.yaml").read_text(encoding="utf-8")
    assert "figure: 图\n" in words

    def change():
        write(themes / "default" / "i18n", {"zh-CN.yaml": words.replace("figure: 图\n", "figure: 插图\n")})
    (themes / "default").mkdir(parents=True)
    cached_equals_scratch(content, tmp_path, change, first={"themes": themes}, then={"themes": themes})


@pytest.mark.parametrize("then", [{"format": "teacher"}, {"drafts": True}, {"format": "lms"}], ids=str)
def test_another_edition_from_the_same_cache(content, tmp_path, then):
    edit(content / "waves" / "lesson.yaml", "title: 信号", "title: 信号\ndraft: true")
    then = {**then, "drafts": True} if then.get("format") == "lms" else then
    cached_equals_scratch(content, tmp_path, lambda: None, first={"drafts": True}, then=then)


def test_answers_hidden_until_a_day(content, tmp_path):
    edit(content / "waves" / "lesson.yaml", "title: 信号", "title: 信号\nanswers: '2030-01-01'")
    import datetime as dt
    cached_equals_scratch(content, tmp_path, lambda: None, first={"date": dt.date(2029, 1, 1)},
                          then={"date": dt.date(2031, 1, 1)})


def test_what_a_kept_section_reported_is_reported_again(content, tmp_path):
    """A warning (a link to a lesson not published yet) and, under --strict, the same error, whether the section
    was rendered now or taken; a section with an error is reported the same when taken."""
    edit(content / "other" / "lesson.yaml", "title: 另一课", "title: 另一课\ndraft: true")
    cache = tmp_path / "cache"
    first = site(content, tmp_path / "a", cache)
    edit(content / "waves" / "lesson.md", "再看", "然后再看")   # the page is made again, the second section taken
    again = site(content, tmp_path / "b", cache)
    said = [str(w) for w in first.warnings if "other" in str(w)]
    assert said and said == [str(w) for w in again.warnings if "other" in str(w)]
    errors = []
    for _ in range(2):
        with pytest.raises(ContentError) as err:
            site(content, tmp_path / "c", cache, strict=True)
        errors.append([str(p) for p in err.value.problems])
    assert errors[0] == errors[1] and any("@lesson:other" in e for e in errors[0])
    edit(content / "waves" / "lesson.md", "层数是 {{ layers }}", "层数是 {{ layerz }}")
    for _ in range(2):
        with pytest.raises(ContentError) as err:
            site(content, tmp_path / "d", cache)
        errors.append([str(p) for p in err.value.problems])
    assert errors[2] == errors[3] and any("layerz" in e for e in errors[2])


# ── the key ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def test_every_input_is_in_the_key():
    inputs = SectionInputs(*(f"{name}-0" for name in SectionInputs._fields))
    keys = {section_key(inputs)}
    for name in SectionInputs._fields:
        keys.add(section_key(inputs._replace(**{name: f"{name}-1"})))
    assert len(keys) == 1 + len(SectionInputs._fields)
    same = SectionInputs(*(f"{name}-0" for name in SectionInputs._fields))
    assert section_key(inputs) == section_key(same)
    # parts are delimited: moving text from one part to the next is another key
    moved = inputs._replace(shared="shared-0l", lesson="esson-0")
    assert section_key(moved) != section_key(inputs)


def lesson_renderer(content: Path, **setting) -> LessonRenderer:
    source = page_setting.read(content / "waves")
    lesson = page_setting.computed(content / "waves")
    course = page_setting.course_of(source, page_setting.read(content / "other"))
    return LessonRenderer(lesson, page_setting.setting(course, **setting))


def inputs_of(content: Path, section: int = 1, **setting) -> SectionInputs:
    renderer = lesson_renderer(content, **setting)
    memo = SectionMemo(Store(None), shared="shared")
    return memo.inputs(renderer, section_part(renderer.lesson.source.sections[section - 1], section))


@pytest.mark.parametrize("change, part", [
    (lambda c: edit(c / "waves" / "lesson.py", "return 0.5", "return 0.25"), "lesson"),
    (lambda c: edit(c / "waves" / "lesson.py", "def growth", "\n\ndef growth"), "lesson"),   # its lines
    (lambda c: edit(c / "waves" / "lesson.yaml", "每层乘多少？", "每一层乘多少？"), "lesson"),
    (lambda c: write(c / "waves", {"data.csv": "1,2\n"}), "lesson"),
    (lambda c: edit(c / "waves" / "lesson.md", "{{< figure decay >}}", "\n{{< figure decay >}}"),
     "numbering"),  # the placements after it move
    (lambda c: edit(c / "waves" / "lesson.md", "{{< figure growth >}}\n", ""), "numbering"),
    (lambda c: edit(c / "waves" / "lesson.md", "信号变小", "信号变得很小"), "part"),
    (lambda c: edit(c / "waves" / "lesson.md", "## 第一节", "## 第 1 节"), "part"),
])
def test_each_input_of_a_section_changes_its_part_of_the_key(content, change, part):
    before = inputs_of(content)
    change(content)
    after = inputs_of(content)
    changed = {name for name in SectionInputs._fields if getattr(before, name) != getattr(after, name)}
    assert part in changed and section_key(before) != section_key(after)


def test_the_edition_and_release_are_in_the_key(content):
    from lessonkit.load.release import Release
    plain = inputs_of(content)
    assert inputs_of(content, teacher=True).release != plain.release
    assert inputs_of(content, lms=True).release != plain.release
    assert inputs_of(content, release=Release(answers=False)).release != plain.release
    assert inputs_of(content, release=Release(draft=True)).release != plain.release


def test_what_the_sections_before_left_is_in_the_key(content):
    """The second section's key holds what the first placed, numbered and met."""
    renderer = lesson_renderer(content)
    memo = SectionMemo(Store(None), shared="shared")
    second = renderer.lesson.source.sections[1]
    untouched = memo.inputs(renderer, section_part(second, 2)).state
    _section(renderer, renderer.lesson.source.sections[0], 1)
    assert memo.inputs(renderer, section_part(second, 2)).state != untouched
    for change in (lambda r: r.ledger.widgets.add("x"), lambda r: r.ledger.checks.add("x"),
                   lambda r: r.ledger.code.add("x"), lambda r: r.ledger.terms_used.setdefault("x"),
                   lambda r: r.ledger.terms_marked.setdefault("x"), lambda r: r.citer.cited.setdefault("x")):
        state = memo.inputs(renderer, section_part(second, 2)).state
        change(renderer)
        assert memo.inputs(renderer, section_part(second, 2)).state != state


def test_the_shared_inputs_hold_the_theme_the_top_of_content_the_edition_and_the_engine(content, tmp_path,
                                                                                          monkeypatch):
    from lessonkit.incremental import shared_inputs
    from lessonkit.support import cachekeys
    from lessonkit.load.release import Edition, Publication

    themes = tmp_path / "theme"
    write(themes, {"style.css": "a{}"})
    source = page_setting.read(content / "waves")
    options = Options(content=content, out=tmp_path / "o", themes=tmp_path)
    publication = Publication(Edition(), {})

    def digest(**kw):
        return shared_inputs(content, [themes], [source], kw.get("options", options),
                             kw.get("publication", publication))
    first = digest()
    assert digest() == first
    write(themes, {"style.css": "a{color:red}"})
    changed = [digest()]
    write(content, {"glossary.yaml": GLOSSARY + "  - id: x\n    zh: 信号\n    en: signal\n    definition: 一个量。\n"})
    changed.append(digest())
    changed.append(digest(options=options._replace(theme="other")))
    changed.append(digest(publication=Publication(Edition(teacher=True), {})))
    monkeypatch.setattr(cachekeys, "engine_source_digest", lambda packages=None: "another engine")
    changed.append(digest())
    assert len({first, *changed}) == 1 + len(changed)


# ── the renderer's state ────────────────────────────────────────────────────────────────────────────────────────────
def everything(renderer: LessonRenderer) -> dict[str, bytes]:
    """Every attribute of the renderer and of the objects it renders with, pickled (or shown, when it cannot be):
    what a section's rendering could change. The objects themselves are compared attribute by attribute."""
    from lessonkit.features.citations import Citer
    from lessonkit.features.selfcheck_page import Placement
    from lessonkit.render.containers import Containers
    from lessonkit.render.markup import MarkupContext
    from lessonkit.render.placers import PageSetting
    owners = (("renderer", renderer), ("ledger", renderer.ledger), ("ctx", renderer.ctx), ("containers", renderer.containers),
              ("citer", renderer.citer), ("checks", renderer.checks), ("setting", renderer.setting),
              ("lesson", renderer.lesson), ("course", renderer.setting.course))
    found = {}
    for owner, obj in owners:
        for name, value in (obj._asdict() if isinstance(obj, tuple) else vars(obj)).items():  # (a record: its fields)
            if any(value is other for _, other in owners) or isinstance(value, (MarkupContext, Containers, Citer,
                                                                                Placement, PageSetting)):
                continue
            try:
                found[f"{owner}.{name}"] = pickle.dumps(value)
            except Exception:
                found[f"{owner}.{name}"] = repr(value).encode()
    return found


def test_rendering_a_section_changes_nothing_but_what_the_memo_keeps(content):
    """What the memo keeps of the renderer (its Ledger's state), the problem lists, the standalone self-checks and the figure holes (marked again when
    a section is taken): anything else a section's rendering changed would be lost when it is taken from the memo.
"""
    kept = {"ledger.widgets", "ledger.checks", "ledger.code", "ledger.terms_used", "ledger.terms_marked",
            "ledger.cited", "citer.cited", "ctx.problems", "containers.problems", "ctx.warnings",
            "ledger.alone_checks", "setting.holes",
            "ctx.converters", "setting.converters",  # (memos of MathML and highlighted code: they only save work)
            "course.glossary",                        # (its pattern, compiled when first used)
            "renderer.env", "setting.env", "containers.env"}  # (Jinja's templates, loaded when first used)
    edit(content / "waves" / "lesson.md", "再看", "[[层]]再看 @lesson:nowhere $$ u $$ {#eq:fresh}\n\n")
    edit(content / "waves" / "lesson.yaml", 'answer: "{{ layers }} 层。"',   # lesson.yaml's fields: one part
         'answer: "{{ layers }} [[size]] [@vaswani2017] @lesson:nowhere。\\n\\n{{< figure growth >}}"')
    write(content, {"glossary.yaml": GLOSSARY + "  - id: size\n    zh: 大小\n    en: size\n    definition: 多大。\n"})
    renderer = lesson_renderer(content)
    setting = renderer.setting._replace(course=renderer.setting.course._replace(glossary=_glossary(content)))
    renderer = LessonRenderer(renderer.lesson, setting)
    parts = [functools.partial(_section, renderer, section, n)
             for n, section in enumerate(renderer.lesson.source.sections, start=1)]
    for render in parts + [functools.partial(_render_fields, renderer)]:
        before, state = everything(renderer), renderer.ledger.state()
        render()
        after = everything(renderer)
        assert {name for name in after if before.get(name) != after[name]} <= kept
        assert renderer.ledger.state() != state
    assert renderer.problems and renderer.ledger.terms_used and renderer.ledger.terms_marked
    assert any(getattr(hole, "figure_id", "") == "fig-growth-print" for hole in renderer.setting.holes.known)  # the answer's


def _glossary(content: Path):
    from lessonkit.features.glossary import load_glossary
    return load_glossary(content, [])



def test_an_equation_label_used_twice_is_reported_when_its_first_section_is_taken(content, tmp_path):
    edit(content / "waves" / "lesson.md", "再看", "$$ u = 1 $$ {#eq:decay}\n\n再看")
    cache, said = tmp_path / "cache", []
    for text in ("再看", "然后再看"):   # the second build takes the first section and renders the third again
        edit(content / "waves" / "lesson.md", "再看", text)
        with pytest.raises(ContentError) as err:
            site(content, tmp_path / "out", cache)
        said.append([str(p) for p in err.value.problems if "eq:decay" in str(p)])
    assert said[0] and said[0] == said[1]


# ── lesson.yaml's fields: one part of the page, kept as a section is ───────────────────────────────────────────────
@pytest.fixture
def rendered(monkeypatch) -> list[tuple[str, ...]]:
    """What of lesson.yaml was rendered (not taken from the memo), in order: ("fields", slug) for its fields
    together, ("md", slug, key) for each field's Markdown (the challenges' self-checks' too)."""
    from lessonkit.render import lesson as page
    render_fields, md, found = page._render_fields, LessonRenderer.md, []

    def fields(renderer):
        found.append(("fields", renderer.lesson.slug))
        return render_fields(renderer)

    def markdown(self, key, *args, **kw):
        found.append(("md", self.lesson.slug, key))
        return md(self, key, *args, **kw)
    monkeypatch.setattr(page, "_render_fields", fields)
    monkeypatch.setattr(LessonRenderer, "md", markdown)
    return found


def rebuilt(content: Path, tmp_path: Path, change, rendered: list, **edition) -> tuple[list, str]:
    """Build with the cache, `change()`, build again (the same bytes as a build from scratch): what of lesson.yaml
    the second build rendered, and the page it wrote."""
    site(content, tmp_path / "first", tmp_path / "cache", **edition)
    assert ("fields", "waves") in rendered and any(r[0] == "md" for r in rendered)   # (what is counted is called)
    change()
    rendered.clear()
    site(content, tmp_path / "warm", tmp_path / "cache", **edition)
    again = list(rendered)
    site(content, tmp_path / "scratch", None, **edition)
    assert files(tmp_path / "warm") == files(tmp_path / "scratch")
    return again, (tmp_path / "warm" / "waves" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("edition", [{}, {"format": "teacher"}, {"format": "lms"}], ids=str)
def test_an_edited_paragraph_takes_lesson_yaml_s_fields(content, tmp_path, rendered, edition):
    """A figure placed in a challenge's answer (its holes marked again), a term marked and a work cited there: none
    of lesson.yaml's Markdown is rendered again when a paragraph of lesson.md changes (an LMS edition's questions
    are rendered from it on their own: render/questions.py)."""
    edit(content / "waves" / "lesson.md", "{{< figure growth >}}\n", "")
    edit(content / "waves" / "lesson.yaml", 'answer: "{{ layers }} 层。"',
         'answer: "{{ layers }} [[layer|层]] [@vaswani2017]。\\n\\n{{< figure growth >}}"')
    again, page = rebuilt(content, tmp_path, lambda: edit(content / "waves" / "lesson.md", "再看", "然后再看"),
                          rendered, **edition)
    assert again == [] if edition.get("format") != "lms" else ("fields", "waves") not in again
    assert 'id="fig-growth"' in page and 'id="fig-growth-print"' in page and 'href="#term-layer"' in page


@pytest.mark.parametrize("change, shown", [
    (lambda c: edit(c / "waves" / "lesson.py", "return 6", "return 7"), "7 层。"),     # a value the answer reads
    (lambda c: edit(c / "waves" / "lesson.yaml", "一共几", "一共有几"), "一共有几"),
    (lambda c: edit(c / "glossary.yaml", "id: layer", "id: tier"), 'href="#term-tier"'),
], ids=["a value", "a challenge", "the glossary"])
def test_what_lesson_yaml_s_fields_are_made_from_renders_them_again(content, tmp_path, rendered, change, shown):
    edit(content / "waves" / "lesson.yaml", "一共几层？", "一共几[[layer|层]]？")
    again, page = rebuilt(content, tmp_path, lambda: change(content), rendered)
    assert ("fields", "waves") in again and shown in page


def test_a_part_is_kept_as_plain_data_its_figure_holes_marked_again(content, tmp_path):
    """Strings anywhere in a part's rendering get the build's own markers back; a rendering that is not plain data
    (it could hold a marker no token stands for) is rendered again on every build."""
    from lessonkit.render.draft import FigureHole
    memo, renders = SectionMemo(Store(tmp_path / "cache"), shared="shared"), []

    def plain(renderer):
        renders.append("plain")
        return {"a": [f"甲{renderer.figure_mark('decay')}乙", 1, None], "b": (True, 2.5, {"c": "丙"})}

    def not_plain(renderer):
        renders.append("not plain")
        return {"a": [Path("甲")]}
    made = []
    for n in range(2):
        renderer = lesson_renderer(content)
        for other in range(n + 1):                          # another build's holes before it: its numbers differ
            renderer.setting.holes.mark(FigureHole("waves", f"other{other}"))
        made.append((memo.part(renderer, "x", lambda: plain(renderer)), renderer.figure_mark("decay")))
        memo.part(renderer, "y", lambda: not_plain(renderer))
    assert renders == ["plain", "not plain", "not plain"]
    (first, mark), (again, mark_again) = made
    assert mark != mark_again
    assert again == {"a": [f"甲{mark_again}乙", 1, None], "b": (True, 2.5, {"c": "丙"})}
    assert first == {"a": [f"甲{mark}乙", 1, None], "b": (True, 2.5, {"c": "丙"})}
