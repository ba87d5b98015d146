"""lessonkit's own syntax as rules of the CommonMark parser (markdown-it-py), each reading its construct once:

    block    `::: kind title` … `:::` containers, nested with the same three colons (mdit-py-plugins' colon fence
             and container need a longer fence outside, and do not read the inside as Markdown: ours does);
             `{{< kind name args >}}` alone on a line; display maths on lines of its own, `$$ … $$` or `\\[ … \\]`,
             with `{#eq:NAME}` after it (an unclosed one is an error at its line: it ends at a blank line)
    inline   `{{ expression:spec }}`; `$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]` maths; `@fig:` `@eq:` `@lesson:`;
             `[@key; @key2, locator]` and `@key [locator]` citations; `[[term|shown]]`

A rule that finds a mistake reports it (parser.py `Reading.problem`) at its line and reads on, so every mistake of a
text is reported at once. Tokens carry what the tree's nodes need; parser.py turns them into nodes.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...support.messages import msg
from .maths import CLOSERS, LABEL_NAME, NAME, closing

if TYPE_CHECKING:
    from markdown_it.rules_block import StateBlock
    from markdown_it.rules_inline import StateInline

CONTAINER_OPEN = re.compile(r":::[ \t]*(?P<kind>[\w-]+)(?:[ \t]+(?P<title>.*?))?[ \t]*$")
CONTAINER_CLOSE = re.compile(r":::[ \t]*$")
CONTAINER_KINDS = ("note", "tip", "warning", "info", "cards", "card", "toggle", "state", "tabs", "tab", "notes")
DIRECTIVE = re.compile(r"\{\{<\s*(?P<kind>\w+)\s+(?P<name>[\w-]+)(?P<args>(?:\s+[^\s>]+)*)\s*>\}\}[ \t]*$")
FENCE = re.compile(r"(?P<marker>`{3,}|~{3,})(?P<info>.*)$")
LABEL = re.compile(r"[ \t]*\{#(?P<label>[^}\n]*)\}")
TERM = re.compile(r"\[\[(?P<name>[^\[\]|\n]*)(?:\|(?P<shown>[^\[\]\n]*))?\]\]")
# a key: a letter, digit or _, then those and inner punctuation (`@Boyd.Vandenberghe.2004。` ends at the 4)
KEY = r"[A-Za-z0-9_](?:[A-Za-z0-9_]|[:.#$%&+?~/-](?=[A-Za-z0-9_]))*"
CITATION = re.compile(r"\[(?P<body>@(?!fig:|lesson:|eq:)[^\[\]\n]*)\](?!\()")
CITATION_ITEM = re.compile(r"\s*@(?P<key>[^\s;,@\[\]{}]+)\s*(?:,\s*(?P<locator>[^;]*?))?\s*$")
NARRATIVE = re.compile(rf"@(?!fig:|lesson:|eq:)(?P<key>{KEY})(?: ?\[(?P<locator>[^\[\]@\n]+)\](?!\())?")
NOT_BEFORE_NARRATIVE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@.[\\")
REFERENCE = re.compile(r"@fig:(?P<fig>[\w-]*\w)|@eq:(?P<eq>" + NAME + r")"
                       r"|@lesson:(?P<slug>[a-z0-9][a-z0-9-]*[a-z0-9]|[a-z0-9])"
                       r"(?:#(?P<target>eq:" + NAME + r"|fig:[\w-]*\w|[A-Za-z][\w-]*\w|[A-Za-z]))?")


def reading(state) -> "object":
    return state.env["reading"]


# ── blocks ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def _line_text(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]]


def container(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """`::: kind title` … `:::`: the lines between read as Markdown, containers inside counted so that each `:::`
    closes the innermost one still open; code fences inside are code."""
    if state.is_code_block(start):
        return False
    opened = CONTAINER_OPEN.match(_line_text(state, start))
    if opened is None:
        return False
    if silent:
        return True
    kind, title = opened.group("kind"), opened.group("title") or ""
    where = reading(state)
    if kind not in CONTAINER_KINDS:
        where.problem(start, msg("unknown block kind `::: {kind}`", kind=kind),
                      msg("one of {items}", items=", ".join(CONTAINER_KINDS)))
    close = _container_end(state, start, end)
    if close is None:
        where.problem(start, msg("`::: {kind}` block is never closed", kind=kind), msg("a line with only `:::`"))
    last = end if close is None else close
    token = state.push("container_open", "div", 1)
    token.info, token.meta, token.map, token.block = kind, {"title": title}, [start, last], True
    parent, line_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = "container", last
    state.md.block.tokenize(state, start + 1, last)
    state.parentType, state.lineMax = parent, line_max
    state.push("container_close", "div", -1).block = True
    state.line = last if close is None else close + 1
    return True


def _container_end(state: StateBlock, start: int, end: int) -> int | None:
    """The line of the `:::` that closes the container opened at `start`, or None."""
    depth, fence = 1, None
    for line in range(start + 1, end):
        if state.sCount[line] < state.blkIndent and state.bMarks[line] + state.tShift[line] < state.eMarks[line]:
            return None  # the text it stands in (a list item, a quote) ended first
        if state.sCount[line] - state.blkIndent >= 4:
            continue
        text = _line_text(state, line)
        if fence is not None:
            if text.startswith(fence) and not text.lstrip(fence[0]).strip():
                fence = None
            continue
        opened = FENCE.match(text)
        if opened and not (opened.group("marker")[0] == "`" and "`" in opened.group("info")):
            fence = opened.group("marker")
        elif CONTAINER_CLOSE.match(text):
            depth -= 1
            if depth == 0:
                return line
        elif CONTAINER_OPEN.match(text):
            depth += 1
    return None


def directive(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """`{{< kind name args >}}` alone on a line (a line that starts so and cannot be read is a mistake)."""
    if state.is_code_block(start):
        return False
    text = _line_text(state, start)
    if not text.startswith("{{<"):
        return False
    found = DIRECTIVE.match(text)
    if silent:
        return found is not None
    if found is None:
        reading(state).problem(start, msg("cannot read directive `{text}`", text=text.strip()),
                               msg("`{{< figure NAME >}}` or `{{< widget NAME >}}` alone on a line"))
    else:
        token = state.push("directive", "", 0)
        token.info, token.content = found.group("kind"), found.group("name")
        token.meta, token.map = {"args": tuple(found.group("args").split())}, [start, start + 1]
    state.line = start + 1
    return True


def display_maths(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Display maths on lines of its own: `$$` or `\\[` at a line's start, to its closing `$$` or `\\]` (maybe on the
    same line, maybe after blank lines, as Jupyter's MathJax reads them), then nothing but an optional
    `{#eq:NAME}`. A formula never closed is an error at its first line; one that text follows on its closing line
    is inline maths, in its paragraph."""
    if state.is_code_block(start):
        return False
    text = _line_text(state, start)
    opener = "$$" if text.startswith("$$") else "\\[" if text.startswith("\\[") else None
    if opener is None:
        return False
    source, shut = _to_closing(state, start, end, opener)
    if shut is None:
        if not silent:
            reading(state).problem(start, msg("display maths `{opener}` is never closed", opener=opener),
                                   msg("a closing `{closer}`", closer=CLOSERS[opener]))
        return False
    end_of_line = source.find("\n", shut)
    after = source[shut + 2:] if end_of_line < 0 else source[shut + 2:end_of_line]
    label = LABEL.match(after)
    rest = after[label.end():] if label else after
    if rest.strip():
        return False  # text follows on its line: the formula is inline, in that paragraph
    if silent:
        return True
    token = state.push("maths_block", "", 0)
    token.content, token.markup = source[:shut], opener
    end_line = start + source.count("\n", 0, shut)
    token.meta = {"label": label.group("label") if label else None, "label_line": end_line}
    token.map = [start, end_line + 1]
    state.line = end_line + 1
    return True


