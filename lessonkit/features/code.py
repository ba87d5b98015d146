"""Code a student reads: `{{< code NAME >}}` shows the source of lesson.py's function NAME — the code that ran, so
it cannot drift from it — followed by what it computed (`output=false`: the source alone); code blocks in Markdown
are highlighted too. Highlighting is Pygments' lexers at build time, written as class names (`<span class="k">`):
the theme's `code` component (components/code/widget.css) colours them, once per page that shows code, in light
and dark; no JavaScript, no style attributes.

    place    listing(code_path, name): the function's lines (its `def` to its end, decorators left out: they say
             how the engine finds it, not what it computes); output_text(value): a value as the page writes numbers
             (support.numbers), laid out like Python prints it.
    render   Highlighter.html(code, language): the highlighted HTML, remembered by (language, code) in the build's
             cache (the store's HIGHLIGHTS, by Pygments' version), so a warm build never imports Pygments.
"""
from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..support import pysource

KIND = "code"                 # the component every highlighted block mounts (its CSS)
OUTPUT_LIMIT = 1500           # characters of a value's output shown; the rest is cut, and the page says so


@dataclass(frozen=True)
class Listing:
    name: str
    first: int                # lesson.py's line of `def NAME`
    last: int
    text: str


def listing(code_path: Path, name: str) -> Listing | None:
    """The module-level function (or class) NAME of lesson.py, from its `def` line to its last line."""
    source = code_path.read_text(encoding="utf-8")
    for node in pysource.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            lines = source.splitlines()[node.lineno - 1:node.end_lineno]
            return Listing(name, node.lineno, node.end_lineno, "\n".join(lines))
    return None


def functions(code_path: Path) -> list[str]:
    """Every module-level function and class of lesson.py, for «did you mean»."""
    tree = pysource.parse(code_path.read_text(encoding="utf-8"))
    return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def output_text(value: Any) -> tuple[str, bool]:
    """(text, cut): a value as Python would print it, numbers as the page writes them (3 significant figures, a
    real minus), cut after OUTPUT_LIMIT characters."""
    text = _shown(value, 0)
    if len(text) > OUTPUT_LIMIT:
        return text[:OUTPUT_LIMIT].rstrip() + " …", True
    return text, False


def _shown(value: Any, indent: int) -> str:
    if hasattr(value, "tolist") and hasattr(value, "ndim"):  # numpy: an array row by row, a scalar as a number
        value = value.tolist()
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        items = [f"{_key(k)}: {_shown(v, indent + 1)}" for k, v in value.items()]
        return _bracketed("{", items, "}", indent)
    if isinstance(value, (list, tuple)):
        items = [_shown(v, indent + 1) for v in value]
        opening, closing = ("(", ")") if isinstance(value, tuple) else ("[", "]")
        return _bracketed(opening, items, closing, indent)
    from ..support.numbers import FormatError, format_value  # (numpy: only when a page shows an output)

    try:
        return format_value(value)
    except FormatError:
        return repr(value)


def _key(key: Any) -> str:
    return repr(key) if isinstance(key, str) else _shown(key, 0)


def _bracketed(opening: str, items: list[str], closing: str, indent: int) -> str:
    """On one line when it is short and flat, else one item a line (nested lists of rows: a matrix's rows)."""
    one_line = opening + ", ".join(items) + closing
    if len(one_line) <= 72 and "\n" not in one_line:
        return one_line
    pad = " " * (indent + 1)
    return opening + (",\n" + pad).join(i.replace("\n", "\n") for i in items) + closing


# ── highlighting ────────────────────────────────────────────────────────────────────────────────────────────────────
class Highlighter:
    """Pygments at build time, its results remembered: `memo` maps "language NUL code" to HTML (None: a language
    Pygments does not know, shown as plain text) and comes from, and goes back to, the build's cache."""

    def __init__(self, memo: dict[str, str | None] | None = None):
        self.memo = {} if memo is None else memo
        self.added = False

    def html(self, code: str, language: str) -> str | None:
        """The code's HTML, each token a class Pygments names; None when the language is unknown."""
        key = f"{language}\0{code}"
        if key not in self.memo:
            self.memo[key] = highlight(code, language)
            self.added = True
        return self.memo[key]


def highlight(code: str, language: str) -> str | None:
    """Tokens as `<span class="k">…</span>` (Pygments' short class names); whitespace and plain text bare, a run of
    tokens of one class one span: a third of the bytes of Pygments' own HTML formatter, the same classes."""
    from pygments.lexers import get_lexer_by_name
    from pygments.token import STANDARD_TYPES, Text, Whitespace
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None
    out: list[str] = []
    current, run = None, []

    def flush() -> None:
        if run:
            text = html.escape("".join(run), quote=False)
            out.append(f'<span class="{current}">{text}</span>' if current else text)
            run.clear()
    for token, value in lexer.get_tokens(code):
        while token not in STANDARD_TYPES:
            token = token.parent
        css = "" if token in (Text, Whitespace) or value.isspace() else STANDARD_TYPES[token]
        if css != current:
            flush()
            current = css
        run.append(value)
    flush()
    return re.sub(r"\n$", "", "".join(out))


def plain(code: str) -> str:
    return html.escape(code, quote=False)
