"""load/plan.py: a lesson's text read once at load into its plan — the places of figures, widgets, self-checks and
code in reading order (lesson.md's sections, then the challenges' answers), the figure functions lesson.py declares,
figure and equation numbers, and lesson.yaml's Markdown fields parsed. One small lesson folder in tmp_path, read by
the load stage alone (lesson.py is parsed, never run); every line number is counted in the text below."""
import textwrap
from pathlib import Path

import pytest

from lessonkit.load.lessons import read_lesson
from lessonkit.load.plan import LessonPlan, Place, declared_figures, make_plan, wants_output
from lessonkit.load.syntax.nodes import Directive, Maths, Paragraph, Text

MD = """\
## 一 {#one}

{{< figure curve >}}

::: note 注意
{{< widget slider >}}
:::

$$a = b$$ {#eq:first}

```python
{{< figure in-a-fence >}}
```

## 二 {#two}

{{< code draw_bars >}}
{{< code draw_hidden output=false >}}
{{< check quiz >}}
{{< code draw_hidden output=maybe >}}

$$c$$ {#eq:second}
"""

YAML = """\
title: 小课
summary: 测试
objectives:
  - 看懂
intro: |
  开场白，见 $$x$$ {#eq:intro}
challenges:
  - title: 一
    question: 问
    answer: |
      答案如图：

      {{< figure answer-fig >}}
  - title: 二
    question: 再问
    answer: 没有图。
    hints:
      - 想一想
checks:
  - id: quiz
    question: 测一测
    check: {choices: [{text: 甲, correct: true}]}
"""

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.figure(caption="柱", alt="柱状图", name="bars")
def draw_bars(plt):
    pass


@lesson.figure(caption="藏", alt="藏起来的图")
def draw_hidden(plt):
    pass


def helper():
    pass
