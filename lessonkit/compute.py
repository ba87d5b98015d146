"""The lesson's computations: values, figures and widgets declared in a lesson's ``lesson.py``.

A lesson module creates one ``Lesson()`` registry and decorates plain functions:

    lesson = Lesson()

    @lesson.value
    def decay_96(factor):            # parameters name other values: computed first
        return factor ** 96

    @lesson.figure(caption="…", alt="…")
    def gradient_decay(plt, decay_96):
        fig, ax = plt.subplots()
        …
        return fig

    @lesson.widget
    def mask_table(masks):           # JSON-able data for the component widgets/mask_table/
        return {...}

Values are resolved by name, like pytest fixtures, so the engine knows what every figure depends on.
Data files come from the lesson folder only: ``lesson.read_text("data.csv")`` or ``lesson.path("data.csv")``.
"""
from __future__ import annotations

import copy
import importlib.util
import inspect
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .content import LessonPathError, read_text, resolve_in_lesson
from .errors import ContentError, Problem


@dataclass
class FigureSpec:
    name: str
    func: Callable
    caption: str
    alt: str
    inputs: tuple[str, ...]


@dataclass
class WidgetSpec:
    name: str
    func: Callable
    kind: str | None                 # None: the function's name, unless it returns a builder's result with its own
    inputs: tuple[str, ...]


_loading: list[Path] = []  # the lesson.py being imported: a Lesson() created meanwhile belongs to its folder


@dataclass
class Lesson:
    """Registry a lesson module fills with its decorated functions."""
    values: dict[str, Callable] = field(default_factory=dict)
    figures: dict[str, FigureSpec] = field(default_factory=dict)
    widgets: dict[str, WidgetSpec] = field(default_factory=dict)
    code_path: Path | None = field(default_factory=lambda: _loading[-1] if _loading else None)

    def path(self, name: str) -> Path:
        """The data file `name` in this lesson's folder; a clear error for a missing file or a path leading out."""
        if self.code_path is None:
            raise RuntimeError("Lesson.path() works in a lesson.py loaded by lessonkit")
        try:
            return resolve_in_lesson(self.code_path.parent, name)
        except LessonPathError as exc:
            raise ContentError([Problem(self.code_path, self._caller_line(), f"data file {exc.args[0]}",
                                        exc.args[1])]) from None

    def read_text(self, name: str) -> str:
        """The UTF-8 text of the data file `name` in this lesson's folder."""
        file = self.path(name)
        problems: list[Problem] = []
        text = read_text(file, problems)
        if text is None:
            raise ContentError(problems)
        return text

    def _caller_line(self) -> int | None:
        frames = [f for f in traceback.extract_stack() if Path(f.filename) == self.code_path]
        return frames[-1].lineno if frames else None

    def value(self, func: Callable) -> Callable:
        self.values[func.__name__] = func
        return func

    def figure(self, *, caption: str, alt: str, name: str | None = None) -> Callable:
        def register(func: Callable) -> Callable:
            fig_name = name or func.__name__
            self.figures[fig_name] = FigureSpec(fig_name, func, caption, alt, _inputs(func, skip_first=True))
            return func
        return register

    def widget(self, func: Callable | None = None, *, kind: str | None = None) -> Callable:
        """A widget placed with `{{< widget NAME >}}`: its component is `widgets/<kind>/`, kind = the function's
        name unless given (or carried by the builder the function returns: explorer, bars)."""
        def register(f: Callable) -> Callable:
            self.widgets[f.__name__] = WidgetSpec(f.__name__, f, kind, _inputs(f))
            return f
        return register(func) if func is not None else register


def _inputs(func: Callable, skip_first: bool = False) -> tuple[str, ...]:
    names = list(inspect.signature(func).parameters)
    return tuple(names[1:] if skip_first else names)


