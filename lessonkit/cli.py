"""Command line: `lessonkit [COMMAND] [options]` (also `python -m lessonkit`; in this repository `python build.py`,
whose project is the repository itself); with no command, `build`.

A command works on a project: `-C DIR`, else the folder holding `--content`, else the first folder from the current
one upwards that holds content/ (support/project.py). Every help text is a message, shown in the messages' language.

Exit codes: 0 success, 1 a problem in the content (every problem listed), 2 a usage error, 3 a bug in lessonkit.
"""
from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .commands import COMMANDS, command as command_module
from .support.errors import ContentError, UsageError
from .support.i18n import MESSAGE_LANGUAGES, Speaker, message_language
from .support.messages import msg
from .support.project import CONTENT, Project, locate, project_of
from .support.store import Store
from .support.terminal import wrap
from .load.siteconfig import check_version, peek_language

EXIT_CODES = msg("Exit codes: 0 success, 1 problems in the content (all listed), 2 usage error, 3 internal bug.")
VALUED_GLOBALS = ("-C", "--project", "--lang")  # options with a value that may stand before the command


def main(argv: list[str] | None = None, prog: str = "lessonkit", home: Path | None = None) -> int:
    """Run one command. `home`: the project when neither -C nor --content names one (build.py passes its own
    folder); None looks upwards from the current folder."""
    argv = with_command(list(sys.argv[1:] if argv is None else argv))
    store = _peek_store(argv, home)  # (site.yaml is read as the build reads it: its reading looked for there)
    say = Speaker(message_language(_peek(argv, "--lang"), peek_language(_peek_content(argv, home), store)))
    try:
        args = parse(argv, prog, say)
    except SystemExit as exit_:
        return 0 if exit_.code in (0, None) else 2
    command = command_module(args.command)
    args.prog, args.say = prog, say
    try:
        if getattr(command, "NEEDS_PROJECT", True):
            args.project = locate(args.project, getattr(args, "content", None), home or Path.cwd(), prog)
            say.root = args.project.root
            check_version(args.project, __version__, store)
            project_defaults(args, args.project, getattr(command, "OUTPUT", None))
        return command.run(args)
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
        import traceback  # (only for our bug: with linecache and tokenize it costs a build ≈3 ms to import)

        traceback.print_exc()
        print("\n" + say("This is a bug in lessonkit, not in your lesson: please report it with the traceback above."),
              file=sys.stderr)
        return 3


# an option left unset → the project's folder of that name (support/project.py)
PROJECT_DEFAULTS = {"content": "content", "themes_dir": "themes", "out": "output", "cache_dir": "cache"}


def project_defaults(args: argparse.Namespace, project, output: str | None = None) -> None:
    """Each folder option left unset → the project's; the teacher's edition writes to output-teacher/, and a
    command naming its own `output` (a Project property, e.g. `export`'s lms_output) there."""
    args.out_given = getattr(args, "out", None) is not None
    for option, folder in PROJECT_DEFAULTS.items():
        if getattr(args, option, False) is None:
            teacher = option == "out" and getattr(args, "teacher", False)
            folder = output if option == "out" and output else "teacher_output" if teacher else folder
            setattr(args, option, getattr(project, folder))


def entry() -> None:
    """The `lessonkit` console script."""
    run_process()


def run_process(**main_args: Any) -> NoReturn:
    """A process that runs one command (the console script, `python -m lessonkit`, build.py) and ends. Its cyclic
    garbage collector runs ≈300× less often, as mypy's does: a build makes many objects and few cycles (a rebuild
    after an edit spent ≈12 ms of 0.33 s collecting; a cold 50-lesson build peaks at 121 MB instead of 103). At the
    end what the command made is frozen (gc.freeze), so the interpreter's last collection passes over it instead
    of walking every object once more (≈25 ms)."""
    gc.set_threshold(200_000, 30, 30)
    code = main(**main_args)
    gc.freeze()
    sys.exit(code)


def with_command(argv: list[str]) -> list[str]:
    """The command first: `-C DIR --lang en serve …` → `serve -C DIR --lang en …`; none given → `build`."""
    leading, rest = [], list(argv)
    while rest and rest[0].startswith("-") and rest[0] not in ("-h", "--help", "--version"):
        option = rest.pop(0)
        leading.append(option)
        if option in VALUED_GLOBALS and rest:
            leading.append(rest.pop(0))
    if rest and (rest[0] in COMMANDS or rest[0] in ("-h", "--help", "--version")):
        return [rest[0], *leading, *rest[1:]]
    return [next(iter(COMMANDS)), *leading, *rest]


def _peek(argv: list[str], *names: str) -> str | None:
    """The value of an option before argparse reads the command line (the help's language depends on it)."""
    for i, arg in enumerate(argv):
        for name in names:
            if arg == name and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith(name + "=") or (name == "-C" and arg.startswith("-C") and len(arg) > 2):
                return arg.split("=", 1)[1] if "=" in arg else arg[2:]
    return None


