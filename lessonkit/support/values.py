"""Computed values as content refers to them: `name`, `name.key`, `name.0`; written `{{ name }}` or
`{{ name:spec }}` in text (VALUE: the one pattern render/markup.py's inline syntax and every other text that takes
values use), shown as the page writes numbers (support/numbers.py)."""
from __future__ import annotations

import re
from typing import Any

from .errors import Miss
from .messages import msg, reason
from .suggest import did_you_mean

VALUE = re.compile(r"\{\{\s*(?P<value_name>[A-Za-z_]\w*(?:\.\w+)*)\s*(?::\s*(?P<value_spec>[^}\s]+))?\s*\}\}")


def lookup(name: str, values: dict[str, Any]) -> Any:
    """Follow a dotted path (`ln.xhat.0`) into values; KeyError names the missing part."""
    head, *rest = name.split(".")
    if head not in values:
        raise KeyError(head)
    value = values[head]
    for part in rest:
        try:
            value = value[int(part)] if part.isdigit() and not isinstance(value, dict) else value[part]
        except (KeyError, IndexError, TypeError):
            raise KeyError(name) from None
    return value


def shown(name: str, spec: str | None, values: dict[str, Any], math_mode: bool = False) -> str | Miss:
    """The value `name` as the page writes it (with `spec`), or a Miss saying why it cannot be."""
    from .numbers import FormatError, format_value

    try:
        return format_value(lookup(name, values), spec, math_mode=math_mode)
    except KeyError as exc:
        missing = exc.args[0]
        return Miss(msg("unknown value `{name}`{hint}", name=missing, hint=did_you_mean(missing.split(".")[0], values)),
                    msg("a value defined in lesson.py: {names}", names=", ".join(sorted(values)) or msg("none")))
    except FormatError as exc:
        return Miss(msg("cannot show value `{name}`: {reason}", name=name, reason=reason(exc)),
                    "a finite number, list or string")


def filled(text: str, values: dict[str, Any]) -> tuple[str, list[Miss]]:
    """`text` with each `{{ name }}` shown as the page writes it (`?` where it cannot be), and the misses."""
    misses: list[Miss] = []

    def fill(m: re.Match) -> str:
        result = shown(m.group("value_name"), m.group("value_spec"), values)
        if isinstance(result, Miss):
            misses.append(result)
            return "?"
        return result

    return VALUE.sub(fill, text), misses
