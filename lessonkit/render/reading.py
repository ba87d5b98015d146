"""A lesson as it reads: its texts in the page's order (for the citations' numbers) and its reading time."""
from __future__ import annotations

import math
import re
from typing import Any

from ..compute.run import ComputedLesson
from ..load.syntax import nodes as n
from ..load.syntax import parse_markdown
from ..support.cjk import count_chinese


def challenges_of(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """lesson.yaml's challenges, a malformed one as an empty entry (reported when lesson.yaml was checked)."""
    items = meta.get("challenges")
    return [c if isinstance(c, dict) else {} for c in items] if isinstance(items, list) else []


def reading_texts(lesson: ComputedLesson):
    """The lesson's texts as syntax trees, in the order the page shows them — head, sections (a placed figure's
    caption where it stands), challenges, the sources — for the citations' numbers."""
    src, meta, plan = lesson.source, lesson.source.meta, lesson.source.plan
    figures = lesson.registry.figures

    def caption(name: str) -> tuple:
        spec = figures.get(name)
        return parse_markdown(spec.caption, src.code_path or src.body_path, spec.line or 1, []) \
            if spec is not None and spec.caption else ()

    def read(blocks, kinds=("figure", "code")):
        for block in blocks:
            if type(block) is n.Directive:
                if block.kind in kinds:
                    yield caption(plan.figure_functions.get(block.name, block.name) if block.kind == "code"
                                  else block.name)
            elif type(block) is n.Container:
                yield block.title
                yield from read(block.children, kinds)
            else:
                yield (block,)

    def items(key: str):
        value = meta.get(key)
        for i, _ in enumerate(value if isinstance(value, list) else ()):
            yield plan.blocks(f"{key}.{i}")

    yield from read(plan.blocks("intro"))
    yield from items("objectives")
    yield from read(plan.blocks("question"))
    for section in src.sections:
        yield section.heading
        yield from read(section.blocks)
    for k, challenge in enumerate(challenges_of(meta)):
        yield from read(plan.blocks(f"challenges.{k}.question"))
        for j, _ in enumerate(challenge.get("hints") if isinstance(challenge.get("hints"), list) else ()):
            yield from read(plan.blocks(f"challenges.{k}.hints.{j}"))
        yield from read(plan.blocks(f"challenges.{k}.answer"), kinds=("figure",))
    yield from items("sources")


# lesson.yaml's keys whose values are no prose: names, dates, numbers, options (a self-check field's `answer` names
# a value: see _prose)
NOT_PROSE = frozenset({"id", "release", "answers", "draft", "order", "budget", "mastery", "unit", "format", "scale",
                       "tolerance", "correct", "multiple", "value"})
LATIN_WORD = re.compile(r"[A-Za-z]+")


def reading_minutes(src, figures: int) -> int:
    """About 400 Chinese characters (or 200 Latin words) a minute, plus half a minute a figure: the words of
    lesson.md's sections and of lesson.yaml's prose (its values, not its keys) — formulas, values, references and
    markup are not read at a word's pace."""
    texts = [words(s.blocks) for s in src.sections]
    texts += [words(src.plan.fields[key]) if key in src.plan.fields else text for key, text in _prose(src.meta)]
    text = "\n".join(texts)
    return max(1, math.ceil(count_chinese(text) / 400 + len(LATIN_WORD.findall(text)) / 200 + figures * 0.5))


WORDS = {n.Text: lambda node: node.text, n.CodeSpan: lambda node: node.text, n.Code: lambda node: node.text,
         n.Image: lambda node: node.alt}


def words(nodes) -> str:
    """What a reader reads as words in a text's syntax tree: its text, code and images' descriptions; container
    titles are text nodes too."""
    return " ".join(WORDS[type(node)](node) for node in n.walk(nodes) if type(node) in WORDS)


def _prose(value: Any, path: str = "", field: bool = False):
    """(key path, text) of the texts among lesson.yaml's values, its keys and non-prose values left out; `field`: a
    self-check's answer box, whose `answer` is a value's name."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _prose(item, f"{path}.{i}" if path else str(i), field)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_PROSE and not (field and key == "answer"):
                yield from _prose(item, f"{path}.{key}" if path else str(key), key == "fields")
