"""What lessonkit makes of a course: one entry per output, in one table. A build renders a format made from the
lessons' syntax trees (`site`, `teacher`, `lms`): each lesson's parts in `lesson_parts` (render/pages.py
LESSON_PARTS says who renders each), with the edition switches the format implies. The other formats are made
afterwards from such a build's pages (`pdf`, `slides`, `scorm`) or its packages (`moodle`): `built_from` names the
format built for them. A new output is a new entry, not a flag threaded through the stages.

    FORMATS[name]       the entry
    edition(name, …)    the edition a build of that format is (load/release.py Edition)
"""
from __future__ import annotations

from ..support.records import Record
from .release import Edition


class Format(Record):
    name: str
    edition: Edition                  # the switches: `teacher` (every lesson; answers, keys and notes shown),
                                      # `lms` (each page stands alone, reports to a platform)
    lesson_parts: tuple[str, ...]     # what a build of it renders for each lesson; () when made from another's build
    built_from: str = ""              # the format whose build it is made from (pdf: the site's pages …)
    command: str = "build"            # the command that makes it


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("site", Edition(), ("page", "notebook")),
    Format("teacher", Edition(teacher=True), ("page", "notebook")),
    Format("lms", Edition(lms=True), ("page", "notebook", "package"), command="export"),
    Format("pdf", Edition(), (), built_from="site", command="pdf"),
    Format("teacher-pdf", Edition(teacher=True), (), built_from="teacher", command="pdf --teacher"),
    Format("slides", Edition(), (), built_from="site", command="slides"),
    Format("teacher-slides", Edition(teacher=True), (), built_from="teacher", command="slides --teacher"),
    Format("scorm", Edition(lms=True), (), built_from="lms", command="export scorm"),
    Format("moodle", Edition(lms=True), (), built_from="lms", command="export moodle"),
)}


def edition(name: str, drafts: bool = False) -> Edition:
    """The edition a build of format `name` is; `drafts`: drafts built too (`--drafts`, the preview)."""
    return FORMATS[name].edition._replace(drafts=drafts)
