"""Page weight budget: every HTML page (everything inline) must stay under a raw and a gzip size.

The defaults suit a phone on a slow connection; a site may set its own in `content/site.yaml`:

    budget: {page_kb: 250, gzip_kb: 60}      # KB = 1024 bytes

A page over budget is a content error naming the page, its size and the budget; nothing is written.
Each page is weighed as it is; the course's search index is a file of its own (features/search.py INDEX_FILE) that
the index page loads only when someone searches: no page carries it, the build summary reports its size.
"""
from __future__ import annotations

import zlib
from pathlib import Path

from ..load.siteconfig import Budget
from ..support.errors import ContentError, Problem
from ..support.messages import joined, msg


def page_sizes(pages: dict[str, bytes]) -> tuple[dict[str, int], dict[str, int]]:
    """Raw and gzip bytes of every page (gzip -9 as a web server would send it, within a few bytes)."""
    raw = {name: len(data) for name, data in pages.items()}
    gz = {name: len(_gzip(data)) for name, data in pages.items() if name.endswith(".html")}
    return raw, gz


def _gzip(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip container
    return compressor.compress(data) + compressor.flush()


def check_budget(raw: dict[str, int], gz: dict[str, int], budget: Budget) -> None:
    problems = []
    for name in sorted(gz):
        over = []
        if raw[name] > budget.page_kb * 1024:
            over.append(msg("{size} KB raw > budget {limit} KB", size=f"{raw[name] / 1024:.1f}",
                            limit=f"{budget.page_kb:g}"))
        if gz[name] > budget.gzip_kb * 1024:
            over.append(msg("{size} KB gzip > budget {limit} KB", size=f"{gz[name] / 1024:.1f}",
                            limit=f"{budget.gzip_kb:g}"))
        if over:
            problems.append(Problem(Path(name), None, msg("page is over its weight budget: {over}", over=joined(over)),
                                    msg("at most {raw} KB raw and {gz} KB gzip ({source}; trim figures or split the "
                                        "lesson)", raw=f"{budget.page_kb:g}", gz=f"{budget.gzip_kb:g}",
                                        source=budget.source)))
    if problems:
        raise ContentError(problems)
