"""The render stage: computed lessons → HTML pages through the theme, its partials and the widget components.

Pages are rendered with placeholders for their code (the script and style a page needs are known only once its body
is rendered) and for figures still being drawn; `finish_pages` fills both in and checks the result against the
page's Content-Security-Policy.
"""
from __future__ import annotations

import dataclasses
import difflib
import html
import math
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ..assemble import csp as content_security
from ..features import figdata
from ..features import glossary as terms
from ..features import notes
from . import markup
from ..features import search
from ..features.components import Component, Components, PageSlots
from ..compute.run import ComputedLesson, ComputedWidget
from ..load.document import placements
from ..support.errors import ContentError, Miss, Problem, UsageError
from ..support.i18n import UnknownUiString
from ..support.jsondata import json_for_script
from ..support.values import lookup
from .templates import make_env, read_asset, theme_problem
from ..features.selfcheck import CheckBuilder, messages_from
from ..load.siteconfig import SiteConfig
from ..features.widgets import table_data

CALLOUT_TEMPLATES = {"cards": "partials/cards.html", "card": "partials/card.html", "state": "partials/state.html"}


@dataclass
class RenderedPage:
    text: str
    slots: PageSlots
    lesson_folder: Path | None = None


@dataclass
class Course:
    """What every page may link to: the lessons in order, with their sections; the glossary's terms, with their
    definitions rendered once for the whole site."""
    lessons: list[dict[str, Any]] = field(default_factory=list)
    glossary: terms.Glossary | None = None
    definitions: dict[str, str] = field(default_factory=dict)

    def find(self, slug: str) -> dict[str, Any] | None:
        return next((entry for entry in self.lessons if entry["slug"] == slug), None)


def render_site(computed: list[ComputedLesson], env: jinja2.Environment, dirs: list[Path], config: SiteConfig,
                components: Components, problems: list[Problem], sources=None,
                glossary: terms.Glossary | None = None) -> dict[str, RenderedPage]:
    """`sources`: every lesson read (also those whose code failed), so links to them are not reported twice;
    `glossary`: content/glossary.yaml as loaded (lessonkit.glossary), or None."""
    try:
        return _render_site(computed, env, dirs, config, components, problems, sources, glossary)
    except (jinja2.UndefinedError, jinja2.TemplateSyntaxError, jinja2.TemplateNotFound) as exc:
        raise theme_problem(exc) from None


def lesson_order(computed: list[ComputedLesson]) -> list[ComputedLesson]:
    return sorted(computed, key=lambda c: (_order(c.source.meta), c.source.slug))


def _order(meta: dict[str, Any]) -> int:
    order = meta.get("order")
    return order if isinstance(order, int) else 10**6


def _render_site(computed: list[ComputedLesson], env: jinja2.Environment, dirs: list[Path], config: SiteConfig,
                 components: Components, problems: list[Problem], sources=None,
                 glossary: terms.Glossary | None = None) -> dict[str, RenderedPage]:
    nonce = secrets.token_hex(8)
    slots = PageSlots.make(nonce)
    has_glossary = glossary is not None and bool(glossary.terms)
    common = {"site": {"title": config.title or env.globals["ui"].site_title, "description": config.description},
              "assets": {"css": slots.css, "js": slots.js}, "csp": slots.csp,
              "glossary_page": {"url": GLOSSARY_PAGE} if has_glossary else None}
    ordered = lesson_order(computed)
    everyone = sorted(sources, key=lambda s: (_order(s.meta), s.slug)) if sources else [c.source for c in ordered]
    course = Course([_course_entry(s) for s in everyone], glossary,
                    render_definitions(glossary, problems) if glossary is not None else {})
    pages: dict[str, RenderedPage] = {}
    contexts = []
    for lesson in ordered:
        try:
            context = lesson_context(lesson, env, components, course)
        except ContentError as err:
            problems += err.problems
            continue
        if lesson.source.problems:  # its Markdown was checked; a lesson.yaml with problems cannot fill the page
            continue
        contexts.append(context)
    found = [search.lesson_entry(c, env.globals["ui"]) for c in contexts]
    for i, context in enumerate(contexts):
        context["prev"] = _nav(contexts[i - 1]) if i > 0 else None
        context["next"] = _nav(contexts[i + 1]) if i + 1 < len(contexts) else None
        box = _search_box(search.search_index([found[i]], here=context["slug"], root="../"))
        page = env.get_template("lesson.html").render(lesson=context, course=course.lessons, root="../",
                                                      search=box, **common)
        pages[f"{context['slug']}/index.html"] = RenderedPage(page, slots, context["folder"])
    entries = [{"slug": c["slug"], "title": c["title"], "summary": c["summary"], "url": f"{c['slug']}/index.html",
                "objectives": c["objectives"], "minutes": c["minutes"], "number": n}
               for n, c in enumerate(contexts, start=1)]
    box = _search_box(search.search_index(found))
    index = env.get_template("index.html").render(lessons=entries, course=course.lessons, root="", search=box,
                                                  **common)
    pages["index.html"] = RenderedPage(index, slots)
    if has_glossary:
        pages[GLOSSARY_PAGE] = RenderedPage(glossary_page(env, course, contexts, common), slots)
    return pages


