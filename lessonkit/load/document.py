"""lesson.md as sections: its syntax tree (load/syntax/) cut at each top-level `##` heading (ATX or setext), the
heading's `{#id}` the section's id. Sections, the placement order of figures and widgets (which numbers the
figures), the rendering and every report walk that one tree, so a code fence or a container means the same thing to
each of them."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from ..support.errors import Problem
from ..support.messages import msg
from ..support.records import Record
from .syntax import nodes as n
from .syntax import markdown_lines, parse_markdown, parse_sections

if TYPE_CHECKING:
    from ..support.readings import Parts

SHOWS_ONLY = {"toggle": "state", "tabs": "tab"}  # a container that shows only blocks of one kind, one at a time


class SectionSource(Record):
    id: str
    title: str                    # the heading as written, `{#id}` left out (the course's contents list it)
    line: int                     # line of the heading in lesson.md
    blocks: tuple                 # its block nodes (load/syntax/nodes.py)
    heading: tuple = ()           # the heading's inline nodes
    digest: str = ""              # what its nodes are read from, hashed (its text, first line, the links'
    #                               definitions; without a store, the nodes): what memos of it are keyed by


def parse_lesson_body(text: str, path: Path, problems: list[Problem],
                      parts: Parts | None = None) -> list[SectionSource]:
    """lesson.md → numbered sections. A `##` heading starts a section only at the top level (not inside a
    container, a list or a quote). `parts`: where each section's reading is kept by its text."""
    lines = markdown_lines(text)
    sections: list[SectionSource] = []
    before: list = []
    blocks, digests = parse_sections(text, path, problems, parts) if parts else \
        (parse_markdown(text, path, 1, problems), {})
    for node in blocks:
        if type(node) is n.Heading and node.level == 2:
            section_id = node.id or f"sec-{len(sections) + 1}"
            sections.append(SectionSource(section_id, _title(lines, node), node.line, [], node.children))
        elif sections:
            sections[-1].blocks.append(node)
        else:
            before.append(node)
    if before:
        problems.append(Problem(path, before[0].line, "text before the first `## ` section heading",
                                "the body to start with `## Section title {#id}`; put the intro in lesson.yaml"))
    sections = [s._replace(blocks=tuple(s.blocks), digest=digests.get(s.line) or _digest(s)) for s in sections]
    if not sections and not problems:
        problems.append(Problem(path, 1, "no sections", "at least one `## Section title {#id}` heading"))
    seen: dict[str, int] = {}
    for s in sections:
        if s.id in seen:
            problems.append(Problem(path, s.line, msg("duplicate section id `{id}` (first at line {line})", id=s.id,
                                                      line=seen[s.id]),
                                    "a unique `{#id}` per section"))
        seen.setdefault(s.id, s.line)
        problems.extend(misplaced_parts(s.blocks, path))
    return sections


def _digest(section: SectionSource) -> str:
    return hashlib.sha256(repr(section).encode()).hexdigest()


def _title(lines: list[str], heading: n.Heading) -> str:
    """A heading's text as written: `## Title {#id}` → `Title`; a setext heading's line."""
    line = lines[heading.line - 1].strip() if 0 < heading.line <= len(lines) else ""
    line = line.lstrip("#").strip() if line.startswith("#") else line
    line = line.rstrip("#").rstrip() if line.endswith(" #") else line
    cut = line.rfind("{")
    return line[:cut].rstrip() if heading.id and cut >= 0 else line


def misplaced_parts(blocks, path: Path, parent: str | None = None) -> list[Problem]:
    """A `::: toggle` shows its `::: state` blocks one at a time, `::: tabs` their `::: tab` blocks: anything else
    inside would never be shown; a `::: state` or `::: tab` outside them belongs to nothing."""
    problems = []
    for block in blocks:
        if type(block) is not n.Container:
            if type(block) in (n.Quote, n.List, n.Item):
                problems += misplaced_parts(block.children, path)
            continue
        for container, part in SHOWS_ONLY.items():
            if block.kind == part and parent != container:
                problems.append(Problem(path, block.line, msg("`::: {part}` outside a `::: {container}` block",
                                                              part=part, container=container),
                                        msg("{part}s inside `::: {container}` … `:::`", part=part,
                                            container=container)))
        part = SHOWS_ONLY.get(block.kind)
        stray = next((c for c in block.children if part and not (type(c) is n.Container and c.kind == part)), None)
        if stray is not None:
            problems.append(Problem(path, stray.line, msg("`::: {kind}` shows only its `::: {part}` blocks: this is "
                                                          "outside any of them", kind=block.kind, part=part),
                                    msg("the content inside a `::: {part} TITLE` … `:::` block, or after the "
                                        "closing `:::` of the `::: {kind}` block", part=part, kind=block.kind)))
        problems += misplaced_parts(block.children, path, block.kind)
    return problems


def placements(sections: list[SectionSource], kind: str) -> list[n.Directive]:
    """The directives placing `kind` (figure, widget …), in reading order; code blocks are never searched."""
    return [b for s in sections for b in n.walk(s.blocks) if type(b) is n.Directive and b.kind == kind]
