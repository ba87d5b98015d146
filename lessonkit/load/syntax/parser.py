"""A lesson's text read once into its syntax tree (nodes.py): markdown-it-py, the CommonMark parser under MyST and
Jupyter Book, with GFM tables and strikethrough, mdit-py-plugins' amsmath environments, the CJK-friendly emphasis
amendment (cjk.py) and lessonkit's own rules (rules.py). Every node knows the line of the file it starts on;
every mistake a rule finds is a Problem at its line. Imported only where a text is parsed (load/syntax/__init__.py):
a build that keeps every reading never imports markdown-it."""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll
from markdown_it.parser_inline import ParserInline
from markdown_it.rules_core.text_join import text_join
from markdown_it.rules_inline import StateInline

from ...support.errors import Problem
from ...support.messages import Message, msg
from . import VALUES_FLAG, cjk, make_value, markdown_lines, nodes as n, rules
from ...support.values import pieces

if TYPE_CHECKING:
    from ...support.readings import Parts

ATTRIBUTES = re.compile(r"[ \t]*\{:?[ \t]*(?P<body>[#.][^{}\n]*|[A-Za-z][\w-]*=[^{}\n]*)\}[ \t]*$")
ATTRIBUTE = re.compile(r"#(?P<id>[^\s#.]+)|\.(?P<cls>[^\s#.=]+)|(?P<key>[A-Za-z][\w-]*)=(?P<value>\"[^\"]*\"|'[^']*'|\S*)")
ID = re.compile(r"[A-Za-z][\w-]*")
BLOCKS_ONLY = "lessonkit: blocks only"     # env key: read the blocks, leave the inline text (parse_sections)
ID_EXPECTED = msg("`{#id}` at the end of the heading: ASCII letters, digits, - and _")


class Reading:
    """One text being read: its file, the line its first line is on, and the problems found."""

    def __init__(self, path: Path, first_line: int, problems: list[Problem], text: str = ""):
        self.path, self.first, self.problems, self.text = path, first_line, problems, text
        self.inline_line = first_line   # the file line of the inline text being read (LineState)

    def line_text(self, line: int) -> str:
        """The text's line `line` (0-based) as written, for a message."""
        lines = markdown_lines(self.text)
        return lines[line].strip() if 0 <= line < len(lines) else ""

    def problem(self, line: int, message: Message | str, expected: Message | str | None = None) -> None:
        """A mistake at the text's line `line` (0-based, as markdown-it counts)."""
        self.problems.append(Problem(self.path, self.first + line, message, expected))

    def problem_inline(self, state: "LineState", message: Message | str, expected: Message | str | None = None) -> None:
        self.problems.append(Problem(self.path, state.line_at(state.pos), message, expected))


class LineState(StateInline):
    """markdown-it's inline state, with each token's file line in its `map` (inline tokens have none of their own)
    and the CJK-friendly flanking rules for `*` and `_`."""

    def __init__(self, src, md, env, tokens):
        super().__init__(src, md, env, tokens)
        self._first = env["reading"].inline_line
        self._one_line = "\n" not in src   # (most paragraphs of Chinese prose: every token on the first line)
        self._counted = (0, self._first)

    def line_at(self, pos: int) -> int:
        if self._one_line:
            return self._first
        done, line = self._counted
        if pos < done:
            done, line = 0, self._first
        line += self.src.count("\n", done, pos)
        self._counted = (pos, line)
        return line

    def push(self, ttype, tag, nesting):
        token = super().push(ttype, tag, nesting)
        token.map = [self.line_at(self.pos)] * 2
        return token

    def pushPending(self):
        token = super().pushPending()
        token.map = [self.line_at(self.pos)] * 2
        return token

    scanDelims = cjk.scan_delims


class LineInline(ParserInline):
    State = LineState

    def parse(self, src, md, env, tokens):
        state = self.State(src, md, env, tokens)
        self.tokenize(state)
        for rule in self.ruler2.getRules(""):
            rule(state)
        return state.tokens


