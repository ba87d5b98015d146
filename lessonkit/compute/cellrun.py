"""A lesson.py written as cells (compute/cells.py), run at build time: the compute stage's reader of such a file.

Every cell runs once, in order, in one namespace (a module of the lesson's own, as an imported lesson.py has), with
what it printed kept — and the value of its last line, as Jupyter shows it. The decorator API works in the same
file: a `lesson = Lesson()` made by a cell is the lesson's registry, and its functions read the namespace (as
globals, or by naming a plain value as a parameter).

A figure cell runs in its turn too, so what it binds is there for the cells after it, with pyplot routed to a
figure in the figures' style (compute/pyplot.py); the figure it drew becomes a figure of the registry like a
`@lesson.figure` (placed with `{{< figure NAME >}}`, numbered in reading order), which the draw stage turns into
SVG, data table and dark-mode colours, or takes from the cache. Its cache key is its own: the cell's code, the
values of the names it reads (a function defined in lesson.py by its code and what it reads in turn), the
lesson's data files and the figures' style — so an edit elsewhere in lesson.py redraws it only when what it drew
from changed.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import copy
import hashlib
import inspect
import textwrap
import types
from pathlib import Path
from typing import Any, Callable

from ..support.errors import ContentError, Problem
from ..support.messages import msg, reason
from ..load.cells import Cell, names_read, split_cells
from ..support.records import Record
from .cells import CellError, run_cells
from .registry import FigureSpec, Lesson, expected_of, in_lesson_folder, lesson_module

RESULT_HIDDEN = " at 0x"   # a last line's value whose text holds a memory address (a matplotlib artist …) is not shown


class CellFigure(Record):
    """A figure cell's figure, drawn when the cell ran: the figure function the draw stage calls returns it. In a
    run kept in the store (kept_run) it is the figure pickled, unpickled only when the figure is drawn: a rebuild
    that finds the figure's SVG in the cache never imports matplotlib for it."""
    figure: Any               # a matplotlib Figure, or its pickle
    digest: str | None        # the figure's own part of its cache key; None: an input cannot be hashed (drawn anew)
    pickled: bytes | None = None   # the Figure's pickle once a kept step made it (kept_figure pickles it once)

    def __call__(self, plt: Any, *args: Any) -> Any:
        if isinstance(self.figure, bytes):
            import pickle

            return pickle.loads(self.figure)
        return self.figure


def kept_run(registry: Lesson, cells: "CellLesson") -> tuple[Lesson, "CellLesson"] | None:
    """The run as the store keeps it: each figure cell's figure pickled apart (CellFigure); None when a figure
    cannot be pickled."""
    kept = copy.copy(registry)
    kept.figures = dict(registry.figures)
    for name, spec in registry.figures.items():
        if isinstance(spec.func, CellFigure):
            figure = kept_figure(spec.func)
            if figure is None:
                return None
            kept.figures[name] = spec._replace(func=figure)
    return kept, cells


class ResultTable(Record):
    """A last line's value Jupyter shows as a table (a pandas DataFrame): its cells as pandas formats them."""
    head: tuple[tuple[str, ...], ...]            # the header rows (a named index adds one)
    body: tuple[tuple[tuple[bool, str], ...], ...]   # each row's cells: (is the row's label, its text)
    note: str = ""                               # pandas' "100 rows × 2 columns" under a shortened table


class CellLesson(Record):
    """What a cell-written lesson.py left for the stages after compute (read-only)."""
    cells: tuple[Cell, ...]
    printed: dict[str, str]                 # cell name → what it printed
    results: dict[str, str | ResultTable]   # cell name → its last line's value, as Jupyter shows it
    names: dict[str, Any]                   # the namespace's plain data: what expressions read
    changes: dict[str, tuple[Cell, ...]]    # a plain name → the cells that gave it a new value, in order (those
    #                                         changed by more than one)

    def cell(self, name: str) -> Cell | None:
        return next((c for c in self.cells if c.name == name and c.kind != "markdown"), None)

    @property
    def named(self) -> list[str]:
        return [c.name for c in self.cells if c.name and c.kind != "markdown"]


