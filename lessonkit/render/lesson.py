"""One lesson's page context: its Markdown rendered, with its figures, widgets, tables, toggles and self-checks
placed (each placer returns HTML or a Miss, which markup reports at its file and line). Figures and their data are
holes in the draft (render/draft.py): they may still be drawing."""
from __future__ import annotations

import dataclasses
import html
import math
import re
from pathlib import Path
from typing import Any

import jinja2

from ..compute.run import ComputedLesson, ComputedWidget
from ..features import citations
from ..features import code as listings
from ..features import glossary as terms
from ..features import notes, tabs
from ..features.glossary import glossary_entry
from ..features.components import Component, Components
from ..features.coursenav import Course, course_entry
from ..features.selfcheck import Placement
from ..features.widgets import table_data
from ..load.document import walk
from ..load.plan import Place, wants_output
from ..load.release import Release
from ..support import csp as content_security
from ..support.errors import ContentError, Miss, Notice, Problem, UsageError
from ..support.i18n import UnknownUiString
from ..support.messages import Message, msg, reason
from ..support.paths import SitePaths
from ..support.suggest import did_you_mean
from ..support.values import lookup
from ..support.words import spoken
from . import markup
from .draft import FigureDataHole, FigureHole, Holes
from .mount import mount
from .questions import LessonPackage, PlacedCheck, lesson_package

CAPTIONED = ("explorer", "bars")  # the builders' kinds whose caption (plain text) may hold `{{ value }}`
CALLOUT_TEMPLATES = {"cards": "partials/cards.html", "card": "partials/card.html", "state": "partials/state.html"}


