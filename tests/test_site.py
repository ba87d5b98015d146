"""The build as a whole: figure placement and numbering, values that figures cannot change, problems from every
source reported together, and lines in lesson.yaml's multi-line texts."""
import re

MINIMAL_YAML = "title: 小课\nsummary: 一节用来测试的小课\nobjectives:\n  - 看懂一个数\n"

FIGURE_PY = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def arr():
    return np.array([3.0, 1.0, 2.0])


@lesson.figure(caption="排序", alt="三根柱子")
def bars(plt, arr):
    arr.sort()          # changes its input in place: must not reach the text
    arr *= 10
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.bar(range(3), arr)
    ax.text(0, 0, "窄", fontstretch="condensed", fontvariant="small-caps")
    return fig


@lesson.figure(caption="第二张", alt="一条线")
def line(plt, arr):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(arr)
    ax.set_title(f"首项 {arr[0]:g}")
    return fig
"""
FIGURE_MD = "## 第一节 {#one}\n\narr = {{ arr }}\n\n{{< figure bars >}}\n\n{{< figure line >}}\n"


def test_figures_cannot_change_values_whatever_the_jobs_or_cache(make_lesson, run_build, tmp_path):
    make_lesson(md=FIGURE_MD, py=FIGURE_PY)
    pages = []
    for args in (["--no-cache", "--jobs", "1"], ["--no-cache", "--jobs", "2"], ["--jobs", "1"], ["--jobs", "1"]):
        code, _, err, out = run_build(*args)
        assert code == 0, err
        pages.append((out / "demo" / "index.html").read_bytes())
    assert len(set(pages)) == 1
    page = pages[0].decode()
    assert "arr = [3.00, 1.00, 2.00]" in page
    assert ">首项 3<" in page  # the second figure saw the value as computed, not as the first figure left it


def test_figure_numbers_skip_code_blocks_and_a_second_placement_is_an_error(make_lesson, run_build):
    md = ("## 第一节\n\n```\n{{< figure line >}}\n```\n\n{{< figure line >}}\n\n见 @fig:bars。\n\n"
          "{{< figure bars >}}\n\n{{< figure line >}}\n")
    make_lesson(md=md, py=FIGURE_PY)
    code, _, err, _ = run_build()
    assert code == 1
    assert "lesson.md:13: figure `line` is placed twice (first at line 7) (expected each figure placed once)" in err
    make_lesson(md=md.rsplit("\n\n{{< figure line >}}", 1)[0] + "\n", py=FIGURE_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<a class="fig-ref" href="#fig-bars">图 2</a>' in page  # the example in the code block is not 图 1
    assert page.count('id="fig-line"') == 1 and "<code>{{&lt; figure line &gt;}}</code>" in page


def test_a_figure_directive_in_lesson_yaml_is_reported(make_lesson, run_build):
    make_lesson(yaml=MINIMAL_YAML + "intro: |\n  开头\n  {{< figure bars >}}\n", md=FIGURE_MD, py=FIGURE_PY)
    code, _, err, _ = run_build()
    assert code == 1 and "Traceback" not in err
    assert "lesson.yaml:7: `bars` placed outside lesson.md (expected figures and widgets placed in lesson.md only" in err


def test_site_yaml_and_lesson_problems_are_reported_together(make_lesson, run_build, tmp_path):
    make_lesson(md="## 第一节\n\n{{ nope }}\n")
    (tmp_path / "content" / "site.yaml").write_text("titel: x\n", encoding="utf-8")
    code, _, err, _ = run_build()
    assert code == 1
    assert "site.yaml:1: unknown key `titel`" in err and "lesson.md:3: unknown value `nope`" in err


def test_lines_inside_a_multiline_answer_are_exact(make_lesson, run_build):
    yaml = MINIMAL_YAML + ("challenges:\n  - title: 题\n    question: 问\n    answer: |\n"
                           "      第一行\n      第二行 {{ nope }}\n")
    make_lesson(yaml=yaml)
    code, _, err, _ = run_build()
    assert code == 1
    assert re.search(r"lesson\.yaml:10: unknown value `nope`", err), err


def test_a_widget_placed_twice_is_reported(make_lesson, run_build):
    py = "from lessonkit import Lesson, bars\nlesson = Lesson()\n\n\n@lesson.widget\n" \
         "def stack():\n    return bars(['A', 'B'], [1.0, 2.0])\n"
    make_lesson(md="## 第一节\n\n{{< widget stack >}}\n\n{{< widget stack >}}\n", py=py)
    code, _, err, _ = run_build()
    assert code == 1
    assert "lesson.md:5: widget `stack` is placed twice (expected each widget placed once)" in err


def test_a_script_may_pass_relative_paths(make_lesson, tmp_path, monkeypatch):
    """build() as a script calls it, with paths relative to the working folder: the widget's component template
    (found by absolute path) is found, and the pages are written where the relative path says."""
    import os
    from pathlib import Path

    from lessonkit.site import Options, build
    from lesson_folders import PROJECT

    py = "from lessonkit import Lesson, bars\nlesson = Lesson()\n\n\n@lesson.widget\n" \
         "def stack():\n    return bars(['A', 'B'], [1.0, 2.0])\n"
    make_lesson(md="## 第一节\n\n{{< widget stack >}}\n", py=py)
    monkeypatch.chdir(tmp_path)
    themes = Path(os.path.relpath(PROJECT / "themes", tmp_path))  # relative, as a script in tmp_path would say
    report = build(Options(content=Path("content"), out=Path("site"), themes=themes))
    page = (tmp_path / "site" / "demo" / "index.html").read_text(encoding="utf-8")
    assert 'data-widget="bars"' in page and "demo/index.html" in report.pages