def run_cell_lesson(path: Path, text: str, style: Callable[[], dict], data_digest: Callable[[], str | None],
                    cache=None) -> tuple[Lesson, CellLesson, int]:
    """Run lesson.py's cells: its registry (the one a cell made, else an empty one) with the figure cells' figures
    in it, the cells' outputs, and how many cells ran. `style()`: the figures' rcParams (draw/figures.py style);
    `data_digest()`: the lesson's data files' digest (None: no cache). With a `cache`, the cells an earlier build
    ran as they are now are not run again (compute/cellsteps.py): the run starts at the first cell that changed.
    Raises ContentError with the problems, each at its line."""
    cells, problems = split_cells(text, path)
    if problems:
        raise ContentError(problems)
    module = lesson_module(path)
    namespace = module.__dict__
    figures: dict[str, CellFigure] = {}

    changes = Changes(namespace)
    steps = _steps(cache, path, text, cells, style, data_digest)
    start, before = 0, {}

    def done(index: int, cell: Cell, printed: str, result: Any) -> None:
        if steps is None or problems:
            return
        figure = kept_figure(figures.get(cell.name)) if cell.kind == "figure" else None
        if figure is not None:   # (the whole run, kept after it, takes this pickle too)
            figures[cell.name] = figures[cell.name]._replace(pickled=figure.figure)
        if cell.kind != "figure" or figure is not None:
            steps.keep(index, namespace, printed, _result_text(result) if result is not None else None, figure,
                       changes)

    def draw(cell: Cell, run: Callable[[], Any]) -> None:
        figures[cell.name] = _draw(cell, run, namespace, path, style(), data_digest)
        changes.after(cell)

    def after(cell: Cell) -> None:
        from .pyplot import stray_figures, use_agg

        changes.after(cell)
        use_agg()
        if stray_figures():
            drew = msg("cell {cell} draws a figure, but is not a figure cell: the page would not show it",
                       cell=_shown_name(cell))
            problems.append(Problem(path, cell.line or cell.first, drew,
                                    msg("`# %% figure: NAME caption=\"…\" alt=\"…\"` as its header")))
    with _rc_restored(text):
        try:
            with in_lesson_folder(path):
                if steps is not None:   # (inside: what it restores of matplotlib's settings stays in the lesson)
                    start, before = steps.resume(namespace, changes)
                    figures.update({cells[i].name: s.figure for i, s in before.items() if cells[i].kind == "figure"})
                run = run_cells(cells, path, namespace, draw, after, start, done)
        except CellError as err:
            raise ContentError([cell_problem(path, err)]) from None
    registry = namespace.get("lesson")
    if not isinstance(registry, Lesson):
        registry = Lesson()
        registry.code_path = path
    for cell in cells:
        if cell.kind == "figure" and cell.name in figures:
            if cell.name in registry.figures:
                problems.append(Problem(path, cell.line, msg("figure `{name}` is a figure cell and a `@lesson.figure` "
                                                             "function", name=cell.name),
                                        msg("one figure of each name")))
                continue
            registry.figures[cell.name] = FigureSpec(cell.name, figures[cell.name], cell.option("caption"),
                                                     cell.option("alt"), (), cell.option("data"), cell)
    if problems:
        raise ContentError(problems)
    printed, results = {}, {}
    for index, cell in enumerate(cells):   # the kept cells' outputs and those that ran, in the cells' order
        key = cell.name or f"#{index + 1}"
        if index in before:
            printed[key] = before[index].printed
            if before[index].result is not None:
                results[key] = before[index].result
        elif key in run.printed:
            printed[key] = run.printed[key]
            if key in run.results and (shown := _result_text(run.results[key])) is not None:
                results[key] = shown
    ran = sum(c.kind != "markdown" for i, c in enumerate(cells) if i >= start)
    return registry, CellLesson(tuple(cells), printed, results, plain_names(namespace), changes.repeated()), ran


