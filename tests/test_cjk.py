"""support/cjk.py: the Chinese characters, one definition for Python and for the search component's JavaScript."""
from __future__ import annotations

import re
import unicodedata

from lessonkit.support.cjk import CHINESE_CHARACTER, HAN, HAN_COMPATIBILITY


def test_chinese_characters_and_nothing_else():
    for c in "汉字學习㐀䶿一鿿豈﨩":   # common ones, both ends of Extension A and of the unified block, two compatibility
        assert CHINESE_CHARACTER.fullmatch(c), c
    for c in "A é，。「」（）０ａ〇々ㄅあアㄱ가 \u3000䷀":   # punctuation, full-width forms, kana, bopomofo, hangul, a hexagram
        assert not CHINESE_CHARACTER.fullmatch(c), c


def test_every_unified_character_folds_to_itself():
    """What the search component relies on when it leaves them alone: NFKC and lower case keep each as it is (the
    Unicode database, not the ranges' code). Compatibility ideographs do not: most fold to a unified one."""
    han = re.compile(f"[{HAN}]")
    chars = [chr(i) for i in range(0x3000, 0xA000) if han.fullmatch(chr(i))]
    assert len(chars) == (0x4DBF - 0x3400 + 1) + (0x9FFF - 0x4E00 + 1)
    assert all(unicodedata.category(c) == "Lo" and unicodedata.normalize("NFKC", c).lower() == c for c in chars)
    assert unicodedata.normalize("NFKC", "\uf900") == "豈" != "\uf900"
    assert re.fullmatch(f"[{HAN_COMPATIBILITY}]", "\uf900") and not han.fullmatch("\uf900")


def test_written_so_python_and_javascript_read_it_alike():
    assert HAN.isascii() and HAN_COMPATIBILITY.isascii()   # \uXXXX escapes only, a class both languages read
    assert re.fullmatch(r"(\\u[0-9a-f]{4}-\\u[0-9a-f]{4})+", HAN + HAN_COMPATIBILITY)
