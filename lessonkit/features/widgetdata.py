"""Schemas of the data the built-in widget kinds read, declared as data (`load.schema.Key` tables, like lesson.yaml's),
and the one checker that says where data does not fit: the key path of each problem (`states[3].values[1]`),
unknown keys with "did you mean", NaN and ∞ included.

Checked once, in compute: a widget function's own data for a built-in kind (`mask_table`, `bars`) by
`check_widget_data` (compute/run.py calls it on every widget's data), and what an author hands a builder (an
explorer's state, bars' values) by the builder as it receives it, raising `WidgetDataError`, which compute reports at
the lesson.py line that called the builder. The builders' own output fits by construction. A toggle's data comes
from Markdown; its rule (only `::: state` blocks inside) is checked where lesson.md is read (load/document.py).
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable

from ..load.schema import NUMBER, Key, describe, is_a
from ..support.messages import Message, msg
from ..support.records import Record
from ..support.suggest import did_you_mean


class Issue(Record):
    message: Message | str
    expected: Message | str


class WidgetDataError(ValueError):
    """What an author handed a builder does not fit: each issue names its key path."""

    def __init__(self, builder: str, issues: list[Issue]):
        self.builder, self.issues = builder, list(issues)
        super().__init__(f"{builder}: " + "; ".join(str(i.message) for i in self.issues))  # compute says each issue


class Row(Record):
    """A record written either as a tuple of its fields in order, or as a dict of them: `("方差", 0.5)` or
    `{"label": "方差", "value": 0.5}`."""
    fields: dict[str, Key]
    help: Message


NONE = type(None)
FINITE = msg("a finite number (or None for a gap)")

# ── what an explorer's state function returns, for every point of the grid ──────────────────────────────────────────
VALUE_ROW = Row({
    "label": Key((str, *NUMBER), True, "the row's label, e.g. variance"),
    "value": Key((*NUMBER, bool, str, NONE), True, "the number to show (None for a gap), true/false, or a text"),
    "spec": Key((str, NONE), False, "a format spec such as sig3, pct2 or .2f"),
}, msg("a row `(label, number)` or `(label, number, spec)`, or `{\"label\": …, \"value\": …, \"spec\": …}`"))
EXPLORER_STATE = {
    "values": Key(list, False, "the rows shown for this point: `[(label, number), …]` or `[(label, number, spec), …]`",
                  items=VALUE_ROW),
    "text": Key(str, False, "a sentence about this point, in plain text"),
}
STATE_HELP = msg("the state as a dict: `{\"values\": [(label, number), …], \"text\": \"…\"}`")

# ── bars(labels, values, …): its arguments ──────────────────────────────────────────────────────────────────────────
BARS_ARGUMENTS = {
    "labels": Key(list, True, "one label per bar", items=(str, *NUMBER)),
    "values": Key(list, True, "one number per label (None for a gap)", items=(*NUMBER, NONE)),
    "unit": Key(str, False, "the unit written after each value, e.g. \"%\""),
    "spec": Key((str, NONE), False, "a format spec such as sig3, pct2 or .2f"),
    "caption": Key(str, False, "the chart's caption, in plain text"),
    "highlight": Key(list, False, "labels of the bars to highlight", items=(str, *NUMBER)),
}

# ── the data of a widget function for a built-in kind ───────────────────────────────────────────────────────────────
MASK_MODE = {
    "key": Key(str, True, "the mode's name, e.g. `encoder`"),
    "label": Key(str, True, "the mode's button text, e.g. Encoder"),
    "visible": Key(list, True, "true/false per row and column: `visible[row][col]`", items=list),
}
MASK_TABLE = {
    "rows": Key(list, True, "the row labels, e.g. the tokens", items=(str, *NUMBER)),
    "cols": Key(list, True, "the column labels", items=(str, *NUMBER)),
    "context": Key(str, True, "the table's caption, e.g. Continue “the cat sat”"),
    "initial_mode": Key(str, True, "the `key` of the mode shown first"),
    "modes": Key(list, True, "the modes: `[{key, label, visible}, …]`", items=MASK_MODE),
}
BAR_ROW = {
    "label": Key((str, *NUMBER), True, "the bar's label"),
    "text": Key(str, True, "the value as shown, formatted"),
    "bar": Key(NUMBER, True, "the bar's length in percent, 0 to 100"),
    "highlight": Key(bool, False, "true to highlight the bar"),
}
BARS = {
    "caption": Key(str, True, "the chart's caption (\"\" for none)"),
    "rows": Key(list, True, "the bars: `[{label, text, bar, highlight}, …]`", items=BAR_ROW),
    "scale": Key(str, False, "linear or log"),
}


def check(value: Any, schema: dict[str, Key] | Row, path: str, expected: Message | str) -> list[Issue]:
    """Every way `value` does not fit `schema`, each at its key path (`path` names `value` itself)."""
    if isinstance(schema, Row):
        if isinstance(value, (list, tuple)):
            return _check_tuple(value, schema, path)
        schema, expected = schema.fields, schema.help
    if not isinstance(value, dict):
        return [Issue(_is(path, value) if path else msg("the data is {what}", what=describe(value)), expected)]
    issues = []
    for key in value:
        if key not in schema:
            issues.append(Issue(msg("unknown key `{key}`{hint}", key=_join(path, key), hint=did_you_mean(key, schema)),
                                msg("one of: {items}", items=", ".join(schema))))
    for key, spec in schema.items():
        if key not in value:
            if spec.required:
                issues.append(Issue(msg("missing required key `{key}`", key=_join(path, key)), spec.help))
            continue
        issues += check_value(value[key], spec, _join(path, key))
    return issues


def check_value(value: Any, spec: Key, path: str) -> list[Issue]:
    if not is_a(value, spec.kind):
        return [Issue(_is(path, value), spec.help)]
    if isinstance(value, float) and not math.isfinite(value):
        return [Issue(msg("`{key}` is {x}, not a finite number", key=path, x=_nonfinite(value)), FINITE)]
    if isinstance(value, (list, tuple)) and spec.items is not None:
        item = spec.items if isinstance(spec.items, (dict, Row)) else Key(spec.items, True, spec.help)
        issues = []
        for i, entry in enumerate(value):
            where = f"{path}[{i}]"
            issues += check(entry, item, where, spec.help) if isinstance(item, (dict, Row)) \
                else check_value(entry, item, where)
        return issues
    return []


def _check_tuple(value: list | tuple, row: Row, path: str) -> list[Issue]:
    names = list(row.fields)
    required = sum(1 for key in row.fields.values() if key.required)
    if not required <= len(value) <= len(names):
        return [Issue(msg("`{key}` has {n} item(s)", key=path, n=len(value)), row.help)]
    return [issue for i, item in enumerate(value) for issue in check_value(item, row.fields[names[i]], f"{path}[{i}]")]


def _is(path: str, value: Any) -> Message:
    return msg("`{key}` is {what}", key=path, what=describe(value))


def nonfinite_path(data: Any, path: str = "") -> Message | str | None:
    """The key path of the first NaN or ∞ in JSON-like data, e.g. `rows[0]`; None when every number is finite."""
    if isinstance(data, float) and not math.isfinite(data):
        return path or msg("the data")
    if isinstance(data, dict):
        items = ((_join(path, k), v) for k, v in data.items())
    elif isinstance(data, (list, tuple)):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(data))
    else:
        return None
    for where, value in items:
        found = nonfinite_path(value, where)
        if found:
            return found
    return None


def _join(path: str, key: Any) -> str:
    key = str(key)
    name = key if re.fullmatch(r"[A-Za-z_][\w-]*", key) else f"[{key!r}]"
    return name if not path else f"{path}{name}" if name.startswith("[") else f"{path}.{name}"


def _nonfinite(x: float) -> str:
    return "NaN" if math.isnan(x) else ("∞" if x > 0 else "−∞")


GRID = msg("true/false per row and column: `visible[row][col]`")


# ── the rules a key table cannot say ────────────────────────────────────────────────────────────────────────────────
def _mask_table_rules(data: dict[str, Any]) -> list[Issue]:
    """The first mode shown is one of the modes; each mode's grid has a true/false per row and column."""
    keys = [m["key"] for m in data["modes"]]
    issues = []
    if data["initial_mode"] not in keys:
        issues.append(Issue(msg("`initial_mode` {mode} is not the key of a mode{hint}", mode=repr(data["initial_mode"]),
                                hint=did_you_mean(data["initial_mode"], keys)),
                            msg("the key of one of the modes: {keys}", keys=", ".join(keys) or msg("none"))))
    shape = (len(data["rows"]), len(data["cols"]))
    for i, mode in enumerate(data["modes"]):
        grid = mode["visible"]
        if len(grid) != shape[0] or any(not isinstance(r, list) or len(r) != shape[1] for r in grid):
            issues.append(Issue(msg("`{key}` does not have {rows} rows of {cols} (one per row label and column label)",
                                    key=f"modes[{i}].visible", rows=shape[0], cols=shape[1]), GRID))
        elif any(not isinstance(v, bool) for r in grid for v in r):
            issues.append(Issue(msg("`{key}` holds something other than true/false", key=f"modes[{i}].visible"), GRID))
    return issues


class Kind(Record):
    keys: dict[str, Key]
    help: Message
    rules: Callable[[dict[str, Any]], list[Issue]] | None = None


KINDS = {
    "mask_table": Kind(MASK_TABLE, msg("`{rows, cols, context, initial_mode, modes: [{key, label, visible}]}`"),
                       _mask_table_rules),
    "bars": Kind(BARS, msg("the data `bars(labels, values, …)` makes: `return bars(…)` from the widget function")),
}
BUILT_ONLY = {"explorer": msg("`return explorer(params=[param(…)], state=…)` from the widget function")}


def check_widget_data(kind: str, data: Any) -> list[Issue]:
    """The problems of a widget function's own data (not a builder's result) for a built-in kind; [] for others."""
    if kind in BUILT_ONLY:
        return [Issue(msg("kind `{kind}` shows what `{kind}(…)` builds, not data of the widget's own", kind=kind),
                      BUILT_ONLY[kind])]
    if kind not in KINDS:
        return []
    spec = KINDS[kind]
    issues = check(data, spec.keys, "", spec.help)
    return issues or (spec.rules(data) if spec.rules else [])