"""


def lesson_folder(tmp_path: Path, md: str = MD, yaml: str = YAML, py: str | None = PY) -> Path:
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "lesson.md").write_text(md, encoding="utf-8")
    (folder / "lesson.yaml").write_text(yaml, encoding="utf-8")
    if py is not None:
        (folder / "lesson.py").write_text(py, encoding="utf-8")
    return folder


@pytest.fixture
def source(tmp_path):
    found = read_lesson(lesson_folder(tmp_path))
    assert found.problems == []
    return found


def test_the_places_in_reading_order_with_their_file_and_line(source):
    md, yaml = source.body_path, source.meta_path
    assert source.plan.places == (
        Place("figure", "curve", (), md, 3),
        Place("widget", "slider", (), md, 6),             # inside a container
        Place("code", "draw_bars", (), md, 17),
        Place("code", "draw_hidden", ("output=false",), md, 18),
        Place("check", "quiz", (), md, 19),
        Place("code", "draw_hidden", ("output=maybe",), md, 20),
        Place("figure", "answer-fig", (), yaml, 13, challenge=1),   # after every section: the answers come last
    )   # the directive inside the fence is code, never a place
    assert [p.name for p in source.plan.placed("code")] == ["draw_bars", "draw_hidden", "draw_hidden"]


def test_figure_functions_are_read_from_lesson_py_without_running_it(source):
    assert source.plan.figure_functions == {"draw_bars": "bars", "draw_hidden": "draw_hidden"}


def test_figure_places_and_numbers(source):
    """A figure function's code placed with its output is its figure's place; with `output=false` (or an option
    that cannot be read) it places nothing."""
    md, yaml = source.body_path, source.meta_path
    assert source.plan.figure_places == [Place("figure", "curve", (), md, 3), Place("figure", "bars", (), md, 17),
                                         Place("figure", "answer-fig", (), yaml, 13, challenge=1)]
    assert source.plan.figures == {"curve": 1, "bars": 2, "answer-fig": 3}


def test_a_figure_placed_twice_keeps_its_first_number(tmp_path):
    md = "## 一 {#one}\n\n{{< figure a >}}\n{{< figure b >}}\n{{< figure a >}}\n"
    plan = read_lesson(lesson_folder(tmp_path, md=md, yaml="title: t\nsummary: s\nobjectives: [o]\n")).plan
    assert plan.figures == {"a": 1, "b": 2}
    assert [p.line for p in plan.figure_places] == [3, 4, 5]   # both places kept: the page reports the second


def test_equation_numbers_come_from_lesson_md_alone(source):
    assert source.plan.equations == {"first": 1, "second": 2}   # the intro's label is lesson.yaml's: not numbered


def test_lesson_yaml_markdown_fields_are_parsed_at_their_lines(source):
    plan = source.plan
    assert sorted(plan.fields) == [
        "challenges.0.answer", "challenges.0.question", "challenges.0.title", "challenges.1.answer",
        "challenges.1.hints.0", "challenges.1.question", "challenges.1.title", "checks.0.check.choices.0.text",
        "checks.0.question", "intro", "objectives.0"]
    (intro,) = plan.blocks("intro")
    assert intro == Paragraph(6, (Text(6, "开场白，见 "), Maths(6, ("x",), True, "eq:intro", False, 6)))  # `|`: line 5
    answer = plan.blocks("challenges.0.answer")
    assert [(type(b), b.line) for b in answer] == [(Paragraph, 11), (Directive, 13)]
    assert plan.blocks("challenges.1.hints.0") == (Paragraph(18, (Text(18, "想一想"),)),)
    assert plan.blocks("challenges.0.title") == (Text(8, "一"),)   # a plain text: its words and values
    assert plan.blocks("sources") == ()   # not a Markdown field of this lesson


def test_a_broken_field_is_left_out_and_reported_where_it_was_read(tmp_path):
    yaml = YAML.replace("      {{< figure answer-fig >}}", "      ```\n      never closed")
    found = read_lesson(lesson_folder(tmp_path, yaml=yaml))
    assert [(p.path.name, p.line, str(p.message)) for p in found.problems] == [
        ("lesson.yaml", 13, "code block is never closed")]
    assert found.plan.figures == {"curve": 1, "bars": 2}


def test_without_a_code_place_lesson_py_is_not_read(tmp_path):
    md = "## 一 {#one}\n\n{{< figure curve >}}\n"
    plan = read_lesson(lesson_folder(tmp_path, md=md)).plan   # (PY declares draw_bars and draw_hidden)
    assert plan.figure_functions == {} and plan.figures == {"curve": 1, "answer-fig": 2}


def test_make_plan_of_a_lesson_whose_lesson_yaml_could_not_be_read():
    problems = []
    plan = make_plan({}, {}, [], Path("lesson.yaml"), Path("lesson.md"), None, problems)
    assert plan == LessonPlan() and problems == []
    assert plan.figures == {} and plan.figure_places == []


def test_declared_figures_of_code_that_cannot_be_read(tmp_path):
    assert declared_figures(None) == {}
    broken = tmp_path / "lesson.py"
    broken.write_text("def (:\n", encoding="utf-8")
    assert declared_figures(broken) == {}
    broken.write_bytes(b"\xff\xfe not UTF-8")
    assert declared_figures(broken) == {}


def test_declared_figures_only_counts_figure_decorators(tmp_path):
    code = tmp_path / "lesson.py"
    code.write_text(textwrap.dedent("""\
        from lessonkit import Lesson
        lesson = Lesson()

        @lesson.value
        def n():
            return 1

        @lesson.widget(kind="slider")
        def w():
            return {}

        @lesson.figure(caption="c", alt="a", name="named")
        def f(plt):
            pass
        """), encoding="utf-8")
    assert declared_figures(code) == {"f": "named"}


@pytest.mark.parametrize("args, wanted", [
    ((), True), (("output=true",), True), (("OUTPUT=FALSE",), False), (("output=false",), False),
    (("output=no",), None), (("output=true", "output=false"), None), (("echo=false",), True),
    (("f_grad",), True), (("f_grad", "output=false"), False),    # more functions in the listing (features/code.py)
])
def test_wants_output(args, wanted):
    assert wants_output(args) is wanted
