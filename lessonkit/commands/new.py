"""`new SLUG`: start a lesson in the project's content/SLUG/ from a sample that builds at once and shows every kind
of content once — a computed value, a figure, a formula, a callout, a widget and a challenge with a computed answer.

SLUG becomes the folder name and the page's address (…/SLUG/index.html): lowercase ASCII letters, digits and hyphens.
"""
from __future__ import annotations

import argparse
import re
import shlex
import shutil
from pathlib import Path

from ..load.lessons import SLUG
from ..support.errors import UsageError
from ..support.messages import msg
from ..support.paths import SCAFFOLDS
from ..support.project import refuse_inside_package

HELP = msg("start a new lesson from a sample that shows every feature")
DESCRIPTION = msg("Start a lesson in the project's content/SLUG/ from a sample that builds at once and shows every "
                  "kind of content once: a computed value, a figure, a formula, a callout, a widget and a challenge "
                  "with a computed answer. SLUG becomes the folder name and the page's address: lowercase ASCII "
                  "letters, digits and hyphens.")
SCAFFOLD = SCAFFOLDS / "lesson"
SCAFFOLD_FILES = ("lesson.yaml", "lesson.md", "lesson.py")
PLACEHOLDER = "new-lesson"  # in the scaffold's lesson.yaml; replaced by the slug
ORDER_LINE = re.compile(r"^order: *(\d+) *$", re.M)  # the scaffold's `order:`, after the course's last lesson
ORDER_STEP = 10
MAX_SLUG = 64


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    p.add_argument("slug", metavar="SLUG", help=say("folder name under content/, e.g. attention-basics"))
    p.add_argument("--content", type=Path, default=None, metavar="DIR", help=say("content folder (default: the project's content/)"))


def run(args: argparse.Namespace) -> int:
    slug = check_slug(args.slug)
    folder = args.content / slug
    refuse_inside_package(folder, msg("a lesson"))
    if folder.exists():
        raise UsageError(msg("{folder} already exists: choose another name, or delete that folder first",
                             folder=folder))
    create_lesson(folder, slug)
    if not args.quiet:
        say = args.say
        print(say("created {folder}/ ({files})", folder=_shown(folder), files=", ".join(SCAFFOLD_FILES)))
        print(say("next: {command}, open http://127.0.0.1:8000/{slug}/ and edit the three files; the page follows "
                  "every save", command=serve_command(args), slug=slug))
    return 0


def serve_command(args: argparse.Namespace) -> str:
    """How to preview the project the lesson was added to, from the current folder."""
    here, root = Path.cwd().resolve(), args.project.root
    if args.content.resolve() != args.project.content:
        return f"{args.prog} serve --content {shlex.quote(str(args.content))}"
    return f"{args.prog} serve" + ("" if here == root or root in here.parents else f" -C {shlex.quote(str(root))}")


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
                text = ORDER_LINE.sub(lambda m: f"order: {next_order(folder.parent, int(m.group(1)))}", text)
            (staging / name).write_text(text, encoding="utf-8")
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def next_order(content: Path, first: int) -> int:
    """An `order` after every lesson already in `content`, so that a new lesson comes last and no two lessons share
    one (a warning, an error under --strict); `first` when there is none."""
    import yaml

    orders = []
    for path in content.glob("*/lesson.yaml"):
        try:
            meta = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):  # unreadable: the build reports it
            continue
        order = meta.get("order") if isinstance(meta, dict) else None
        if isinstance(order, (int, float)) and not isinstance(order, bool):
            orders.append(int(order))
    return max(orders) + ORDER_STEP if orders else first


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