def _steps(cache, path: Path, text: str, cells: list[Cell], style, data_digest):
    """The cells' kept steps (compute/cellsteps.py), when there is a cache, every cell parses and none makes a
    `Lesson` registry (Steps.makes_a_registry)."""
    from .cellsteps import Steps, data_split
    from ..support.cachekeys import cell_base_key, lesson_data_files

    if cache is None or not cache.enabled or data_digest() is None:
        return None
    files = lesson_data_files(path.parent)
    unnamed = repr(sorted(data_split(cells, files).items()))
    try:
        steps = Steps(cache, path, cells, cell_base_key(unnamed, text, style()), files)
    except SyntaxError:   # (the cell that does not parse is reported when it runs)
        return None
    return None if steps.makes_a_registry() else steps


def kept_figure(figure: "CellFigure | None") -> "CellFigure | None":
    """The figure cell's figure pickled (as a kept step or run holds it); None when it cannot be."""
    import pickle

    if figure is None or isinstance(figure.figure, bytes):
        return figure
    if figure.pickled is not None:
        return CellFigure(figure.pickled, figure.digest)
    try:
        return CellFigure(pickle.dumps(figure.figure, protocol=pickle.HIGHEST_PROTOCOL), figure.digest)
    except Exception:   # (an artist pickle cannot store)
        return None


class Changes:
    """Which cells give a plain name a new value: after each cell, the names its code mentions are hashed (a value
    changed in place, `u0[mask] = 2.0`, counts; the same value set again does not)."""

    def __init__(self, namespace: dict[str, Any]):
        self.namespace, self.digests, self.cells = namespace, {}, {}

    def after(self, cell: Cell) -> None:
        from ..support.cachekeys import Uncacheable, feed_value

        mentioned = {n.id for n in ast.walk(ast.parse(cell.body)) if isinstance(n, ast.Name)}
        for name in sorted(mentioned):
            value = self.namespace.get(name)
            if name.startswith("_") or name not in self.namespace or not is_plain(value):
                continue
            h = hashlib.sha256()
            try:
                feed_value(h, value)
            except Uncacheable:
                continue
            if self.digests.get(name) != h.digest():
                self.digests[name] = h.digest()
                self.cells.setdefault(name, []).append(cell)

    def repeated(self) -> dict[str, tuple[Cell, ...]]:
        return {name: tuple(cells) for name, cells in self.cells.items() if len(cells) > 1}


def read_too_early(cells: CellLesson, places, body_path: Path) -> Callable[[str, Path, int], Problem | None]:
    """`check(expression, path, line)`: a warning when lesson.md shows a name's value (always its value once every
    cell ran) between the placement of a cell that set it and that of a later cell that changes it — where the
    reader has seen the earlier value computed. `places`: the plan's, in reading order (load/plan.py)."""
    from ..support.expressions import names_in

    placed: dict[str, int] = {}
    for place in places:
        if place.path == body_path and place.kind in ("code", "figure"):
            placed.setdefault(place.name, place.line)

    def check(expression: str, path: Path, line: int) -> Problem | None:
        if path != body_path:
            return None
        for name in names_in(expression):
            setters = [(placed[c.name], c) for c in cells.changes.get(name, ()) if c.name in placed]
            if len(setters) < 2 or not setters[0][0] < line < setters[-1][0]:
                continue
            last_line, last = setters[-1]
            return Problem(path, line, msg("`{name}` is shown with the value cell `{cell}` gives it at line {place}, "
                                           "further down; here the reader has seen it computed as it was before",
                                           name=name, cell=last.name, place=last_line),
                           msg("a name of its own for each value the text shows, or the sentence after that cell"))
        return None
    return check


