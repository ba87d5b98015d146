"""The one reading of lesson.md: sections, placement order and rendering agree on fences and containers."""
from pathlib import Path

from lessonkit.load.document import parse_blocks, parse_lesson_body, placements, walk

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
    assert [b.arg for b in placements(sections, "figure")] == ["first", "second"]
    fence = sections[0].blocks[1]
    assert (fence.kind, fence.name, fence.lines) == ("fence", "md", ["~~~", "{{< figure in_code >}}",
                                                                      "## not a heading"])


def test_a_closing_fence_needs_as_many_marks_and_nothing_after_them():
    problems = []
    blocks = parse_blocks(["````", "```", "``` still code", "````", "after"], 1, PATH, problems)
    assert [b.kind for b in blocks] == ["fence", "text"]
    assert blocks[0].lines == ["```", "``` still code"]
    assert blocks[1].line == 5 and problems == []


def test_an_unclosed_fence_runs_to_the_end_and_is_reported_at_its_line():
    problems = []
    sections = parse_lesson_body("## 一\n\n~~~\n## 二 {#two}\n", PATH, problems)
    assert [s.id for s in sections] == ["sec-1"]
    assert [(p.line, p.message) for p in problems] == [(3, "code block is never closed")]


def test_containers_nest_and_carry_their_lines():
    text = "::: toggle 比较\n::: state 甲\n一 {{ x }}\n:::\n::: state 乙\n{{< figure f >}}\n:::\n:::\nafter\n"
    problems = []
    blocks = parse_blocks(text.splitlines(), 10, PATH, problems)
    assert problems == []
    toggle = blocks[0]
    assert (toggle.kind, toggle.name, toggle.arg, toggle.line) == ("container", "toggle", "比较", 10)
    assert [(c.name, c.arg, c.line) for c in toggle.children] == [("state", "甲", 11), ("state", "乙", 14)]
    assert [b.line for b in walk(blocks) if b.kind == "directive"] == [15]
    assert blocks[1].lines == ["after"] and blocks[1].line == 18


def test_a_heading_inside_a_container_stays_in_its_section():
    problems = []
    sections = parse_lesson_body("## 一\n\n::: note\n## 不是新的一节\n:::\n", PATH, problems)
    assert [s.title for s in sections] == ["一"] and problems == []
