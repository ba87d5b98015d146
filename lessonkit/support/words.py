"""Words decided before the site's language is known: a widget builder runs inside lesson.py at compute time, a
figure's data is recorded while it is drawn. Neither has the theme's UI strings, so they write a *phrase* — the name
of a UI string and the fields to format into it — and the render stage, which has them, says it (`spoken`).

    phrase("value_true")                                   → ui.value_true
    phrase("explorer_setting", label="d", value="64")      → ui.explorer_setting.format(label="d", value="64")
    joined([a, b], "explorer_value_separator")             → ui.explorer_value_separator.join([a, b])

Phrases are plain JSON-able dicts (they are cached and pickled with the data around them).
"""
from __future__ import annotations

from typing import Any

WORD = "__lessonkit_ui__"  # a dict holding this key is a phrase; no author data uses it


def phrase(key: str, **fields: Any) -> dict[str, Any]:
    return {WORD: key, "fields": fields}


def joined(items: list[Any], separator: str) -> dict[str, Any]:
    """`items` (texts or phrases) joined by the UI string `separator`."""
    return {WORD: separator, "join": list(items)}


def is_phrase(value: Any) -> bool:
    return isinstance(value, dict) and WORD in value


def spoken(data: Any, ui) -> Any:
    """`data` with every phrase inside it (at any depth) said in the words of `ui` (lessonkit.support.i18n.UiStrings);
    everything else as it is."""
    if is_phrase(data):
        words = ui[data[WORD]]
        if "join" in data:
            return words.join(str(spoken(item, ui)) for item in data["join"])
        return words.format(**{name: spoken(value, ui) for name, value in data["fields"].items()})
    if isinstance(data, dict):
        return {key: spoken(value, ui) for key, value in data.items()}
    if isinstance(data, list):
        return [spoken(item, ui) for item in data]
    if isinstance(data, tuple):
        return tuple(spoken(item, ui) for item in data)
    return data
