"""load/yamltext.py: a YAML parser error said at the line that causes it, and text YAML reads differently from how
it looks. Each case is a few lines of YAML; the line and column are counted by hand (1-based) in the text shown."""
from pathlib import Path

import pytest
import yaml

from lessonkit.load.yamltext import misread_text, syntax_problem

PATH = Path("content/demo/lesson.yaml")


def problem_of(text: str):
    """The Problem syntax_problem makes of the error the pure-Python parser raises for `text`."""
    with pytest.raises(yaml.YAMLError) as info:
        yaml.load(text, Loader=yaml.SafeLoader)
    return syntax_problem(PATH, text, info.value)


def said(problem) -> tuple[int | None, str, str]:
    return problem.line, str(problem.message), str(problem.expected)


def test_a_tab_is_named_as_a_tab_at_its_line():
    #          line 2, column 1: the tab itself
    line, message, expected = said(problem_of("title: a\n\tsummary: b\n"))
    assert line == 2
    assert message == "YAML syntax error, column 1: a tab character: YAML indents with spaces only"
    assert expected == "spaces instead of the tab"


def test_latex_in_double_quotes_is_an_unknown_escape():
    # `summary: "` is 10 characters, so the backslash is column 11 and the letter YAML cannot read as an escape
    # (`\l`) column 12: the parser points at the letter
    line, message, expected = said(problem_of('title: a\nsummary: "\\lambda"\n'))
    assert line == 2 and message.startswith("YAML syntax error, column 12: ")
    assert "a backslash inside \"double quotes\" starts a YAML escape" in message
    assert expected == "'single quotes' (or a `|` block) around text with LaTeX"


def test_an_unclosed_quote_is_reported_where_it_opened_not_at_the_end():
    text = 'title: "abc\nsummary: x\nobjectives: [a]\n'
    line, message, expected = said(problem_of(text))
    # the quote opens on line 1 after `title: ` (7 characters): column 8; the parser gives up at the end (line 4)
    assert (line, message) == (1, "YAML syntax error, column 8: a quote that is never closed")
    assert expected == "the closing quote at the end of the text"


def test_text_after_a_closing_quote():
    line, message, expected = said(problem_of('title: a\nsummary: "one" number\n'))
    # `summary: ` is 9 characters: the quote is column 10
    assert (line, message) == (2, "YAML syntax error, column 10: the text goes on after its closing quote")
    assert expected == "quotes around the whole text, e.g. `summary: '\"one\" number'`"


def test_a_colon_inside_unquoted_text():
    line, message, expected = said(problem_of("title: a\nsummary: ratio: one half\n"))
    # the second `:` is at index 14 of line 2: column 15
    assert (line, message) == (2, "YAML syntax error, column 15: a `: ` inside unquoted text")
    assert expected == "the text in quotes, e.g. `summary: \"ratio: one half\"`"


def test_a_key_indented_under_a_plain_value_is_read_as_more_of_its_text():
    line, message, expected = said(problem_of("title: a\n  summary: b\n"))
    # the line's own indentation is 2 spaces: column 3
    assert line == 2
    assert message == ("YAML syntax error, column 3: this line is indented more than the key before it, so YAML reads "
                       "it as more text of that key")
    assert expected.startswith("keys (and list items `- `) of one level starting at the same column")


@pytest.mark.parametrize("text, line, column, start", [
    ("intro: @fig:curve draws it\n", 1, 8, "unquoted text cannot start with `%`, `@` or a backtick"),
    ("title: a\nsummary: `x` is code\n", 2, 10, "unquoted text cannot start with `%`, `@` or a backtick"),
    ("objectives:\n  - *this* matters\n", 2, 5, "text that starts with `*` or `&` is read as a YAML alias"),
])
def test_a_value_starting_with_a_yaml_character_names_the_character(text, line, column, start):
    got_line, message, expected = said(problem_of(text))
    assert got_line == line
    assert message.startswith(f"YAML syntax error, column {column}: {start}")
    assert expected.startswith("the whole text in quotes")


def test_a_line_without_a_colon_among_keys():
    line, message, _ = said(problem_of("title: a\nsummary: b\nsome words\nobjectives: [x]\n"))
    assert line == 3 and "this line is neither `key: value` nor a list item" in message


def test_an_error_without_a_place_is_still_a_problem_of_the_file():
    problem = syntax_problem(PATH, "", yaml.YAMLError("something odd"))
    assert (problem.path, problem.line) == (PATH, None)
    assert str(problem.message) == "YAML syntax error: something odd"


# ── text that parsed, but not as it looks ─────────────────────────────────────────────────────────────────────────
def misread(text: str) -> list[tuple[int, str]]:
    return [(p.line, str(p.message)) for p in misread_text(yaml.compose(text), text, PATH)]


def test_an_over_indented_list_item_swallowed_by_the_item_above():
    text = "objectives:\n  - one\n    - two\n  - three\n"
    assert yaml.safe_load(text)["objectives"] == ["one - two", "three"]   # what YAML makes of it
    assert misread(text) == [(3, "this line starts with `- `, but YAML reads it as more of the text on line 2 (it is "
                                 "indented deeper than a list item would be)")]


def test_a_plain_text_over_two_lines_without_a_dash_is_fine():
    assert misread("summary: one\n  two\n") == []


@pytest.mark.parametrize("source, command, escape", [
    ('"\\frac{1}{2}"', "\\frac", "\\f"),     # \f: form feed
    ('"\\theta"', "\\theta", "\\t"),         # \t: tab
    ('"\\beta"', "\\beta", "\\b"),           # \b: backspace
])
def test_latex_in_double_quotes_whose_backslash_became_a_control_character(source, command, escape):
    text = f"title: a\nsummary: {source}\n"
    assert misread(text) == [(2, f"`{command}` inside \"double quotes\" starts with the YAML escape `{escape}` (a "
                                 "control character), not LaTeX")]


@pytest.mark.parametrize("source", ["'\\frac{1}{2}'", '"\\\\frac{1}{2}"', "|\n  \\frac{1}{2}"])
def test_latex_in_single_quotes_a_block_or_with_the_backslash_escaped_is_fine(source):
    assert misread(f"title: a\nsummary: {source}\n") == []


def test_the_line_of_latex_in_a_multi_line_double_quoted_text():
    text = 'title: a\nsummary: "one\n  two \\frac{1}{2}"\n'
    assert [line for line, _ in misread(text)] == [3]
