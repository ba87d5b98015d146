"""The draw stage: every figure job of every lesson — `@lesson.figure` functions and the state figures of widgets
such as the explorer — taken from the cache or drawn, across cores, while the render stage makes the pages' drafts.

The result is data: a `DrawnFigure` (SVG, the numbers it plots, its colours' dark counterparts) per figure, keyed
by (lesson slug, figure name). Assembly puts them into the pages."""
from __future__ import annotations

import copy
import functools
import itertools
import threading
from typing import TYPE_CHECKING, Any

from ..compute.registry import in_lesson_folder
from ..compute.run import ComputedLesson, DescribedJob, FigureJob, describe, job_from
from ..support.cachekeys import Uncacheable, engine_digest, figure_key
from ..support.font import keep_font, saved_font
from ..support.errors import ContentError, Problem, UsageError
from ..support.messages import reason
from ..support.records import Mutable, Record, fresh
from ..support.store import FIGURE_DATA, FIGURE_PNG, FIGURE_SVG, Store

if TYPE_CHECKING:
    from ..features.palette import PageColors

WORKER_POLL_SECONDS = 1.0  # how often a waiting parent checks that its workers are still alive
# what the fork server imports once, before it forks the drawing workers of `serve` (Drawing.start)
FORKSERVER_PRELOAD = ["numpy", "matplotlib.figure", "matplotlib.backends.backend_svg", "lessonkit.draw.drawing"]


class DrawnFigure(Record):
    svg: str
    data: dict               # what it plots (features.figdata.record)
    palette: dict[str, str]  # each colour it draws → its dark-mode counterpart (features.palette)
    png: bytes | None = None  # the same figure as a picture, when the build asks for them (the slides)


FigureKey = tuple[str, str]  # (lesson slug, figure name)


class DrawStats(Mutable):
    font: str | None = None
    drawn: int = 0
    cached: int = 0


class Drawn(Mutable):
    """What the draw stage hands on: every figure that could be drawn, and the author's problems of the rest."""
    figures: dict[FigureKey, DrawnFigure] = fresh(dict)
    problems: list[Problem] = fresh(list)
    keys: dict[FigureKey, str] = fresh(dict)  # each figure's cache key (what a kept page was made of)


def start_drawing(computed: list[ComputedLesson], cache: Store, jobs: int | None, page: PageColors,
                  png: bool = False, start: str = "fork") -> "Drawing":
    """Take every figure whose key is in the cache from there; start drawing the rest (across cores). matplotlib
    is imported only when something must be drawn or the installed fonts changed. `page`: the theme's page colours,
    which the figures' dark colours are computed against (features.palette.page_colors). `png`: the lessons' own
    figures (not widgets' state figures) also as PNG pictures, drawn in the same run as their SVG and cached beside
    it. `start`: how the drawing workers start (Drawing.start)."""
    todo = [job for lesson in computed for job in lesson.figure_jobs]
    pictures = {(lesson.slug, name) for lesson in computed for name in lesson.registry.figures} if png else set()
    if not todo:
        return Drawing(DrawStats(), Drawn(), [], cache, set(), None, page)
    font = figure_font(cache)
    engine = engine_digest()
    stats, done, to_draw = DrawStats(font=font.family), Drawn(), []
    memos = {lesson.slug: lesson.memo for lesson in computed if lesson.memo is not None}
    for job in todo:
        key = _known_key(memos.get(job.lesson), engine, font, page, job) if cache.enabled else None
        if key:
            done.keys[(job.lesson, job.name)] = key
        saved = cached_figure(cache, key) if key else None
        wants_png = (job.lesson, job.name) in pictures
        picture = cache.get_bytes(FIGURE_PNG, key) if saved is not None and wants_png else None
        if saved is None or (wants_png and picture is None):
            to_draw.append((job, key))
        else:
            done.figures[(job.lesson, job.name)] = DrawnFigure(*saved, png=picture)
            stats.cached += 1
    stats.drawn = len(to_draw)
    drawing = Drawing(stats, done, to_draw, cache, pictures, font.family, page)
    drawing.start(jobs, start, {lesson.slug: lesson for lesson in computed})
    return drawing


