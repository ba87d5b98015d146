"""Page weight budget: every HTML page (everything inline) must stay under a raw and a gzip size.

The defaults suit a phone on a slow connection; a site may set its own in `content/site.yaml`:

    budget: {page_kb: 250, gzip_kb: 60}      # KB = 1024 bytes

A page over budget is a content error naming the page, its size and the budget; nothing is written.
Each page is weighed as it is; the course's search index is a file of its own (features/search.py INDEX_FILE) that
the index page loads only when someone searches: no page carries it, the build summary reports its size.
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path

from ..load.siteconfig import Budget
from ..support.errors import ContentError, Problem
from ..support.messages import Message, joined, msg


def page_sizes(pages: dict[str, bytes]) -> tuple[dict[str, int], dict[str, int]]:
    """Raw and gzip bytes of every page (gzip -9 as a web server would send it, within a few bytes)."""
    raw = {name: len(data) for name, data in pages.items()}
    gz = {name: len(_gzip(data)) for name, data in pages.items() if name.endswith(".html")}
    return raw, gz


def _gzip(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip container
    return compressor.compress(data) + compressor.flush()


# what a page's bytes are made of, in one pass: the engine's code (inline scripts and styles), figures (their SVG and
# 「数据」 tables), maths (MathML), component data (JSON), and the rest: the lesson's text and the theme's markup
PARTS = re.compile(r'(?P<data><script type="application/json".*?</script>)|(?P<code><script>.*?</script>|<style>.*?</style>)'
                   r'|(?P<figures><svg\b.*?</svg>|<details class="figure-data">.*?</details>)|(?P<maths><math\b.*?</math>)',
                   re.S)
PART_NAMES = ("figures", "maths", "code", "data", "text")


def _part_word(name: str) -> Message:
    return {"figures": msg("figures"), "maths": msg("maths"), "code": msg("code"), "data": msg("data"),
            "text": msg("text")}[name]


def weigh(page: bytes) -> dict[str, int]:
    """Bytes of the page by part (PART_NAMES): what to trim when a page is too heavy."""
    text = page.decode("utf-8")
    found = dict.fromkeys(PART_NAMES, 0)
    for m in PARTS.finditer(text):
        found[m.lastgroup] += len(m.group(0).encode("utf-8"))
    found["text"] = len(page) - sum(found.values())
    return found


def breakdown(parts: dict[str, int]) -> Message:
    """`figures 81.0 KB, maths 26.8 KB, …`, in the message language."""
    return joined([msg("{part} {kb} KB", part=_part_word(name), kb=f"{parts[name] / 1024:.1f}") for name in PART_NAMES])


def check_budget(raw: dict[str, int], gz: dict[str, int], budget: Budget, pages: dict[str, bytes] | None = None) -> None:
    """Every page within the budget; a page over it is named with its sizes and what they are made of."""
    problems = []
    for name in sorted(gz):
        over = []
        if raw[name] > budget.page_kb * 1024:
            over.append(msg("{size} KB raw > budget {limit} KB", size=f"{raw[name] / 1024:.1f}",
                            limit=f"{budget.page_kb:g}"))
        if gz[name] > budget.gzip_kb * 1024:
            over.append(msg("{size} KB gzip > budget {limit} KB", size=f"{gz[name] / 1024:.1f}",
                            limit=f"{budget.gzip_kb:g}"))
        if over and pages is not None and name in pages:
            over.append(msg("of which {parts}", parts=breakdown(weigh(pages[name]))))
        if over:
            problems.append(Problem(Path(name), None, msg("page is over its weight budget: {over}", over=joined(over)),
                                    msg("at most {raw} KB raw and {gz} KB gzip ({source}; trim figures or split the "
                                        "lesson)", raw=f"{budget.page_kb:g}", gz=f"{budget.gzip_kb:g}",
                                        source=budget.source)))
    if problems:
        raise ContentError(problems)
