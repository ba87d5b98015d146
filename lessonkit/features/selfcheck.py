"""Self-check questions (lesson.yaml `check:` and `hints:` in a challenge, and the `checks:` placed in the text with
`{{< check ID >}}`), as a feature module:

- **model** (compute, `model()`): from lesson.yaml's entries and the lesson's values, in the unit the student types
  (value × `scale`): the interval of accepted answers (from the author's tolerance), the intervals of known mistakes
  and of the value typed without converting, the edges of the «too big / too small by about N×» bands, and the key
  strings the teacher edition prints. Plain, picklable data; problems are reported at their lesson.yaml line.
- **placement** (render, features/selfcheck_page.py `Placement`): the labels, hints and feedback rendered from Markdown, every word from the
  theme's UI strings (`ui.selfcheck_*`), giving the template context and the JSON the component reads.
- **component** (lessonkit/themes/default/components/selfcheck/): widget.js reads what the student typed and finds
  the interval it falls in. Grading exists there only; it never formats a number.

    check:
      fields:
        - label: 剩下的百分比
          answer: no_res_09            # a lesson.py value (a number, or a list of numbers: one box per item)
          scale: 100                   # the student types value × 100 …
          unit: "%"                    # … followed, optionally, by %
          tolerance: {relative: 0.05}  # or {absolute: 0.001} (in the typed unit) or {sig: 2}
          mistakes:
            - {value: 0.006, hint: …}  # as typed (or a value name); its interval uses the same tolerance
    check:
      choices:
        - {text: …, correct: true, feedback: …}
      multiple: false
    hints: [Markdown, …]
"""
from __future__ import annotations

import math
import numbers
from pathlib import Path
from typing import Any

from ..support.errors import Problem
from ..support.messages import Message, as_message, joined, msg, reason
from ..support.records import Record
from ..support.suggest import did_you_mean
from ..support.numbers import SUPERSCRIPT, FormatError, format_answer, format_value
from ..support.expressions import ExpressionError
from ..support.values import EXPRESSION_EXPECTED, value_of

DEFAULT_TOLERANCE = {"relative": 0.01}
MAX_SIG = 15
SLACK = 1e-12  # an interval is widened by this relative amount: 0.00405 − 0.00005 must still accept 0.004
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# the words the component's script shows: the theme's UI strings `selfcheck_<name>`
SCRIPT_WORDS = ("right", "empty", "unreadable", "above", "below", "choose", "choice_right", "choice_wrong",
                "choice_missing", "all_right", "hint_step", "hint_answer", "said")


# ── the model ───────────────────────────────────────────────────────────────────────────────────────────────────────
class Mistake(Record):
    low: float
    high: float
    hint: str | None   # the author's hint (Markdown, rendered at placement); None: the value typed unconverted
    key: str = ""      # the hint's lesson.yaml key (for its line)


class Box(Record):
    """One input box: its answer in the typed unit, the interval accepted, the known mistakes, the printed key."""
    answer: float
    accept: tuple[float, float]
    mistakes: tuple[Mistake, ...]
    key: str


class NumberField(Record):
    label: str                # plain text
    unit: str
    vector: bool              # a list answer: one box per item
    boxes: tuple[Box, ...]
    key: str                  # the whole answer as the teacher edition prints it, e.g. "[1.73, −0.577] %"
    tolerance: tuple[str, float]   # ("relative" | "absolute" | "sig", its value)
    scale: str                # the factor from value to typed number, formatted ("100"); "" when 1


class Choice(Record):
    text: str                 # Markdown
    correct: bool
    feedback: str             # Markdown (plain text), may be ""
    index: int                # in lesson.yaml's list (for its key and line)


class CheckModel(Record):
    """One self-check as the compute stage made it: everything but the words."""
    key: str                                  # its lesson.yaml key: challenges.N or checks.N
    fields: tuple[NumberField, ...] = ()
    choices: tuple[Choice, ...] = ()
    multiple: bool = False
    hints: tuple[tuple[int, str], ...] = ()   # (index in `hints:`, Markdown)
    edges: tuple[float, ...] = ()             # ratio band edges (numeric fields only), see ratio_bands
    signs: tuple[str, ...] = ()               # "pos" / "neg": the signs of the nonzero answers

    @property
    def has_check(self) -> bool:
        return bool(self.fields or self.choices)


def entries(meta: dict[str, Any]) -> list[tuple[str, dict]]:
    """(lesson.yaml key, entry) of every challenge and every standalone `checks:` entry."""
    found = []
    for list_key in ("challenges", "checks"):
        items = meta.get(list_key)
        for i, entry in enumerate(items if isinstance(items, list) else []):
            if isinstance(entry, dict):
                found.append((f"{list_key}.{i}", entry))
    return found


