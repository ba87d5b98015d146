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

import datetime as dt
import functools
import time
from pathlib import Path
from types import MappingProxyType

from . import incremental
from .assemble.budget import check_budget
from .features.bibtex import Bibliography, lesson_references, load_references
from .features.coursenav import in_course_order
from .features.glossary import Glossary, load_glossary
from .load.lessons import LessonSource, find_lessons, lesson_budget, order_ties, read_lesson
from .load import formats, requires
from .load.release import Edition, Publication, build_day, release_of
from .load.siteconfig import Budget, SiteConfig, check_parts, load_site_config
from .load.theme import theme_dirs
from .support.errors import ContentError, Problem, UsageError
from .support.messages import msg, reason
from .support.i18n import DEFAULT as DEFAULT_LANGUAGE
from .support.i18n import UiStrings, available_languages, load_ui
from .support.font import saved_font
from .support.paths import SitePaths
from .support.prune import prune_when_due
from .support.records import Mutable, Record, fresh
from .support.session import Session
from .support.store import Store
from .write.output import write_site


class Options(Mutable):
    content: Path
    out: Path
    themes: Path
    theme: str | None = None        # None: site.yaml's `theme:`, else `default`
    lesson: str | None = None
    cache: Path | None = None       # cache folder; None computes and draws everything
    jobs: int | None = None         # processes drawing figures; None: one per core
    drawing_start: str = "fork"     # how drawing workers start: fork (build) or forkserver (serve: draw/drawing.py)
    preview_script: str | None = None  # `serve`'s reload script, run by every page (its hash in each policy)
    strict: bool = False            # warnings (two lessons with one `order` …) are errors
    figure_png: bool = False        # also every lesson figure as a PNG picture (for the slides), cached like the SVG
    date: dt.date | None = None     # the build's day (releases, answers shown from a day); None: today, site.yaml's zone
    format: str = "site"            # what the build makes (load/formats.py FORMATS): site, teacher or lms
    drafts: bool = False            # drafts built too, marked

    def __post_init__(self) -> None:
        """Paths made absolute once, here: component templates are found by absolute path and every problem names
        the real file, so a relative `themes` or `content` (as a script may pass them) would otherwise fail."""
        self.content, self.out, self.themes = (Path(p).expanduser().absolute() for p in
                                               (self.content, self.out, self.themes))
        if self.cache is not None:
            self.cache = Path(self.cache).expanduser().absolute()


class BuildReport(Record):
    pages: dict[str, bytes]
    font: str | None
    seconds: float
    sizes: dict[str, int]
    gzip_sizes: dict[str, int]
    figures_drawn: int
    figures_cached: int
    budget: Budget | None
    search_bytes: int                # the course's search index (SitePaths.SEARCH_INDEX), loaded when searched
    lessons: list[str]               # the slugs of the lesson pages written, in course order
    warnings: list[Problem]          # what the build let pass; errors under --strict
    figure_png: dict[str, dict[str, bytes]]  # slug → figure → PNG (Options.figure_png)
    pages_kept: int                  # lesson pages taken as an earlier build wrote them (their inputs unchanged)
    packages: dict                   # slug → what its LMS package needs (the `lms` format; lessonkit/export)
    files_kept: int = 0              # files of the site already in the folder it left as they were (write/output.py)
    budgets: dict[str, Budget] = MappingProxyType({})   # page → the budget its lesson.yaml sets (else `budget`)
    cells: tuple[int, int] = (0, 0)  # the code cells of the lessons written as cells: (run now, in all)


class Gathered(Mutable):
    """What the load stage read and checked: everything the stages that make pages start from."""
    config: SiteConfig
    glossary: Glossary | None
    sources: list[LessonSource]          # the lessons to build
    course: list[LessonSource]           # every lesson this edition publishes (links and navigation list them)
    publication: Publication             # load/release.py: the edition and each lesson's release
    dirs: list[Path]                     # the theme's folders, the course's own first
    ui: UiStrings                        # the theme's words in the site's language
    bibliography: Bibliography | None    # content/references.bib (features/bibtex.py)
    kept: dict = fresh(dict)  # slug → incremental.KeptLesson: pages taken as a build wrote them


