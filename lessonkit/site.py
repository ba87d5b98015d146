"""The build: load → validate → compute → render → write. Each stage hands plain data to the next."""
from __future__ import annotations

import copy
import dataclasses
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from . import csp as content_security
from . import figdata, markup
from .budget import Budget, check_budget, page_sizes
from .cache import FigureCache, Uncacheable, engine_digest, figure_key, lesson_files_digest, values_key
from .compute import Lesson, compute_values, call_author_code, inputs_for, load_lesson_module
from .content import FENCE, LessonSource, find_lessons, read_lesson
from .errors import ContentError, Problem, UsageError
from .output import write_site
from .selfcheck import CheckBuilder
from .siteconfig import SiteConfig, load_site_config
from .render import json_for_script, make_env, read_asset, theme_dirs, theme_problem, use_bytecode_cache

BLOCK_TEMPLATES = {"cards": "partials/cards.html", "card": "partials/card.html"}  # other ::: kinds are callouts


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
    figure_data: dict[str, dict] = field(default_factory=dict)  # name → what the figure plots (lessonkit.figdata)


@dataclass
class FigureStats:
    font: str | None = None
    drawn: int = 0
    cached: int = 0


@dataclass
class BuildReport:
    pages: dict[str, bytes]
    font: str | None
    seconds: float = 0.0
    sizes: dict[str, int] = field(default_factory=dict)
    gzip_sizes: dict[str, int] = field(default_factory=dict)
    figures_drawn: int = 0
    figures_cached: int = 0
    budget: Budget | None = None


def build(options: Options) -> BuildReport:
    """Every stage runs as far as the content allows, so one run lists the problems of every lesson and every
    stage (reading, lesson code, figures, Markdown); only a build without problems writes anything."""
    started = time.perf_counter()
    problems: list[Problem] = []
    sources = load_sources(options.content, options.lesson, problems)
    dirs = theme_dirs(options.themes, options.theme)
    config = load_site_config(options.content, problems)
    cache = FigureCache(options.cache)
    computed, stats, drawing = compute_all(sources, cache, options.jobs, problems)
    use_bytecode_cache(options.cache / "templates" if options.cache else None)
    markup.MATHML_MEMO = cache.get_math()
    known_math = len(markup.MATHML_MEMO)
    with drawing:  # figures still being drawn in worker processes go into the pages once they are done
        pages = render_site(computed, dirs, config, problems)
        problems += drawing.wait()
        if problems:
            raise ContentError(by_lesson(problems, options.content))
        pages = drawing.fill(pages, dirs)
    if len(markup.MATHML_MEMO) > known_math:
        cache.put_math(markup.MATHML_MEMO)
    sizes, gzip_sizes = page_sizes(pages)
    check_budget(sizes, gzip_sizes, config.budget)
    write_site(pages, options.out)
    report = BuildReport(pages, stats.font, sizes=sizes, gzip_sizes=gzip_sizes,
                         figures_drawn=stats.drawn, figures_cached=stats.cached, budget=config.budget)
    report.seconds = time.perf_counter() - started
    return report


def by_lesson(problems: list[Problem], content_dir: Path) -> list[Problem]:
    """Lesson by lesson; within a lesson, file by file in the order first met (lesson.yaml, lesson.md, lesson.py),
    then by line."""
    files = {str(p.path): i for i, p in reversed(list(enumerate(problems)))}

    def key(problem: Problem) -> tuple:
        try:
            lesson = Path(problem.path).relative_to(content_dir).parts[0]
        except (ValueError, IndexError):
            lesson = ""
        return lesson, files[str(problem.path)], problem.line or 0
    return sorted(problems, key=key)


# ── load ────────────────────────────────────────────────────────────────────────────────────────────────────────────
def load_sources(content_dir: Path, only: str | None, problems: list[Problem]) -> list[LessonSource]:
    """Every lesson folder, read as far as possible; their problems are added to `problems`."""
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
    sources = [read_lesson(folder) for folder in folders]
    problems += [p for s in sources for p in s.problems]
    return sources


