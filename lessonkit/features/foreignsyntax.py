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
from ..support.errors import Problem
from ..support.messages import msg
from .handnumbers import prose

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
    for path, text, line_at in prose(source):
        text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
        for m in ROLE.finditer(text):
            role, target = (m.group("sphinx"), m.group("sphinx_target")) if m.group("sphinx") else \
                (m.group("myst"), m.group("myst_target"))
            found.append(Problem(path, line_at(m.start()),
                                 msg("`{written}`: this is Sphinx/MyST syntax; here write `{instead}`",
                                     written=m.group(0), instead=lessonkit_form(role, target.strip())),
                                 msg("lessonkit's own syntax: `@eq:NAME`, `@fig:NAME`, `[@key]`, `@key`, "
                                     "`[text](#id)`, `{#eq:NAME}`")))
    return found
