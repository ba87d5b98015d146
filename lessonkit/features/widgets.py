"""Widgets: what a lesson's `@lesson.widget` functions return, and the builders of the default theme's general kinds.

A widget function returns plain data for its component's `widget.html` (kind = the function's name, or
`@lesson.widget(kind=…)`), or the result of a builder below, which carries its own kind:

    explorer(params=[param("d", "维度 d", [16, 64, 256])], state=lambda d: {...}, figure=…, key=[…])
    bars(["甲", "乙"], [0.3, 0.7], unit="", caption="…")

Every number a widget shows is formatted here, in Python, with lessonkit.numbers: the page's JavaScript only shows
and switches what the build made, so a page reads the same with and without JavaScript. The words around them
(yes/no, how a state's values are joined) are phrases (lessonkit.support.words) that the render stage says in the
site's language: these builders run inside lesson.py, before the theme's words are known.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..support.numbers import FormatError, format_value
from ..support.words import is_phrase, joined, phrase


@dataclass
class StateFigure:
    """A figure the engine draws for one state of a widget (explorer), by calling `func(plt, **point)`."""
    name: str
    func: Callable
    point: dict[str, Any]
    alt: str


@dataclass
class WidgetResult:
    """A builder's result: the component kind, its data, and any figures the engine must draw for it."""
    kind: str
    data: dict[str, Any]
    figures: list[StateFigure] = field(default_factory=list)
    script: dict[str, Any] | None = None   # what the page's script needs, when less than `data`


# ── explorer ────────────────────────────────────────────────────────────────────────────────────────────────────────
CONTROLS = ("slider", "stepper", "buttons")


@dataclass
class Param:
    name: str
    label: str
    values: list[Any]
    texts: list[str]
    control: str
    initial: int


def param(name: str, label: str, values: Sequence[Any], *, labels: Sequence[str] | None = None,
          spec: str | None = None, control: str = "slider", initial: Any = None) -> Param:
    """One parameter of an explorer: its values (a grid point each) and how each is shown (`labels`, or the value
    formatted with `spec`). control: slider, stepper (− / + buttons) or buttons (one per value)."""
    values = list(values.tolist() if hasattr(values, "tolist") else values)
    if not values:
        raise ValueError(f"param `{name}` has no values")
    if control not in CONTROLS:
        raise ValueError(f"param `{name}`: control `{control}` is not one of {', '.join(CONTROLS)}")
    if labels is not None and len(labels) != len(values):
        raise ValueError(f"param `{name}`: {len(labels)} labels for {len(values)} values")
    texts = [str(t) for t in labels] if labels is not None else [_text(v, spec) for v in values]
    if initial is None:
        index = 0
    elif initial in values:
        index = values.index(initial)
    else:
        raise ValueError(f"param `{name}`: initial value {initial!r} is not among its values")
    return Param(name, label, values, texts, control, index)


