"""Text for the terminal, where a Chinese character takes two columns: alignment and wrapping by columns."""
from __future__ import annotations

import re
import unicodedata

# a unit that may end a line: a run of spaces, one wide character (with the punctuation that must stay after it),
# or a run of anything else (a word, a path, an option); compiled when a help is first wrapped (re keeps it), as a
# command that prints no help need not pay for its wide character classes
_UNIT = (r"\s+|[\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uffef][，。；：、！？）」』”’》]*"
         r"|[^\s\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uffef]+")


def width(text: str) -> int:
    """Terminal columns `text` takes: two for each wide (East Asian) character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, columns: int, right: bool = False) -> str:
    """`text` aligned in `columns` terminal columns (left, or `right`)."""
    room = " " * max(0, columns - width(text))
    return room + text if right else text + room


def wrap(text: str, columns: int) -> list[str]:
    """`text` in lines of at most `columns` terminal columns (a longer word stands alone): between words, and
    between any two Chinese characters, as Chinese is written without spaces."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for unit in re.findall(_UNIT, paragraph):
            if unit.isspace():
                line += " " if line else ""
            elif width(line) + width(unit) > columns and line.strip():
                lines.append(line.rstrip())
                line = unit
            else:
                line += unit
        lines.append(line.rstrip())
    return lines