GLOSSARY_PAGE = "glossary.html"  # beside index.html: every `<slug>/index.html` is a lesson


def render_definitions(glossary: terms.Glossary, problems: list[Problem]) -> dict[str, str]:
    """Each term's definition, Markdown → HTML (inline: one or two sentences, $math$ allowed), once per build."""
    ctx = markup.MarkupContext(values={}, figure_numbers={}, placers={}, render_callout=lambda block: "")
    out = {t.id: markup.render_inline(t.definition, ctx, glossary.path, t.definition_line) for t in glossary.terms}
    problems += ctx.problems
    return out


def glossary_entry(term: terms.Term, definitions: dict[str, str]) -> dict[str, Any]:
    return {"id": term.id, "anchor": f"term-{term.id}", "zh": term.zh, "en": term.en, "aliases": list(term.aliases),
            "definition": definitions.get(term.id, "")}


def glossary_page(env: jinja2.Environment, course: Course, contexts: list[dict[str, Any]],
                  common: dict[str, Any]) -> str:
    """Every term of the site, in the glossary's order, with the lessons that use it (their titles, in course order)."""
    entries = []
    for term in course.glossary.terms:
        entry = glossary_entry(term, course.definitions)
        entry["lessons"] = [{"title": c["title"], "url": f"{c['slug']}/index.html#term-{term.id}"}
                            for c in contexts if any(t["id"] == term.id for t in c["glossary"])]
        entries.append(entry)
    return env.get_template("glossary.html").render(terms=entries, course=course.lessons, root="", **common)


def _course_entry(src) -> dict[str, Any]:
    title = src.meta.get("title") if isinstance(src.meta.get("title"), str) else src.slug
    return {"slug": src.slug, "title": title, "url": f"{src.slug}/index.html",
            "sections": [{"id": s.id, "number": n, "title": s.title} for n, s in enumerate(src.sections, start=1)]}


def _search_box(data: dict[str, Any]) -> dict[str, Any]:
    """The search component as the templates place it (partials/search.html); `site-search` cannot collide with a
    section id an author writes, which are ASCII words the author picks."""
    return {"id": "site-search", "kind": "search", "data": data, "json": json_for_script(data)}


def _nav(context: dict[str, Any]) -> dict[str, str]:
    return {"title": context["title"], "url": f"../{context['slug']}/index.html"}


def data_placeholder(lesson: ComputedLesson, name: str) -> str:
    return f"<!--lessonkit-figdata-{lesson.source.slug}-{name}-->"


def figure_data_html(env: jinja2.Environment, figure: dict, data: dict | None) -> str:
    """The 「数据」 disclosure under a figure: the numbers it plots as tables, with a CSV link each."""
    tables = figdata.view(data, figure["id"])
    return env.get_template("partials/figure_data.html").render(figure=figure, tables=tables) if tables else ""


