"""The draw stage: every figure of every lesson — `@lesson.figure` functions and the per-state figures of widgets such
as the explorer — taken from the cache or drawn, across cores, while the pages are rendered around placeholders."""
from __future__ import annotations

import copy
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

from ..support.cache import FigureCache, Uncacheable, engine_digest, figure_key
from ..compute.run import ComputedLesson, compute_widgets, inputs_for
from ..support.errors import ContentError, Problem, UsageError


@dataclass
class FigureStats:
    font: str | None = None
    drawn: int = 0
    cached: int = 0


@dataclass
class FigureTask:
    lesson: ComputedLesson
    name: str
    func: Callable
    args: list[Any]
    kwargs: dict[str, Any] = field(default_factory=dict)
    line: int | None = None
    key: str | None = None
    png: bool = False             # also a PNG picture of it (for the slides: draw/raster.py)


def figure_tasks(lesson: ComputedLesson, problems: list[Problem]) -> list[FigureTask]:
    """The lesson's figures in registry order, then its widgets' state figures."""
    path = lesson.source.code_path
    tasks = []
    for name, spec in lesson.registry.figures.items():
        line = spec.func.__code__.co_firstlineno
        try:
            args = inputs_for(spec.inputs, lesson.values, path, name, line)
        except ContentError as err:
            problems += err.problems
            continue
        tasks.append(FigureTask(lesson, name, spec.func, args, line=line))
    for widget_name, widget in lesson.widgets.items():
        for name, point, _alt in widget.figures:
            tasks.append(FigureTask(lesson, name, widget.draw.get(name), [], dict(point), line=widget.line))
    return tasks


def draw_all_figures(computed: list[ComputedLesson], cache: FigureCache, jobs: int | None,
                     problems: list[Problem], png: bool = False) -> tuple[FigureStats, "Drawing"]:
    """Take every figure whose key is in the cache from there; start drawing the rest (across cores).
    Matplotlib is imported only when something must be drawn or the installed fonts changed.
    `png`: the lessons' own figures also as PNG pictures (ComputedLesson.figure_png), drawn in the same run."""
    tasks = [t for lesson in computed for t in figure_tasks(lesson, problems)]
    for task in tasks:
        task.png = png and task.name in task.lesson.registry.figures
    if not tasks:
        return FigureStats(), Drawing([], "", 1, None)
    font = cache.font()
    if font is None:
        font = _font_choice()
        cache.put_font(font)
    engine = engine_digest()
    stats = FigureStats(font=font.family)
    to_draw: list[FigureTask] = []
    for task in tasks:
        files = task.lesson.files_digest if cache.enabled else None
        try:
            task.key = figure_key(engine, files, font, task.name, task.args + _sorted_items(task.kwargs)) \
                if cache.enabled else None
        except Uncacheable:
            task.key = None
        svg = cache.get(task.key) if task.key else None
        data = cache.get_data(task.key) if svg is not None else None
        picture = cache.get_png(task.key) if task.png and data is not None else None
        if svg is None or data is None or (task.png and picture is None):
            to_draw.append(task)
        else:
            task.lesson.figures[task.name], task.lesson.figure_data[task.name] = svg, data
            if picture is not None:
                task.lesson.figure_png[task.name] = picture
            stats.cached += 1
    _restore_state_figure_functions(to_draw, problems)
    stats.drawn = len(to_draw)
    return stats, Drawing(to_draw, font.family, jobs, cache)


def _sorted_items(kwargs: dict[str, Any]) -> list[Any]:
    return [[k, kwargs[k]] for k in sorted(kwargs)]


def _restore_state_figure_functions(tasks: list[FigureTask], problems: list[Problem]) -> None:
    """Widget data from the cache has no functions (they cannot be pickled): run the widget again for them."""
    for task in tasks:
        if task.func is not None:
            continue
        lesson = task.lesson
        widget_name = task.name.split("--", 1)[0]
        fresh = compute_widgets(lesson.registry, lesson.values, lesson.source.code_path, problems, only=widget_name)
        if widget_name in fresh:
            lesson.widgets[widget_name].draw = fresh[widget_name].draw
        task.func = lesson.widgets[widget_name].draw.get(task.name)


