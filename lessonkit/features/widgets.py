"""Widgets: what a lesson's `@lesson.widget` functions return, and the builders of the default theme's general kinds.

A widget function returns plain data for its component's `widget.html` (kind = the function's name, or
`@lesson.widget(kind=…)`), or the result of a builder below, which carries its own kind:

    explorer(params=[param("d", "维度 d", [16, 64, 256])], state=lambda d: {...}, figure=…, key=[…])
    bars(["甲", "乙"], [0.3, 0.7], unit="", caption="…")

Every number a widget shows is formatted here, in Python, with support/numbers.py: the page's JavaScript only shows
and switches what the build made, so a page reads the same with and without JavaScript. The words around them
(yes/no, how a state's values are joined) are phrases (lessonkit.support.words) that the render stage says in the
site's language: these builders run inside lesson.py, before the theme's words are known.
"""
from __future__ import annotations

import itertools
import math
import re
from typing import Any, Callable, Sequence

from ..support.jsondata import plain
from ..support.messages import Message, as_message, msg, reason
from ..support.numbers import FormatError, format_value
from ..support.records import Record
from ..support.suggest import did_you_mean
from ..support.words import is_phrase, joined, phrase
from .widgetdata import BARS_ARGUMENTS, EXPLORER_STATE, STATE_HELP, Issue, WidgetDataError, check

SPEC_HELP = msg("a format spec such as sig3, pct2 or .2f")


class StateFigure(Record):
    """A figure the engine draws for one state of a widget (explorer), by calling `func(plt, **point)`."""
    name: str
    func: Callable
    point: dict[str, Any]
    alt: str


class WidgetResult(Record):
    """A builder's result: the component kind, its data, and any figures the engine must draw for it."""
    kind: str
    data: dict[str, Any]
    figures: tuple[StateFigure, ...] | list[StateFigure] = ()
    script: dict[str, Any] | None = None   # what the page's script needs, when less than `data`


# ── explorer ────────────────────────────────────────────────────────────────────────────────────────────────────────
CONTROLS = ("slider", "stepper", "buttons")


class Param(Record):
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
    values = _plain_list(values)
    if not values:
        _refuse("param", msg("`values` of `{name}` is empty", name=name),
                msg("at least one value: each is a point of the grid"))
    if control not in CONTROLS:
        _refuse("param", msg("`control` {control} of `{name}` is not one of {items}{hint}", control=repr(control),
                             name=name, items=", ".join(CONTROLS), hint=did_you_mean(control, CONTROLS)),
                msg("slider, stepper or buttons"))
    if labels is not None and len(labels) != len(values):
        _refuse("param", msg("{n} `labels` for {m} `values` of `{name}`", n=len(labels), m=len(values), name=name),
                msg("one label per value"))
    texts = [str(t) for t in labels] if labels is not None else \
        _texts(values, spec, "param", msg("values of `{name}`", name=name))
    if initial is not None and initial not in values:
        _refuse("param", msg("`initial` {value} of `{name}` is not one of its values", value=repr(initial), name=name),
                msg("one of: {items}", items=", ".join(map(str, values))))
    return Param(name, label, values, texts, control, 0 if initial is None else values.index(initial))


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
        _refuse("explorer", msg("{n} parameters", n=len(params)), msg("one or two `param(…)`"))
    if bars not in (None, "linear", "log"):
        _refuse("explorer", msg("`bars` {value} is not linear or log{hint}", value=repr(bars),
                                hint=did_you_mean(bars, ["linear", "log"])),
                msg("\"linear\" or \"log\" (or None: no bars)"))
    if figure is not None and alt is None:
        _refuse("explorer", msg("a `figure` without `alt`"),
                msg("`alt`: what each state's figure shows (a text with {name} fields, or a function of the point)"))
    states, figures, points, issues = _explorer_states(params, state, figure, alt, key)
    if issues:
        raise WidgetDataError("explorer", list(issues.values()))
    _same_rows(states, points)
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


def _explorer_states(params: list[Param], state: Callable[..., dict[str, Any]], figure: Callable | None,
                     alt: Callable[..., str] | str | None, key: Sequence[Any]):
    """Every grid point's state (its rows formatted, its figure to draw), the points, and what is wrong with the
    states — each mistake once, at the first state that makes it."""
    key_ids = {_state_id(_indices(params, k, i)) for i, k in enumerate(key)}
    states, figures, points, issues = [], [], [], {}
    for n, indices in enumerate(itertools.product(*(range(len(p.values)) for p in params))):
        point = {p.name: p.values[i] for p, i in zip(params, indices)}
        result = plain(state(**point), keep_tuples=True)
        result = {} if result is None and figure is not None else result  # a state shown by its figure alone
        rows, found = _state_rows(result, n, figure is not None)
        for issue in found:  # the same key in another state is the same mistake: reported at its first state
            path = re.sub(r"states\[\d+\]", "states[]", re.search(r"`[^`]*`|$", str(issue.message)).group())
            issues.setdefault((path, str(issue.expected)),
                              Issue(msg("{problem} (the state at {point})", problem=as_message(issue.message),
                                        point=_point_args(point)), issue.expected))
        if found:
            continue
        sid = _state_id(indices)
        point_text = joined([phrase("explorer_setting", label=p.label, value=p.texts[i])
                             for p, i in zip(params, indices)], "explorer_setting_separator")
        entry = {"id": sid, "point": point_text, "key": sid in key_ids,
                 "initial": all(i == p.initial for p, i in zip(params, indices)),
                 "values": rows, "text": str(result.get("text", "")), "figure": None, "alt": ""}
        if figure is not None:
            entry["figure"] = f"state-{sid.replace('.', '-')}"
            entry["alt"] = alt.format(**point) if isinstance(alt, str) else str(alt(**point))
            figures.append(StateFigure(entry["figure"], figure, point, entry["alt"]))
        states.append(entry)
        points.append(point)
    return states, figures, points, issues


