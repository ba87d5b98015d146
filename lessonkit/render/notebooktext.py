"""A lesson's syntax tree (load/syntax/) as the Markdown of a Jupyter notebook's cells: CommonMark that JupyterLab,
Notebook 7 and nbconvert show as the page shows it — headings, lists, tables, emphasis, `$…$` and `$$…$$` maths with
the values filled in, and lessonkit's own syntax said in words (「图 2」, 「式 (1)」, [3], a lesson's title). One handler
per node class (BLOCK_MD, INLINE_MD); a class neither table names is our bug (nodes.dispatch raises). What only the
notebook writer knows (a figure's number, a citation's, an image attached to the cell) it is asked for through
`Says`.

    Markdown(says).blocks(nodes) / .inline(nodes)
"""
from __future__ import annotations

import html
import unicodedata
from typing import Callable

from ..load.syntax import nodes as n
from ..support.records import Record

SPECIAL = "\\`*_<>$|~"                    # read as markup anywhere in a line (`[` only before `](` or `][`)
ESCAPED = str.maketrans({c: f"\\{c}" for c in SPECIAL})
BRACKETS = str.maketrans({c: f"\\{c}" for c in SPECIAL + "[]"})
LINE_START = frozenset("#>+-=")              # read as markup at a line's start


class Says(Record):
    """What the notebook writer says for the nodes a notebook shows in words."""
    value: Callable[[n.Value, bool], str]            # a value as the page shows it (in maths: as LaTeX)
    figure: Callable[[str], str]                      # @fig:NAME → 图 2
    equation: Callable[[str], str]                    # @eq:NAME → 式 (1)
    equation_tag: Callable[[str], int | None]         # a label → its number (\tag{1})
    lesson: Callable[[n.LessonRef], str]              # @lesson:… → the lesson's title
    citation: Callable[[n.Citation], str]             # [@a; @b] → [1, 2]
    narrative: Callable[[n.Narrative], str]           # @key → Press 等（2022）[3]
    image: Callable[[n.Image], str]                   # ![alt](file) → the attachment's Markdown
    link: Callable[[str], str]                        # a link's target (#id → Jupyter's anchor of that heading)
    directive: Callable[[n.Directive], str]           # a directive inside a list or a quote


class Markdown:
    def __init__(self, says: Says):
        self.says = says
        self.in_table = False

    # ── blocks ──
    def blocks(self, blocks) -> str:
        return "\n\n".join(out for out in (n.dispatch(BLOCK_MD, b)(self, b) for b in blocks) if out)

    def heading(self, node: n.Heading) -> str:
        return "#" * node.level + " " + self.inline(node.children).replace("\n", " ")

    def quote(self, node: n.Quote) -> str:
        return "\n".join(f"> {line}" if line else ">" for line in self.blocks(node.children).split("\n"))

    def list(self, node: n.List) -> str:
        items = []
        for k, item in enumerate(node.children):
            marker = f"{node.start + k}. " if node.ordered else "- "
            body = self.blocks(item.children) if not node.tight else "\n".join(
                self.inline(b.children) if type(b) is n.Paragraph else n.dispatch(BLOCK_MD, b)(self, b)
                for b in item.children)
            lines = body.split("\n") or [""]
            pad = " " * len(marker)
            items.append(marker + lines[0] + "".join(f"\n{pad}{line}" if line else "\n" for line in lines[1:]))
        return ("\n" if node.tight else "\n\n").join(items)

    def code(self, node: n.Code) -> str:
        text = self.filled(node)
        fence = "`" * max(3, _longest_run(text, "`") + 1)
        return f"{fence}{node.language}\n{text}\n{fence}"

    def filled(self, node: n.Code | n.CodeSpan) -> str:
        """Code's text, its values filled in when it asked for them (`{values}`)."""
        return "".join(p if type(p) is str else self.says.value(p, False) for p in node.parts) if node.parts \
            else node.text

    def table(self, node: n.Table) -> str:
        self.in_table = True
        rows = ["| " + " | ".join(self.inline(cell.children).replace("\n", " ") for cell in row.children) + " |"
                for row in node.children]
        self.in_table = False
        rule = "|" + "|".join(_ALIGN_RULES.get(a, "---") for a in node.aligns) + "|"
        return "\n".join(rows[:1] + [rule] + rows[1:])

    def display(self, node: n.Maths) -> str:
        tex = self.tex(node).strip()
        number = self.says.equation_tag(node.label) if node.label else None
        tag = f" \\tag{{{number}}}" if number is not None else ""
        return f"$$\n{tex}{tag}\n$$"

    def container(self, node: n.Container) -> str:
        """A callout, cards, a toggle, a tab: its title, then its blocks (speaker notes are the teacher's)."""
        if node.kind == "notes":
            return ""
        title = f"**{self.inline(node.title)}**" if node.title and node.kind != "tabs" else ""
        return "\n\n".join(part for part in (title, self.blocks(node.children)) if part)

    # ── inline ──
    def inline(self, nodes) -> str:
        """Inline nodes as Markdown; an emphasis whose delimiters stock CommonMark would not read as such beside
        what stands around it (punctuation inside, a Chinese character outside) as HTML (<strong>, <em>)."""
        parts: list = []
        last = ""   # the last character written so far (a line starts where it is "" or a line break)
        for node in nodes:
            part = n.dispatch(INLINE_MD, node)(self, node, last)
            parts.append(part)
            last = (part[-1:] or last) if type(part) is str else "x"
        out = ""
        for k, part in enumerate(parts):
            if type(part) is Emphasis:
                after = next((p if type(p) is str else "x" for p in parts[k + 1:] if p != ""), "")
                part = part.written(out[-1:] or " ", after[:1] or " ")
            out += part
        return out

    def text(self, node: n.Text, before: str) -> str:
        return escape(node.text, at_line_start=before in ("", "\n"))

    def emphasis(self, node, before: str, mark: str, tag: str) -> "Emphasis":
        return Emphasis(self.inline(node.children), mark, tag)

    def code_span(self, node: n.CodeSpan, before: str) -> str:
        text = self.filled(node)
        if self.in_table and "|" in text:  # GFM reads `\|` in a cell's code as `|`; nbconvert's renderer does not
            return "<code>" + html.escape(text, quote=False).replace("|", "&#124;") + "</code>"
        ticks = "`" * (_longest_run(text, "`") + 1)
        pad = " " if text.startswith("`") or text.endswith("`") else ""
        return f"{ticks}{pad}{text}{pad}{ticks}"

    def link(self, node: n.Link, before: str) -> str:
        title = f' "{node.title}"' if node.title else ""
        return f"[{self.inline(node.children)}]({self.says.link(node.href)}{title})"

    def maths(self, node: n.Maths, before: str) -> str:
        if node.display:
            return self.display(node)
        return f"${self.tex(node).strip()}$"

    def tex(self, node: n.Maths) -> str:
        return "".join(p if type(p) is str else self.says.value(p, True) for p in node.tex)