def _to_closing(state: StateBlock, start: int, end: int, opener: str) -> tuple[str, int | None]:
    """The text after `opener` up to the line holding its closing delimiter (each line as the block's indent leaves
    it), and the closing delimiter's offset in it (None: never closed)."""
    lines = [_line_text(state, start)[len(opener):]]
    for line in range(start, end):
        if line > start:
            lines.append(state.getLines(line, line + 1, state.blkIndent, False))
        source = "\n".join(lines)
        shut = closing(source, opener)
        if shut is not None:
            return source, shut
    return "\n".join(lines), None


# ── inline ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def value(state: StateInline, silent: bool) -> bool:
    """`{{ expression:spec }}` on one line (`{{<` inside a paragraph is a directive that is not alone on its line)."""
    src, pos = state.src, state.pos
    if not src.startswith("{{", pos):
        return False
    if src.startswith("{{<", pos):
        if not silent:
            end = src.find(">}}", pos)
            shown = src[pos:end + 3] if end >= 0 and "\n" not in src[pos:end] else src[pos:pos + 3] + "…"
            reading(state).problem_inline(state, msg("cannot read directive `{text}`", text=shown),
                                          msg("`{{< figure NAME >}}` or `{{< widget NAME >}}` alone on a line"))
        return False
    end = src.find("}}", pos + 2)
    newline = src.find("\n", pos + 2)
    if end < 0 or 0 <= newline < end or not src[pos + 2:end].strip():
        if not silent:
            reading(state).problem_inline(state, msg("cannot read value reference `{{`…"),
                                          msg("`{{ name }}`, `{{ name:spec }}` or `{{ expression:spec }}` "
                                              "starting with a name, on one line"))
        return False
    if not silent:
        token = state.push("value", "", 0)
        token.content = src[pos + 2:end]
        token.markup = src[pos:end + 2]
    state.pos = end + 2
    return True


