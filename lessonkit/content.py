"""Read lessons from content/<slug>/: lesson.yaml (metadata), lesson.md (body), lesson.py (computations)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import ContentError, Problem
from .schema import check_lesson_meta

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
HEADING = re.compile(r"^##\s+(?P<title>.+?)\s*(?:\{#(?P<id>[A-Za-z][\w-]*)\})?\s*$")
FENCE = re.compile(r"^(```|~~~)")
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the same result, 10× faster


@dataclass
class SectionSource:
    id: str
    title: str
    body: str
    line: int  # line of the heading in lesson.md


@dataclass
class LessonSource:
    slug: str
    folder: Path
    meta: dict[str, Any]
    meta_lines: dict[str, int]
    sections: list[SectionSource]
    body_path: Path
    code_path: Path | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def meta_path(self) -> Path:
        return self.folder / "lesson.yaml"


def find_lessons(content_dir: Path) -> list[Path]:
    return sorted(p for p in content_dir.iterdir() if p.is_dir() and (p / "lesson.yaml").exists())


def load_lesson(folder: Path) -> LessonSource:
    """Read one lesson folder; every problem found is collected, then raised together."""
    problems: list[Problem] = []
    slug = folder.name
    if not SLUG.match(slug):
        problems.append(Problem(folder, None, f"lesson folder name `{slug}` is not a URL-safe slug",
                                "lowercase ASCII letters, digits and hyphens, e.g. `transformer-basics`"))
    meta_path = folder / "lesson.yaml"
    meta, meta_lines = read_yaml(meta_path, problems)
    problems += check_lesson_meta(meta, meta_lines, meta_path)

    body_path = folder / "lesson.md"
    sections: list[SectionSource] = []
    if not body_path.exists():
        problems.append(Problem(body_path, None, "file is missing", "the lesson body in Markdown"))
    else:
        text = read_text(body_path, problems)
        if text is not None:
            sections = split_sections(text, body_path, problems)

    code_path = folder / "lesson.py"
    if problems:
        raise ContentError(problems)
    return LessonSource(slug, folder, meta, meta_lines, sections, body_path, code_path if code_path.exists() else None)


def read_text(path: Path, problems: list[Problem]) -> str | None:
    data = path.read_bytes()
    if b"\x00" in data:
        problems.append(Problem(path, None, "file contains binary data (NUL bytes)", "a UTF-8 text file"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        hint = ""
        try:
            data.decode("gb18030")
            hint = "; it looks like GBK/GB18030 (common on Chinese Windows): re-save it as UTF-8"
        except UnicodeDecodeError:
            pass
        problems.append(Problem(path, line, f"file is not UTF-8{hint}", "UTF-8 text"))
        return None
    return text.removeprefix("\ufeff")


def read_yaml(path: Path, problems: list[Problem]) -> tuple[dict[str, Any], dict[str, int]]:
    """Parse YAML into a mapping plus the line of every top-level key; duplicate keys are errors."""
    if not path.exists():
        problems.append(Problem(path, None, "file is missing", "lesson metadata in YAML"))
        return {}, {}
    text = read_text(path, problems)
    if text is None:
        return {}, {}
    if not text.strip():
        problems.append(Problem(path, 1, "file is empty", "a mapping with at least `title` and `summary`"))
        return {}, {}
    try:
        node = yaml.compose(text, Loader=YAML_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        column = f", column {mark.column + 1}" if mark else ""
        problems.append(Problem(path, line, f"YAML syntax error{column}: {getattr(exc, 'problem', exc)}",
                                "valid YAML (check indentation and quotes)"))
        return {}, {}
    if not isinstance(node, yaml.MappingNode):
        problems.append(Problem(path, node.start_mark.line + 1 if node else 1, "top level is not a mapping",
                                "`key: value` lines such as `title: …`"))
        return {}, {}
    _check_duplicates(node, path, problems)
    data = yaml.load(text, Loader=YAML_LOADER)
    lines = {k.value: k.start_mark.line + 1 for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
    _collect_item_lines(node, lines)
    return data, lines


def _check_duplicates(node: yaml.Node, path: Path, problems: list[Problem]) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key, value in node.value:
            line = key.start_mark.line + 1
            if key.value in seen:
                problems.append(Problem(path, line, f"duplicate key `{key.value}` (first at line {seen[key.value]})",
                                        "each key once"))
            seen.setdefault(key.value, line)
            _check_duplicates(value, path, problems)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_duplicates(item, path, problems)


def _collect_item_lines(node: yaml.MappingNode, lines: dict[str, int]) -> None:
    """Record `key.N` and `key.N.sub` lines for lists of mappings (challenges), for precise messages."""
    for key, value in node.value:
        if isinstance(value, yaml.SequenceNode):
            for i, item in enumerate(value.value):
                lines[f"{key.value}.{i}"] = item.start_mark.line + 1
                if isinstance(item, yaml.MappingNode):
                    for sub_key, sub_value in item.value:
                        lines[f"{key.value}.{i}.{sub_key.value}"] = sub_value.start_mark.line + 1


def split_sections(text: str, path: Path, problems: list[Problem]) -> list[SectionSource]:
    """Split lesson.md at `## ` headings (outside code fences) into numbered sections."""
    sections: list[SectionSource] = []
    in_fence = False
    preamble: list[str] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            in_fence = not in_fence
        heading = None if in_fence else HEADING.match(line)
        if heading:
            section_id = heading.group("id") or f"sec-{len(sections) + 1}"
            sections.append(SectionSource(section_id, heading.group("title"), "", lineno))
        elif sections:
            sections[-1].body += line + "\n"
        elif line.strip():
            preamble.append(line)
            if len(preamble) == 1:
                problems.append(Problem(path, lineno, "text before the first `## ` section heading",
                                        "the body to start with `## Section title {#id}`; put the intro in lesson.yaml"))
    if not sections and not problems:
        problems.append(Problem(path, 1, "no sections", "at least one `## Section title {#id}` heading"))
    seen: dict[str, int] = {}
    for s in sections:
        if s.id in seen:
            problems.append(Problem(path, s.line, f"duplicate section id `{s.id}` (first at line {seen[s.id]})",
                                    "a unique `{#id}` per section"))
        seen.setdefault(s.id, s.line)
    return sections