def fill_figure_data(pages: dict[str, RenderedPage], computed: list[ComputedLesson], dirs: list[Path],
                     ui=None) -> None:
    """The data tables of figures that were still being drawn when their page was rendered."""
    env = None
    for lesson in computed:
        page = pages.get(f"{lesson.source.slug}/index.html")
        for name, figure in lesson.pending_data.items():
            env = env or make_env(dirs, ui)
            html = figure_data_html(env, figure, lesson.figure_data.get(name))
            if page is not None:
                page.text = page.text.replace(data_placeholder(lesson, name), html)


def finish_pages(rendered: dict[str, RenderedPage], components: Components, dirs: list[Path]) -> dict[str, bytes]:
    """Each page with exactly the code it uses and the policy listing its hashes; `.nojekyll` for GitHub Pages.
    The page's style also maps each colour its figures use to a dark-mode counterpart."""
    from ..features.palette import figure_colors, figure_palette_css

    base_js, base_css = read_asset(dirs, "lesson.js"), read_asset(dirs, "style.css")
    pages = {}
    for name, page in rendered.items():
        palette = figure_palette_css(figure_colors(page.text))
        js, css = components.page_assets(page.text, base_js, base_css, page.lesson_folder, palette)
        text, policy = page.slots.fill(page.text, js, css)
        template = "lesson.html" if page.lesson_folder else "index.html"
        pages[name] = _checked(text, template, policy)
    pages[".nojekyll"] = b""
    return pages


def _checked(page: str, template: str, csp: str) -> bytes:
    """A page the browser would partly block is the theme's mistake: say so rather than ship it."""
    blocked = content_security.violations(page, csp)
    if blocked:
        raise UsageError(f"the theme's {template} makes a page its Content-Security-Policy would break: "
                         + "; ".join(dict.fromkeys(blocked)) + " (inline code belongs in assets/lesson.js and "
                         "assets/style.css, or in a component's widget.js and widget.css, whose hashes the policy lists)")
    return page.encode("utf-8")