@functools.cache
def parser() -> MarkdownIt:
    """The one parser: CommonMark (raw HTML allowed: the CSP check reads it), GFM tables and strikethrough, amsmath
    environments, our rules. No typographic replacements, no linkify: the text says what the author typed."""
    from mdit_py_plugins.amsmath import amsmath_plugin

    md = MarkdownIt("commonmark")
    md.inline = LineInline()
    md.configure("commonmark").enable(["table", "strikethrough"])
    amsmath_plugin(md)
    alt = {"alt": ["paragraph", "reference", "blockquote", "list"]}
    md.block.ruler.before("fence", "container", rules.container, alt)
    md.block.ruler.before("fence", "directive", rules.directive, alt)
    md.block.ruler.before("fence", "display_maths", rules.display_maths, alt)
    md.inline.ruler.before("escape", "maths", rules.maths)
    md.inline.ruler.before("escape", "value", rules.value)
    md.inline.ruler.before("link", "bracketed", rules.bracketed)
    md.inline.ruler.before("autolink", "reference", rules.reference)
    md.core.ruler.before("inline", "attributes", _attributes)
    md.core.ruler.at("inline", _inline_with_lines)
    return md


def _attributes(state) -> None:
    """`{#id}` and `{: .class }` at a heading's end, `{: … }` on a paragraph's last line (as Python-Markdown's
    attribute lists): taken off the text into the token's attributes."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "inline" or i == 0 or tokens[i - 1].type not in ("heading_open", "paragraph_open"):
            continue
        content, line = token.content, token.map[0]
        if tokens[i - 1].type == "paragraph_open":
            last = content.rfind("\n")
            found = ATTRIBUTES.fullmatch(content[last + 1:]) if last >= 0 else None
            if found is None:
                continue
            token.content, line = content[:last], line + content.count("\n")
        else:
            found = ATTRIBUTES.search(content)
            if found is None:
                if "{#" in content:
                    where = state.env["reading"]
                    where.problem(token.map[0], msg("cannot read the section id in `{line}`",
                                                    line=where.line_text(token.map[0])), ID_EXPECTED)
                continue
            token.content = content[:found.start()]
        tokens[i - 1].meta["attributes"] = _read_attributes(found.group("body"), state.env["reading"], line)


def _read_attributes(body: str, where: Reading, line: int) -> dict[str, Any]:
    read: dict[str, Any] = {"id": "", "classes": ()}
    for found in ATTRIBUTE.finditer(body):
        if found.group("id"):
            if ID.fullmatch(found.group("id")):
                read["id"] = found.group("id")
            else:
                where.problem(line, msg("cannot read the section id in `{line}`", line=where.line_text(line)),
                              ID_EXPECTED)
        elif found.group("cls"):
            read["classes"] += (found.group("cls"),)
        elif re.fullmatch(r"style|on[a-z]+", found.group("key"), re.I):   # (compiled when a key is met)
            where.problem(line, blocked_html(msg("attribute `{name}`", name=f"{found.group('key').lower()}=")),
                          "Markdown, `![alt](file.png)` for images, or a widget")
    return read


def blocked_html(what: Message | str) -> Message:
    return msg("raw HTML {what}: the page's Content-Security-Policy blocks it (pages run only lessonkit's own script "
               "and style, and load nothing)", what=what)


def _inline_with_lines(state) -> None:
    """markdown-it's `inline` core rule, telling each inline parse the file line its text starts on (none when only
    the blocks are read: parse_sections reads each section's inline text itself)."""
    if not state.env.get(BLOCKS_ONLY):
        _read_inline(state.md, state.tokens, state.env)


def _read_inline(md: MarkdownIt, tokens: list, env: dict) -> None:
    where = env["reading"]
    for token in tokens:
        if token.type == "inline":
            where.inline_line = where.first + (token.map[0] if token.map else 0)
            token.children = []
            md.inline.parse(token.content, md, env, token.children)


def parse_markdown(text: str, path: Path, first_line: int, problems: list[Problem]) -> tuple:
    """`text`'s block nodes; its mistakes added to `problems`."""
    where = Reading(path, first_line, problems, text)
    tokens = parser().parse(text, {"reading": where})
    return Tree(where).blocks(tokens)


