"""The inside of a formula as the parser reads it: where it closes, the values written in it (`0.9^{ {{ n }} }`), and
the HTML comments on its lines (`<!-- literal -->` marks a number typed on purpose; a comment is never TeX)."""
from __future__ import annotations

from ...support.expressions import mentions_a_value, split_spec

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


def pieces(tex: str, line: int, make_value, comments: bool = True) -> tuple[tuple, list[tuple[int, str]]]:
    """(the formula in pieces — TeX text, and `make_value(expression, spec, source, line)` for each `{{ … }}` that
    names a value (`x^{{2}}` is TeX's braces) —, the comments it held as (line, text)). With `comments`, they are cut
    out: a `<!-- literal -->` on a formula's line is a marker, never part of the formula. The same reads the values
    in a plain text and in code that asked for them."""
    out: list = []
    found: list[tuple[int, str]] = []
    text, at = "", 0
    while at < len(tex):
        if comments and tex.startswith("<!--", at):
            end = tex.find("-->", at + 4)
            end = len(tex) if end < 0 else end + 3
            found.append((line + tex.count("\n", 0, at), tex[at + 4:end - 3]))
            at = end
            continue
        if tex.startswith("{{", at):
            end = tex.find("}}", at + 2)
            body = tex[at + 2:end] if end >= 0 else ""
            if end >= 0 and "\n" not in body and mentions_a_value(split_spec(body)[0]):
                if text:
                    out.append(text)
                    text = ""
                expression, spec = split_spec(body)
                out.append(make_value(expression, spec, tex[at:end + 2], line + tex.count("\n", 0, at)))
                at = end + 2
                continue
        text += tex[at]
        at += 1
    if text:
        out.append(text)
    return tuple(out), found
