"""load/syntax.py: the inline maths syntax more than one stage reads — display maths and its `{#eq:NAME}` label, in
reading order, never inside code — and the numbers equation_numbers gives the labels."""
from pathlib import Path

import pytest

from lessonkit.load.document import parse_lesson_body
from lessonkit.load.syntax import LABEL, MATH, equation_numbers


def numbers(md: str) -> dict[str, int]:
    problems = []
    sections = parse_lesson_body(md, Path("lesson.md"), problems)
    assert problems == []
    return equation_numbers(sections)


def test_labels_are_numbered_in_reading_order_across_sections_and_containers():
    md = ("## 一 {#one}\n\n$$a$$ {#eq:alpha}\n\n::: note 注\n$$b$$ {#eq:beta}\n:::\n\n"
          "## 二 {#two}\n\n$$\nc\n$$ {#eq:gamma}\n")
    assert numbers(md) == {"alpha": 1, "beta": 2, "gamma": 3}


def test_a_label_used_twice_keeps_its_first_number():
    assert numbers("## 一\n\n$$a$$ {#eq:x}\n\n$$b$$ {#eq:y}\n\n$$c$$ {#eq:x}\n") == {"x": 1, "y": 2}


def test_unlabelled_and_inline_maths_take_no_number():
    assert numbers("## 一\n\n$$a$$\n\n$b$ {#eq:inline}\n\n$$c$$ {#eq:only}\n") == {"only": 1}


@pytest.mark.parametrize("text", [
    "`$$a$$ {#eq:code}` in a code span",
    "\\$$a$$ {#eq:escaped}",               # an escaped dollar, then inline maths `$a$`, then a lone `$`
    "$$a$$ {#fig:curve}",                   # not an equation's label
    "$$a$$ {#eq:两个}",                     # a name must be ASCII
    "$$a$$ {#eq:bad name}",
])
def test_what_is_not_an_equation_label(text):
    assert numbers(f"## 一\n\n{text}\n") == {}


def test_a_fenced_block_is_code_not_maths():
    assert numbers("## 一\n\n```\n$$a$$ {#eq:fenced}\n```\n\n$$b$$ {#eq:real}\n") == {"real": 1}


def test_the_chinese_right_after_a_label_is_text():
    m = MATH.search("如 $$E = mc^2$$ {#eq:energy}所示")
    assert (m.group("display"), m.group("eq_attr")) == ("E = mc^2", "eq:energy")
    assert LABEL.fullmatch("eq:energy").group("name") == "energy"
    assert LABEL.fullmatch("eq:a-b_c").group("name") == "a-b_c"
    assert LABEL.fullmatch("eq:trailing-") is None       # a name ends in a letter, digit or `_`


def test_math_finds_the_pieces_in_order():
    assert [m.group(0) for m in MATH.finditer("`$x$` \\$ $y$ $$z$$")] == ["`$x$`", "\\$", "$y$", "$$z$$"]
