"""«did you mean …?» for every name an author can misspell: one helper, one wording."""
from __future__ import annotations

import difflib
from typing import Iterable


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name most like `name`, if one is close enough."""
    found = difflib.get_close_matches(name, list(known), n=1)
    return found[0] if found else None


def did_you_mean(name: str, known: Iterable[str], shown: str = "`{}`") -> str:
    """`; did you mean `x`?` for the closest known name (formatted with `shown`), or "" when none is close."""
    close = closest(name, known)
    return f"; did you mean {shown.format(close)}?" if close else ""
