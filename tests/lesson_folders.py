"""Which lessons exist: found in content/ when the tests are collected, never assumed.

A plain module (not conftest) so both tests/ and tests/browser/ can import it without picking up the other conftest.
"""
from __future__ import annotations

from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

# a lesson.py with two values, for tests that need some computed numbers and nothing else
TWO_VALUES_PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def doubled(two_pow):
    return 2 * two_pow
"""


def real_lessons() -> list[str]:
    """The lesson folders in content/ now (any number, any names), sorted."""
    content = PROJECT / "content"
    if not content.is_dir():
        return []
    return sorted(p.name for p in content.iterdir()
                  if p.is_dir() and not p.name.startswith((".", "_")) and (p / "lesson.yaml").is_file())


def load_lesson(folder: Path):
    """One lesson folder read as the build reads it (load/lessons.py read_lesson); its problems raised together."""
    from lessonkit.load.lessons import read_lesson
    from lessonkit.support.errors import ContentError

    source = read_lesson(folder)
    if source.problems:
        raise ContentError(source.problems)
    return source


def warning_lines(err: str) -> list[str]:
    """A build's warnings as printed (English, tests/conftest.py): the heading line, then one line a warning, each
    with its file relative to content/."""
    return [line.strip().removeprefix("content/") for line in err.splitlines()]


def course_with_theme_mine(root: Path, files: dict[str, str]) -> Path:
    """root/content with `files` (paths inside content/ → text), and beside it root/themes: an empty theme `mine`
    (its i18n/ folder, for words a test overrides) and the built-in one linked. The content folder."""
    import os

    from lessonkit.support.paths import BUILTIN_THEMES
    content = root / "content"
    for name, text in files.items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_text(text, encoding="utf-8")
    (root / "themes" / "mine" / "i18n").mkdir(parents=True)
    os.symlink(BUILTIN_THEMES / "default", root / "themes" / "default")
    return content


def build_with_theme_mine(content: Path, out: Path, cache: Path | None):
    """Build `content` with the project theme `mine` (content/../themes/mine: words overridden there, the built-in
    theme linked beside it), one job: the sites the cache tests compare byte for byte."""
    from lessonkit.site import Options, build
    return build(Options(content=content, out=out, themes=content.parent / "themes", theme="mine", cache=cache,
                         jobs=1))


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by its path inside it: what two builds are compared by."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