def explorer(params: Sequence[Param], state: Callable[..., dict[str, Any]], *, figure: Callable | None = None,
             alt: Callable[..., str] | str | None = None, key: Sequence[Any] = (), bars: str | None = None,
             caption: str = "", figure_size: tuple[float, float] | None = None) -> WidgetResult:
    """One or two parameters over a grid computed now. `state(**point)` returns
    `{"values": [(label, number[, spec]) …], "text": "plain text"}` for each grid point; `figure(plt, **point)`, if
    given, is drawn by the engine for every point (its alt text from `alt(**point)` or a template string with
    `{name}` fields) and the page swaps them. `key` lists the points printed side by side (and shown without
    JavaScript): values for one parameter, tuples for two. `bars="linear"|"log"` draws each value as a bar scaled
    over the whole grid."""
    params = list(params)
    if not 1 <= len(params) <= 2:
        raise ValueError(f"an explorer takes one or two parameters, not {len(params)}")
    if bars not in (None, "linear", "log"):
        raise ValueError(f"bars must be 'linear' or 'log', not {bars!r}")
    if figure is not None and alt is None:
        raise ValueError("an explorer with a figure needs `alt`: what each state's figure shows")
    key_ids = {_state_id(_indices(params, k)) for k in key}
    states, figures = [], []
    for indices in itertools.product(*(range(len(p.values)) for p in params)):
        point = {p.name: p.values[i] for p, i in zip(params, indices)}
        result = state(**point) or {}
        sid = _state_id(indices)
        point_text = joined([phrase("explorer_setting", label=p.label, value=p.texts[i])
                             for p, i in zip(params, indices)], "explorer_setting_separator")
        entry = {"id": sid, "point": point_text, "key": sid in key_ids,
                 "initial": all(i == p.initial for p, i in zip(params, indices)),
                 "values": [_value_row(row) for row in result.get("values", [])],
                 "text": str(result.get("text", "")), "figure": None, "alt": ""}
        if figure is not None:
            entry["figure"] = f"state-{sid.replace('.', '-')}"
            entry["alt"] = alt.format(**point) if isinstance(alt, str) else str(alt(**point))
            figures.append(StateFigure(entry["figure"], figure, point, entry["alt"]))
        states.append(entry)
    if bars:
        _add_bars(states, log=bars == "log")
    for entry in states:
        shown = [phrase("explorer_value", label=v["label"], value=v["text"]) for v in entry["values"]]
        entry["summary"] = phrase("explorer_summary", point=entry["point"],
                                  values=joined(shown, "explorer_value_separator")) if shown else entry["point"]
    data = {
        "caption": caption,
        "params": [{"name": p.name, "label": p.label, "control": p.control, "initial": p.initial,
                    "options": p.texts} for p in params],
        "states": states,
        "columns": [v["label"] for v in states[0]["values"]] if states else [],
        "bars": bars,
        "figure_size": list(figure_size) if figure_size else None,
    }
    script = {"params": [{"options": p.texts, "initial": p.initial} for p in params],
              "states": {s["id"]: [s["summary"], s["text"], [[v["text"], v.get("bar", 0)] for v in s["values"]]]
                         for s in states}}
    return WidgetResult("explorer", data, figures, script)


def _indices(params: list[Param], point: Any) -> tuple[int, ...]:
    values = point if isinstance(point, (tuple, list)) else (point,)
    if len(values) != len(params):
        raise ValueError(f"key point {point!r} needs {len(params)} value(s)")
    indices = []
    for p, v in zip(params, values):
        if v not in p.values:
            raise ValueError(f"key point {point!r}: {v!r} is not a value of `{p.name}`")
        indices.append(p.values.index(v))
    return tuple(indices)


def _state_id(indices: Sequence[int]) -> str:
    return ".".join(str(i) for i in indices)


def _value_row(row: Any) -> dict[str, Any]:
    if isinstance(row, dict):
        label, number, spec = row.get("label"), row.get("value"), row.get("spec")
    else:
        label, number, spec = (list(row) + [None])[:3]
    return {"label": str(label), "text": _text(number, spec), "number": _number(number)}


def _add_bars(states: list[dict[str, Any]], log: bool) -> None:
    """Bar lengths in percent of the largest value over the whole grid, so switching states compares them."""
    numbers = [v["number"] for s in states for v in s["values"] if v["number"] is not None]
    positive = [n for n in numbers if n > 0]
    if not positive:
        return
    lo, hi = min(positive), max(positive)
    for s in states:
        for v in s["values"]:
            v["bar"] = _bar_length(v["number"], lo, hi, log)


def _bar_length(x: float | None, lo: float, hi: float, log: bool) -> float:
    if x is None or x <= 0:
        return 0.0
    if log:
        span = math.log(hi) - math.log(lo)
        return round(2 + 98 * ((math.log(x) - math.log(lo)) / span if span else 1), 1)
    return round(100 * x / hi, 1)


