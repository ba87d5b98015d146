"""load/syntax/parser.py parse_sections: lesson.md's `##` sections kept by their own text, so an edit of one
paragraph reads that section's inline text again — and the tree is the one a whole parse gives."""
from pathlib import Path

import pytest

from lessonkit.load.syntax import parser as P
from lessonkit.support.readings import Parts
from lessonkit.support.store import Store

PATH = Path("content/demo/lesson.md")

LESSON = """前言段落，见 [定义][ref]。

## 一 {#one}

第一节有 **「重点」** 和 $x^2$，还有 {{ a :.2f }}。

::: note 注意
容器里的 [链接][ref] 和一行 `code`。
:::

## 二 {#two}

- 列表
  - 嵌套

```
## 不是一节
```

$$
\\begin{aligned} y &= 1 \\end{aligned}
$$

## 三 {#three}

<script>坏</script>

[ref]: https://example.org/a
"""


def parse_whole(text: str):
    problems = []
    return P.parse_markdown(text, PATH, 1, problems), problems


def parse_kept(text: str, parts: Parts):
    problems = []
    return P.parse_sections(text, PATH, problems, parts)[0], problems


def section_keys(text: str, parts: Parts) -> dict[int, str]:
    return P.parse_sections(text, PATH, [], parts)[1]


@pytest.fixture
def parts(tmp_path):
    return Parts(Store(tmp_path / "cache"), parse_kept, PATH)


@pytest.fixture
def inline_reads(monkeypatch):
    """The texts whose inline parse ran: each inline token's content."""
    read: list[str] = []
    real = P._read_inline

    def counting(md, tokens, env):
        read.extend(t.content for t in tokens if t.type == "inline")
        return real(md, tokens, env)
    monkeypatch.setattr(P, "_read_inline", counting)
    return read


def test_kept_sections_give_the_whole_parse_nodes_and_problems(parts):
    whole, whole_problems = parse_whole(LESSON)
    first, first_problems = parse_kept(LESSON, parts)       # every section read, then kept
    again, again_problems = parse_kept(LESSON, parts)       # every section from the store
    assert first == whole and again == whole
    assert whole_problems and sorted(first_problems) == sorted(whole_problems) == sorted(again_problems)
    assert [p.line for p in again_problems] == [26]          # the <script>, at its line (counted by hand)


def test_an_edit_reads_only_its_section_again(parts, inline_reads):
    parse_kept(LESSON, parts)
    inline_reads.clear()
    edited = LESSON.replace("- 列表", "- 改过的列表")
    nodes, _ = parse_kept(edited, parts)
    assert "改过的列表" in inline_reads and "嵌套" in inline_reads
    assert not any("第一节" in text or "前言" in text for text in inline_reads)
    assert nodes == parse_whole(edited)[0]


def test_a_section_that_moves_down_a_line_is_read_again_at_its_new_line(parts):
    parse_kept(LESSON, parts)
    moved = LESSON.replace("第一节有", "第一节\n有")
    nodes, problems = parse_kept(moved, parts)
    assert nodes == parse_whole(moved)[0]
    assert [p.line for p in problems] == [27]


def test_a_link_defined_in_another_section_is_part_of_every_section_s_key(parts):
    parse_kept(LESSON, parts)
    retargeted = LESSON.replace("https://example.org/a", "https://example.org/b")
    nodes, _ = parse_kept(retargeted, parts)
    assert nodes == parse_whole(retargeted)[0]
    assert "https://example.org/b" in repr(nodes[0]) and "https://example.org/a" not in repr(nodes)


def test_a_block_problem_is_found_every_time_not_kept(parts):
    unclosed = LESSON.replace("::: note 注意\n容器里的 [链接][ref] 和一行 `code`。\n:::\n",
                              "::: note 注意\n容器里的文字。\n")
    expected = sorted(parse_whole(unclosed)[1])
    assert any("never closed" in str(p.message) or "未闭合" in str(p.message) for p in expected)
    assert sorted(parse_kept(unclosed, parts)[1]) == expected
    assert sorted(parse_kept(unclosed, parts)[1]) == expected


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_other_line_endings_and_unicode_line_separators_count_lines_as_the_parser_does(parts, newline):
    text = LESSON.replace("第一节有", "第一节\u2028有").replace("\n", newline)
    first = parse_kept(text, parts)
    assert first == parse_kept(text, parts) == parse_whole(text)
    assert [p.line for p in first[1]] == [26]


def test_each_section_s_key_changes_with_what_its_nodes_are_read_from(parts):
    """The key a section's rendering and report are memoised by (by its first line: 1 the text before the first
    heading, then each `##`, lines counted by hand)."""
    keys = section_keys(LESSON, parts)
    assert sorted(keys) == [1, 3, 11, 24] and len(set(keys.values())) == 4
    assert section_keys(LESSON, parts) == keys                               # kept: the same keys
    edited = section_keys(LESSON.replace("- 列表", "- 改过的列表"), parts)
    assert [k for k in keys if edited[k] != keys[k]] == [11]                 # only the edited section's
    retargeted = section_keys(LESSON.replace("https://example.org/a", "https://example.org/b"), parts)
    assert all(retargeted[k] != keys[k] for k in keys)                       # a link's target: every one
    moved = section_keys(LESSON.replace("第一节有", "第一节\n有"), parts)
    assert sorted(moved) == [1, 3, 12, 25] and moved[1] == keys[1] and moved[3] != keys[3]
    assert moved[12] != keys[11]                                             # the same text a line lower