# ── one lesson ──────────────────────────────────────────────────────────────────────────────────────────────────────
class LessonRenderer:
    """Renders one lesson's Markdown and places its figures, widgets, tables and toggles; problems are collected."""

    def __init__(self, lesson: ComputedLesson, env: jinja2.Environment, components: Components, course: Course):
        self.lesson, self.env, self.components, self.course = lesson, env, components, course
        src = lesson.source
        self.figure_order = [b.arg for b in placements(src.sections, "figure")]
        self.placed_widgets: set[str] = set()
        self.placed_checks: set[str] = set()
        self.toggles = 0
        self.ctx = markup.MarkupContext(
            values=lesson.values,
            figure_numbers={name: i + 1 for i, name in enumerate(dict.fromkeys(self.figure_order))},
            placers={"figure": self.figure, "widget": self.widget, "table": self.table, "check": self.check},
            render_callout=self.container,
            link_lesson=self.link_lesson,
            mark_term=self.mark_term,
            figure_label=env.globals["ui"].figure,
        )
        self.terms_used: dict[str, None] = {}     # term ids in reading order (sections, then lesson.yaml's text)
        self.terms_marked: dict[str, None] = {}   # those marked with [[…]] anywhere

    @property
    def problems(self) -> list[Problem]:
        return self.ctx.problems

    # placers: HTML, or a Miss saying what is wrong (markup adds file and line)
    def figure(self, name: str, args: tuple[str, ...]) -> str | Miss:
        lesson = self.lesson
        if name not in lesson.registry.figures:
            return unknown("figure", name, lesson.registry.figures)
        spec = lesson.registry.figures[name]
        path, line = lesson.source.code_path, spec.func.__code__.co_firstlineno
        alt = markup.render_text(spec.alt, self.ctx, path, line)
        if not alt.strip():
            return Miss(f"figure `{name}` has an empty alt text",
                        "alt=\"…\" in @lesson.figure saying what the figure shows, for readers who cannot see it")
        figure = {
            "id": f"fig-{name}", "name": name, "number": self.figure_order.index(name) + 1,
            "caption": markup.render_inline(spec.caption, self.ctx, path, line), "alt": alt,
            "svg": lesson.figures.get(name, ""),  # missing only when drawing it failed, which is reported
        }
        if name in lesson.figure_data:
            figure["data_html"] = figure_data_html(self.env, figure, lesson.figure_data[name])
        else:  # still being drawn: its table goes in with the SVG (fill_figure_data)
            lesson.pending_data[name] = dict(figure, svg="")
            figure["data_html"] = data_placeholder(lesson, name)
        return self.env.get_template("partials/figure.html").render(figure=figure)

    def widget(self, name: str, args: tuple[str, ...]) -> str | Miss:
        lesson = self.lesson
        if name not in lesson.registry.widgets:
            return unknown("widget", name, lesson.registry.widgets)
        if name in self.placed_widgets:  # its ids would repeat; two of the same widget need two functions
            return Miss(f"widget `{name}` is placed twice", "each widget placed once")
        self.placed_widgets.add(name)
        if name not in lesson.widgets:
            return ""  # its function failed, which is reported
        widget = lesson.widgets[name]
        component = self.components.find(widget.kind, lesson.source.folder, widgets_only=True)
        if component is None or not component.template.is_file():
            kinds = self.components.kinds(lesson.source.folder)
            return Miss(f"widget `{name}` is of kind `{widget.kind}`, but there is no component "
                        f"widgets/{widget.kind}/widget.html{did_you_mean(widget.kind, kinds)}",
                        f"a component folder in {lesson.source.folder.name}/widgets/ or the theme; kinds: "
                        f"{', '.join(kinds) or 'none'}")
        figures = {f_name.split("--", 1)[1]: lesson.figures.get(f_name, "") for f_name, _, _ in widget.figures}
        context = {"id": f"widget-{name}", "name": name, "kind": widget.kind, "data": widget.data, "figures": figures}
        inner = self.render_component(component, context, widget, name)
        if inner is None:
            return ""
        return (f'<div class="widget widget-{widget.kind}" id="widget-{name}" data-widget="{widget.kind}">\n'
                f'{inner.strip()}\n'
                f'<script type="application/json" id="widget-{name}-data">'
                f'{json_for_script(widget.data if widget.script is None else widget.script)}</script>\n'
                f'</div>')

    def render_component(self, component: Component, context: dict[str, Any], widget: ComputedWidget | None,
                         name: str) -> str | None:
        """The component's widget.html; a mistake in it or in the data it reads is reported where it can be fixed."""
        code_path = self.lesson.source.code_path
        try:
            inner = self.env.get_template(str(component.template)).render(widget=context)
        except jinja2.TemplateSyntaxError as exc:
            self._template_problem(component, exc.lineno, f"template error: {exc.message}")
            return None
        except UnknownUiString:  # the theme's i18n files lack a word the component uses: reported at its line
            raise
        except Exception as exc:  # the data lacks what the template reads, or has the wrong shape
            where = _template_line(exc, component.template)
            reason = exc.message if isinstance(exc, jinja2.TemplateError) and exc.message else f"{type(exc).__name__}: {exc}"
            if widget is None:
                self._template_problem(component, where, f"template error: {reason}")
                return None
            self.problems.append(Problem(code_path, widget.line, f"widget `{name}` (kind `{component.kind}`): its data "
                                         f"does not fit the component: {reason} "
                                         f"(at {component.template}:{where or '?'})",
                                         f"data with the keys and shapes widgets/{component.kind}/widget.html reads"))
            return None
        blocked = content_security.violations(inner, "")
        blocked = [b for b in blocked if "attribute" in b]
        if blocked:
            self._template_problem(component, None, "; ".join(dict.fromkeys(blocked)) +
                                   ": the page's Content-Security-Policy blocks it (style belongs in widget.css, "
                                   "handlers in widget.js)")
            return None
        return inner

    def _template_problem(self, component: Component, line: int | None, message: str) -> None:
        if component.in_lesson:  # the author's own component: a content problem (exit 1)
            self.problems.append(Problem(component.template, line, message, "a valid Jinja template"))
        else:  # the theme's: exit 2
            where = f"{component.template}:{line}" if line else str(component.template)
            raise UsageError(f"{where}: {message}")

    checks = None  # the lesson's CheckBuilder, set by lesson_context before the sections are rendered
    md = None      # lesson_context's renderer of lesson.yaml Markdown

    def check(self, name: str, args: tuple[str, ...]) -> str | Miss:
        """A self-check on its own: an entry of lesson.yaml's `checks:` placed in the text."""
        entries = self.lesson.source.meta.get("checks")
        entries = entries if isinstance(entries, list) else []
        found = [(i, e) for i, e in enumerate(entries) if isinstance(e, dict) and e.get("id") == name]
        if not found:
            ids = [e.get("id") for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]
            return Miss(f"unknown self-check `{name}`{did_you_mean(name, ids)}",
                        f"an `id` in lesson.yaml's `checks:` list: {', '.join(ids) or 'none'}")
        i, entry = found[0]
        if name in self.placed_checks:
            return Miss(f"self-check `{name}` is placed twice", "each self-check placed once")
        self.placed_checks.add(name)
        key = f"checks.{i}"
        context = {"id": f"selfcheck-{name}", "question": self.md(f"{key}.question", _str(entry.get("question"))),
                   "answer": self.md(f"{key}.answer", _str(entry.get("answer"))) if entry.get("answer") else "",
                   "check": self.checks.build(entry, key, f"check-{name}")}
        return self.env.get_template("partials/check.html").render(item=context)

    def table(self, name: str, args: tuple[str, ...]) -> str | Miss:
        try:
            value = lookup(name, self.lesson.values)
        except KeyError:
            return Miss(f"unknown value `{name}` for a table{did_you_mean(name.split('.')[0], self.lesson.values)}",
                        f"a value defined in lesson.py: {', '.join(sorted(self.lesson.values)) or 'none'}")
        try:
            data = table_data(value)
        except ValueError as exc:
            return Miss(f"value `{name}` cannot be shown as a table: {exc}",
                        "a list of dicts, a dict of lists, a list of rows, or lessonkit.table(…)")
        return self.env.get_template("partials/table.html").render(table=data)

    def container(self, block: dict[str, Any]) -> str:
        kind = block["kind"]
        if kind == "toggle":
            return self.toggle(block)
        if kind == notes.KIND:
            return notes.notes_html(block)
        return self.env.get_template(CALLOUT_TEMPLATES.get(kind, "partials/callout.html")).render(callout=block)

    def toggle(self, block: dict[str, Any]) -> str:
        states = [p for p in block["parts"] if p["kind"] == "state"]
        if len(states) < 2:
            self.problems.append(Problem(self.lesson.source.body_path, block["line"],
                                         f"a toggle needs at least two `::: state` blocks, found {len(states)}",
                                         "`::: state TITLE` … `:::` blocks inside `::: toggle`"))
            return ""
        self.toggles += 1
        root = f"toggle-{self.toggles}"
        component = self.components.find("toggle", self.lesson.source.folder)
        data = {"states": [s["title"] for s in states]}
        inner = self.render_component(component, {"id": root, "name": root, "kind": "toggle",
                                                  "data": {"title": block["title"], "states": states}},
                                      None, root) if component else None
        if inner is None:
            return ""
        return (f'<div class="widget widget-toggle" id="{root}" data-widget="toggle">\n{inner.strip()}\n'
                f'<script type="application/json" id="{root}-data">{json_for_script(data)}</script>\n</div>')

    def mark_term(self, name: str, shown: str | None) -> str | Miss:
        """`[[术语]]` / `[[术语|显示的文字]]`: the term by its id, zh, en or an alias."""
        glossary = self.course.glossary
        if glossary is None:
            return Miss(f"glossary term `[[{name}]]` but there is no content/glossary.yaml",
                        "a glossary.yaml next to the lesson folders with a `terms:` list")
        term = glossary.reference(name)
        if isinstance(term, Miss):
            return term
        self.terms_marked.setdefault(term.id, None)
        return terms.mark_html(term, html.escape((shown or name).strip() or name))

    def link_lesson(self, slug: str, section: str | None) -> str | Miss:
        target = self.course.find(slug)
        if target is None:
            slugs = [entry["slug"] for entry in self.course.lessons]
            return Miss(f"link to unknown lesson `@lesson:{slug}`{did_you_mean(slug, slugs)}",
                        f"a lesson folder under content/: {', '.join(slugs) or 'none'}")
        here = slug == self.lesson.source.slug
        url = "" if here else f"../{slug}/index.html"
        title = html.escape(target["title"])
        if section is None:
            return f'<a class="lesson-ref" href="{url or "#main"}">{title}</a>'
        found = next((s for s in target["sections"] if s["id"] == section), None)
        if found is None:
            ids = [s["id"] for s in target["sections"]]
            return Miss(f"link to unknown section `@lesson:{slug}#{section}`{did_you_mean(section, ids)}",
                        f"a section id of that lesson: {', '.join(ids) or 'none'}")
        return (f'<a class="lesson-ref" href="{url}#{section}">{title} · {found["number"]} '
                f'{html.escape(found["title"])}</a>')