def build(options: Options) -> BuildReport:
    """Every stage runs as far as the content allows, so one run lists the problems of every lesson and every
    stage (reading, lesson code, figures, Markdown); only a build without problems writes anything. Pages whose
    inputs did not change since a build that wrote them are taken from the cache (lessonkit/incremental.py)."""
    started, build_began = time.perf_counter(), time.time()
    session = Session(Store(options.cache), preview_script=options.preview_script)
    problems: list[Problem] = []
    gathered = gather(options, session, problems)                                 # load
    reuse = incremental.plan(session.cache, gathered.sources, gathered.course, options.content, gathered.dirs,
                             options, gathered.publication)
    kept = gathered.kept = reuse.kept_lessons()
    session.shared_inputs = reuse.shared  # (rendered parts of pages are kept under it: render/sectionmemo.py)
    # hand-typed numbers, from a lesson's text (and its citations' years): a kept page's were found when it was made
    memos = {s.slug: incremental.FileMemo(session.cache, s.folder, "handnumbers") for s in gathered.sources}
    hand = {s.slug: incremental.anchored(kept[s.slug].warnings, s.folder) if s.slug in kept
            else hand_typed_numbers(s, memos[s.slug], gathered.bibliography, session) for s in gathered.sources}
    warnings = ([] if gathered.config.parts else order_ties(gathered.course)) + \
        [p for s in gathered.sources for p in hand[s.slug]]
    if options.strict:  # (`order` orders nothing where parts do)
        problems += warnings
    kept_site = reuse.kept_site() if len(kept) == len(gathered.sources) else None
    if kept_site is not None and not problems:                                    # nothing changed
        site = {**kept_pages(kept), **{path: data for path, (data, _) in kept_site.items()}}
        gzip_sizes = {path: gz for path, (_, gz) in kept_site.items() if gz is not None}
        font = saved_font(session.cache)
        return finish(options, session, gathered, site, gzip_sizes, started, build_began, warnings,
                      font=font.family if font else None, weigh=False)  # (weighed when they were made)
    from . import stages  # the work: imported only when there is some (Jinja, Markdown, the lessons' numpy)

    made = stages.make_pages(gathered, options, session, problems)               # compute, draw, render, assemble
    rendered = {slug: tuple(found) for slug, found in made.warnings.items()}  # (a link to an unpublished lesson …)
    (problems if options.strict else warnings).extend(p for found in rendered.values() for p in found)
    if problems:
        raise ContentError(by_lesson(problems, options.content))
    site = {**kept_pages(kept), **made.pages}
    report = finish(options, session, gathered, site, made.gzip_sizes, started, build_began, warnings,
                    font=made.stats.font, drawn=made.stats.drawn, cached=made.stats.cached,
                    figure_png=made.pictures, packages=made.packages, cells=made.cells)
    reuse.key_with(saved_font(session.cache))  # a first build: the figures' font is known only now
    stages.remember(reuse, made, {s.slug: incremental.unanchored(hand[s.slug] + rendered.get(s.slug, ()), s.folder)
                                  for s in gathered.sources},
                    {slug: tuple(memo.entries) for slug, memo in memos.items()})
    # (only pages a build wrote may be taken again)
    return report


def gather(options: Options, session: Session, problems: list[Problem]) -> Gathered:
    """Read and check the course: site.yaml, the glossary, the lessons this edition publishes, the theme and its
    words, the bibliography. The author's problems are added to `problems`."""
    config = load_site_config(options.content, problems, session.cache)  # (each YAML file's reading kept)
    glossary = load_glossary(options.content, problems, session.cache)
    edition = formats.edition(options.format, options.drafts)
    today = functools.cache(lambda: options.date or build_day(config.timezone))   # only if some day decides
    sources, course, publication = load_sources(options.content, options.lesson, problems,
                                                lambda meta: release_of(meta, config.answers, edition, today),
                                                edition, session.cache)
    problems += check_parts(config, list(publication.releases), options.content)  # every lesson, published or not
    unmet, lacking = requires.unmet(sources)   # every missing package at once, before any lesson code runs
    problems += unmet
    sources = [s._replace(code_readable=False) if s.slug in lacking else s for s in sources]  # (its code would
    #                                                                                           only fail to import)
    dirs = theme_dirs(options.themes, options.theme or config.theme)
    ui = site_ui(dirs, config, options.content, problems, session.cache)
    bibliography = load_references(options.content, problems, session.cache)      # (content/references.bib)
    return Gathered(config, glossary, sources, course, publication, dirs, ui, bibliography)


def finish(options: Options, session: Session, gathered: Gathered, site: dict[str, bytes],
           gzip_sizes: dict[str, int], started: float, build_began: float, warnings: list[Problem], *,
           font: str | None, drawn: int = 0, cached: int = 0, figure_png: dict | None = None,
           packages: dict | None = None, weigh: bool = True, cells: tuple[int, int] = (0, 0)) -> BuildReport:
    """Weigh the site against its budget (`weigh`: pages were made now), write it, prune the cache, and say what
    the build did."""
    kept, config = gathered.kept, gathered.config
    sizes = {path: len(data) for path, data in site.items()}
    gzip_sizes = {**gzip_sizes, **{SitePaths.lesson(slug): k.gzip for slug, k in kept.items()}}
    budgets = {SitePaths.lesson(s.slug): b for s in gathered.sources
               if (b := lesson_budget(s, config.budget)) is not None}
    if weigh:
        check_budget(sizes, gzip_sizes, config.budget, site, budgets)
    kept_files = write_site(site, options.out, options.lesson)                    # write
    if session.cache.enabled:  # only after a build that succeeded: one that failed has not used what it would need
        prune_when_due(session.cache.folder, now=time.time(), used_since=build_began - 2)  # 2 s: coarse clocks
    lessons = [s.slug for s in in_course_order(gathered.sources, config.course_order())
               if SitePaths.lesson(s.slug) in site]
    return BuildReport(pages=site, font=font, seconds=time.perf_counter() - started, sizes=sizes,
                       gzip_sizes=gzip_sizes, figures_drawn=drawn,
                       figures_cached=cached + sum(k.figures for k in kept.values()), budget=config.budget,
                       search_bytes=sizes.get(SitePaths.SEARCH_INDEX, 0), lessons=lessons,
                       warnings=[] if options.strict else warnings, figure_png=figure_png or {},
                       pages_kept=len(kept), packages=packages or {}, files_kept=kept_files, budgets=budgets,
                       cells=cells)


