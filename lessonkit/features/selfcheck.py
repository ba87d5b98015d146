"""Self-check questions (lesson.yaml `check:` and `hints:` in a challenge): everything computed at build time.

A numeric field names a value computed in lesson.py; here the build works out, in the unit the student types
(value × `scale`), the interval of accepted answers (from the author's tolerance), the intervals of known mistakes,
bands of «too big / too small by about N×» with their messages, and the key strings the teacher edition prints.
The component's script (themes/default/components/selfcheck/widget.js) only reads what the student typed and finds
the interval it falls in; it never formats a number.

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
from typing import Any, Callable

from ..support.errors import Problem
from ..support.suggest import did_you_mean
from ..support.values import lookup
from ..support.numbers import SUPERSCRIPT, FormatError, format_value
from ..support.jsondata import json_for_script

DEFAULT_TOLERANCE = {"relative": 0.01}
MAX_SIG = 15
SLACK = 1e-12  # an interval is widened by this relative amount: 0.00405 − 0.00005 must still accept 0.004

MESSAGES = {
    "right": "正确",
    "empty": "请先填写一个数。",
    "unreadable": "看不懂这个数：请写成 0.004、4e-3 或 4×10⁻³ 这样的形式。",
    "above": "偏大。",
    "below": "偏小。",
    "choose": "请先选择一个选项。",
    "choice_right": "正确",
    "choice_wrong": "不对。",
    "choice_missing": "还有正确的选项没有选。",
    "all_right": "全部正确",
    "hint_next": "提示",
    "hint_answer": "查看答案",
}


def messages_from(ui) -> dict[str, str]:
    """MESSAGES in the site's language: the theme's UI strings `selfcheck_<key>` where it has them."""
    return {key: ui.get(f"selfcheck_{key}", text) for key, text in MESSAGES.items()}


class CheckBuilder:
    """Builds one challenge's self-check (template context and the script's data); problems go to `problems`."""

    def __init__(self, values: dict[str, Any], path: Path, lines: dict[str, int], problems: list[Problem],
                 render_md: Callable[[str, str, bool], str], render_text: Callable[[str, str], str],
                 messages: dict[str, str] | None = None):
        self.values, self.path, self.lines, self.problems = values, path, lines, problems
        self.messages = messages or MESSAGES  # the words the script shows: the theme's `selfcheck_*` UI strings
        self.render_md, self.render_text = render_md, render_text

    def problem(self, key: str, message: str, expected: str) -> None:
        line = self.lines.get(key)
        parent = key
        while line is None and "." in parent:
            parent = parent.rsplit(".", 1)[0]
            line = self.lines.get(parent)
        self.problems.append(Problem(self.path, line, f"`{key}`: {message}", expected))

    # ── a challenge ────────────────────────────────────────────────────────────────────────────────────────────────
    def challenge(self, challenge: dict, number: int) -> dict | None:
        """The template context for challenge `number` (1-based), or None when it has neither check nor hints."""
        return self.build(challenge, f"challenges.{number - 1}", f"check-{number}")

    def build(self, challenge: dict, prefix: str, cid: str) -> dict | None:
        """A self-check from its lesson.yaml entry (at key `prefix`), with element id `cid`."""
        check = challenge.get("check")
        hints = challenge.get("hints")
        if not isinstance(check, dict) and not isinstance(hints, list):
            return None
        context: dict[str, Any] = {"id": cid, "fields": [], "choices": [], "multiple": False, "hints": []}
        data: dict[str, Any] = {"messages": self.messages, "fields": [], "choices": None}
        if isinstance(check, dict):
            has_fields, has_choices = check.get("fields") is not None, check.get("choices") is not None
            if has_fields == has_choices:
                self.problem(f"{prefix}.check", "has both `fields` and `choices`" if has_fields else
                             "has neither `fields` nor `choices`",
                             "either `fields:` (numeric answers) or `choices:` (multiple choice)")
            elif has_fields and isinstance(check["fields"], list):  # anything else: reported by the schema
                self.fields(check["fields"], f"{prefix}.check.fields", cid, context, data)
                signs = {f["answer"] < 0 for f in data["fields"] if f["answer"] != 0}
                data["ratios"] = {key: ratio_table(negative) for key, negative in (("pos", False), ("neg", True))
                                  if negative in signs}
            elif has_choices and isinstance(check["choices"], list):
                self.choices(check, f"{prefix}.check", cid, context, data)
        if isinstance(hints, list):
            context["hints"] = [self.render_md(f"{prefix}.hints.{i}", h, False)
                                for i, h in enumerate(hints) if isinstance(h, str)]
        data["hints"] = len(context["hints"])
        context["has_check"] = bool(context["fields"] or context["choices"])
        context["json"] = json_for_script(data)
        return context

    # ── numeric fields ─────────────────────────────────────────────────────────────────────────────────────────────
    def fields(self, fields: list, key: str, cid: str, context: dict, data: dict) -> None:
        if not fields:
            self.problem(key, "is an empty list", "at least one `{label, answer}`")
        for i, spec in enumerate(fields):
            if not isinstance(spec, dict) or not isinstance(spec.get("label"), str) \
                    or not isinstance(spec.get("answer"), str):
                continue  # reported by the schema
            field = self.field(spec, f"{key}.{i}", f"{cid}-f{i}")
            if field is not None:
                context["fields"].append(field)
                data["fields"] += field.pop("checks")

    def field(self, spec: dict, key: str, fid: str) -> dict | None:
        answer = self.answer(spec["answer"], f"{key}.answer")
        tolerance = self.tolerance(spec.get("tolerance", DEFAULT_TOLERANCE), f"{key}.tolerance")
        scale = spec.get("scale", 1)
        if not isinstance(scale, numbers.Real) or isinstance(scale, bool):
            return None  # reported by the schema
        if scale == 0 or not math.isfinite(scale):
            self.problem(f"{key}.scale", f"is {scale}", "a nonzero factor, e.g. 100 for a percentage")
            return None
        if answer is None or tolerance is None:
            return None
        unit = spec.get("unit") if isinstance(spec.get("unit"), str) else ""
        fmt = spec.get("format") if isinstance(spec.get("format"), str) else None
        vector = isinstance(answer, list)
        items = answer if vector else [answer]
        label = spec["label"].strip()
        field = {"id": fid, "label": label, "unit": unit, "vector": vector, "inputs": [], "checks": []}
        mistakes = self.mistakes(spec.get("mistakes"), f"{key}.mistakes")
        keys = []
        for j, value in enumerate(items):
            expected = value * scale
            if tolerance.get("sig") and expected == 0:
                self.problem(f"{key}.tolerance", "`sig` cannot judge an answer of 0",
                             "`{absolute: …}` for an answer that is 0")
                return None
            try:
                shown = format_value(expected, fmt)
            except FormatError as exc:
                self.problem(f"{key}.format", f"cannot show the answer: {exc}", "a format spec such as sig3 or .2f")
                return None
            accept = accepted_interval(expected, tolerance)
            input_id = f"{fid}-{j + 1}" if vector else fid
            input_label = f"{label} 的第 {j + 1} 个值" if vector else label
            check = {"id": input_id, "label": input_label, "unit": unit, "accept": list(accept),
                     "mistakes": [], "answer": expected}
            for m_key, m_value, hint in mistakes:
                interval = accepted_interval(m_value, tolerance) if m_value != 0 else (m_value, m_value)
                if _overlap(interval, accept):
                    if not vector:  # in a vector a mistake may be right for another item
                        self.problem(m_key, f"{format_value(m_value)} lies within the accepted answers "
                                     f"({format_value(accept[0])} … {format_value(accept[1])})",
                                     "a wrong answer, outside the tolerance")
                    continue
                check["mistakes"].append([interval[0], interval[1], hint])
            if scale != 1 and value != 0:  # forgot to convert: the value itself was typed
                raw = accepted_interval(value, tolerance)
                if not _overlap(raw, accept):
                    check["mistakes"].append([raw[0], raw[1], f"像是没有换算的值：要填的是乘以 {format_value(scale, 'g')} "
                                              f"之后的数{f'（单位 {unit}）' if unit else ''}。"])
            field["inputs"].append({"id": input_id, "label": input_label, "short": f"{j + 1}" if vector else label,
                                    "key": f"{shown} {unit}".strip()})
            field["checks"].append(check)
            keys.append(shown)
        joined = ("[" + ", ".join(keys) + "]") if vector else keys[0]
        field["key"] = f"{joined} {unit}".strip()
        field["tolerance"] = tolerance_text(tolerance, unit)
        return field

    def answer(self, name: str, key: str) -> float | list[float] | None:
        """The value `name` names, as a float or a list of floats; None (and a problem) otherwise."""
        try:
            value = lookup(name.strip(), self.values)
        except KeyError as exc:
            missing = exc.args[0]
            hint = did_you_mean(missing.split(".")[0], self.values)
            self.problem(key, f"unknown value `{missing}`{hint}",
                         f"a value defined in lesson.py: {', '.join(sorted(self.values)) or 'none'}")
            return None
        if hasattr(value, "tolist"):
            value = value.tolist()
        if isinstance(value, (list, tuple)) and value and all(_is_number(v) for v in value):
            items = [float(v) for v in value]
        elif _is_number(value):
            items = None
            value = float(value)
        else:
            self.problem(key, f"value `{name.strip()}` is {_describe(value)}, not a number",
                         "the name of a number, or a list of numbers, computed in lesson.py")
            return None
        bad = [v for v in (items if items is not None else [value]) if not math.isfinite(v)]
        if bad:
            self.problem(key, f"value `{name.strip()}` is {bad[0]}", "a finite number")
            return None
        return items if items is not None else value

    def tolerance(self, spec: Any, key: str) -> dict | None:
        if not isinstance(spec, dict):
            return None  # reported by the schema
        given = [k for k in ("relative", "absolute", "sig") if k in spec]
        if len(given) != 1:
            self.problem(key, "sets " + (" and ".join(f"`{k}`" for k in given) if given else "no tolerance"),
                         "exactly one of `{relative: 0.05}`, `{absolute: 0.001}`, `{sig: 2}`")
            return None
        kind = given[0]
        value = spec[kind]
        if kind == "sig":
            if isinstance(value, int) and not isinstance(value, bool) and not 1 <= value <= MAX_SIG:
                self.problem(f"{key}.sig", f"is {value}", f"a whole number of significant figures from 1 to {MAX_SIG}")
                return None
        elif _is_number(value) and not (math.isfinite(value) and value > 0):
            self.problem(f"{key}.{kind}", f"is {value}", "a positive number, e.g. 0.05")
            return None
        if not (_is_number(value) if kind != "sig" else isinstance(value, int) and not isinstance(value, bool)):
            return None  # reported by the schema
        return {kind: value}

    def mistakes(self, items: Any, key: str) -> list[tuple[str, float, str]]:
        found = []
        for i, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, dict) or not isinstance(item.get("hint"), str):
                continue  # reported by the schema
            raw = item.get("value")
            if isinstance(raw, str):
                raw = self.answer(raw, f"{key}.{i}.value")
                if isinstance(raw, list):
                    self.problem(f"{key}.{i}.value", "is a list", "one number")
                    continue
            elif not _is_number(raw):
                continue  # reported by the schema
            if raw is None:
                continue
            found.append((f"{key}.{i}.value", float(raw), self.render_text(f"{key}.{i}.hint", item["hint"]).strip()))
        return found

    # ── multiple choice ────────────────────────────────────────────────────────────────────────────────────────────
    def choices(self, check: dict, key: str, cid: str, context: dict, data: dict) -> None:
        items = [c for c in check["choices"] if isinstance(c, dict) and isinstance(c.get("text"), str)]
        if not check["choices"]:
            self.problem(f"{key}.choices", "is an empty list", "at least two options `{text, correct}`")
            return
        multiple = check.get("multiple") is True
        correct = [i for i, c in enumerate(items) if c.get("correct") is True]
        if not correct:
            self.problem(f"{key}.choices", "no option is marked `correct: true`", "at least one correct option")
        elif len(correct) > 1 and not multiple:
            self.problem(f"{key}.choices", f"{len(correct)} options are marked correct but `multiple` is not true",
                         "one correct option, or `multiple: true`")
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        context["multiple"] = multiple
        feedback = []
        for i, c in enumerate(items):
            letter = letters[i] if i < len(letters) else str(i + 1)
            context["choices"].append({"id": f"{cid}-c{i}", "letter": letter, "correct": i in correct,
                                       "text": self.render_md(f"{key}.choices.{i}.text", c["text"], True)})
            text = c.get("feedback")
            feedback.append(self.render_text(f"{key}.choices.{i}.feedback", text).strip()
                            if isinstance(text, str) else "")
        context["choice_key"] = "、".join(letters[i] for i in correct if i < len(letters))
        data["choices"] = {"multiple": multiple, "correct": correct, "feedback": feedback,
                           "letters": [c["letter"] for c in context["choices"]]}


# ── intervals and messages: plain functions, tested against hand-worked values ─────────────────────────────────────
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


def tolerance_text(tolerance: dict, unit: str = "") -> str:
    if "relative" in tolerance:
        return f"相对误差 ±{format_value(tolerance['relative'] * 100, 'g')} %"
    if "absolute" in tolerance:
        return f"误差 ±{format_value(tolerance['absolute'], 'g')}{' ' + unit if unit else ''}"
    return f"{tolerance['sig']} 位有效数字"


def _times(k: int) -> str:
    """10ᵏ as the page writes it: 10, 100, 1000, then 10⁴ …"""
    return str(10 ** k) if k <= 3 else "10" + str(k).translate(SUPERSCRIPT)


BIG_DECADES = 4


def ratio_table(negative: bool = False) -> dict[str, Any]:
    """How far off a wrong answer is, by its ratio r = x / answer (one table serves every answer of one sign): sorted
    `edges` and the message for each gap between two edges (`says`); `over` beyond the last edge; `sign` when r < 0;
    `flip` when −x would be right. The script finds the gap; an answer of 0 has no ratio (only 偏大 / 偏小)."""
    big, small = ("偏大", "偏小") if not negative else ("绝对值偏大", "绝对值偏小")
    root10 = math.sqrt(10)
    bands: list[tuple[float, str]] = [(0, f"{small}很多：不到正确值的 1/{_times(BIG_DECADES)}。")]
    for k in range(BIG_DECADES, 0, -1):
        bands.append((10 ** (-k - 0.5), f"{small}，约为正确值的 1/{_times(k)}。"))
    bands.append((1 / root10, f"{small}，约为正确值的 1/2～1/3。"))
    bands.append((2 / 3, "稍偏大：绝对值比正确值小，但在它的 2/3 以上。" if negative
                  else "稍偏小：比正确值小，但在它的 2/3 以上。"))
    bands.append((1, "稍偏小：绝对值比正确值大，但不到它的 1.5 倍。" if negative
                  else "稍偏大：比正确值大，但不到它的 1.5 倍。"))
    bands.append((1.5, f"{big}，约为正确值的 2～3 倍。"))
    for k in range(1, BIG_DECADES + 1):
        bands.append((10 ** (k - 0.5), f"{big}，约为正确值的 {_times(k)} 倍。"))
    edges = [edge for edge, _ in bands] + [10 ** (BIG_DECADES + 0.5)]
    return {"edges": [float(f"{e:.{BAND_DIGITS}g}") for e in edges], "says": [message for _, message in bands],
            "over": f"{big}很多：超过正确值的 {_times(BIG_DECADES)} 倍。",
            "sign": "正负号不对：应该是" + ("负数。" if negative else "正数。"),
            "flip": "正负号反了：大小对，但符号不对。"}


BAND_DIGITS = 6  # ratio edges need no more (the accepted interval keeps full precision)


def find_message(check: dict, x: float, tables: dict[str, dict]) -> tuple[bool, str]:
    """What the script says for the typed number x (the same search as widget.js), for tests: `check` is one field's
    data, `tables` the challenge's `ratios` ({"pos": ratio_table(), "neg": ratio_table(True)}, as needed)."""
    lo, hi = check["accept"]
    if lo <= x <= hi:
        return True, MESSAGES["right"]
    for m_lo, m_hi, hint in check["mistakes"]:
        if m_lo <= x <= m_hi:
            return False, hint
    answer = check["answer"]
    if answer == 0:
        return False, MESSAGES["above"] if x > hi else MESSAGES["below"]
    table = tables["neg" if answer < 0 else "pos"]
    if lo <= -x <= hi:
        return False, table["flip"]
    r = x / answer
    if r < 0:
        return False, table["sign"]
    edges = table["edges"]
    for k in range(len(edges) - 1):
        if edges[k] <= r < edges[k + 1]:
            return False, table["says"][k]
    return False, table["over"]


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return f"text ({value[:40]!r})"
    if isinstance(value, bool):
        return f"true/false ({value})"
    if isinstance(value, dict):
        return f"a mapping (keys: {', '.join(map(str, list(value)[:6]))})"
    if isinstance(value, (list, tuple)):
        return "an empty list" if not value else "a list that is not all numbers"
    return f"a {type(value).__name__}"
