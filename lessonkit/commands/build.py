"""`build`: every lesson under content/ → OUT/index.html and OUT/<slug>/index.html."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..paths import PROJECT

HELP = "build the site (the default command)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_site_options(p)
    p.add_argument("--out", type=Path, default=PROJECT / "output", help="output folder (default: output/)")
    p.add_argument("--lesson", metavar="SLUG", help="build only this lesson (its folder name under content/)")


def add_site_options(p: argparse.ArgumentParser) -> None:
    """Options every command that reads lessons shares."""
    p.add_argument("--theme", default="default", help="theme folder name under themes/; files it lacks come from "
                                                      "themes/default (default: default)")
    p.add_argument("--content", type=Path, default=PROJECT / "content", help="content folder (default: content/)")
    p.add_argument("--themes-dir", type=Path, default=PROJECT / "themes", help="themes folder (default: themes/)")


def run(args: argparse.Namespace) -> int:
    from ..output import check_out_dir
    from ..site import Options, build

    out = check_out_dir(args.out, PROJECT, [args.content, args.themes_dir, PROJECT / "content", PROJECT / "themes"])
    report = build(Options(content=args.content.resolve(), out=out, themes=args.themes_dir.resolve(),
                           theme=args.theme, lesson=args.lesson))
    if not args.quiet:
        print_summary(report, out)
    return 0


def print_summary(report, out: Path) -> None:
    lessons = [name for name in report.pages if name.endswith("/index.html")]
    print(f"built {len(lessons)} lesson(s) + index into {out} in {report.seconds:.2f} s")
    print(f"  figures: {report.figures}" + (f" · font: {report.font}" if report.font else ""))
    for name in sorted(report.sizes):
        if name.endswith(".html"):
            print(f"  {name:<40} {report.sizes[name] / 1024:7.1f} KB")