def _state_rows(result: Any, n: int, has_figure: bool) -> tuple[list[dict[str, Any]], list[Issue]]:
    """The rows of what the state function returned for the n-th point, formatted; or why they cannot be."""
    where = f"states[{n}]"
    issues = check(result, EXPLORER_STATE, where, STATE_HELP)
    if not issues and not has_figure and not result.get("values") and not result.get("text"):
        issues = [Issue(msg("`{key}` has neither `values` nor `text`", key=where), STATE_HELP)]
    rows = []
    for i, row in enumerate(result.get("values", []) if not issues else []):
        try:
            rows.append(_value_row(row))
        except ValueError as exc:  # a spec that cannot format this number
            return [], [Issue(msg("`{key}` cannot be shown: {reason}", key=f"{where}.values[{i}]", reason=reason(exc)),
                              SPEC_HELP)]
    return rows, issues


def _same_rows(states: list[dict[str, Any]], points: list[dict[str, Any]]) -> None:
    """Every state shows the same rows: the table has a column per label of the first, and the page's script
    swaps only the numbers."""
    first = [v["label"] for v in states[0]["values"]] if states else []
    for n, (entry, point) in enumerate(zip(states[1:], points[1:]), start=1):
        labels = [v["label"] for v in entry["values"]]
        if labels != first:
            _refuse("explorer", msg("{problem} (the state at {point})", point=_point_args(point),
                                    problem=msg("`{key}` has the labels {labels}, but `{first}` {labels2}",
                                                key=f"states[{n}].values", labels=", ".join(labels) or msg("none"),
                                                first="states[0].values", labels2=", ".join(first) or msg("none"))),
                    msg("the same rows, with the same labels, in every state (each label is a column of the table)"))


def _point_args(point: dict[str, Any]) -> str:
    return ", ".join(f"{name} = {value}" for name, value in point.items())


def _indices(params: list[Param], point: Any, i: int) -> tuple[int, ...]:
    values = point if isinstance(point, (tuple, list)) else (point,)
    if len(values) != len(params):
        _refuse("explorer", msg("`key[{i}]` {point} has {n} value(s) for {m} parameter(s)", i=i, point=repr(point),
                                n=len(values), m=len(params)),
                msg("a value per parameter: `key=[16, 64]` for one, `key=[(16, 1), (64, 2)]` for two"))
    indices = []
    for p, v in zip(params, values):
        if v not in p.values:
            _refuse("explorer", msg("`key[{i}]` {point}: {value} is not a value of `{name}`", i=i, point=repr(point),
                                    value=repr(v), name=p.name),
                    msg("values of `{name}`: {values}", name=p.name, values=", ".join(map(str, p.values))))
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
    values, labels, highlight = _plain_list(values), _plain_list(labels), _plain_list(highlight)
    issues = check({"labels": labels, "values": values, "unit": unit, "spec": spec, "caption": caption,
                    "highlight": highlight}, BARS_ARGUMENTS, "", "")
    if not issues and len(labels) != len(values):
        issues.append(Issue(msg("`labels` has {n} item(s), `values` {m}", n=len(labels), m=len(values)),
                            "one value per label"))
    if scale not in ("linear", "log"):
        issues.append(Issue(msg("`scale` {value} is not linear or log{hint}", value=repr(scale),
                                hint=did_you_mean(scale, ["linear", "log"])), "\"linear\" or \"log\""))
    labels = [str(label) for label in labels]
    for i, name in enumerate(highlight if not issues else []):
        if str(name) not in labels:
            issues.append(Issue(msg("`highlight[{i}]` {name} is not one of the labels{hint}", i=i, name=repr(name),
                                    hint=did_you_mean(name, labels)),
                                msg("labels from `labels`: {labels}", labels=", ".join(labels))))
    if issues:
        raise WidgetDataError("bars", issues)
    highlight = [str(name) for name in highlight]
    texts = _texts(values, spec, "bars", "values")
    numbers = [_number(v) for v in values]
    positive = [n for n in numbers if n is not None and n > 0]
    lo, hi = (min(positive), max(positive)) if positive else (1.0, 1.0)
    rows = [{"label": label, "text": _with_unit(text, unit),
             "bar": _bar_length(n, lo, hi, scale == "log"), "highlight": label in highlight}
            for label, text, n in zip(labels, texts, numbers)]
    return WidgetResult("bars", {"caption": caption, "rows": rows, "scale": scale})


