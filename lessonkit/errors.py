"""One error type for the author's mistakes; everything else is our bug and keeps its traceback."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int | None
    message: str
    expected: str | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        tail = f" (expected {self.expected})" if self.expected else ""
        return f"{where}: {self.message}{tail}"


class ContentError(Exception):
    """Problems in the author's content, reported all at once."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(Exception):
    """A bad command line or unsafe option: exit code 2."""


@dataclass(frozen=True)
class Miss:
    """A reference the content cannot resolve, handed back as a value: the caller knows the file and line."""
    message: str
    expected: str | None = None
