"""The build: load → validate → compute → render → write. Each stage hands plain data to the next."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from . import markup
from .compute import Lesson, compute_values, call_author_code, inputs_for, load_lesson_module
from .content import LessonSource, find_lessons, load_lesson
from .errors import ContentError, Problem, UsageError
from .budget import Budget, check_budget, load_budget, page_sizes
from .cache import FigureCache, Uncacheable, engine_digest, figure_key, lesson_files_digest, values_key
from .render import json_for_script, make_env, read_asset, theme_dirs, theme_problem, use_bytecode_cache
from .output import write_site

SITE_TITLE = "计算型课堂讲义"


@dataclass
class Options:
    content: Path
    out: Path
    themes: Path
    theme: str = "default"
    lesson: str | None = None
    cache: Path | None = None       # figure cache folder; None draws every figure
    jobs: int | None = None         # processes drawing figures; None: one per core


@dataclass
class ComputedLesson:
    source: LessonSource
    values: dict[str, Any]
    figures: dict[str, str]          # name → SVG markup
    widgets: dict[str, dict]         # name → {"template", "data"}
    registry: Lesson
    files_digest: str | None = None  # hash of lesson.py and the lesson's data files, when caching


@dataclass
class FigureStats:
    font: str | None = None
    drawn: int = 0
    cached: int = 0


@dataclass
class BuildReport:
    pages: dict[str, bytes]
    font: str | None
    figures: int
    seconds: float = 0.0
    sizes: dict[str, int] = field(default_factory=dict)
    gzip_sizes: dict[str, int] = field(default_factory=dict)
    figures_drawn: int = 0
    figures_cached: int = 0
    budget: Budget | None = None


def build(options: Options) -> BuildReport:
    started = time.perf_counter()
    sources = load_sources(options.content, options.lesson)
    dirs = theme_dirs(options.themes, options.theme)
    budget = load_budget(options.content)
    cache = FigureCache(options.cache)
    computed, stats, drawing = compute_all(sources, cache, options.jobs)
    use_bytecode_cache(options.cache / "templates" if options.cache else None)
    markup.MATHML_MEMO = cache.get_math()
    known_math = len(markup.MATHML_MEMO)
    with drawing:  # figures still being drawn in worker processes go into the pages once they are done
        try:
            pages = render_site(computed, dirs)
        except ContentError as err:
            drawing.fail(err.problems)
        pages = drawing.fill(pages)
    if len(markup.MATHML_MEMO) > known_math:
        cache.put_math(markup.MATHML_MEMO)
    sizes, gzip_sizes = page_sizes(pages)
    check_budget(sizes, gzip_sizes, budget)
    write_site(pages, options.out)
    report = BuildReport(pages, stats.font, stats.drawn + stats.cached, sizes=sizes, gzip_sizes=gzip_sizes,
                         figures_drawn=stats.drawn, figures_cached=stats.cached, budget=budget)
    report.seconds = time.perf_counter() - started
    return report


# ── load ────────────────────────────────────────────────────────────────────────────────────────────────────────────
def load_sources(content_dir: Path, only: str | None) -> list[LessonSource]:
    if not content_dir.is_dir():
        raise UsageError(f"content folder {content_dir} does not exist")
    folders = find_lessons(content_dir)
    if only is not None:
        folders = [f for f in folders if f.name == only]
        if not folders:
            raise UsageError(f"no lesson `{only}` in {content_dir} (lessons: "
                             f"{', '.join(f.name for f in find_lessons(content_dir)) or 'none'})")
    if not folders:
        raise UsageError(f"no lessons in {content_dir}: a lesson is a folder with lesson.yaml and lesson.md")
    problems: list[Problem] = []
    sources = []
    for folder in folders:
        try:
            sources.append(load_lesson(folder))
        except ContentError as err:
            problems += err.problems
    if problems:
        raise ContentError(problems)
    return sources


# ── compute ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def compute_all(sources: list[LessonSource], cache: FigureCache | None = None,
                jobs: int | None = None) -> tuple[list[ComputedLesson], FigureStats, Drawing]:
    """Values (from the cache when the lesson's code is unchanged), widget data, then figures.

    When some lesson with figures must be computed afresh, its figures must be drawn too (both are keyed by the
    lesson's code), so worker processes are forked before computing: they import matplotlib while we compute."""
    cache = cache or FigureCache(None)
    problems: list[Problem] = []
    loaded = []
    for source in sources:
        try:
            loaded.append(load_lesson_code(source, cache))
        except ContentError as err:
            problems += err.problems
    if problems:
        raise ContentError(problems)
    drawing = Drawing(cache, jobs, [(registry, source.code_path) for source, registry, _, _ in loaded])
    if any(registry.figures and saved is None for _, registry, _, saved in loaded):
        drawing.start_workers(sum(len(registry.figures) for _, registry, _, _ in loaded))
    computed = []
    with drawing.closing_on_error():
        for source, registry, files, saved in loaded:
            try:
                computed.append(compute_lesson(source, registry, files, saved, cache))
            except ContentError as err:
                problems += err.problems
        if problems:
            raise ContentError(problems)
        stats = draw_all_figures(computed, cache, drawing)
    return computed, stats, drawing


def load_lesson_code(source: LessonSource, cache: FigureCache) -> tuple[LessonSource, Lesson, str | None, Any]:
    """(source, registry, hash of its code and data files, values saved by an earlier build or None)."""
    registry = load_lesson_module(source.code_path) if source.code_path else Lesson()
    files = lesson_files_digest(source.folder) if cache.enabled else None
    saved = cache.get_values(values_key(files)) if files else None
    return source, registry, files, saved if isinstance(saved, tuple) and len(saved) == 2 else None


def compute_lesson(source: LessonSource, registry: Lesson, files: str | None, saved: Any,
                   cache: FigureCache) -> ComputedLesson:
    path = source.code_path or source.folder / "lesson.py"
    if saved is not None:
        values, widgets = saved
    else:
        values = compute_values(registry, path)
        widgets = {}
        for name, spec in registry.widgets.items():
            args = inputs_for(spec.inputs, values, path, name, spec.func.__code__.co_firstlineno)
            widgets[name] = {"template": spec.template, "data": _plain(call_author_code(spec.func, args, path))}
        if files:
            cache.put_values(values_key(files), (values, widgets))
    return ComputedLesson(source, values, {}, widgets, registry, files)


def draw_all_figures(computed: list[ComputedLesson], cache: FigureCache, drawing: Drawing) -> FigureStats:
    """Take every figure whose key is in the cache from there; start drawing the rest.
    Matplotlib is imported only when something must be drawn or the installed fonts changed."""
    if not any(c.registry.figures for c in computed):
        return FigureStats()
    font = cache.font()
    if font is None:
        font = drawing.font_choice()
        cache.put_font(font)
    engine = engine_digest()
    stats = FigureStats(font=font.family)
    to_draw: list[tuple[int, ComputedLesson, str, str | None]] = []
    for index, lesson in enumerate(computed):
        if not lesson.registry.figures:
            continue
        files = lesson.files_digest or lesson_files_digest(lesson.source.folder)
        for name, spec in lesson.registry.figures.items():
            args = inputs_for(spec.inputs, lesson.values, lesson.source.code_path, name, spec.func.__code__.co_firstlineno)
            try:
                key = figure_key(engine, files, font, name, args) if cache.enabled else None
            except Uncacheable:
                key = None
            svg = cache.get(key) if key else None
            if svg is None:
                to_draw.append((index, lesson, name, key))
            else:
                lesson.figures[name] = svg
                stats.cached += 1
    stats.drawn = len(to_draw)
    drawing.draw(to_draw, font.family)
    for lesson in computed:  # registry order, whichever way each figure arrived
        lesson.figures = {name: lesson.figures[name] for name in lesson.registry.figures}
    return stats


_REGISTRIES: list[tuple[Lesson, Path | None]] = []  # (registry, lesson.py) per lesson, inherited by forked workers


class Drawing:
    """Draws figures. With one figure or one core, at once in this process. Otherwise in forked worker processes
    while this one computes values and renders the pages around placeholders; `fill` puts each SVG in its place.
    Workers inherit the lesson modules; a figure's name and input values go out, its SVG (or the author's problems)
    comes back. The bytes are the same either way (tests/test_cache.py)."""

    def __init__(self, cache: FigureCache | None, jobs: int | None, registries: list[tuple[Lesson, Path | None]]):
        self.cache, self.jobs, self.registries = cache, jobs, registries
        self.pool = None
        self.tasks: list[tuple[int, ComputedLesson, str, str | None]] = []
        self.futures: list = []
        self.nonce = __import__("secrets").token_hex(8)  # no author's text can spell a placeholder by accident

    def start_workers(self, figures: int) -> None:
        """Fork the workers now if there will be several figures and cores; they import matplotlib meanwhile."""
        import multiprocessing

        workers = min(self.jobs or _cores(), figures)
        if self.pool is not None or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return
        from concurrent.futures import ProcessPoolExecutor

        _REGISTRIES[:] = self.registries
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                        initializer=_warm_worker)
        for _ in range(workers):  # every worker forks now, before this process starts any thread of its own
            self.pool.submit(_warm_worker)

    def font_choice(self):
        if self.pool is None:
            return _font_choice()
        kind, result = self.pool.submit(_font_choice_in_worker).result()
        if kind == "missing":
            raise UsageError(result)
        return result

    def draw(self, tasks: list[tuple[int, ComputedLesson, str, str | None]], font: str) -> None:
        self.tasks, self.font = tasks, font
        if not tasks:
            self.close()
            return
        self.start_workers(len(tasks))
        if self.pool is None:
            self._store([_draw_with(self.registries[i], name, _figure_args(lesson, name), font)
                         for i, lesson, name, _ in tasks])
            return
        from concurrent.futures import Future

        self.futures = []
        for i, lesson, name, _ in tasks:
            args = _figure_args(lesson, name)
            if _picklable(args):
                self.futures.append(self.pool.submit(_draw_in_worker, i, name, args, font))
            else:  # e.g. a function as a value: cannot travel to a worker, so draw it here
                self.futures.append(Future())
                self.futures[-1].set_result(_draw_with(self.registries[i], name, args, font))
        for n, (_, lesson, name, _) in enumerate(tasks):
            lesson.figures[name] = self._placeholder(n)

    def _placeholder(self, n: int) -> str:
        return f"<!--lessonkit-figure-{self.nonce}-{n}-->"

    def _store(self, results: list[tuple[str, Any]]) -> None:
        """Cache and place the SVGs; the author's problems, if any, all at once."""
        problems = [p for kind, result in results if kind == "problems" for p in result]
        if problems:
            raise ContentError(problems)
        for (_, lesson, name, key), (_, svg) in zip(self.tasks, results):
            lesson.figures[name] = svg
            if key and self.cache is not None:
                self.cache.put(key, svg)

    def fill(self, pages: dict[str, bytes]) -> dict[str, bytes]:
        if not self.futures:
            return pages
        self._store([future.result() for future in self.futures])
        for n, (_, lesson, name, _) in enumerate(self.tasks):
            placeholder, svg = self._placeholder(n).encode(), lesson.figures[name].encode("utf-8")
            pages = {page: data.replace(placeholder, svg) for page, data in pages.items()}
        return pages

    def fail(self, problems: list[Problem]) -> None:
        """Rendering found problems: report them together with the figures' own."""
        results = [f.result() for f in self.futures]
        raise ContentError(problems + [p for kind, result in results if kind == "problems" for p in result])

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def closing_on_error(self):
        import contextlib

        @contextlib.contextmanager
        def guard():
            try:
                yield
            except BaseException:
                self.close()
                raise
        return guard()

    def __enter__(self) -> "Drawing":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _cores() -> int:
    import os
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _font_choice():
    from .figures import FontMissing, font_choice
    try:
        return font_choice()
    except FontMissing as exc:
        raise UsageError(str(exc)) from None


_WORKER_FONT: list[tuple[str, Any]] = []  # in a worker: its font choice, made while the parent computes values


def _warm_worker() -> None:
    from .figures import FontMissing, font_choice, preload

    preload()
    if not _WORKER_FONT:
        try:
            _WORKER_FONT.append(("font", font_choice()))
        except FontMissing as exc:
            _WORKER_FONT.append(("missing", str(exc)))


def _font_choice_in_worker() -> tuple[str, Any]:
    _warm_worker()
    return _WORKER_FONT[0]


def _figure_args(lesson: ComputedLesson, name: str) -> list[Any]:
    spec = lesson.registry.figures[name]
    return inputs_for(spec.inputs, lesson.values, lesson.source.code_path, name, spec.func.__code__.co_firstlineno)


def _picklable(data: Any) -> bool:
    import pickle
    try:
        pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return False
    return True


def _draw_in_worker(index: int, name: str, args: list[Any], font: str) -> tuple[str, Any]:
    return _draw_with(_REGISTRIES[index], name, args, font)


def _draw_with(lesson_code: tuple[Lesson, Path | None], name: str, args: list[Any], font: str) -> tuple[str, Any]:
    """("svg", markup) or ("problems", [Problem…]): the author's errors travel back from a worker as data."""
    from .figures import draw_svg, preload

    preload()
    registry, path = lesson_code
    spec = registry.figures[name]
    try:
        return "svg", draw_svg(name, spec.func, args, font, path, spec.func.__code__.co_firstlineno)
    except ContentError as err:
        return "problems", err.problems


def _plain(data: Any) -> Any:
    """numpy arrays and scalars → lists and Python numbers, so widget data is JSON."""
    if hasattr(data, "tolist"):
        return data.tolist()
    if isinstance(data, dict):
        return {str(k): _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data


# ── render ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def render_site(computed: list[ComputedLesson], dirs: list[Path]) -> dict[str, bytes]:
    try:
        return _render_site(computed, dirs)
    except (jinja2.UndefinedError, jinja2.TemplateSyntaxError, jinja2.TemplateNotFound) as exc:
        raise theme_problem(exc) from None


def _render_site(computed: list[ComputedLesson], dirs: list[Path]) -> dict[str, bytes]:
    env = make_env(dirs)
    assets = {"css": read_asset(dirs, "style.css"), "js": read_asset(dirs, "lesson.js")}
    pages: dict[str, bytes] = {}
    problems: list[Problem] = []
    entries = []
    for lesson in sorted(computed, key=lambda c: (c.source.meta.get("order", 10**6), c.source.slug)):
        try:
            context = lesson_context(lesson, env)
        except ContentError as err:
            problems += err.problems
            continue
        html = env.get_template("lesson.html").render(lesson=context, site={"title": SITE_TITLE}, assets=assets, root="../")
        pages[f"{lesson.source.slug}/index.html"] = html.encode("utf-8")
        entries.append({"slug": lesson.source.slug, "title": context["title"], "summary": context["summary"],
                        "url": f"{lesson.source.slug}/index.html"})
    if problems:
        raise ContentError(problems)
    index = env.get_template("index.html").render(lessons=entries, site={"title": SITE_TITLE}, assets=assets, root="")
    pages["index.html"] = index.encode("utf-8")
    pages[".nojekyll"] = b""
    return pages


def lesson_context(lesson: ComputedLesson, env) -> dict[str, Any]:
    """Everything lesson.html displays, rendered to HTML strings."""
    src = lesson.source
    placed_figures = _placement_order(src)
    ctx = markup.MarkupContext(
        values=lesson.values,
        figure_numbers={name: i + 1 for i, name in enumerate(placed_figures)},
        place_figure=lambda name: _figure_html(lesson, name, ctx, env, placed_figures),
        place_widget=lambda name: _widget_html(lesson, name, env),
        render_callout=lambda kind, title, body: env.get_template("partials/callout.html").render(
            callout={"kind": kind, "title": title, "body": body}),
    )
    meta, lines, meta_path = src.meta, src.meta_lines, src.meta_path

    def md(key: str, text: str, inline: bool = False) -> str:
        render = markup.render_inline if inline else markup.render_block
        return render(text, ctx, meta_path, lines.get(key, 1))

    sections = [{"id": s.id, "number": n, "title": markup.render_inline(s.title, ctx, src.body_path, s.line),
                 "body": markup.render_block(s.body, ctx, src.body_path, s.line + 1)}
                for n, s in enumerate(src.sections, start=1)]
    context = {
        "slug": src.slug,
        "title": meta["title"],
        "summary": meta["summary"],
        "intro": md("intro", meta.get("intro") or ""),
        "objectives": [md(f"objectives.{i}", o, inline=True) for i, o in enumerate(meta["objectives"])],
        "question": md("question", meta.get("question") or ""),
        "sections": sections,
        "challenges": [{"id": f"challenge-{n}", "number": n, "title": c["title"],
                        "question": md(f"challenges.{n - 1}.question", c["question"]),
                        "answer": md(f"challenges.{n - 1}.answer", c["answer"])}
                       for n, c in enumerate(meta.get("challenges") or [], start=1)],
        "sources": [md(f"sources.{i}", s, inline=True) for i, s in enumerate(meta.get("sources") or [])],
        "figures_count": len(placed_figures),
    }
    for name in sorted(set(lesson.registry.figures) - set(placed_figures)):
        ctx.problems.append(Problem(src.body_path, None, f"figure `{name}` is defined in lesson.py but never placed",
                                    f"a line `{{{{< figure {name} >}}}}` in lesson.md"))
    if ctx.problems:
        raise ContentError(ctx.problems)
    return context


def _placement_order(src: LessonSource) -> list[str]:
    names = []
    for section in src.sections:
        for line in section.body.splitlines():
            m = markup.DIRECTIVE.match(line)
            if m and m.group(1) == "figure" and m.group(2) not in names:
                names.append(m.group(2))
    return names


def _figure_html(lesson: ComputedLesson, name: str, ctx, env, placed: list[str]) -> str:
    if name not in lesson.figures:
        raise KeyError(f"a figure defined with @lesson.figure in lesson.py: {', '.join(sorted(lesson.figures)) or 'none'}")
    spec = lesson.registry.figures[name]
    path = lesson.source.code_path
    line = spec.func.__code__.co_firstlineno
    figure = {
        "id": f"fig-{name}",
        "name": name,
        "number": placed.index(name) + 1,
        "caption": markup.render_inline(spec.caption, ctx, path, line),
        "alt": markup.render_text(spec.alt, ctx, path, line),
        "svg": lesson.figures[name],
    }
    return env.get_template("partials/figure.html").render(figure=figure)


def _widget_html(lesson: ComputedLesson, name: str, env) -> str:
    if name not in lesson.widgets:
        raise KeyError(f"a widget defined with @lesson.widget in lesson.py: {', '.join(sorted(lesson.widgets)) or 'none'}")
    widget = lesson.widgets[name]
    try:
        template = env.get_template(f"widgets/{widget['template']}.html")
    except jinja2.TemplateNotFound:
        raise KeyError(f"a template widgets/{widget['template']}.html in the theme") from None
    context = {"id": f"widget-{name}", "name": name, "data": widget["data"], "json": json_for_script(widget["data"])}
    return template.render(widget=context)
