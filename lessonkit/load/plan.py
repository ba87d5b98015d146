"""A lesson's plan: its text read once, at load, into what every later stage needs of it.

lesson.md is parsed into sections of blocks (load/document.py); the Markdown fields of lesson.yaml are parsed here,
once, into blocks of their own; and the reading order is recorded: every directive that places something (a
figure, a widget, a self-check, a code listing, a table) in the order a reader meets it — lesson.md's sections,
then the challenges' answers — so figure numbers, equation numbers and what is placed where have exactly one source.
Course navigation, links from other lessons, the page, citations, the hand-typed-number report, the notebook and
the slides read the plan; nothing after load parses a lesson's text again.
"""
from __future__ import annotations

import re
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator

from ..support import pysource
from ..support.errors import Problem
from ..support.messages import msg
from ..support.readings import kept
from ..support.records import Record
from .document import SectionSource, misplaced_parts
from .syntax import nodes as n
from .syntax import parse_markdown, parse_plain
from .syntax.maths import LABEL_NAME

# lesson.yaml's fields written in Markdown (a list's items each their own field: `challenges.0.answer`)
BLOCK_FIELDS = ("intro", "question")
LIST_FIELDS = ("objectives", "sources")         # each item a line of Markdown
ITEM_BLOCK_FIELDS = {"challenges": ("question", "answer"), "checks": ("question", "answer")}


class Place(Record):
    """One directive placing something, where the reader meets it."""
    kind: str                       # figure | widget | check | code | table
    name: str
    args: tuple[str, ...]
    path: Path
    line: int
    challenge: int = 0              # the challenge (1-based) whose answer places it; 0: lesson.md


NONE: dict = MappingProxyType({})  # (a plan of nothing: one read-only empty mapping)


class LessonPlan(Record):
    fields: dict[str, tuple] = NONE                 # lesson.yaml key → its Markdown, parsed (block nodes); a plain
                                                    # text field (a title, a feedback) as Text and Value nodes
    places: tuple[Place, ...] = ()                  # in reading order
    figure_functions: dict[str, str] = NONE         # lesson.py: figure function → figure name
    equation_lines: dict[str, int] = NONE           # `{#eq:NAME}` → the line of its first use, in reading order

    def placed(self, kind: str) -> list[Place]:
        return [p for p in self.places if p.kind == kind]

    @property
    def figure_places(self) -> list[Place]:
        """Where figures are placed, in reading order: `{{< figure NAME >}}`, and `{{< code FUNCTION >}}` of a
        figure function (its output is the figure), named by the figure."""
        found = []
        for place in self.places:
            if place.kind == "figure":
                found.append(place)
            elif place.kind == "code" and place.name in self.figure_functions and wants_output(place.args):
                found.append(Place("figure", self.figure_functions[place.name], (), place.path, place.line,
                                   place.challenge))
        return found

    @property
    def equations(self) -> dict[str, int]:
        """`{#eq:NAME}` → its number: the order of first use."""
        return {name: k for k, name in enumerate(self.equation_lines, start=1)}

    @property
    def figures(self) -> dict[str, int]:
        """Each placed figure's number: the one source, on the page and in links from other lessons."""
        return {name: n for n, name in enumerate(dict.fromkeys(p.name for p in self.figure_places), start=1)}

    def blocks(self, key: str) -> tuple:
        return self.fields.get(key, ())


def make_plan(meta: dict[str, Any], lines: dict[str, int], sections: list[SectionSource], meta_path: Path,
              body_path: Path, code_path: Path | None, problems: list[Problem], store=None) -> LessonPlan:
    """The plan of a lesson read as far as it could be (a broken field is left out: reported where it was read);
    lesson.yaml's Markdown read once across builds (support/readings.py, kept in `store`)."""
    fields, found = kept(store, fields_reading, meta_path, given=(meta, lines)) if meta else ({}, [])
    problems += found
    places = [_place(b, body_path) for s in sections for b in n.walk(s.blocks) if type(b) is n.Directive]
    for number, challenge in enumerate(_items(meta, "challenges"), start=1):
        places += [_place(b, meta_path, number) for b in n.walk(fields.get(f"challenges.{number - 1}.answer", ()))
                   if type(b) is n.Directive]
    # lesson.py is read only when a place shows code (parsing it costs)
    figure_functions = declared_figures(code_path) if any(p.kind == "code" for p in places) else {}
    return LessonPlan(fields, tuple(places), figure_functions, equation_labels(sections, body_path, problems))


def fields_reading(path: Path, meta: dict[str, Any], lines: dict[str, int]) -> tuple[dict[str, tuple], list[Problem]]:
    """lesson.yaml's Markdown texts parsed, by key, and their problems: a function of lesson.yaml's bytes (`meta` and
    `lines` are read from them)."""
    problems: list[Problem] = []
    return dict(_fields(meta, lines, path, problems)), problems


