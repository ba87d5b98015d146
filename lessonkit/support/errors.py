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
        return self.render()

    def render(self, lang: str | None = None) -> str:
        """`file:line: problem (expected …)`, or in Chinese `file:line: 问题（应为 …）`: the message and the expected
        text translated through lessonkit/messages/<lang>.yaml (English when the catalog lacks them)."""
        from .i18n import expected_tail, translate

        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        tail = expected_tail(self.expected, lang) if self.expected else ""
        return f"{where}: {translate(self.message, lang)}{tail}"


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