class LessonRenderer:
    """Renders one lesson's Markdown and places its figures, widgets, tables and toggles; problems are collected."""

    def __init__(self, lesson: ComputedLesson, env: jinja2.Environment, components: Components, course: Course,
                 holes: Holes, converters: markup.Converters, bibliography: citations.Bibliography | None = None,
                 release: Release | None = None, teacher: bool = False, lms: bool = False):
        self.lesson, self.env, self.components, self.course, self.holes = lesson, env, components, course, holes
        self.release, self.teacher = release or Release(), teacher  # (load/release.py: answers shown, a draft …)
        self.lms = lms  # a page for a learning platform's package: it stands alone (no links to other pages)
        self.page = SitePaths.lesson(lesson.slug)
        src = lesson.source
        self.figure_places = src.plan.figure_places   # (load/plan.py: figure numbers have one source)
        self.figure_order = [place.name for place in self.figure_places]
        self.placed_widgets: set[str] = set()
        self.placed_checks: set[str] = set()
        self.placed_code: set[str] = set()
        self.toggles = 0
        self.tab_sets = 0
        self.tables = 0
        self.citer = citations.Citer(bibliography, citations.numbering(reading_texts(lesson)), env.globals["ui"])
        self.ctx = markup.MarkupContext(
            values=lesson.values,
            figure_numbers=src.plan.figures,
            placers={"figure": self.figure, "widget": self.widget, "table": self.table, "check": self.check,
                     "code": self.code},
            render_callout=self.container,
            link_lesson=self.link_lesson,
            mark_term=self.mark_term,
            cite=self.citer.cite,
            cite_narrative=self.citer.narrative,
            figure_label=env.globals["ui"].figure,
            equation_numbers=src.plan.equations,
            equation_words=(env.globals["ui"].equation_number, env.globals["ui"].equation_ref),
            number_equations=True,
            converters=converters,
        )
        self.terms_used: dict[str, None] = {}     # term ids in reading order (sections, then lesson.yaml's text)
        self.terms_marked: dict[str, None] = {}   # those marked with [[…]] anywhere

    @property
    def problems(self) -> list[Problem]:
        return self.ctx.problems

    # placers: HTML, or a Miss saying what is wrong (markup adds file and line)
    def figure(self, name: str, args: tuple[str, ...], copy: str = "") -> str | Miss:
        """The figure; `copy` names a second copy of it on the page (a challenge answer's figure printed again with
        the answers), whose ids differ."""
        lesson = self.lesson
        if name not in lesson.registry.figures:
            return unknown("figure", name, lesson.registry.figures)
        spec = lesson.registry.figures[name]
        path, line = lesson.source.code_path, spec.func.__code__.co_firstlineno
        alt = markup.render_text(spec.alt, self.ctx, path, line)
        if not alt.strip():
            return Miss(msg("figure `{name}` has an empty alt text", name=name),
                        "alt=\"…\" in @lesson.figure saying what the figure shows, for readers who cannot see it")
        figure_id, number = f"fig-{name}" + (f"-{copy}" if copy else ""), self.figure_order.index(name) + 1
        figure = {
            "id": figure_id, "name": name, "number": number,
            "caption": markup.render_inline(spec.caption, self.ctx, path, line), "alt": alt,
            "svg": self.holes.mark(FigureHole(lesson.slug, name)),
            "data_html": self.holes.mark(FigureDataHole(lesson.slug, name, figure_id, number)),
        }
        return self.env.get_template("partials/figure.html").render(figure=figure)

    def widget(self, name: str, args: tuple[str, ...]) -> str | Miss:
        lesson = self.lesson
        if name not in lesson.registry.widgets:
            return unknown("widget", name, lesson.registry.widgets)
        if name in self.placed_widgets:  # its ids would repeat; two of the same widget need two functions
            return Miss(msg("widget `{name}` is placed twice", name=name), "each widget placed once")
        self.placed_widgets.add(name)
        if name not in lesson.widgets:
            return ""  # its function failed, which is reported
        widget = lesson.widgets[name]
        component = self.components.find(widget.kind, lesson.source.folder, widgets_only=True)
        if component is None or not component.template.is_file():
            kinds = self.components.kinds(lesson.source.folder)
            return Miss(msg("widget `{name}` is of kind `{kind}`, but there is no component "
                            "widgets/{kind}/widget.html{hint}", name=name, kind=widget.kind,
                            hint=did_you_mean(widget.kind, kinds)),
                        msg("a component folder in {folder}/widgets/ or the theme; kinds: {kinds}",
                            folder=lesson.source.folder.name, kinds=", ".join(kinds) or msg("none")))
        figures = {f_name.split("--", 1)[1]: self.holes.mark(FigureHole(lesson.slug, f_name))
                   for f_name, _, _ in widget.figures}
        data = spoken(widget.data, self.env.globals["ui"])  # a builder's words (yes/no, joins) in the site's language
        if widget.kind in CAPTIONED and isinstance(data.get("caption"), str):  # `{{ value }}` as in the text
            data = {**data, "caption": markup.render_text(data["caption"], self.ctx, lesson.source.code_path,
                                                          widget.line or 1)}
        context = {"id": f"widget-{name}", "name": name, "kind": widget.kind, "data": data, "figures": figures}
        inner = self.render_component(component, context, widget, name)
        if inner is None:
            return ""
        script = data if widget.script is None else spoken(widget.script, self.env.globals["ui"])
        return mount(widget.kind, f"widget-{name}", inner, script)

    def code(self, name: str, args: tuple[str, ...]) -> str | Miss:
        """`{{< code NAME >}}`: the source of lesson.py's function NAME, then what it computed — a value as the page
        writes it, the figure or the widget placed right here (`output=false`: the source alone)."""
        lesson, registry = self.lesson, self.lesson.registry
        output = wants_output(args)
        if output is None:
            return Miss(msg("cannot read `{args}` in `{{< code {name} >}}`", args=" ".join(args), name=name),
                        "nothing after the function's name, or `output=false` to show its source alone")
        if lesson.source.code_path is None:
            return Miss(msg("code `{name}` but the lesson has no lesson.py", name=name), "a function defined in lesson.py")
        shown = listings.listing(lesson.source.code_path, name)
        if shown is None:
            known = listings.functions(lesson.source.code_path)
            return Miss(msg("unknown function `{name}` in lesson.py{hint}", name=name, hint=did_you_mean(name, known)),
                        msg("a function defined in lesson.py: {names}", names=", ".join(known) or msg("none")))
        if name in self.placed_code:
            return Miss(msg("code `{name}` is shown twice", name=name), "each function's code shown once")
        self.placed_code.add(name)
        figure = next((f.name for f in registry.figures.values() if f.func.__name__ == name), None)
        context: dict[str, Any] = {"id": f"code-{name}", "name": name, "first": shown.first, "last": shown.last,
                                   "html": self.ctx.converters.highlighter.html(shown.text, "python")
                                   or listings.plain(shown.text), "output": None, "output_html": "", "cut": False,
                                   "limit": listings.OUTPUT_LIMIT}
        if output and name in registry.values:
            if name in lesson.values:  # else computing it failed, which is reported
                context["output"], context["cut"] = listings.output_text(lesson.values[name])
        elif output and (figure or name in registry.widgets):
            placed = self.figure(figure, ()) if figure else self.widget(name, ())
            if isinstance(placed, Miss):
                return placed
            context["output_html"] = placed
        elif output:
            return Miss(msg("`{name}` is not a value, figure or widget of the lesson: it has no output to show",
                            name=name), msg("`{{< code {name} output=false >}}` to show its source alone", name=name))
        return self.env.get_template("partials/code.html").render(code=context)

    def render_component(self, component: Component, context: dict[str, Any], widget: ComputedWidget | None,
                         name: str) -> str | None:
        """The component's widget.html; a mistake in it or in the data it reads is reported where it can be fixed."""
        code_path = self.lesson.source.code_path
        try:
            inner = self.env.get_template(str(component.template)).render(widget=context)
        except jinja2.TemplateSyntaxError as exc:
            self._template_problem(component, exc.lineno, msg("template error: {reason}", reason=_said_by(exc)))
            return None
        except UnknownUiString:  # the theme's i18n files lack a word the component uses: reported at its line
            raise
        except Exception as exc:  # the data lacks what the template reads, or has the wrong shape
            where = _template_line(exc, component.template)
            why = _said_by(exc)
            if widget is None:
                self._template_problem(component, where, msg("template error: {reason}", reason=why))
                return None
            self.problems.append(Problem(code_path, widget.line,
                                         msg("widget `{name}` (kind `{kind}`): its data does not fit the component: "
                                             "{reason} (at {where})", name=name, kind=component.kind, reason=why,
                                             where=f"{component.template}:{where or '?'}"),
                                         msg("data with the keys and shapes widgets/{kind}/widget.html reads",
                                             kind=component.kind)))
            return None
        blocked = dict.fromkeys(m.group(1) for m in content_security.BLOCKED_ATTRIBUTE.finditer(inner))
        for attribute in blocked:  # at the template's line that writes it
            self._template_problem(component, _source_line(component.template, rf"\s{attribute}\s*="),
                                   msg("a `{attribute}=` attribute: the page's Content-Security-Policy blocks it",
                                       attribute=attribute),
                                   msg("style in widget.css, event handlers in widget.js (the policy lets no inline "
                                       "ones run)"))
        return None if blocked else inner

    def _template_problem(self, component: Component, line: int | None, message: Message,
                          expected: Message | str = msg("a valid Jinja template")) -> None:
        if component.in_lesson:  # the author's own component: a content problem (exit 1)
            self.problems.append(Problem(component.template, line, message, expected))
        else:  # the theme's: exit 2
            where = f"{component.template}:{line}" if line else str(component.template)
            raise UsageError(msg("{where}: {message}", where=where, message=message))

    checks = None  # the lesson's self-check Placement, set by lesson_context before the sections are rendered
    md = None      # lesson_context's renderer of lesson.yaml Markdown
    alone_checks: list  # the standalone self-checks placed, in reading order (their answers print at the end)

    def check(self, name: str, args: tuple[str, ...]) -> str | Miss:
        """A self-check on its own: an entry of lesson.yaml's `checks:` placed in the text."""
        entries = self.lesson.source.meta.get("checks") or []
        if not self.lesson.source.meta or not isinstance(entries, list):  # lesson.yaml unread, or `checks:` wrong:
            return ""                                                      # reported there, not once per placement
        found = [(i, e) for i, e in enumerate(entries) if isinstance(e, dict) and e.get("id") == name]
        if not found:
            ids = [e.get("id") for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]
            return Miss(msg("unknown self-check `{name}`{hint}", name=name, hint=did_you_mean(name, ids)),
                        msg("an `id` in lesson.yaml's `checks:` list: {ids}", ids=", ".join(ids) or msg("none")))
        i, entry = found[0]
        if name in self.placed_checks:
            return Miss(msg("self-check `{name}` is placed twice", name=name), "each self-check placed once")
        self.placed_checks.add(name)
        key = f"checks.{i}"
        answer = self.md(f"{key}.answer", _str(entry.get("answer"))) if entry.get("answer") else ""
        context = {"id": f"selfcheck-{name}", "key": key, "name": name, "entry": entry,
                   "question": self.md(f"{key}.question", _str(entry.get("question"))),
                   "answer": answer if self.release.answers else "",  # (checked all the same)
                   "check": self.checks.place(key, f"check-{name}"), "teacher": self.teacher}
        self.alone_checks.append(context)
        return self.env.get_template("partials/check.html").render(item=context)

    def table(self, name: str, args: tuple[str, ...]) -> str | Miss:
        try:
            value = lookup(name, self.lesson.values)
        except KeyError:
            return Miss(msg("unknown value `{name}` for a table{hint}", name=name,
                            hint=did_you_mean(name.split(".")[0], self.lesson.values)),
                        msg("a value defined in lesson.py: {names}",
                            names=", ".join(sorted(self.lesson.values)) or msg("none")))
        try:
            data = table_data(value)
        except ValueError as exc:
            return Miss(msg("value `{name}` cannot be shown as a table: {reason}", name=name, reason=reason(exc)),
                        "a list of dicts, a dict of lists, a list of rows, or lessonkit.table(…)")
        # caption and column names are Markdown like a figure's caption ($math$, {{ values }}); cells are text
        func = self.lesson.registry.values.get(name.split(".")[0])
        where = self.lesson.source.code_path, func.__code__.co_firstlineno if func else None
        data["caption"] = markup.render_inline(data["caption"], self.ctx, *where) if data["caption"] else ""
        data["columns"] = [markup.render_inline(column, self.ctx, *where) for column in data["columns"]]
        self.tables += 1
        return self.env.get_template("partials/table.html").render(table=spoken(data, self.env.globals["ui"]),
                                                                   id=f"table-{self.tables}")

    def container(self, block: dict[str, Any]) -> str:
        kind = block["kind"]
        if kind == "toggle":
            return self.toggle(block)
        if kind == "tabs":
            return self.tabs(block)
        if kind == notes.KIND:
            return notes.notes_html(block, self.env.globals["ui"].presenter_notes if self.teacher else None)
        return self.env.get_template(CALLOUT_TEMPLATES.get(kind, "partials/callout.html")).render(callout=block)

    def scorm(self, package: LessonPackage) -> str:
        """The `scorm` component of a page for a learning platform: it finds the platform's SCORM 1.2 API and
        reports each self-check answered (the self-check says what was answered and whether it was right), the
        score and the status against the lesson's mastery percentage. Hidden unless a platform is found."""
        component = self.components.find("scorm", self.lesson.source.folder)
        if component is None:
            return ""
        inner = self.render_component(component, {"id": "lms-scorm", "name": "scorm", "kind": "scorm", "data": {}},
                                      None, "scorm")
        data = {"checks": [[cid, scorm_id(cid, k)] for k, cid in enumerate(package.check_ids)],
                "mastery": package.mastery}
        return "" if inner is None else mount("scorm", "lms-scorm", inner, data)

    def toggle(self, block: dict[str, Any]) -> str:
        states = [p for p in block["parts"] if p["kind"] == "state"]
        if len(states) < 2:
            self.problems.append(Problem(self.lesson.source.body_path, block["line"],
                                         msg("a toggle needs at least two `::: state` blocks, found {n}",
                                             n=len(states)),
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
        return mount("toggle", root, inner, data)

    def tabs(self, block: dict[str, Any]) -> str:
        """`::: tabs GROUP` with `::: tab LABEL` blocks (features.tabs checks them)."""
        found = tabs.check(block["arg"], [(p["arg"], p["line"]) for p in block["parts"] if p["kind"] == tabs.PART],
                           block["line"])
        self.problems.extend(Problem(self.lesson.source.body_path, line, message, expected)
                             for line, message, expected in found)
        if found:
            return ""
        self.tab_sets += 1
        root = f"tabs-{self.tab_sets}"
        component = self.components.find(tabs.KIND, self.lesson.source.folder)
        panes = [{"label": p["title"], "key": tabs.key(p["arg"]), "body": p["body"]}
                 for p in block["parts"] if p["kind"] == tabs.PART]
        data = {"group": block["arg"].strip(), "tabs": panes}
        inner = self.render_component(component, {"id": root, "name": root, "kind": tabs.KIND, "data": data},
                                      None, root) if component else None
        return "" if inner is None else mount(tabs.KIND, root, inner, tabs.script_data(data["group"]))

    def mark_term(self, name: str, shown: str | None) -> str | Miss:
        """`[[术语]]` / `[[术语|显示的文字]]`: the term by its id, zh, en or an alias."""
        glossary = self.course.glossary
        if glossary is None:
            return Miss(msg("glossary term `[[{name}]]` but there is no content/glossary.yaml", name=name),
                        "a glossary.yaml next to the lesson folders with a `terms:` list")
        if glossary.unread:  # glossary.yaml did not parse: reported there, not once per mark
            return html.escape((shown or name).strip() or name)
        term = glossary.reference(name)
        if isinstance(term, Miss):
            return term
        self.terms_marked.setdefault(term.id, None)
        return terms.mark_html(term, html.escape((shown or name).strip() or name))

    def link_lesson(self, slug: str, anchor: str | None) -> str | Miss | Notice:
        """`@lesson:SLUG`, `@lesson:SLUG#SECTION`, `@lesson:SLUG#eq:NAME`, `@lesson:SLUG#fig:NAME`; a lesson this site
        does not publish yet (a draft, one released later) is the theme's «coming soon», no title and no link."""
        target = self.course.find(slug)
        if target is None and slug in self.course.left_out:
            word = html.escape(self.env.globals["ui"].coming_soon)
            return Notice(f'<span class="lesson-ref lesson-coming">{word}</span>',
                          msg("link to `@lesson:{slug}`, which this site does not publish yet (a draft, or released "
                              "later): the page shows “{word}”", slug=slug, word=self.env.globals["ui"].coming_soon),
                          msg("links to published lessons (--strict makes this an error)"))
        if target is None:
            slugs = [entry["slug"] for entry in self.course.lessons]
            return Miss(msg("link to unknown lesson `@lesson:{slug}`{hint}", slug=slug, hint=did_you_mean(slug, slugs)),
                        msg("a lesson folder under content/: {slugs}", slugs=", ".join(slugs) or msg("none")))
        url = SitePaths.url(self.page, SitePaths.lesson(slug))
        title = html.escape(target["title"])
        if anchor is None:
            return self.lesson_ref(url or "#main", title)
        kind, _, name = anchor.partition(":") if anchor.startswith(("eq:", "fig:")) else ("", "", anchor)
        if kind == "eq":
            numbers = target.get("equations") or {}
            if name not in numbers:
                return Miss(msg("link to unknown equation `@lesson:{slug}#eq:{name}`{hint}", slug=slug, name=name,
                                hint=did_you_mean(name, numbers)),
                            msg("an equation labelled in that lesson: {names}",
                                names=", ".join(sorted(numbers)) or msg("none")))
            text = self.ctx.equation_words[1].format(n=numbers[name])
            return self.lesson_ref(f"{url}#eq-{name}", f"{title} · {html.escape(text)}")
        if kind == "fig":
            numbers = target["figures"]
            if name not in numbers:
                return Miss(msg("link to unknown figure `@lesson:{slug}#fig:{name}`{hint}", slug=slug, name=name,
                                hint=did_you_mean(name, numbers)),
                            msg("a figure placed in that lesson: {names}",
                                names=", ".join(sorted(numbers)) or msg("none")))
            label = f"{html.escape(self.ctx.figure_label)} {numbers[name]}"
            return self.lesson_ref(f"{url}#fig-{name}", f"{title} · {label}")
        found = next((s for s in target["sections"] if s["id"] == name), None)
        if found is None:
            ids = [s["id"] for s in target["sections"]]
            return Miss(msg("link to unknown section `@lesson:{target}`{hint}", target=f"{slug}#{name}",
                            hint=did_you_mean(name, ids)),
                        msg("a section id of that lesson: {ids}", ids=", ".join(ids) or msg("none")))
        return self.lesson_ref(f"{url}#{name}", f'{title} · {found["number"]} {html.escape(found["title"])}')

    def lesson_ref(self, href: str, inner: str) -> str:
        """A link to (a place in) a lesson; on a page for a learning platform, which stands alone, the same words
        without a link, unless the place is on the page itself."""
        if self.lms and not href.startswith("#"):
            return f'<span class="lesson-ref">{inner}</span>'
        return f'<a class="lesson-ref" href="{href}">{inner}</a>'


def lesson_context(lesson: ComputedLesson, env: jinja2.Environment, components: Components,
                   course: Course | None = None, holes: Holes | None = None,
                   converters: markup.Converters | None = None,
                   bibliography: citations.Bibliography | None = None, release: Release | None = None,
                   teacher: bool = False, lms: bool = False) -> dict[str, Any]:
    """Everything lesson.html displays, rendered to HTML strings. Fields lesson.yaml got wrong (already reported)
    are left out, so the Markdown of the rest is still checked. `release` (load/release.py): whether its worked
    answers are in the page — rendered and checked either way, left out when hidden; `teacher`: the teacher's
    edition (answers open, keys and speaker notes shown); `lms`: a page for a learning platform's package (it
    stands alone, reports its self-checks through the `scorm` component, and `package` holds what the export
    needs: render/questions.py). `warnings`: what rendering let pass."""
    src = lesson.source
    course = course or Course([course_entry(lesson.source)])
    release = release or Release()
    renderer = LessonRenderer(lesson, env, components, course, holes or Holes(), converters or markup.Converters(),
                              bibliography, release, teacher, lms)
    ctx = renderer.ctx
    _check_placements(renderer.figure_places, ctx.problems)
    ctx.problems += notes.misplaced(src.sections, src.body_path)
    meta, lines, meta_path = src.meta, src.meta_lines, src.meta_path
    yaml_placers = {"figure": _not_in_yaml, "widget": _not_in_yaml, "check": _not_in_yaml, "table": renderer.table}
    yaml_ctx = dataclasses.replace(ctx, placers=yaml_placers, number_equations=False)  # same values, problem list
    # titles are repeated in links (contents, course navigation) and objectives on the index page: no marks there
    title_ctx = dataclasses.replace(ctx, mark_term=_no_mark(msg("a section title")),
                                    cite=_no_cite(msg("a section title")),
                                    cite_narrative=_no_cite(msg("a section title"), narrative=True),
                                    number_equations=False)
    objective = msg("an objective (the index page shows it too)")
    objective_ctx = dataclasses.replace(yaml_ctx, mark_term=_no_mark(objective), cite=_no_cite(objective),
                                        cite_narrative=_no_cite(objective, narrative=True))

    def md(key: str, text: str, inline: bool = False, context=None) -> str:
        """A lesson.yaml field's Markdown: inline text, or the blocks the plan parsed at load (load/plan.py)."""
        if inline:
            return markup.render_inline(text, context or yaml_ctx, meta_path, lines.get(key, 1))
        if text.strip() and key not in src.plan.fields:  # our bug: every block field is parsed at load
            raise KeyError(f"lesson.yaml field {key} is not in the lesson's plan")
        return markup.render_blocks(src.plan.blocks(key), context or yaml_ctx, meta_path)

    def text(key: str) -> str:
        return meta.get(key) if isinstance(meta.get(key), str) else ""

    def texts(key: str) -> list[tuple[int, str]]:
        items = meta.get(key) if isinstance(meta.get(key), list) else []
        return [(i, item) for i, item in enumerate(items) if isinstance(item, str)]

    challenges = _challenges(meta)
    # a challenge's answer may place a figure; the page shows the answer twice (on screen, and printed with the
    # answers at the end), the second time with a copy of the figure whose ids differ
    answer_ctx = dataclasses.replace(yaml_ctx, placers={**yaml_placers, "figure": renderer.figure})
    print_ctx = dataclasses.replace(yaml_ctx, placers={**yaml_placers, "figure": lambda name, args: renderer.figure(
        name, args, copy="print")})

    def answer(n: int, text: str) -> tuple[str, str]:
        shown = md(f"challenges.{n - 1}.answer", text, context=answer_ctx)
        if not release.answers:  # checked, then left out: not in the page, its search text or its notebook
            return "", ""
        if not any(place.challenge == n for place in renderer.figure_places):
            return shown, shown
        return shown, md(f"challenges.{n - 1}.answer", text, context=print_ctx)
    checks = Placement(lesson.checks, env.globals["ui"], md,
                       lambda key, t: markup.render_text(t, yaml_ctx, meta_path, lines.get(key, 1)),
                       keys=release.answers, teacher=teacher)
    renderer.checks, renderer.md, renderer.alone_checks = checks, md, []
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
        "challenges": [{"id": f"challenge-{n}", "number": n,
                        "title": markup.render_text(_str(c.get("title")), yaml_ctx, meta_path,
                                                    lines.get(f"challenges.{n - 1}.title", 1)),
                        "question": md(f"challenges.{n - 1}.question", _str(c.get("question"))),
                        **dict(zip(("answer", "answer_print"), answer(n, _str(c.get("answer"))))),
                        "check": checks.place(f"challenges.{n - 1}", f"check-{n}")}
                       for n, c in enumerate(challenges, start=1)],
        "checks": [c for c in renderer.alone_checks if c["answer"]],  # standalone checks with an answer
        "sources": [md(f"sources.{i}", s, inline=True) for i, s in texts("sources")],
        "glossary": [],
        "references": [],
        "notebook": {"url": SitePaths.url(renderer.page, SitePaths.notebook(src.slug))},
        "figures_count": len(renderer.figure_order),
        "minutes": reading_minutes(src, len(renderer.figure_order)),
        "draft": release.draft,
        "answers": release.answers,
        "answers_from": release.answers_from.isoformat() if release.answers_from else None,
        "teacher": teacher,
        "scorm": "",
    }
    context["references"] = [{**entry, "html": citations.runs_html(entry["runs"])}
                             for entry in renderer.citer.entries(env.globals["ui"])]
    context["cited"] = renderer.citer  # the notebook writes the same numbers (render/notebook.py)
    if course.glossary is not None:  # terms marked in sections, then those marked only in lesson.yaml's text
        used = {**renderer.terms_used, **renderer.terms_marked}
        context["glossary"] = [glossary_entry(course.glossary.by_id[i], course.definitions) for i in used]
    for i, entry in enumerate(meta.get("checks") if isinstance(meta.get("checks"), list) else []):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"] not in renderer.placed_checks:
            ctx.problems.append(Problem(meta_path, lines.get(f"checks.{i}"),
                                        msg("self-check `{name}` is never placed", name=entry["id"]),
                                        msg("a line `{{< check {name} >}}` in lesson.md", name=entry["id"])))
    unplaced = set(lesson.registry.figures) - set(renderer.figure_order)
    for name in sorted(unplaced if meta or not meta_path.exists() else ()):  # lesson.yaml unread: answers may place
        ctx.problems.append(Problem(src.body_path, None, msg("figure `{name}` is defined in lesson.py but never placed",
                                                             name=name),
                                    msg("a line `{{< figure {name} >}}` in lesson.md", name=name)))
    if ctx.problems:
        raise ContentError(ctx.problems)
    if lms:
        ui = env.globals["ui"]
        placed = [PlacedCheck(c["key"], c["check"]["id"], f"{ui.selfcheck} · {c['name']}",
                              _str(c["entry"].get("question")), _str(c["entry"].get("answer")))
                  for c in renderer.alone_checks if c["check"]]
        placed += [PlacedCheck(f"challenges.{n - 1}", f"check-{n}",
                               f"{ui.challenge} {n} · {_str(c.get('title'))}",
                               _str(c.get("question")), _str(c.get("answer")))
                   for n, c in enumerate(challenges, start=1)]
        context["package"] = lesson_package(lesson, renderer, yaml_ctx, placed, release.answers)
        context["scorm"] = renderer.scorm(context["package"])
    context["warnings"] = list(dict.fromkeys(ctx.warnings))
    return context


SCORM_ID = re.compile(r"[A-Za-z0-9_-]{1,200}")


def scorm_id(cid: str, k: int) -> str:
    """A self-check's name in the platform's records (SCORM 1.2's identifiers are ASCII letters, digits, `-`
    and `_`): its id on the page, or, for a check named in other letters, its place among the page's checks."""
    return cid if SCORM_ID.fullmatch(cid) else f"selfcheck-{k + 1}"


def _check_placements(places: list[Place], problems: list[Problem]) -> None:
    """A figure placed twice would be two figures with one id and one number."""
    first: dict[str, tuple[Path, int]] = {}
    for name, path, line in ((p.name, p.path, p.line) for p in places):
        if name in first:
            (at, at_line), file = first[name], first[name][0].name
            problems.append(Problem(path, line, msg("figure `{name}` is placed twice (first at line {line})",
                                                    name=name, line=at_line) if at == path else
                                    msg("figure `{name}` is placed twice (first at {file}:{line})", name=name,
                                        file=file, line=at_line), "each figure placed once"))
        first.setdefault(name, (path, line))


def _challenges(meta: dict[str, Any]) -> list[dict[str, Any]]:
    items = meta.get("challenges")
    return [c if isinstance(c, dict) else {} for c in items] if isinstance(items, list) else []


def reading_texts(lesson: ComputedLesson):
    """The lesson's text blocks in the order the page shows them — head, sections (a placed figure's caption where
    it stands), challenges, the sources — for the citations' numbers; Markdown fields as the plan parsed them."""
    src, meta, plan = lesson.source, lesson.source.meta, lesson.source.plan
    captions = {name: spec.caption for name, spec in lesson.registry.figures.items()}
    strings = lambda value: [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]  # noqa: E731

    def read(blocks, kinds=("figure", "code")):
        for block in walk(blocks):
            if block.kind == "text":
                yield "\n".join(block.lines)
            elif block.kind == "directive" and block.name in kinds:
                name = plan.figure_functions.get(block.arg, block.arg) if block.name == "code" else block.arg
                yield captions.get(name, "")
    yield from read(plan.blocks("intro"))
    yield from strings(meta.get("objectives"))
    yield from read(plan.blocks("question"))
    for section in src.sections:
        yield section.title
        yield from read(section.blocks)
    for n, challenge in enumerate(_challenges(meta)):
        yield from read(plan.blocks(f"challenges.{n}.question"))
        for j, _ in enumerate(strings(challenge.get("hints"))):
            yield from read(plan.blocks(f"challenges.{n}.hints.{j}"))
        yield from read(plan.blocks(f"challenges.{n}.answer"), kinds=("figure",))
    yield from strings(meta.get("sources"))


def reading_minutes(src, figures: int) -> int:
    """About 400 Chinese characters (or 200 Latin words) a minute, plus half a minute a figure."""
    text = "\n".join(s.body for s in src.sections) + "\n".join(str(v) for v in src.meta.values())
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    words = len(re.findall(r"[A-Za-z]+", text))
    return max(1, math.ceil(cjk / 400 + words / 200 + figures * 0.5))


def _no_mark(where: Message):
    def refuse(name: str, shown: str | None) -> Miss:
        return Miss(msg("glossary term `[[{name}]]` in {where}", name=name, where=where),
                    "the term marked in the text below it (its first use there is marked by itself)")
    return refuse


def _no_cite(where: Message, narrative: bool = False):
    def refuse(body: str, locator: str | None = None) -> Miss:
        return Miss(msg("citation `{citation}` in {where}", citation=f"@{body}" if narrative else f"[{body}]",
                        where=where), "the citation in the text below it")
    return refuse


def _not_in_yaml(name: str, args: tuple[str, ...]) -> Miss:
    return Miss(msg("`{name}` placed outside lesson.md", name=name),
                "figures and widgets placed in lesson.md only (numbered in reading order; refer to a figure with @fig:NAME)")


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _source_line(path: Path, pattern: str) -> int | None:
    """The first line of a file matching `pattern` (where a template writes what its output shows)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if re.search(pattern, line):
            return number
    return None


def _template_line(exc: BaseException, template: Path) -> int | None:
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(template)]
    return frames[-1].lineno if frames else None


def unknown(kind: str, name: str, known) -> Miss:
    """A figure or widget name lesson.py does not define."""
    hint, names = did_you_mean(name, known), ", ".join(sorted(known)) or msg("none")
    if kind == "figure":
        return Miss(msg("unknown figure `{name}`{hint}", name=name, hint=hint),
                    msg("a figure defined with @lesson.figure in lesson.py: {names}", names=names))
    return Miss(msg("unknown widget `{name}`{hint}", name=name, hint=hint),
                msg("a widget defined with @lesson.widget in lesson.py: {names}", names=names))


def _said_by(exc: BaseException) -> Message | str:
    """What went wrong in a template: Jinja's message (or ours, raised inside it), else the exception itself."""
    if isinstance(exc, jinja2.TemplateError) and exc.message:
        return exc.message
    return msg("{error}: {reason}", error=type(exc).__name__, reason=reason(exc))
