"""The stages that make pages (compute → draw, while render → assemble), run by `site.build` when some page's
inputs changed; imported only then, so a build with nothing to make imports neither Jinja nor Markdown nor numpy."""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Callable

import jinja2

from . import incremental
from .assemble.assemble import Assembler
from .assemble.budget import GzipSizes
from .assemble.minify import Minified
from .compute.run import ComputedLesson, compute_lesson
from .draw.drawing import DrawStats, cell_figure_style, start_drawing
from .features import code
from .features.components import LEAN, Components
from .features.palette import PageColors, builtin_page_colors, page_colors
from .features.scriptcheck import check_scripts
from .load.formats import FORMATS, Format
from .load.lessons import LessonSource
from .load.theme import asset_path
from .render import markup
from .render.draft import Holes, PageDraft
from .render.pages import Rendered, Renderer, render_site
from .render.sectionmemo import SectionMemo
from .render.templates import make_env, theme_problem
from .support.cachekeys import code_shape_entries, package_version, values_key
from .support.errors import ContentError, Problem
from .support.messages import msg
from .support.i18n import UnknownUiString
from .support.paths import SitePaths
from .support.records import Record
from .support.session import Session
from .support.store import FIGURE, HIGHLIGHTS, MATHML, VALUES, Kind, Store


NOTHING_MADE: dict = MappingProxyType({})  # (read-only: what a build with problems made)


class Made(Record):
    """The pages made now (kept ones aside), with what the next build may keep of them."""
    pages: dict[str, bytes] = NOTHING_MADE
    gzip_sizes: dict[str, int] = NOTHING_MADE
    rendered: Rendered | None = None
    stats: DrawStats | None = None                 # None: nothing made (the build's problems are reported)
    figures: dict[str, int] = NOTHING_MADE         # slug → figures on its page
    pictures: dict[str, dict[str, bytes]] = NOTHING_MADE
    made_of: dict[str, tuple[str, ...]] = NOTHING_MADE  # slug → cache entries its page was made from
    warnings: dict[str, list[Problem]] = NOTHING_MADE   # slug → what rendering its page let pass
    packages: dict = NOTHING_MADE   # slug → what its LMS package needs (render/questions.py; lms)
    cells: tuple[int, int] = (0, 0)  # the code cells of the lessons written as cells: (run now, in all)


def make_pages(gathered, options, session: Session, problems: list[Problem]) -> Made:
    """Every page but the kept lessons' (`gathered`: site.Gathered, what the load stage read): their problems go
    to `problems` (nothing is made then), what it lets pass to `Made.warnings`."""
    sources, kept = gathered.sources, gathered.kept
    computed = compute_all([s for s in sources if s.slug not in kept], session.cache, problems,  # compute
                           cell_figure_style(session.cache))
    page = theme_page_colors(gathered.dirs, problems)
    with start_drawing(computed, session.cache, options.jobs, page, options.figure_png,          # draw, while …
                       options.drawing_start) as drawing:
        env = make_env(gathered.dirs, session.templates_folder)
        rendered = render_all(computed, gathered, env, session, problems, FORMATS[options.format])  # … render
        problems += check_component_scripts(rendered.drafts, computed, gathered.dirs, session)
        drawn = drawing.finish()
    problems += drawn.problems
    if problems:
        return Made()
    for lesson in computed:   # a figure drawn from more than its data table holds: said, never silently
        if found := untabulated(lesson, drawn.figures):
            rendered.warnings.setdefault(lesson.slug, []).extend(found)
    with GzipSizes() as weighing:                            # each page weighed while the next is assembled
        pages = assemble_all(rendered.drafts, env, gathered, drawn.figures, session, weighing.add)  # assemble
        for lesson in computed:  # what was derived from its values now: kept for the next build (compute/kept.py)
            if lesson.memo is not None:
                lesson.memo.keep(session.cache)
        gzip_sizes = weighing.result()
    return Made(pages, gzip_sizes, rendered, drawing.stats,
                {c.slug: len(c.figure_jobs) for c in computed}, pictures(drawn.figures),
                made_of(computed, drawn, rendered.cache_entries), rendered.warnings, rendered.packages,
                cells_run(computed))


