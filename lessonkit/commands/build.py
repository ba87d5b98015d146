"""`build`: every lesson under content/ → OUT/index.html and OUT/<slug>/index.html."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..support.messages import msg

HELP = msg("build the site (the default command)")
DESCRIPTION = msg("Build every lesson under the project's content/ into output/: one self-contained page per lesson, "
                  "an index, a glossary and the search index. Only what changed since the last build is redone.")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    add_site_options(p, say)
    add_output_options(p, say)
    p.add_argument("--lesson", metavar="SLUG", help=say("build only this lesson (its folder name under content/)"))
    p.add_argument("--strict", action="store_true",
                   help=say("make warnings errors (exit 1), e.g. two lessons with the same `order`: for CI and "
                            "publishing"))
    add_edition_options(p, say)
    p.add_argument("--drafts", action="store_true",
                   help=say("build the lessons marked `draft: true` too, each marked as a draft"))


def add_edition_options(p: argparse.ArgumentParser, say) -> None:
    """The teacher's edition, for `build`, `serve`, `pdf` and `slides`."""
    p.add_argument("--teacher", action="store_true",
                   help=say("the teacher's edition, into output-teacher/ (never output/): every lesson, released or "
                            "not, with the answers open, each self-check's key and tolerance and the speaker notes, "
                            "every page marked"))

def add_output_options(p: argparse.ArgumentParser, say, out_help=None) -> None:
    """Where a build writes, and how it draws (`out_help`: what --out means, when it is not the site's folder)."""
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help=say.text(out_help) if out_help else say("output folder (default: the project's output/)"))
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                   help=say("cache folder (default: the project's .cache/lessonkit/); `clean` empties it"))
    p.add_argument("--no-cache", action="store_true", help=say("draw every figure; neither read nor write the cache"))
    add_jobs_option(p, say)


def add_jobs_option(p: argparse.ArgumentParser, say) -> None:
    p.add_argument("--jobs", type=int, metavar="N", help=say("processes drawing figures (default: one per core)"))


def add_site_options(p: argparse.ArgumentParser, say) -> None:
    """Options every command that reads lessons shares."""
    p.add_argument("--theme", default=None, metavar="NAME", help=say("theme folder name under the project's themes/; files it lacks "
                                                     "come from the built-in theme (default: site.yaml's `theme:`, "
                                                     "else default)"))
    p.add_argument("--content", type=Path, default=None, metavar="DIR", help=say("content folder (default: the project's content/)"))
    p.add_argument("--date", type=str, metavar="YYYY-MM-DD",
                   help=say("the build's day, which decides releases and answers shown from a day (default: the "
                            "SOURCE_DATE_EPOCH environment variable, else today in site.yaml's `timezone:`)"))
    p.add_argument("--themes-dir", type=Path, default=None, metavar="DIR",
                   help=say("folder of the project's themes (default: the project's themes/)"))


def run(args: argparse.Namespace) -> int:
    report, out = build_site(args)
    if not args.quiet:
        print_summary(report, out, args.say)
    if args.verbose:
        print_sources(args, args.say)
    return 0


def build_site(args: argparse.Namespace, figure_png: bool = False):
    """Build as the options say; the build's report and the output folder (for commands that go on from there:
    pdf, slides). `figure_png`: every lesson figure also as a PNG picture (for the slides)."""
    from ..site import Options, build
    from ..support.paths import PACKAGE
    from ..support.project import refuse_inside_package
    from ..support.store import Store
    from ..write.output import check_out_dir, recover_killed_build

    project = args.project
    out = check_out_dir(args.out, project.root, [args.content, args.themes_dir, project.content, project.themes,
                                                 PACKAGE])
    cache = None if args.no_cache else args.cache_dir.expanduser().resolve()
    if cache is not None:
        refuse_inside_package(cache, msg("the cache"))
        args.say.keep_in(Store(cache))
    recover_killed_build(out)
    report = build(Options(content=args.content.resolve(), out=out, themes=args.themes_dir.resolve(),
                           theme=args.theme, lesson=args.lesson, cache=cache, jobs=args.jobs,
                           strict=args.strict, figure_png=figure_png, **edition(args)))
    print_warnings(report.warnings, args.say)
    return report, out


class _Renamed(argparse.Action):
    """An option's old name: it does what the new one does, and the command says so (say_renamed)."""

    def __init__(self, option_strings, dest, new: str, **kwargs):
        super().__init__(option_strings, dest=new.lstrip("-").replace("-", "_"), nargs=0, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, True)
        namespace.renamed = (option_string, self.new)


def add_renamed(p: argparse.ArgumentParser, say, old: str, new: str) -> None:
    p.add_argument(old, action=_Renamed, new=new, help=say("the old name of {new}", new=new))


