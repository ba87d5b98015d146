"""Emphasis beside Chinese, Japanese and Korean text: the CJK-friendly amendment to CommonMark's flanking rules.

CommonMark (0.31.2, §6.2) lets a run of `*`, `_` or `~` open or close emphasis by the characters either side of it.
Punctuation inside the run and a letter outside forbid it, which suits text with spaces between words and breaks
Chinese: in `这是**「重点」**内容` neither `**` counts, and the reader sees the asterisks. The amendment of Tatsunori
Uchino (https://github.com/tats-u/markdown-cjk-friendly, specification.md, proposed in commonmark-spec issue 650)
lets a CJK character on either side outweigh the punctuation. With neither neighbour whitespace (whitespace decides
alone, as in CommonMark), in the form of its implementers-tips.md:

    left-flanking   not after.punct or before.punct or before.cjk or after.cjk
    right-flanking  not before.punct or after.punct or before.cjk or after.cjk

CommonMark's rules are these without the `cjk` terms. "before" is a CJK sequence (a CJK character, with or without a
general-use variation selector), an ideographic variation selector (`葛󠄀**`) or a quotation mark in its fullwidth
form (`”︁**`); "after" is a CJK character. A punctuation mark followed by a general-use variation selector counts as
punctuation. A `_` still opens only after punctuation and closes only before it, CJK or not. markdown-it's
strikethrough asks the same question for `~~`, and the amendment answers it the same way (its GFM strikethrough
packages). A text with neither CJK characters nor variation selectors reads exactly as in CommonMark.

    scan_delims(state, start, canSplitWord)   StateInline.scanDelims with the amended rules (parser.LineState)
    is_cjk(char)                              the amendment's "CJK character"
"""
from __future__ import annotations

from bisect import bisect_right

from markdown_it.common.utils import isPunctChar, isWhiteSpace
from markdown_it.rules_inline.state_inline import Scanned, StateInline

# CJK characters as of Unicode 17: East Asian Width W, F or H less the default emoji presentation characters (so 🈂
# and 〽 are in, 🀄 and ⌚ out), and the Hangul script; unassigned code points as UAX #11 says (W in the ideograph
# blocks and planes 2–3). The list is the amendment's own: ranges.md, "CJK characters", which its
# scripts/cjk-ranges.ts makes from EastAsianWidth.txt, emoji-data.txt and Scripts.txt 17.0.0. Not Python's
# unicodedata: 3.11 has Unicode 14, before the Yijing and Tai Xuan Jing symbols became W (16.0), and it answers F for
# every unassigned code point. tests/test_cjk_emphasis.py checks the list against unicodedata where they can agree.
CJK_CHARACTERS = """
    1100-11FF 20A9 2329-232A 2630-2637 268A-268F 2E80-2E99 2E9B-2EF3 2F00-2FD5 2FF0-303E 3041-3096 3099-30FF
    3105-312F 3131-318E 3190-31E5 31EF-321E 3220-3247 3250-A48C A490-A4C6 A960-A97C AC00-D7A3 D7B0-D7C6 D7CB-D7FB
    F900-FAFF FE10-FE19 FE30-FE52 FE54-FE66 FE68-FE6B FF01-FFBE FFC2-FFC7 FFCA-FFCF FFD2-FFD7 FFDA-FFDC FFE0-FFE6
    FFE8-FFEE 16FE0-16FE4 16FF0-16FF6 17000-18CD5 18CFF-18D1E 18D80-18DF2 1AFF0-1AFF3 1AFF5-1AFFB 1AFFD-1AFFE
    1B000-1B122 1B132 1B150-1B152 1B155 1B164-1B167 1B170-1B2FB 1D300-1D356 1D360-1D376 1F200 1F202 1F210-1F219
    1F21B-1F22E 1F230-1F231 1F237 1F23B 1F240-1F248 1F260-1F265 20000-3FFFD
"""
FULLWIDTH_QUOTES = "\u2018\u2019\u201c\u201d"   # ‘ ’ “ ”: East Asian Width A, with U+FE01 a "fullwidth form"
FULLWIDTH_SELECTOR = "\ufe01"                    # (StandardizedVariants.txt 17.0: the CJK ambiguous punctuation)


