"""Reading lesson folders: every problem reported at once, with file, line and what was expected."""
import pytest

from lesson_folders import load_lesson
from lessonkit.support.errors import ContentError


def problems_of(folder):
    with pytest.raises(ContentError) as info:
        load_lesson(folder)
    return [str(p).replace(str(folder) + "/", "") for p in info.value.problems]


def test_minimal_lesson_loads(make_lesson):
    lesson = load_lesson(make_lesson())
    assert lesson.slug == "demo"
    assert lesson.meta["title"] == "小课"
    assert [(s.id, s.title, s.line) for s in lesson.sections] == [("first", "第一节", 1)]


def test_sections_split_at_h2_outside_code(make_lesson):
    md = "## 甲 {#a}\n\n```\n## not a heading\n```\n\n## 乙\n\ntext\n"
    lesson = load_lesson(make_lesson(md=md))
    assert [(s.id, s.title, s.line) for s in lesson.sections] == [("a", "甲", 1), ("sec-2", "乙", 7)]
    from lessonkit.load.syntax.nodes import Code
    assert [b.text for b in lesson.sections[0].blocks if type(b) is Code] == ["## not a heading"]


def test_yaml_syntax_error_points_at_the_unclosed_bracket(make_lesson):
    """YAML gives up at line 3 (the `:` of `objectives:` inside the open list); the `[` that opened it is line 2,
    column 10."""
    folder = make_lesson(yaml="title: 小课\nsummary: [unclosed\nobjectives: []\n")
    assert problems_of(folder) == [
        "lesson.yaml:2: YAML syntax error, column 10: text that starts with `[` or `{` is read as a YAML list or "
        "mapping (so is `{{ value }}` at the start) (expected the whole text in quotes, e.g. `- \"{{ n }} numbers\"`)"]


QUOTE_IT = "(expected the whole text in quotes, e.g. `- \"{{ n }} numbers\"`)"
INDENT = "(expected keys (and list items `- `) of one level starting at the same column, indented with spaces)"
HEAD = "title: t\nsummary: s\nobjectives:\n"


@pytest.mark.parametrize("yaml, expected", [
    (HEAD + "  - a\n\t- b\n",                                              # a tab at line 5, column 1
     "lesson.yaml:5: YAML syntax error, column 1: a tab character: YAML indents with spaces only (expected spaces "
     "instead of the tab)"),
    ("title: t\nsummary: 比例: 一半\nobjectives: [a]\n",                      # the second `:` is column 12
     "lesson.yaml:2: YAML syntax error, column 12: a `: ` inside unquoted text (expected the text in quotes, e.g. "
     "`summary: \"ratio: one half\"`)"),
    ("title: t\n  summary: s\nobjectives: [a]\n",                            # indented by two: column 3
     "lesson.yaml:2: YAML syntax error, column 3: this line is indented more than the key before it, so YAML reads "
     "it as more text of that key " + INDENT),
    (HEAD + "  - a\n - b\n",                                                  # `- b` one space in: column 2
     "lesson.yaml:5: YAML syntax error, column 2: inconsistent indentation: this line does not line up with the "
     "lines of its level " + INDENT),
    ("title: t\nsummary s\nobjectives: [a]\n",                               # no `:` after summary
     "lesson.yaml:2: YAML syntax error, column 1: this line is neither `key: value` nor a list item `- …` (a `:` "
     "missing after the key, or more text of the line above that is not indented under it) (expected "
     "`key: value`, or a continuation line indented under its text (or a `|` block))"),
    ("title: t\nsummary: \"没有关上\nobjectives: [a]\n",                      # the quote opens at column 10
     "lesson.yaml:2: YAML syntax error, column 10: a quote that is never closed (expected the closing quote at the "
     "end of the text)"),
    ("title: t\nsummary: \"一个\" 数\nobjectives: [a]\n",
     "lesson.yaml:2: YAML syntax error, column 10: the text goes on after its closing quote (expected quotes around "
     "the whole text, e.g. `summary: '\"one\" number'`)"),
    (HEAD + "  - {{ n }} 个数\n",                                             # `{` after `  - `: column 5
     "lesson.yaml:4: YAML syntax error, column 5: text that starts with `[` or `{` is read as a YAML list or mapping "
     "(so is `{{ value }}` at the start) " + QUOTE_IT),
    (HEAD + "  - *重点* 在这里\n",
     "lesson.yaml:4: YAML syntax error, column 5: text that starts with `*` or `&` is read as a YAML alias or anchor "
     "(so is Markdown `*emphasis*` at the start) (expected the whole text in quotes, e.g. `- \"*this* matters\"`)"),
    ("title: t\nsummary: \"$\\lambda$\"\nobjectives: [a]\n",                # `\l` is column 13
     "lesson.yaml:2: YAML syntax error, column 13: a backslash inside \"double quotes\" starts a YAML escape (LaTeX "
     "such as `\\lambda` too) (expected 'single quotes' (or a `|` block) around text with LaTeX)"),
])
def test_yaml_syntax_errors_say_what_is_wrong_and_the_likely_fix(make_lesson, yaml, expected):
    assert problems_of(make_lesson(yaml=yaml)) == [expected]


