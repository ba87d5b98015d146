"""Another tool's syntax, which lessonkit would show as it is written: Sphinx's roles as d2l writes them
(`:eqref:`eq_gd``, `:numref:`fig_gd``, `:cite:`key``, `:label:`eq_gd``) and MyST's (`{eq}`…``, `{numref}`…``,
`{cite}`…``). Text ported from a d2l chapter or a Jupyter Book keeps them, and the page would print the backticks.
Each is a warning at its file and line (an error under --strict) that says how to write it here: `@eq:NAME`,
`@fig:NAME`, `[@key]`, `@key` (author and year), `[text](#id)`, `{#eq:NAME}`.

Where it looks: lesson.md's text (not code blocks, nor a ``double-backtick`` code span, the way to show such a role
as code) and lesson.yaml's Markdown (the same keys the hand-typed-number report reads). Read from the text alone,
like that report, so a build that keeps every page still says it.

    check    report(source): the warnings, in file order
"""
from __future__ import annotations

import re
from pathlib import Path

from ..load.document import parse_blocks, walk
from ..support.errors import Problem
from ..support.messages import msg
from .handnumbers import PROSE_KEYS, prose_texts

ROLE = re.compile(r":(?P<sphinx>eqref|numref|ref|cite|citep|citet|label|eq):`(?P<sphinx_target>[^`\n]+)`"
                  r"|\{(?P<myst>eq|numref|ref|cite|cite:p|cite:t|label)\}`(?P<myst_target>[^`\n]+)`")
CODE_SPAN = re.compile(r"(`{2,}).+?\1", re.S)   # ``…``: how a text shows a role as code


def lessonkit_form(role: str, target: str) -> str:
    """How a role is written in lessonkit."""
    keys = [k.strip() for k in target.split(",") if k.strip()]
    return {"eqref": f"@eq:{target}", "eq": f"@eq:{target}", "numref": f"@fig:{target}", "ref": f"[…](#{target})",
            "label": f"{{#eq:{target}}}", "citet": "; ".join(f"@{k}" for k in keys),
            "cite:t": "; ".join(f"@{k}" for k in keys)}.get(role, "[" + "; ".join(f"@{k}" for k in keys) + "]")


def report(source) -> list[Problem]:
    """The roles of one lesson (load.lessons.LessonSource): lesson.md, then lesson.yaml."""
    found = []
    if source.body_path is not None and source.body_path.is_file():
        lines = source.body_path.read_text(encoding="utf-8", errors="replace").splitlines()
        for block in walk(parse_blocks(lines, 1, source.body_path, [])):
            if block.kind == "text":
                found += _roles(source.body_path, "\n".join(block.lines), block.line)
            elif block.kind == "container" and block.arg:
                found += _roles(source.body_path, block.arg, block.line)
    if isinstance(source.meta, dict) and source.meta_path.is_file():
        lines = source.meta_path.read_text(encoding="utf-8", errors="replace").splitlines()
        for key in PROSE_KEYS:
            for path, text in prose_texts(source.meta.get(key), key):
                start = source.meta_lines.get(path) or source.meta_lines.get(key) or 1
                found += [p if _in_file(p.line - start, text, p.line, lines) else
                          Problem(p.path, start, p.message, p.expected) for p in _roles(source.meta_path, text, start)]
    return found


def _in_file(k: int, text: str, line: int, lines: list[str]) -> bool:
    """Whether a value's k-th line is the file's line `line` (a `|` block keeps its lines; a folded or quoted string
    does not, and its roles are shown at the key)."""
    shown = text.splitlines()[k].strip() if k < len(text.splitlines()) else ""
    return line <= len(lines) and shown in lines[line - 1]


def _roles(path: Path, text: str, first_line: int) -> list[Problem]:
    text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    problems = []
    for m in ROLE.finditer(text):
        role, target = (m.group("sphinx"), m.group("sphinx_target")) if m.group("sphinx") else \
            (m.group("myst"), m.group("myst_target"))
        problems.append(Problem(path, first_line + text.count("\n", 0, m.start()),
                                msg("`{written}`: this is Sphinx/MyST syntax; here write `{instead}`",
                                    written=m.group(0), instead=lessonkit_form(role, target.strip())),
                                msg("lessonkit's own syntax: `@eq:NAME`, `@fig:NAME`, `[@key]`, `@key`, "
                                    "`[text](#id)`, `{#eq:NAME}`")))
    return problems
