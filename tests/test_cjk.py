"""support/cjk.py: the Chinese characters, one definition for Python and for the search component's JavaScript."""
from __future__ import annotations

import re
import unicodedata

from lessonkit.support.cjk import (HAN, HAN_COMPATIBILITY, count_chinese, has_chinese, is_chinese,
                                   join_chinese_words)


def test_chinese_characters_and_nothing_else():
    for c in "汉字學习㐀䶿一鿿豈﨩":   # common ones, both ends of Extension A and of the unified block, two compatibility
        assert is_chinese(c), c
    for c in "A é，。「」（）０ａ〇々ㄅあアㄱ가 \u3000䷀":   # punctuation, full-width forms, kana, bopomofo, hangul, a hexagram
        assert not is_chinese(c), c


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


def test_python_tests_a_character_against_the_ranges_javascript_reads():
    """is_chinese (Python, by comparing with the ranges' ends) says yes exactly where the [character class] the search
    component's JavaScript builds from the same ranges matches: every character of the Basic Multilingual Plane."""
    han = re.compile(f"[{HAN}{HAN_COMPATIBILITY}]")
    assert [i for i in range(0x10000) if is_chinese(chr(i)) != bool(han.fullmatch(chr(i)))] == []
    assert not is_chinese("\U00020000")      # Extension B is not among the ranges


def test_counting_finding_and_joining_chinese_words():
    assert count_chinese("层归一化 LayerNorm，豈㐀！") == 6 and count_chinese("no 汉字 here 汉") == 3
    assert count_chinese("") == 0 and count_chinese("「」，。あ") == 0
    assert has_chinese("Li 航") and not has_chinese("Li Hang（）")
    # one space between two Chinese characters goes; next to anything else, or two spaces, stay
    assert join_chinese_words("李航 和 张三") == "李航和张三"
    assert join_chinese_words("李 张 王") == "李张王"
    assert join_chinese_words("李航  和 Li Hang 和 豈 一") == "李航  和 Li Hang 和豈一"
    assert join_chinese_words(" 李 」 张 ") == " 李 」 张 "