def cell_problem(path: Path, err: CellError) -> Problem:
    """A failing cell, at the line inside it where it failed (a syntax error at its own line)."""
    import traceback

    frames = [f for f in traceback.extract_tb(err.error.__traceback__) if f.filename == str(path)]
    line = frames[-1].lineno if frames else getattr(err.error, "lineno", None) or err.cell.first
    return Problem(path, line, msg("cell {cell} raised {error}: {reason}", cell=_shown_name(err.cell),
                                   error=type(err.error).__name__, reason=reason(err.error)),
                   expected_of(err.error))


def _shown_name(cell: Cell):
    return f"`{cell.name}`" if cell.name else msg("at line {line}", line=cell.line or 1)


@contextlib.contextmanager
def _rc_restored(text: str):
    """matplotlib's settings as they were once the cells ran: a cell's `plt.rcParams[…] = …` stays in its lesson."""
    if "matplotlib" not in text:
        yield
        return
    import matplotlib

    with matplotlib.rc_context():
        yield


def _draw(cell: Cell, run: Callable[[], Any], namespace: dict[str, Any], path: Path, style: dict,
          data_digest: Callable[[], str | None]) -> CellFigure:
    from .pyplot import drawn_figures, routed

    inputs = {name: namespace[name] for name in names_read(cell) if name in namespace}
    before = {name: id(value) for name, value in namespace.items()}
    with routed(style) as made:
        digest = figure_digest(cell, inputs, path, data_digest())   # (the settings it is drawn with are in force)
        result = run()
    bound = [value for name, value in namespace.items() if before.get(name) != id(value)] + [result]
    drawn = drawn_figures(made, bound)
    if len(drawn) != 1:
        message = msg("figure cell `{name}` draws nothing", name=cell.name) if not drawn else \
            msg("figure cell `{name}` draws {n} figures", name=cell.name, n=len(drawn))
        raise ContentError([Problem(path, cell.line, message,
                                    msg("one figure a cell, drawn with pyplot (`plt.plot(…)`) or a matplotlib Figure "
                                        "the cell ends with"))])
    return CellFigure(drawn[0], digest)


# ── what a figure cell is drawn from, for its cache key ────────────────────────────────────────────────────────────
def figure_digest(cell: Cell, inputs: dict[str, Any], path: Path, data: str | None) -> str | None:
    """The cell's code (its syntax tree: comments and layout change nothing), the values it reads, the lesson's data
    files and matplotlib's settings in force; None when caching is off or a value cannot be hashed faithfully."""
    import matplotlib

    from ..support.cachekeys import Uncacheable

    if data is None:
        return None
    h = hashlib.sha256(b"cell figure\0")
    h.update(ast.dump(ast.parse(cell.body), include_attributes=False).encode())
    h.update(f"\0{data}\0".encode())
    h.update(repr(sorted((key, repr(value)) for key, value in matplotlib.rcParams.items())).encode())
    try:
        for name in sorted(inputs):
            h.update(f"\0{name}=".encode())
            _feed_input(h, inputs[name], path, set())
    except Uncacheable:
        return None
    return h.hexdigest()


def _feed_input(h, value: Any, path: Path, seen: set[int]) -> None:
    """A value a figure cell reads: a module by its name, a function or class of lesson.py by its code and the
    globals it reads, another function by its qualified name, data as the cache hashes it (or pickled)."""
    import pickle

    from ..support.cachekeys import Uncacheable, feed_value

    if isinstance(value, types.ModuleType):
        h.update(f"module {value.__name__};".encode())
    elif _defined_in(value, path):
        if id(value) in seen:
            return
        seen.add(id(value))
        h.update(ast.dump(ast.parse(textwrap.dedent(inspect.getsource(value))), include_attributes=False).encode())
        scope = getattr(value, "__globals__", {})
        for name in sorted(_global_names(value)):
            if name in scope:
                h.update(f"\0{name}=".encode())
                _feed_input(h, scope[name], path, seen)
    elif callable(value) and hasattr(value, "__qualname__" if not isinstance(value, type) else "__name__"):
        h.update(f"callable {getattr(value, '__module__', '')}.{getattr(value, '__qualname__', value)};".encode())
    else:
        try:
            feed_value(h, value)
        except Uncacheable:
            try:
                h.update(b"pickle " + hashlib.sha256(pickle.dumps(value, protocol=4)).digest())
            except Exception:
                raise Uncacheable(type(value).__qualname__) from None