def cells_run(computed: list[ComputedLesson]) -> tuple[int, int]:
    """(code cells run in this build, code cells in all) of the lessons written as cells."""
    lessons = [c for c in computed if c.cells is not None]
    return (sum(c.cells_run for c in lessons),
            sum(cell.kind != "markdown" for c in lessons for cell in c.cells.cells))


def untabulated(lesson: ComputedLesson, figures: dict) -> list[Problem]:
    """A warning at each figure of `lesson` whose data table leaves out what it draws (features/figdata.py records
    the kinds), unless the lesson hands its data (`data=`)."""
    found = []
    for job in lesson.figure_jobs:
        drawn = figures.get((lesson.slug, job.name))
        kinds = (drawn.data or {}).get("untabulated") if drawn is not None and job.data is None else None
        if kinds:
            found.append(Problem(job.path, job.line, msg("figure `{name}`: what it draws as {kinds} is in no data "
                                                         "table", name=job.name, kinds=", ".join(kinds)),
                                 msg("the numbers behind it handed as a table with `data=` (a figure cell's header, "
                                     "or @lesson.figure), or a plain plot of them")))
    return found


def made_of(computed: list[ComputedLesson], drawn, rendered: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """The cache entries each lesson page was made from (its values, its figures, what rendering it read): while
    the page is kept they are kept too (cache.prune keeps what a build touches), so an edit to its text later finds
    its figures drawn."""
    found: dict[str, list[str]] = {c.slug: [VALUES.entry(values_key(c.files_digest)),
                                            *code_shape_entries(c.source.folder),
                                            *(c.memo.entries() if c.memo is not None else ())]
                                   if c.files_digest else [] for c in computed}
    for slug, entries in rendered.items():
        found.setdefault(slug, []).extend(entries)
    for (slug, _), key in drawn.keys.items():
        found.setdefault(slug, []).extend(kind.entry(key) for kind in FIGURE)
    return {slug: tuple(paths) for slug, paths in found.items()}


def theme_page_colors(dirs: list[Path], problems: list[Problem]) -> PageColors:
    """The page colours the theme's style.css sets, which the figures' dark colours are computed against; when it
    does not set them, its problem goes to `problems` and the built-in theme's stand in (nothing is written then,
    but the rest of the build still finds its own problems)."""
    try:
        return page_colors(asset_path(dirs, "style.css"))
    except ContentError as err:
        problems += err.problems
        return builtin_page_colors()


def compute_all(sources: list[LessonSource], cache: Store, problems: list[Problem],
                figure_style=None) -> list[ComputedLesson]:
    """Run each lesson's code. A lesson whose values cannot be computed is left out (its Markdown would only
    report every value as unknown); a failing widget is reported and the rest still run. `figure_style()`: the
    rcParams a figure cell draws with (draw/drawing.py cell_figure_style)."""
    computed = []
    for source in sources:
        if not source.code_readable:
            continue
        try:
            computed.append(compute_lesson(source, problems, cache, figure_style))
        except ContentError as err:
            problems += err.problems
    return computed


def render_all(computed: list[ComputedLesson], gathered, env: jinja2.Environment, session: Session,
               problems: list[Problem], format: Format = FORMATS["site"]) -> Rendered:
    """Every page's draft (but the kept lessons'), with MathML conversions and highlighted code taken from (and
    added to) the cache."""
    session.mathml = memo(session.cache, MATHML, "latex2mathml")
    known_math = len(session.mathml)
    coloured = code_colours(gathered.dirs)
    highlights = code.memo_key(package_version("pygments"), coloured)
    converters = markup.Converters(session.mathml, session.cache.get_json(HIGHLIGHTS, highlights) or {}, coloured)
    sections = SectionMemo(session.cache, session.shared_inputs) if session.shared_inputs is not None else None
    renderer = Renderer(env, gathered.ui, Components(gathered.dirs), Holes(), converters, gathered.bibliography,
                        session.cache, gathered.publication, sections, format=format)
    kept = {slug: k.summary for slug, k in gathered.kept.items()}
    rendered = render_site(computed, renderer, gathered.config, problems, gathered.course, gathered.glossary, kept)
    if len(session.mathml) > known_math:
        session.cache.put_json(MATHML, package_version("latex2mathml"), session.mathml)
    if converters.highlighter.added:
        session.cache.put_json(HIGHLIGHTS, highlights, converters.highlighter.memo)
    return rendered


def code_colours(dirs: list[Path]) -> frozenset[str] | None:
    """The token classes the theme's `code` component colours (None: a theme without one keeps every class)."""
    component = Components(dirs).find("code")
    return code.coloured_classes(component.asset("widget.css")) if component is not None else None


def memo(cache: Store, kind: Kind, package: str) -> dict[str, str]:
    """What earlier builds converted with this version of `package` (so a warm build need not import it)."""
    saved = cache.get_json(kind, package_version(package))
    return saved if isinstance(saved, dict) else {}


def check_component_scripts(drafts: list[PageDraft], computed: list[ComputedLesson], dirs: list[Path],
                            session: Session) -> list[Problem]:
    """Every script the pages will run, parsed before anything is written (features.scriptcheck); also those of
    the widgets of a lesson whose page had other problems, so they are listed together."""
    pages = [(d.components, d.lesson_folder) for d in drafts]
    pages += [(tuple(w.kind for w in c.widgets.values()), c.source.folder) for c in computed]
    return check_scripts(Components(dirs).used(pages), session.cache,
                         base=[asset_path(dirs, name) for name in ("head.js", "lesson.js")])


def assemble_all(drafts: list[PageDraft], env: jinja2.Environment, gathered, figures, session: Session,
                 made: Callable[[str, bytes], None] | None = None) -> dict[str, bytes]:
    shrink = LEAN if session.preview_script else Minified(session.cache)   # (`serve`: every line kept)
    try:
        pages = Assembler(env, gathered.ui, Components(gathered.dirs), gathered.dirs, figures,
                          session.preview_script, shrink).site(drafts, made)
        shrink.save()
        return pages
    except (jinja2.UndefinedError, jinja2.TemplateSyntaxError, jinja2.TemplateNotFound, UnknownUiString) as exc:
        raise theme_problem(exc) from None


def remember(reuse: incremental.Reuse, made: Made, warnings: dict[str, tuple] | None = None,
             read: dict[str, tuple[str, ...]] | None = None) -> None:
    """What the next build may take as it is: each lesson page rendered now (with `warnings`, what the build said
    of its text, as incremental.unanchored keeps it, and `read`, the cache entries reading its text used), and the
    site's own pages."""
    beside = {slug: [] for slug in made.rendered.summaries}   # the files in a lesson's folder: kept with its page
    for path, data in made.pages.items():
        folder = path.partition("/")[0]
        if folder in beside and path != SitePaths.lesson(folder):
            beside[folder].append((path, data))
    for slug, summary in made.rendered.summaries.items():
        page = SitePaths.lesson(slug)
        reuse.keep_lesson(slug, incremental.KeptLesson(made.pages[page], made.gzip_sizes[page], summary,
                                                       made.figures.get(slug, 0),
                                                       made.made_of.get(slug, ()) + (read or {}).get(slug, ()),
                                                       tuple(beside[slug]), (warnings or {}).get(slug, ())))
    in_lessons = {path for files in beside.values() for path, _ in files}
    reuse.keep_site({path: (data, made.gzip_sizes.get(path)) for path, data in made.pages.items()
                     if SitePaths.lesson_slug(path) is None and path not in in_lessons})


def pictures(figures) -> dict[str, dict[str, bytes]]:
    """The PNG pictures a build drew or took from the cache, by lesson and figure."""
    found: dict[str, dict[str, bytes]] = {}
    for (slug, name), drawn in figures.items():
        if drawn.png is not None:
            found.setdefault(slug, {})[name] = drawn.png
    return found
