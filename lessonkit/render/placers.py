"""One lesson's page as its features place themselves on it: the registry of placements (`{{< figure >}}`,
`{{< widget >}}`, `{{< table >}}`, `{{< check >}}`, `{{< code >}}` — each feature's own `place`, `[[term]]` the
glossary's `mark`, `@lesson:` the course navigation's `link`: HTML, or a Miss saying what is wrong, which markup
reports at its file and line), the ledger of what was placed, and the Markdown contexts the page's fields are
rendered in. Figures and their data are holes in the draft (render/draft.py): they may still be drawing."""
from __future__ import annotations

import functools
from typing import Any

import jinja2

from ..compute.run import ComputedLesson
from ..features import citations
from ..features.bibtex import Bibliography
from ..features import code as listings
from ..features import coursenav, figures, selfcheck_page, widget_page
from ..features import glossary as terms
from ..features.components import Components
from ..features.coursenav import Course
from ..features.placing import Ledger, Placer
from ..features.selfcheck_page import Placement
from ..load.release import Edition, Release
from ..support.errors import Miss, Problem
from ..support.messages import Message, msg
from ..support.paths import SitePaths
from . import markup
from ..support.records import Record
from .component import render_component
from .containers import Containers
from .draft import FigureDataHole, FigureHole, Holes
from .mount import mount
from .numbering import page_numbers
from .reading import reading_texts


class PageSetting(Record):
    """What every lesson page of one edition is rendered with: the theme (templates, words, components), the
    course (other lessons to link to, the glossary), the draft's holes, the Markdown converters, the bibliography,
    this lesson's release (load/release.py: answers shown, a draft …), and the edition the build's format implies
    (load/formats.py): `teacher` (answers open, keys and speaker notes shown), `lms` (a page for a learning
    platform's package: it stands alone); the memo of rendered parts (sections, lesson.yaml's fields)."""
    env: jinja2.Environment
    ui: Any
    components: Components
    course: Course
    holes: Holes
    converters: markup.Converters
    bibliography: Bibliography | None = None
    release: Release = Release()
    edition: Edition = Edition()
    sections: Any = None    # render/sectionmemo.py SectionMemo: parts rendered by an earlier build (None: none)


# which feature places what: `{{< kind NAME >}}` → its place(page, name, args); each `unplaced(page)` reports what
# lesson.py or lesson.yaml defines and the text never placed
PLACERS: dict[str, Placer] = {"figure": figures.place, "widget": widget_page.place, "table": widget_page.place_table,
                              "check": selfcheck_page.place_check, "code": listings.place}
UNPLACED = (selfcheck_page.unplaced, figures.unplaced)


