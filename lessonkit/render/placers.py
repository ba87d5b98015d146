"""The placers of one lesson's page: what `{{< figure >}}`, `{{< widget >}}`, `{{< code >}}`, `{{< check >}}`,
`{{< table >}}`, `[[term]]` and `@lesson:` put in the text — HTML, or a Miss saying what is wrong, which markup
reports at its file and line — and the Markdown contexts the page's fields are rendered in. Figures and their data
are holes in the draft (render/draft.py): they may still be drawing."""
from __future__ import annotations

import dataclasses
import html
from dataclasses import dataclass
from typing import Any

import jinja2

from ..compute.cellrun import read_too_early
from ..compute.run import ComputedLesson
from ..features import citations
from ..features.bibtex import Bibliography
from ..features import code as listings
from ..features import glossary as terms
from ..features.components import Components
from ..features.coursenav import Course
from ..features.selfcheck_page import Placement
from ..features.widgets import table_data
from ..load.release import Release
from ..support.errors import Miss, Notice, Problem
from ..support.messages import Message, msg, reason
from ..support.paths import SitePaths
from ..support.suggest import did_you_mean
from ..support.values import lookup
from ..support.words import spoken
from . import markup
from .component import render_component
from .containers import Containers
from .draft import FigureDataHole, FigureHole, Holes
from .mount import mount
from .reading import reading_texts

CAPTIONED = ("explorer", "bars")  # the builders' kinds whose caption (plain text) may hold `{{ value }}`


@dataclass
class PageSetting:
    """What every lesson page of one edition is rendered with: the theme (templates, words, components), the
    course (other lessons to link to, the glossary), the draft's holes, the Markdown converters, the bibliography,
    this lesson's release (load/release.py: answers shown, a draft …), and the edition: `teacher` (answers open,
    keys and speaker notes shown), `lms` (a page for a learning platform's package: it stands alone); the memo of
    rendered sections."""
    env: jinja2.Environment
    ui: Any
    components: Components
    course: Course
    holes: Holes
    converters: markup.Converters
    bibliography: Bibliography | None = None
    release: Release = dataclasses.field(default_factory=Release)
    teacher: bool = False
    lms: bool = False
    sections: Any = None    # render/sectionmemo.py SectionMemo: sections rendered by an earlier build (None: none)