def test_a_list_item_that_swallowed_the_next_line_is_an_error_there(make_lesson):
    """Four objectives that YAML reads as three: `    - 三` is more text of `- 二` (`二 - 三`)."""
    yaml = HEAD + "  - 一\n  - 二\n    - 三\n  - 四\n"
    assert problems_of(make_lesson(yaml=yaml)) == [
        "lesson.yaml:6: this line starts with `- `, but YAML reads it as more of the text on line 5 (it is indented "
        "deeper than a list item would be) (expected each list item `- ` at the same indentation as the others (or "
        "the text in quotes, if the `- ` belongs to it))"]


def test_a_text_going_on_over_lines_is_still_fine(make_lesson):
    lesson = load_lesson(make_lesson(yaml=HEAD + "  - 一段很长的目标，\n    接着写在下一行\n  - '- 以连字符开头'\n"))
    assert lesson.meta["objectives"] == ["一段很长的目标， 接着写在下一行", "- 以连字符开头"]


def test_latex_in_double_quotes_that_yaml_turns_into_control_characters_is_an_error(make_lesson):
    yaml = "title: t\nsummary: s\nobjectives:\n  - \"$\\beta$ 与 $\\\\theta$\"\n  - '$\\frac{1}{2}$'\n"
    assert problems_of(make_lesson(yaml=yaml)) == [   # `\\theta` (an escaped backslash) and single quotes are fine
        "lesson.yaml:4: `\\beta` inside \"double quotes\" starts with the YAML escape `\\b` (a control character), not "
        "LaTeX (expected 'single quotes' (or a `|` block) around text with LaTeX)"]


def test_missing_unknown_and_wrong_type_all_reported(make_lesson):
    folder = make_lesson(yaml="title: 小课\nsumary: 拼错了\nobjectives: 不是列表\norder: first\n")
    assert problems_of(folder) == [
        "lesson.yaml:2: unknown key `sumary`; did you mean `summary`? (expected one of: title, summary, order, "
        "objectives, question, intro, challenges, checks, sources, draft, release, answers, mastery, budget, "
        "requires)",
        "lesson.yaml: missing required key `summary` (expected one line for the index page)",
        "lesson.yaml:4: `order` is text ('first') (expected position on the index page)",
        "lesson.yaml:3: `objectives` is text ('不是列表') (expected a list of learning objectives (Markdown))",
    ]


def test_duplicate_keys_are_errors(make_lesson):
    folder = make_lesson(yaml="title: 一\nsummary: s\nobjectives: [a]\ntitle: 二\n")
    assert problems_of(folder) == ["lesson.yaml:4: duplicate key `title` (first at line 1) (expected each key once)"]


