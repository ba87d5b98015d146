"""Speaker notes: a `::: notes` … `:::` block anywhere in lesson.md (Markdown; values and math allowed) is for the
teacher. It belongs to the projector screen it sits on: the presenter view shows it beside that screen, the slides
put it in that slide's notes, the teacher's slides PDF prints it on a page after the screen.

A student never sees it: the block renders into one element that is `hidden` (not shown, not printed, not read by
screen readers, and skipped by search, which skips hidden elements), carries the class `speaker-notes` (the rule
search and the presenter view know it by) and mounts the `notes` component, whose CSS keeps it hidden even where a
theme rule would show an aside, and which the glossary's first-use marks skip like any component.

    render   notes_html(block) from the renderer's container hook (render/pages.py)
    check    misplaced(sections, path): a figure, widget or self-check placed inside notes would be numbered,
             counted and then never seen: the author's mistake, at its line
"""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ..load.document import SectionSource
from ..load.syntax import nodes as n
from ..support.errors import Problem
from ..support.messages import msg

KIND = "notes"                    # the `::: notes` container and the component it mounts
CSS_CLASS = "speaker-notes"       # what search skips, what the projector's presenter view reads
NOT_IN_NOTES = ("figure", "widget", "check")


def notes_html(block: dict[str, Any], label: str | None = None) -> str:
    """The hidden element of one `::: notes` block (`block`: the renderer's container part: title and body HTML);
    with a `label` (the teacher's edition) shown, under that label, where it stands: under the screen it belongs to."""
    title = f'<p class="{CSS_CLASS}-title">{block["title"]}</p>\n' if block.get("title") else ""
    if label is not None:
        label = html.escape(label)
        return (f'<aside class="{CSS_CLASS} {CSS_CLASS}-shown" data-widget="{KIND}" aria-label="{label}">\n'
                f'<p class="{CSS_CLASS}-label" aria-hidden="true">{label}</p>\n{title}{block["body"]}\n</aside>')
    return f'<aside class="{CSS_CLASS}" data-widget="{KIND}" hidden>\n{title}{block["body"]}\n</aside>'


def misplaced(sections: list[SectionSource], path: Path) -> list[Problem]:
    """Figures, widgets and self-checks placed inside a notes block: students would never see them."""
    problems = []
    for section in sections:
        for notes in (b for b in n.walk(section.blocks) if is_notes(b)):
            for block in n.walk(notes.children):
                if type(block) is n.Directive and block.kind in NOT_IN_NOTES:
                    problems.append(Problem(path, block.line,
                                            msg("`{{< {kind} {name} >}}` inside `::: notes`: notes are hidden from "
                                                "students", kind=block.kind, name=block.name),
                                            "figures, widgets and self-checks outside `::: notes` (notes take "
                                            "text, values, math and tables)"))
    return list(dict.fromkeys(problems))  # nested notes walk the same block twice


def is_notes(block) -> bool:
    return type(block) is n.Container and block.kind == KIND