class LessonRenderer:
    """One lesson's page as the features place themselves on it (features/placing.py Page): the Markdown contexts
    its text is rendered in, the ledger of what was placed, the services a placement uses. Problems are collected
    in `ctx.problems`."""

    def __init__(self, lesson: ComputedLesson, setting: PageSetting):
        self.lesson, self.setting, self.env, self.ui = lesson, setting, setting.env, setting.ui
        self.address = SitePaths.lesson(lesson.slug)
        src = lesson.source
        self.figure_places = src.plan.figure_places   # (load/plan.py: figure numbers have one source)
        self.figure_order = [place.name for place in self.figure_places]
        self.ledger = Ledger()
        self.numbers = page_numbers(reading_texts(lesson))   # (before anything is rendered)
        self.citer = citations.Citer(setting.bibliography, self.numbers.citations, self.ui, self.ledger.cited)
        self.ctx = markup.MarkupContext(
            values=lesson.values,
            figure_numbers=src.plan.figures,
            placers={kind: functools.partial(place, self) for kind, place in PLACERS.items()},
            render_callout=lambda block: self.containers.container(block),
            link_lesson=functools.partial(coursenav.link, self),
            mark_term=functools.partial(terms.mark, self),
            cite=self.citer.cite,
            cite_narrative=self.citer.narrative,
            figure_label=self.ui.figure,
            equation_numbers=src.plan.equations,
            equation_lines=src.plan.equation_lines,
            equation_words=(self.ui.equation_number, self.ui.equation_ref),
            number_equations=True,
            converters=setting.converters,
        )
        if lesson.cells is not None:  # a value shown before the cell that gives it is met (lesson.py as cells)
            from ..compute.cellrun import read_too_early  # imported for a lesson written as cells only

            self.ctx.read_value = read_too_early(lesson.cells, src.plan.places, src.body_path)
        self.containers = Containers(self.env, self.ui, setting.components, src.folder, src.body_path,
                                     self.ctx.problems, setting.edition, self.numbers)
        self._field_contexts()
        self.checks = Placement(lesson.checks, self.ui, self.md, self.plain, keys=setting.release.answers,
                                teacher=setting.edition.teacher)

    def _field_contexts(self) -> None:
        """The contexts lesson.yaml's fields and the titles are rendered in: same values and problem list, but
        figures and widgets are placed in lesson.md only, and titles (repeated in links and the contents) and
        objectives (on the index page too) hold no marks or citations."""
        ctx = self.ctx
        self.yaml_placers = {"figure": _not_in_yaml, "widget": _not_in_yaml, "check": _not_in_yaml,
                             "table": ctx.placers["table"]}
        self.yaml_ctx = ctx._replace(placers=self.yaml_placers, number_equations=False)
        title = msg("a section title")
        self.title_ctx = ctx._replace(mark_term=_no_mark(title), cite=_no_cite(title),
                                             cite_narrative=_no_cite(title, narrative=True), number_equations=False)
        objective = msg("an objective (the index page shows it too)")
        self.objective_ctx = self.yaml_ctx._replace(mark_term=_no_mark(objective),
                                                 cite=_no_cite(objective),
                                                 cite_narrative=_no_cite(objective, narrative=True))
        # a challenge's answer may place a figure; the page shows the answer twice (on screen, and printed with the
        # answers at the end), the second time with a copy of the figure whose ids differ
        # (and a listing of lesson.py's code: a worked solution's)
        self.answer_ctx = self.yaml_ctx._replace(placers={**self.yaml_placers, "figure": ctx.placers["figure"],
                                                          "code": ctx.placers["code"]})
        self.print_ctx = self.yaml_ctx._replace(copy="print", placers={
            **self.yaml_placers, "figure": lambda name, args, at=None: figures.place(self, name, args, copy="print"),
            "table": lambda name, args, at=None: widget_page.place_table(self, name, args, at, copy="print"),
            "code": lambda name, args, at=None: listings.place(self, name, args, at, copy="print")})

    @property
    def problems(self) -> list[Problem]:
        return self.ctx.problems

    def unplaced(self) -> list[Problem]:
        """What lesson.py or lesson.yaml defines and the page never placed, by the features that own it."""
        return [problem for check in UNPLACED for problem in check(self)]

    # ── what a placement may use (features/placing.py Page) ──
    def place(self, kind: str, name: str, args: tuple[str, ...], **options) -> str | Miss:
        return PLACERS[kind](self, name, args, **options)

    def md(self, key: str, text: str, inline: bool = False, context=None) -> str:
        """A lesson.yaml field's Markdown as the plan parsed it at load (load/plan.py): its blocks, or (`inline`) the
        one paragraph it is, without its <p>. `text`: the field's text (none: nothing to render)."""
        render = markup.render_inline if inline else markup.render_blocks
        return render(self.field(key, text), context or self.yaml_ctx, self.lesson.source.meta_path)

    def plain(self, key: str, text: str) -> str:
        """A plain text field of lesson.yaml (a challenge's title, a self-check's feedback) with its values shown."""
        return markup.render_text(self.field(key, text), self.yaml_ctx, self.lesson.source.meta_path)

    def field(self, key: str, text: str) -> tuple:
        nodes = self.lesson.source.plan.fields.get(key)
        if nodes is None and text.strip():  # our bug: every text of lesson.yaml is parsed at load
            raise KeyError(f"lesson.yaml field {key} is not in the lesson's plan")
        return nodes or ()

    def inline(self, text: str, path, line: int | None, plain: bool = False) -> str:
        """A text of lesson.py's (a caption, an alt text, a table's column name): Markdown, or `plain` text."""
        return (markup.plain if plain else markup.inline_markdown)(text, self.ctx, path, line or 1)

    def template(self, name: str, **context) -> str:
        return self.env.get_template(name).render(ui=self.ui, **context)

    def figure_mark(self, name: str) -> str:
        return self.setting.holes.mark(FigureHole(self.lesson.slug, name))

    def figure_data_mark(self, name: str, figure_id: str, number: int) -> str:
        return self.setting.holes.mark(FigureDataHole(self.lesson.slug, name, figure_id, number))

    def mounted(self, component, context: dict, widget, name: str, script) -> str:
        inner = render_component(self.env, self.ui, component, context, widget, name, self.lesson.source.code_path,
                                 self.problems)
        return "" if inner is None else mount(widget.kind, context["id"], inner, script)


def _no_mark(where: Message):
    def refuse(name: str, shown: str | None) -> Miss:
        return Miss(msg("glossary term `[[{name}]]` in {where}", name=name, where=where),
                    "the term marked in the text below it (its first use there is marked by itself)")
    return refuse


def _no_cite(where: Message, narrative: bool = False):
    """A citation refused where other pages repeat the text (`[@…]`: its node; `@key`: its key and locator)."""
    def refuse(cited, locator: str | None = None) -> Miss:
        return Miss(msg("citation `{citation}` in {where}", citation=f"@{cited}" if narrative else f"[{cited.body}]",
                        where=where), "the citation in the text below it")
    return refuse


def _not_in_yaml(name: str, args: tuple[str, ...], at=None) -> Miss:
    return Miss(msg("`{name}` placed outside lesson.md", name=name),
                "figures and widgets placed in lesson.md only (numbered in reading order; refer to a figure with @fig:NAME)")


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
