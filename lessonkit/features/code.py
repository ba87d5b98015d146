"""Code a student reads: `{{< code NAME >}}` shows the source of lesson.py's function NAME — the code that ran, so it
cannot drift from it — followed by what it computed (`output=false`: the source alone); `{{< code f f_grad >}}`
shows several functions in one listing (the output is the last one's, if it has one). In a lesson.py written as
cells (compute/cells.py), `{{< code CELL >}}` shows a cell as Jupyter does: its source, then what it printed and its
last line's value, or the figure it drew; the cell's `echo=false` / `output=false` (or the same words after the
name) hide either. Code blocks in Markdown are highlighted too. Highlighting is Pygments' lexers at build time,
written as class names (`<span class="k">`): the theme's `code` component (components/code/widget.css) colours them,
once per page that shows code, in light and dark; no JavaScript, no style attributes.

    place    code_context(…): what a listing shows, from the names and options the directive gives
             (load/plan.py code_request); listing(code_path, name) and
             joined(listings): a function's lines (its `def` to its end, decorators left out: they say how the
             engine finds it, not what it computes), several in one; cell_listing(code_path, cell) and
             cell_output(cells, name): a cell's lines and what it showed; output_text(value): a value as the page
             writes numbers (support.numbers), laid out like Python prints it.
    render   Highlighter.html(code, language): the highlighted HTML, remembered by (language, code) in the build's
             cache (the store's HIGHLIGHTS, by Pygments' version), so a warm build never imports Pygments.
"""
from __future__ import annotations

import ast
import hashlib
import html
import re
from pathlib import Path
from typing import Any, Callable

from ..load.plan import CodeRequest, code_request
from ..support import pysource
from ..support.errors import Miss
from ..support.messages import msg
from ..support.records import Record
from ..support.suggest import did_you_mean

KIND = "code"                 # the component every highlighted block mounts (its CSS)
OUTPUT_LIMIT = 1500           # characters of a value's output shown; the rest is cut, and the page says so


class Listing(Record):
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


def joined(found: list[Listing]) -> Listing:
    """Several functions in one listing, in the order asked, a blank line between them; its lines from the first's
    first to the last one's last."""
    return Listing(", ".join(f.name for f in found), min(f.first for f in found), max(f.last for f in found),
                   "\n\n\n".join(f.text for f in found))


def cell_listing(code_path: Path, cell) -> Listing:
    """A cell's code as lesson.py has it: the lines after its `# %%` header, blank lines at either end left out."""
    lines = cell.body.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    last = max((i for i, line in enumerate(lines) if line.strip()), default=first)
    return Listing(cell.name, cell.first + first, cell.first + last, "\n".join(lines[first:last + 1]))


def cell_output(printed: str, result: str | None) -> tuple[str | None, bool]:
    """(text, cut) of what a cell showed, as Jupyter shows it: what it printed, then its last line's value; None
    when it showed nothing."""
    text = printed.rstrip("\n") + ("\n" if printed.strip() and result is not None else "") + (result or "")
    if not text.strip():
        return None, False
    if len(text) > OUTPUT_LIMIT:
        return text[:OUTPUT_LIMIT].rstrip() + " …", True
    return text, False


# ── what a listing shows ────────────────────────────────────────────────────────────────────────────────────────────
def code_context(name: str, args: tuple[str, ...], lesson, highlight: Callable[[str], str],
                 place: Callable[[str, str], "str | Miss"], shown: set[str]) -> dict[str, Any] | Miss:
    """The context partials/code.html shows for `{{< code NAME … >}}` in `lesson` (compute/run.py
    ComputedLesson), or a Miss. `highlight(code)`: its HTML; `place(kind, name)`: a figure or widget placed right
    here; `shown`: the names shown so far on the page (each once)."""
    asked = code_request(name, args)
    if asked.unread:
        return Miss(msg("cannot read `{args}` in `{{< code {name} >}}`", args=" ".join(asked.unread), name=name),
                    msg("the names of functions (or of a cell), then `output=false` or `echo=false`"))
    code_path = lesson.source.code_path
    if code_path is None:
        return Miss(msg("code `{name}` but the lesson has no lesson.py", name=name), "a function defined in lesson.py")
    cells = lesson.cells
    if cells is not None and cells.cell(name) is not None:
        return _cell_context(cells, code_path, asked, highlight, place, shown,
                             lesson.source.plan.figure_functions)
    found = [listing(code_path, n) for n in asked.names]
    missing = next((n for n, f in zip(asked.names, found) if f is None), None)
    if missing is not None:
        known = functions(code_path) + (cells.named if cells is not None else [])
        return Miss(msg("unknown function `{name}` in lesson.py{hint}", name=missing,
                        hint=did_you_mean(missing, known)),
                    msg("a function defined in lesson.py: {names}", names=", ".join(known) or msg("none")))
    twice = next((n for n in asked.names if n in shown), None)
    if twice is not None:
        return Miss(msg("code `{name}` is shown twice", name=twice), "each function's code shown once")
    shown.update(asked.names)
    context = _context(joined(found), highlight, asked.options.get("echo", True))
    last = asked.names[-1]
    if not asked.options.get("output", True):
        return context
    registry = lesson.registry
    figure = next((f.name for f in registry.figures.values() if f.code_name == last), None)
    if figure and lesson.source.plan.figure_functions.get(last) != figure:  # numbered from the source
        return Miss(msg("`{{< code {name} >}}` shows figure `{figure}`, but lesson.py does not declare it with "
                        "`@lesson.figure(…)` above `def {name}`", name=last, figure=figure),
                    msg("`@lesson.figure(caption=…, alt=…)` directly above the function, a `name=` in it written "
                        "in quotes (figure numbers are read from lesson.py before it runs), or "
                        "`{{< figure {figure} >}}` to place the figure alone", figure=figure))
    if last in registry.values:
        if last in lesson.values:  # else computing it failed, which is reported
            context["output"], context["cut"] = output_text(lesson.values[last])
    elif figure or last in registry.widgets:
        placed = place("figure", figure) if figure else place("widget", last)
        if isinstance(placed, Miss):
            return placed
        context["output_html"] = placed
    elif len(asked.names) == 1:
        return Miss(msg("`{name}` is not a value, figure or widget of the lesson: it has no output to show",
                        name=name), msg("`{{< code {name} output=false >}}` to show its source alone", name=name))
    return context


