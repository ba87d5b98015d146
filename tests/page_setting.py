"""What the render-stage unit tests (test_placers.py, test_lesson.py, test_pages.py) share: the built-in theme in
English, a lesson folder written into tmp_path and computed (lesson.py run, no figure drawn), and the PageSetting a
lesson page is rendered with."""
from __future__ import annotations

import textwrap
from pathlib import Path

from lessonkit.compute.run import ComputedLesson, compute_lesson
from lessonkit.features.components import Components
from lessonkit.features.coursenav import Course, course_entry
from lessonkit.load.lessons import LessonSource, read_lesson
from lessonkit.render import markup
from lessonkit.render.draft import Holes
from lessonkit.render.placers import PageSetting
from lessonkit.render.templates import make_env
from lessonkit.support.i18n import load_ui
from lessonkit.support.paths import BUILTIN_THEMES

DIRS = [BUILTIN_THEMES / "default"]
UI = load_ui(DIRS, "en")
ENV = make_env(DIRS)
NONCE = "t0"

YAML = """\
title: Tiny lesson
summary: A lesson to test with
objectives:
  - Read a number
"""
PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def n():
    return 1024
"""


def write_lesson(root: Path, slug: str = "demo", md: str = "## One {#one}\n\nTwo to the ten is {{ n }}.\n",
                 yaml: str = YAML, py: str | None = PY, files: dict[str, str] | None = None) -> Path:
    folder = root / slug
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {"lesson.md": md, "lesson.yaml": yaml, "lesson.py": py, **(files or {})}.items():
        if text is not None:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def read(folder: Path) -> LessonSource:
    source = read_lesson(folder)
    assert source.problems == [], [str(p) for p in source.problems]
    return source


def computed(folder: Path) -> ComputedLesson:
    problems = []
    lesson = compute_lesson(read(folder), problems)
    assert problems == [], [str(p) for p in problems]
    return lesson


def setting(course: Course | None = None, teacher: bool = False, lms: bool = False, **options) -> PageSetting:
    """A lesson page's setting with this module's theme; `options`: release, bibliography; `teacher`, `lms`: the
    edition of the teacher's or the learning platform's format (load/formats.py)."""
    from lessonkit.load.formats import edition

    name = "teacher" if teacher else "lms" if lms else "site"
    return PageSetting(ENV, UI, Components(DIRS), course or Course(), Holes(nonce=NONCE), markup.Converters(),
                       edition=edition(name), **options)


def course_of(*sources: LessonSource, left_out: tuple[str, ...] = ()) -> Course:
    return Course([{**course_entry(s), "number": n} for n, s in enumerate(sources, start=1)],
                  left_out=frozenset(left_out))


__all__ = ["DIRS", "UI", "ENV", "NONCE", "YAML", "PY", "write_lesson", "read", "computed", "setting", "course_of"]