def test_challenge_items_are_checked(make_lesson):
    yaml = "title: t\nsummary: s\nobjectives: [a]\nchallenges:\n  - title: 一\n    question: q\n  - 只是文字\n"
    assert problems_of(make_lesson(yaml=yaml)) == [
        "lesson.yaml:5: missing required key `challenges.0.answer` (expected the answer, in Markdown; may use "
        "{{ values }} and $math$)",
        "lesson.yaml:7: `challenges` item 2 is text ('只是文字') (expected a list of challenges with title, question and answer)",
    ]


def test_empty_yaml(make_lesson):
    assert problems_of(make_lesson(yaml="")) == [
        "lesson.yaml:1: file is empty (expected a mapping with at least `title` and `summary`)"]


def test_gbk_markdown_is_named(make_lesson):
    folder = make_lesson()
    (folder / "lesson.md").write_bytes("## 第一节\n\n中文内容\n".encode("gbk"))
    assert problems_of(folder) == [
        "lesson.md:1: file is not UTF-8; it looks like GBK/GB18030 (common on Chinese Windows): re-save it as UTF-8 "
        "(expected UTF-8 text)"]


def test_binary_file(make_lesson):
    folder = make_lesson()
    (folder / "lesson.md").write_bytes(b"\x89PNG\r\n\x00\x00")
    assert problems_of(folder) == ["lesson.md: file contains binary data (NUL bytes) (expected a UTF-8 text file)"]


def test_text_before_first_section_and_duplicate_ids(make_lesson):
    md = "前言\n\n## 甲 {#a}\n\n## 乙 {#a}\n"
    assert problems_of(make_lesson(md=md)) == [
        "lesson.md:1: text before the first `## ` section heading (expected the body to start with "
        "`## Section title {#id}`; put the intro in lesson.yaml)",
        "lesson.md:5: duplicate section id `a` (first at line 3) (expected a unique `{#id}` per section)",
    ]


def test_unsafe_slug(make_lesson):
    folder = make_lesson(slug="第一课")
    assert problems_of(folder)[0].endswith(
        "lesson folder name `第一课` is not a URL-safe slug (expected lowercase ASCII letters, digits and hyphens, "
        "e.g. `transformer-basics`)")


def test_yaml_key_that_is_a_list_is_reported_not_a_crash(make_lesson):
    folder = make_lesson(yaml="title: t\nsummary: s\nobjectives: [a]\n? [a, b]\n: c\n")
    assert problems_of(folder) == ["lesson.yaml:4: YAML syntax error, column 3: a list or mapping where a key should "
                                   "be (expected a plain word as the key, e.g. `title:`)"]


def test_yaml_unknown_tag_is_a_syntax_error_with_line(make_lesson):
    folder = make_lesson(yaml="title: t\nsummary: !foo s\nobjectives: [a]\n")
    assert problems_of(folder) == [
        "lesson.yaml:2: YAML syntax error, column 10: text that starts with `!` is read as a YAML tag (expected the "
        "whole text in quotes, e.g. `intro: \"@fig:curve draws it\"`)"]


def test_yaml_of_only_comments_is_empty(make_lesson):
    assert problems_of(make_lesson(yaml="# 还没写\n")) == [
        "lesson.yaml:1: file is empty (expected a mapping with at least `title` and `summary`)"]


def test_dos_end_of_file_character_is_named(make_lesson):
    folder = make_lesson(md="## 第一节\n\n正文\x1a\n")
    assert problems_of(folder) == ["lesson.md:3: file contains the control character U+001A (DOS end-of-file) "
                                   "(expected plain text: delete the character)"]


def test_a_broken_section_id_is_reported(make_lesson):
    assert problems_of(make_lesson(md="## 第一节 {#first\n\n正文\n")) == [
        "lesson.md:1: cannot read the section id in `## 第一节 {#first` "
        "(expected `{#id}` at the end of the heading: ASCII letters, digits, - and _)"]
    assert len(problems_of(make_lesson(md="## 第一节 {#第一}\n\n正文\n"))) == 1
