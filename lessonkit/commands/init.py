"""`init DIR`: a complete course project in DIR, as `mkdocs new` and `hugo new site` make one: content/site.yaml
(title, language, the lessonkit versions it is written for), a sample lesson, .gitignore, a README saying how to
preview, build and publish, and a GitHub Pages workflow that keeps the computation cache between runs."""
from __future__ import annotations

import argparse
import json
import shlex
import shutil
import tempfile
from pathlib import Path

from .. import __version__
from ..support.errors import UsageError
from ..support.messages import MESSAGE_LANGUAGES, msg
from ..support.paths import SCAFFOLDS
from ..support.project import CONTENT, SITE_FILE, compatible_range, refuse_inside_package
from .new import check_slug, create_lesson

NEEDS_PROJECT = False
HELP = msg("start a course project in a folder: content/, a sample lesson, README, .gitignore, Pages workflow")
DESCRIPTION = msg("Make a complete course project in DIR (created if missing; default: the current folder): "
                  "content/site.yaml with the title, the language and the lessonkit versions the course is written "
                  "for, one sample lesson, .gitignore, a README saying how to preview, build and publish, and "
                  ".github/workflows/pages.yml, which builds with --strict and deploys to GitHub Pages, keeping the "
                  "computation cache between runs. A README, .gitignore or workflow already there is kept.")
PROJECT_SCAFFOLD = SCAFFOLDS / "project"
WORKFLOW = ".github/workflows/pages.yml"
SAMPLE = "first-lesson"


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    p.add_argument("folder", metavar="DIR", nargs="?", default=".", type=Path,
                   help=say("the course's folder (default: the current folder)"))
    p.add_argument("--title", metavar="TITLE", help=say("the course's title (default: the folder's name)"))
    p.add_argument("--language", choices=MESSAGE_LANGUAGES, default="zh-CN",
                   help=say("the pages' language (default: zh-CN)"))
    p.add_argument("--lesson", metavar="SLUG", default=SAMPLE,
                   help=say("the sample lesson's folder name (default: first-lesson)"))


def run(args: argparse.Namespace) -> int:
    root = args.folder.expanduser().resolve()
    slug = check_slug(args.lesson)
    refuse_inside_package(root, msg("a course"))
    if root.exists() and not root.is_dir():
        raise UsageError(msg("{path} is a file, not a folder", path=root))
    if (root / CONTENT).exists():
        raise UsageError(msg("{path} already exists: this folder holds a course already (nothing was changed)",
                             path=root / CONTENT))
    title = args.title or root.name
    files = project_files(title, args.language)
    root.mkdir(parents=True, exist_ok=True)
    kept = [name for name in files if (root / name).exists() and name != ".gitignore"]
    staging = Path(tempfile.mkdtemp(prefix=".lessonkit-init-", dir=root))
    try:
        create_lesson(staging / CONTENT / slug, slug)
        for name, text in files.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_text(merged_gitignore(root / name, text) if name == ".gitignore" else text,
                                        encoding="utf-8")
        # content/ (site.yaml inside) last: a folder holding it is a project, so an init stopped before the end
        # can be run again
        for name in [*[n for n in files if not n.startswith(f"{CONTENT}/") and n not in kept], CONTENT]:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).replace(root / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if not args.quiet:
        report(args, root, slug, files, kept)
    return 0


def project_files(title: str, language: str) -> dict[str, str]:
    """Each file of a new project (path → text) but the lesson, filled in."""
    fill = {"@TITLE@": json.dumps(title, ensure_ascii=False), "@TITLE_TEXT@": title,
            "@REQUIREMENT@": compatible_range(__version__)}

    def read(name: str) -> str:
        text = (PROJECT_SCAFFOLD / name).read_text(encoding="utf-8")
        for marker, value in fill.items():
            text = text.replace(marker, value)
        return text
    return {f"{CONTENT}/{SITE_FILE}": read(f"{language}/site.yaml"), "README.md": read(f"{language}/README.md"),
            ".gitignore": read("gitignore"), WORKFLOW: read("pages.yml")}


def merged_gitignore(existing: Path, ours: str) -> str:
    """An existing .gitignore keeps every line; ours adds the lines it lacks."""
    if not existing.is_file():
        return ours
    text = existing.read_text(encoding="utf-8")
    have = {line.strip() for line in text.splitlines()}
    missing = [line for line in ours.splitlines() if line.strip() and line.strip() not in have]
    return text + ("" if text.endswith("\n") or not text else "\n") + "\n".join(missing) + ("\n" if missing else "")


def report(args: argparse.Namespace, root: Path, slug: str, files: dict[str, str], kept: list[str]) -> None:
    say = args.say
    print(say("created a course in {folder}:", folder=root))
    for name in [f"{CONTENT}/{SITE_FILE}", f"{CONTENT}/{slug}/", *[n for n in files if n != f"{CONTENT}/{SITE_FILE}"]]:
        print(f"  {name}" + ("  " + say("(yours, kept as it was)") if name in kept else ""))
    here = Path.cwd().resolve()
    where = "" if here == root else f"cd {shlex.quote(str(root))} && "
    print(say("next: {command} — then open http://127.0.0.1:8000/ ; README.md says how to build and publish",
              command=f"{where}{args.prog} serve"))