# ── compute ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def compute_all(sources: list[LessonSource], cache: FigureCache, jobs: int | None,
                problems: list[Problem]) -> tuple[list[ComputedLesson], FigureStats, "Drawing"]:
    """Run each lesson's code. A lesson whose values cannot be computed is left out (its Markdown would only
    report every value as unknown); a failing widget or figure is reported and the rest still run."""
    computed = []
    for source in sources:
        if not source.code_readable:
            continue
        try:
            computed.append(compute_lesson(source, problems, cache))
        except ContentError as err:
            problems += err.problems
    if not any(c.registry.figures for c in computed):
        return computed, FigureStats(), Drawing([], "", 1, None)
    return computed, *draw_all_figures(computed, cache, jobs, problems)


def compute_lesson(source: LessonSource, problems: list[Problem], cache: FigureCache | None = None) -> ComputedLesson:
    """Values and widget data, from the cache when lesson.py and its data files are unchanged."""
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
            cache.put_values(values_key(files), (values, widgets))
    return ComputedLesson(source, values, {}, widgets, registry, files)


def compute_widgets(registry: Lesson, values: dict[str, Any], path: Path, problems: list[Problem]) -> dict[str, dict]:
    widgets = {}
    for name, spec in registry.widgets.items():
        line = spec.func.__code__.co_firstlineno
        try:
            args = copy.deepcopy(inputs_for(spec.inputs, values, path, name, line))  # nor may a widget
            data = _plain(call_author_code(spec.func, args, path))
            json_for_script(data)
        except ContentError as err:
            problems += err.problems
            continue
        except ValueError:  # json refuses NaN and ∞, which the page's script could not read
            problems.append(Problem(path, line, f"widget `{name}` returned data containing NaN or ∞",
                                    "finite numbers (or None for a gap)"))
            continue
        except TypeError as exc:  # an object JSON cannot hold
            problems.append(Problem(path, line, f"widget `{name}` returned data that is not plain JSON: {exc}",
                                    "lists, dicts, strings and finite numbers"))
            continue
        widgets[name] = {"template": spec.template, "data": data}
    return widgets


def draw_all_figures(computed: list[ComputedLesson], cache: FigureCache, jobs: int | None,
                     problems: list[Problem]) -> tuple[FigureStats, "Drawing"]:
    """Take every figure whose key is in the cache from there; start drawing the rest (across cores).
    Matplotlib is imported only when something must be drawn or the installed fonts changed."""
    font = cache.font()
    if font is None:
        font = _font_choice()
        cache.put_font(font)
    engine = engine_digest()
    stats = FigureStats(font=font.family)
    to_draw: list[tuple[ComputedLesson, str, str | None]] = []
    for lesson in computed:
        if not lesson.registry.figures:
            continue
        files = lesson.files_digest if cache.enabled else None
        for name, spec in lesson.registry.figures.items():
            try:
                args = inputs_for(spec.inputs, lesson.values, lesson.source.code_path, name,
                                  spec.func.__code__.co_firstlineno)
            except ContentError as err:
                problems += err.problems
                continue
            try:
                key = figure_key(engine, files, font, name, args) if cache.enabled else None
            except Uncacheable:
                key = None
            svg = cache.get(key) if key else None
            data = cache.get_data(key) if svg is not None else None
            if svg is None or data is None:
                to_draw.append((lesson, name, key))
            else:
                lesson.figures[name], lesson.figure_data[name] = svg, data
                stats.cached += 1
    stats.drawn = len(to_draw)
    drawing = Drawing(to_draw, font.family, jobs, cache)
    for lesson in computed:  # registry order, whichever way each figure arrived
        lesson.figures = {name: lesson.figures[name] for name in lesson.registry.figures if name in lesson.figures}
    return stats, drawing


def _font_choice():
    from .figures import FontMissing, font_choice
    try:
        return font_choice()
    except FontMissing as exc:
        raise UsageError(str(exc)) from None


_DRAW_TASKS: tuple[list[tuple[ComputedLesson, str, str | None]], str] | None = None  # read by forked workers


