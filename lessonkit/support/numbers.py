"""Format computed numbers for prose (Unicode) and for math (LaTeX).

A format spec is one of: ``None`` (3 significant figures, whole-number digits kept: 9412.3 → 9412), ``sigN`` (exactly
N significant figures: a number with more whole-number digits than N goes to scientific notation, 179636 with sig1 →
2 × 10⁵), ``pctN`` (percent with N significant figures), or any Python format spec such as ``.2f``.
"""
from __future__ import annotations

import math
import numbers
import re

from .messages import msg

SUPERSCRIPT = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")
MINUS = "\u2212"
_SPEC = re.compile(r"^(sig|pct)([1-9])$")


class FormatError(ValueError):
    """The value cannot be shown with the requested format."""


def format_value(value, spec: str | None = None, *, math_mode: bool = False) -> str:
    """Format a value (number, string, list, tuple or array of numbers) for the page."""
    if isinstance(value, str):
        return value
    if hasattr(value, "tolist"):  # a numpy array or number: as Python's lists and numbers
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return _sequence(value, spec, math_mode)
    if isinstance(value, bool):
        raise FormatError(msg("a true/false value is not a number to show"))
    if isinstance(value, numbers.Integral) and (spec is None or not _SPEC.match(spec)):
        return _integer(int(value), spec, math_mode)
    if isinstance(value, numbers.Real):
        return format_number(float(value), spec, math_mode=math_mode)
    raise FormatError(msg("a {type} cannot be shown as text", type=type(value).__name__))


def _sequence(items: list | tuple, spec: str | None, math_mode: bool) -> str:
    """A list `[…]`, a tuple as Python writes one — `(3, 4)`, `(3,)`, `()` — so an array's shape reads as a shape."""
    shown = ", ".join(format_value(v, spec, math_mode=math_mode) for v in items)
    if not isinstance(items, tuple):
        return f"[{shown}]"
    return f"({shown},)" if len(items) == 1 else f"({shown})"


def format_answer(x: float, spec: str | None = None) -> str:
    """An answer key as the printed key shows it: a whole number (an int, or a float that is one up to floating-point
    error, such as 0.22 × 100) with no spec prints whole — 22, not 22.0: three significant figures would claim a
    precision a count never had; anything else as format_value writes it."""
    x = float(x)
    if spec is None and math.isfinite(x) and abs(x) < 2 ** 53 and abs(x - round(x)) <= 1e-9 * max(1.0, abs(x)):
        return _integer(int(round(x)), None, False)
    return format_value(x, spec)


def _integer(n: int, spec: str | None, math_mode: bool) -> str:
    """Integers print exactly; a Python spec such as `,` or `03d` applies to the integer itself."""
    if spec is None:
        return _minus(str(n), math_mode)
    try:
        return _pretty_exponent(format(n, spec), math_mode)
    except ValueError:  # a float-only spec such as `.2f` still works, on the float
        return format_number(float(n), spec, math_mode=math_mode)


def format_number(x: float, spec: str | None = None, *, math_mode: bool = False) -> str:
    if not math.isfinite(x):
        raise FormatError(msg("the value is {x}, not a finite number", x=x))
    match = _SPEC.match(spec or "sig3")
    if match:
        kind, digits = match.group(1), int(match.group(2))
        if kind == "pct":
            if not math.isfinite(x * 100):
                raise FormatError(msg("the value {x} is too large to show as a percentage", x=f"{x:g}"))
            return _significant(x * 100, digits, math_mode) + (r"\,\%" if math_mode else " %")
        return _significant(x, digits, math_mode, round_whole=spec is not None)
    try:
        text = format(x, spec)
    except ValueError as exc:
        raise FormatError(msg("bad format spec {spec}: {reason}", spec=repr(spec), reason=str(exc))) from None
    return _pretty_exponent(text, math_mode)


def _significant(x: float, digits: int, math_mode: bool, round_whole: bool = False) -> str:
    """x with `digits` significant figures; whole-number digits are rounded away only with `round_whole` (an explicit
    sigN: 179636 → 2 × 10⁵), otherwise kept (9412.3 → 9412)."""
    if x == 0:
        return "0"
    exponent = math.floor(math.log10(abs(x)))
    if round_whole:  # the exponent after rounding: 99.96 to 2 figures is 1.0 × 10², not 100
        exponent = math.floor(math.log10(abs(float(f"{x:.{digits - 1}e}"))))
    if exponent < -3 or exponent >= 6 or (round_whole and exponent >= digits):
        # Python's own e-format rounds, carries (9.996e-5 → 1.00e-4) and copes with subnormals like 5e-324
        mantissa, _, exponent_text = f"{x:.{digits - 1}e}".partition("e")
        return _scientific(mantissa, int(exponent_text), math_mode)
    decimals = max(digits - 1 - exponent, 0)
    text = f"{x:.{decimals}f}"
    if float(text) == 0:
        text = "0"
    return _minus(text, math_mode)


def _scientific(mantissa: str, exponent: int, math_mode: bool) -> str:
    if math_mode:
        return f"{mantissa} \\times 10^{{{exponent}}}"
    return f"{_minus(mantissa, False)} × 10{str(exponent).translate(SUPERSCRIPT)}"


def _pretty_exponent(text: str, math_mode: bool) -> str:
    match = re.fullmatch(r"(.*?)e([+-]\d+)(.*)", text)
    if match:
        mantissa, exponent, rest = match.groups()
        return _scientific(mantissa, int(exponent), math_mode) + rest
    return _minus(text, math_mode)


def _minus(text: str, math_mode: bool) -> str:
    if text.startswith("-") and float(re.sub(r"[^\d.]", "", text) or 0) == 0:
        text = text[1:]  # never show "−0"
    return text if math_mode else text.replace("-", MINUS)