def lesson_context(lesson: ComputedLesson, env: jinja2.Environment, components: Components,
                   course: Course | None = None) -> dict[str, Any]:
    """Everything lesson.html displays, rendered to HTML strings. Fields lesson.yaml got wrong (already reported)
    are left out, so the Markdown of the rest is still checked."""
    src = lesson.source
    course = course or Course([_course_entry(lesson.source)])
    renderer = LessonRenderer(lesson, env, components, course)
    ctx = renderer.ctx
    _check_placements(src, renderer.figure_order, ctx.problems)
    ctx.problems += notes.misplaced(src.sections, src.body_path)
    meta, lines, meta_path = src.meta, src.meta_lines, src.meta_path
    yaml_placers = {"figure": _not_in_yaml, "widget": _not_in_yaml, "check": _not_in_yaml, "table": renderer.table}
    yaml_ctx = dataclasses.replace(ctx, placers=yaml_placers)  # same values and problem list
    # titles are repeated in links (contents, course navigation) and objectives on the index page: no marks there
    title_ctx = dataclasses.replace(ctx, mark_term=_no_mark("a section title"))
    objective_ctx = dataclasses.replace(yaml_ctx, mark_term=_no_mark("an objective (the index page shows it too)"))

    def md(key: str, text: str, inline: bool = False, context=None) -> str:
        render = markup.render_inline if inline else markup.render_block
        return render(text, context or yaml_ctx, meta_path, lines.get(key, 1))

    def text(key: str) -> str:
        return meta.get(key) if isinstance(meta.get(key), str) else ""

    def texts(key: str) -> list[tuple[int, str]]:
        items = meta.get(key) if isinstance(meta.get(key), list) else []
        return [(i, item) for i, item in enumerate(items) if isinstance(item, str)]

    challenges = [c if isinstance(c, dict) else {} for c in (meta.get("challenges") or [])] \
        if isinstance(meta.get("challenges"), list) else []
    checks = CheckBuilder(lesson.values, meta_path, lines, ctx.problems, md,
                          lambda key, t: markup.render_text(t, yaml_ctx, meta_path, lines.get(key, 1)),
                          messages_from(env.globals["ui"]))
    renderer.checks, renderer.md = checks, md
    sections = [{"id": s.id, "number": n, "title": markup.render_inline(s.title, title_ctx, src.body_path, s.line),
                 "body": markup.render_blocks(s.blocks, ctx, src.body_path)}
                for n, s in enumerate(src.sections, start=1)]
    if course.glossary is not None:  # the first use of each term, in reading order
        for section in sections:
            section["body"] = terms.mark_first_uses(section["body"], course.glossary, renderer.terms_used)
    context = {
        "slug": src.slug,
        "folder": src.folder,
        "title": text("title"),
        "summary": text("summary"),
        "intro": md("intro", text("intro")),
        "objectives": [md(f"objectives.{i}", o, inline=True, context=objective_ctx) for i, o in texts("objectives")],
        "question": md("question", text("question")),
        "sections": sections,
        "challenges": [{"id": f"challenge-{n}", "number": n, "title": c.get("title"),
                        "question": md(f"challenges.{n - 1}.question", _str(c.get("question"))),
                        "answer": md(f"challenges.{n - 1}.answer", _str(c.get("answer"))),
                        "check": checks.challenge(c, n)}
                       for n, c in enumerate(challenges, start=1)],
        "sources": [md(f"sources.{i}", s, inline=True) for i, s in texts("sources")],
        "glossary": [],
        "figures_count": len(renderer.figure_order),
        "minutes": reading_minutes(src, len(renderer.figure_order)),
    }
    if course.glossary is not None:  # terms marked in sections, then those marked only in lesson.yaml's text
        used = {**renderer.terms_used, **renderer.terms_marked}
        context["glossary"] = [glossary_entry(course.glossary.by_id[i], course.definitions) for i in used]
    for i, entry in enumerate(meta.get("checks") if isinstance(meta.get("checks"), list) else []):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"] not in renderer.placed_checks:
            ctx.problems.append(Problem(meta_path, lines.get(f"checks.{i}"), f"self-check `{entry['id']}` is never "
                                        "placed", f"a line `{{{{< check {entry['id']} >}}}}` in lesson.md"))
    for name in sorted(set(lesson.registry.figures) - set(renderer.figure_order)):
        ctx.problems.append(Problem(src.body_path, None, f"figure `{name}` is defined in lesson.py but never placed",
                                    f"a line `{{{{< figure {name} >}}}}` in lesson.md"))
    if ctx.problems:
        raise ContentError(ctx.problems)
    return context