class Drawing:
    """Figures to draw. With one figure or one core they are drawn at once. Otherwise forked worker processes draw
    them while the parent renders the pages around placeholders; `wait` collects them and `fill` puts each SVG
    in its place.
    Workers inherit the lessons in memory: only an index goes out and an SVG (or the author's problems) comes back.
    The bytes are the same either way (tests/test_cache.py)."""

    def __init__(self, tasks: list[tuple[ComputedLesson, str, str | None]], font: str, jobs: int | None,
                 cache: FigureCache | None):
        self.tasks, self.font, self.cache = tasks, font, cache
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
            self.problems = self._store([_draw_one(lesson, name, font) for lesson, name, _ in tasks])

    def _start(self, workers: int, context) -> None:
        global _DRAW_TASKS
        from concurrent.futures import ProcessPoolExecutor

        _DRAW_TASKS = (self.tasks, self.font)  # workers fork at the first submit and keep their copy
        self.pool = ProcessPoolExecutor(workers, mp_context=context)
        self.futures = [self.pool.submit(_draw_task, i) for i in range(len(self.tasks))]
        _DRAW_TASKS = None
        for i, (lesson, name, _) in enumerate(self.tasks):
            lesson.figures[name] = self._placeholder(i)
            lesson.figure_data[name] = {"placeholder": self._placeholder(i, "figdata")}

    def _placeholder(self, index: int, kind: str = "figure") -> str:
        return f"<!--lessonkit-{kind}-{self.nonce}-{index}-->"

    def _store(self, results: list[tuple[str, Any]]) -> list[Problem]:
        """Cache and place the SVGs; return the author's problems."""
        problems = []
        for (lesson, name, key), (kind, result) in zip(self.tasks, results):
            if kind == "problems":
                problems += result
                continue
            pending = lesson.figure_data.get(name) or {}
            lesson.figures[name], data = result
            lesson.figure_data[name] = {**data, "figure": pending["figure"]} if "figure" in pending else data
            if key and self.cache is not None:
                self.cache.put(key, *result)
        return problems

    def wait(self) -> list[Problem]:
        """Wait for the workers; the problems of every figure that could not be drawn."""
        if self.pool is not None:
            self.problems = self._store([future.result() for future in self.futures])
        return self.problems

    def fill(self, pages: dict[str, bytes], dirs: list[Path]) -> dict[str, bytes]:
        """Put each worker-drawn SVG, and the table of its data, where their placeholders stand (after `wait`)."""
        if self.pool is None:
            return pages
        env = make_env(dirs)
        for i, (lesson, name, _) in enumerate(self.tasks):
            placeholder, svg = self._placeholder(i).encode(), lesson.figures[name].encode("utf-8")
            data = lesson.figure_data.get(name) or {}
            table = _figure_data_html(env, data["figure"], data).encode("utf-8") if "figure" in data else b""
            pages = {page: content.replace(placeholder, svg).replace(self._placeholder(i, "figdata").encode(), table)
                     for page, content in pages.items()}
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
    lesson, name, _ = tasks[index]
    return _draw_one(lesson, name, font)


def _draw_one(lesson: ComputedLesson, name: str, font: str) -> tuple[str, Any]:
    """("svg", markup) or ("problems", [Problem…]): the author's errors travel back from a worker as data."""
    from .figures import draw_figure

    spec = lesson.registry.figures[name]
    path = lesson.source.code_path
    line = spec.func.__code__.co_firstlineno
    try:
        args = copy.deepcopy(inputs_for(spec.inputs, lesson.values, path, name, line))  # a figure may not change values
        return "svg", draw_figure(name, spec.func, args, font, path, line)
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
def render_site(computed: list[ComputedLesson], dirs: list[Path], config: SiteConfig,
                problems: list[Problem]) -> dict[str, bytes]:
    try:
        return _render_site(computed, dirs, config, problems)
    except (jinja2.UndefinedError, jinja2.TemplateSyntaxError, jinja2.TemplateNotFound) as exc:
        raise theme_problem(exc) from None


