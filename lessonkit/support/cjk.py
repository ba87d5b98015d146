"""Chinese characters (Han), written once for every rule that tells them apart from other text: how long a lesson
takes to read (render/reading.py), whether an author's name in a bibliography is Chinese (features/bibstyle.py),
which characters the search component's folding leaves alone (features/search.py hands it to widget.js). Each range
is the inside of a regular expression's [character class] in `\\uXXXX` escapes, which Python and JavaScript read
alike."""
from __future__ import annotations

import re

# CJK Unified Ideographs Extension A (U+3400–4DBF) and CJK Unified Ideographs (U+4E00–9FFF): every one of them is
# its own NFKC form and its own lower case (tests/test_cjk.py)
HAN = r"\u3400-\u4dbf\u4e00-\u9fff"
# CJK Compatibility Ideographs (U+F900–FAFF): old character sets' duplicates, most of which NFKC maps to a unified one
HAN_COMPATIBILITY = r"\uf900-\ufaff"
CHINESE_CHARACTER = re.compile(f"[{HAN}{HAN_COMPATIBILITY}]")  # one Chinese character, of either kind
