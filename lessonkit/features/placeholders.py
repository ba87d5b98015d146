"""The placeholders `lessonkit import` leaves for the author to replace (load/ipynb.py): the objective that says what
an objective is, a summary that repeats the title, a figure cell's caption "Figure 1" and alt text "describe what
figure 1 shows" — in whichever language the import spoke (the message catalog's words for them). Each is a warning at its line (an error under --strict, like a hand-typed
number), so an imported lesson is never published with them.

    report(source, memo)   the placeholders left in lesson.yaml and in lesson.py's figure cells, each at its line;
                           `memo(path, find, purpose)`: what `find()` gave for the same file before (incremental.py)
"""
from __future__ import annotations

import functools
import re
from typing import Callable

from ..support.errors import Problem
from ..support.messages import MESSAGE_LANGUAGES, Message, msg

NUMBER = "\x00"   # a placeholder's figure number, while its texts become patterns


def report(source, memo: Callable | None = None) -> list[Problem]:
    memo = memo or (lambda path, find, purpose=None: find())
    found = memo(source.meta_path, lambda: _lesson_yaml(source), "placeholders") if source.meta else []
    if source.code_path is not None:
        found += memo(source.code_path, lambda: _figure_cells(source.code_path), "placeholders")
    return found


def _lesson_yaml(source) -> list[Problem]:
    from ..load.ipynb import PLACEHOLDER_OBJECTIVE  # (imported when the file changed: its findings are kept)

    meta, lines, path = source.meta, source.meta_lines, source.meta_path
    problems = []
    objectives = meta.get("objectives")
    for i, objective in enumerate(objectives if isinstance(objectives, list) else []):
        if isinstance(objective, str) and _matches(PLACEHOLDER_OBJECTIVE, objective):
            problems.append(Problem(path, lines.get(f"objectives.{i}", lines.get("objectives")),
                                    msg("`objectives`: the placeholder `lessonkit import` wrote is still there"),
                                    msg("what a student can do after this lesson, in your words")))
    title, summary = meta.get("title"), meta.get("summary")
    if isinstance(summary, str) and summary.strip() and summary == title:
        problems.append(Problem(path, lines.get("summary"), msg("`summary` repeats the title, as `lessonkit "
                                                                "import` wrote it"),
                                msg("one line for the index page saying what the lesson is about")))
    return problems


def _figure_cells(code_path) -> list[Problem]:
    from ..load.cells import is_cell_file, split_cells
    from ..load.ipynb import alt_placeholder, caption_placeholder

    try:
        text = code_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):   # (reported where lesson.py is read)
        return []
    if not is_cell_file(text):
        return []
    problems = []
    for cell in split_cells(text, code_path)[0]:
        if cell.kind != "figure":
            continue
        for option, placeholder in (("caption", caption_placeholder), ("alt", alt_placeholder)):
            value = cell.option(option)
            if isinstance(value, str) and _matches(placeholder(NUMBER), value):
                problems.append(Problem(code_path, cell.line,
                                        msg("figure `{name}`: its {option} is the placeholder `lessonkit import` "
                                            "wrote, `{text}`", name=cell.name, option=option, text=value),
                                        msg("a caption saying what the figure shows, and an alt text describing it "
                                            "for a reader who cannot see it")))
    return problems


def _matches(placeholder: Message, text: str) -> bool:
    return any(pattern.fullmatch(text.strip()) for pattern in _patterns(placeholder))


@functools.cache
def _patterns(placeholder: Message) -> tuple[re.Pattern, ...]:
    """The placeholder's text in every language lessonkit speaks, its number any number (the import writes `"`
    inside a header's value as `'`)."""
    texts = {placeholder.render(lang).replace('"', "'") for lang in MESSAGE_LANGUAGES}
    return tuple(re.compile(re.escape(t).replace(re.escape(NUMBER), r"\d+")) for t in texts)
