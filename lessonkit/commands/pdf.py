"""`pdf`: build the site, then print every lesson with headless Chromium to OUT/<slug>.pdf (A4, print stylesheet).

The student edition OUT/<slug>.pdf leaves the answers out; `--answers` also prints the teacher edition
OUT/<slug>-answers.pdf, with the answers in a final part. Every build replaces OUT, PDFs included, so both editions are printed
in one run. Needs Chromium and the Python package playwright (./install.sh installs both).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from ..support import chromium
from ..support.errors import UsageError
from ..support.messages import NOTHING, msg
from ..support.paths import SitePaths
from . import build as build_command

STARTED = "() => !window.lessonkit || document.documentElement.hasAttribute('data-lk-started')"
HELP = msg("build, then print every lesson to OUT/<slug>.pdf with headless Chromium")
DESCRIPTION = msg("Build the site, then print every lesson with headless Chromium to OUT/<slug>.pdf (A4, the print "
                  "stylesheet), the answers left out; --answers also prints the teacher edition "
                  "OUT/<slug>-answers.pdf. Needs `pip install \"lessonkit[print]\"` and Chromium.")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    build_command.add_arguments(p, say)
    p.add_argument("--answers", action="store_true",
                   help=say("also print the teacher edition, answers in a final part, to OUT/<slug>-answers.pdf"))


def run(args: argparse.Namespace) -> int:
    reason = chromium.missing()
    if reason:
        raise UsageError(msg("cannot print PDFs: {reason}", reason=reason))
    report, out = build_command.build_site(args)
    editions = [False, True] if args.answers else [False]
    written = print_lessons(out, report.lessons, editions)
    if not args.quiet:
        print(args.say("printed {n} lesson(s) into {out}{editions}", n=len(report.lessons), out=out,
                       editions=msg(" (with teacher editions)") if args.answers else NOTHING))
        for path in written:
            print(f"  {path}  {path.stat().st_size / 1024:7.1f} KB")
    return 0


def print_lessons(out: Path, slugs: list[str], editions: list[bool], browser=None) -> list[Path]:
    """Print OUT/<slug>/index.html in each edition (False: student, True: with answers); one Chromium for all."""
    if browser is not None:
        return [print_page(browser, out, slug, answers) for slug in slugs for answers in editions]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        try:
            return print_lessons(out, slugs, editions, browser)
        finally:
            browser.close()


def print_page(browser, out: Path, slug: str, answers: bool) -> Path:
    target = out / SitePaths.pdf(slug, answers)
    page = browser.new_page()
    try:
        page.goto((out / SitePaths.lesson(slug)).as_uri(), wait_until="load")
        page.wait_for_function(STARTED, timeout=30_000)  # printed as a reader with JavaScript sees it on screen
        if not answers:
            page.evaluate("document.documentElement.classList.add('print-student')")
        page.emulate_media(media="print")
        # size, margins and page numbers come from the theme's @page rule
        page.pdf(path=str(target), prefer_css_page_size=True, print_background=True, format="A4",
                 tagged=True, outline=True)
    finally:
        page.close()
    return target
