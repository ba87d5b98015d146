"""What a lesson's package for a learning platform (LMS) reads of lesson.yaml: `mastery:`, the percentage of its
self-checks a student must get right to pass (the SCORM package reports passed or failed against it). Its type is
the schema's; its range is checked here, at its line."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..support.errors import Problem
from ..support.messages import msg

DEFAULT_MASTERY = 60


def check_lesson(meta: dict[str, Any], lines: dict[str, int], path: Path) -> list[Problem]:
    value = meta.get("mastery")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return []  # absent, or reported by the schema
    if math.isfinite(value) and 0 <= value <= 100:
        return []
    return [Problem(path, lines.get("mastery"), msg("`mastery: {value}` is not a percentage", value=value),
                    msg("a number from 0 to 100: the percentage of the self-checks to get right, e.g. `mastery: 80`"))]


def mastery_of(meta: dict[str, Any]) -> float:
    """The lesson's mastery percentage (checked by check_lesson), or the default."""
    value = meta.get("mastery")
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else DEFAULT_MASTERY
