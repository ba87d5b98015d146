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
    started = time.perf_counter()
    sources = load_sources(options.content, options.lesson)
    dirs = theme_dirs(options.themes, options.theme)
    font, computed = compute_all(sources)
    pages = render_site(computed, dirs)
    write_site(pages, options.out)
    report = BuildReport(pages, font, sum(len(c.figures) for c in computed))
    report.seconds = time.perf_counter() - started
    report.sizes = {name: len(data) for name, data in pages.items()}
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
def compute_all(sources: list[LessonSource]) -> tuple[str | None, list[ComputedLesson]]:
    problems: list[Problem] = []
    computed = []
    for source in sources:
        try:
            computed.append(compute_lesson(source))
        except ContentError as err:
            problems += err.problems
    if problems:
        raise ContentError(problems)
    font = None
    if any(c.registry.figures for c in computed):
        font = _font()
        for lesson in computed:
            lesson.figures = draw_figures(lesson, font)
    return font, computed


def compute_lesson(source: LessonSource) -> ComputedLesson:
    registry = load_lesson_module(source.code_path) if source.code_path else Lesson()
    path = source.code_path or source.folder / "lesson.py"
    values = compute_values(registry, path)
    widgets = {}
    for name, spec in registry.widgets.items():
        args = inputs_for(spec.inputs, values, path, name, spec.func.__code__.co_firstlineno)
        widgets[name] = {"template": spec.template, "data": _plain(call_author_code(spec.func, args, path))}
    return ComputedLesson(source, values, {}, widgets, registry)


def _font() -> str:
    from .figures import FontMissing, find_cjk_font
    try:
        return find_cjk_font()
    except FontMissing as exc:
        raise UsageError(str(exc)) from None


def draw_figures(lesson: ComputedLesson, font: str) -> dict[str, str]:
    from .figures import draw_svg

    path = lesson.source.code_path
    svgs = {}
    for name, spec in lesson.registry.figures.items():
        line = spec.func.__code__.co_firstlineno
        args = inputs_for(spec.inputs, lesson.values, path, name, line)
        svgs[name] = draw_svg(name, spec.func, args, font, path, line)
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
        render_callout=lambda kind, title, body: env.get_template(BLOCK_TEMPLATES.get(kind, "partials/callout.html"))
        .render(callout={"kind": kind, "title": title, "body": body}),
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
