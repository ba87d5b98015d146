"""The inline syntax of lesson Markdown that more than one stage reads: code spans, an escaped dollar, display math
with its `{#eq:NAME}` label, inline math. render/markup.py builds its INLINE pattern from these pieces; the plan
(load/plan.py) numbers the equations with the same ones, so a label means one thing wherever it is read."""
from __future__ import annotations

import re

from .document import SectionSource, walk

NAME = r"[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?"  # an equation's name: ASCII, so the Chinese after it is text
CODE_SPAN = r"(?P<code>(?P<ticks>`+)(?P<code_body>.+?)(?P=ticks))"
DOLLAR = r"(?P<dollar>\\\$)"
DISPLAY_MATH = r"\$\$(?P<display>.+?)\$\$(?:[ \t]*\{#(?P<eq_attr>[^}\n]*)\})?"
INLINE_MATH = r"\$(?P<inline>[^$\n]+?)\$"
MATH = re.compile("|".join((CODE_SPAN, DOLLAR, DISPLAY_MATH, INLINE_MATH)), re.DOTALL)
LABEL = re.compile(rf"eq:(?P<name>{NAME})")   # what `{#…}` after a display equation must say


def equation_numbers(sections: list[SectionSource]) -> dict[str, int]:
    """Each label of a display equation in lesson.md's sections → its number, in reading order (a label used twice
    keeps its first number): what `@eq:NAME` and `@lesson:SLUG#eq:NAME` show."""
    names = []
    for section in sections:
        for block in walk(section.blocks):
            if block.kind != "text":
                continue
            for m in MATH.finditer("\n".join(block.lines)):
                label = LABEL.fullmatch(m.group("eq_attr").strip()) if m.group("eq_attr") else None
                if m.group("display") is not None and label:
                    names.append(label.group("name"))
    return {name: number for number, name in enumerate(dict.fromkeys(names), start=1)}
