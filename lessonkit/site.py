"""The build, as a table of contents: load → compute → draw (in the background) → render → assemble → write.
Each stage hands plain data to the next and reports the author's problems as values; only a build without problems
writes anything.

  load      load/ (lesson folders, lesson.md, lesson.yaml and site.yaml schemas), features/glossary (glossary.yaml)
  compute   compute/ (lesson.py: values, widget data, the figures to draw)
  draw      draw/ (figures from the cache or drawn across cores: SVG, plotted data, dark palette)
  render    render/ (Markdown, the theme's templates, placed features) → page drafts with typed holes
  assemble  assemble/ (drafts filled once: figures, data tables, code, Content-Security-Policy; page weight)
  write     write/ (a temporary folder swapped in)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from .assemble.assemble import Assembler
from .assemble.budget import check_budget, page_sizes
from .compute.run import ComputedLesson, compute_lesson
from .draw.drawing import start_drawing
from .features.components import Components
from .features.citations import Bibliography, load_references
from .features.glossary import Glossary, load_glossary
from .features.scriptcheck import check_scripts
from .load.lessons import LessonSource, find_lessons, order_ties, read_lesson
from .load.siteconfig import Budget, load_site_config
from .render import markup
from .render.draft import Holes, PageDraft
from .render.pages import Renderer, render_site
from .render.templates import asset_path, make_env, theme_dirs, theme_problem
from .support.cache import FigureCache, prune
from .support.errors import ContentError, Problem, UsageError
from .support.i18n import DEFAULT as DEFAULT_LANGUAGE
from .support.i18n import UiStrings, available_languages, load_ui
from .support.paths import SitePaths
from .support.session import Session
from .write.output import write_site


@dataclass
class Options:
    content: Path
    out: Path
    themes: Path
    theme: str | None = None        # None: site.yaml's `theme:`, else `default`
    lesson: str | None = None
    cache: Path | None = None       # cache folder; None computes and draws everything
    jobs: int | None = None         # processes drawing figures; None: one per core
    preview_script: str | None = None  # `serve`'s reload script, run by every page (its hash in each policy)
    strict: bool = False            # warnings (two lessons with one `order` …) are errors
    figure_png: bool = False        # also every lesson figure as a PNG picture (for the slides), cached like the SVG


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
    search_bytes: int = 0            # the course's search index (SitePaths.SEARCH_INDEX), loaded when searched
    lessons: list[str] = field(default_factory=list)  # the slugs of the lesson pages written, in course order
    warnings: list[Problem] = field(default_factory=list)  # what the build let pass; errors under --strict
    figure_png: dict[str, dict[str, bytes]] = field(default_factory=dict)  # slug → figure → PNG (Options.figure_png)


def build(options: Options) -> BuildReport:
    """Every stage runs as far as the content allows, so one run lists the problems of every lesson and every
    stage (reading, lesson code, figures, Markdown); only a build without problems writes anything."""
    started, build_began = time.perf_counter(), time.time()
    session = Session(FigureCache(options.cache), preview_script=options.preview_script)
    problems: list[Problem] = []
    config = load_site_config(options.content, problems)                          # load
    glossary = load_glossary(options.content, problems)
    bibliography = load_references(options.content, problems, session.cache)
    sources, course = load_sources(options.content, options.lesson, problems)
    warnings = order_ties(course)
    if options.strict:
        problems += warnings
    dirs = theme_dirs(options.themes, options.theme or config.theme)
    ui = site_ui(dirs, config, options.content, problems)
    computed = compute_all(sources, session.cache, problems)                      # compute
    with start_drawing(computed, session.cache, options.jobs, options.figure_png) as drawing:          # draw, while …
        env = make_env(dirs, ui, session.templates_folder)
        drafts = render_all(computed, course, env, dirs, config, session, problems, glossary,  # … render
                            bibliography)
        problems += check_component_scripts(drafts, computed, dirs, session)
        drawn = drawing.finish()
    problems += drawn.problems
    if problems:
        raise ContentError(by_lesson(problems, options.content))
    site = assemble_all(drafts, env, dirs, drawn.figures, session)                # assemble
    sizes, gzip_sizes = page_sizes(site)
    check_budget(sizes, gzip_sizes, config.budget)
    write_site(site, options.out)                                                 # write
    if session.cache.enabled:  # only after a build that succeeded: one that failed has not used what it would need
        prune(session.cache.folder, now=time.time(), used_since=build_began - 2)  # 2 s: coarse file-system clocks
    lessons = [slug for d in drafts if (slug := SitePaths.lesson_slug(d.path))]
    return BuildReport(site, drawing.stats.font, time.perf_counter() - started, sizes, gzip_sizes,
                       drawing.stats.drawn, drawing.stats.cached, config.budget, sizes.get(SitePaths.SEARCH_INDEX, 0), lessons,
                       [] if options.strict else warnings, pictures(drawn.figures))


def pictures(figures) -> dict[str, dict[str, bytes]]:
    """The PNG pictures a build drew or took from the cache, by lesson and figure."""
    found: dict[str, dict[str, bytes]] = {}
    for (slug, name), drawn in figures.items():
        if drawn.png is not None:
            found.setdefault(slug, {})[name] = drawn.png
    return found


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
    return sorted(dict.fromkeys(problems), key=key)


def load_sources(content_dir: Path, only: str | None,
                 problems: list[Problem]) -> tuple[list[LessonSource], list[LessonSource]]:
    """The lessons to build (every folder, or `only`), read as far as possible, their problems added to
    `problems`; and every lesson of the course, which links and navigation refer to even when one is built alone."""
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
    if only is None:
        return sources, sources
    others = [read_lesson(folder) for folder in find_lessons(content_dir) if folder.name != only]
    return sources, sources + others  # the others' problems are not this build's


def compute_all(sources: list[LessonSource], cache: FigureCache, problems: list[Problem]) -> list[ComputedLesson]:
    """Run each lesson's code. A lesson whose values cannot be computed is left out (its Markdown would only
    report every value as unknown); a failing widget is reported and the rest still run."""
    computed = []
    for source in sources:
        if not source.code_readable:
            continue
        try:
            computed.append(compute_lesson(source, problems, cache))
        except ContentError as err:
            problems += err.problems
    return computed


def site_ui(dirs: list[Path], config, content_dir: Path, problems: list[Problem]) -> UiStrings:
    """The pages' words in site.yaml's `language:`; a language no theme file has is the author's problem there."""
    try:
        return load_ui(dirs, config.language)
    except ValueError as exc:
        if config.language_line is None:  # the default language itself: the theme lacks its file
            raise UsageError(str(exc)) from None
        problems.append(Problem(content_dir / "site.yaml", config.language_line,
                                f"unknown language `{config.language}`",
                                f"one of: {', '.join(available_languages(dirs)) or 'none'} "
                                f"(a theme file i18n/<language>.yaml)"))
        return load_ui(dirs, DEFAULT_LANGUAGE)