# ── tables ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def table(rows: Any = None, *, columns: Sequence[str] | None = None, caption: str = "",
          spec: str | dict[str, str] | None = None, header_column: bool = True) -> dict[str, Any]:
    """A value the `{{< table NAME >}}` directive shows as a table: rows as a list of dicts (records) or of lists
    (with `columns`), or a dict of columns. `spec` formats every number, or per column {column: spec}. Checked
    now, so a mistake is reported at this call in lesson.py."""
    value = {"__lessonkit_table__": True, "rows": rows, "columns": list(columns) if columns else None,
             "caption": caption, "spec": spec, "header_column": header_column}
    try:
        shown = table_data(value)
    except ValueError as exc:
        _refuse("table", reason(exc), msg("a list of dicts, a dict of lists or a list of rows, of finite numbers and "
                                          "texts"))
    for name in spec if isinstance(spec, dict) else ():
        if str(name) not in shown["columns"]:
            _refuse("table", msg("`spec` names the column `{name}`, which the table does not have{hint}", name=name,
                                 hint=did_you_mean(name, shown["columns"])),
                    msg("columns: {columns}", columns=", ".join(shown["columns"])))
    return value


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
    cells = [[_cell(cell, spec.get(col) if isinstance(spec, dict) else spec, (i, j, col))
              for j, (col, cell) in enumerate(zip(columns, row))] for i, row in enumerate(rows)]
    return {"caption": options["caption"], "columns": [str(c) for c in columns], "rows": cells,
            "header_column": options["header_column"]}


def _columns_and_rows(value: Any, columns: list[str] | None) -> tuple[list[Any], list[list[Any]]]:
    if isinstance(value, dict):
        cols = list(value)
        series = [list(v.tolist() if hasattr(v, "tolist") else v) if isinstance(v, (list, tuple)) or hasattr(v, "tolist")
                  else [v] for v in value.values()]
        lengths = {len(s) for s in series}
        if len(lengths) != 1:
            raise ValueError(msg("the columns have different lengths ({lengths})",
                                 lengths=", ".join(map(str, sorted(lengths)))))
        return cols, [list(r) for r in zip(*series)]
    if isinstance(value, (list, tuple)) and value and all(isinstance(r, dict) for r in value):
        cols = columns or list(dict.fromkeys(k for r in value for k in r))
        return cols, [[r.get(c, "") for c in cols] for r in value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(r, (list, tuple)) for r in value):
        width = {len(r) for r in value}
        if len(width) != 1:
            raise ValueError(msg("the rows have different lengths"))
        if columns is None:
            return [str(c) for c in value[0]], [list(r) for r in value[1:]]
        if len(columns) != width.pop():
            raise ValueError(msg("{n} column names for rows of another length", n=len(columns)))
        return columns, [list(r) for r in value]
    raise ValueError(msg("not a table: a list of dicts, a dict of lists, or a list of rows"))


def _cell(value: Any, spec: str | None, where: tuple[int, int, Any]) -> str:
    try:
        if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
            return format_value(value, spec)
        return _text(value, spec)
    except ValueError as exc:
        i, j, column = where
        raise ValueError(msg("cell `{cell}` (column `{column}`): {reason}", cell=f"rows[{i}][{j}]", column=column,
                             reason=reason(exc))) from None


# ── shared ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def _refuse(builder: str, message: Message | str, expected: Message | str) -> None:
    raise WidgetDataError(builder, [Issue(message, expected)])


def _plain_list(values: Any) -> list[Any]:
    """A list of Python values from a list, tuple or numpy array (numpy scalars as Python numbers; a tuple among
    them stays one, so a point of two parameters stays hashable)."""
    return list(plain(values if hasattr(values, "tolist") else list(values), keep_tuples=True))


def _texts(values: list[Any], spec: str | None, builder: str, name: Message | str) -> list[str]:
    """Each value formatted with `spec`; a spec that cannot format one is the author's, named."""
    try:
        return [_text(v, spec) for v in values]
    except ValueError as exc:
        _refuse(builder, msg("`{key}` cannot be shown: {reason}", key=name, reason=reason(exc)), SPEC_HELP)


def _text(value: Any, spec: str | None) -> str | dict:
    """A value as the page shows it: text, or for true/false the theme's word (a phrase said at render)."""
    if value is None:  # a gap
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return phrase("value_true" if value else "value_false")
    try:
        return format_value(value, spec)
    except FormatError as exc:
        raise ValueError(msg("cannot show {value}: {reason}", value=repr(value), reason=reason(exc))) from None


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
