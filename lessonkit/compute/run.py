"""The compute stage: a lesson's values (dependencies first, like pytest fixtures) and its widgets' data."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..support.errors import ContentError, Problem
from .registry import KIND, Lesson, inputs_of, load_lesson_module, problem_from_exception


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
        args = [resolve(dep, name) for dep in inputs_of(func)]
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
        raise ContentError([problem_from_exception(path, exc)]) from None


def _line_of(func: Callable | None) -> int | None:
    return func.__code__.co_firstlineno if func is not None else None


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
    figure_png: dict[str, bytes] = field(default_factory=dict)  # figure name → PNG, when the build draws them (slides)
    pending_data: dict[str, dict] = field(default_factory=dict)  # figures placed while drawn: their table comes later


def compute_lesson(source, problems: list[Problem], cache=None) -> ComputedLesson:
    """Values and widget data, from the cache when lesson.py and its data files are unchanged."""
    from ..support.cache import lesson_files_digest, values_key

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
    from ..support.jsondata import json_for_script
    from ..features.widgets import WidgetResult

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
        kind = spec.kind if spec.kind is not None else (built.kind if built else name)
        if not isinstance(kind, str) or not KIND.fullmatch(kind):
            problems.append(Problem(path, line, f"widget `{name}`: kind {kind!r} cannot name a component folder",
                                    "a kind made of ASCII letters, digits, _ and - (its folder is widgets/<kind>/)"))
            continue
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