def _fields(meta: dict[str, Any], lines: dict[str, int], path: Path,
            problems: list[Problem]) -> Iterator[tuple[str, tuple]]:
    """Every Markdown text of lesson.yaml parsed (plain texts — a challenge's title, a self-check's feedback and the
    hints of known mistakes — into their words and values), by key."""
    def markdown(key: str, text: Any) -> Iterator[tuple[str, tuple]]:
        if isinstance(text, str):
            blocks = parse_markdown(text, path, lines.get(key, 1), problems)
            problems.extend(misplaced_parts(blocks, path))
            yield key, blocks

    def plain(key: str, text: Any) -> Iterator[tuple[str, tuple]]:
        if isinstance(text, str):
            yield key, parse_plain(text, path, lines.get(key, 1), problems)

    for key in BLOCK_FIELDS:
        yield from markdown(key, meta.get(key))
    for key in LIST_FIELDS:
        for i, text in enumerate(_list(meta.get(key))):
            yield from markdown(f"{key}.{i}", text)
    for list_key, keys in ITEM_BLOCK_FIELDS.items():
        for i, item in enumerate(_items(meta, list_key)):
            prefix = f"{list_key}.{i}"
            yield from plain(f"{prefix}.title", item.get("title"))
            for key in keys:
                yield from markdown(f"{prefix}.{key}", item.get(key))
            for j, hint in enumerate(_list(item.get("hints"))):
                yield from markdown(f"{prefix}.hints.{j}", hint)
            yield from _check_texts(item.get("check"), f"{prefix}.check", markdown, plain)


def _check_texts(check: Any, key: str, markdown, plain) -> Iterator[tuple[str, tuple]]:
    """A self-check's words: its choices' texts (Markdown), their feedback and the hints of its fields' known
    mistakes (plain text)."""
    if not isinstance(check, dict):
        return
    for k, choice in enumerate(_list(check.get("choices"))):
        if isinstance(choice, dict):
            yield from markdown(f"{key}.choices.{k}.text", choice.get("text"))
            yield from plain(f"{key}.choices.{k}.feedback", choice.get("feedback"))
    for f, field in enumerate(_list(check.get("fields"))):
        for m, mistake in enumerate(_list(field.get("mistakes") if isinstance(field, dict) else None)):
            if isinstance(mistake, dict):
                yield from plain(f"{key}.fields.{f}.mistakes.{m}.hint", mistake.get("hint"))


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def equation_labels(sections: list[SectionSource], path: Path, problems: list[Problem]) -> dict[str, int]:
    """Each label of a display equation in lesson.md's sections → the line of its first use, in reading order (the
    order numbers them: what `@eq:NAME` and `@lesson:SLUG#eq:NAME` show); a label used again is a problem there."""
    lines: dict[str, int] = {}
    for section in sections:
        for node in n.walk(section.blocks):
            label = LABEL_NAME.fullmatch(node.label.strip()) if type(node) is n.Maths and node.display and \
                node.label else None
            if label is None:
                continue
            name = label.group("name")
            if name in lines:
                problems.append(Problem(path, node.label_line,
                                        msg("equation label `eq:{name}` is used twice (first at line {line})",
                                            name=name, line=lines[name]),
                                        msg("a unique `{#eq:NAME}` per equation")))
            lines.setdefault(name, node.label_line)
    return lines


def _items(meta: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items = meta.get(key)
    return [i if isinstance(i, dict) else {} for i in items] if isinstance(items, list) else []


def _place(block: n.Directive, path: Path, challenge: int = 0) -> Place:
    return Place(block.kind, block.name, block.args, path, block.line, challenge)


def declared_figures(code_path: Path | None) -> dict[str, str]:
    """The figure functions lesson.py declares, read from its source without running it (function name → figure
    name: `@lesson.figure(…, name=…)` or the function's own name; a figure cell's name → itself), for links from
    other lessons, which are made before any lesson's code runs."""
    import ast

    from .cells import is_cell_file, split_cells

    try:
        text = code_path.read_text(encoding="utf-8") if code_path is not None else ""
        tree = pysource.parse(text) if code_path is not None else None
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return {}
    found = {}
    if is_cell_file(text):  # a figure cell is shown by its name (compute/cells.py)
        found = {c.name: c.name for c in split_cells(text, code_path)[0]
                 if c.kind == "figure" and c.option("output", True) is not False}
    for node in tree.body if tree is not None else ():
        for deco in getattr(node, "decorator_list", ()):
            if isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "figure":
                named = [k.value.value for k in deco.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)]
                found[node.name] = named[0] if named else node.name
    return found


CODE_OPTIONS = ("output", "echo")  # `{{< code NAME output=false >}}`, as a cell's header names them (Quarto)
CODE_NAME = re.compile(r"[A-Za-z_][\w-]*")


class CodeRequest(Record):
    """What `{{< code NAME [MORE …] [output=…] [echo=…] >}}` asks for."""
    names: tuple[str, ...]
    options: dict[str, bool]       # output / echo, where given
    unread: tuple[str, ...]        # words that are neither a name nor an option


def code_request(name: str, args: tuple[str, ...]) -> CodeRequest:
    """The names and options of `{{< code NAME … >}}` (features/code.py shows them)."""
    names, options, unread = [name], {}, []
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lower() in CODE_OPTIONS and value.lower() in ("true", "false") and key.lower() not in options:
            options[key.lower()] = value.lower() == "true"
        elif not sep and CODE_NAME.fullmatch(arg):
            names.append(arg)
        else:
            unread.append(arg)
    return CodeRequest(tuple(names), options, tuple(unread))


def wants_output(args: tuple[str, ...]) -> bool | None:
    """Whether `{{< code NAME … >}}` shows an output: `output=false` → False; nothing, more names, `echo=…` or
    `output=true` → True; a word it cannot read → None (the author's mistake)."""
    asked = code_request("", args)
    return None if asked.unread else asked.options.get("output", True)
