"""Only work whose inputs changed is redone (lessonkit/incremental.py): what a warm build keeps, it keeps only when
a build from scratch would write the same bytes — every case below compares with one."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lessonkit.site import Options, build
from lesson_folders import PROJECT
from lessonkit.support.paths import BUILTIN_THEMES

PY = '''\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def factor():
    return {factor}


@lesson.figure(caption="每层乘 {{{{ factor }}}}", alt="一条下降的折线")
def decay(plt, factor):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(np.arange(5), factor ** np.arange(5))
    return fig
'''
MD = '''\
## 第一节 {{#first}}

每层乘 {{{{ factor }}}}，{text}

{{{{< figure decay >}}}}

## 第二节 {{#second}}

看 @lesson:{other}。
'''
YAML = "title: {title}\nsummary: 第 {n} 课\norder: {n}\nobjectives:\n  - 会算 {n}\n"
GLOSSARY = "terms:\n  - id: layer\n    zh: 层\n    en: layer\n    definition: 网络的一层。\n"


@pytest.fixture
def course(tmp_path) -> Path:
    content = tmp_path / "content"
    for n, slug in enumerate(["one", "two", "three"], start=1):
        write_lesson(content, slug, n, title=f"第 {n} 课", text="信号变小。", factor=0.5 + n / 10)
    (content / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    return content


def write_lesson(content: Path, slug: str, n: int, title: str, text: str, factor: float) -> None:
    folder = content / slug
    folder.mkdir(parents=True, exist_ok=True)
    other = {"one": "two", "two": "three", "three": "one"}[slug]
    (folder / "lesson.yaml").write_text(YAML.format(title=title, n=n), encoding="utf-8")
    (folder / "lesson.md").write_text(MD.format(text=text, other=other), encoding="utf-8")
    (folder / "lesson.py").write_text(PY.format(factor=factor), encoding="utf-8")


def site(content: Path, out: Path, cache: Path | None, **kw):
    return build(Options(content=content, out=out, themes=kw.pop("themes", PROJECT / "themes"), cache=cache, **kw))


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def same_as_from_scratch(content: Path, out: Path, tmp_path: Path, **kw) -> None:
    scratch = tmp_path / "scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    site(content, scratch, None, jobs=1, **kw)
    assert files(out) == files(scratch)


def test_nothing_changed_keeps_every_page_and_writes_the_same_bytes(course, tmp_path):
    cache = tmp_path / "cache"
    first = site(course, tmp_path / "a", cache)
    assert first.pages_kept == 0 and first.figures_drawn == 3
    again = site(course, tmp_path / "b", cache)
    assert again.pages_kept == 3 and again.figures_drawn == 0 and again.figures_cached == 3
    assert files(tmp_path / "b") == files(tmp_path / "a")
    same_as_from_scratch(course, tmp_path / "b", tmp_path)
    assert again.sizes == first.sizes and again.gzip_sizes == first.gzip_sizes


def test_an_edited_paragraph_remakes_that_lesson_and_the_index_only(course, tmp_path):
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    write_lesson(course, "two", 2, title="第 2 课", text="信号变得很小。", factor=0.7)
    report = site(course, tmp_path / "b", cache)
    assert report.pages_kept == 2 and report.figures_drawn == 0   # the figure's inputs did not change
    assert "信号变得很小" in (tmp_path / "b" / "two" / "index.html").read_text(encoding="utf-8")
    assert "信号变得很小" in (tmp_path / "b" / "search-index.js").read_text(encoding="utf-8")
    same_as_from_scratch(course, tmp_path / "b", tmp_path)


def test_a_new_title_remakes_every_page_that_lists_it(course, tmp_path):
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    write_lesson(course, "three", 3, title="第三课：新名字", text="信号变小。", factor=0.8)
    report = site(course, tmp_path / "b", cache)
    assert report.pages_kept == 0  # every page's contents and pager list the lessons' titles
    assert "第三课：新名字" in (tmp_path / "b" / "one" / "index.html").read_text(encoding="utf-8")
    same_as_from_scratch(course, tmp_path / "b", tmp_path)


def test_a_comment_in_lesson_py_redraws_nothing(course, tmp_path):
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    py = course / "one" / "lesson.py"
    py.write_text("# a note for the next teacher\n\n" + py.read_text(encoding="utf-8"), encoding="utf-8")
    report = site(course, tmp_path / "b", cache)
    assert report.figures_drawn == 0 and report.pages_kept == 2
    same_as_from_scratch(course, tmp_path / "b", tmp_path)


@pytest.mark.parametrize("edit", ["site.yaml", "glossary.yaml", "theme"])
def test_what_every_page_shares_remakes_every_page(course, tmp_path, edit):
    cache, themes = tmp_path / "cache", tmp_path / "themes"
    (themes / "mine" / "i18n").mkdir(parents=True)
    os.symlink(BUILTIN_THEMES / "default", themes / "default")
    site(course, tmp_path / "a", cache, themes=themes, theme="mine")
    if edit == "site.yaml":
        (course / "site.yaml").write_text("title: 新的书名\n", encoding="utf-8")
    elif edit == "glossary.yaml":
        (course / "glossary.yaml").write_text(GLOSSARY.replace("网络的一层。", "网络里的一层。"), encoding="utf-8")
    else:
        (themes / "mine" / "i18n" / "zh-CN.yaml").write_text("footer: 页脚换了\n", encoding="utf-8")
    report = site(course, tmp_path / "b", cache, themes=themes, theme="mine")
    assert report.pages_kept == 0
    same_as_from_scratch(course, tmp_path / "b", tmp_path, themes=themes, theme="mine")


def test_one_lesson_alone_is_not_taken_for_the_whole_course(course, tmp_path):
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    alone = site(course, tmp_path / "b", cache, lesson="two")
    assert alone.pages_kept == 0 and alone.lessons == ["two"]   # its pager has no neighbours: another page
    same_as_from_scratch(course, tmp_path / "b", tmp_path, lesson="two")


def test_a_build_with_nothing_changed_imports_no_jinja_markdown_or_numpy(course, tmp_path):
    cache, out = tmp_path / "cache", tmp_path / "out"
    site(course, out, cache)
    probe = ("import sys; from lessonkit.cli import main; code = main(sys.argv[1:]); "
             "print(code, sorted(m for m in ('jinja2', 'markdown', 'numpy', 'matplotlib') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe, "build", "-q", "--content", str(course), "--out", str(out),
                           "--cache-dir", str(cache)], capture_output=True, text=True, cwd=PROJECT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(PROJECT)})
    assert done.stdout.strip() == "0 []", done.stderr


def test_the_preview_keeps_pages_with_its_script_and_a_build_never_takes_them(course, tmp_path):
    """`serve`'s pages carry its reload script (the same on every rebuild): a rebuild keeps those whose inputs did
    not change; a page kept for one script is never taken for another, nor for a build without one."""
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    first = site(course, tmp_path / "b", cache, preview_script="console.log(1)")
    assert first.pages_kept == 0 and "console.log(1)" in (tmp_path / "b" / "one" / "index.html").read_text("utf-8")
    md = course / "one" / "lesson.md"
    md.write_text(md.read_text(encoding="utf-8") + "\n又一句。\n", encoding="utf-8")
    again = site(course, tmp_path / "c", cache, preview_script="console.log(1)")
    assert again.pages_kept == len(first.lessons) - 1                        # all but the edited lesson
    assert "又一句" in (tmp_path / "c" / "one" / "index.html").read_text("utf-8")
    same_as_from_scratch(course, tmp_path / "c", tmp_path, preview_script="console.log(1)")
    other = site(course, tmp_path / "d", cache, preview_script="console.log(2)")
    assert other.pages_kept == 0
    plain = site(course, tmp_path / "e", cache)
    assert "console.log" not in (tmp_path / "e" / "one" / "index.html").read_text("utf-8")
    assert all("console.log" not in (tmp_path / "e" / path).read_text("utf-8") for path in plain.pages
               if path.endswith(".html"))


def test_a_problem_in_a_kept_course_is_still_reported(course, tmp_path):
    cache = tmp_path / "cache"
    site(course, tmp_path / "a", cache)
    md = course / "one" / "lesson.md"
    md.write_text(md.read_text(encoding="utf-8") + textwrap.dedent("\n{{ nothing }}\n"), encoding="utf-8")
    from lessonkit.support.errors import ContentError
    with pytest.raises(ContentError) as info:
        site(course, tmp_path / "b", cache)
    assert any("unknown value `nothing`" in str(p) for p in info.value.problems)


def test_a_page_over_its_budget_is_never_kept(course, tmp_path):
    from lessonkit.support.errors import ContentError

    cache = tmp_path / "cache"
    (course / "site.yaml").write_text("budget: {page_kb: 20, gzip_kb: 60}\n", encoding="utf-8")
    for _ in range(2):  # the second build must not take what the first could not write
        with pytest.raises(ContentError) as info:
            site(course, tmp_path / "out", cache)
        assert any("over its weight budget" in str(p) for p in info.value.problems)