class Emphasis(Record):
    inner: str
    mark: str                   # * ** ~~
    tag: str                    # em strong del

    def written(self, before: str, after: str) -> str:
        """As delimiters when stock CommonMark reads them so between `before` and `after`, else as HTML."""
        if self.inner and _opens(before, self.inner[0]) and _closes(self.inner[-1], after):
            return f"{self.mark}{self.inner}{self.mark}"
        return f"<{self.tag}>{self.inner}</{self.tag}>"


def escape(text: str, at_line_start: bool = False, brackets: bool = False) -> str:
    """`text` as Markdown that shows it as it is: characters markup reads are escaped (a `#` or `-` only where a
    line starts; brackets where a link could start, or always: a citation's `[1]` may stand before a `(`)."""
    brackets = brackets or "](" in text or "][" in text
    out = text.translate(BRACKETS if brackets else ESCAPED)
    if at_line_start and out[:1] in LINE_START:
        out = "\\" + out
    if at_line_start and out[:1].isdigit():
        digits = len(out) - len(out.lstrip("0123456789"))
        if out[digits:digits + 1] in (".", ")"):
            out = out[:digits] + "\\" + out[digits:]
    return out


def _opens(before: str, first: str) -> bool:
    """CommonMark's left-flanking delimiter run: not followed by whitespace, and not followed by punctuation unless
    preceded by whitespace or punctuation."""
    return not first.isspace() and (not _punctuation(first) or before.isspace() or _punctuation(before))


def _closes(last: str, after: str) -> bool:
    """CommonMark's right-flanking delimiter run, the mirror of _opens."""
    return not last.isspace() and (not _punctuation(last) or after.isspace() or _punctuation(after))


def _punctuation(char: str) -> bool:
    """CommonMark's Unicode punctuation: the P and S general categories."""
    return unicodedata.category(char)[0] in "PS"


def _longest_run(text: str, char: str) -> int:
    longest = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        longest = max(longest, run)
    return longest


_ALIGN_RULES = {"left": ":---", "center": ":---:", "right": "---:"}

BLOCK_MD: dict[type, Callable] = {
    n.Paragraph: lambda md, node: md.inline(node.children),
    n.Heading: Markdown.heading, n.Quote: Markdown.quote, n.List: Markdown.list, n.Code: Markdown.code,
    n.Html: lambda md, node: node.text, n.Rule: lambda md, node: "---", n.Table: Markdown.table,
    n.Maths: Markdown.display, n.Container: Markdown.container,
    n.Directive: lambda md, node: md.says.directive(node),
}
INLINE_MD: dict[type, Callable] = {
    n.Text: Markdown.text, n.SoftBreak: lambda md, node, before: "\n", n.HardBreak: lambda md, node, before: "\\\n",
    n.Emphasis: lambda md, node, before: md.emphasis(node, before, "*", "em"),
    n.Strong: lambda md, node, before: md.emphasis(node, before, "**", "strong"),
    n.Strike: lambda md, node, before: md.emphasis(node, before, "~~", "del"),
    n.CodeSpan: Markdown.code_span, n.Link: Markdown.link,
    n.Image: lambda md, node, before: md.says.image(node),
    n.InlineHtml: lambda md, node, before: node.text, n.Maths: Markdown.maths,
    n.Value: lambda md, node, before: escape(md.says.value(node, False)),
    n.FigureRef: lambda md, node, before: md.says.figure(node.name),
    n.EquationRef: lambda md, node, before: md.says.equation(node.name),
    n.LessonRef: lambda md, node, before: escape(md.says.lesson(node)),
    n.Citation: lambda md, node, before: md.says.citation(node),
    n.Narrative: lambda md, node, before: md.says.narrative(node),
    n.Term: lambda md, node, before: escape((node.shown or node.name).strip()),
}