class LessonRenderer:
    """Renders one lesson's Markdown and places its figures, widgets, tables and self-checks; problems are
    collected in `ctx.problems`."""

    def __init__(self, lesson: ComputedLesson, setting: PageSetting):
        self.lesson, self.setting, self.env, self.ui = lesson, setting, setting.env, setting.ui
        self.course, self.holes, self.release, self.teacher = setting.course, setting.holes, setting.release, setting.teacher
        self.page = SitePaths.lesson(lesson.slug)
        src = lesson.source
        self.figure_places = src.plan.figure_places   # (load/plan.py: figure numbers have one source)
        self.figure_order = [place.name for place in self.figure_places]
        self.placed_widgets: set[str] = set()
        self.placed_checks: set[str] = set()
        self.placed_code: set[str] = set()
        self.alone_checks: list[dict] = []   # the standalone self-checks placed, in reading order
        self.tables = 0
        self.terms_used: dict[str, None] = {}     # term ids in reading order (sections, then lesson.yaml's text)
        self.terms_marked: dict[str, None] = {}   # those marked with [[…]] anywhere
        self.citer = citations.Citer(setting.bibliography, citations.numbering(reading_texts(lesson)), self.ui)
        self.ctx = markup.MarkupContext(
            values=lesson.values,
            figure_numbers=src.plan.figures,
            placers={"figure": self.figure, "widget": self.widget, "table": self.table, "check": self.check,
                     "code": self.code},
            render_callout=lambda block: self.containers.container(block),
            link_lesson=self.link_lesson,
            mark_term=self.mark_term,
            cite=self.citer.cite,
            cite_narrative=self.citer.narrative,
            figure_label=self.ui.figure,
            equation_numbers=src.plan.equations,
            equation_words=(self.ui.equation_number, self.ui.equation_ref),
            number_equations=True,
            converters=setting.converters,
        )
        if lesson.cells is not None:  # a value shown before the cell that gives it is met (lesson.py as cells)
            self.ctx.read_value = read_too_early(lesson.cells, src.plan.places, src.body_path)
        self.containers = Containers(self.env, self.ui, setting.components, src.folder, src.body_path,
                                     self.ctx.problems, self.teacher)
        self._field_contexts()
        self.checks = Placement(lesson.checks, self.ui, self.md,
                                lambda key, t: markup.render_text(t, self.yaml_ctx, src.meta_path,
                                                                  src.meta_lines.get(key, 1)),
                                keys=self.release.answers, teacher=self.teacher)

    def _field_contexts(self) -> None:
        """The contexts lesson.yaml's fields and the titles are rendered in: same values and problem list, but
        figures and widgets are placed in lesson.md only, and titles (repeated in links and the contents) and
        objectives (on the index page too) hold no marks or citations."""
        ctx = self.ctx
        self.yaml_placers = {"figure": _not_in_yaml, "widget": _not_in_yaml, "check": _not_in_yaml,
                             "table": self.table}
        self.yaml_ctx = dataclasses.replace(ctx, placers=self.yaml_placers, number_equations=False)
        title = msg("a section title")
        self.title_ctx = dataclasses.replace(ctx, mark_term=_no_mark(title), cite=_no_cite(title),
                                             cite_narrative=_no_cite(title, narrative=True), number_equations=False)
        objective = msg("an objective (the index page shows it too)")
        self.objective_ctx = dataclasses.replace(self.yaml_ctx, mark_term=_no_mark(objective),
                                                 cite=_no_cite(objective),
                                                 cite_narrative=_no_cite(objective, narrative=True))
        # a challenge's answer may place a figure; the page shows the answer twice (on screen, and printed with the
        # answers at the end), the second time with a copy of the figure whose ids differ
        self.answer_ctx = dataclasses.replace(self.yaml_ctx, placers={**self.yaml_placers, "figure": self.figure})
        self.print_ctx = dataclasses.replace(self.yaml_ctx, placers={
            **self.yaml_placers, "figure": lambda name, args: self.figure(name, args, copy="print")})

    @property
    def problems(self) -> list[Problem]:
        return self.ctx.problems

    def md(self, key: str, text: str, inline: bool = False, context=None) -> str:
        """A lesson.yaml field's Markdown: inline text, or the blocks the plan parsed at load (load/plan.py)."""
        src = self.lesson.source
        if inline:
            return markup.render_inline(text, context or self.yaml_ctx, src.meta_path, src.meta_lines.get(key, 1))
        if text.strip() and key not in src.plan.fields:  # our bug: every block field is parsed at load
            raise KeyError(f"lesson.yaml field {key} is not in the lesson's plan")
        return markup.render_blocks(src.plan.blocks(key), context or self.yaml_ctx, src.meta_path)

    # placers: HTML, or a Miss saying what is wrong (markup adds file and line)
    def figure(self, name: str, args: tuple[str, ...], copy: str = "") -> str | Miss:
        """The figure; `copy` names a second copy of it on the page (a challenge answer's figure printed again with
        the answers), whose ids differ."""
        lesson = self.lesson
        if name not in lesson.registry.figures:
            return unknown("figure", name, lesson.registry.figures)
        spec = lesson.registry.figures[name]
        path, line = lesson.source.code_path, spec.line
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
        return self.env.get_template("partials/figure.html").render(figure=figure, ui=self.ui)

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
        component = self.setting.components.find(widget.kind, lesson.source.folder, widgets_only=True)
        if component is None or not component.template.is_file():
            kinds = self.setting.components.kinds(lesson.source.folder)
            return Miss(msg("widget `{name}` is of kind `{kind}`, but there is no component "
                            "widgets/{kind}/widget.html{hint}", name=name, kind=widget.kind,
                            hint=did_you_mean(widget.kind, kinds)),
                        msg("a component folder in {folder}/widgets/ or the theme; kinds: {kinds}",
                            folder=lesson.source.folder.name, kinds=", ".join(kinds) or msg("none")))
        figures = {f_name.split("--", 1)[1]: self.holes.mark(FigureHole(lesson.slug, f_name))
                   for f_name, _, _ in widget.figures}
        data = spoken(widget.data, self.ui)  # a builder's words (yes/no, joins) in the site's language
        if widget.kind in CAPTIONED and isinstance(data.get("caption"), str):  # `{{ value }}` as in the text
            data = {**data, "caption": markup.render_text(data["caption"], self.ctx, lesson.source.code_path,
                                                          widget.line or 1)}
        context = {"id": f"widget-{name}", "name": name, "kind": widget.kind, "data": data, "figures": figures}
        inner = render_component(self.env, self.ui, component, context, widget, name, lesson.source.code_path,
                                 self.problems)
        if inner is None:
            return ""
        script = data if widget.script is None else spoken(widget.script, self.ui)
        return mount(widget.kind, f"widget-{name}", inner, script)

    def code(self, name: str, args: tuple[str, ...]) -> str | Miss:
        """`{{< code NAME … >}}`: the source of lesson.py's function NAME (or of several, or of a cell), then what
        it computed — a value as the page writes it, what a cell printed, the figure or the widget placed right
        here (features/code.py decides)."""
        context = listings.code_context(name, args, self.lesson,
                                        lambda text: self.ctx.converters.highlighter.html(text, "python"),
                                        lambda kind, shown: (self.figure if kind == "figure" else self.widget)(
                                            shown, ()), self.placed_code)
        if isinstance(context, Miss):
            return context
        return self.env.get_template("partials/code.html").render(code=context, ui=self.ui)

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
        return self.env.get_template("partials/check.html").render(item=context, ui=self.ui)

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
        return self.env.get_template("partials/table.html").render(table=spoken(data, self.ui), ui=self.ui,
                                                                   id=f"table-{self.tables}")

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
            word = html.escape(self.ui.coming_soon)
            return Notice(f'<span class="lesson-ref lesson-coming">{word}</span>',
                          msg("link to `@lesson:{slug}`, which this site does not publish yet (a draft, or released "
                              "later): the page shows “{word}”", slug=slug, word=self.ui.coming_soon),
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
        if self.setting.lms and not href.startswith("#"):
            return f'<span class="lesson-ref">{inner}</span>'
        return f'<a class="lesson-ref" href="{href}">{inner}</a>'


def unknown(kind: str, name: str, known) -> Miss:
    """A figure or widget name lesson.py does not define."""
    hint, names = did_you_mean(name, known), ", ".join(sorted(known)) or msg("none")
    if kind == "figure":
        return Miss(msg("unknown figure `{name}`{hint}", name=name, hint=hint),
                    msg("a figure defined with @lesson.figure in lesson.py: {names}", names=names))
    return Miss(msg("unknown widget `{name}`{hint}", name=name, hint=hint),
                msg("a widget defined with @lesson.widget in lesson.py: {names}", names=names))


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