def cached_figure(cache: Store, key: str) -> tuple[str, dict, dict] | None:
    """A drawn figure as the store keeps it: its SVG and beside it the numbers it plots (features.figdata) and its
    colours' dark counterparts (features.palette); None unless both entries are whole."""
    svg = cache.get_text(FIGURE_SVG, key)
    saved = cache.get_json(FIGURE_DATA, key) if svg is not None else None
    if not isinstance(saved, dict) or not isinstance(saved.get("data"), dict) \
            or not isinstance(saved.get("palette"), dict):
        return None
    return svg, saved["data"], saved["palette"]


def keep_figure(cache: Store, key: str, figure: DrawnFigure) -> None:
    cache.put_json(FIGURE_DATA, key, {"data": figure.data, "palette": figure.palette})
    cache.put_text(FIGURE_SVG, key, figure.svg)
    if figure.png is not None:
        cache.put_bytes(FIGURE_PNG, key, figure.png)


def figure_font(cache: Store | None):
    """The figures' font (support/font.py FontChoice): the one the store keeps, else found and kept."""
    font = saved_font(cache) if cache is not None else None
    if font is None:
        font = _font_choice()
        if cache is not None:
            keep_font(cache, font)
    return font


def cell_figure_style(cache: Store | None):
    """What a figure cell draws with (compute/cellrun.py), asked for when a cell first draws: the figures' style for
    the build's font, and a new figure's size and layout as FigureMaker makes them."""
    @functools.cache
    def rc() -> dict:
        from .figures import FigureMaker, style  # (only once a cell draws)

        return {**style(figure_font(cache).family), "figure.figsize": FigureMaker.subplots.__kwdefaults__["figsize"],
                "figure.constrained_layout.use": True}
    return rc


def _known_key(memo, engine: str, font, page: PageColors, job: FigureJob) -> str | None:
    """The figure's key as the lesson's memo of its values keeps it for this font and these page colours
    (compute/kept.py: its input values are then not read), else made from them and kept there."""
    if memo is None:
        return _key(engine, font, page, job)
    known = memo.figure_keys.setdefault(f"{engine}\0{font.family}\0{font.file}\0{tuple(font.stat)}\0"
                                        f"{page.light_bg}\0{page.dark_bg}\0{page.dark_fg}", {})
    if job.name not in known:
        key = _key(engine, font, page, job)
        if key is None:
            return None
        known[job.name] = key
    return known[job.name]


def _key(engine: str, font, page: PageColors, job: FigureJob) -> str | None:
    if job.files_digest is None:  # what it is drawn from could not be hashed (a figure cell's input): drawn anew
        return None
    inputs = list(job.args) + [[k, job.kwargs[k]] for k in sorted(job.kwargs)] + [["data", job.data]]
    inputs.append(["page colours", [page.light_bg, page.dark_bg, page.dark_fg]])  # what its dark colours depend on
    try:
        return figure_key(engine, job.files_digest, font, job.name, inputs)
    except Uncacheable:
        return None


def _font_choice():
    from .figures import FontMissing, font_choice
    try:
        return font_choice()
    except FontMissing as exc:
        raise UsageError(reason(exc)) from None