def _ranges(text: str) -> list[tuple[int, int]]:
    pairs = (item.partition("-") for item in text.split())
    return [(int(first, 16), int(last or first, 16)) for first, _, last in pairs]


_FIRSTS, _LASTS = (tuple(ends) for ends in zip(*_ranges(CJK_CHARACTERS)))
FIRST_CJK = chr(_FIRSTS[0])   # U+1100, the first Hangul jamo


def is_cjk(char: str) -> bool:
    if char < FIRST_CJK:   # ASCII, Latin, Greek, Cyrillic … end here
        return False
    code = ord(char)
    return code <= _LASTS[bisect_right(_FIRSTS, code) - 1]


def _is_general_use_selector(char: str) -> bool:
    """U+FE00–U+FE0E, the variation selectors other than U+FE0F (which asks for an emoji)."""
    return "\ufe00" <= char <= "\ufe0e"


def _is_ideographic_selector(char: str) -> bool:
    """U+E0100–U+E01EF, which pick a glyph of the ideograph before them (葛󠄀)."""
    return "\U000e0100" <= char <= "\U000e01ef"


def _varied(src: str, start: int, selector: str) -> str:
    """The character a general-use variation selector before the run varies: what the flanking rules see (`。︀**` is
    after `。`). A selector at the text's start or after whitespace varies nothing and stays (the amendment leaves that
    case unspecified)."""
    varied = src[start - 2] if start > 1 else " "
    return selector if isWhiteSpace(ord(varied)) else varied


def _cjk_before(before: str, varied: str) -> bool:
    """Whether the run follows a CJK sequence, an ideographic variation selector or a fullwidth quotation mark. The
    specification defines the last (a "CJK ambiguous punctuation sequence") without naming it in the flanking rules;
    its implementations and tests count it as CJK (`**“︁Git”︁**Hub` is bold), and so do we."""
    if varied != before:
        return is_cjk(varied) or (before == FULLWIDTH_SELECTOR and varied in FULLWIDTH_QUOTES)
    return is_cjk(before) or _is_ideographic_selector(before)


def scan_delims(self: StateInline, start: int, canSplitWord: bool) -> Scanned:
    """The run of markers at `start`: whether it can open, whether it can close, and its length (the contract of
    StateInline.scanDelims). `canSplitWord` is true for `*` and `~`, false for `_`."""
    src, stop = self.src, self.posMax
    end = start + 1
    while end < stop and src[end] == src[start]:
        end += 1
    before = src[start - 1] if start > 0 else " "   # the text's ends count as whitespace
    after = src[end] if end < stop else " "
    varied = _varied(src, start, before) if _is_general_use_selector(before) else before
    space_before, space_after = isWhiteSpace(ord(varied)), isWhiteSpace(ord(after))
    if space_before or space_after:
        return Scanned(not space_after, not space_before, end - start)
    punct_before, punct_after = isPunctChar(varied), isPunctChar(after)
    # CJK counts only where exactly one side is punctuation, and never for `_` (implementers-tips.md); nothing CJK (nor
    # a variation selector) lies below U+1100: runs between letters, and in Western text, look nothing up
    beside_cjk = (canSplitWord and punct_before != punct_after and (before >= FIRST_CJK or after >= FIRST_CJK)
                  and (is_cjk(after) or _cjk_before(before, varied)))
    left = not punct_after or punct_before or beside_cjk
    right = not punct_before or punct_after or beside_cjk
    return Scanned(left and (canSplitWord or not right or punct_before),
                   right and (canSplitWord or not left or punct_after), end - start)
