"""Figure numbering and cross-references, end to end through the command line."""
import re

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.figure(caption="先定义的图", alt="一条线")
def defined_first(plt):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    return fig


@lesson.figure(caption="后定义的图", alt="两个点")
def defined_second(plt):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0], "o")
    return fig
"""
YAML = "title: 图号\nsummary: 图号按出现顺序\nobjectives:\n  - 看图\n"
MD = """\
## 一 {#one}

先看 @fig:defined_second，再看 @fig:defined_first。

{{< figure defined_second >}}

## 二 {#two}

{{< figure defined_first >}}

回头再看 @fig:defined_second。
"""


def test_figures_are_numbered_in_placement_order_and_references_link_to_them(make_lesson, run_build):
    make_lesson(yaml=YAML, md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    # placed second-defined first, so it is 图 1 everywhere, including in references written before it
    assert re.search(r'<figure id="fig-defined_second".*?<span class="fig-num">图 1</span> 后定义的图', page, re.S)
    assert re.search(r'<figure id="fig-defined_first".*?<span class="fig-num">图 2</span> 先定义的图', page, re.S)
    assert ('先看 <a class="fig-ref" href="#fig-defined_second">图 1</a>，'
            '再看 <a class="fig-ref" href="#fig-defined_first">图 2</a>。') in page
    assert '回头再看 <a class="fig-ref" href="#fig-defined_second">图 1</a>。' in page


def test_a_broken_reference_fails_the_build_naming_file_and_line(make_lesson, run_build):
    make_lesson(yaml=YAML, md=MD.replace("回头再看 @fig:defined_second", "回头再看 @fig:defined_thrid"), py=PY)
    code, _, err, out = run_build()
    assert code == 1
    assert "lesson.md:11: reference to unknown figure `@fig:defined_thrid`" in err
    assert not out.exists()