def parse_sections(text: str, path: Path, problems: list[Problem], parts: Parts) -> tuple[tuple, dict[int, str]]:
    """lesson.md's block nodes, each top-level `##` section's inline text and nodes kept in `parts` by the section's
    own text and first line: an edit of one paragraph reads that section's inline text again, not the file's. The
    blocks are read whole every time (≈ a third of a parse): a section starts where nothing is open, so the same
    text at the same line reads the same; a link's target may be defined in another section, so the links'
    definitions are part of the key. Also each section's key, by its first line: a digest of all its nodes are
    read from (what the memos of a section's rendering and report are keyed by)."""
    env = {"reading": Reading(path, 1, problems, text), BLOCKS_ONLY: True}
    md = parser()
    tokens = md.parse(text, env)
    lines = markdown_lines(text)
    starts = [0] + [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2" and t.level == 0]
    ends = starts[1:] + [len(tokens)]
    definitions = sorted((label, d["href"], d["title"]) for label, d in env.get("references", {}).items())
    out: list = []
    keys: dict[int, str] = {}
    for start, end in zip(starts, ends):
        if start == end:
            continue
        first = tokens[start].map[0] if start else 0
        last = tokens[end].map[0] if end < len(tokens) else len(lines)
        own = "\n".join(lines[first:last])
        key = keys[first + 1] = parts.key(own, first + 1, definitions)
        found = parts.get(key)
        if found is None:
            found_problems: list[Problem] = []
            section = Reading(path, 1, found_problems, text)
            _read_inline(md, tokens[start:end], {**env, "reading": section})
            text_join(_Tokens(tokens[start:end]))
            found = Tree(section).blocks(tokens[start:end]), tuple(found_problems)
            parts.put(key, found)
        out += found[0]
        problems += found[1]
    return tuple(out), keys


class _Tokens:
    """What markdown-it's core rules read of their state: its tokens."""

    def __init__(self, tokens: list):
        self.tokens = tokens


def parse_inline(text: str, path: Path, line: int, problems: list[Problem]) -> tuple:
    """One line of inline Markdown (a container's title) → inline nodes."""
    where = Reading(path, line, problems)
    where.inline_line = line
    tokens: list = []
    parser().inline.parse(text, parser(), {"reading": where}, tokens)
    return Tree(where).inline(tokens)


# ── tokens → nodes ──────────────────────────────────────────────────────────────────────────────────────────────────
class Tree:
    """markdown-it's flat token stream as nested nodes, each at its file line."""

    def __init__(self, where: Reading):
        self.where = where

    def line(self, token) -> int:
        return self.where.first + token.map[0] if token.map else self.where.first

    def blocks(self, tokens: list) -> tuple:
        out, i = [], 0
        while i < len(tokens):
            node, i = self.block(tokens, i)
            if node is not None:
                out.append(node)
        return tuple(out)

    def _until_close(self, tokens: list, i: int) -> tuple[list, int]:
        """The tokens inside the opening token at i, and the index after its closing token."""
        depth, j = 1, i + 1
        while depth:
            depth += tokens[j].nesting
            j += 1
        return tokens[i + 1:j - 1], j

    def block(self, tokens: list, i: int):
        token = tokens[i]
        kind, line = token.type, self.line(token)
        if token.nesting == 1:
            inside, after = self._until_close(tokens, i)
            return self.opened(token, inside, line), after
        if kind == "fence":
            self.check_closed(token)
            text, info = _code(token.content), unescapeAll(token.info).strip()   # `\+`, `&ouml;` read (CommonMark)
            words = info.split()
            language = next((w for w in words if w != VALUES_FLAG), "")
            parts = self.values_in(text, line + 1) if VALUES_FLAG in words else ()
            return n.Code(line, language, text, True, parts), i + 1
        if kind == "code_block":
            return n.Code(line, "", _code(token.content), False), i + 1
        if kind == "html_block":
            self.check_html(token.content, line)
            return n.Html(line, void_end_tags(token.content.rstrip("\n"))), i + 1
        if kind == "hr":
            return n.Rule(line), i + 1
        if kind == "maths_block":
            return self.maths(token.content, line, True, token.meta["label"], True,
                              self.where.first + token.meta["label_line"]), i + 1
        if kind == "amsmath":
            return self.maths(token.content, line, True, None, True, line), i + 1
        if kind == "directive":
            return n.Directive(line, token.info, token.content, token.meta["args"]), i + 1
        if kind == "inline":
            return n.Paragraph(line, self.inline(token.children)), i + 1
        raise TypeError(f"no node for markdown-it block token {kind}")

    def opened(self, token, inside: list, line: int):
        kind = token.type.removesuffix("_open")
        attributes = token.meta.get("attributes", {}) if token.meta else {}
        if kind == "paragraph":
            return n.Paragraph(line, self._inline_of(inside), attributes.get("classes", ()))
        if kind == "heading":
            return n.Heading(line, int(token.tag[1]), self._inline_of(inside), attributes.get("id", ""),
                             attributes.get("classes", ()))
        if kind == "blockquote":
            return n.Quote(line, self.blocks(inside))
        if kind in ("bullet_list", "ordered_list"):
            items = self.blocks(inside)
            tight = not any(t.type == "paragraph_open" and not t.hidden for t in inside if t.level == token.level + 2)
            start = int(token.attrs.get("start", 1)) if kind == "ordered_list" else 1
            return n.List(line, kind == "ordered_list", start, tight, items)
        if kind == "list_item":
            return n.Item(line, self.blocks(inside))
        if kind == "table":
            rows = [t for t in inside if t.type == "tr_open"]
            aligns = tuple(_align(t) for t in inside if t.type == "th_open")
            return n.Table(line, aligns, tuple(self.row(inside, t) for t in rows))
        if kind == "container":
            title = token.meta["title"]
            shown = parse_inline(title, self.where.path, line, self.where.problems) if title else ()
            return n.Container(line, token.info, shown, title, self.blocks(inside))
        if kind in ("thead", "tbody"):
            return None
        raise TypeError(f"no node for markdown-it block token {token.type}")

    def row(self, tokens: list, opening) -> n.Row:
        start = tokens.index(opening)
        inside, _ = self._until_close(tokens, start)
        header = opening.level <= 2 and any(t.type == "th_open" for t in inside)
        cells, i = [], 0
        while i < len(inside):
            if inside[i].nesting == 1:
                content, i = self._until_close(inside, i)
                cells.append(n.Cell(self.line(opening), self._inline_of(content)))
            else:
                i += 1
        return n.Row(self.line(opening), header, tuple(cells))

    def _inline_of(self, tokens: list) -> tuple:
        return self.inline(tokens[0].children) if tokens and tokens[0].type == "inline" else ()

    # ── inline ──
    def inline(self, tokens: list) -> tuple:
        out, i = [], 0
        while i < len(tokens):
            node, i = self.inline_node(tokens, i)
            if node is None:
                continue
            if type(node) is n.Text and out and type(out[-1]) is n.Text:
                out[-1] = out[-1]._replace(text=out[-1].text + node.text)
            elif type(node) is n.Text and out and type(out[-1]) is n.CodeSpan and node.text.startswith(VALUES_FLAG):
                out[-1] = out[-1]._replace(parts=self.values_in(out[-1].text, out[-1].line))
                if node.text != VALUES_FLAG:
                    out.append(node._replace(text=node.text[len(VALUES_FLAG):]))
            else:
                out.append(node)
        return tuple(out)

    def inline_node(self, tokens: list, i: int):
        token = tokens[i]
        kind, line = token.type, token.map[0] if token.map else self.where.first
        if token.nesting == 1:
            inside, after = self._until_close(tokens, i)
            children = self.inline(inside)
            if kind == "link_open":
                return n.Link(line, str(token.attrs.get("href", "")), str(token.attrs.get("title", "")), children), after
            wrap = {"em_open": n.Emphasis, "strong_open": n.Strong, "s_open": n.Strike}[kind]
            return wrap(line, children), after
        simple = INLINE_TOKENS.get(kind)
        if simple is not None:
            return simple(self, token, line), i + 1
        raise TypeError(f"no node for markdown-it inline token {kind}")

    def check_closed(self, fence) -> None:
        """A code fence runs to the end of its text when nothing closes it (CommonMark): the author's mistake."""
        last = self.where.line_text(fence.map[1] - 1).lstrip("> \t")
        marker = fence.markup
        if fence.map[1] - 1 == fence.map[0] or not (last.startswith(marker) and not last.lstrip(marker[0]).strip()):
            self.where.problem(fence.map[0], msg("code block is never closed"), msg("a closing {marker}",
                                                                                  marker=marker))

    def values_in(self, text: str, line: int) -> tuple:
        """Code that asked for values: its text in pieces, each `{{ … }}` that names a value a Value."""
        return pieces(text, line, make_value, comments=False) or ("",)

    def maths(self, tex: str, line: int, display: bool, label: str | None, block: bool, label_line: int) -> n.Maths:
        return n.Maths(line, pieces(tex, line, make_value), display, label, block, label_line)

    def inline_maths(self, token, line: int) -> n.Maths:
        label_line = line + token.content.count("\n")
        return self.maths(token.content, line, token.meta["display"], token.meta["label"], False, label_line)

    def check_html(self, text: str, line: int) -> None:
        for found in _raw_blocked().finditer(text):
            what = f"`<{found.group('tag').lower()}>`" if found.group("tag") else \
                msg("attribute `{name}`", name=f"{found.group('attr').lower()}=")
            self.where.problems.append(Problem(self.where.path, line + text.count("\n", 0, found.start()),
                                               blocked_html(what),
                                               "Markdown, `![alt](file.png)` for images, or a widget"))

    def html_inline(self, token, line: int) -> n.InlineHtml:
        self.check_html(token.content, line)
        return n.InlineHtml(line, void_end_tags(token.content))


VOID_END = re.compile(r"</(br|area|base|col|embed|hr|img|input|link|meta|source|track|wbr)\s*>", re.I)


def void_end_tags(html: str) -> str:
    """`</br>` as the `<br>` a browser reads it as, any other end tag of an element that has none (`</img>`) left
    out, as a browser leaves it: the page's HTML stays valid (notebooks written for Jupyter have them)."""
    return VOID_END.sub(lambda m: "<br>" if m.group(1).lower() == "br" else "", html) if "</" in html else html


@functools.cache   # (compiled when a text has raw HTML)
def _raw_blocked() -> re.Pattern:
    """Raw HTML the page's Content-Security-Policy would block, or that would fetch something."""
    return re.compile(r"<(?P<tag>script|style|iframe|object|embed|link|img|video|audio|source)\b"
                      r"|<[a-zA-Z][^>]*?\s(?P<attr>style|on[a-z]+)\s*=", re.IGNORECASE)


def _code(text: str) -> str:
    return text[:-1] if text.endswith("\n") else text


def _align(token) -> str:
    style = str(token.attrs.get("style", ""))
    return style.removeprefix("text-align:") if style.startswith("text-align:") else ""


def _value(tree: Tree, token, line: int) -> n.Value:
    from ...support.expressions import split_spec

    expression, spec = split_spec(token.content)
    return n.Value(line, expression, spec, token.markup)


def _text(tree: Tree, token, line: int) -> n.Text | None:
    if "{#eq:" in token.content:
        tree.where.problems.append(Problem(tree.where.path, line, msg("an equation label `{#eq:…}` that follows no "
                                                                      "display equation"),
                                           msg("`$$ … $$ {#eq:NAME}`: the label right after the closing `$$`")))
    return n.Text(line, token.content) if token.content else None


INLINE_TOKENS = {
    "text": _text,
    "text_special": lambda tree, t, line: n.Text(line, t.content),
    "softbreak": lambda tree, t, line: n.SoftBreak(line),
    "hardbreak": lambda tree, t, line: n.HardBreak(line),
    "code_inline": lambda tree, t, line: n.CodeSpan(line, t.content),
    "html_inline": Tree.html_inline,
    "image": lambda tree, t, line: n.Image(line, str(t.attrs.get("src", "")), n.plain(tree.inline(t.children or [])),
                                          str(t.attrs.get("title", ""))),
    "maths_inline": Tree.inline_maths,
    "value": _value,
    "ref_fig": lambda tree, t, line: n.FigureRef(line, t.content),
    "ref_eq": lambda tree, t, line: n.EquationRef(line, t.content),
    "ref_lesson": lambda tree, t, line: n.LessonRef(line, t.content, t.meta["target"]),
    "citation": lambda tree, t, line: n.Citation(line, t.content, rules.citation_items(t.content)),
    "narrative": lambda tree, t, line: n.Narrative(line, t.content, t.meta["locator"]),
    "term": lambda tree, t, line: n.Term(line, t.content, t.meta["shown"]),
}