def _check_placements(src, order: list[str], problems: list[Problem]) -> None:
    """A figure placed twice would be two figures with one id and one number."""
    first: dict[str, int] = {}
    for block in placements(src.sections, "figure"):
        if block.arg in first:
            problems.append(Problem(src.body_path, block.line, f"figure `{block.arg}` is placed twice "
                                    f"(first at line {first[block.arg]})", "each figure placed once"))
        first.setdefault(block.arg, block.line)


def reading_minutes(src, figures: int) -> int:
    """About 400 Chinese characters (or 200 Latin words) a minute, plus half a minute a figure."""
    text = "\n".join(s.body for s in src.sections) + "\n".join(str(v) for v in src.meta.values())
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    words = len(re.findall(r"[A-Za-z]+", text))
    return max(1, math.ceil(cjk / 400 + words / 200 + figures * 0.5))


def _no_mark(where: str):
    def refuse(name: str, shown: str | None) -> Miss:
        return Miss(f"glossary term `[[{name}]]` in {where}",
                    "the term marked in the text below it (its first use there is marked by itself)")
    return refuse


def _not_in_yaml(name: str, args: tuple[str, ...]) -> Miss:
    return Miss(f"`{name}` placed outside lesson.md",
                "figures and widgets placed in lesson.md only (numbered in reading order; refer to a figure with @fig:NAME)")


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _template_line(exc: BaseException, template: Path) -> int | None:
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(template)]
    return frames[-1].lineno if frames else None


def unknown(kind: str, name: str, known) -> Miss:
    """A figure or widget name lesson.py does not define."""
    return Miss(f"unknown {kind} `{name}`{did_you_mean(name, known)}",
                f"a {kind} defined with @lesson.{kind} in lesson.py: {', '.join(sorted(known)) or 'none'}")


def did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean `{close[0]}`?" if close else ""
