"""One error type for the author's mistakes; everything else is our bug and keeps its traceback."""
from __future__ import annotations

import os
from pathlib import Path

from .messages import Message, as_message, msg, said
from .records import Record


class Problem(Record):
    path: Path
    line: int | None
    message: Message | str        # a plain string is a message without parameters
    expected: Message | str | None = None

    def __str__(self) -> str:
        return self.render()

    def render(self, lang: str | None = None, root: Path | None = None, words: dict[str, str] | None = None) -> str:
        """`file:line: problem (expected …)` in `lang` (default: the message language), e.g. in Chinese
        `file:line: 问题（应为 …）`, through lessonkit/messages/<lang>.yaml (`words`: that catalog, when the caller
        holds it). Files are shown relative to `root` (the project: the content folder's parent; default the
        current folder), as the guide and the preview show them, also where a message names one."""
        where = f"{shown_path(self.path, root)}:{self.line}" if self.line else shown_path(self.path, root)
        text = said(framed(self.message, self.expected), lang, words)
        return f"{where}: {relative_paths(text, root)}"


def framed(message: Message | str, expected: Message | str | None) -> Message | str:
    """A message with what was expected instead, `… (expected …)`."""
    return msg("{message} (expected {expected})", message=as_message(message), expected=as_message(expected)) \
        if expected else message


def project_root(content: Path | None) -> Path | None:
    """The folder messages show paths from: the content folder's parent (the project, for content/)."""
    return Path(content).resolve().parent if content is not None else None


def shown_path(path: Path | str, root: Path | None = None) -> str:
    """`path` relative to the project when it lies inside it, else as it is."""
    base = _root(root)
    try:
        return str(Path(path).relative_to(base)) if base is not None and Path(path).is_absolute() else str(path)
    except ValueError:
        return str(path)


def relative_paths(text: str, root: Path | None = None) -> str:
    """Every absolute path inside the project that `text` names, made relative to it."""
    base = _root(root)
    return text.replace(str(base) + os.sep, "") if base is not None else text


def _root(root: Path | None) -> Path | None:
    base = Path(root) if root is not None else Path.cwd()  # (a command passes its project's folder)
    return None if base.parent == base else base  # never strip the file system's root from every path


class ContentError(Exception):
    """Problems in the author's content, reported all at once."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(Exception):
    """A bad command line or unsafe option: exit code 2."""

    def __init__(self, message: Message | str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)

    def render(self, lang: str | None = None) -> str:
        return said(self.message, lang)


class Miss(Record):
    """A reference the content cannot resolve, handed back as a value: the caller knows the file and line."""
    message: Message | str
    expected: Message | str | None = None


class Notice(Record):
    """A reference that renders (as `html`) but that the author should know of: a warning at the caller's file and
    line (an error under --strict)."""
    html: str
    message: Message | str
    expected: Message | str | None = None