def render_all(computed: list[ComputedLesson], sources: list[LessonSource], env: jinja2.Environment,
               dirs: list[Path], config, session: Session, problems: list[Problem],
               glossary: Glossary | None = None, bibliography: Bibliography | None = None) -> list[PageDraft]:
    """Every page's draft, with MathML conversions and highlighted code taken from (and added to) the cache."""
    session.mathml = session.cache.get_math()
    known_math = len(session.mathml)
    converters = markup.Converters(session.mathml, session.cache.get_highlights())
    renderer = Renderer(env, Components(dirs), Holes(), converters, bibliography, session.cache)
    drafts = render_site(computed, renderer, config, problems, sources, glossary)
    if len(session.mathml) > known_math:
        session.cache.put_math(session.mathml)
    if converters.highlighter.added:
        session.cache.put_highlights(converters.highlighter.memo)
    return drafts


def check_component_scripts(drafts: list[PageDraft], computed: list[ComputedLesson], dirs: list[Path],
                            session: Session) -> list[Problem]:
    """Every script the pages will run, parsed before anything is written (features.scriptcheck); also those of
    the widgets of a lesson whose page had other problems, so they are listed together."""
    pages = [(d.components, d.lesson_folder) for d in drafts]
    pages += [(tuple(w.kind for w in c.widgets.values()), c.source.folder) for c in computed]
    return check_scripts(Components(dirs).used(pages), session.cache, base=asset_path(dirs, "lesson.js"))


def assemble_all(drafts: list[PageDraft], env: jinja2.Environment, dirs: list[Path], figures,
                 session: Session) -> dict[str, bytes]:
    try:
        return Assembler(env, Components(dirs), dirs, figures, session.preview_script).site(drafts)
    except (jinja2.UndefinedError, jinja2.TemplateSyntaxError, jinja2.TemplateNotFound) as exc:
        raise theme_problem(exc) from None
