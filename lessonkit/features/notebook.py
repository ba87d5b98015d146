"""A notebook to take home: each lesson page links `<slug>.ipynb` (SitePaths.notebook), which runs top to bottom
with numpy and matplotlib alone — no lessonkit — and recomputes every value and figure of the lesson; its prose is
the lesson's, as Markdown cells (render/notebook.py writes them: values formatted as on the page, figures drawn
where the page places them, the same figure and citation numbers).

    setup    setup_cell(…): support/numbers.py (format_value: the page's rule for numbers, so figure labels come out
             the same), this feature's stand-in for lessonkit (features/notebook_standin.py), the engine's `plt` for
             figure functions (draw/figures.py FigureMaker) and the figures' style, as the source of one cell.
    code     code_cells(lesson.py, values): lesson.py in cells — each function its own, the statements between them
             together, `from lessonkit import …` left out (the setup provides those names) — each value shown
             (`lesson.get(NAME)`) in the cell after which everything it needs is defined. A lesson.py written as
             cells keeps the author's own: author_cell(cell), each where the page first shows it.
    write    notebook_text(cells): nbformat 4.5 JSON laid out as nbformat writes it, without importing it (the
             tests validate it with nbformat; cell ids numbered so the same lesson gives the same bytes); the caller
             keeps it in the build's cache under notebook_key(its inputs) (the store's NOTEBOOKS), and the parts a
             lesson's text cannot change under setup_key, code_cells_key, inline_key (NOTEBOOK_PARTS): edit a
             paragraph and only that paragraph is converted again.
"""
from __future__ import annotations

import ast
import base64
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from .. import __all__ as PUBLIC  # what lesson.py may import from lessonkit, and the setup cell defines
from ..support import pysource
from ..support.records import Record

FORMAT = "notebook-1"
SKIPPED_FILES = ("lesson.md", "lesson.yaml", "lesson.py", "references.bib")   # the lesson's text, not its data
SKIPPED_FOLDERS = ("widgets", "__pycache__")


class Cell(Record):
    kind: str                     # "markdown" | "code"
    source: str
    hidden: bool = False          # a code cell whose source JupyterLab shows folded (the setup)
    attachments: tuple[tuple[str, str, str], ...] = ()   # (name, mime type, base64) of a Markdown cell's images


def setup_cell(head: str, files: dict[str, bytes]) -> Cell:
    """The first code cell: what lesson.py imports from lessonkit, without lessonkit (`head`: setup_code), then the
    lesson's data files, written beside the notebook unless there already (its code reads them there)."""
    parts = [head]
    if files:
        encoded = {name: base64.b64encode(data).decode("ascii") for name, data in sorted(files.items())}
        parts.append(f"LESSON_FILES.update({json.dumps(encoded, indent=1)})\nunpack_lesson_files()")
    return Cell("code", "\n\n\n".join(p.strip("\n") for p in parts), hidden=True)


def setup_code(numbers_source: str, standin_source: str, figure_maker: str, rc: dict[str, Any],
               fonts: tuple[str, ...], font_missing: str) -> str:
    """The setup cell's code but the data files: the engine's stand-ins and the figures' style, the same for every
    lesson (the caller keeps it in the build's cache under setup_key)."""
    parts = ["import matplotlib.pyplot as plt  # noqa: F401", "from cycler import cycler",
             _standalone(numbers_source), _standalone(standin_source), figure_maker,
             f"use_figure_style({_rc_literal(rc)}, {fonts!r}, {font_missing!r})"]
    return "\n\n\n".join(p.strip("\n") for p in parts)


def _standalone(source: str) -> str:
    """An engine module's source as notebook code: no `from __future__`, and the engine's messages (English
    templates filled in) instead of `from .messages import msg`."""
    source = re.sub(r"^from __future__ import [^\n]*\n", "", source, flags=re.M)
    return re.sub(r"^from \.messages import msg\n", "def msg(template, **params):\n"
                  "    return template.format(**params)\n", source, flags=re.M)


def _rc_literal(rc: dict[str, Any]) -> str:
    """The rcParams as Python source; a property cycle as `cycler(color=[…])`."""
    items = []
    for key, value in rc.items():
        if hasattr(value, "by_key"):
            value_text = "cycler(" + ", ".join(f"{k}={v!r}" for k, v in value.by_key().items()) + ")"
        else:
            value_text = repr(value)
        items.append(f"{key!r}: {value_text}")
    return "{" + ", ".join(items) + "}"