class Drawing:
    """Figures being drawn: by worker processes while the parent renders, then by the parent too, once its own work
    is done (so `jobs` processes draw, the parent one of them, and no core runs three at once). A figure or the
    author's problems come back (a single figure goes to a worker too, drawn while the parent renders). With one
    core (`--jobs 1`) or no way to start workers, the parent draws them all in `finish()`. How workers start:

      fork        (`build`) forked from the build, they inherit the jobs: nothing but an index goes out.
      forkserver  (`serve`, whose HTTP threads a fork would copy, perhaps holding a lock the child then waits on for
                  ever) forked from multiprocessing's fork server, a process started afresh and single-threaded,
                  with numpy and matplotlib imported once; each job goes out described (compute/run.py's
                  DescribedJob: lesson.py loaded again there, inputs pickled). A job whose inputs cannot be pickled,
                  or whose lesson.py changed meanwhile, is drawn by the parent.

    The bytes are the same either way (tests/test_cache.py, tests/test_serve.py)."""

    def __init__(self, stats: DrawStats, done: Drawn, to_draw: list[tuple[FigureJob, str | None]],
                 cache: Store, pictures: set[FigureKey], font: str | None, page: PageColors):
        self.stats, self.done, self.to_draw, self.cache, self.font = stats, done, to_draw, cache, font
        self.page = page  # the theme's page colours, which the figures' dark colours are computed against
        # each figure to draw, and whether it is wanted as PNG too: what workers inherit and the parent draws from
        self.jobs = [(job, (job.lesson, job.name) in pictures) for job, _ in to_draw]
        self.workers: list = []
        self.own: list[int] = []       # the figures only the parent can draw (not described: see DescribedJob)
        self.todo = None               # the figures' indices, taken by workers and parent alike; None: stop
        self.collector = None          # a thread reading the workers' results as they come (so no worker waits)
        self.results: list[tuple[int, tuple[str, Any]]] = []

    def start(self, jobs: int | None, start: str = "fork", lessons: dict[str, ComputedLesson] | None = None) -> None:
        if not self.to_draw:
            return
        import multiprocessing

        from .figures import preload
        preload()
        count = min((jobs or _cores()) - 1, len(self.to_draw))  # the parent draws as well, after rendering
        if count < 1 or start not in multiprocessing.get_all_start_methods():
            return
        context = multiprocessing.get_context(start)
        target, shared, indices = (_worker, self.jobs, list(range(len(self.jobs)))) if start == "fork" else \
            self._described(lessons)
        count = min(count, len(indices))
        if count < 1:
            self.own = []
            return
        if start == "forkserver":
            context.set_forkserver_preload(FORKSERVER_PRELOAD)  # (once: when the fork server starts)
        self.todo, results = context.SimpleQueue(), context.SimpleQueue()
        self.workers = [context.Process(target=target, args=(shared, self.font, self.todo, results),
                                        daemon=True)
                        for _ in range(count)]
        for worker in self.workers:
            worker.start()
        for i in indices:
            self.todo.put(i)
        for _ in range(count + 1):  # one stop for each worker and one for the parent
            self.todo.put(None)
        self.collector = threading.Thread(target=self._collect, args=(results, count), daemon=True)
        self.collector.start()

    def _described(self, lessons: dict[str, ComputedLesson]) -> tuple:
        """(worker, the jobs described, the indices workers may take): a job that cannot be described is the
        parent's (`own`)."""
        described = [describe(job, lessons[job.lesson], png) for job, png in self.jobs]
        self.own = [i for i, d in enumerate(described) if d is None]
        return _described_worker, described, [i for i, d in enumerate(described) if d is not None]

    def _collect(self, results, workers: int) -> None:
        while workers:
            index, result = results.get()
            if index is None:  # a worker found its stop
                workers -= 1
            else:
                self.results.append((index, result))

    def finish(self) -> Drawn:
        """Every figure, once the parent has drawn what the workers did not take and the workers are done; the
        author's problems of those that could not be drawn."""
        if not self.to_draw:
            return self.done
        # one index at a time (a worker takes the next while the parent draws): the parent's own first
        indices = itertools.chain(self.own, iter(self.todo.get, None)) if self.todo is not None else \
            range(len(self.to_draw))
        own = [(i, draw_job(self.jobs[i][0], self.font, self.jobs[i][1])) for i in indices]
        if self.collector is not None:
            while self.collector.is_alive():
                self.collector.join(WORKER_POLL_SECONDS)
                if self.collector.is_alive() and not any(worker.is_alive() for worker in self.workers):
                    self.collector.join(5)  # what the last worker wrote before it exited is still in the pipe
                    if self.collector.is_alive():
                        raise RuntimeError("the figure-drawing workers exited before every figure was drawn")
            self.collector = None
            self._close()
        stale = [i for i, (kind, _) in self.results if kind == "stale"]  # lesson.py changed under a described job
        own += [(i, draw_job(self.jobs[i][0], self.font, self.jobs[i][1])) for i in stale]
        self._store([r for r in self.results if r[1][0] != "stale"] + own)
        return self.done

    def _store(self, results: list[tuple[int, tuple[str, Any]]]) -> None:
        results = with_palettes(sorted(results, key=lambda r: r[0]), self.page)
        for i, (kind, result) in results:
            job, key = self.to_draw[i]
            if kind == "bug":
                raise RuntimeError(f"drawing figure `{job.name}` of `{job.lesson}` failed in a worker:\n{result}")
            if kind == "problems":
                self.done.problems += result
                continue
            self.done.figures[(job.lesson, job.name)] = result
            if key:
                keep_figure(self.cache, key, result)

    def _close(self) -> None:
        for worker in self.workers:
            worker.join(5)
            if worker.is_alive():
                worker.terminate()
        self.workers = []

    def __enter__(self) -> "Drawing":
        return self

    def __exit__(self, *exc) -> None:
        for worker in self.workers:
            worker.terminate()
        self._close()


