"""The render stage: computed lessons → page drafts (render/draft.py) through the theme's templates: every lesson
page, the index page and the glossary page. Figures, their data and each page's code are holes, filled by the
assemble stage once the figures are drawn."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jinja2

from ..compute.run import ComputedLesson
from ..features import glossary as terms
from ..features import search
from ..features.components import Components
from ..features.coursenav import Course, course_entry, course_parts, in_course_order, pager_link
from ..features.bibtex import Bibliography, lesson_references
from ..features.glossary import glossary_entry
from ..load.lessons import LessonSource
from ..load.formats import FORMATS, Format
from ..load.release import Edition, Publication
from ..load.siteconfig import SiteConfig
from ..support.errors import ContentError, Problem
from ..support.i18n import UnknownUiString
from ..support.jsondata import json_for_script
from ..support.paths import SitePaths
from . import markup
from ..support.records import Mutable, Record
from .draft import HEAD, POLICY, SCRIPTS, STYLE, Holes, PageDraft
from ..support.store import Store
from .definitions import kept_definitions
from .lesson import RenderedLesson, render_lesson
from .placers import PageSetting
from .notebook import lesson_notebook
from .templates import theme_problem

if TYPE_CHECKING:  # only an LMS edition's pages have one
    from .questions import LessonPackage


class Renderer(Mutable):
    """What rendering one site needs: the theme's templates, its components, the build's markers and converters,
    the course's bibliography (features.citations; a lesson's own references.bib adds to it) and the build's cache
    (for the notebooks)."""
    env: jinja2.Environment
    ui: Any                                   # the theme's words (support/i18n.py UiStrings)
    components: Components
    holes: Holes
    converters: markup.Converters
    bibliography: Bibliography | None = None
    cache: Store | None = None
    publication: Publication | None = None    # load/release.py: the edition and each lesson's release
    sections: Any = None                      # render/sectionmemo.py SectionMemo (None: every part rendered)
    format: Format = FORMATS["site"]          # what the build makes (load/formats.py): each lesson's parts
    made_of: tuple[str, ...] = ()             # the cache entries every lesson page is made from (its definitions)


class Rendered(Record):
    drafts: list[PageDraft]
    summaries: dict[str, dict[str, Any]]  # slug → what other pages read of each lesson rendered now (lesson_summary)
    cache_entries: dict[str, tuple[str, ...]]  # slug → what its page read (notebook)
    warnings: dict[str, list[Problem]]         # slug → what rendering it let pass
    packages: dict[str, LessonPackage]         # slug → its LMS package's parts (lms)


def render_site(computed: list[ComputedLesson], renderer: Renderer, config: SiteConfig, problems: list[Problem],
                sources=None, glossary: terms.Glossary | None = None,
                kept: dict[str, dict[str, Any]] | None = None) -> Rendered:
    """`sources`: every lesson read (also those whose code failed), so links to them are not reported twice;
    `glossary`: content/glossary.yaml as loaded (features.glossary), or None; `kept`: the summaries of lessons whose
    pages are taken as an earlier build wrote them (their inputs are the same): the index page, the glossary page
    and their neighbours' pagers read them instead of a rendered page."""
    try:
        return _render_site(computed, renderer, config, problems, sources, glossary, kept or {})
    except (jinja2.UndefinedError, jinja2.TemplateSyntaxError, jinja2.TemplateNotFound, UnknownUiString) as exc:
        raise theme_problem(exc) from None


def lesson_summary(context: dict[str, Any], ui) -> dict[str, Any]:
    """What the other pages read of a lesson: its card on the index page, its search entry, the glossary terms it
    uses, its title for its neighbours' pagers."""
    return {"slug": context["slug"], "title": context["title"], "summary": context["summary"],
            "objectives": context["objectives"], "minutes": context["minutes"],
            "glossary": [{"id": t["id"]} for t in context["glossary"]], "search": search.lesson_entry(context, ui)}


