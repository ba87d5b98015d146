"""The lesson.yaml schema, declared as data, and its checker that reports every problem at once."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..support.errors import Problem
from ..support.messages import Message, msg
from ..support.records import Record
from ..support.suggest import did_you_mean


class Key(Record):
    kind: type | tuple[type, ...]
    required: bool
    help: str
    items: Any = None  # for lists: the type of each item, or a dict schema for mappings


NUMBER = (int, float)

# self-check questions (issue 11; built by features/selfcheck.py, which also checks what needs the computed values)
TOLERANCE = {
    "relative": Key(NUMBER, False, "a relative tolerance, e.g. `{relative: 0.05}` for ±5 %"),
    "absolute": Key(NUMBER, False, "an absolute tolerance in the unit the student types, e.g. `{absolute: 0.01}`"),
    "sig": Key(int, False, "significant figures the answer must agree to, e.g. `{sig: 2}`"),
}
MISTAKE = {
    "value": Key((str, *NUMBER), True, "a known wrong answer, as the student would type it (a number or a value "
                                       "name from lesson.py)"),
    "hint": Key(str, True, "what to say when the student types that value"),
}
FIELD = {
    "label": Key(str, True, "the field's label in plain text, e.g. μ or remaining percentage"),
    "answer": Key(str, True, "the name of a number (or list of numbers) computed in lesson.py, e.g. `no_res_09` or "
                             "`ln_challenge.mu`, never a number typed in"),
    "unit": Key(str, False, "the unit shown after the box and accepted after the number, e.g. \"%\""),
    "scale": Key(NUMBER, False, "factor from the value to what the student types, e.g. 100 for a percentage"),
    "tolerance": Key(dict, False, "one of `{relative: 0.05}`, `{absolute: 0.001}`, `{sig: 2}`", items=TOLERANCE),
    "format": Key(str, False, "how the printed key shows the answer: a format spec such as sig3 or .2f"),
    "mistakes": Key(list, False, "known wrong answers: a list of `{value: …, hint: …}`", items=MISTAKE),
}
CHOICE = {
    "text": Key(str, True, "the option, in Markdown"),
    "correct": Key(bool, False, "true for a correct option"),
    "feedback": Key(str, False, "what to say when the student picks this option (plain text, may use {{ values }})"),
}
CHECK = {
    "fields": Key(list, False, "numeric answer boxes: a list of `{label, answer, unit, scale, tolerance, mistakes}`",
                  items=FIELD),
    "choices": Key(list, False, "options: a list of `{text, correct, feedback}`", items=CHOICE),
    "multiple": Key(bool, False, "true when several options may be correct (check boxes instead of radio buttons)"),
}

CHALLENGE = {
    "title": Key(str, True, "plain-text title, e.g. Why mask the future"),
    "question": Key(str, True, "the question, in Markdown"),
    "answer": Key(str, True, "the answer, in Markdown; may use {{ values }} and $math$"),
    "check": Key(dict, False, "a self-check: `{fields: [...]}` or `{choices: [...]}`", items=CHECK),
    "hints": Key(list, False, "hints shown one at a time before the answer (Markdown)", items=str),
}

SELF_CHECK = {  # a self-check on its own, placed in lesson.md with {{< check ID >}}
    "id": Key(str, True, "an ASCII name to place it with `{{< check ID >}}` in lesson.md"),
    "question": Key(str, True, "the question, in Markdown"),
    "check": Key(dict, True, "the self-check: `{fields: [...]}` or `{choices: [...]}`", items=CHECK),
    "hints": Key(list, False, "hints shown one at a time before the answer (Markdown)", items=str),
    "answer": Key(str, False, "the worked answer, in Markdown; may use {{ values }} and $math$"),
}

LESSON = {
    "title": Key(str, True, "the lesson title"),
    "summary": Key(str, True, "one line for the index page"),
    "order": Key(int, False, "position on the index page"),
    "objectives": Key(list, True, "a list of learning objectives (Markdown)", items=str),
    "question": Key(str, False, "the classroom question (Markdown)"),
    "intro": Key(str, False, "an introduction under the title (Markdown)"),
    "challenges": Key(list, False, "a list of challenges with title, question and answer", items=CHALLENGE),
    "checks": Key(list, False, "self-checks placed in the text with `{{< check ID >}}`", items=SELF_CHECK),
    "sources": Key(list, False, "a list of references (Markdown)", items=str),
    "draft": Key(bool, False, "true keeps the lesson out of the site (`serve` and `build --drafts` show it, marked)"),
    "release": Key(str, False, "the day the lesson appears on the students' site, YYYY-MM-DD"),
    "answers": Key(str, False, "`shown`, `hidden` (not in the students' site) or the day they are shown from, "
                               "YYYY-MM-DD; default site.yaml's `answers:`"),
    "mastery": Key(NUMBER, False, "the percentage of the self-checks a student must get right to pass the lesson's "
                                  "SCORM package, from 0 to 100 (default 60)"),
    "budget": Key(dict, False, "this lesson page's weight limits, e.g. `{page_kb: 300, gzip_kb: 70}` (a limit left out "
                               "is the site's)"),
    "requires": Key(list, False, "the packages the lesson's code imports, as pip names them, e.g. `[scipy, "
                                 "scikit-learn>=1.3]`: checked before any lesson code runs", items=str),
}

PART = {
    "title": Key(str, True, "the part's title in plain text, e.g. 第一部分 基础"),
    "lessons": Key(list, True, "the slugs (folder names) of the part's lessons, in reading order", items=str),
}

SITE = {
    "title": Key(str, False, "the site's title: index heading and every page's <title>"),
    "description": Key(str, False, "one line under the title on the index page"),
    "budget": Key(dict, False, "page weight limits, e.g. `{page_kb: 250, gzip_kb: 60}`"),
    "theme": Key(str, False, "the theme folder under themes/ (default: default); `--theme` overrides it"),
    "language": Key(str, False, "the site's language: zh-CN (default) or en, or another a theme has i18n/<language>.yaml for"),
    "parts": Key(list, False, "the course in parts: `[{title: …, lessons: [slug, …]}]`, every lesson in one part",
                 items=PART),
    "lessonkit": Key(str, False, "the lessonkit versions this course is written for, e.g. \">=0.2,<0.3\" (PEP 440)"),
    "answers": Key(str, False, "worked answers in the students' site: `shown` (default), `hidden`, or the day they "
                               "are shown from, YYYY-MM-DD"),
    "timezone": Key(str, False, "the time zone whose day decides releases, e.g. Asia/Shanghai (the default)"),
}


def check_lesson_meta(meta: dict[str, Any], lines: dict[str, int], path: Path) -> list[Problem]:
    if not meta:  # empty or unreadable: already reported by the reader
        return []
    return check_mapping(meta, LESSON, lines, path)


def check_mapping(data: dict, schema: dict[str, Key], lines: dict[str, int], path: Path,
                  prefix: str = "") -> list[Problem]:
    problems = []
    parent_line = lines.get(prefix.rstrip("."))
    for key in data:
        if key not in schema:
            problems.append(Problem(path, lines.get(prefix + str(key), parent_line),
                                    msg("unknown key `{key}`{hint}", key=f"{prefix}{key}",
                                        hint=did_you_mean(str(key), schema)),
                                    msg("one of: {items}", items=", ".join(schema))))
    for key, spec in schema.items():
        where = lines.get(prefix + key, parent_line)
        if key not in data or data[key] is None:
            if spec.required:
                problems.append(Problem(path, parent_line, msg("missing required key `{key}`", key=prefix + key),
                                        spec.help))
            continue
        value = data[key]
        if not is_a(value, spec.kind):
            problems.append(Problem(path, where, msg("`{key}` is {what}", key=prefix + key, what=describe(value)),
                                    spec.help))
            continue
        if isinstance(value, str) and not value.strip():
            problems.append(Problem(path, where, msg("`{key}` is empty", key=prefix + key), spec.help))
        if isinstance(value, dict) and isinstance(spec.items, dict):
            problems += check_mapping(value, spec.items, lines, path, prefix=f"{prefix}{key}.")
        elif spec.items is not None:
            problems += _check_items(value, spec, lines, path, prefix + key)
    return problems


def _check_items(items: list, spec: Key, lines: dict[str, int], path: Path, name: str) -> list[Problem]:
    problems = []
    if spec.required and not items:
        problems.append(Problem(path, lines.get(name), msg("`{key}` is an empty list", key=name), spec.help))
    for i, item in enumerate(items):
        item_line = lines.get(f"{name}.{i}", lines.get(name))
        if isinstance(spec.items, dict):
            if not isinstance(item, dict):
                problems.append(Problem(path, item_line, _item_is(name, i, item), spec.help))
            else:
                problems += check_mapping(item, spec.items, lines, path, prefix=f"{name}.{i}.")
        elif spec.items is str and isinstance(item, dict) and len(item) == 1:  # `- Note: here`
            problems.append(Problem(path, item_line, msg("`{key}` item {n} is read as `key: value`: its text has a "
                                                         "`: ` in it", key=name, n=i + 1),
                                    "the text in quotes, e.g. `- \"Note: here\"`"))
        elif not is_a(item, spec.items):
            problems.append(Problem(path, item_line, _item_is(name, i, item), spec.help))
    return problems


def _item_is(name: str, i: int, item: Any) -> Message:
    return msg("`{key}` item {n} is {what}", key=name, n=i + 1, what=describe(item))


def is_a(value: Any, kind) -> bool:
    if isinstance(value, bool):  # YAML's true/false is a Python int: never a number here
        return kind is bool or (isinstance(kind, tuple) and bool in kind)
    return isinstance(value, kind)


def describe(value: Any) -> Message:
    """What kind of value the author wrote, e.g. `text ('abc')`, `a whole number (3)`, `a list`."""
    if value is None:
        return msg("None (nothing)")
    if isinstance(value, bool):
        return msg("true/false ({value})", value=value)
    if isinstance(value, (list, tuple)):
        return msg("a list")
    if isinstance(value, dict):
        return msg("a mapping")
    shown = repr(str(value)[:40])
    if isinstance(value, str):
        return msg("text ({value})", value=shown)
    if isinstance(value, int):
        return msg("a whole number ({value})", value=shown)
    if isinstance(value, float):
        return msg("a number ({value})", value=shown)
    return msg("{type} ({value})", type=type(value).__name__, value=shown)
