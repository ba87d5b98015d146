"""The author's project: a folder holding `content/` (lessons, site.yaml, glossary.yaml, references.bib) and
optionally `themes/` (overrides of the built-in theme), where the tool writes `output/` and `.cache/lessonkit/`.
Every default of the command line belongs to the project; nothing is ever written inside the installed package."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from .errors import ContentError, Problem, UsageError
from .messages import msg
from .paths import PACKAGE

CONTENT, THEMES, OUTPUT, CACHE = "content", "themes", "output", ".cache/lessonkit"
TEACHER_OUTPUT = "output-teacher"  # the teacher's edition: never mixed into output/, which students may read
LMS_OUTPUT = "output-lms"          # `export`'s packages for a learning platform: never inside output/ either
SITE_FILE = "site.yaml"
VERSION_KEY = "lessonkit"  # site.yaml: the lessonkit versions the course is written for (PEP 440 specifiers)


class Project(NamedTuple):
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
        return Project(root)
    if content is not None:
        return Project(content.expanduser().resolve().parent)
    found = find_project(start)
    if found is None:
        raise UsageError(not_a_project(start.resolve(), prog))
    return found


def not_a_project(folder: Path, prog: str):
    return msg("{folder} is not in a lessonkit project: neither it nor a folder above it holds content/. Make one "
               "with `{prog} init DIR`, or name one with `-C DIR`", folder=folder, prog=prog)


def refuse_inside_package(path: Path, what) -> None:
    """Nothing of the author's is ever written inside the installed lessonkit (an upgrade would lose it)."""
    target = path.expanduser().resolve()
    if target == PACKAGE or PACKAGE in target.parents:
        raise UsageError(msg("refusing to write {what} to {path}: it is inside the installed lessonkit package "
                             "({package}), which an upgrade replaces", what=what, path=target, package=PACKAGE))


def check_version(project: Project, installed: str) -> None:
    """site.yaml's `lessonkit:` requirement against the installed version: another version stops every command
    before it writes anything, naming the file, the requirement and what is installed."""
    path = project.site_file
    requirement, line = _requirement(path)
    if requirement is None:
        return
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        specifiers = SpecifierSet(requirement)
    except InvalidSpecifier:
        raise ContentError([Problem(path, line, msg("`{key}: {value}` is not a version requirement",
                                                    key=VERSION_KEY, value=requirement),
                                    msg("PEP 440 specifiers, e.g. `{key}: \">=0.2,<0.3\"`", key=VERSION_KEY))])
    if not specifiers.contains(installed, prereleases=True):
        raise UsageError(msg("{path}:{line}: this course requires lessonkit {requirement}, but {installed} is "
                             "installed: `pip install \"lessonkit{requirement}\"`, or change the requirement",
                             path=path, line=line, requirement=requirement, installed=installed))


def _requirement(path: Path) -> tuple[str | None, int | None]:
    """site.yaml's `lessonkit:` value and its line, or None when it sets none (its other problems are the build's)."""
    if not path.is_file():
        return None, None
    import yaml

    try:
        node = yaml.compose(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError):
        return None, None
    if not isinstance(node, yaml.MappingNode):
        return None, None
    for key, value in node.value:
        if key.value == VERSION_KEY and isinstance(value, yaml.ScalarNode):
            return str(value.value).strip(), value.start_mark.line + 1
    return None, None


def compatible_range(version: str) -> str:
    """The releases a course written with `version` works with: the same minor release before 1.0 (`>=0.2,<0.3`),
    the same major one after (`>=1.4,<2`)."""
    from packaging.version import Version

    v = Version(version)
    if v.major == 0:
        return f">=0.{v.minor},<0.{v.minor + 1}"
    return f">={v.major}.{v.minor},<{v.major + 1}"
