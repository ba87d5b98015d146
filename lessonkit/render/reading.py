"""A lesson as it reads: its texts in the page's order (for the citations' numbers) and its reading time."""
from __future__ import annotations

import math
import re
from pathlib import Path
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
    """The lesson's texts as syntax trees, (file, nodes), in the order the page shows them — head, sections (a placed
    figure's caption where it stands, a placed self-check's question and answer), challenges, the sources: what
    numbers its citations, tables, toggles and tab sets (render/numbering.py)."""
    src, meta, plan = lesson.source, lesson.source.meta, lesson.source.plan
    figures, yaml = lesson.registry.figures, src.meta_path

    def caption(name: str):
        spec = figures.get(name)
        if spec is not None and spec.caption:
            path = src.code_path or src.body_path
            yield path, parse_markdown(spec.caption, path, spec.line or 1, [])

    def check(name: str):
        entries = meta.get("checks") if isinstance(meta.get("checks"), list) else []
        for i, entry in enumerate(entries):
            if isinstance(entry, dict) and entry.get("id") == name:
                yield from read(yaml, plan.blocks(f"checks.{i}.question"))
                yield from read(yaml, plan.blocks(f"checks.{i}.answer"))

    def read(path: Path, blocks, kinds=("figure", "code", "check")):
        for block in blocks:
            if type(block) is n.Directive:
                yield path, (block,)   # (what it places is numbered where it stands: a table)
                if block.kind == "check" and "check" in kinds:
                    yield from check(block.name)
                elif block.kind in kinds:
                    yield from caption(plan.figure_functions.get(block.name, block.name) if block.kind == "code"
                                       else block.name)
            elif type(block) is n.Container:   # the container with its title, then what it holds, one by one
                yield path, (block._replace(children=()),)
                yield from read(path, block.children, kinds)
            else:
                yield path, (block,)

    def items(key: str):
        value = meta.get(key)
        for i, _ in enumerate(value if isinstance(value, list) else ()):
            yield yaml, plan.blocks(f"{key}.{i}")

    yield from read(yaml, plan.blocks("intro"))
    yield from items("objectives")
    yield from read(yaml, plan.blocks("question"))
    for section in src.sections:
        yield src.body_path, section.heading
        yield from read(src.body_path, section.blocks)
    for k, challenge in enumerate(challenges_of(meta)):
        yield from read(yaml, plan.blocks(f"challenges.{k}.question"))
        for j, _ in enumerate(challenge.get("hints") if isinstance(challenge.get("hints"), list) else ()):
            yield from read(yaml, plan.blocks(f"challenges.{k}.hints.{j}"))
        yield from read(yaml, plan.blocks(f"challenges.{k}.answer"), kinds=("figure",))
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
