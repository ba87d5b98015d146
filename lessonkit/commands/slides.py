"""`slides`: build the site, then write each lesson's classroom deck next to it: OUT/<slug>-slides.pdf, 16:9 pages,
one per projector screen, printed from the page itself in projector mode (answers closed), and OUT/<slug>.pptx, the
same screens as editable PowerPoint slides (notes in the slides' notes; figures as pictures drawn from the same
figure functions, cached with them). `--teacher` makes the teacher's deck in output-teacher/: answers open and each
screen's notes on a page after it in the PDF, the answers in the PowerPoint notes. Needs Chromium and
`pip install "lessonkit[print]"` (Playwright and python-pptx).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from ..load.formats import FORMATS
from ..support import chromium
from ..support.errors import UsageError
from ..support.messages import Message, msg
from ..support.paths import SitePaths
from . import build as build_command

HELP = msg("build, then write each lesson's slides: OUT/<slug>-slides.pdf (16:9) and OUT/<slug>.pptx")
DESCRIPTION = msg("Build the site, then write each lesson's classroom deck beside it: OUT/<slug>-slides.pdf (16:9, "
                  "one page per projector screen) and OUT/<slug>.pptx (the same screens as editable slides, notes in "
                  "the slide notes). --teacher makes the teacher's deck in output-teacher/ (answers open, a notes "
                  "page after each screen, the answers in the PowerPoint notes). Needs "
                  "`pip install \"lessonkit[print]\"` and Chromium.")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    build_command.add_arguments(p, say)
    build_command.add_renamed(p, say, "--answers", "--teacher")


def slides_names(slug: str) -> dict[str, str]:
    return {"pdf": SitePaths.slides_pdf(slug), "pptx": SitePaths.pptx(slug)}


def run(args: argparse.Namespace) -> int:
    say = args.say
    reason = chromium.missing() or missing_pptx()
    if reason:
        raise UsageError(msg("cannot make slides: {reason}", reason=reason))
    build_command.say_renamed(args)
    made = FORMATS["teacher-slides" if args.teacher else "slides"]   # (the pages of its `built_from` format's build)
    report, out = build_command.build_site(args, figure_png=True)
    slugs = report.lessons
    written = write_decks(out, slugs, report, made.edition.teacher, theme_words(args))
    if not args.quiet:
        print(say("wrote the slides of {n} lesson(s) into {out}", n=len(slugs), out=out))
        for path, screens in written:
            print("  " + say("{path}  {kb:7.1f} KB  {n} slide(s)", path=path, kb=path.stat().st_size / 1024, n=screens))
        print("  " + say("figures drawn: {drawn}, from the cache: {cached}", drawn=report.figures_drawn,
                         cached=report.figures_cached))
    return 0


def missing_pptx() -> Message | None:
    try:
        import pptx  # noqa: F401
    except ImportError:
        return msg("the Python package python-pptx is not installed: `pip install \"lessonkit[print]\"` installs it")
    return None


def theme_words(args: argparse.Namespace) -> dict[str, str]:
    """The theme's words the PowerPoint file itself writes (the page's own words come with the page)."""
    from ..load.siteconfig import load_site_config
    from ..render.templates import theme_dirs
    from ..support.i18n import load_ui

    config = load_site_config(args.content.resolve(), [])
    ui = load_ui(theme_dirs(args.themes_dir.resolve(), args.theme or config.theme), config.language)
    return {"answers": ui.answers}


def write_decks(out: Path, slugs: list[str], report, teacher: bool, words: dict[str, str],
                browser=None) -> list[tuple[Path, int]]:
    """For each lesson: the slides PDF and the PPTX (`teacher`: the teacher's deck, answers open and notes pages
    in the PDF, the answers in the PowerPoint notes); one Chromium for all."""
    if browser is None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = chromium.launch(playwright)
            try:
                return write_decks(out, slugs, report, teacher, words, browser)
            finally:
                browser.close()
    from ..deck.browser import print_slides, read_deck
    from ..deck.pptx import write_pptx

    written = []
    for slug in slugs:
        url = (out / SitePaths.lesson(slug)).as_uri()
        target = out / slides_names(slug)["pdf"]
        written.append((target, print_slides(browser, url, target, teacher)))
        deck = read_deck(browser, url, slug, teacher)
        target = out / slides_names(slug)["pptx"]
        written.append((target, write_pptx(deck, report.figure_png.get(slug, {}), report.font or "sans-serif",
                                           target, words)))
    return written
