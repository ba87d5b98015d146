"""`pdf`: build the site, then print every lesson with headless Chromium to OUT/<slug>.pdf (A4, print stylesheet).

The students' edition leaves the answers out (`print-student`); `--teacher` builds the teacher's edition into
output-teacher/ and prints it, answers in a final part. Needs Chromium and `pip install "lessonkit[print]"`.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from ..load.formats import FORMATS
from ..support import chromium
from ..support.errors import UsageError
from ..support.messages import NOTHING, msg
from ..support.paths import SitePaths
from . import build as build_command

HELP = msg("build, then print every lesson to OUT/<slug>.pdf with headless Chromium")
DESCRIPTION = msg("Build the site, then print every lesson with headless Chromium to OUT/<slug>.pdf (A4, the print "
                  "stylesheet), the answers left out; --teacher prints the teacher's edition into output-teacher/ "
                  "instead, answers in a final part. Needs `pip install \"lessonkit[print]\"` and Chromium.")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    build_command.add_arguments(p, say)
    build_command.add_renamed(p, say, "--answers", "--teacher")


def run(args: argparse.Namespace) -> int:
    reason = chromium.missing()
    if reason:
        raise UsageError(msg("cannot print PDFs: {reason}", reason=reason))
    build_command.say_renamed(args)
    made = FORMATS["teacher-pdf" if args.teacher else "pdf"]   # (the pages of its `built_from` format's build)
    report, out = build_command.build_site(args)
    written = print_lessons(out, report.lessons, made.edition.teacher)
    if not args.quiet:
        print(args.say("printed {n} lesson(s) into {out}{editions}", n=len(report.lessons), out=out,
                       editions=msg(" (the teacher's edition)") if args.teacher else NOTHING))
        for path in written:
            print(f"  {path}  {path.stat().st_size / 1024:7.1f} KB")
    return 0


def print_lessons(out: Path, slugs: list[str], teacher: bool = False, browser=None) -> list[Path]:
    """Print OUT/<slug>/index.html (`teacher`: as the teacher's edition is printed, with its answers part; else the
    students' handout, without); one Chromium for all."""
    if browser is not None:
        return [print_page(browser, out, slug, teacher) for slug in slugs]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        try:
            return print_lessons(out, slugs, teacher, browser)
        finally:
            browser.close()


def print_page(browser, out: Path, slug: str, teacher: bool) -> Path:
    target = out / SitePaths.pdf(slug)
    page = browser.new_page()
    try:
        page.goto((out / SitePaths.lesson(slug)).as_uri(), wait_until="load")
        page.wait_for_function(chromium.STARTED, timeout=30_000)  # printed as a reader with JavaScript sees it on screen
        if not teacher:
            page.evaluate("document.documentElement.classList.add('print-student')")
        page.emulate_media(media="print")
        # size, margins and page numbers come from the theme's @page rule
        page.pdf(path=str(target), prefer_css_page_size=True, print_background=True, format="A4",
                 tagged=True, outline=True)
    finally:
        page.close()
    return target
