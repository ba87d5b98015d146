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
    p.add_argument("--cache-dir", type=Path, default=PROJECT / ".cache" / "lessonkit",
                   help="figure cache folder (default: .cache/lessonkit/); `python build.py clean` empties it")
    p.add_argument("--no-cache", action="store_true", help="draw every figure; neither read nor write the cache")
    p.add_argument("--jobs", type=int, metavar="N", help="processes drawing figures (default: one per core)")


def add_site_options(p: argparse.ArgumentParser) -> None:
    """Options every command that reads lessons shares."""
    p.add_argument("--theme", default=None, help="theme folder name under themes/; files it lacks come from "
                                                 "themes/default (default: site.yaml's `theme:`, else default)")
    p.add_argument("--content", type=Path, default=PROJECT / "content", help="content folder (default: content/)")
    p.add_argument("--themes-dir", type=Path, default=PROJECT / "themes", help="themes folder (default: themes/)")


def run(args: argparse.Namespace) -> int:
    from ..output import check_out_dir, recover_killed_build
    from ..site import Options, build

    out = check_out_dir(args.out, PROJECT, [args.content, args.themes_dir, PROJECT / "content", PROJECT / "themes"])
    recover_killed_build(out)
    report = build(Options(content=args.content.resolve(), out=out, themes=args.themes_dir.resolve(),
                           theme=args.theme, lesson=args.lesson,
                           cache=None if args.no_cache else args.cache_dir.expanduser().resolve(), jobs=args.jobs))
    if not args.quiet:
        print_summary(report, out)
    if args.verbose:
        print_sources(args)
    return 0


def print_sources(args: argparse.Namespace) -> None:
    """Where this build read from: for `-v`, when a page is not what you expected."""
    from ..render import theme_dirs

    print(f"  content: {args.content.resolve()}")
    print("  themes searched: " + " → ".join(str(d) for d in theme_dirs(args.themes_dir.resolve(),
                                                                          report_theme(args))))
    print(f"  cache: {'off (--no-cache)' if args.no_cache else args.cache_dir.expanduser().resolve()}")


def report_theme(args: argparse.Namespace) -> str:
    """The theme a build used: --theme, else site.yaml's `theme:`, else default."""
    if args.theme:
        return args.theme
    from ..siteconfig import load_site_config

    return load_site_config(args.content.resolve(), []).theme


def print_summary(report, out: Path) -> None:
    """One screen, like Hugo's: what was built, from where, how heavy and how fast."""
    lessons = [name for name in report.pages if name.endswith("/index.html")]
    html = sorted(name for name in report.sizes if name.endswith(".html"))
    rows = [
        ("Lessons", f"{len(lessons)}"),
        ("Pages", f"{len(html)}"),
        ("Figures new", f"{report.figures_drawn}"),
        ("Figures cached", f"{report.figures_cached}"),
        ("Font", report.font or "none (no figures)"),
        ("Bytes", f"{sum(report.sizes.values()) / 1024:.1f} KB, gzip {sum(report.gzip_sizes.values()) / 1024:.1f} KB"),
        ("Search index", f"{report.search_bytes / 1024:.1f} KB in index.html (outside its budget)"),
    ]
    print(f"built {len(lessons)} lesson(s) + index into {out}")
    for label, value in rows:
        print(f"  {label:<15} | {value}")
    budget = report.budget
    header = f"  {'page':<40} {'raw':>9} {'gzip':>9}"
    print(header + (f"   budget {budget.page_kb:g} / {budget.gzip_kb:g} KB" if budget else ""))
    for name in html[:12]:
        print(f"  {name:<40} {report.sizes[name] / 1024:6.1f} KB {report.gzip_sizes.get(name, 0) / 1024:6.1f} KB")
    if len(html) > 12:
        biggest = max(html, key=report.sizes.get)
        print(f"  … {len(html) - 12} more; largest {biggest} {report.sizes[biggest] / 1024:.1f} KB")
    print(f"Total in {report.seconds:.2f} s (after Python start-up and imports)")