def _render_site(computed: list[ComputedLesson], dirs: list[Path], config: SiteConfig,
                 problems: list[Problem]) -> dict[str, bytes]:
    env = make_env(dirs)
    assets = {"css": read_asset(dirs, "style.css"), "js": read_asset(dirs, "lesson.js")}
    common = {"site": {"title": config.title, "description": config.description}, "assets": assets,
              "csp": content_security.policy(scripts=[assets["js"]], styles=[assets["css"]])}
    pages: dict[str, bytes] = {}
    entries = []
    for lesson in sorted(computed, key=lambda c: (_order(c.source.meta), c.source.slug)):
        try:
            context = lesson_context(lesson, env)
        except ContentError as err:
            problems += err.problems
            continue
        if lesson.source.problems:  # its Markdown was checked; a lesson.yaml with problems cannot fill the page
            continue
        html = env.get_template("lesson.html").render(lesson=context, root="../", **common)
        pages[f"{lesson.source.slug}/index.html"] = _checked(html, "lesson.html", common["csp"])
        entries.append({"slug": lesson.source.slug, "title": context["title"], "summary": context["summary"],
                        "url": f"{lesson.source.slug}/index.html"})
    index = env.get_template("index.html").render(lessons=entries, root="", **common)
    pages["index.html"] = _checked(index, "index.html", common["csp"])
    pages[".nojekyll"] = b""
    return pages


def _order(meta: dict[str, Any]) -> int:
    order = meta.get("order")
    return order if isinstance(order, int) else 10**6


def _checked(page: str, template: str, csp: str) -> bytes:
    """A page the browser would partly block is the theme's mistake: say so rather than ship it."""
    blocked = content_security.violations(page, csp)
    if blocked:
        raise UsageError(f"the theme's {template} makes a page its Content-Security-Policy would break: "
                         + "; ".join(dict.fromkeys(blocked)) + " (inline code belongs in assets/lesson.js and "
                         "assets/style.css, whose hashes the policy lists)")
    return page.encode("utf-8")


def lesson_context(lesson: ComputedLesson, env) -> dict[str, Any]:
    """Everything lesson.html displays, rendered to HTML strings. Fields lesson.yaml got wrong (already reported)
    are left out, so the Markdown of the rest is still checked."""
    src = lesson.source
    placed_figures, placement_problems = _placement_order(src)
    placed_widgets: set[str] = set()
    ctx = markup.MarkupContext(
        values=lesson.values,
        figure_numbers={name: i + 1 for i, name in enumerate(placed_figures)},
        place_figure=lambda name: _figure_html(lesson, name, ctx, env, placed_figures),
        place_widget=lambda name: _widget_html(lesson, name, env, placed_widgets),
        render_callout=lambda kind, title, body: env.get_template(BLOCK_TEMPLATES.get(kind, "partials/callout.html"))
        .render(callout={"kind": kind, "title": title, "body": body}),
    )
    ctx.problems += placement_problems
    meta, lines, meta_path = src.meta, src.meta_lines, src.meta_path
    yaml_ctx = dataclasses.replace(ctx, place_figure=_not_in_yaml)  # same values and problem list

    def md(key: str, text: str, inline: bool = False) -> str:
        render = markup.render_inline if inline else markup.render_block
        return render(text, yaml_ctx, meta_path, lines.get(key, 1))

    def text(key: str) -> str:
        return meta.get(key) if isinstance(meta.get(key), str) else ""

    def texts(key: str) -> list[tuple[int, str]]:
        items = meta.get(key) if isinstance(meta.get(key), list) else []
        return [(i, item) for i, item in enumerate(items) if isinstance(item, str)]

    challenges = [c if isinstance(c, dict) else {} for c in (meta.get("challenges") or [])] \
        if isinstance(meta.get("challenges"), list) else []
    checks = CheckBuilder(lesson.values, meta_path, lines, ctx.problems, md,
                          lambda key, t: markup.render_text(t, yaml_ctx, meta_path, lines.get(key, 1)))
    sections = [{"id": s.id, "number": n, "title": markup.render_inline(s.title, ctx, src.body_path, s.line),
                 "body": markup.render_block(s.body, ctx, src.body_path, s.line + 1)}
                for n, s in enumerate(src.sections, start=1)]
    context = {
        "slug": src.slug,
        "title": text("title"),
        "summary": text("summary"),
        "intro": md("intro", text("intro")),
        "objectives": [md(f"objectives.{i}", o, inline=True) for i, o in texts("objectives")],
        "question": md("question", text("question")),
        "sections": sections,
        "challenges": [{"id": f"challenge-{n}", "number": n, "title": c.get("title"),
                        "question": md(f"challenges.{n - 1}.question", _str(c.get("question"))),
                        "answer": md(f"challenges.{n - 1}.answer", _str(c.get("answer"))),
                        "check": checks.challenge(c, n)}
                       for n, c in enumerate(challenges, start=1)],
        "sources": [md(f"sources.{i}", s, inline=True) for i, s in texts("sources")],
        "figures_count": len(placed_figures),
    }
    for name in sorted(set(lesson.registry.figures) - set(placed_figures)):
        ctx.problems.append(Problem(src.body_path, None, f"figure `{name}` is defined in lesson.py but never placed",
                                    f"a line `{{{{< figure {name} >}}}}` in lesson.md"))
    if ctx.problems:
        raise ContentError(ctx.problems)
    return context


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _placement_order(src: LessonSource) -> tuple[list[str], list[Problem]]:
    """Figures in the order lesson.md places them (code blocks skipped: a directive there is an example), which
    numbers them; a figure placed twice is a problem (two figures with one id)."""
    names: dict[str, int] = {}
    problems = []
    for section in src.sections:
        in_fence = False
        for offset, line in enumerate(section.body.splitlines(), start=section.line + 1):
            in_fence ^= bool(FENCE.match(line))
            m = None if in_fence else markup.DIRECTIVE.match(line)
            if not m or m.group(1) != "figure":
                continue
            if m.group(2) in names:
                problems.append(Problem(src.body_path, offset, f"figure `{m.group(2)}` is placed twice "
                                        f"(first at line {names[m.group(2)]})", "each figure placed once"))
            names.setdefault(m.group(2), offset)
    return list(names), problems


