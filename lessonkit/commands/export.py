"""`export FORMAT`: the course for a learning platform (LMS), into the project's output-lms/ (never output/, which
students read, nor inside the installed package):

  scorm    OUT/<slug>.scorm.zip per lesson: a SCORM 1.2 package whose page reports its self-checks (export/scorm.py)
  moodle   OUT/questions.moodle.xml (OUT/<slug>.moodle.xml with --lesson): every self-check as a Moodle question
           (export/moodle.py)

Both are built like the students' site on the build's day (`answers:`, `release:`, `draft:` as for `build`; --date),
in a temporary folder, with every page built for a platform (load/release.py Edition.lms). A lesson without a
self-check is a warning: its SCORM package still records that it was opened; the question bank has nothing of it
(and a bank with no question at all is not written: that is an error).
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from ..load.formats import FORMATS as ALL_FORMATS
from ..support.errors import ContentError, Problem
from ..support.messages import msg
from . import build as build_command

FORMATS = tuple(name for name, made in ALL_FORMATS.items() if made.built_from == "lms")   # scorm, moodle
OUTPUT = "lms_output"  # the project's folder for --out (support/project.py Project.lms_output)
HELP = msg("export the course for a learning platform: SCORM 1.2 packages or a Moodle question bank")
DESCRIPTION = msg("Build the course as the students' site is built, then write it for a learning platform (LMS) "
                  "into the project's output-lms/: `export scorm` writes OUT/<slug>.scorm.zip for each lesson (a "
                  "SCORM 1.2 package: the lesson's page, which reports each self-check answered, the score and "
                  "passed or failed against lesson.yaml's `mastery:`); `export moodle` writes one question bank in "
                  "Moodle XML, every self-check as a question. Upload them in the platform (see the guide).")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    p.add_argument("format", choices=FORMATS, metavar="FORMAT",
                   help=say("`scorm` (a SCORM 1.2 package per lesson) or `moodle` (one question bank in Moodle XML)"))
    build_command.add_site_options(p, say)
    build_command.add_output_options(p, say, msg("folder for the packages (default: the project's output-lms/; "
                                                 "never inside output/)"))
    p.add_argument("--lesson", metavar="SLUG", help=say("export only this lesson (its folder name under content/)"))
    p.add_argument("--strict", action="store_true",
                   help=say("make warnings errors (exit 1), e.g. a lesson without a self-check"))


def run(args: argparse.Namespace) -> int:
    from ..write.output import write_files

    out = export_dir(args)
    report = build_for_platform(args, figure_png=args.format == "moodle")
    build_command.print_warnings(report.warnings, args.say)
    packages = [report.packages[slug] for slug in report.lessons]
    empty = [Problem(args.content.resolve() / p.slug / "lesson.yaml", None, no_check(args.format, p.slug),
                     msg("a `check:` in a challenge, or a `checks:` entry placed in the text (guide 3.1)"))
             for p in packages if not p.questions]
    if empty and (args.strict or args.format == "moodle" and len(empty) == len(packages)):
        raise ContentError(empty)
    build_command.print_warnings(empty, args.say)
    if args.format == "scorm":
        files = scorm_files(report, packages)
    else:
        files = moodle_files(args, report, packages)
    written = write_files(files, out)
    if not args.quiet:
        questions = sum(len(p.questions) for p in packages)
        print(args.say("exported {n} lesson(s) with {questions} self-check(s) for a learning platform into {out}",
                       n=len(packages), questions=questions, out=out))
        width = max(len(path.name) for path in written)
        for path in written:
            print(f"  {path.name:<{width}}  {path.stat().st_size / 1024:7.1f} KB")
    return 0


def no_check(kind: str, slug: str):
    if kind == "scorm":
        return msg("lesson `{slug}` has no self-check: its SCORM package records only that it was opened "
                   "(completed), with no score", slug=slug)
    return msg("lesson `{slug}` has no self-check: the question bank has nothing of it", slug=slug)


def export_dir(args: argparse.Namespace) -> Path:
    from ..support.paths import PACKAGE
    from ..write.output import check_export_dir

    project = args.project
    return check_export_dir(args.out, project.root, [args.content, args.themes_dir, project.content, project.themes,
                                                      project.output, project.teacher_output, PACKAGE])


def build_for_platform(args: argparse.Namespace, figure_png: bool):
    """The students' site on the build's day, every page built for a platform, in a temporary folder; its report
    holds the pages and each lesson's package (render/questions.py)."""
    from ..site import Options, build
    from ..support.project import refuse_inside_package

    if not args.no_cache:
        refuse_inside_package(args.cache_dir, msg("the cache"))
    with tempfile.TemporaryDirectory(prefix="lessonkit-export-") as folder:
        return build(Options(content=args.content.resolve(), out=Path(folder) / "site",
                             themes=args.themes_dir.resolve(), theme=args.theme, lesson=args.lesson,
                             cache=None if args.no_cache else args.cache_dir.expanduser().resolve(), jobs=args.jobs,
                             strict=args.strict, figure_png=figure_png, **{**build_command.edition(args), "format": "lms"}))


def scorm_files(report, packages) -> dict[str, bytes]:
    from ..export import scorm
    from ..support.paths import SitePaths

    files = {}
    for package in packages:
        page = report.pages[SitePaths.lesson(package.slug)]
        # every file the build wrote beside the page (its notebook, its figures' CSV in data/), as the page links it
        folder = f"{package.slug}/"
        beside = {path[len(folder):]: data for path, data in report.pages.items()
                  if path.startswith(folder) and path != SitePaths.lesson(package.slug)}
        files[scorm.package_name(package.slug)] = scorm.package_zip(package, page, beside)
    return files


def moodle_files(args: argparse.Namespace, report, packages) -> dict[str, bytes]:
    from ..export import moodle
    from ..load.siteconfig import load_site_config

    course = load_site_config(args.content.resolve(), []).title or ""
    return {moodle.bank_name(args.lesson): moodle.question_bank(packages, course, report.figure_png)}