def maths(state: StateInline, silent: bool) -> bool:
    """Inline maths `$…$` (on one line), and display maths inside a paragraph: `$$…$$` (a label may follow);
    `\\(…\\)` and `\\[…\\]`, the delimiters Jupyter and MathJax authors write."""
    src, pos = state.src, state.pos
    if src.startswith("$$", pos):
        opener = "$$"
    elif src.startswith("$", pos):
        opener = "$"
    elif src.startswith("\\(", pos) or src.startswith("\\[", pos):
        opener = src[pos:pos + 2]
    else:
        return False
    body = src[pos + len(opener):]
    shut = closing(body, opener)
    if shut is None or not body[:shut].strip():
        return False
    if opener == "$" and "\n" in body[:shut]:
        return False
    after = pos + len(opener) + shut + len(CLOSERS[opener])
    display = opener in ("$$", "\\[")
    label = LABEL.match(src, after) if display else None
    if not silent:
        token = state.push("maths_inline", "", 0)
        token.content, token.markup = body[:shut], opener
        token.meta = {"display": display, "label": label.group("label") if label else None}
    state.pos = label.end() if label else after
    return True


def reference(state: StateInline, silent: bool) -> bool:
    """`@fig:NAME`, `@eq:NAME`, `@lesson:SLUG#target`, and a narrative citation `@key [locator]` (not right after a
    Latin letter or digit: an e-mail address)."""
    src, pos = state.src, state.pos
    if src[pos] != "@":
        return False
    found = REFERENCE.match(src, pos)
    if found is not None:
        if not silent:
            kind = "fig" if found.group("fig") else "eq" if found.group("eq") else "lesson"
            token = state.push(f"ref_{kind}", "", 0)
            token.content = found.group("fig") or found.group("eq") or found.group("slug")
            token.meta = {"target": found.group("target")}
        state.pos = found.end()
        return True
    if pos > 0 and src[pos - 1] in NOT_BEFORE_NARRATIVE:
        return False
    found = NARRATIVE.match(src, pos)
    if found is None:
        return False
    if not silent:
        token = state.push("narrative", "", 0)
        token.content, token.meta = found.group("key"), {"locator": found.group("locator")}
    state.pos = found.end()
    return True


def bracketed(state: StateInline, silent: bool) -> bool:
    """`[@key]`, `[@a; @b, locator]` citations and `[[term]]` / `[[term|shown]]` glossary marks (before links)."""
    src, pos = state.src, state.pos
    if src[pos] != "[":
        return False
    term = TERM.match(src, pos)
    if term is not None:
        if not silent:
            token = state.push("term", "", 0)
            token.content, token.meta = term.group("name"), {"shown": term.group("shown")}
        state.pos = term.end()
        return True
    cited = CITATION.match(src, pos)
    if cited is None:
        return False
    if not silent:
        token = state.push("citation", "", 0)
        token.content = cited.group("body")
    state.pos = cited.end()
    return True


def citation_items(body: str) -> tuple[tuple[str, str], ...]:
    """The (key, locator) pairs of a citation's body, () when one part cannot be read."""
    items = [CITATION_ITEM.match(part) for part in body.split(";")]
    if not body.strip() or not all(items):
        return ()
    return tuple((item.group("key"), item.group("locator") or "") for item in items)
