"""Computed values as content refers to them: `name`, `name.key`, `name.0`."""
from __future__ import annotations

from typing import Any

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
