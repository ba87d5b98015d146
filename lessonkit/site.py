"""The build: load → validate → compute → draw → render → write. Each stage hands plain data to the next and reports
the author's problems as values; only a build without problems writes anything.

  load     content.py (lesson folders), siteconfig.py (content/site.yaml), glossary.py (content/glossary.yaml)
  compute  compute.py (lesson.py: values, widget data)
  draw     drawing.py (figures, from the cache or drawn across cores), figures.py (matplotlib → SVG)
  render   pages.py (Markdown, theme templates, widget components), markup.py, document.py, components.py
  write    budget.py (page weight), output.py (a temporary folder swapped in)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .render import markup
from .load.siteconfig import Budget
from .assemble.budget import check_budget, page_sizes, search_index_size, without_search_index
from .support.cache import FigureCache, prune
from .features.components import Components
from .compute.run import ComputedLesson, compute_lesson
from .load.lessons import LessonSource, find_lessons, read_lesson
from .draw.drawing import draw_all_figures
from .support.errors import ContentError, Problem, UsageError
from .features.glossary import Glossary, load_glossary
from .support.i18n import DEFAULT as DEFAULT_LANGUAGE
from .support.i18n import UiStrings, available_languages, load_ui
from .write.output import write_site
from .render.pages import fill_figure_data, finish_pages, render_site
from .render.templates import make_env, theme_dirs, use_bytecode_cache
from .load.siteconfig import load_site_config


@dataclass
class Options:
    content: Path
    out: Path
    themes: Path
    theme: str | None = None        # None: site.yaml's `theme:`, else `default`
    lesson: str | None = None
    cache: Path | None = None       # cache folder; None computes and draws everything
    jobs: int | None = None         # processes drawing figures; None: one per core
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
    search_bytes: int = 0            # the course's search index on index.html, weighed apart from its budget
    figure_png: dict[str, dict[str, bytes]] = field(default_factory=dict)  # slug → figure → PNG (Options.figure_png)


def build(options: Options) -> BuildReport:
    """Every stage runs as far as the content allows, so one run lists the problems of every lesson and every
    stage (reading, lesson code, figures, Markdown); only a build without problems writes anything."""
    started, build_began = time.perf_counter(), time.time()
    problems: list[Problem] = []
    config = load_site_config(options.content, problems)                      # load
    glossary = load_glossary(options.content, problems)
    sources, course = load_sources(options.content, options.lesson, problems)
    dirs = theme_dirs(options.themes, options.theme or config.theme)
    ui = site_ui(dirs, config, options.content, problems)
    cache = FigureCache(options.cache)
    computed = compute_all(sources, cache, problems)                           # compute
    stats, drawing = draw_all_figures(computed, cache, options.jobs, problems, png=options.figure_png)  # draw
    with drawing:
        pages = render_all(computed, course, dirs, config, cache, problems, ui, glossary)  # render
        problems += drawing.wait()
        if problems:
            raise ContentError(by_lesson(problems, options.content))
        fill_figure_data(drawing.fill(pages), computed, dirs, ui)
        site = finish_pages(pages, Components(dirs), dirs)
    check_budget(*page_sizes(without_search_index(site)), config.budget)       # write
    sizes, gzip_sizes = page_sizes(site)
    write_site(site, options.out)
    if cache.enabled:  # only after a build that succeeded: one that failed has not used what it would need
        prune(cache.folder, now=time.time(), used_since=build_began - 2)   # 2 s: coarse file-system clocks
    return BuildReport(site, stats.font, time.perf_counter() - started, sizes, gzip_sizes,
                       stats.drawn, stats.cached, config.budget, search_index_size(site),
                       {c.source.slug: c.figure_png for c in computed if c.figure_png})


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


def render_all(computed: list[ComputedLesson], sources: list[LessonSource], dirs: list[Path], config,
               cache: FigureCache, problems: list[Problem], ui: UiStrings | None = None,
               glossary: Glossary | None = None) -> dict:
    """Every page, with MathML and compiled templates taken from (and added to) the cache."""
    use_bytecode_cache(cache.folder / "templates" if cache.enabled else None)
    markup.MATHML_MEMO = cache.get_math()
    known_math = len(markup.MATHML_MEMO)
    env = make_env(dirs, ui or load_ui(dirs, config.language))
    pages = render_site(computed, env, dirs, config, Components(dirs), problems, sources, glossary)
    if len(markup.MATHML_MEMO) > known_math:
        cache.put_math(markup.MATHML_MEMO)
    return pages
