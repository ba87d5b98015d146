"""The compute stage: a lesson's values (dependencies first, like pytest fixtures) and its widgets' data."""
from __future__ import annotations

import copy
import functools
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable

from ..features import figdata, selfcheck
from ..support.errors import ContentError, Problem
from ..support.messages import as_message, msg, reason
from ..support.pysource import first_line
from ..support.records import Record
from ..support.store import CELL_RUNS, VALUES
from ..support.suggest import did_you_mean
from ..support.values import KeptValues, filled
from . import kept
from .registry import KIND, Lesson, in_lesson_folder, inputs_of, load_lesson_module, problem_from_exception


def compute_values(registry: Lesson, path: Path, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run every value function once, dependencies first. `given`: values a parameter may also name (a cell
    lesson's plain data); the result holds only the functions' values."""
    results: dict[str, Any] = {}
    visiting: list[str] = []
    given = given or {}

    def resolve(name: str, wanted_by: str) -> Any:
        if name in results:
            return results[name]
        if name not in registry.values and name in given:
            return given[name]
        if name not in registry.values:
            raise ContentError([Problem(path, _line_of(registry.values.get(wanted_by)),
                                        msg("`{user}` asks for unknown value `{name}`", user=wanted_by, name=name),
                                        msg("one of: {items}", items=", ".join(sorted(registry.values)) or msg("none")))])
        if name in visiting:
            cycle = " → ".join(visiting[visiting.index(name):] + [name])
            raise ContentError([Problem(path, _line_of(registry.values[name]),
                                        msg("values depend on each other in a cycle: {cycle}", cycle=cycle),
                                        "a value may not depend on itself")])
        visiting.append(name)
        func = registry.values[name]
        args = [resolve(dep, name) for dep in inputs_of(func)]
        results[name] = call_author_code(func, args, path)
        visiting.pop()
        return results[name]

    for value_name in registry.values:
        resolve(value_name, value_name)
    return results


def figure_inputs(names: tuple[str, ...], values, path: Path, user: str, line: int | None) -> Sequence[Any]:
    """A figure's input values; from KeptValues, read only when the figure is drawn (or its key is not kept)."""
    if isinstance(values, KeptValues):
        known(names, values, path, user, line)
        return DeferredInputs(values, names)
    return inputs_for(names, values, path, user, line)


def inputs_for(names: tuple[str, ...], values: dict[str, Any], path: Path, user: str, line: int | None) -> list[Any]:
    known(names, values, path, user, line)
    return [values[n] for n in names]


def known(names: tuple[str, ...], values, path: Path, user: str, line: int | None) -> None:
    """Raises the author's error when a name is no value."""
    missing = [n for n in names if n not in values]
    if missing:
        raise ContentError([Problem(path, line, msg("`{user}` asks for unknown value(s) {names}", user=user,
                                                    names=", ".join(missing)),
                                    msg("one of: {items}", items=", ".join(sorted(values)) or msg("none")))])


def call_author_code(func: Callable, args: list[Any], path: Path) -> Any:
    from ..features.widgetdata import WidgetDataError

    try:
        with in_lesson_folder(path):
            return func(*args)
    except ContentError:
        raise
    except WidgetDataError as exc:  # a builder (explorer, bars, table) refused what the lesson handed it: at the call
        line = problem_from_exception(path, exc).line
        raise ContentError([Problem(path, line, msg("`{builder}(…)`: {problem}", builder=exc.builder,
                                                    problem=as_message(i.message)), i.expected)
                            for i in exc.issues]) from None
    except Exception as exc:
        raise ContentError([problem_from_exception(path, exc)]) from None


def _line_of(func: Callable | None) -> int | None:
    return first_line(func) if func is not None else None


# ── the compute stage: a lesson's values, widget data and the figures to draw ────────────────────────────────────────
class ComputedWidget(Record):
    kind: str
    data: Any
    line: int | None                                  # the widget function's line in lesson.py
    figures: tuple[tuple[str, dict[str, Any], str], ...] = ()  # (figure name, point, alt) of its state figures
    script: Any = None                                # the JSON the page's script gets; None: `data`


class FigureJob(Record):
    """One figure to draw: a `@lesson.figure` function with its input values, or a widget's state figure with its
    parameter point. Everything the draw stage needs, so it never runs lesson code but the figure's own."""
    lesson: str                                       # the lesson's slug
    name: str                                         # `NAME`, or `WIDGET--STATE` for a widget's state figure
    func: Callable
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    path: Path                                        # lesson.py, for the author's errors
    line: int | None
    files_digest: str | None                          # lesson.py and its data files, for the cache key
    data: dict | None = None                          # the data table handed explicitly (`data=`), else recorded


class DescribedJob(Record):
    """A FigureJob as a process that did not fork from the build can draw it (a `forkserver` worker: `serve`):
    where its function is — lesson.py and the figure's name, or the widget whose state figure it is — and its
    inputs pickled (they are unpickled once lesson.py is loaded again, whose classes they may be made of).
    job_from() makes the FigureJob again, from lesson.py as it is then."""
    lesson: str
    name: str
    path: Path
    line: int | None
    files_digest: str | None           # lesson.py and its data files when the build read them
    data: dict | None
    widget: str | None                 # None: `name` is a `@lesson.figure`; else the widget whose state figure it is
    inputs: bytes                      # pickled: the figure's values (args), or the widget's values by name
    kwargs: dict[str, Any]
    png: bool = False


def describe(job: FigureJob, lesson: "ComputedLesson", png: bool) -> DescribedJob | None:
    """The job as data, or None when its inputs cannot be pickled (the building process then draws it)."""
    import pickle

    if lesson.cells is not None:  # lesson.py written as cells: only the build that ran them has their figures
        return None
    widget = None if job.name in lesson.registry.figures else job.name.split("--", 1)[0]
    inputs = job.args if widget is None else \
        {n: lesson.values[n] for n in lesson.registry.widgets[widget].inputs if n in lesson.values}
    try:
        pickled = pickle.dumps(inputs, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.dumps(job.kwargs)
    except Exception:  # a value pickle cannot carry (a generator, a lambda, an open file …)
        return None
    return DescribedJob(job.lesson, job.name, job.path, job.line, job.files_digest, job.data, widget, pickled,
                        job.kwargs, png)


_LOADED: dict[Path, tuple[Lesson, str | None]] = {}   # a drawing worker's lesson.py registries (one build each)
_DRAWERS: dict[tuple[Path, str], dict[str, Callable]] = {}  # … and its widgets' state-figure functions


def job_from(described: DescribedJob) -> FigureJob | None:
    """The FigureJob a description stands for, its function from lesson.py loaded again in this process; None when
    lesson.py or its data changed since the build read them (the building process then draws it from what it has)."""
    import pickle

    from ..support.cachekeys import lesson_files_digest

    path = described.path
    if path not in _LOADED:
        digest = lesson_files_digest(path.parent) if described.files_digest else None
        _LOADED[path] = (load_lesson_module(path), digest)
    registry, digest = _LOADED[path]
    if described.files_digest and digest != described.files_digest:
        return None
    inputs = pickle.loads(described.inputs)
    if described.widget is None:
        func, args = registry.figures[described.name].func, tuple(inputs)
    else:
        if (path, described.widget) not in _DRAWERS:  # its state figures' functions, from running it once here
            built = compute_widgets(registry, inputs, path, [], only={described.widget})
            _DRAWERS[path, described.widget] = built[described.widget][1] if described.widget in built else {}
        func, args = _DRAWERS[path, described.widget].get(described.name), ()
        if func is None:
            return None
    return FigureJob(described.lesson, described.name, func, args, described.kwargs, path, described.line,
                     described.files_digest, described.data)


class ComputedLesson(Record):
    """What a lesson's code computed; read-only from here on (the draw and render stages only read it)."""
    source: Any                                        # load.lessons.LessonSource
    values: dict[str, Any]
    widgets: dict[str, ComputedWidget]
    registry: Lesson
    figure_jobs: tuple[FigureJob, ...] = ()
    files_digest: str | None = None                    # lesson.py and the lesson's data files, when caching
    checks: dict[str, Any] = MappingProxyType({})  # lesson.yaml key → its self-check (features.selfcheck)
    cells: Any = None                                   # lesson.py written as cells: compute/cellrun.py CellLesson
    cells_run: int = 0                                  # … how many of its code cells ran in this build (0: kept)
    memo: Any = None                                    # compute/kept.py LessonMemo: what was derived from values

    @property
    def slug(self) -> str:
        return self.source.slug


def compute_lesson(source, problems: list[Problem], cache=None, figure_style=None) -> ComputedLesson:
    """Values and widget data, from the store when lesson.py and its data files are unchanged: then lesson.py is
    not run unless a page needs a value the store did not keep of it (compute/kept.py). A widget whose figures the
    engine draws (an explorer's `figure=`) is run on every build: its figure functions cannot be cached, and the
    draw stage needs them when a figure is not in the figure cache."""
    from ..support.cachekeys import lesson_files_digest, values_key

    path = source.code_path or source.folder / "lesson.py"
    files = lesson_files_digest(source.folder, cache) if cache is not None and cache.enabled else None
    code = _plain_code(source) if files else None   # lesson.py's bytes, unless it is written as cells
    found = kept.kept_shape(cache, files, code) if code is not None else None
    if found is not None:
        return _kept_lesson(source, problems, cache, files, code, found)
    registry, cells, ran = load_code(source, cache, figure_style, files)
    given = cells.names if cells is not None else {}   # a cell lesson's plain data: values too
    saved = cache.get_pickle(VALUES, values_key(files)) if files else None
    functions_values = saved if isinstance(saved, dict) else compute_values(registry, path, given)
    if files and not isinstance(saved, dict):
        cache.put_pickle(VALUES, values_key(files), functions_values)
    values: Any = {**given, **functions_values}
    widget_problems: list[Problem] = []
    built = compute_widgets(registry, values, path, widget_problems)
    problems += widget_problems
    widgets = {name: widget for name, (widget, _) in built.items()}
    drawers = {name: drawer for _, funcs in built.values() for name, drawer in funcs.items()}
    memo = None
    if code is not None and not widget_problems and (digest := cache.digest(VALUES, values_key(files))):
        rerun = sorted(name for name, widget in widgets.items() if widget.figures)
        kept.keep_shape(cache, files, code, registry, path, {n: w for n, w in widgets.items() if n not in rerun},
                        rerun)
        memo = kept.read_memo(cache, digest, source, files, code)
        values = kept.kept_values(cache, files, registry, path, memo, compute_values, loaded=functions_values)
    jobs = figure_jobs(source.slug, registry, values, widgets, drawers, path, files, problems)
    checks = kept.kept_checks(memo, source, values, problems) if memo is not None else \
        selfcheck.model(source.meta, source.meta_lines, source.meta_path, values, problems)
    return ComputedLesson(source, values, widgets, registry, jobs, files, checks, cells, ran, memo)


def _kept_lesson(source, problems: list[Problem], cache, files: str, code: bytes, found) -> ComputedLesson:
    """The lesson as the store keeps it (compute/kept.py): only the widgets run on every build are run."""
    registry, widgets, rerun, digest = found
    path = source.code_path
    memo = kept.read_memo(cache, digest, source, files, code)
    values = kept.kept_values(cache, files, registry, path, memo, compute_values)
    built = compute_widgets(registry, values, path, problems, only=set(rerun))
    widgets = {**widgets, **{name: built[name][0] for name in built}}
    drawers = {name: drawer for name in built for name, drawer in built[name][1].items()}
    jobs = figure_jobs(source.slug, registry, values, widgets, drawers, path, files, problems)
    checks = kept.kept_checks(memo, source, values, problems)
    return ComputedLesson(source, values, widgets, registry, jobs, files, checks, None, 0, memo)


def _plain_code(source) -> bytes | None:
    """lesson.py's bytes when it is a plain module (not cells); None without one."""
    from ..load.cells import is_cell_file

    if source.code_path is None:
        return None
    try:
        code = source.code_path.read_bytes()
    except OSError:
        return None
    return None if is_cell_file(code.decode("utf-8", errors="replace")) else code


def load_code(source, cache=None, figure_style=None, files: str | None = None):
    """(registry, CellLesson or None, how many code cells ran): lesson.py imported, or — written as cells (`# %%`) — its cells run
    (compute/cellrun.py), a figure cell with `figure_style()`'s rcParams (the draw stage's: draw/drawing.py
    cell_figure_style; matplotlib's own without it); an empty registry for a lesson without code.

    A cell lesson's run is kept in the store (CELL_RUNS, support/cachekeys.py cell_run_key: lesson.py's text, its
    data files, the versions of what it imports, the figures' settings; `files`, lesson_files_digest, when caching)
    and taken from there while those are what it ran with: an edit of lesson.md or lesson.yaml runs no cell. A
    run that cannot be pickled (a registry of functions its cells made) is never kept, so it runs again."""
    from ..load.cells import is_cell_file

    if source.code_path is None:
        return Lesson(), None, 0
    text = source.code_path.read_text(encoding="utf-8")
    if not is_cell_file(text):
        return load_lesson_module(source.code_path), None, 0
    from ..support.cachekeys import cell_run_key, lesson_files_digest
    from .cellrun import kept_run, run_cell_lesson

    enabled = cache is not None and cache.enabled
    style = figure_style or dict
    key = cell_run_key(files, text, style()) if enabled and files else None
    saved = cache.get_pickle(CELL_RUNS, key) if key else None
    if isinstance(saved, tuple) and len(saved) == 2:
        return (*saved, 0)
    registry, cells, ran = run_cell_lesson(source.code_path, text, style, functools.cache(
        lambda: lesson_files_digest(source.folder, code=False) if enabled else None), cache)
    to_keep = kept_run(registry, cells) if key else None
    if to_keep is not None:
        cache.put_pickle(CELL_RUNS, key, to_keep)
    return registry, cells, ran


def explicit_data(spec, values: dict[str, Any], path: Path, line: int | None, problems: list[Problem]) -> dict | None:
    """The data table a figure names with `data=` (features.figdata.explicit); None when it names none or a
    problem was added."""
    if spec.data is None:
        return None
    if not isinstance(spec.data, str) or spec.data not in values:
        shown = spec.data if isinstance(spec.data, str) else getattr(spec.data, "__name__", type(spec.data).__name__)
        hint = did_you_mean(shown, values) if isinstance(spec.data, str) else \
            msg("; the value's name as a string: `data=\"{name}\"`", name=shown)
        problems.append(Problem(path, line, msg("figure `{name}`: `data=` names no value `{data}`{hint}",
                                                name=spec.name, data=shown, hint=hint),
                                "the name of a `@lesson.value` holding a table"))
        return None
    try:
        data = figdata.explicit(values[spec.data])
    except ValueError as exc:
        problems.append(Problem(path, line, msg("figure `{name}`: the value `{data}` is not figure data: {problem}",
                                                name=spec.name, data=spec.data, problem=reason(exc)),
                                "a table: `table(…)`, a dict of columns, a list of dicts or a list of rows"))
        return None
    for table in data["tables"]:  # a `table(caption=…)` titles it, with `{{ value }}` as in the text
        table["title"], misses = filled(table["title"], values)
        problems += [Problem(path, line, miss.message, miss.expected) for miss in misses]
    return data


def figure_jobs(slug: str, registry: Lesson, values: dict[str, Any], widgets: dict[str, ComputedWidget],
                drawers: dict[str, Callable], path: Path, files: str | None,
                problems: list[Problem]) -> tuple[FigureJob, ...]:
    """The lesson's figures in registry order, then its widgets' state figures."""
    jobs = []
    for name, spec in registry.figures.items():
        line = spec.line
        if spec.cell is not None:  # drawn when its cell ran; keyed on what it was drawn from (compute/cellrun.py)
            data = explicit_data(spec, values, path, line, problems)
            jobs.append(FigureJob(slug, name, spec.func, (), {}, path, line, spec.func.digest, data))
            continue
        try:
            args = figure_inputs(spec.inputs, values, path, name, line)
        except ContentError as err:
            problems += err.problems
            continue
        data = explicit_data(spec, values, path, line, problems)
        jobs.append(FigureJob(slug, name, spec.func, args, {}, path, line, files, data))
    for widget in widgets.values():
        for name, point, _alt in widget.figures:
            if name in drawers:
                jobs.append(FigureJob(slug, name, drawers[name], (), dict(point), path, widget.line, files))
    return tuple(jobs)


class DeferredInputs(Sequence):
    """A figure's input values, read from KeptValues when the figure is drawn (or its key is not kept)."""

    def __init__(self, values: KeptValues, names: tuple[str, ...]):
        self.values, self.names = values, names

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.values[n] for n in self.names[i]]
        return self.values[self.names[i]]

    def __len__(self) -> int:
        return len(self.names)

    def __reduce__(self):  # pickled (a forkserver worker's job) as the values themselves
        return tuple, (tuple(self),)


def compute_widgets(registry: Lesson, values: dict[str, Any], path: Path, problems: list[Problem],
                    only: set[str] | None = None) -> dict[str, tuple[ComputedWidget, dict[str, Callable]]]:
    """Run each widget function (or those in `only`): its data (plain JSON the page's script can read, fitting its
    kind's schema when the kind is built in) and the functions of the state figures it asks the engine to draw."""
    from ..features.widgetdata import check_widget_data, nonfinite_path
    from ..features.widgets import WidgetResult
    from ..support.jsondata import json_for_script, plain

    widgets = {}
    for name, spec in registry.widgets.items():
        if only is not None and name not in only:
            continue
        line = first_line(spec.func)
        try:
            args = copy.deepcopy(inputs_for(spec.inputs, values, path, name, line))  # a widget may not change values
            result = call_author_code(spec.func, args, path)
        except ContentError as err:
            problems += err.problems
            continue
        built = result if isinstance(result, WidgetResult) else None
        data = plain(built.data if built else result, text_keys=True)
        kind = spec.kind if spec.kind is not None else (built.kind if built else name)
        if not isinstance(kind, str) or not KIND.fullmatch(kind):
            problems.append(Problem(path, line, msg("widget `{name}`: kind {kind} cannot name a component folder",
                                                    name=name, kind=repr(kind)),
                                    "a kind made of ASCII letters, digits, _ and - (its folder is widgets/<kind>/)"))
            continue
        # the data of a built-in kind fits its schema (features/widgetdata.py), unless the lesson has its own component
        issues = [] if built or (path.parent / "widgets" / kind).is_dir() else check_widget_data(kind, data)
        if issues:
            problems += [Problem(path, line, msg("widget `{name}` (kind `{kind}`): {problem}", name=name, kind=kind,
                                                 problem=as_message(i.message)), i.expected) for i in issues]
            continue
        try:
            json_for_script(data)
        except ValueError:  # json refuses NaN and ∞, which the page's script could not read
            problems.append(Problem(path, line, msg("widget `{name}` returned NaN or ∞ at `{where}`", name=name,
                                                    where=nonfinite_path(data)),
                                    "finite numbers (or None for a gap)"))
            continue
        except TypeError as exc:  # an object JSON cannot hold
            problems.append(Problem(path, line, msg("widget `{name}` returned data that is not plain JSON: {reason}",
                                                    name=name, reason=str(exc)),
                                    "lists, dicts, strings and finite numbers"))
            continue
        figures = tuple((f"{name}--{f.name}", f.point, f.alt) for f in built.figures) if built else ()
        drawers = {f"{name}--{f.name}": f.func for f in built.figures} if built else {}
        script = plain(built.script, text_keys=True) if built and built.script is not None else None
        widgets[name] = (ComputedWidget(kind, data, line, figures, script), drawers)
    return widgets