def _defined_in(value: Any, path: Path) -> bool:
    code = getattr(value, "__code__", None)
    if code is not None:
        return code.co_filename == str(path)
    return isinstance(value, type) and getattr(inspect.getmodule(value), "__file__", None) == str(path)


def _global_names(value: Any) -> set[str]:
    """The names a function's code (and the code nested in it) looks up: globals among them."""
    names, codes = set(), [getattr(value, "__code__", None)]
    while codes:
        code = codes.pop()
        if code is None:
            continue
        names |= set(code.co_names)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return {n for n in names if not hasattr(builtins, n)}


# ── the namespace as values, and a last line's value as text ───────────────────────────────────────────────────────
def plain_names(namespace: dict[str, Any]) -> dict[str, Any]:
    """The namespace's plain data — numbers, text, arrays, and lists, tuples and dicts of them — by name (not `_…`,
    nor modules, functions, figures or other objects): what `{{ expression }}` may read."""
    return {name: value for name, value in namespace.items() if not name.startswith("_") and is_plain(value)}


def is_plain(value: Any, depth: int = 0) -> bool:
    import numbers

    if value is None or isinstance(value, (str, numbers.Number)):
        return True
    if depth > 6:
        return False
    if type(value).__module__ == "numpy" and hasattr(value, "dtype"):
        return value.dtype.kind in "biufcU"
    if isinstance(value, (list, tuple)):
        return all(is_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, (str, int)) and is_plain(v, depth + 1) for k, v in value.items())
    return False


def _result_text(value: Any) -> str | ResultTable | None:
    """A last line's value as Jupyter shows it: a pandas DataFrame as its table, anything else its repr; None for a
    value whose text would differ between runs."""
    if type(value).__module__.startswith("pandas") and type(value).__name__ == "DataFrame":
        table = _dataframe_table(value)
        if table is not None:
            return table
    text = repr(value)
    return None if RESULT_HIDDEN in text else text


def _dataframe_table(frame: Any) -> ResultTable | None:
    """The table Jupyter shows for a DataFrame (its `_repr_html_`, shortened by pandas' display options as in a
    notebook), read back into rows of text: pandas formats the numbers, the page writes its own markup."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.head: list[list[str]] = []
            self.body: list[list[tuple[bool, str]]] = []
            self.note, self.part, self.cell, self.header = "", "", None, False

        def handle_starttag(self, tag: str, attrs) -> None:
            if tag in ("thead", "tbody"):
                self.part = tag
            elif tag == "tr":
                (self.head if self.part == "thead" else self.body).append([])
            elif tag in ("th", "td", "p"):
                self.cell, self.header = [], tag == "th"

        def handle_endtag(self, tag: str) -> None:
            if tag in ("th", "td") and self.cell is not None:
                text = " ".join("".join(self.cell).split())
                if self.part == "thead" and self.head:
                    self.head[-1].append(text)
                elif self.body:
                    self.body[-1].append((self.header, text))
                self.cell = None
            elif tag == "p" and self.cell is not None:
                self.note, self.cell = " ".join("".join(self.cell).split()), None

        def handle_data(self, data: str) -> None:
            if self.cell is not None:
                self.cell.append(data)

    try:
        html = frame._repr_html_()
    except Exception:   # (a frame pandas cannot show: its repr, as before)
        return None
    if not html:
        return None
    reader = Reader()
    reader.feed(html)
    return ResultTable(tuple(tuple(row) for row in reader.head), tuple(tuple(row) for row in reader.body),
                       reader.note)