def say_renamed(args: argparse.Namespace) -> None:
    import sys

    if getattr(args, "renamed", None) and not args.quiet:
        old, new = args.renamed
        print(args.say("note: {old} is now {new}; the teacher's edition goes to {out}", old=old, new=new,
                       out=args.out), file=sys.stderr)


def edition(args: argparse.Namespace) -> dict:
    """The Options of the edition the command line asks for (load/release.py)."""
    from ..load.release import day_option

    return {"date": day_option(args.date) if getattr(args, "date", None) else None,
            "format": "teacher" if getattr(args, "teacher", False) else "site", "drafts": getattr(args, "drafts", False)}


def print_warnings(warnings: list, say) -> None:
    """What the build let pass, on stderr even with --quiet: the site was written, but the author should know."""
    import sys

    if warnings:
        print(say("warning: {n} thing(s) to check (the site was built; --strict makes them errors):",
                  n=len(warnings)), file=sys.stderr)
    for warning in warnings:
        print(f"  {say.problem(warning)}", file=sys.stderr)


def print_sources(args: argparse.Namespace, say) -> None:
    """Where this build read from: for `-v`, when a page is not what you expected."""
    from ..render.templates import theme_dirs

    print("  " + say("content: {path}", path=args.content.resolve()))
    print("  " + say("themes searched: {dirs}", dirs=" → ".join(str(d) for d in theme_dirs(args.themes_dir.resolve(),
                                                                                           report_theme(args)))))
    print("  " + say("cache: {cache}", cache=say("off (--no-cache)") if args.no_cache
                     else args.cache_dir.expanduser().resolve()))


def report_theme(args: argparse.Namespace) -> str:
    """The theme a build used: --theme, else site.yaml's `theme:`, else default."""
    if args.theme:
        return args.theme
    from ..load.siteconfig import load_site_config

    return load_site_config(args.content.resolve(), []).theme


def print_summary(report, out: Path, say) -> None:
    """One screen, like Hugo's: what was built, from where, how heavy and how fast (`say`: the command's voice,
    support.i18n.Speaker)."""
    from ..assemble.budget import weigh
    from ..features import search
    from ..support.terminal import pad

    lessons = report.lessons
    html = sorted(name for name in report.sizes if name.endswith(".html"))
    rows = [
        (say("Lessons"), f"{len(lessons)}"),
        (say("Pages"), f"{len(html)}"),
        (say("Pages unchanged"), say("{n} of {total} (taken as the last build wrote them)", n=report.pages_kept,
                                     total=len(lessons))),
        *([(say("Cells run"), say("{ran} of {total}", ran=report.cells[0], total=report.cells[1])
             + ("" if report.cells[0] else say(" (kept from the last build: no code changed)")))]
          if report.cells[1] else []),
        (say("Figures new"), f"{report.figures_drawn}"),
        (say("Figures cached"), f"{report.figures_cached}"),
        (say("Font"), report.font or say("none (no figures)")),
        (say("Bytes"), f"{sum(report.sizes.values()) / 1024:.1f} KB, gzip {sum(report.gzip_sizes.values()) / 1024:.1f} KB"),
        (say("Search index"), say("{kb:.1f} KB in {file}, loaded when someone searches", kb=report.search_bytes / 1024,
                                  file=search.INDEX_FILE)),
    ]
    print(say("built {n} lesson(s) + index into {out}", n=len(lessons), out=out))
    if report.files_kept:
        print("  " + say("{n} file(s) of the site already there kept as they were (the other lessons' pages, the "
                         "index and search with --lesson; handouts and slides of unchanged pages)",
                         n=report.files_kept))
    for label, value in rows:
        print(f"  {pad(label, 15)} | {value}")
    budget = report.budget
    header = f"  {pad(say('page'), 40)} {say('raw'):>9} {'gzip':>9} {pad(say('code'), 9, right=True)}"
    print(header + ("   " + say("budget {raw:g} / {gz:g} KB", raw=budget.page_kb, gz=budget.gzip_kb) if budget else ""))
    for name in html[:12]:  # the engine's own JS and CSS apart: what a lesson's author cannot trim
        code = weigh(report.pages[name])["code"] if name in report.pages else 0
        own = report.budgets.get(name)   # a lesson.yaml's own budget beside its page
        print(f"  {name:<40} {report.sizes[name] / 1024:6.1f} KB {report.gzip_sizes.get(name, 0) / 1024:6.1f} KB "
              f"{code / 1024:6.1f} KB" + ("   " + say("its own {raw:g} / {gz:g} KB", raw=own.page_kb, gz=own.gzip_kb)
                                          if own else ""))
    if len(html) > 12:
        biggest = max(html, key=report.sizes.get)
        print(say("  … {n} more; largest {name} {kb:.1f} KB", n=len(html) - 12, name=biggest,
                  kb=report.sizes[biggest] / 1024))
    print(say("Total in {seconds:.2f} s (after Python start-up and imports)", seconds=report.seconds))
