"""The build: load → validate → compute → render → write. Each stage hands plain data to the next."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from . import markup
from .compute import Lesson, compute_values, call_author_code, inputs_for, load_lesson_module
from .content import LessonSource, find_lessons, read_lesson
from .errors import ContentError, Problem, UsageError
from . import csp as content_security
from .render import json_for_script, make_env, read_asset, theme_dirs, theme_problem
from .output import write_site

SITE_TITLE = "计算型课堂讲义"
BLOCK_TEMPLATES = {"cards": "partials/cards.html", "card": "partials/card.html"}  # other ::: kinds are callouts


@dataclass
class Options:
    content: Path
    out: Path
    themes: Path
    theme: str = "default"
    lesson: str | None = None


@dataclass
class ComputedLesson:
    source: LessonSource
    values: dict[str, Any]
    figures: dict[str, str]          # name → SVG markup
    widgets: dict[str, dict]         # name → {"template", "data"}
    registry: Lesson


@dataclass
class BuildReport:
    pages: dict[str, bytes]
    font: str | None
    figures: int
    seconds: float = 0.0
    sizes: dict[str, int] = field(default_factory=dict)


def build(options: Options) -> BuildReport:
    """Every stage runs as far as the content allows, so one run lists the problems of every lesson and every
    stage (reading, lesson code, Markdown); only a build without problems writes anything."""
    started = time.perf_counter()
    problems: list[Problem] = []
    sources = load_sources(options.content, options.lesson, problems)
    dirs = theme_dirs(options.themes, options.theme)
    font, computed = compute_all(sources, problems)
    pages = render_site(computed, dirs, problems)
    if problems:
        raise ContentError(by_lesson(problems, options.content))
    write_site(pages, options.out)
    report = BuildReport(pages, font, sum(len(c.figures) for c in computed))
    report.seconds = time.perf_counter() - started
    report.sizes = {name: len(data) for name, data in pages.items()}
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
def load_sources(content_dir: Path, only: str | None, problems: list[Problem] | None = None) -> list[LessonSource]:
    """Every lesson folder, read as far as possible. Their problems go to `problems`; without it, they are raised."""
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
    found = [p for s in sources for p in s.problems]
    if problems is None and found:
        raise ContentError(found)
    if problems is not None:
        problems += found
    return sources


# ── compute ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def compute_all(sources: list[LessonSource], problems: list[Problem]) -> tuple[str | None, list[ComputedLesson]]:
    """Run each lesson's code. A lesson whose values cannot be computed is left out (its Markdown would only
    report every value as unknown); a failing widget or figure is reported and the rest still run."""
    computed = []
    for source in sources:
        if not source.code_readable:
            continue
        try:
            computed.append(compute_lesson(source, problems))
        except ContentError as err:
            problems += err.problems
    font = None
    if any(c.registry.figures for c in computed):
        font = _font()
        for lesson in computed:
            lesson.figures = draw_figures(lesson, font, problems)
    return font, computed


def compute_lesson(source: LessonSource, problems: list[Problem]) -> ComputedLesson:
    registry = load_lesson_module(source.code_path) if source.code_path else Lesson()
    path = source.code_path or source.folder / "lesson.py"
    values = compute_values(registry, path)
    widgets = {}
    for name, spec in registry.widgets.items():
        line = spec.func.__code__.co_firstlineno
        try:
            args = inputs_for(spec.inputs, values, path, name, line)
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
    return ComputedLesson(source, values, {}, widgets, registry)


def _font() -> str:
    from .figures import FontMissing, find_cjk_font
    try:
        return find_cjk_font()
    except FontMissing as exc:
        raise UsageError(str(exc)) from None


def draw_figures(lesson: ComputedLesson, font: str, problems: list[Problem]) -> dict[str, str]:
    from .figures import draw_svg

    path = lesson.source.code_path
    svgs = {}
    for name, spec in lesson.registry.figures.items():
        line = spec.func.__code__.co_firstlineno
        try:
            args = inputs_for(spec.inputs, lesson.values, path, name, line)
            svgs[name] = draw_svg(name, spec.func, args, font, path, line)
        except ContentError as err:
            problems += err.problems
    return svgs


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
def render_site(computed: list[ComputedLesson], dirs: list[Path], problems: list[Problem]) -> dict[str, bytes]:
    try:
        return _render_site(computed, dirs, problems)
    except (jinja2.UndefinedError, jinja2.TemplateSyntaxError, jinja2.TemplateNotFound) as exc:
        raise theme_problem(exc) from None


def _render_site(computed: list[ComputedLesson], dirs: list[Path], problems: list[Problem]) -> dict[str, bytes]:
    env = make_env(dirs)
    assets = {"css": read_asset(dirs, "style.css"), "js": read_asset(dirs, "lesson.js")}
    common = {"site": {"title": SITE_TITLE}, "assets": assets,
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
    placed_figures = _placement_order(src)
    ctx = markup.MarkupContext(
        values=lesson.values,
        figure_numbers={name: i + 1 for i, name in enumerate(placed_figures)},
        place_figure=lambda name: _figure_html(lesson, name, ctx, env, placed_figures),
        place_widget=lambda name: _widget_html(lesson, name, env),
        render_callout=lambda kind, title, body: env.get_template(BLOCK_TEMPLATES.get(kind, "partials/callout.html"))
        .render(callout={"kind": kind, "title": title, "body": body}),
    )
    meta, lines, meta_path = src.meta, src.meta_lines, src.meta_path

    def md(key: str, text: str, inline: bool = False) -> str:
        render = markup.render_inline if inline else markup.render_block
        return render(text, ctx, meta_path, lines.get(key, 1))

    def text(key: str) -> str:
        return meta.get(key) if isinstance(meta.get(key), str) else ""

    def texts(key: str) -> list[tuple[int, str]]:
        items = meta.get(key) if isinstance(meta.get(key), list) else []
        return [(i, item) for i, item in enumerate(items) if isinstance(item, str)]

    challenges = [c if isinstance(c, dict) else {} for c in (meta.get("challenges") or [])] \
        if isinstance(meta.get("challenges"), list) else []
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
                        "answer": md(f"challenges.{n - 1}.answer", _str(c.get("answer")))}
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


def _placement_order(src: LessonSource) -> list[str]:
    names = []
    for section in src.sections:
        for line in section.body.splitlines():
            m = markup.DIRECTIVE.match(line)
            if m and m.group(1) == "figure" and m.group(2) not in names:
                names.append(m.group(2))
    return names


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
    return env.get_template("partials/figure.html").render(figure=figure)


def _widget_html(lesson: ComputedLesson, name: str, env) -> str:
    if name not in lesson.registry.widgets:
        raise KeyError(f"a widget defined with @lesson.widget in lesson.py: "
                       f"{', '.join(sorted(lesson.registry.widgets)) or 'none'}")
    if name not in lesson.widgets:
        return ""  # its function failed, which is reported
    widget = lesson.widgets[name]
    try:
        template = env.get_template(f"widgets/{widget['template']}.html")
    except jinja2.TemplateNotFound:
        raise KeyError(f"a template widgets/{widget['template']}.html in the theme") from None
    context = {"id": f"widget-{name}", "name": name, "data": widget["data"], "json": json_for_script(widget["data"])}
    return template.render(widget=context)
