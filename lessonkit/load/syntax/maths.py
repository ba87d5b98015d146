"""The inside of a formula as the parser reads it: where it closes; the values written in it (`0.9^{ {{ n }} }`) and
the HTML comments on its lines (`<!-- literal -->` marks a number typed on purpose; a comment is never TeX) are read
by support/values.py `pieces`, which reads the values of a plain text and of code too; what names an equation
(LABEL_NAME: also read by load/plan.py and render/, which need not load the parser's rules)."""
from __future__ import annotations

import re

NAME = r"[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?"  # an equation's name: ASCII, so the Chinese after it is text
LABEL_NAME = re.compile(rf"eq:(?P<name>{NAME})")   # what `{#…}` after a display equation must say
CLOSERS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}


def closing(text: str, opener: str) -> int | None:
    """The offset in `text` (what follows the opening delimiter) of the delimiter closing `opener`, or None. A `$`
    after an odd number of backslashes is TeX's dollar sign, not a delimiter."""
    closer = CLOSERS[opener]
    start = 0
    while True:
        found = text.find(closer, start)
        if found < 0:
            return None
        if closer[0] == "$" and _escaped(text, found):
            start = found + 1
            continue
        return found


def _escaped(text: str, at: int) -> bool:
    backslashes = 0
    while at - backslashes - 1 >= 0 and text[at - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1
