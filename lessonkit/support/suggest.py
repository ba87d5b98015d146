"""«did you mean …?» for every name an author can misspell: one helper, one wording."""
from __future__ import annotations

from typing import Any, Iterable

from .messages import NOTHING, Message, msg


def closest(name: str, known: Iterable[Any]) -> str | None:
    """The known name most like `name`, if one is close enough."""
    import difflib  # only a misspelt name asks: a build without mistakes never needs it

    found = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
    return found[0] if found else None


def did_you_mean(name: Any, known: Iterable[Any], shown: str = "{}") -> Message:
    """`; did you mean `x`?` for the closest known name (written as `shown` formats it, e.g. "ui.{}"), or the empty
    message when none is close."""
    close = closest(name, known)
    return msg("; did you mean `{name}`?", name=shown.format(close)) if close else NOTHING
