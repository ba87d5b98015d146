"""Command line: `python build.py [COMMAND] [options]`; with no command, `build`.

Exit codes: 0 success, 1 a problem in the content (every problem listed), 2 a usage error, 3 a bug in lessonkit.
"""
from __future__ import annotations

import argparse
import sys
import traceback

from . import __version__
from .commands import COMMANDS
from .support.errors import ContentError, UsageError, project_root
from .support.i18n import MESSAGE_LANGUAGES, Speaker, message_language
from .load.siteconfig import peek_language

EXIT_CODES = "Exit codes: 0 success, 1 problems in the content (all listed), 2 usage error, 3 internal bug."


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python build.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Build illustrated, computed lessons into self-contained HTML pages.\n"
                    "Without a COMMAND, `build` runs: python build.py [--out DIR] [--theme NAME] [--lesson SLUG]\n"
                    "  --out DIR      output folder (default: output/)\n"
                    "  --theme NAME   theme under themes/, falling back to themes/default for files it lacks\n"
                    "  --lesson SLUG  build only content/SLUG\n"
                    "`python build.py COMMAND --help` explains each command.",
        epilog=EXIT_CODES)
    p.add_argument("--version", action="version", version=f"lessonkit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        cmd = sub.add_parser(name, help=module.HELP, description=module.__doc__, epilog=EXIT_CODES)
        verbosity = cmd.add_mutually_exclusive_group()
        verbosity.add_argument("-q", "--quiet", action="store_true", help="print only errors")
        verbosity.add_argument("-v", "--verbose", action="store_true", help="print more detail")
        cmd.add_argument("--lang", choices=MESSAGE_LANGUAGES, default=None,
                         help="language of the messages (errors, summary): default site.yaml's `language:`, else the "
                              "system locale (zh… → zh-CN), else zh-CN; the pages' own words follow site.yaml only")
        module.add_arguments(cmd)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv.insert(0, next(iter(COMMANDS)))
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code in (0, None) else 2
    content = getattr(args, "content", None)
    say = args.say = Speaker(message_language(args.lang, peek_language(content)), project_root(content))
    try:
        return COMMANDS[args.command].run(args)
    except ContentError as err:
        print(say("error: the content has {n} problem(s); nothing was written:", n=len(err.problems)),
              file=sys.stderr)
        for problem in err.problems:
            print(f"  {say.problem(problem)}", file=sys.stderr)
        return 1
    except UsageError as err:
        print(say("error: {message}", message=say.text(err.message)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(say("interrupted: nothing was written (a previous site is left as it was)"), file=sys.stderr)
        return 130
    except Exception:
        traceback.print_exc()
        print("\n" + say("This is a bug in lessonkit, not in your lesson: please report it with the traceback above."),
              file=sys.stderr)
        return 3
