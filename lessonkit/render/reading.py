"""A lesson as it reads: its text blocks in the page's order (for the citations' numbers) and its reading time."""
from __future__ import annotations

import math
import re
from typing import Any

from ..compute.run import ComputedLesson
from ..load.document import walk
from ..support.cjk import count_chinese


def challenges_of(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """lesson.yaml's challenges, a malformed one as an empty entry (reported when lesson.yaml was checked)."""
    items = meta.get("challenges")
    return [c if isinstance(c, dict) else {} for c in items] if isinstance(items, list) else []


def reading_texts(lesson: ComputedLesson):
    """The lesson's text blocks in the order the page shows them — head, sections (a placed figure's caption where
    it stands), challenges, the sources — for the citations' numbers; Markdown fields as the plan parsed them."""
    src, meta, plan = lesson.source, lesson.source.meta, lesson.source.plan
    captions = {name: spec.caption for name, spec in lesson.registry.figures.items()}
    strings = lambda value: [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]  # noqa: E731

    def read(blocks, kinds=("figure", "code")):
        for block in walk(blocks):
            if block.kind == "text":
                yield "\n".join(block.lines)
            elif block.kind == "directive" and block.name in kinds:
                name = plan.figure_functions.get(block.arg, block.arg) if block.name == "code" else block.arg
                yield captions.get(name, "")
    yield from read(plan.blocks("intro"))
    yield from strings(meta.get("objectives"))
    yield from read(plan.blocks("question"))
    for section in src.sections:
        yield section.title
        yield from read(section.blocks)
    for n, challenge in enumerate(challenges_of(meta)):
        yield from read(plan.blocks(f"challenges.{n}.question"))
        for j, _ in enumerate(strings(challenge.get("hints"))):
            yield from read(plan.blocks(f"challenges.{n}.hints.{j}"))
        yield from read(plan.blocks(f"challenges.{n}.answer"), kinds=("figure",))
    yield from strings(meta.get("sources"))


# what a reader does not read as words: formulas (read, but not at a word's pace), values, directives, citations and
# links written as markup, container fences, heading ids, comments
NOT_WORDS = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$|\{\{<.*?>\}\}|\{\{.*?\}\}|\{#[^}\n]*\}|<!--.*?-->|\[@[^\]\n]*\]"
                       r"|@lesson:[\w#:-]+|^[ \t]*:::[^\n]*$", re.S | re.M)
# lesson.yaml's keys whose values are no prose: names, dates, numbers, options (a self-check field's `answer` names
# a value: see _prose)
NOT_PROSE = frozenset({"id", "release", "answers", "draft", "order", "budget", "mastery", "unit", "format", "scale",
                       "tolerance", "correct", "multiple", "value"})


def reading_minutes(src, figures: int) -> int:
    """About 400 Chinese characters (or 200 Latin words) a minute, plus half a minute a figure: lesson.md's sections
    and lesson.yaml's prose (its values, not its keys), formulas and markup left out."""
    text = NOT_WORDS.sub(" ", "\n".join([s.body for s in src.sections] + list(_prose(src.meta))))
    cjk = count_chinese(text)
    words = len(re.findall(r"[A-Za-z]+", text))
    return max(1, math.ceil(cjk / 400 + words / 200 + figures * 0.5))


def _prose(value: Any, field: bool = False):
    """The texts among lesson.yaml's values, its keys and non-prose values left out; `field`: a self-check's answer
    box, whose `answer` is a value's name."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _prose(item, field)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_PROSE and not (field and key == "answer"):
                yield from _prose(item, key == "fields")