# ── bars ────────────────────────────────────────────────────────────────────────────────────────────────────────────
def bars(labels: Sequence[str], values: Sequence[float], *, unit: str = "", spec: str | None = None,
         scale: str = "linear", caption: str = "", highlight: Sequence[str] = ()) -> WidgetResult:
    """A labelled bar chart whose values are written as text beside each bar (and are its accessible name)."""
    values = list(values.tolist() if hasattr(values, "tolist") else values)
    labels = [str(label) for label in labels]
    if len(labels) != len(values):
        raise ValueError(f"bars: {len(labels)} labels for {len(values)} values")
    if scale not in ("linear", "log"):
        raise ValueError(f"bars: scale must be 'linear' or 'log', not {scale!r}")
    numbers = [_number(v) for v in values]
    positive = [n for n in numbers if n is not None and n > 0]
    lo, hi = (min(positive), max(positive)) if positive else (1.0, 1.0)
    rows = [{"label": label, "text": _with_unit(_text(v, spec), unit),
             "bar": _bar_length(n, lo, hi, scale == "log"), "highlight": label in highlight}
            for label, v, n in zip(labels, values, numbers)]
    return WidgetResult("bars", {"caption": caption, "rows": rows, "scale": scale})


# ── tables ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def table(rows: Any = None, *, columns: Sequence[str] | None = None, caption: str = "",
          spec: str | dict[str, str] | None = None, header_column: bool = True) -> dict[str, Any]:
    """A value the `{{< table NAME >}}` directive shows as a table: rows as a list of dicts (records) or of lists
    (with `columns`), or a dict of columns. `spec` formats every number, or per column {column: spec}."""
    return {"__lessonkit_table__": True, "rows": rows, "columns": list(columns) if columns else None,
            "caption": caption, "spec": spec, "header_column": header_column}


def table_data(value: Any) -> dict[str, Any]:
    """Any table-like value → {caption, columns, rows: [[text …] …], header_column}; ValueError says what is wrong."""
    options = {"caption": "", "spec": None, "columns": None, "header_column": True}
    if isinstance(value, dict) and value.get("__lessonkit_table__"):
        options.update({k: value[k] for k in options})
        value = value["rows"]
    if hasattr(value, "tolist"):
        value = value.tolist()
    columns, rows = _columns_and_rows(value, options["columns"])
    spec = options["spec"]
    cells = [[_cell(cell, spec.get(col) if isinstance(spec, dict) else spec) for col, cell in zip(columns, row)]
             for row in rows]
    return {"caption": options["caption"], "columns": [str(c) for c in columns], "rows": cells,
            "header_column": options["header_column"]}


def _columns_and_rows(value: Any, columns: list[str] | None) -> tuple[list[Any], list[list[Any]]]:
    if isinstance(value, dict):
        cols = list(value)
        series = [list(v.tolist() if hasattr(v, "tolist") else v) if isinstance(v, (list, tuple)) or hasattr(v, "tolist")
                  else [v] for v in value.values()]
        lengths = {len(s) for s in series}
        if len(lengths) != 1:
            raise ValueError(f"the columns have different lengths ({', '.join(map(str, sorted(lengths)))})")
        return cols, [list(r) for r in zip(*series)]
    if isinstance(value, (list, tuple)) and value and all(isinstance(r, dict) for r in value):
        cols = columns or list(dict.fromkeys(k for r in value for k in r))
        return cols, [[r.get(c, "") for c in cols] for r in value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(r, (list, tuple)) for r in value):
        width = {len(r) for r in value}
        if len(width) != 1:
            raise ValueError("the rows have different lengths")
        if columns is None:
            return [str(c) for c in value[0]], [list(r) for r in value[1:]]
        if len(columns) != width.pop():
            raise ValueError(f"{len(columns)} column names for rows of another length")
        return columns, [list(r) for r in value]
    raise ValueError("not a table: a list of dicts, a dict of lists, or a list of rows")


def _cell(value: Any, spec: str | None) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        return format_value(value, spec)
    return _text(value, spec)


# ── shared ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def _text(value: Any, spec: str | None) -> str | dict:
    """A value as the page shows it: text, or for true/false the theme's word (a phrase said at render)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return phrase("value_true" if value else "value_false")
    try:
        return format_value(value, spec)
    except FormatError as exc:
        raise ValueError(f"cannot show {value!r}: {exc}") from None


def _with_unit(text: str | dict, unit: str) -> str | dict:
    if not unit:
        return text
    return text if is_phrase(text) else f"{text} {unit}"  # a yes/no has no unit


def _number(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None
