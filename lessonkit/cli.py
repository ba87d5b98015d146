"""Command line: `python build.py [build] [--out DIR] [--theme NAME] [--lesson SLUG]`.

Exit codes: 0 success, 1 a problem in the content (every problem listed), 2 a usage error, 3 a bug in lessonkit.
"""
from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from . import __version__
from .errors import ContentError, UsageError

PROJECT = Path(__file__).resolve().parent.parent
COMMANDS = ("build",)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python build.py",
        description="Build every lesson under content/ into self-contained HTML pages.",
        epilog="Exit codes: 0 built, 1 problems in the content (all listed), 2 usage error, 3 internal bug.",
    )
    p.add_argument("--version", action="version", version=f"lessonkit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    b = sub.add_parser("build", help="build the site (the default command)",
                       description="Build every lesson under content/ into OUT: OUT/index.html and OUT/<slug>/index.html.")
    add_build_options(b)
    return p


def add_build_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, default=PROJECT / "output", help="output folder (default: output/)")
    p.add_argument("--theme", default="default", help="theme folder name under themes/; files it lacks come from "
                                                      "themes/default (default: default)")
    p.add_argument("--lesson", metavar="SLUG", help="build only this lesson (its folder name under content/)")
    p.add_argument("--content", type=Path, default=PROJECT / "content", help="content folder (default: content/)")
    p.add_argument("--themes-dir", type=Path, default=PROJECT / "themes", help=argparse.SUPPRESS)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv.insert(0, "build")
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit_:
        return 2 if exit_.code not in (0, None) else 0
    try:
        return run_build(args)
    except ContentError as err:
        print(f"error: the content has {len(err.problems)} problem(s); nothing was written:", file=sys.stderr)
        for problem in err.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    except UsageError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except Exception:
        traceback.print_exc()
        print("\nThis is a bug in lessonkit, not in your lesson: please report it with the traceback above.",
              file=sys.stderr)
        return 3


def run_build(args: argparse.Namespace) -> int:
    from .output import check_out_dir
    from .site import Options, build

    out = check_out_dir(args.out, PROJECT, [args.content, args.themes_dir])
    report = build(Options(content=args.content.resolve(), out=out, themes=args.themes_dir.resolve(),
                           theme=args.theme, lesson=args.lesson))
    print_summary(report, out)
    return 0


def print_summary(report, out: Path) -> None:
    lessons = [name for name in report.pages if name.endswith("/index.html")]
    print(f"built {len(lessons)} lesson(s) + index into {out} in {report.seconds:.2f} s")
    print(f"  figures: {report.figures}" + (f" · font: {report.font}" if report.font else ""))
    for name in sorted(report.sizes):
        if name.endswith(".html"):
            print(f"  {name:<40} {report.sizes[name] / 1024:7.1f} KB")