def model(meta: dict[str, Any], lines: dict[str, int], path: Path, values: dict[str, Any],
          problems: list[Problem]) -> dict[str, CheckModel]:
    """The compute hook: a CheckModel for every entry of lesson.yaml with a `check:` or `hints:`, by its key."""
    builder = ModelBuilder(values, path, lines, problems)
    models = {}
    for key, entry in entries(meta):
        made = builder.build(entry, key)
        if made is not None:
            models[key] = made
    return models


class ModelBuilder:
    """Builds CheckModels from lesson.yaml entries; problems (at their lesson.yaml line) go to `problems`."""

    def __init__(self, values: dict[str, Any], path: Path, lines: dict[str, int], problems: list[Problem]):
        self.values, self.path, self.lines, self.problems = values, path, lines, problems

    def problem(self, key: str, message: Message, expected: Message) -> None:
        line = self.lines.get(key)
        parent = key
        while line is None and "." in parent:
            parent = parent.rsplit(".", 1)[0]
            line = self.lines.get(parent)
        self.problems.append(Problem(self.path, line, msg("`{key}`: {message}", key=key, message=as_message(message)),
                                     expected))

    def build(self, entry: dict, prefix: str) -> CheckModel | None:
        """The self-check of the lesson.yaml entry at key `prefix`; None when it has neither check nor hints."""
        check, hints = entry.get("check"), entry.get("hints")
        if not isinstance(check, dict) and not isinstance(hints, list):
            return None
        fields: list[NumberField] = []
        choices: list[Choice] = []
        multiple = False
        if isinstance(check, dict):
            has_fields, has_choices = check.get("fields") is not None, check.get("choices") is not None
            if has_fields == has_choices:
                self.problem(f"{prefix}.check", msg("has both `fields` and `choices`") if has_fields else
                             msg("has neither `fields` nor `choices`"),
                             msg("either `fields:` (numeric answers) or `choices:` (multiple choice)"))
            elif has_fields and isinstance(check["fields"], list):  # anything else: reported by the schema
                fields = self.fields(check["fields"], f"{prefix}.check.fields")
            elif has_choices and isinstance(check["choices"], list):
                choices, multiple = self.choices(check, f"{prefix}.check")
        signs = sorted({"neg" if box.answer < 0 else "pos" for f in fields for box in f.boxes if box.answer != 0},
                       reverse=True)
        return CheckModel(prefix, tuple(fields), tuple(choices), multiple,
                          tuple((i, h) for i, h in enumerate(hints if isinstance(hints, list) else [])
                                if isinstance(h, str)),
                          tuple(ratio_edges()) if fields else (), tuple(signs))

    # ── numeric fields ─────────────────────────────────────────────────────────────────────────────────────────────
    def fields(self, specs: list, key: str) -> list[NumberField]:
        if not specs:
            self.problem(key, msg("is an empty list"), msg("at least one `{label, answer}`"))
        made = []
        for i, spec in enumerate(specs):
            if not isinstance(spec, dict) or not isinstance(spec.get("label"), str) \
                    or not isinstance(spec.get("answer"), str):
                continue  # reported by the schema
            field = self.field(spec, f"{key}.{i}")
            if field is not None:
                made.append(field)
        return made

    def field(self, spec: dict, key: str) -> NumberField | None:
        answer = self.answer(spec["answer"], f"{key}.answer")
        tolerance = self.tolerance(spec.get("tolerance", DEFAULT_TOLERANCE), f"{key}.tolerance")
        scale = spec.get("scale", 1)
        if not isinstance(scale, numbers.Real) or isinstance(scale, bool):
            return None  # reported by the schema
        if scale == 0 or not math.isfinite(scale):
            self.problem(f"{key}.scale", msg("is {value}", value=scale),
                         msg("a nonzero factor, e.g. 100 for a percentage"))
            return None
        if answer is None or tolerance is None:
            return None
        unit = spec.get("unit") if isinstance(spec.get("unit"), str) else ""
        fmt = spec.get("format") if isinstance(spec.get("format"), str) else None
        vector = isinstance(answer, list)
        mistakes = self.mistakes(spec.get("mistakes"), f"{key}.mistakes")
        boxes = []
        for value in answer if vector else [answer]:
            box = self.box(value, scale, tolerance, fmt, mistakes, vector, key)
            if box is None:
                return None
            boxes.append(box)
        shown = [box.key for box in boxes]
        key_text = ("[" + ", ".join(shown) + "]") if vector else shown[0]
        (kind, amount), = tolerance.items()
        return NumberField(spec["label"].strip(), unit, vector, tuple(boxes), f"{key_text} {unit}".strip(),
                           (kind, amount), format_value(scale, "g") if scale != 1 else "")

    def box(self, value: float, scale: float, tolerance: dict, fmt: str | None,
            mistakes: list[tuple[str, float, str]], vector: bool, key: str) -> Box | None:
        expected = value * scale
        if tolerance.get("sig") and expected == 0:
            self.problem(f"{key}.tolerance", msg("`sig` cannot judge an answer of 0"),
                         msg("`{absolute: …}` for an answer that is 0"))
            return None
        try:
            shown = format_answer(expected, fmt)
        except FormatError as exc:
            self.problem(f"{key}.format", msg("cannot show the answer: {reason}", reason=reason(exc)),
                         msg("a format spec such as sig3 or .2f"))
            return None
        accept = accepted_interval(expected, tolerance)
        known = []
        for m_key, m_value, hint in mistakes:
            interval = accepted_interval(m_value, tolerance) if m_value != 0 else (m_value, m_value)
            if _overlap(interval, accept):
                if not vector:  # in a vector a mistake may be right for another item
                    self.problem(m_key, msg("{value} lies within the accepted answers ({low} … {high})",
                                            value=format_value(m_value), low=format_value(accept[0]),
                                            high=format_value(accept[1])),
                                 msg("a wrong answer, outside the tolerance"))
                continue
            known.append(Mistake(interval[0], interval[1], hint, m_key.rsplit(".", 1)[0] + ".hint"))
        if scale != 1 and value != 0:  # forgot to convert: the value itself was typed
            raw = accepted_interval(value, tolerance)
            if not _overlap(raw, accept):
                known.append(Mistake(raw[0], raw[1], None))
        return Box(expected, accept, tuple(known), shown)

    def answer(self, name: str, key: str) -> float | list[float] | None:
        """The value `name` names, as a float or a list of floats; None (and a problem) otherwise."""
        try:
            value = value_of(name, self.values)
        except ExpressionError as exc:
            self.problem(key, exc.message, EXPRESSION_EXPECTED)
            return None
        except KeyError as exc:
            missing = exc.args[0]
            self.problem(key, msg("unknown value `{name}`{hint}", name=missing,
                                  hint=did_you_mean(missing.split(".")[0], self.values)),
                         msg("a value defined in lesson.py: {names}",
                             names=", ".join(sorted(self.values)) or msg("none")))
            return None
        if hasattr(value, "tolist"):
            value = value.tolist()
        if isinstance(value, (list, tuple)) and value and all(_is_number(v) for v in value):
            items = [float(v) for v in value]
        elif _is_number(value):
            items = None
            value = float(value)
        else:
            self.problem(key, msg("value `{name}` is {what}, not a number", name=name.strip(), what=_describe(value)),
                         msg("the name of a number, or a list of numbers, computed in lesson.py"))
            return None
        bad = [v for v in (items if items is not None else [value]) if not math.isfinite(v)]
        if bad:
            self.problem(key, msg("value `{name}` is {what}", name=name.strip(), what=bad[0]), msg("a finite number"))
            return None
        return items if items is not None else value

    def tolerance(self, spec: Any, key: str) -> dict | None:
        if not isinstance(spec, dict):
            return None  # reported by the schema
        given = [k for k in ("relative", "absolute", "sig") if k in spec]
        if len(given) != 1:
            self.problem(key, msg("sets {keys}", keys=joined([f"`{k}`" for k in given], conjunction=True))
                         if given else msg("sets no tolerance"),
                         msg("exactly one of `{relative: 0.05}`, `{absolute: 0.001}`, `{sig: 2}`"))
            return None
        kind = given[0]
        value = spec[kind]
        if kind == "sig":
            if isinstance(value, int) and not isinstance(value, bool) and not 1 <= value <= MAX_SIG:
                self.problem(f"{key}.sig", msg("is {value}", value=value),
                             msg("a whole number of significant figures from 1 to {n}", n=MAX_SIG))
                return None
        elif _is_number(value) and not (math.isfinite(value) and value > 0):
            self.problem(f"{key}.{kind}", msg("is {value}", value=value), msg("a positive number, e.g. 0.05"))
            return None
        if not (_is_number(value) if kind != "sig" else isinstance(value, int) and not isinstance(value, bool)):
            return None  # reported by the schema
        return {kind: value}

    def mistakes(self, items: Any, key: str) -> list[tuple[str, float, str]]:
        """(key of its value, the value as typed, the hint's Markdown) of each known mistake."""
        found = []
        for i, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, dict) or not isinstance(item.get("hint"), str):
                continue  # reported by the schema
            raw = item.get("value")
            if isinstance(raw, str):
                raw = self.answer(raw, f"{key}.{i}.value")
                if isinstance(raw, list):
                    self.problem(f"{key}.{i}.value", msg("is a list"), msg("one number"))
                    continue
            elif not _is_number(raw):
                continue  # reported by the schema
            if raw is None:
                continue
            found.append((f"{key}.{i}.value", float(raw), item["hint"]))
        return found

    # ── multiple choice ────────────────────────────────────────────────────────────────────────────────────────────
    def choices(self, check: dict, key: str) -> tuple[list[Choice], bool]:
        if not check["choices"]:
            self.problem(f"{key}.choices", msg("is an empty list"), msg("at least two options `{text, correct}`"))
            return [], False
        items = [(i, c) for i, c in enumerate(check["choices"]) if isinstance(c, dict) and isinstance(c.get("text"), str)]
        multiple = check.get("multiple") is True
        correct = [i for i, c in items if c.get("correct") is True]
        if not correct:
            self.problem(f"{key}.choices", msg("no option is marked `correct: true`"),
                         msg("at least one correct option"))
        elif len(correct) > 1 and not multiple:
            self.problem(f"{key}.choices", msg("{n} options are marked correct but `multiple` is not true",
                                               n=len(correct)), msg("one correct option, or `multiple: true`"))
        return [Choice(c["text"], c.get("correct") is True,
                       c["feedback"] if isinstance(c.get("feedback"), str) else "", i) for i, c in items], multiple