def _render_site(computed: list[ComputedLesson], renderer: Renderer, config: SiteConfig, problems: list[Problem],
                 sources, glossary: terms.Glossary | None, kept: dict[str, dict[str, Any]]) -> Rendered:
    publication = renderer.publication or Publication(Edition(), {})
    lms = publication.edition.lms
    has_glossary = glossary is not None and bool(glossary.terms)
    common = _common(renderer, config, publication, has_glossary)
    ordered = in_course_order(computed, config.course_order())
    everyone = in_course_order(sources, config.course_order()) if sources else [c.source for c in ordered]
    course = _course(everyone, glossary, renderer, config, publication, problems)
    contexts, parts, entries, warnings = _lesson_contexts(ordered, course, renderer, publication, problems)
    fresh = {slug: lesson_summary(context, renderer.ui) for slug, context in contexts.items()}
    built = {**kept, **fresh}
    lessons = [built[s.slug] for s in everyone if s.slug in built]  # in course order
    drafts = _lesson_drafts(lessons, contexts, course, renderer.env, renderer.holes, common, lms)
    drafts.append(_index_draft(lessons, course, renderer, config, publication, common))
    if has_glossary:
        text = glossary_page(renderer.env, course, lessons, common)
        drafts.append(renderer.holes.draft(text, SitePaths.GLOSSARY, "glossary.html"))
    packages = {slug: made["package"] for slug, made in parts.items() if "package" in made}
    return Rendered(drafts, fresh, entries, warnings, packages)


def _common(renderer: Renderer, config: SiteConfig, publication: Publication, has_glossary: bool) -> dict[str, Any]:
    """What every page's template reads: the site, its assets (holes filled at assembly), the edition, the theme's
    words."""
    holes, edition = renderer.holes, publication.edition
    return {"site": {"title": config.title or renderer.ui.site_title, "description": config.description},
            "assets": {"css": holes.mark(STYLE), "head": holes.mark(HEAD), "scripts": holes.mark(SCRIPTS)},
            "csp": holes.mark(POLICY),
            "glossary_page": {"url": SitePaths.GLOSSARY} if has_glossary and not edition.lms else None,
            "edition": {"teacher": edition.teacher, "lms": edition.lms},
            "ui": renderer.ui}


def _course(everyone: list[LessonSource], glossary: terms.Glossary | None, renderer: Renderer, config: SiteConfig,
            publication: Publication, problems: list[Problem]) -> Course:
    """The course every page links into: its lessons in order, the glossary and its definitions, its parts."""
    entries = [{**course_entry(s), "number": n} for n, s in enumerate(everyone, start=1)]
    definitions = kept_definitions(glossary, problems, renderer) if glossary is not None else {}
    return Course(entries, glossary, definitions, course_parts(config.parts, entries),
                  frozenset(publication.left_out()))


def _lesson_contexts(ordered: list[ComputedLesson], course: Course, renderer: Renderer, publication: Publication,
                     problems: list[Problem]):
    """Each lesson rendered once (render/lesson.py), then the parts the build's format makes of it (LESSON_PARTS):
    each lesson's page context, its parts beside the page, the cache entries they are made of, what rendering let
    pass."""
    contexts, parts, entries, warnings = {}, {}, {}, {}
    for lesson in ordered:
        bibliography = lesson_references(renderer.bibliography, lesson.source.folder, problems, renderer.cache)
        setting = PageSetting(renderer.env, renderer.ui, renderer.components, course, renderer.holes,
                              renderer.converters, bibliography, publication.of(lesson.slug), publication.edition,
                              renderer.sections)
        try:
            rendered = render_lesson(lesson, setting)
        except ContentError as err:
            problems += err.problems
            continue
        context = rendered.context
        warnings[lesson.slug] = context.pop("warnings")
        if lesson.source.problems:  # its Markdown was checked; a lesson.yaml with problems cannot fill the page
            continue
        made = {part: LESSON_PARTS[part](lesson, rendered, renderer, course, bibliography)
                for part in renderer.format.lesson_parts if part != "page"}
        context["files"] = tuple(file for part in made.values() for file in part.files)
        sections = renderer.sections.used.get(lesson.slug, []) if renderer.sections is not None else []
        made_of = tuple(entry for part in made.values() for entry in part.made_of)
        entries[context["slug"]] = made_of + tuple(sections) + renderer.made_of
        contexts[context["slug"]] = context
        parts[context["slug"]] = {name: part.value for name, part in made.items() if part.value is not None}
    return contexts, parts, entries, warnings


class LessonPart(Record):
    """What one of a lesson's outputs made beside its page."""
    files: tuple = ()            # (path, content) written beside the page (render/draft.py PageDraft.files)
    made_of: tuple[str, ...] = ()  # the cache entries it is made of (a kept page keeps them)
    value: Any = None            # what a later command reads of it (a learning platform's package: lessonkit/export)


