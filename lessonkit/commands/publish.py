"""`publish`: build with --strict, commit the built site to the `gh-pages` branch of the project's git repository
(with ghp-import, as `mkdocs gh-deploy` does: git's own fast-import, the working tree untouched) and push that
branch to a remote. Refused outside a git repository and while the course's own files have uncommitted changes;
when the push fails, the local branch is put back as it was."""
from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path

from .. import __version__
from ..support.errors import UsageError
from ..support.messages import msg
from . import build as build_command

HELP = msg("build with --strict, then commit output/ to the gh-pages branch and push it")
DESCRIPTION = msg("Build the site with --strict, commit it to the gh-pages branch of the project's git repository "
                  "and push that branch to a remote (default origin): GitHub Pages then serves it (Settings → Pages "
                  "→ deploy from the gh-pages branch). Refused outside a git repository and while content/ or "
                  "themes/ have uncommitted changes; if the remote refuses the push, the branch is left as it was.")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    build_command.add_site_options(p, say)
    build_command.add_output_options(p, say)  # every lesson, always --strict: the whole course is published
    p.add_argument("--remote", default="origin", metavar="NAME", help=say("the remote to push to (default: origin)"))
    p.add_argument("--branch", default="gh-pages", metavar="NAME", help=say("the branch the site is committed to (default: gh-pages)"))


def run(args: argparse.Namespace) -> int:
    say, root = args.say, args.project.root
    top = git_top(root)
    unsaved = uncommitted(top, [args.content, args.themes_dir])
    if unsaved:
        raise UsageError(msg("{n} file(s) of the course are not committed ({files}): commit them first, so that "
                             "the published site is built from what the repository holds", n=len(unsaved),
                             files=", ".join(unsaved[:5]) + (", …" if len(unsaved) > 5 else "")))
    if git(top, "remote", "get-url", args.remote).returncode != 0:
        raise UsageError(msg("the repository has no remote `{remote}`: add one with `git remote add {remote} URL`, or "
                             "name another with --remote", remote=args.remote))
    args.strict, args.lesson = True, None
    report, out = build_command.build_site(args)
    source = git(top, "rev-parse", "--short", "HEAD").stdout.strip() or "?"
    # the remote's branch first, so that the new commit follows it (ghp-import starts from remote/branch)
    git(top, "fetch", "--quiet", args.remote, f"+refs/heads/{args.branch}:refs/remotes/{args.remote}/{args.branch}")
    before = commit_site(top, out, args.remote, args.branch,
                         say("Site built from {commit} by lessonkit {version}", commit=source, version=__version__))
    push(top, args.remote, args.branch, before)
    if not args.quiet:
        print(say("published {n} lesson(s): {branch} pushed to {remote}", n=len(report.lessons), branch=args.branch,
                  remote=args.remote))
    return 0


def git(top: Path, *command: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *command], cwd=top, capture_output=True, text=True)
    except FileNotFoundError:
        raise UsageError(msg("git is not installed: publishing commits the site to a git branch")) from None


def git_top(root: Path) -> Path:
    done = git(root, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise UsageError(msg("{path} is not in a git repository: `git init`, commit the course and add a remote "
                             "first", path=root))
    return Path(done.stdout.strip())


def uncommitted(top: Path, folders: list[Path]) -> list[str]:
    """The course's files that differ from the last commit, untracked ones included."""
    done = git(top, "status", "--porcelain", "--untracked-files=all", "--", *[str(f) for f in folders])
    return [line[3:] for line in done.stdout.splitlines() if line.strip()]


def commit_site(top: Path, out: Path, remote: str, branch: str, message: str) -> str:
    """The built site as the next commit of `branch` (ghp-import: git fast-import, the working tree untouched);
    what the branch pointed to before ("" when it did not exist)."""
    import ghp_import

    before = git(top, "rev-parse", "--verify", "-q", f"refs/heads/{branch}").stdout.strip()
    here = Path.cwd()
    os.chdir(top)  # ghp-import runs git in the current folder
    try:
        ghp_import.ghp_import(str(out), mesg=message, branch=branch, remote=remote, push=False, nojekyll=True)
    except ghp_import.GhpError as exc:
        raise UsageError(msg("could not commit the site to `{branch}`: {reason}", branch=branch,
                             reason=str(exc))) from None
    finally:
        os.chdir(here)
    after = git(top, "rev-parse", "--verify", "-q", f"refs/heads/{branch}").stdout.strip()
    if not after or after == before:
        restore(top, branch, before)
        raise UsageError(msg("could not commit the site to `{branch}` (git fast-import failed)", branch=branch))
    return before


def push(top: Path, remote: str, branch: str, before: str) -> None:
    """Push the branch; a refused push puts the local branch back where it was."""
    done = git(top, "push", remote, f"refs/heads/{branch}:refs/heads/{branch}")
    if done.returncode != 0:
        restore(top, branch, before)
        raise UsageError(msg("`{remote}` refused the push of `{branch}`; the branch is left as it was: {reason}",
                             remote=remote, branch=branch, reason=done.stderr.strip()))


def restore(top: Path, branch: str, before: str) -> None:
    if before:
        git(top, "update-ref", f"refs/heads/{branch}", before)
    else:
        git(top, "update-ref", "-d", f"refs/heads/{branch}")