def _cell_context(cells, code_path: Path, asked: CodeRequest, highlight, place, shown: set[str],
                  lesson_figures: dict[str, str]) -> dict[str, Any] | Miss:
    """A cell as Jupyter shows it: its source (unless echo=false), then its output (unless output=false) — what it
    printed and its last line's value, or the figure it drew."""
    name = asked.names[0]
    if len(asked.names) > 1:
        return Miss(msg("`{name}` is a cell: a listing shows one cell, or functions", name=name),
                    msg("`{{< code {name} >}}` on a line of its own", name=name))
    if name in shown:
        return Miss(msg("code `{name}` is shown twice", name=name), "each function's code shown once")
    shown.add(name)
    cell = cells.cell(name)
    context = _context(cell_listing(code_path, cell), highlight,
                       asked.options.get("echo", cell.option("echo", True)))
    if not asked.options.get("output", cell.option("output", True)):
        return context
    if cell.kind == "figure":
        if lesson_figures.get(name) != name:  # its header says output=false: the page numbers it elsewhere
            return Miss(msg("`{{< code {name} >}}` shows figure cell `{name}`, whose header says `output=false`",
                            name=name),
                        msg("`output=true` in its header, or `{{< figure {name} >}}` to place the figure",
                            name=name))
        placed = place("figure", name)
        if isinstance(placed, Miss):
            return placed
        context["output_html"] = placed   # after what it printed, as Jupyter shows a cell's stream before its figure
        context["output"], context["cut"] = cell_output(cells.printed.get(name, ""), None)
    else:
        result = cells.results.get(name)
        table = result if result is not None and not isinstance(result, str) else None   # (compute/cellrun.py
        context["output"], context["cut"] = cell_output(cells.printed.get(name, ""),       # ResultTable)
                                                        None if table is not None else result)
        context["table"] = table
    return context


def _context(shown: Listing, highlight: Callable[[str], str], echo: bool) -> dict[str, Any]:
    return {"id": f"code-{shown.name.split(',')[0]}", "name": shown.name, "first": shown.first, "last": shown.last,
            "html": (highlight(shown.text) or plain(shown.text)) if echo else "", "output": None,
            "output_html": "", "cut": False, "limit": OUTPUT_LIMIT, "table": None}


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
    Pygments does not know, shown as plain text) and comes from, and goes back to, the build's cache (under
    memo_key(coloured): the HTML depends on which classes the theme colours)."""

    def __init__(self, memo: dict[str, str | None] | None = None, coloured: frozenset[str] | None = None):
        self.memo = {} if memo is None else memo
        self.coloured = coloured
        self.added = False

    def html(self, code: str, language: str) -> str | None:
        """The code's HTML, each coloured token a class Pygments names; None when the language is unknown."""
        key = f"{language}\0{code}"
        if key not in self.memo:
            self.memo[key] = highlight(code, language, self.coloured)
            self.added = True
        return self.memo[key]


def coloured_classes(css: str) -> frozenset[str]:
    """The token classes a theme's code stylesheet styles (`.highlight .k`, `.highlight .nf` …): the theme says
    which tokens a reader sees apart, and only those need a span."""
    return frozenset(re.findall(r"\.highlight\s+\.([\w-]+)", css))


def memo_key(version: str, coloured: frozenset[str] | None) -> str:
    """The store's key of the highlighted HTML: Pygments' version and the theme's coloured classes."""
    if coloured is None:
        return version
    return f"{version}-{hashlib.sha256(' '.join(sorted(coloured)).encode()).hexdigest()[:12]}"


def highlight(code: str, language: str, coloured: frozenset[str] | None = None) -> str | None:
    """Tokens as `<span class="k">…</span>` (Pygments' short class names); whitespace, plain text and — given
    `coloured` — every token of a class the theme does not colour bare, a run of tokens of one class one span: a
    fifth of the bytes of Pygments' own HTML formatter (names, operators and punctuation are most of a listing's
    tokens, and a theme leaves them the text's colour)."""
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
        if coloured is not None and css not in coloured:
            css = ""
        if css != current:
            flush()
            current = css
        run.append(value)
    flush()
    return re.sub(r"\n$", "", "".join(out))


def plain(code: str) -> str:
    return html.escape(code, quote=False)


def place(page, name: str, args: tuple[str, ...], at=None, copy: str = "") -> str | Miss:
    """`{{< code NAME … >}}` on the page (features/placing.py Page): the source of lesson.py's function NAME (or of
    several, or of a cell), then what it computed — a value as the page writes it, what a cell printed, the figure
    or the widget placed right here. `copy` names a second copy (a challenge answer's listing printed again with
    the answers), whose ids differ and which counts as no second showing."""
    context = code_context(name, args, page.lesson,
                           lambda text: page.ctx.converters.highlighter.html(text, "python"),
                           lambda kind, shown: page.place(kind, shown, (), **({"copy": copy} if copy else {})),
                           set() if copy else page.ledger.code)
    if isinstance(context, Miss):
        return context
    if copy:
        context["id"] = f"{context['id']}-{copy}"
    return page.template("partials/code.html", code=context)
