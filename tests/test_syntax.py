"""Display maths and its `{#eq:NAME}` label, as the tree holds them and load/plan.py numbers them: in reading order,
never inside code, a label used twice an error at its second use."""
from pathlib import Path

import pytest

from lessonkit.load.document import parse_lesson_body
from lessonkit.load.plan import equation_labels
from lessonkit.load.syntax.nodes import Maths
from lessonkit.load.syntax.parser import parse_markdown
from lessonkit.load.syntax.maths import LABEL_NAME

PATH = Path("lesson.md")


def numbers(md: str) -> dict[str, int]:
    problems = []
    sections = parse_lesson_body(md, PATH, problems)
    labels = equation_labels(sections, PATH, problems)
    assert problems == []
    return {name: k for k, name in enumerate(labels, start=1)}


def test_labels_are_numbered_in_reading_order_across_sections_and_containers():
    md = ("## 一 {#one}\n\n$$a$$ {#eq:alpha}\n\n::: note 注\n$$b$$ {#eq:beta}\n:::\n\n"
          "## 二 {#two}\n\n$$\nc\n$$ {#eq:gamma}\n")
    assert numbers(md) == {"alpha": 1, "beta": 2, "gamma": 3}


def test_a_label_used_twice_is_an_error_at_its_second_use():
    problems = []
    sections = parse_lesson_body("## 一\n\n$$a$$ {#eq:x}\n\n$$b$$ {#eq:y}\n\n$$c$$ {#eq:x}\n", PATH, problems)
    assert list(equation_labels(sections, PATH, problems)) == ["x", "y"]
    assert [(p.line, str(p.message)) for p in problems] == [
        (7, "equation label `eq:x` is used twice (first at line 3)")]


def test_unlabelled_and_inline_maths_take_no_number():
    assert numbers("## 一\n\n$$a$$\n\n$$c$$ {#eq:only}\n") == {"only": 1}
    problems = []
    parse_lesson_body("## 一\n\n$b$ {#eq:inline}\n", PATH, problems)
    assert [(p.line, str(p.message)) for p in problems] == [
        (3, "an equation label `{#eq:…}` that follows no display equation")]


@pytest.mark.parametrize("text", [
    "`$$a$$ {#eq:code}` in a code span",
    "$$a$$ {#fig:curve}",                   # not an equation's label
    "$$a$$ {#eq:两个}",                     # a name must be ASCII
    "$$a$$ {#eq:bad name}",
])
def test_what_is_not_an_equation_label(text):
    assert numbers(f"## 一\n\n{text}\n") == {}


def test_a_fenced_block_is_code_not_maths():
    assert numbers("## 一\n\n```\n$$a$$ {#eq:fenced}\n```\n\n$$b$$ {#eq:real}\n") == {"real": 1}


def test_the_chinese_right_after_a_label_is_text():
    [paragraph] = parse_markdown("如 $$E = mc^2$$ {#eq:energy}所示", PATH, 1, [])
    maths = paragraph.children[1]
    assert (type(maths), maths.tex, maths.label, maths.display) == (Maths, ("E = mc^2",), "eq:energy", True)
    assert paragraph.children[2].text == "所示"
    assert LABEL_NAME.fullmatch("eq:energy").group("name") == "energy"
    assert LABEL_NAME.fullmatch("eq:a-b_c").group("name") == "a-b_c"
    assert LABEL_NAME.fullmatch("eq:trailing-") is None       # a name ends in a letter, digit or `_`


def test_an_escaped_dollar_is_a_dollar_not_maths():
    [paragraph] = parse_markdown("花 \\$5，\\$$a$$ 后", PATH, 1, [])
    assert [type(node).__name__ for node in paragraph.children] == ["Text", "Maths", "Text"]
    assert paragraph.children[0].text == "花 $5，$"