def _notebook(lesson: ComputedLesson, rendered: RenderedLesson, renderer: Renderer, course: Course,
              bibliography: Bibliography | None) -> LessonPart:
    file, made_of = lesson_notebook(lesson, rendered, renderer.ui, course, renderer.cache, bibliography)
    return LessonPart((file,), made_of)


# what a build renders of each lesson beside its page (load/formats.py Format.lesson_parts), and who renders it
LESSON_PARTS = {
    "notebook": _notebook,
    "package": lambda lesson, rendered, renderer, course, bibliography: LessonPart(value=rendered.package),
}


def _lesson_drafts(lessons: list[dict[str, Any]], contexts: dict[str, dict[str, Any]], course: Course,
                   env: jinja2.Environment, holes: Holes, common: dict[str, Any], lms: bool) -> list[PageDraft]:
    """The pages of the lessons rendered now (`lessons`: every summary in course order, for the pagers)."""
    drafts = []
    for i, summary in enumerate(lessons):
        if summary["slug"] not in contexts:
            continue  # kept as it was
        context, page = contexts[summary["slug"]], SitePaths.lesson(summary["slug"])
        context["prev"] = pager_link(page, lessons[i - 1]) if i > 0 and not lms else None
        context["next"] = pager_link(page, lessons[i + 1]) if i + 1 < len(lessons) and not lms else None
        found = search.search_index([summary["search"]], here=context["slug"], root=SitePaths.root(page))
        if lms:  # a package holds its lesson's page alone: nothing to link to, no course to search
            found.pop("all")
        listed = [entry for entry in course.lessons if entry["slug"] == context["slug"]] if lms else course.lessons
        text = env.get_template("lesson.html").render(lesson=context, course=listed,
                                                      course_parts=None if lms else course.parts,
                                                      root=SitePaths.root(page), search=_search_box(found), **common)
        drafts.append(holes.draft(text, page, "lesson.html", context["folder"], files=context["files"]))
    return drafts


def _index_draft(lessons: list[dict[str, Any]], course: Course, renderer: Renderer, config: SiteConfig,
                 publication: Publication, common: dict[str, Any]) -> PageDraft:
    """The index page: every lesson's card in course order, those announced for later, the course's search."""
    listed = [{"slug": c["slug"], "title": c["title"], "summary": c["summary"], "url": SitePaths.lesson(c["slug"]),
               "objectives": c["objectives"], "minutes": c["minutes"], "number": n,
               "draft": publication.of(c["slug"]).draft} for n, c in enumerate(lessons, start=1)]
    coming = [{"title": title, "day": day.isoformat()} for _, title, day in publication.announced]
    course_index = search.course_index([c["search"] for c in lessons])
    text = renderer.env.get_template("index.html").render(
        lessons=listed, lesson_parts=course_parts(config.parts, listed), coming=coming, course=course.lessons,
        course_parts=course.parts, root="", search=_search_box(course_index.box), **common)
    return renderer.holes.draft(text, SitePaths.INDEX, "index.html",
                                script_sources=tuple(search.csp_sources(course_index.box)),
                                files=((search.INDEX_FILE, course_index.script),))


def glossary_page(env: jinja2.Environment, course: Course, contexts: list[dict[str, Any]],
                  common: dict[str, Any]) -> str:
    """Every term of the site, in the glossary's order, with the lessons that use it (their titles, in course order)."""
    entries = []
    for term in course.glossary.terms:
        entry = glossary_entry(term, course.definitions)
        entry["lessons"] = [{"title": c["title"],
                             "url": SitePaths.url(SitePaths.GLOSSARY, SitePaths.lesson(c["slug"]), f"term-{term.id}")}
                            for c in contexts if any(t["id"] == term.id for t in c["glossary"])]
        entries.append(entry)
    return env.get_template("glossary.html").render(terms=entries, course=course.lessons, course_parts=course.parts,
                                                    root=SitePaths.root(SitePaths.GLOSSARY), **common)


def _search_box(data: dict[str, Any]) -> dict[str, Any]:
    """The search component as the templates place it (partials/search.html); `site-search` cannot collide with a
    section id an author writes, which are ASCII words the author picks."""
    return {"id": "site-search", "kind": "search", "data": data, "json": json_for_script(data)}