def data_files(folder: Path) -> dict[str, bytes]:
    """The lesson folder's data files (what `lesson.read_text()` and `lesson.path()` may read)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and rel.parts[0] not in SKIPPED_FOLDERS and "__pycache__" not in rel.parts \
                and rel.as_posix() not in SKIPPED_FILES and not rel.name.startswith(".") and path.suffix != ".pyc":
            found[rel.as_posix()] = path.read_bytes()
    return found


# ── lesson.py in cells ──────────────────────────────────────────────────────────────────────────────────────────────
def code_cells(source: str, values: dict[str, tuple[str, ...]]) -> list[Cell]:
    """lesson.py as cells, in its own order. `values`: each value function's name → the values it takes; a value
    is shown at the end of the first cell after which it and everything it needs are defined (the cell that
    defines it, unless it needs a value defined further down)."""
    tree = pysource.parse(source)
    lines = source.splitlines()
    chunks: list[tuple[list[str], set[str]]] = []   # (lines, the value functions defined)
    previous_end, loose = 0, False
    for node in tree.body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        text = lines[previous_end:start - 1] + _statement(node, lines[start - 1:node.end_lineno])
        previous_end = node.end_lineno
        is_def = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        defined = {node.name} & set(values) if is_def else set()
        if not is_def and loose and chunks:   # statements between functions: one cell
            chunks[-1][0].extend(text)
        else:
            chunks.append((text, defined))
        loose = not is_def
    if chunks and previous_end < len(lines):
        chunks[-1][0].extend(lines[previous_end:])
    registered: set[str] = set()
    shown: set[str] = set()
    cells = []
    for text, defined in chunks:
        registered |= defined
        ready = [name for name in values if name not in shown and _ready(name, values, registered)]
        ready.sort(key=lambda name: name in defined)      # the cell's own value last: Jupyter shows the last line
        shown.update(ready)
        body = "\n".join(text).strip("\n")
        if ready:
            body += "\n" + "\n".join(f"lesson.get({name!r})" for name in ready)
        if body.strip():
            cells.append(Cell("code", body))
    return cells


def _ready(name: str, values: dict[str, tuple[str, ...]], registered: set[str], seen: frozenset = frozenset()) -> bool:
    if name not in registered or name in seen:
        return False
    return all(_ready(dep, values, registered, seen | {name}) for dep in values[name])


def _statement(node: ast.stmt, lines: list[str]) -> list[str]:
    """The statement's lines; `from lessonkit import …` becomes what stands for it (the setup defines the names)."""
    if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "lessonkit":
        return [f"{a.asname} = {a.name}" for a in node.names if a.asname]
    if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "lessonkit" for a in node.names):
        names = ", ".join(f"{n}={n}" for n in PUBLIC)
        return [f"{a.asname or a.name} = __import__('types').SimpleNamespace({names})" for a in node.names
                if a.name.split(".")[0] == "lessonkit"]
    return lines


def author_cell(cell) -> Cell:
    """A cell of a lesson.py written as cells (compute/cells.py) as the notebook's own: a Markdown cell as it is, a
    code cell as it is but for `from lessonkit import …` (the setup provides those names), its source folded in
    JupyterLab when its header says `echo=false`."""
    if cell.kind == "markdown":
        return Cell("markdown", cell.body)
    lines = cell.body.splitlines()
    try:
        tree = pysource.parse(cell.body)
    except SyntaxError:
        return Cell("code", cell.body.strip("\n"))
    for node in reversed(tree.body):  # from the end, so the lines before keep their numbers
        lines[node.lineno - 1:node.end_lineno] = _statement(node, lines[node.lineno - 1:node.end_lineno])
    return Cell("code", "\n".join(lines).strip("\n"), hidden=cell.option("echo", True) is False)


# ── the cache ───────────────────────────────────────────────────────────────────────────────────────────────────────
def setup_key(font_missing: str) -> str:
    """The key of setup_code in the build's cache: it is made of lessonkit's own modules (support/numbers.py, the
    stand-in, draw/figures.py's FigureMaker and figure style), the words of the missing-font warning, and cycler's
    version (the style's colour cycle is written through it)."""
    from ..support.cachekeys import package_version

    return _key("setup", font_missing, package_version("cycler"))


def code_cells_key(source: str, values: dict[str, tuple[str, ...]]) -> str:
    """The key of code_cells(source, values) in the build's cache: lesson.py's text (its comments and layout too:
    the cells show them), the value functions and their parameters in their order, Python (its parser) and the
    engine's code."""
    return _key("code cells", sys.version, source, [[name, list(params)] for name, params in values.items()])


def made_of_key(notebook: str) -> str:
    """The key of the list of parts the notebook kept under the key `notebook` was made with."""
    return _key("made of", notebook)


def _key(purpose: str, *inputs: str | list) -> str:
    from ..support.cachekeys import engine_source_digest

    h = hashlib.sha256(f"{FORMAT}\0{purpose}\0".encode())
    h.update(engine_source_digest().encode())
    h.update(json.dumps(inputs, ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


# ── the file ────────────────────────────────────────────────────────────────────────────────────────────────────────
def notebook_key(*inputs: Any) -> str:
    """The key of a lesson's notebook in the build's cache: a hash over everything it is made from (the caller
    names them: the lesson's files, the texts and words it shows …) and the engine's code."""
    from ..support.cachekeys import engine_source_digest

    h = hashlib.sha256(f"{FORMAT}\0".encode())
    h.update(engine_source_digest().encode())
    h.update(json.dumps(inputs, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8"))
    return h.hexdigest()


def notebook_text(cells: list[Cell], language: str) -> str:
    """The .ipynb text (nbformat 4), validated; cell ids numbered, so the same cells give the same bytes."""
    return _write(cells, language)


def _write(cells: list[Cell], language: str) -> str:
    """nbformat 4.5 JSON as nbformat.writes lays it out (tests check it validates and reads back to the same bytes):
    written here, since importing nbformat (and its JSON-schema validator) costs a build 0.1 s."""
    made = []
    for i, cell in enumerate(cells, start=1):
        base = {"id": f"cell-{i}", "source": _lines(cell.source)}
        if cell.kind == "markdown":
            made.append({"cell_type": "markdown", "metadata": {}, **base})
            if cell.attachments:
                made[-1]["attachments"] = {name: {mime: data} for name, mime, data in cell.attachments}
        else:
            made.append({"cell_type": "code", "execution_count": None, "outputs": [],
                         "metadata": {"jupyter": {"source_hidden": True}} if cell.hidden else {}, **base})
    notebook = {"cells": made, "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}, "lessonkit": {"language": language}},
        "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _lines(text: str) -> list[str]:
    """A cell's source as nbformat stores it: its lines, each with its line break."""
    return text.splitlines(keepends=True)
