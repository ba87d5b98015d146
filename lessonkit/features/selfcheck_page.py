"""The self-check on the page: a lesson's CheckModels (features/selfcheck.py) as the template and the component's
script need them — labels, hints and feedback rendered, every word from the theme, the accepted intervals and the
ratio bands as data for the script, the answer keys printed for the teacher."""
from __future__ import annotations

from typing import Any, Callable

from ..support.errors import Miss, Problem
from ..support.jsondata import json_for_script
from ..support.messages import msg
from ..support.numbers import format_value
from ..support.suggest import did_you_mean
from .selfcheck import (BIG_DECADES, LETTERS, SCRIPT_WORDS, CheckModel, Mistake, NumberField, ratio_bands,
                        times)


class Placement:
    """The render hook: a lesson's CheckModels as the template and the component's script need them, with the
    Markdown of labels, hints and feedback rendered (`render_md(key, text, inline)` → html, `render_text(key, text)`
    → plain text; `key` names the lesson.yaml line) and every word from `ui`."""

    def __init__(self, models: dict[str, CheckModel], ui, render_md: Callable[[str, str, bool], str],
                 render_text: Callable[[str, str], str], keys: bool = True, teacher: bool = False):
        """`keys`: the answer keys are in the page (printed for the teacher; none while answers are hidden, though
        the accepted range still travels with the page so that the check can grade); `teacher`: shown on screen."""
        self.models, self.ui, self.render_md, self.render_text = models, ui, render_md, render_text
        self.keys, self.teacher = keys, teacher

    def place(self, key: str, cid: str) -> dict | None:
        """The template context of the self-check of the lesson.yaml entry at `key` (None: it has none), its root
        element id `cid`; `json` is what the component's script reads."""
        found = self.parts(key, cid)
        if found is None:
            return None
        context, data = found
        context["json"] = json_for_script(data)
        return context

    def parts(self, key: str, cid: str) -> tuple[dict, dict] | None:
        """The template context and the script's data (accepted intervals, known mistakes with their words, the
        correct choices and their feedback): what a page shows and what a platform's question bank is made of."""
        made = self.models.get(key)
        if made is None:
            return None
        context: dict[str, Any] = {"id": cid, "fields": [], "choices": [], "multiple": made.multiple,
                                   "hints": [self.render_md(f"{key}.hints.{i}", h, False) for i, h in made.hints],
                                   "keys": self.keys, "teacher": self.teacher}
        data: dict[str, Any] = {"messages": self.script_words(), "fields": [], "choices": None,
                                "hints": len(made.hints)}
        for i, field in enumerate(made.fields):
            shown, checks = self.field(field, f"{cid}-f{i}")
            context["fields"].append(shown)
            data["fields"] += checks
        if made.fields:
            data["ratios"] = {sign: self.bands(sign == "neg", made.edges) for sign in made.signs}
        if made.choices:
            context["choices"], data["choices"] = self.choices(made, cid)
            context["choice_key"] = self.ui.list_separator.join(
                LETTERS[k] for k, c in enumerate(made.choices) if c.correct and k < len(LETTERS))
        context["has_check"] = made.has_check
        return context, data

    def script_words(self) -> dict[str, str]:
        return {name: self.ui[f"selfcheck_{name}"] for name in SCRIPT_WORDS}

    def field(self, field: NumberField, fid: str) -> tuple[dict, list[dict]]:
        shown = {"id": fid, "label": field.label, "unit": field.unit, "vector": field.vector, "inputs": [],
                 "key": field.key, "tolerance": self.tolerance(field)}
        checks = []
        for j, box in enumerate(field.boxes):
            input_id = f"{fid}-{j + 1}" if field.vector else fid
            label = self.ui.selfcheck_item.format(label=field.label, n=j + 1) if field.vector else field.label
            shown["inputs"].append({"id": input_id, "label": label, "short": f"{j + 1}" if field.vector else label,
                                    "key": f"{box.key} {field.unit}".strip()})
            checks.append({"id": input_id, "label": label, "unit": field.unit, "accept": list(box.accept),
                           "mistakes": [[m.low, m.high, self.mistake_hint(m, field)] for m in box.mistakes],
                           "answer": box.answer})
        return shown, checks

    def mistake_hint(self, mistake: Mistake, field: NumberField) -> str:
        if mistake.hint is not None:
            return self.render_text(mistake.key, mistake.hint).strip()
        if field.unit:
            return self.ui.selfcheck_unscaled_unit.format(scale=field.scale, unit=field.unit)
        return self.ui.selfcheck_unscaled.format(scale=field.scale)

    def tolerance(self, field: NumberField) -> str:
        """The tolerance as the teacher edition prints it beside the key."""
        kind, amount = field.tolerance
        if kind == "relative":
            return self.ui.selfcheck_tolerance_relative.format(n=format_value(amount * 100, "g"))
        if kind == "absolute":
            words = self.ui.selfcheck_tolerance_absolute_unit if field.unit else self.ui.selfcheck_tolerance_absolute
            return words.format(n=format_value(amount, "g"), unit=field.unit)
        return self.ui.selfcheck_tolerance_sig.format(n=amount)

    def bands(self, negative: bool, edges: tuple[float, ...]) -> dict[str, Any]:
        """The words of each ratio band (`says`, one per gap between `edges`), `over` beyond the last edge, `sign`
        when the ratio is negative, `flip` when −x would be right; for answers below zero the «in size» words."""
        tail = "_neg" if negative else ""
        says = [self.ui[f"selfcheck_band_{name}{tail}"].format(n=times(k) if k else "") for _, name, k in ratio_bands()]
        return {"edges": list(edges), "says": says,
                "over": self.ui[f"selfcheck_band_far_above{tail}"].format(n=times(BIG_DECADES)),
                "sign": self.ui.selfcheck_sign_negative if negative else self.ui.selfcheck_sign_positive,
                "flip": self.ui.selfcheck_flip}

    def choices(self, made: CheckModel, cid: str) -> tuple[list[dict], dict]:
        key = f"{made.key}.check.choices"
        shown, feedback = [], []
        for k, c in enumerate(made.choices):
            shown.append({"id": f"{cid}-c{k}", "letter": LETTERS[k] if k < len(LETTERS) else str(k + 1),
                          "correct": c.correct, "text": self.render_md(f"{key}.{c.index}.text", c.text, True)})
            feedback.append(self.render_text(f"{key}.{c.index}.feedback", c.feedback).strip() if c.feedback else "")
        return shown, {"multiple": made.multiple, "correct": [k for k, c in enumerate(made.choices) if c.correct],
                       "feedback": feedback, "letters": [c["letter"] for c in shown]}


