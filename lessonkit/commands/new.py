"""`new SLUG`: start a lesson in content/SLUG/ from a sample that builds at once and shows every kind of content
once — a computed value, a figure, a formula, a callout, a widget and a challenge with a computed answer.

SLUG becomes the folder name and the page's address (…/SLUG/index.html): lowercase ASCII letters, digits and hyphens.
"""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from ..load.lessons import SLUG
from ..support.errors import UsageError
from ..support.messages import msg
from ..support.paths import PROJECT

HELP = "start a new lesson from a sample that shows every feature"
SCAFFOLD = Path(__file__).resolve().parent.parent / "scaffold"
SCAFFOLD_FILES = ("lesson.yaml", "lesson.md", "lesson.py")
PLACEHOLDER = "new-lesson"  # in the scaffold's lesson.yaml; replaced by the slug
MAX_SLUG = 64


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("slug", metavar="SLUG", help="folder name under content/, e.g. attention-basics")
    p.add_argument("--content", type=Path, default=PROJECT / "content", help="content folder (default: content/)")


def run(args: argparse.Namespace) -> int:
    slug = check_slug(args.slug)
    folder = args.content / slug
    if folder.exists():
        raise UsageError(msg("{folder} already exists: choose another name, or delete that folder first",
                             folder=folder))
    create_lesson(folder, slug)
    if not args.quiet:
        say = args.say
        print(say("created {folder}/ ({files})", folder=_shown(folder), files=", ".join(SCAFFOLD_FILES)))
        where = "" if args.content.resolve() == (PROJECT / "content").resolve() else f" --content {args.content}"
        print(say("next: python build.py serve{where}, open http://127.0.0.1:8000/{slug}/ and edit the three files; "
                  "the page follows every save", where=where, slug=slug))
    return 0


def check_slug(slug: str) -> str:
    example = msg("e.g. `attention-basics` (lowercase ASCII letters, digits and hyphens)")
    if not slug.isascii() or not SLUG.match(slug) or slug.endswith("-"):
        raise UsageError(msg("`{slug}` cannot be a lesson name: it becomes a folder and a web address, so use "
                             "{example}", slug=slug, example=example))
    if len(slug) > MAX_SLUG:
        raise UsageError(msg("`{slug}` is longer than {n} characters: use a shorter name, {example}", slug=slug,
                             n=MAX_SLUG, example=example))
    return slug


def create_lesson(folder: Path, slug: str) -> None:
    """Copy the scaffold into a staging folder beside `folder`, then rename it: never half a lesson."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.parent / f".{slug}-new"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        for name in SCAFFOLD_FILES:
            text = (SCAFFOLD / name).read_text(encoding="utf-8")
            if name == "lesson.yaml":
                text = text.replace(PLACEHOLDER, slug)
            (staging / name).write_text(text, encoding="utf-8")
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