def _font_choice():
    from .figures import FontMissing, font_choice
    try:
        return font_choice()
    except FontMissing as exc:
        raise UsageError(str(exc)) from None


_DRAW_TASKS: tuple[list[FigureTask], str] | None = None  # read by forked workers


class Drawing:
    """Figures to draw. With one figure or one core they are drawn at once. Otherwise forked worker processes draw
    them while the parent renders the pages around placeholders; `wait` collects them and `fill` puts each SVG
    in its place.
    Workers inherit the lessons in memory: only an index goes out and an SVG (or the author's problems) comes back.
    The bytes are the same either way (tests/test_cache.py)."""

    def __init__(self, tasks: list[FigureTask], font: str, jobs: int | None, cache: FigureCache | None):
        self.font, self.cache = font, cache
        # a state figure whose widget failed again has no function: that problem is already reported
        self.tasks = tasks = [t for t in tasks if t.func is not None]
        self.pool = None
        self.futures: list = []
        self.problems: list[Problem] = []
        self.nonce = secrets.token_hex(8)  # no author's text can spell a placeholder by accident
        if not tasks:
            return
        import multiprocessing

        from .figures import preload
        preload()
        workers = min(jobs or _cores(), len(tasks))
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            self._start(workers, multiprocessing.get_context("fork"))
        else:
            self.problems = self._store([_draw_one(task, font) for task in tasks])

    def _start(self, workers: int, context) -> None:
        global _DRAW_TASKS
        from concurrent.futures import ProcessPoolExecutor

        _DRAW_TASKS = (self.tasks, self.font)  # workers fork at the first submit and keep their copy
        self.pool = ProcessPoolExecutor(workers, mp_context=context)
        self.futures = [self.pool.submit(_draw_task, i) for i in range(len(self.tasks))]
        _DRAW_TASKS = None
        for i, task in enumerate(self.tasks):
            task.lesson.figures[task.name] = self._placeholder(i)

    def _placeholder(self, index: int) -> str:
        return f"<!--lessonkit-figure-{self.nonce}-{index}-->"

    def _store(self, results: list[tuple[str, Any]]) -> list[Problem]:
        """Cache and place the SVGs; return the author's problems."""
        problems = []
        for task, (kind, result) in zip(self.tasks, results):
            if kind == "problems":
                problems += result
                continue
            svg, data, picture = result
            task.lesson.figures[task.name], task.lesson.figure_data[task.name] = svg, data
            if picture is not None:
                task.lesson.figure_png[task.name] = picture
            if task.key and self.cache is not None:
                self.cache.put(task.key, svg, data)
                if picture is not None:
                    self.cache.put_png(task.key, picture)
        return problems

    def wait(self) -> list[Problem]:
        """Wait for the workers; the problems of every figure that could not be drawn."""
        if self.pool is not None:
            self.problems = self._store([future.result() for future in self.futures])
        return self.problems

    def fill(self, pages: dict[str, Any]) -> dict[str, Any]:
        """Put each worker-drawn SVG where its placeholder stands (after `wait`), in pages with a `.text`."""
        if self.pool is None:
            return pages
        for page in pages.values():
            for i, task in enumerate(self.tasks):
                page.text = page.text.replace(self._placeholder(i), task.lesson.figures[task.name])
        return pages

    def __enter__(self) -> "Drawing":
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


def _cores() -> int:
    import os
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _draw_task(index: int) -> tuple[str, Any]:
    tasks, font = _DRAW_TASKS
    return _draw_one(tasks[index], font)


def _draw_one(task: FigureTask, font: str) -> tuple[str, Any]:
    """("svg", (markup, plotted data, PNG or None)) or ("problems", [Problem…]): the author's errors travel back as
    data."""
    from .figures import draw_figure_files

    path = task.lesson.source.code_path
    try:
        args = copy.deepcopy(task.args)  # a figure may not change values
        kwargs = copy.deepcopy(task.kwargs)
        func = task.func if not kwargs else (lambda plt, *a: task.func(plt, *a, **kwargs))
        return "svg", draw_figure_files(task.name, func, args, font, path, task.line, png=task.png)
    except ContentError as err:
        return "problems", err.problems
