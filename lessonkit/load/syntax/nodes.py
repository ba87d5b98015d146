"""The syntax tree of a lesson's text: what lesson.md and every Markdown field of lesson.yaml are read into, once, at
load (load/syntax/parser.py). Every node knows the line of the file it starts on. Renderers and visitors dispatch on a
node's class through a table of their own (render/markup.py, render/notebook.py, features/handnumbers.py …); a class
a table lacks is our bug, raised where it is met (`dispatch`), and tests/test_syntax_tree.py checks that every table
names every class.

Blocks                                           Inline
  Paragraph  children                               Text        text
  Heading    level, children, id, classes          SoftBreak / HardBreak
  Quote      children                               Emphasis / Strong / Strike   children
  List       ordered, start, tight, children        CodeSpan    text, parts (`…`{values})
  Item       children                               Link        href, title, children
  Code       language, text (fenced or indented)    Image       src, alt, title
  Html       text (raw HTML block)                  InlineHtml  text
  Rule                                              Maths       tex, display (inline, `$$…$$` or `\\[…\\]`)
  Table      aligns, children (Row: children Cell)  Value       expression, spec (`{{ … }}`)
  Maths      tex, display=True, label               FigureRef / EquationRef  name (`@fig:` / `@eq:`)
  Container  kind, title, children (`::: kind`)    LessonRef   slug, target (`@lesson:slug#target`)
  Directive  kind, name, args (`{{< kind name >}}`) Citation    items ((key, locator) …: `[@a; @b, 第 2 节]`)
                                                    Narrative   key, locator (`@key`, `@key [第 2 节]`)
                                                    Term        name, shown (`[[术语|文字]]`)
A formula's `tex` is its TeX in pieces: text, and the Values written inside it (`0.9^{ {{ n }} }`).
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

from ...support.records import Record


# ── blocks ──────────────────────────────────────────────────────────────────────────────────────────────────────────
class Paragraph(Record):
    line: int
    children: tuple = ()
    classes: tuple[str, ...] = ()   # `{: .note }` on its last line


class Heading(Record):
    line: int
    level: int
    children: tuple = ()
    id: str = ""                    # `{#id}` at its end
    classes: tuple[str, ...] = ()


class Quote(Record):
    line: int
    children: tuple = ()


class List(Record):
    line: int
    ordered: bool
    start: int = 1                  # an ordered list's first number
    tight: bool = True              # items without blank lines between them: no <p> around their text
    children: tuple = ()            # Items


class Item(Record):
    line: int
    children: tuple = ()


class Code(Record):
    line: int                       # the opening fence's line (the code starts on the next)
    language: str = ""              # the fence's language (its info string without `{values}`)
    text: str = ""
    fenced: bool = True
    parts: tuple = ()               # `{values}` in its info: the text as str and Value pieces


class Html(Record):
    line: int
    text: str


class Rule(Record):
    line: int


class Table(Record):
    line: int
    aligns: tuple[str, ...]          # per column: "", "left", "center", "right"
    children: tuple = ()             # Rows, the header row first


class Row(Record):
    line: int
    header: bool
    children: tuple = ()             # Cells


class Cell(Record):
    line: int
    children: tuple = ()


class Container(Record):
    line: int
    kind: str                       # note, tip, warning, info, cards, card, toggle, state, tabs, tab, notes
    title: tuple = ()               # inline nodes
    title_text: str = ""            # the title as written (a tab's label, a tab set's group)
    children: tuple = ()


class Directive(Record):
    line: int
    kind: str                       # figure, widget, table, check, code …
    name: str
    args: tuple[str, ...] = ()


# ── inline ──────────────────────────────────────────────────────────────────────────────────────────────────────────
class Text(Record):
    line: int
    text: str


class SoftBreak(Record):
    line: int


class HardBreak(Record):
    line: int


class Emphasis(Record):
    line: int
    children: tuple = ()


class Strong(Record):
    line: int
    children: tuple = ()


class Strike(Record):
    line: int
    children: tuple = ()


class CodeSpan(Record):
    line: int
    text: str
    parts: tuple = ()               # `…`{values}: the text as str and Value pieces, its `{{ }}` filled in


class Link(Record):
    line: int
    href: str
    title: str = ""
    children: tuple = ()


class Image(Record):
    line: int
    src: str
    alt: str
    title: str = ""


class InlineHtml(Record):
    line: int
    text: str


class Maths(Record):
    line: int
    tex: tuple = ()                 # str and Value pieces
    display: bool = False
    label: str | None = None        # what `{#…}` after a display formula says (`eq:NAME`), None without one
    block: bool = False             # a block of its own (not inside a paragraph)
    label_line: int = 0


class Value(Record):
    line: int
    expression: str
    spec: str | None = None
    source: str = ""                # as written, `{{ x:.2f }}`


class FigureRef(Record):
    line: int
    name: str


class EquationRef(Record):
    line: int
    name: str


class LessonRef(Record):
    line: int
    slug: str
    target: str | None = None       # `eq:NAME`, `fig:NAME` or a section id


class Citation(Record):
    line: int
    body: str                       # between the brackets, `@a; @b, 第 2 节`
    items: tuple = ()               # ((key, locator or ""), …); () when it cannot be read


class Narrative(Record):
    line: int
    key: str
    locator: str | None = None


class Term(Record):
    line: int
    name: str
    shown: str | None = None


BLOCKS = (Paragraph, Heading, Quote, List, Item, Code, Html, Rule, Table, Row, Cell, Maths, Container, Directive)
INLINE = (Text, SoftBreak, HardBreak, Emphasis, Strong, Strike, CodeSpan, Link, Image, InlineHtml, Maths, Value,
          FigureRef, EquationRef, LessonRef, Citation, Narrative, Term)
NODES = tuple(dict.fromkeys(BLOCKS + INLINE))
INLINE_ONLY = tuple(kind for kind in INLINE if kind not in BLOCKS)


def walk(nodes) -> Iterator[Any]:
    """Every node under `nodes` in reading order, each before its children (a container's title before its body)."""
    stack = [iter(nodes)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        yield node
        children = getattr(node, "children", ())
        if type(node) is Container:
            stack.append(iter(children))
            stack.append(iter(node.title))
        elif children:
            stack.append(iter(children))


def inline_children(node) -> tuple:
    """A node's inline children: a paragraph's, a heading's, a cell's, a container's title (() for other blocks)."""
    if type(node) is Container:
        return node.title
    children = getattr(node, "children", ())
    return children if children and type(children[0]) in INLINE_ONLY else ()


def dispatch(table: Mapping[type, Callable], node: Any) -> Callable:
    """The handler `table` has for `node`'s class: a class it lacks is our bug, never silence."""
    try:
        return table[type(node)]
    except KeyError:
        raise TypeError(f"no handler for {type(node).__name__} nodes") from None


def plain(nodes) -> str:
    """The text of inline nodes as a reader reads it, markup left out (an image's alt text, a heading's words)."""
    out = []
    for node in walk(nodes):
        kind = type(node)
        if kind in (Text, CodeSpan, InlineHtml):
            out.append(node.text)
        elif kind in (SoftBreak, HardBreak):
            out.append(" ")
        elif kind is Image:
            out.append(node.alt)
        elif kind is Value:
            out.append(node.source)
        elif kind is Maths:
            out.append("".join(p if type(p) is str else p.source for p in node.tex))
    return "".join(out)
