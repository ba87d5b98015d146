"""Another tool's syntax, which lessonkit would show as it is written: Sphinx's roles as d2l writes them
(`:eqref:`eq_gd``, `:numref:`fig_gd``, `:cite:`key``, `:label:`eq_gd``) and MyST's (`{eq}`…``, `{numref}`…``,
`{cite}`…``). Text ported from a d2l chapter or a Jupyter Book keeps them, and the page would print the backticks.
Each is a warning at its file and line (an error under --strict) that says how to write it here: `@eq:NAME`,
`@fig:NAME`, `[@key]`, `@key` (author and year), `[text](#id)`, `{#eq:NAME}`.

Where it looks: lesson.md's syntax tree and lesson.yaml's Markdown, as load parsed them: a text that ends in a
role's name right before a code span (not code blocks, nor a ``double-backtick`` code span, the way to show such a
role as code). Read at load, like the hand-typed-number report, so a build that keeps every page still says it.

    check    report(source): the warnings, in file order
"""
from __future__ import annotations

import re

from ..load.syntax import nodes as n
from ..support.errors import Problem
from ..support.messages import msg

# a role's name at the end of the text before a code span: `:eqref:` (Sphinx) or `{numref}` (MyST)
ROLE = re.compile(r":(?P<sphinx>eqref|numref|ref|cite|citep|citet|label|eq):$"
                  r"|\{(?P<myst>eq|numref|ref|cite|cite:p|cite:t|label)\}$")


def lessonkit_form(role: str, target: str) -> str:
    """How a role is written in lessonkit."""
    keys = [k.strip() for k in target.split(",") if k.strip()]
    return {"eqref": f"@eq:{target}", "eq": f"@eq:{target}", "numref": f"@fig:{target}", "ref": f"[…](#{target})",
            "label": f"{{#eq:{target}}}", "citet": "; ".join(f"@{k}" for k in keys),
            "cite:t": "; ".join(f"@{k}" for k in keys)}.get(role, "[" + "; ".join(f"@{k}" for k in keys) + "]")


def report(source) -> list[Problem]:
    """The roles of one lesson (load.lessons.LessonSource): lesson.md, then lesson.yaml's Markdown."""
    return [problem for path, blocks in source.trees() for problem in roles(blocks, path)]


def roles(blocks, path) -> list[Problem]:
    """A role is a text ending in its name followed by a code span (a role inside a code span is code)."""
    found = []
    for node in n.walk(blocks):
        inline = n.inline_children(node)
        for before, after in zip(inline, inline[1:]):
            role = ROLE.search(before.text) if type(before) is n.Text and type(after) is n.CodeSpan else None
            if role is None:
                continue
            name = role.group("sphinx") or role.group("myst")
            written = f"{role.group(0)}`{after.text}`"
            found.append(Problem(path, after.line,
                                 msg("`{written}`: this is Sphinx/MyST syntax; here write `{instead}`",
                                     written=written, instead=lessonkit_form(name, after.text.strip())),
                                 msg("lessonkit's own syntax: `@eq:NAME`, `@fig:NAME`, `[@key]`, `@key`, "
                                     "`[text](#id)`, `{#eq:NAME}`")))
    return found

