"""lesson.md as sections of one syntax tree: sections, placement order and rendering agree on fences and
containers, because they all walk the tree load/syntax/ made once."""
from pathlib import Path

from lessonkit.load.document import parse_lesson_body, placements
from lessonkit.load.syntax.nodes import Code, Container, Directive, Heading, Paragraph, Text, walk
from lessonkit.load.syntax.parser import parse_markdown

PATH = Path("content/demo/lesson.md")

# the review's case: a fence opened with ```md that holds a ~~~ line and closes with ```
FENCE_CASE = """\
## 一 {#one}

```md
~~~
{{< figure in_code >}}
## not a heading
```

{{< figure first >}}

## 二 {#two}

{{< figure second >}}
"""


def test_a_tilde_line_inside_a_backtick_fence_does_not_close_it():
    problems = []
    sections = parse_lesson_body(FENCE_CASE, PATH, problems)
    assert problems == []
    assert [(s.id, s.title, s.line) for s in sections] == [("one", "一", 1), ("two", "二", 11)]
    assert [b.name for b in placements(sections, "figure")] == ["first", "second"]
    fence = sections[0].blocks[0]
    assert fence == Code(3, "md", "~~~\n{{< figure in_code >}}\n## not a heading")


def test_a_closing_fence_needs_as_many_marks_and_nothing_after_them():
    problems = []
    blocks = parse_markdown("````\n```\n``` still code\n````\nafter", PATH, 1, problems)
    assert [type(b) for b in blocks] == [Code, Paragraph]
    assert blocks[0].text == "```\n``` still code"
    assert blocks[1].line == 5 and problems == []


def test_an_unclosed_fence_runs_to_the_end_and_is_reported_at_its_line():
    problems = []
    sections = parse_lesson_body("## 一\n\n~~~\n## 二 {#two}\n", PATH, problems)
    assert [s.id for s in sections] == ["sec-1"]
    assert [(p.line, str(p.message)) for p in problems] == [(3, "code block is never closed")]


def test_containers_nest_and_carry_their_lines():
    text = "::: toggle 比较\n::: state 甲\n一 {{ x }}\n:::\n::: state 乙\n{{< figure f >}}\n:::\n:::\nafter\n"
    problems = []
    blocks = parse_markdown(text, PATH, 10, problems)
    assert problems == []
    toggle = blocks[0]
    assert (type(toggle), toggle.kind, toggle.title_text, toggle.line) == (Container, "toggle", "比较", 10)
    assert [(c.kind, c.title_text, c.line) for c in toggle.children] == [("state", "甲", 11), ("state", "乙", 14)]
    assert [b.line for b in walk(blocks) if type(b) is Directive] == [15]
    assert blocks[1] == Paragraph(18, (Text(18, "after"),))


def test_a_heading_inside_a_container_stays_in_its_section():
    problems = []
    sections = parse_lesson_body("## 一\n\n::: note\n## 不是新的一节\n:::\n", PATH, problems)
    assert [s.title for s in sections] == ["一"] and problems == []
    assert type(sections[0].blocks[0].children[0]) is Heading


def test_a_setext_heading_starts_a_section_as_an_atx_one_does():
    problems = []
    sections = parse_lesson_body("第一节\n---\n\n正文\n\n第二节 {#two}\n---\n\n又一段\n", PATH, problems)
    assert problems == []
    assert [(s.id, s.title, s.line) for s in sections] == [("sec-1", "第一节", 1), ("two", "第二节", 6)]


def test_a_level_one_heading_or_text_before_the_first_section_is_reported():
    problems = []
    parse_lesson_body("前言\n\n## 一\n\n正文\n", PATH, problems)
    assert [(p.line, str(p.message)) for p in problems] == [(1, "text before the first `## ` section heading")]


def test_a_numbered_heading_is_a_heading_not_a_list():
    """`# 4. normal equation`: a heading whose text starts with a number (the old reader split it into a section
    number and a list)."""
    problems = []
    [section] = parse_lesson_body("## 4. normal equation {#normal}\n\n正文\n", PATH, problems)
    assert (section.id, section.title) == ("normal", "4. normal equation") and problems == []
    assert section.heading == (Text(1, "4. normal equation"),)


def test_a_unicode_line_separator_in_a_paragraph_does_not_shift_the_titles():
    """U+2028 ends a line for str.splitlines(), not for CommonMark: the title is read from the heading's own line."""
    problems = []
    sections = parse_lesson_body("## 一 {#one}\n\n甲\u2028乙\n\n## 二 {#two}\n\n丙\n", PATH, problems)
    assert [(s.id, s.title, s.line) for s in sections] == [("one", "一", 1), ("two", "二", 5)] and problems == []