def load_lesson_module(path: Path) -> Lesson:
    """Import a lesson's ``lesson.py`` and return its ``lesson`` registry."""
    module_name = f"_lesson_{path.parent.name.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses in lesson code look their module up here
    _loading.append(path)
    try:
        if _hash_checked_bytecode(path):
            spec.loader.exec_module(module)
        else:
            exec(compile(path.read_bytes(), str(path), "exec"), module.__dict__)
    except ContentError:
        raise
    except Exception as exc:  # the author's code failed: report it as their error, at their line
        raise ContentError([_problem_from_exception(path, exc)]) from None
    finally:
        _loading.pop()
    registry = getattr(module, "lesson", None)
    if not isinstance(registry, Lesson):
        raise ContentError([Problem(path, None, "defines no `lesson = Lesson()` registry",
                                    "a module-level `lesson = Lesson()` from lessonkit")])
    return registry


def _hash_checked_bytecode(path: Path) -> bool:
    """Make Python's cached bytecode of lesson.py checked against the source's bytes, not its mtime (1 s steps) and
    size: otherwise a lesson.py saved twice within a second at the same length runs the old code, and the caches
    would file its results under the new code's hash. False when no such bytecode can be written."""
    if sys.dont_write_bytecode:
        return False
    cached = importlib.util.cache_from_source(str(path))
    try:
        with open(cached, "rb") as f:
            header = f.read(8)
        if len(header) == 8 and int.from_bytes(header[4:8], "little") & 0b11 == 0b11:  # hash-based, checked
            return True  # Python keeps it hash-based when it recompiles a changed source
    except OSError:
        pass
    import py_compile
    try:
        py_compile.compile(str(path), cached, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    except (py_compile.PyCompileError, OSError):
        return False
    return True


def compute_values(registry: Lesson, path: Path) -> dict[str, Any]:
    """Run every value function once, dependencies first."""
    results: dict[str, Any] = {}
    visiting: list[str] = []

    def resolve(name: str, wanted_by: str) -> Any:
        if name in results:
            return results[name]
        if name not in registry.values:
            raise ContentError([Problem(path, _line_of(registry.values.get(wanted_by)),
                                        f"`{wanted_by}` asks for unknown value `{name}`",
                                        f"one of: {', '.join(sorted(registry.values)) or 'none'}")])
        if name in visiting:
            cycle = " → ".join(visiting[visiting.index(name):] + [name])
            raise ContentError([Problem(path, _line_of(registry.values[name]), f"values depend on each other in a cycle: {cycle}",
                                        "a value may not depend on itself")])
        visiting.append(name)
        func = registry.values[name]
        args = [resolve(dep, name) for dep in _inputs(func)]
        results[name] = call_author_code(func, args, path)
        visiting.pop()
        return results[name]

    for value_name in registry.values:
        resolve(value_name, value_name)
    return results


def inputs_for(names: tuple[str, ...], values: dict[str, Any], path: Path, user: str, line: int | None) -> list[Any]:
    missing = [n for n in names if n not in values]
    if missing:
        raise ContentError([Problem(path, line, f"`{user}` asks for unknown value(s) {', '.join(missing)}",
                                    f"one of: {', '.join(sorted(values)) or 'none'}")])
    return [values[n] for n in names]


def call_author_code(func: Callable, args: list[Any], path: Path) -> Any:
    try:
        return func(*args)
    except ContentError:
        raise
    except Exception as exc:
        raise ContentError([_problem_from_exception(path, exc)]) from None


def _line_of(func: Callable | None) -> int | None:
    return func.__code__.co_firstlineno if func is not None else None


def _problem_from_exception(path: Path, exc: BaseException) -> Problem:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    line = frames[-1].lineno if frames else getattr(exc, "lineno", None)
    return Problem(path, line, f"the lesson code raised {type(exc).__name__}: {exc}", "lesson code that runs without error")


# ── the compute stage: a lesson's values and widget data ─────────────────────────────────────────────────────────────
@dataclass
class ComputedWidget:
    kind: str
    data: Any
    line: int | None                                  # the widget function's line in lesson.py
    figures: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)  # (figure name, point, alt)
    draw: dict[str, Callable] = field(default_factory=dict)  # figure name → function; not cached (lambdas)
    script: Any = None                                # the JSON the page's script gets; None: `data`


