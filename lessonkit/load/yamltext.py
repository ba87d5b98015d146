"""YAML that means what it looks like: syntax errors said in plain words (what is wrong, the likely fix) at the line
that causes them, and the text YAML reads differently from how it looks (a list item that swallowed the next line,
LaTeX in double quotes) reported instead of silently changed."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (PyYAML is imported where a text is read afresh)
    import yaml

from ..support.errors import Problem
from ..support.messages import Message, msg

QUOTE_IT = msg("the whole text in quotes, e.g. `- \"{{ n }} numbers\"`")
QUOTE_EMPHASIS = msg("the whole text in quotes, e.g. `- \"*this* matters\"`")
QUOTE_MARK = msg("the whole text in quotes, e.g. `intro: \"@fig:curve draws it\"`")
INDENT = msg("keys (and list items `- `) of one level starting at the same column, indented with spaces")
FALLBACK = msg("valid YAML (check indentation and quotes)")
LATEX_QUOTES = msg("'single quotes' (or a `|` block) around text with LaTeX")

READ_AS_COLLECTION = msg("text that starts with `[` or `{` is read as a YAML list or mapping (so is `{{ value }}` "
                         "at the start)")
READ_AS_ALIAS = msg("text that starts with `*` or `&` is read as a YAML alias or anchor (so is Markdown `*emphasis*` "
                    "at the start)")
NO_PLAIN_START = msg("unquoted text cannot start with `%`, `@` or a backtick")
# what a value starting with one of these characters is read as, and how to write it as text instead
SPECIAL_START = {
    "[": (READ_AS_COLLECTION, QUOTE_IT),
    "{": (READ_AS_COLLECTION, QUOTE_IT),
    "*": (READ_AS_ALIAS, QUOTE_EMPHASIS),
    "&": (READ_AS_ALIAS, QUOTE_EMPHASIS),
    "!": (msg("text that starts with `!` is read as a YAML tag"), QUOTE_MARK),
    "%": (NO_PLAIN_START, QUOTE_MARK),
    "@": (NO_PLAIN_START, QUOTE_MARK),
    "`": (NO_PLAIN_START, QUOTE_MARK),
}
VALUE_START = re.compile(r"^(\s*(?:-\s+)*(?:[^\s\"'#\[\]{}][^:#]*?:\s+)?)(\S)")


def syntax_problem(path: Path, text: str, exc: yaml.YAMLError) -> Problem:
    """A parser error as the author can act on it: `YAML syntax error, column N: what (expected the fix)`, at the
    line that causes it (where the unclosed `[` or quote opened, not where the parser gave up)."""
    problem = str(getattr(exc, "problem", None) or exc)
    context = str(getattr(exc, "context", None) or "")
    marks = [getattr(exc, "problem_mark", None), getattr(exc, "context_mark", None)]
    if context.startswith(("while parsing a flow", "while scanning a quoted")):  # the culprit opened it
        marks.reverse()
    marks = [m for m in marks if m is not None]
    lines = text.splitlines()
    if not marks:
        return Problem(path, None, msg("YAML syntax error: {what}", what=problem), FALLBACK)
    line, column, what, fix = _explain(problem, context, marks, lines)
    return Problem(path, line + 1, msg("YAML syntax error, column {n}: {what}", n=column + 1, what=what), fix)


def _explain(problem: str, context: str, marks: list, lines: list[str]) -> tuple[int, int, Message | str, Message]:
    """(line, column, what is wrong, the likely fix), 0-based."""
    where = marks[0]
    unclosed_quote = "quoted scalar" in context and "end of stream" in problem
    if "'\\t'" in problem:
        return (where.line, where.column, msg("a tab character: YAML indents with spaces only"),
                msg("spaces instead of the tab"))
    if "unknown escape character" in problem:
        return (where.line, where.column, msg("a backslash inside \"double quotes\" starts a YAML escape (LaTeX such "
                                              "as `\\lambda` too)"), LATEX_QUOTES)
    if "could not find expected ':'" in problem:
        mark = marks[-1]  # where the line without `:` began
        return (mark.line, mark.column, msg("this line is neither `key: value` nor a list item `- …` (a `:` missing "
                                            "after the key, or more text of the line above that is not indented under "
                                            "it)"),
                msg("`key: value`, or a continuation line indented under its text (or a `|` block)"))
    for mark in marks:  # the line the parser stopped at, then the one where what it was reading began
        start = _value_start(lines, mark.line)
        if start is None:
            continue
        column, char = start
        if char in "\"'":
            if unclosed_quote:
                return (mark.line, column, msg("a quote that is never closed"),
                        msg("the closing quote at the end of the text"))
            if "found '<scalar>'" in problem:
                return (mark.line, column, msg("the text goes on after its closing quote"),
                        msg("quotes around the whole text, e.g. `summary: '\"one\" number'`"))
        elif char in SPECIAL_START:
            return (mark.line, column, *SPECIAL_START[char])
    if "mapping values are not allowed" in problem:
        before = lines[where.line][:where.column] if where.line < len(lines) else ""
        if ":" in before:
            return (where.line, where.column, msg("a `: ` inside unquoted text"),
                    msg("the text in quotes, e.g. `summary: \"ratio: one half\"`"))
        indent = len(before) - len(before.lstrip())
        return (where.line, indent, msg("this line is indented more than the key before it, so YAML reads it as "
                                        "more text of that key"), INDENT)
    if "expected <block end>" in problem or "did not find expected" in problem:
        return (where.line, where.column, msg("inconsistent indentation: this line does not line up with the lines "
                                              "of its level"), INDENT)
    if "unhashable key" in problem:
        return (where.line, where.column, msg("a list or mapping where a key should be"),
                msg("a plain word as the key, e.g. `title:`"))
    return where.line, where.column, problem, FALLBACK


def _value_start(lines: list[str], line: int) -> tuple[int, str] | None:
    """(column, character) where the value on `line` starts, after any `- ` and `key: `."""
    if not 0 <= line < len(lines):
        return None
    m = VALUE_START.match(lines[line])
    return (len(m.group(1)), m.group(2)) if m else None


# ── text that YAML reads differently from how it looks ─────────────────────────────────────────────────────────────
ESCAPE_BEFORE_LETTER = re.compile(r"(?<!\\)(?:\\\\)*(\\([abefnrtvNLP])[A-Za-z]+)")


def misread_text(node: yaml.Node, text: str, path: Path) -> list[Problem]:
    """Scalars that parsed, but not as they look: a plain text that swallowed a next line starting with `- ` (an
    over-indented list item), LaTeX in double quotes whose backslash became a control character (`\\frac`: `\\f`)."""
    problems: list[Problem] = []
    lines = text.splitlines()
    for scalar in _scalars(node):
        first, last = scalar.start_mark.line, scalar.end_mark.line
        if not scalar.style and last > first:  # plain (PyYAML: None, libyaml: "")
            problems += [Problem(path, k + 1, msg("this line starts with `- `, but YAML reads it as more of the "
                                                  "text on line {line} (it is indented deeper than a list item "
                                                  "would be)", line=first + 1),
                                 "each list item `- ` at the same indentation as the others (or the text in quotes, "
                                 "if the `- ` belongs to it)")
                         for k in range(first + 1, min(last, len(lines) - 1) + 1)
                         if re.match(r"\s*-(\s|$)", lines[k])]
        elif scalar.style == '"':
            source = text[scalar.start_mark.index:scalar.end_mark.index]
            for m in ESCAPE_BEFORE_LETTER.finditer(source):
                line = first + 1 + source.count("\n", 0, m.start())
                problems.append(Problem(path, line, msg("`{cmd}` inside \"double quotes\" starts with the YAML "
                                                        "escape `{escape}` (a control character), not LaTeX",
                                                        cmd=m.group(1), escape="\\" + m.group(2)), LATEX_QUOTES))
    return problems


def _scalars(node: yaml.Node):
    import yaml  # (only a text read afresh has nodes: support/readings.py)

    if isinstance(node, yaml.ScalarNode):
        yield node
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _scalars(item)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _scalars(value)