# ── intervals and ratio bands: plain functions, tested against hand-worked values ──────────────────────────────────
def accepted_interval(expected: float, tolerance: dict) -> tuple[float, float]:
    """Closed interval of accepted answers around `expected` (in the typed unit), slightly widened for rounding."""
    if "relative" in tolerance:
        half = abs(expected) * tolerance["relative"]
    elif "absolute" in tolerance:
        half = tolerance["absolute"]
    else:
        exponent = math.floor(math.log10(abs(expected)))
        half = 0.5 * 10.0 ** (exponent - tolerance["sig"] + 1)
    slack = SLACK * (abs(expected) + half)
    return expected - half - slack, expected + half + slack


BIG_DECADES = 4
BAND_DIGITS = 6  # ratio edges need no more (the accepted interval keeps full precision)


def ratio_bands() -> list[tuple[float, str, int | None]]:
    """How far off a wrong answer is, by its ratio r = x / answer: (lower edge, band name, decades k or None) in
    increasing order; a band reaches up to the next one's edge, the last up to 10^(BIG_DECADES + ½), beyond which
    the answer is `far_above`. «About 10ᵏ× too big» is the band around 10ᵏ: from 10^(k − ½) to 10^(k + ½). An
    answer of 0 has no ratio (only `above` / `below`)."""
    bands: list[tuple[float, str, int | None]] = [(0.0, "far_below", BIG_DECADES)]
    bands += [(10 ** (-k - 0.5), "below", k) for k in range(BIG_DECADES, 0, -1)]
    bands += [(1 / math.sqrt(10), "below_2_3", None), (2 / 3, "slightly_below", None),
              (1.0, "slightly_above", None), (1.5, "above_2_3", None)]
    bands += [(10 ** (k - 0.5), "above", k) for k in range(1, BIG_DECADES + 1)]
    return bands


def ratio_edges() -> list[float]:
    """The edges between the bands (the script finds the gap r falls in), and beyond the last one `far_above`."""
    edges = [edge for edge, _, _ in ratio_bands()] + [10 ** (BIG_DECADES + 0.5)]
    return [float(f"{e:.{BAND_DIGITS}g}") for e in edges]


def times(k: int) -> str:
    """10ᵏ as the page writes it: 10, 100, 1000, then 10⁴ …"""
    return str(10 ** k) if k <= 3 else "10" + str(k).translate(SUPERSCRIPT)


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _describe(value: Any) -> Message:
    if isinstance(value, str):
        return msg("text ({value})", value=repr(value[:40]))
    if isinstance(value, bool):
        return msg("true/false ({value})", value=value)
    if isinstance(value, dict):
        return msg("a mapping (keys: {keys})", keys=", ".join(map(str, list(value)[:6])))
    if isinstance(value, (list, tuple)):
        return msg("an empty list") if not value else msg("a list that is not all numbers")
    return msg("a {type}", type=type(value).__name__)