def _cores() -> int:
    import os
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _worker(jobs: list[tuple[FigureJob, bool]], font: str, todo, results) -> None:
    """A forked process: draw the jobs (each with: also as PNG?) whose index arrives until None does."""
    for index in iter(todo.get, None):
        job, png = jobs[index]
        try:
            results.put((index, draw_job(job, font, png)))
        except BaseException:  # our bug: its traceback goes to the parent, which raises it
            results.put((index, ("bug", _this_traceback())))
    results.put((None, None))  # this worker is done


def _this_traceback() -> str:
    import traceback  # (imported where it is needed: a build that draws nothing does not)

    return traceback.format_exc()


def _described_worker(described: list[DescribedJob | None], font: str, todo, results) -> None:
    """A process from the fork server: draw the described jobs whose index arrives until None does ("stale": the
    job's lesson.py changed since the build read it, so the build draws it)."""
    for index in iter(todo.get, None):
        try:
            job = job_from(described[index])
            results.put((index, ("stale", None) if job is None else draw_job(job, font, described[index].png)))
        except BaseException:  # our bug: its traceback goes to the parent, which raises it
            results.put((index, ("bug", _this_traceback())))
    results.put((None, None))  # this worker is done


def with_palettes(results: list[tuple[int, tuple[str, Any]]], page: PageColors) -> list[tuple[int, tuple[str, Any]]]:
    """Each drawn figure with its colours' dark counterparts against the `page` colours, computed for every figure
    of the build at once (one batch costs about what one figure's colours alone do: the computation is a fixed
    number of array steps)."""
    from ..features.palette import dark_palette, figure_colors

    drawn = [(i, figure, figure_colors(figure.svg)) for i, (kind, figure) in results if kind == "figure"]
    palette = dark_palette({c for _, _, colors in drawn for c in colors}, page)
    completed = {i: ("figure", figure._replace(palette={c: palette[c] for c in colors})) for i, figure, colors in drawn}
    return [(i, completed.get(i, result)) for i, result in results]


def draw_job(job: FigureJob, font: str, png: bool = False) -> tuple[str, Any]:
    """("figure", DrawnFigure without its palette: with_palettes adds it) or ("problems", [Problem…]): the
    author's errors travel back as data."""
    from .figures import draw_figure_files

    try:
        args = copy.deepcopy(list(job.args))  # a figure may not change values
        kwargs = copy.deepcopy(job.kwargs)
        func = job.func if not kwargs else (lambda plt, *a: job.func(plt, *a, **kwargs))
        with in_lesson_folder(job.path):
            svg, data, picture = draw_figure_files(job.name, func, args, font, job.path, job.line, png=png)
    except ContentError as err:
        return "problems", err.problems
    data = job.data if job.data is not None else data  # a table the lesson handed (`data=`) says what matters
    return "figure", DrawnFigure(svg, data, {}, picture)