def hand_typed_numbers(source: LessonSource, memo: incremental.FileMemo, bibliography: Bibliography | None,
                       session: Session) -> tuple[Problem, ...]:
    """What the lesson's text warns about: hand-typed numbers, a year beside a citation that is not its entry's,
    another tool's syntax (Sphinx, MyST) and the placeholders `lessonkit import` left."""
    from .features import foreignsyntax, handnumbers, placeholders  # (imported when some lesson is read again)
    cited_from = lesson_references(bibliography, source.folder, [], session.cache)  # (its problems: when rendered)
    return tuple(dict.fromkeys([*placeholders.report(source, memo), *handnumbers.report(source, memo),
                                *handnumbers.citation_years(source, cited_from), *foreignsyntax.report(source)]))


def kept_pages(kept: dict) -> dict[str, bytes]:
    """The kept lessons' pages and the files written beside them (a notebook), by path."""
    return {path: data for slug, k in kept.items() for path, data in ((SitePaths.lesson(slug), k.page), *k.files)}


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


def load_sources(content_dir: Path, only: str | None, problems: list[Problem], release_of, edition: Edition,
                 store: Store | None = None) -> tuple[list[LessonSource], list[LessonSource], Publication]:
    """The lessons to build (every lesson this edition publishes, or `only`), read as far as possible, their
    problems added to `problems`; every lesson of the course this edition publishes, which links and navigation
    refer to even when one is built alone; and what the edition publishes (`release_of(meta)` for each lesson,
    load/release.py). A lesson left out (a draft, one not released yet) is not this build's: its problems are not
    reported."""
    if not content_dir.is_dir():
        raise UsageError(msg("content folder {path} does not exist", path=content_dir))
    folders = find_lessons(content_dir)
    if only is not None and only not in [f.name for f in folders]:
        raise UsageError(msg("no lesson `{slug}` in {path} (lessons: {slugs})", slug=only, path=content_dir,
                             slugs=", ".join(f.name for f in folders) or msg("none")))
    everyone = [read_lesson(folder, store) for folder in folders]
    releases = {s.slug: release_of(s.meta) for s in everyone}
    course = [s for s in everyone if releases[s.slug].built]
    if only is not None and not releases[only].built:
        raise UsageError(msg("lesson `{slug}` is a draft: build it with --drafts (or preview it with serve)",
                             slug=only) if releases[only].draft else
                         msg("lesson `{slug}` is released on {day}: build it with --date {day}, or the teacher's "
                             "edition with --teacher", slug=only, day=releases[only].coming.isoformat()))
    if not course:
        raise UsageError(msg("no lessons in {path}: a lesson is a folder with lesson.yaml and lesson.md",
                             path=content_dir) if not everyone else
                         msg("no lesson in {path} is published (drafts and lessons released later are left out): "
                             "--drafts, --date or --teacher", path=content_dir))
    sources = course if only is None else [s for s in course if s.slug == only]
    problems += [p for s in sources for p in s.problems]
    announced = tuple((s.slug, s.meta.get("title") if isinstance(s.meta.get("title"), str) else s.slug,
                       releases[s.slug].coming) for s in in_course_order(everyone) if releases[s.slug].coming)
    return sources, course, Publication(edition, releases, announced)


def site_ui(dirs: list[Path], config, content_dir: Path, problems: list[Problem],
            store: Store | None = None) -> UiStrings:
    """The pages' words in site.yaml's `language:`; a language no theme file has is the author's problem there."""
    try:
        return load_ui(dirs, config.language, store)
    except ValueError as exc:
        if config.language_line is None:  # the default language itself: the theme lacks its file
            raise UsageError(reason(exc)) from None
        problems.append(Problem(content_dir / "site.yaml", config.language_line,
                                msg("unknown language `{lang}`", lang=config.language),
                                msg("one of: {langs} (a theme file i18n/<language>.yaml)",
                                    langs=", ".join(available_languages(dirs)) or msg("none"))))
        return load_ui(dirs, DEFAULT_LANGUAGE, store)


