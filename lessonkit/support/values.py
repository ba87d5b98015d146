"""Computed values as content refers to them: `name`, `name.key`, `name.0`, `name.shape`, or an expression over them
(`results[-1]`, `len(trace)`, `x0 * 2`: support/expressions.py); written `{{ name }}` or `{{ expression:spec }}`
(the parser's rule reads them in Markdown, `pieces` in a formula, a plain text and code), shown as the page writes
numbers (support/numbers.py). A plain dotted name is looked up (keys, positions and the
attributes an expression may read, so `arr.shape` is the same either way); anything else is an expression."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Callable

from .errors import Miss
from .expressions import ATTRIBUTES, ExpressionError, evaluate, mentions_a_value, split_spec
from .messages import msg, reason
from .suggest import did_you_mean

DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*")
EXPRESSION_EXPECTED = msg("a value of lesson.py, or an expression over them: names, numbers, `[…]`, `.key`, "
                          "arithmetic, len, min, max, abs, round …")


def value_of(text: str, values: dict[str, Any]) -> Any:
    """What `text` names: a dotted name looked up (KeyError names the missing part), or an expression evaluated
    (ExpressionError says what is wrong)."""
    text = text.strip()
    return lookup(text, values) if DOTTED.fullmatch(text) else evaluate(text, values)


def lookup(name: str, values: dict[str, Any]) -> Any:
    """Follow a dotted path (`ln.xhat.0`, `arr.shape`) into values; KeyError names the missing part."""
    head, *rest = name.split(".")
    if head not in values:
        raise KeyError(head)
    value = values[head]
    for part in rest:
        try:
            value = _part(value, part)
        except (KeyError, IndexError, TypeError, AttributeError):
            raise KeyError(name) from None
    return value


def _part(value: Any, part: str) -> Any:
    """A mapping's key (even `shape`), else an item by its position (`.0`) or one of the attributes of plain data an
    expression may read (`arr.shape`: expressions.ATTRIBUTES), else an item by its label (a DataFrame's column)."""
    if part.isdigit() and not isinstance(value, dict):
        return value[int(part)]
    if part in ATTRIBUTES and not isinstance(value, Mapping):
        return getattr(value, part)
    return value[part]


class KeptValues(Mapping):
    """A lesson's values as an earlier build computed them (compute/kept.py): their names known, the values read
    (unpickled: numpy imported) by `load()` only when one is asked for; `shown`, how the page wrote each `{{ … }}`
    of them then (name, spec, math or not → text), so a page whose text uses no new one needs none of them."""

    def __init__(self, names: tuple[str, ...], load: Callable[[], dict[str, Any]], shown: dict,
                 loaded: dict[str, Any] | None = None):
        self.names, self.load, self.shown, self.loaded = tuple(names), load, shown, loaded
        self.known = frozenset(names)

    def __getitem__(self, name: str) -> Any:
        if self.loaded is None:
            self.loaded = self.load()
        return self.loaded[name]

    def __contains__(self, name: object) -> bool:
        return name in self.known

    def __iter__(self):
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


def shown(name: str, spec: str | None, values: dict[str, Any], math_mode: bool = False) -> str | Miss:
    """The value `name` as the page writes it (with `spec`), or a Miss saying why it cannot be."""
    if isinstance(values, KeptValues):
        key = (name, spec, math_mode)
        if key not in values.shown:
            result = _shown(name, spec, values, math_mode)
            if isinstance(result, Miss):
                return result
            values.shown[key] = result
        return values.shown[key]
    return _shown(name, spec, values, math_mode)


def _shown(name: str, spec: str | None, values: dict[str, Any], math_mode: bool) -> str | Miss:
    from .numbers import FormatError, format_value

    try:
        return format_value(value_of(name, values), spec, math_mode=math_mode)
    except ExpressionError as exc:
        return Miss(exc.message, EXPRESSION_EXPECTED)
    except KeyError as exc:
        missing = exc.args[0]
        return Miss(msg("unknown value `{name}`{hint}", name=missing, hint=did_you_mean(missing.split(".")[0], values)),
                    msg("a value defined in lesson.py: {names}", names=", ".join(sorted(values)) or msg("none")))
    except FormatError as exc:
        return Miss(msg("cannot show value `{name}`: {reason}", name=name, reason=reason(exc)),
                    "a finite number, list or string")


def filled(text: str, values: dict[str, Any]) -> tuple[str, list[Miss]]:
    """`text` with each `{{ expression }}` shown as the page writes it (`?` where it cannot be), and the misses."""
    misses: list[Miss] = []

    def fill(expression: str, spec: str | None, source: str, line: int) -> str:
        result = shown(expression, spec, values)
        if isinstance(result, Miss):
            misses.append(result)
            return "?"
        return result

    return "".join(pieces(text, 1, fill, comments=False)), misses


def pieces(tex: str, line: int, make_value, comments: bool = True) -> tuple:
    """A text in pieces: its text, and `make_value(expression, spec, source, line)` for each `{{ … }}` on one line
    that names a value (in a formula `x^{{2}}` is TeX's braces). With `comments` (a formula) its HTML comments are
    cut out: a `<!-- literal -->` on a formula's line is a marker (features/handnumbers.py reads it on the line),
    never TeX. It reads the values of a formula, of a plain text (an alt text, a title) and of code that asked for
    them."""
    out: list = []
    text, at = "", 0
    while True:
        value_at = tex.find("{{", at)
        comment_at = tex.find("<!--", at) if comments else -1
        if value_at < 0 and comment_at < 0:
            break
        if comment_at >= 0 and (value_at < 0 or comment_at < value_at):
            end = tex.find("-->", comment_at + 4)
            end = len(tex) if end < 0 else end + 3
            text += tex[at:comment_at]
            at = end
            continue
        end = tex.find("}}", value_at + 2)
        body = tex[value_at + 2:end] if end >= 0 else ""
        if end < 0 or "\n" in body or not mentions_a_value(body):
            text += tex[at:value_at + 1]   # TeX's braces (`x^{{2}}`): read on from the second one
            at = value_at + 1
            continue
        if text + tex[at:value_at]:
            out.append(text + tex[at:value_at])
        text = ""
        expression, spec = split_spec(body)
        out.append(make_value(expression, spec, tex[value_at:end + 2], line + tex.count("\n", 0, value_at)))
        at = end + 2
    text += tex[at:]
    if text:
        out.append(text)
    return tuple(out)
