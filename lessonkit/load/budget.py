"""A page weight budget (`budget: {page_kb: 250, gzip_kb: 60}`), read from content/site.yaml for every page and from a
lesson's lesson.yaml for its page alone; assemble/budget.py weighs the pages against it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..support.errors import ContentError, Problem
from ..support.messages import Message, msg
from ..support.records import Record

DEFAULT_PAGE_KB = 250
DEFAULT_GZIP_KB = 60


class Budget(Record):
    page_kb: float = DEFAULT_PAGE_KB
    gzip_kb: float = DEFAULT_GZIP_KB
    source: Message = msg("the default budget")


def budget_from(value: Any, path: Path, line: int | None, base: Budget = Budget()) -> Budget:
    """The `budget` mapping of site.yaml (or of a lesson's lesson.yaml, for its page); a missing limit is `base`'s
    (the default's, or for a lesson the site's). Named from the project (`content/…`) in messages."""
    if not isinstance(value, dict) or set(value) - {"page_kb", "gzip_kb"}:
        raise ContentError([Problem(path, line, msg("cannot read `budget`: {value}", value=repr(value)),
                                    "`budget: {page_kb: 250, gzip_kb: 60}` (sizes in KB)")])
    limits = {}
    for key, default in (("page_kb", base.page_kb), ("gzip_kb", base.gzip_kb)):
        limit = value.get(key, default)
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) or limit <= 0:
            raise ContentError([Problem(path, line, msg("budget `{key}` is {value}", key=key, value=repr(limit)),
                                        "a positive number of KB (1 KB = 1024 bytes)")])
        limits[key] = limit
    return Budget(limits["page_kb"], limits["gzip_kb"],
                  msg("{path} `budget`", path="/".join(path.parts[-3:] if path.name == "lesson.yaml" else path.parts[-2:])))
