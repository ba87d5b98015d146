"""The author's project: a folder holding `content/` (lessons, site.yaml, glossary.yaml, references.bib) and
optionally `themes/` (overrides of the built-in theme), where the tool writes `output/` and `.cache/lessonkit/`.
Every default of the command line belongs to the project; nothing is ever written inside the installed package."""
from __future__ import annotations

from pathlib import Path

from .errors import UsageError
from .messages import msg
from .paths import PACKAGE
from .records import Record

CONTENT, THEMES, OUTPUT, CACHE = "content", "themes", "output", ".cache/lessonkit"
TEACHER_OUTPUT = "output-teacher"  # the teacher's edition: never mixed into output/, which students may read
LMS_OUTPUT = "output-lms"          # `export`'s packages for a learning platform: never inside output/ either
SITE_FILE = "site.yaml"
VERSION_KEY = "lessonkit"  # site.yaml: the lessonkit versions the course is written for (PEP 440 specifiers)


class Project(Record):
    root: Path

    @property
    def content(self) -> Path:
        return self.root / CONTENT

    @property
    def themes(self) -> Path:
        return self.root / THEMES

    @property
    def output(self) -> Path:
        return self.root / OUTPUT

    @property
    def teacher_output(self) -> Path:
        return self.root / TEACHER_OUTPUT

    @property
    def lms_output(self) -> Path:
        return self.root / LMS_OUTPUT

    @property
    def cache(self) -> Path:
        return self.root / CACHE

    @property
    def site_file(self) -> Path:
        return self.content / SITE_FILE


def find_project(start: Path) -> Project | None:
    """The first folder from `start` upwards that holds `content/`, as git finds its repository."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / CONTENT).is_dir():
            return Project(folder)
    return None


def locate(explicit: Path | None, content: Path | None, start: Path, prog: str) -> Project:
    """The project a command works on: `-C DIR`; else the folder holding `--content`; else the first folder from
    `start` upwards that holds content/."""
    if explicit is not None:
        root = explicit.expanduser().resolve()
        if not root.is_dir():
            raise UsageError(msg("project folder {path} does not exist", path=root))
        if not (root / CONTENT).is_dir():
            raise UsageError(not_a_project(root, prog))
    found = project_of(explicit, content, start)
    if found is None:
        raise UsageError(not_a_project(start.resolve(), prog))
    return found


def project_of(explicit: Path | None, content: Path | None, start: Path) -> Project | None:
    """The project `locate` finds, or None where it would report a mistake (the command line reads site.yaml
    before it checks its options: cli.py)."""
    if explicit is not None:
        root = explicit.expanduser().resolve()
        return Project(root) if (root / CONTENT).is_dir() else None
    if content is not None:
        return Project(content.expanduser().resolve().parent)
    return find_project(start)


def not_a_project(folder: Path, prog: str):
    return msg("{folder} is not in a lessonkit project: neither it nor a folder above it holds content/. Make one "
               "with `{prog} init DIR`, or name one with `-C DIR`", folder=folder, prog=prog)


def refuse_inside_package(path: Path, what) -> None:
    """Nothing of the author's is ever written inside the installed lessonkit (an upgrade would lose it)."""
    target = path.expanduser().resolve()
    if target == PACKAGE or PACKAGE in target.parents:
        raise UsageError(msg("refusing to write {what} to {path}: it is inside the installed lessonkit package "
                             "({package}), which an upgrade replaces", what=what, path=target, package=PACKAGE))


def compatible_range(version: str) -> str:
    """The releases a course written with `version` works with: the same minor release before 1.0 (`>=0.2,<0.3`),
    the same major one after (`>=1.4,<2`)."""
    from packaging.version import Version

    v = Version(version)
    if v.major == 0:
        return f">=0.{v.minor},<0.{v.minor + 1}"
    return f">={v.major}.{v.minor},<{v.major + 1}"
