"""Files read once across builds: what reading a file gave — site.yaml, a lesson.yaml with the line of each key and
its problems, the syntax trees of lesson.md and of lesson.yaml's Markdown, the theme's words, the message catalog —
is kept in the store (kind READINGS) under the file's path and bytes, the reading function, the engine's code and
the versions of PyYAML and markdown-it-py. A build whose YAML files did not
change, such as a rebuild after an edit of lesson.md, then neither imports PyYAML (≈25 ms) nor parses (the message
catalog alone is 95 KB, ≈12 ms).

    kept(store, reading, path, *args)   reading(path, *args), from the store when the same bytes were read before
    Parts(store, reading, path)         the parts of one reading kept by their own text: lesson.md's sections, so
                                        an edit of one paragraph reads one section again, not the file

A reading is a function of the file's bytes and its arguments only, returning data pickle can store; one that
raises is not kept (the error is reported again next time, by reading again).
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable, TypeVar

from .cachekeys import engine_source_digest, package_version
from .store import READING_PARTS, READINGS, Store

T = TypeVar("T")


def kept(store: Store | None, reading: Callable[..., T], path: Path, *args: Any, keep: bool = True,
         given: tuple = ()) -> T:
    """`reading(path, *args, *given)`, kept in `store` (None: no store). `keep=False`: only look in the store,
    neither adding nor marking an entry (a command that has not yet checked where its cache may go: cli.py).
    `given`: what the reading is handed that is itself read from the file's bytes (lesson.yaml's data, for the
    Markdown in it): not part of the key."""
    if store is None or not store.enabled:
        return reading(path, *args, *given)
    try:
        data = Path(path).read_bytes()
    except OSError:  # missing or unreadable: the reading says so
        return reading(path, *args)
    key = _key(reading, path, args, data)
    found = store.get_pickle(READINGS, key, mark_used=keep)
    if found is not None:
        return found
    result = reading(path, *args, *given)
    if keep:
        store.put_pickle(READINGS, key, result)
    return result


class Parts:
    """The parts of one reading kept by their own text and arguments (what a part reads besides its text: where it
    starts): `key(text, *args)` names a part (a digest of all it is read from), `get(key)` is what `put(key, value)`
    kept, or None."""

    def __init__(self, store: Store, reading: Callable[..., Any], path: Path):
        self.store, self.reading, self.path = store, reading, path

    def key(self, text: str, *args: Any) -> str:
        return _key(self.reading, self.path, args, text.encode())

    def get(self, key: str) -> Any | None:
        return self.store.get_pickle(READING_PARTS, key)

    def put(self, key: str, value: Any) -> None:
        self.store.put_pickle(READING_PARTS, key, value)


def _key(reading: Callable[..., Any], path: Path, args: tuple, data: bytes) -> str:
    h = hashlib.sha256(f"{reading.__module__}.{reading.__qualname__}\0{path}\0{args!r}\0"
                       f"{engine_source_digest()}\0{package_version('yaml')}\0{package_version('markdown_it')}\0"
                       f"{package_version('mdit_py_plugins')}\0".encode())
    h.update(data)
    return h.hexdigest()