@dataclass
class ComputedLesson:
    source: Any                                        # content.LessonSource
    values: dict[str, Any]
    widgets: dict[str, ComputedWidget]
    registry: Lesson
    files_digest: str | None = None                    # lesson.py and the lesson's data files, when caching
    figures: dict[str, str] = field(default_factory=dict)  # figure name → SVG (or a placeholder while drawn)
    figure_data: dict[str, dict] = field(default_factory=dict)  # figure name → what it plots (lessonkit.figdata)
    pending_data: dict[str, dict] = field(default_factory=dict)  # figures placed while drawn: their table comes later


def compute_lesson(source, problems: list[Problem], cache=None) -> ComputedLesson:
    """Values and widget data, from the cache when lesson.py and its data files are unchanged."""
    from .cache import lesson_files_digest, values_key

    registry = load_lesson_module(source.code_path) if source.code_path else Lesson()
    path = source.code_path or source.folder / "lesson.py"
    files = lesson_files_digest(source.folder) if cache is not None and cache.enabled else None
    saved = cache.get_values(values_key(files)) if files else None
    if isinstance(saved, tuple) and len(saved) == 2:
        values, widgets = saved
    else:
        values = compute_values(registry, path)
        widget_problems: list[Problem] = []
        widgets = compute_widgets(registry, values, path, widget_problems)
        problems += widget_problems
        if files and not widget_problems:
            cache.put_values(values_key(files), (values, {n: _without_functions(w) for n, w in widgets.items()}))
    return ComputedLesson(source, values, widgets, registry, files)


def _without_functions(widget: ComputedWidget) -> ComputedWidget:
    return ComputedWidget(widget.kind, widget.data, widget.line, widget.figures, {}, widget.script)


def compute_widgets(registry: Lesson, values: dict[str, Any], path: Path, problems: list[Problem],
                    only: str | None = None) -> dict[str, ComputedWidget]:
    """Run each widget function (or just `only`); its data must be plain JSON the page's script can read."""
    from .render import json_for_script
    from .widgets import WidgetResult

    widgets = {}
    for name, spec in registry.widgets.items():
        if only is not None and name != only:
            continue
        line = spec.func.__code__.co_firstlineno
        try:
            args = copy.deepcopy(inputs_for(spec.inputs, values, path, name, line))  # a widget may not change values
            result = call_author_code(spec.func, args, path)
        except ContentError as err:
            problems += err.problems
            continue
        built = result if isinstance(result, WidgetResult) else None
        data = _plain(built.data if built else result)
        try:
            json_for_script(data)
        except ValueError:  # json refuses NaN and ∞, which the page's script could not read
            problems.append(Problem(path, line, f"widget `{name}` returned data containing NaN or ∞",
                                    "finite numbers (or None for a gap)"))
            continue
        except TypeError as exc:  # an object JSON cannot hold
            problems.append(Problem(path, line, f"widget `{name}` returned data that is not plain JSON: {exc}",
                                    "lists, dicts, strings and finite numbers"))
            continue
        kind = spec.kind or (built.kind if built else name)
        figures = [(f"{name}--{f.name}", f.point, f.alt) for f in built.figures] if built else []
        draw = {f"{name}--{f.name}": f.func for f in built.figures} if built else {}
        script = _plain(built.script) if built and built.script is not None else None
        widgets[name] = ComputedWidget(kind, data, line, figures, draw, script)
    return widgets


def _plain(data: Any) -> Any:
    """numpy arrays and scalars → lists and Python numbers, so widget data is JSON."""
    if hasattr(data, "tolist"):
        return data.tolist()
    if isinstance(data, dict):
        return {str(k): _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data