def _not_in_yaml(name: str) -> str:
    raise ValueError(f"figure `{name}` placed outside lesson.md",
                     "figures placed in lesson.md only (numbered in reading order; refer to one with @fig:NAME)")


def _figure_html(lesson: ComputedLesson, name: str, ctx, env, placed: list[str]) -> str:
    if name not in lesson.registry.figures:
        raise KeyError(f"a figure defined with @lesson.figure in lesson.py: "
                       f"{', '.join(sorted(lesson.registry.figures)) or 'none'}")
    spec = lesson.registry.figures[name]
    path = lesson.source.code_path
    line = spec.func.__code__.co_firstlineno
    figure = {
        "id": f"fig-{name}",
        "name": name,
        "number": placed.index(name) + 1,
        "caption": markup.render_inline(spec.caption, ctx, path, line),
        "alt": markup.render_text(spec.alt, ctx, path, line),
        "svg": lesson.figures.get(name, ""),  # missing only when drawing it failed, which is reported
    }
    data = lesson.figure_data.get(name)
    if data and "placeholder" in data:  # still being drawn: its table goes in with the SVG (Drawing.fill)
        data["figure"] = dict(figure, svg="")
        figure["data_html"] = data["placeholder"]
    else:
        figure["data_html"] = _figure_data_html(env, figure, data)
    return env.get_template("partials/figure.html").render(figure=figure)


def _figure_data_html(env, figure: dict, data: dict | None) -> str:
    """The 「数据」 disclosure under a figure: the numbers it plots as tables, with a CSV link each."""
    tables = figdata.view(data, figure["id"])
    return env.get_template("partials/figure_data.html").render(figure=figure, tables=tables) if tables else ""


def _widget_html(lesson: ComputedLesson, name: str, env, placed: set[str]) -> str:
    if name not in lesson.registry.widgets:
        raise KeyError(f"a widget defined with @lesson.widget in lesson.py: "
                       f"{', '.join(sorted(lesson.registry.widgets)) or 'none'}")
    if name in placed:  # its ids would repeat; two of the same widget need two @lesson.widget functions
        raise ValueError(f"widget `{name}` is placed twice", "each widget placed once")
    placed.add(name)
    if name not in lesson.widgets:
        return ""  # its function failed, which is reported
    widget = lesson.widgets[name]
    try:
        template = env.get_template(f"widgets/{widget['template']}.html")
    except jinja2.TemplateNotFound:
        raise KeyError(f"a template widgets/{widget['template']}.html in the theme") from None
    context = {"id": f"widget-{name}", "name": name, "data": widget["data"], "json": json_for_script(widget["data"])}
    return template.render(widget=context)
