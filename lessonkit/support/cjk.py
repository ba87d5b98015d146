"""Chinese characters (Han), written once for every rule that tells them apart from other text: how long a lesson
takes to read (render/reading.py), whether an author's name in a bibliography is Chinese (features/bibstyle.py),
which characters the search component's folding leaves alone (features/search.py hands it to widget.js). Each range
is the inside of a regular expression's [character class] in `\\uXXXX` escapes, which Python and JavaScript read
alike; Python tests a character against the same ranges by comparing it with their ends (compiling such a class
takes milliseconds, as its every character is listed one by one)."""
from __future__ import annotations

from collections import Counter

# CJK Unified Ideographs Extension A (U+3400–4DBF) and CJK Unified Ideographs (U+4E00–9FFF): every one of them is
# its own NFKC form and its own lower case (tests/test_cjk.py)
HAN = r"\u3400-\u4dbf\u4e00-\u9fff"
# CJK Compatibility Ideographs (U+F900–FAFF): old character sets' duplicates, most of which NFKC maps to a unified one
HAN_COMPATIBILITY = r"\uf900-\ufaff"
_ENDS = (HAN + HAN_COMPATIBILITY).encode("ascii").decode("unicode_escape")      # "㐀-䶿一-鿿豈-﫿"
CHINESE_RANGES = tuple((_ENDS[i], _ENDS[i + 2]) for i in range(0, len(_ENDS), 3))  # (first, last) of each range


def is_chinese(char: str) -> bool:
    """Whether one character is a Chinese character, of either kind."""
    return any(first <= char <= last for first, last in CHINESE_RANGES)


def has_chinese(text: str) -> bool:
    return any(map(is_chinese, text))


def count_chinese(text: str) -> int:
    """How many Chinese characters `text` has (each different character tested once)."""
    return sum(n for char, n in Counter(text).items() if is_chinese(char))


def join_chinese_words(text: str) -> str:
    """`text` without the single spaces between two Chinese characters (李航 和 张三 → 李航和张三)."""
    if " " not in text:
        return text
    last = len(text) - 1
    return "".join(c for i, c in enumerate(text)
                   if not (c == " " and 0 < i < last and is_chinese(text[i - 1]) and is_chinese(text[i + 1])))
