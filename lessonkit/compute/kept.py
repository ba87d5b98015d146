"""A lesson as an earlier build computed it, taken from the store without running lesson.py (nor importing numpy)
when lesson.py and its data files are what that build read — the rebuild after an edit in lesson.md or lesson.yaml.

Three entries hold it:
  - VALUES (values_key: lesson.py's syntax tree, its data files, the engine, Python and numpy): the values, pickled;
  - SHAPE (the same and lesson.py's bytes, so its lines are right): the registry with its functions deferred
    (compute/registry.py DeferredFunction), the widgets' data and the widgets run on every build;
  - DERIVED (the VALUES entry's key and bytes, the page engine and lesson.yaml's bytes): what a build derived from those
    values — how the page wrote each `{{ … }}` of them (support/values.py KeptValues), the self-checks, and each
    figure's cache key for a font and page colours (draw/drawing.py).
A value is read (unpickled) only when a page asks for one these do not hold. A lesson written as cells is always
run (its figures are drawn by its cells)."""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any, Callable

from ..features import selfcheck
from ..support.cachekeys import page_engine, values_key
from ..support.errors import Problem
from ..support.records import Mutable, fresh
from ..support.store import DERIVED, SHAPE, VALUES, Store
from ..support.values import KeptValues
from .registry import Lesson, code_digest, deferred, forget_other_module


class LessonMemo(Mutable):
    """The DERIVED entry of one lesson's values: what a build derived from them, and whether this build added to
    it (then it is written again when the build has made its pages)."""
    key: str
    shape: str                                             # the SHAPE entry (Kind.entry) it goes with
    shown: dict = fresh(dict)              # (name, spec, math mode) → text
    checks: dict | None = None                             # lesson.yaml key → selfcheck.CheckModel
    figure_keys: dict[str, dict[str, str]] = fresh(dict)  # font and page colours → name → key
    seen: int = 0                                          # how many things it held when read

    def size(self) -> int:
        return len(self.shown) + (self.checks is not None) + sum(map(len, self.figure_keys.values()))

    @property
    def changed(self) -> bool:
        return self.size() != self.seen

    def entries(self) -> tuple[str, ...]:
        """The store entries a page made with it was made of (besides VALUES)."""
        return self.shape, DERIVED.entry(self.key)

    def keep(self, cache: Store) -> None:
        if self.changed:
            cache.put_pickle(DERIVED, self.key, (self.shown, self.checks, self.figure_keys))


def shape_key(files: str, code: bytes) -> str:
    return hashlib.sha256(f"{values_key(files)}\0shape\0".encode() + code).hexdigest()


def read_memo(cache: Store, values_digest: str, source, files: str, code: bytes) -> LessonMemo:
    """The DERIVED entry for these values (the VALUES entry's key — lesson.py and its data files — and its bytes),
    the page engine and lesson.yaml as it is."""
    h = hashlib.sha256(f"{values_key(files)}\0{values_digest}\0{page_engine()}\0".encode())
    h.update(_bytes(source.meta_path))
    memo = LessonMemo(h.hexdigest(), SHAPE.entry(shape_key(files, code)))
    saved = cache.get_pickle(DERIVED, memo.key)
    if isinstance(saved, tuple) and len(saved) == 3:
        memo.shown, memo.checks, memo.figure_keys = saved
        memo.seen = memo.size()
    return memo


def keep_shape(cache: Store, files: str, code: bytes, registry: Lesson, path: Path, widgets: dict,
               rerun: list[str]) -> None:
    """The SHAPE entry of a lesson whose values were computed now (and written as VALUES)."""
    cache.put_pickle(SHAPE, shape_key(files, code), (deferred(registry, path, code_digest(code)), widgets, rerun))


def kept_shape(cache: Store, files: str, code: bytes) -> tuple[Lesson, dict, list[str], str] | None:
    """(deferred registry, widgets' data, widgets to run again, the VALUES entry's digest) when the store holds
    both entries for lesson.py as it is (`code`: its bytes); None otherwise."""
    saved = cache.get_pickle(SHAPE, shape_key(files, code))
    digest = cache.digest(VALUES, values_key(files))
    if not (isinstance(saved, tuple) and len(saved) == 3 and isinstance(saved[0], Lesson)) or digest is None:
        return None
    return (*saved, digest)


def kept_values(cache: Store, files: str, registry: Lesson, path: Path, memo: LessonMemo, compute: Callable,
                loaded: dict[str, Any] | None = None) -> KeptValues:
    """The values by name; read from VALUES when first asked for (`loaded`: already at hand; `compute(registry,
    path)`: run.compute_values, should the entry be gone)."""
    return KeptValues(tuple(registry.values), functools.partial(_read_values, cache, files, registry, path, compute),
                      memo.shown, loaded)


def _read_values(cache: Store, files: str, registry: Lesson, path: Path, compute: Callable) -> dict[str, Any]:
    """The VALUES entry; an instance of a class lesson.py defines needs lesson.py's module: run it and read again,
    and compute the values anew should the entry be gone."""
    first = next(iter(registry.values.values()), None)
    if first is not None:
        forget_other_module(path, first.code)
    saved = cache.get_pickle(VALUES, values_key(files))
    if not isinstance(saved, dict) and first is not None:
        first.resolve()                                    # lesson.py's module, for its classes
        saved = cache.get_pickle(VALUES, values_key(files))
    return saved if isinstance(saved, dict) else compute(_resolved(registry), path)


def _resolved(registry: Lesson) -> Lesson:
    """The registry lesson.py makes when it runs (its deferred functions resolved)."""
    lesson = Lesson()
    lesson.code_path = registry.code_path
    lesson.values = {name: f.resolve() for name, f in registry.values.items()}
    return lesson


def kept_checks(memo: LessonMemo, source, values, problems: list[Problem]) -> dict:
    """The lesson's self-checks: as the memo holds them, else made (reading the values) and kept when they raised
    no problem."""
    if memo.checks is not None:
        return memo.checks
    found: list[Problem] = []
    checks = selfcheck.model(source.meta, source.meta_lines, source.meta_path, values, found)
    if not found:
        memo.checks = checks
    problems += found
    return checks


def _bytes(path: Path | None) -> bytes:
    try:
        return path.read_bytes() if path is not None else b""
    except OSError:
        return b""
