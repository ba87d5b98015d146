"""The one reading of lesson Markdown: lines → blocks that carry their source lines.

lesson.md is parsed once into sections of blocks; sections, the placement order of figures and widgets (which numbers
the figures), and the rendering all walk that one structure, so a code fence or a container means the same thing to
each of them. Markdown fields in lesson.yaml go through the same parser.

Block kinds:
  text        ordinary Markdown lines, handed to Python-Markdown (after our inline syntax is swapped for tokens)
  fence       a fenced code block (``` or ~~~, CommonMark rules: closed by the same character, at least as many)
  directive   `{{< kind name [args] >}}` alone on a line: figure, widget, table …
  container   `::: kind title` … `:::`, nested blocks inside (callouts, cards, toggles and their states, speaker notes)
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator, Sequence

from ..support.errors import Problem
from ..support.messages import msg
from ..support.records import Record

HEADING = re.compile(r"^##\s+(?P<title>.+?)\s*(?:\{#(?P<id>[A-Za-z][\w-]*)\})?\s*$")
FENCE_OPEN = re.compile(r"^ {0,3}(?P<marker>`{3,}|~{3,})(?P<info>.*)$")
DIRECTIVE = re.compile(r"^\{\{<\s*(?P<kind>\w+)\s+(?P<name>[\w-]+)(?P<args>(?:\s+[^\s>]+)*)\s*>\}\}\s*$")
CONTAINER_OPEN = re.compile(r"^:::\s*(?P<kind>[\w-]+)(?:\s+(?P<title>.*?))?\s*$")
CONTAINER_CLOSE = re.compile(r"^:::\s*$")
CONTAINER_KINDS = ("note", "tip", "warning", "info", "cards", "card", "toggle", "state", "tabs", "tab", "notes")
SHOWS_ONLY = {"toggle": "state", "tabs": "tab"}  # a container that shows only blocks of one kind, one at a time


class Block(Record):
    kind: str                     # text | fence | directive | container
    line: int                     # first source line (1-based, in the file)
    lines: Sequence[str] = ()     # text: its lines (a list: the parser adds the next line); fence: the code lines
    name: str = ""                # fence: info string; directive: its kind; container: its kind
    arg: str = ""                 # directive: the name it places; container: its title
    args: tuple[str, ...] = ()    # directive: further words
    children: Sequence["Block"] = ()  # container: the blocks inside


class SectionSource(Record):
    id: str
    title: str
    line: int                     # line of the heading in lesson.md
    blocks: list[Block]           # (the parser adds each block as it reads it)
    body: str = ""                # the raw text under the heading (for search and tests)


def parse_blocks(lines: list[str], first_line: int, path: Path, problems: list[Problem]) -> list[Block]:
    """Blocks of a run of Markdown lines; problems (unclosed fence or container, unreadable directive) are added."""
    blocks, _ = _parse(lines, 0, first_line, path, problems, nested=False)
    return blocks


def _parse(lines: list[str], i: int, first_line: int, path: Path, problems: list[Problem],
           nested: bool) -> tuple[list[Block], int]:
    """Parse from line index i until the end or (when nested) a closing `:::`; returns blocks and the index after."""
    blocks: list[Block] = []

    def text_line(index: int) -> None:
        if blocks and blocks[-1].kind == "text":
            blocks[-1].lines.append(lines[index])
        else:
            blocks.append(Block("text", first_line + index, [lines[index]]))

    while i < len(lines):
        line, lineno = lines[i], first_line + i
        fence = FENCE_OPEN.match(line)
        if fence and not (fence.group("marker")[0] == "`" and "`" in fence.group("info")):
            end = _fence_end(lines, i, fence.group("marker"))
            if end is None:
                problems.append(Problem(path, lineno, "code block is never closed",
                                        msg("a closing {marker}", marker=fence.group("marker"))))
                end = len(lines)
            blocks.append(Block("fence", lineno, lines[i + 1:end], name=fence.group("info").strip()))
            i = end + 1
            continue
        if nested and CONTAINER_CLOSE.match(line):
            return blocks, i + 1
        directive = DIRECTIVE.match(line)
        if directive:
            blocks.append(Block("directive", lineno, [line], name=directive.group("kind"),
                                arg=directive.group("name"), args=tuple(directive.group("args").split())))
            i += 1
            continue
        container = CONTAINER_OPEN.match(line)
        if container and not CONTAINER_CLOSE.match(line):
            kind = container.group("kind")
            if kind not in CONTAINER_KINDS:
                problems.append(Problem(path, lineno, msg("unknown block kind `::: {kind}`", kind=kind),
                                        msg("one of {items}", items=", ".join(CONTAINER_KINDS))))
            children, after = _parse(lines, i + 1, first_line, path, problems, nested=True)
            if after > len(lines):
                problems.append(Problem(path, lineno, msg("`::: {kind}` block is never closed", kind=kind),
                                        "a line with only `:::`"))
            if kind in SHOWS_ONLY:
                _only_parts(children, path, problems, kind)
            blocks.append(Block("container", lineno, name=kind, arg=container.group("title") or "",
                                children=children))
            i = after
            continue
        if line.strip().startswith("{{<"):
            problems.append(Problem(path, lineno, msg("cannot read directive `{text}`", text=line.strip()),
                                    "`{{< figure NAME >}}` or `{{< widget NAME >}}` alone on a line"))
        text_line(i)
        i += 1
    return blocks, i + (1 if nested else 0)  # nested and never closed: one past the end marks it


def _only_parts(children: list[Block], path: Path, problems: list[Problem], kind: str) -> None:
    """A toggle shows its `::: state` blocks one at a time, tabs their `::: tab` blocks: anything else inside would
    never be shown."""
    part = SHOWS_ONLY[kind]
    for child in children:
        stray = next((child.line + i for i, line in enumerate(child.lines) if line.strip()), None) \
            if child.kind == "text" else (None if child.kind == "container" and child.name == part else child.line)
        if stray is not None:
            problems.append(Problem(path, stray, msg("`::: {kind}` shows only its `::: {part}` blocks: this is outside "
                                                     "any of them", kind=kind, part=part),
                                    msg("the content inside a `::: {part} TITLE` … `:::` block, or after the "
                                        "closing `:::` of the `::: {kind}` block", part=part, kind=kind)))
            return


def _fence_end(lines: list[str], start: int, marker: str) -> int | None:
    """CommonMark: the closing fence uses the same character, at least as many, and nothing else but spaces."""
    closing = re.compile(r"^ {0,3}" + re.escape(marker[0]) + "{" + str(len(marker)) + r",}\s*$")
    for j in range(start + 1, len(lines)):
        if closing.match(lines[j]):
            return j
    return None


def parse_lesson_body(text: str, path: Path, problems: list[Problem]) -> list[SectionSource]:
    """lesson.md → numbered sections. A `## ` heading starts a section only outside code blocks and containers."""
    lines = text.splitlines()
    blocks = parse_blocks(lines, 1, path, problems)
    sections: list[SectionSource] = []
    preamble_reported = False
    for block in blocks:
        if block.kind != "text":
            if sections:
                sections[-1].blocks.append(block)
            elif not preamble_reported:
                preamble_reported = _report_preamble(path, block.line, problems)
            continue
        for offset, line in enumerate(block.lines):
            lineno = block.line + offset
            heading = HEADING.match(line)
            if heading:
                if "{#" in heading.group("title"):
                    problems.append(Problem(path, lineno,
                                            msg("cannot read the section id in `{line}`", line=line.strip()),
                                            "`{#id}` at the end of the heading: ASCII letters, digits, - and _"))
                section_id = heading.group("id") or f"sec-{len(sections) + 1}"
                sections.append(SectionSource(section_id, heading.group("title"), lineno, []))
            elif sections:
                last = sections[-1]
                if last.blocks and last.blocks[-1].kind == "text" and \
                        last.blocks[-1].line + len(last.blocks[-1].lines) == lineno:
                    last.blocks[-1].lines.append(line)
                else:
                    last.blocks.append(Block("text", lineno, [line]))
            elif line.strip() and not preamble_reported:
                preamble_reported = _report_preamble(path, lineno, problems)
    sections = [s._replace(body=_body(lines, s)) for s in sections]
    if not sections and not problems:
        problems.append(Problem(path, 1, "no sections", "at least one `## Section title {#id}` heading"))
    seen: dict[str, int] = {}
    for s in sections:
        if s.id in seen:
            problems.append(Problem(path, s.line, msg("duplicate section id `{id}` (first at line {line})", id=s.id,
                                                      line=seen[s.id]),
                                    "a unique `{#id}` per section"))
        seen.setdefault(s.id, s.line)
    return sections


def _body(lines: list[str], section: SectionSource) -> str:
    end = _end_line(section.blocks, section.line)
    return "\n".join(lines[section.line:end]) + "\n" if end > section.line else ""


def _report_preamble(path: Path, line: int, problems: list[Problem]) -> bool:
    problems.append(Problem(path, line, "text before the first `## ` section heading",
                            "the body to start with `## Section title {#id}`; put the intro in lesson.yaml"))
    return True


def _end_line(blocks: list[Block], default: int) -> int:
    """The last source line a run of blocks covers."""
    if not blocks:
        return default
    last = blocks[-1]
    if last.kind == "text":
        return last.line + len(last.lines) - 1
    if last.kind == "fence":
        return last.line + len(last.lines) + 1
    if last.kind == "container":
        return _end_line(last.children, last.line) + 1
    return last.line


def walk(blocks: list[Block]) -> Iterator[Block]:
    """Every block in reading order, containers before their contents."""
    for block in blocks:
        yield block
        if block.kind == "container":
            yield from walk(block.children)


def placements(sections: list[SectionSource], kind: str) -> list[Block]:
    """The directives placing `kind` (figure, widget …), in reading order; code blocks are never searched."""
    return [b for s in sections for b in walk(s.blocks) if b.kind == "directive" and b.name == kind]