def _peek_content(argv: list[str], home: Path | None) -> Path | None:
    """The content folder the command will read, if one can be told without reporting anything."""
    content = _peek(argv, "--content")
    if content:
        return Path(content)
    project = _peek_project(argv, home)
    return project.root / CONTENT if project else None


def _peek_store(argv: list[str], home: Path | None) -> Store | None:
    """The store the command will use, if one can be told without reporting anything (--cache-dir, else the
    project's); None with --no-cache."""
    if "--no-cache" in argv:
        return None
    folder = _peek(argv, "--cache-dir")
    if folder:
        return Store(Path(folder).expanduser())
    project = _peek_project(argv, home)
    return Store(project.cache) if project else None


def _peek_project(argv: list[str], home: Path | None) -> Project | None:
    """The project as support.project.locate will find it, if there is one."""
    explicit, content = _peek(argv, "-C", "--project"), _peek(argv, "--content")
    return project_of(Path(explicit) if explicit else None, Path(content) if content else None, home or Path.cwd())


def parse(argv: list[str], prog: str, say: Speaker) -> argparse.Namespace:
    """The command line read (`argv` starts with its command: with_command). Its help texts are put in the
    messages' language only when something is shown — help, the version, a mistake in the command line: a command
    that only runs never loads the catalog of messages for them."""
    if argv[0] not in COMMANDS:  # --help, --version
        return parser(prog, say).parse_args(argv)
    try:
        return parser(prog, Speaker("en"), only=argv[0], parser_class=_SilentParser).parse_args(argv)
    except _Shown:
        return parser(prog, say, only=argv[0]).parse_args(argv)


class _Shown(Exception):
    """argparse was about to print: help, the version or a usage error."""


class _SilentParser(argparse.ArgumentParser):
    """A parser that shows nothing: where argparse prints (and then exits), it raises _Shown."""

    def _print_message(self, message, file=None):
        raise _Shown

    def exit(self, status=0, message=None):
        raise _Shown


class _Formatter(argparse.HelpFormatter):
    """argparse's layout with the usage line's word in the messages' language; text wrapped by terminal columns
    (a Chinese character takes two, and a line may break between any two), keeping the lines a text breaks."""

    usage_word = "usage: "

    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, prefix if prefix is not None else self.usage_word)

    def _split_lines(self, text, width):
        return wrap(text, width)

    def _fill_text(self, text, width, indent):
        return "\n".join(indent + line for line in wrap(text, width))


def parser(prog: str, say: Speaker, only: str | None = None,
           parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The command line's parser. `only`: the verb about to run, the one whose parser is made (and module imported);
    None: every verb's, for the help that lists them. Its verbs' parsers are of `parser_class` too."""
    formatter = type("Formatter", (_Formatter,), {"usage_word": say("usage: ")})
    p = parser_class(
        prog=prog, formatter_class=formatter, add_help=False,
        description=say("Build illustrated, computed lessons into self-contained HTML pages.\n"
                        "Without a COMMAND, `build` runs: {prog} [--out DIR] [--theme NAME] [--lesson SLUG] "
                        "[--strict] …\n"
                        "A command works on the project in the current folder (or the first folder above it holding "
                        "content/), or on -C DIR. `{prog} init DIR` starts a course; `{prog} COMMAND --help` explains "
                        "each command.", prog=prog),
        epilog=say.text(EXIT_CODES))
    _titles(p, say)
    p.add_argument("--version", action="version", version=f"lessonkit {__version__}",
                   help=say("show the version and exit"))
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title=say("commands"))
    for name in COMMANDS if only is None else (only,):
        module = command_module(name)
        cmd = sub.add_parser(name, help=say.text(module.HELP), description=say.text(module.DESCRIPTION),
                             epilog=say.text(EXIT_CODES), formatter_class=formatter, add_help=False)
        _titles(cmd, say)
        if getattr(module, "NEEDS_PROJECT", True):
            cmd.add_argument("-C", "--project", type=Path, metavar="DIR", default=None,
                             help=say("the project folder (default: the current folder, or the first folder above "
                                      "it that holds content/)"))
        verbosity = cmd.add_mutually_exclusive_group()
        verbosity.add_argument("-q", "--quiet", action="store_true", help=say("print only errors"))
        verbosity.add_argument("-v", "--verbose", action="store_true", help=say("print more detail"))
        cmd.add_argument("--lang", choices=MESSAGE_LANGUAGES, default=None,
                         help=say("language of the messages (errors, summary, help): default site.yaml's "
                                  "`language:`, else the system locale (zh… → zh-CN), else zh-CN; the pages' own "
                                  "words follow site.yaml only"))
        module.add_arguments(cmd, say)
    return p


def _titles(p: argparse.ArgumentParser, say: Speaker) -> None:
    """The help's own words in the messages' language: its section titles and -h."""
    p._positionals.title = say("positional arguments")
    p._optionals.title = say("options")
    p.add_argument("-h", "--help", action="help", help=say("show this help and exit"))