def place_check(page, name: str, args: tuple[str, ...], at=None) -> str | Miss:
    """`{{< check ID >}}`: an entry of lesson.yaml's `checks:` placed in the text (features/placing.py Page; its
    self-check is `page.checks`, this lesson's Placement)."""
    src = page.lesson.source
    entries = src.meta.get("checks") or []
    if not src.meta or not isinstance(entries, list):  # lesson.yaml unread, or `checks:` wrong:
        return ""                                       # reported there, not once per placement
    found = [(i, e) for i, e in enumerate(entries) if isinstance(e, dict) and e.get("id") == name]
    if not found:
        ids = [e.get("id") for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]
        return Miss(msg("unknown self-check `{name}`{hint}", name=name, hint=did_you_mean(name, ids)),
                    msg("an `id` in lesson.yaml's `checks:` list: {ids}", ids=", ".join(ids) or msg("none")))
    i, entry = found[0]
    if name in page.ledger.checks:
        return Miss(msg("self-check `{name}` is placed twice", name=name), "each self-check placed once")
    page.ledger.checks.add(name)
    key, text = f"checks.{i}", lambda field: entry.get(field) if isinstance(entry.get(field), str) else ""
    answer = page.md(f"{key}.answer", text("answer")) if entry.get("answer") else ""
    teacher = page.setting.edition.teacher
    context = {"id": f"selfcheck-{name}", "key": key, "name": name, "entry": entry,
               "question": page.md(f"{key}.question", text("question")),
               "answer": answer if page.setting.release.answers else "",  # (checked all the same)
               "check": page.checks.place(key, f"check-{name}"), "teacher": teacher}
    page.ledger.alone_checks.append(context)
    return page.template("partials/check.html", item=context)


def unplaced(page) -> list[Problem]:
    """Every self-check in lesson.yaml stands somewhere on the page."""
    src = page.lesson.source
    entries = src.meta.get("checks")
    return [Problem(src.meta_path, src.meta_lines.get(f"checks.{i}"),
                    msg("self-check `{name}` is never placed", name=entry["id"]),
                    msg("a line `{{< check {name} >}}` in lesson.md", name=entry["id"]))
            for i, entry in enumerate(entries if isinstance(entries, list) else [])
            if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"] not in page.ledger.checks]
