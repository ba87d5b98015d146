"""A lesson's text as one syntax tree (nodes.py), read once at load. markdown-it-py is imported by parser.py, and
parser.py only when a Markdown text is parsed: a build whose readings are all kept (support/readings.py) never
imports it.

    parse_markdown(text, path, first_line, problems)   a Markdown text (lesson.md, a field of lesson.yaml, a glossary
                                                       definition, a caption) → block nodes
    parse_sections(text, path, problems, parts)        lesson.md → block nodes, each `##` section's kept in `parts`
                                                       by its own text (support/readings.py Parts); and each
                                                       section's key there, by its first line
    parse_plain(text, path, line, problems)            a plain text (a challenge's title, an alt text) → its words and
                                                       the values it names (Text and Value nodes)
"""
from __future__ import annotations

import functools
from pathlib import Path

from typing import TYPE_CHECKING

from ...support.errors import Problem
from . import nodes as n

if TYPE_CHECKING:
    from ...support.readings import Parts

VALUES_FLAG = "{values}"   # after a code fence or a code span: its `{{ … }}` are values, filled in


def parse_markdown(text: str, path: Path, first_line: int, problems: list[Problem]) -> tuple:
    """`text`'s block nodes; its mistakes added to `problems`. A text is parsed once per process (a caption of
    lesson.py is read for the citations' order, the page and the notebook)."""
    blocks, found = _parsed(text, path, first_line)
    problems.extend(found)
    return blocks


@functools.lru_cache(maxsize=4096)
def _parsed(text: str, path: Path, first_line: int) -> tuple[tuple, tuple[Problem, ...]]:
    from .parser import parse_markdown as parse

    problems: list[Problem] = []
    return parse(text, path, first_line, problems), tuple(problems)


def parse_sections(text: str, path: Path, problems: list[Problem], parts: "Parts") -> tuple[tuple, dict[int, str]]:
    from .parser import parse_sections as parse

    return parse(text, path, problems, parts)


def parse_plain(text: str, path: Path, line: int, problems: list[Problem]) -> tuple:
    """A plain text: its words as they are, and the `{{ … }}` on one line that name values."""
    from ...support.values import pieces   # (not imported by a build whose readings are all kept)

    return tuple(n.Text(line, piece) if type(piece) is str else piece
                 for piece in pieces(text, line, make_value, comments=False))


def make_value(expression: str, spec: str | None, source: str, line: int) -> n.Value:
    return n.Value(line, expression, spec, source)


def markdown_lines(text: str) -> list[str]:
    """`text`'s lines as markdown-it counts them (\\r\\n, \\r and \\n end a line; not str.splitlines()'s
    \\u2028, \\x0c and the like)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
