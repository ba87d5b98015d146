"""lesson.py parsed once however many features read it: its values' cache key (support/cachekeys.py), code listings and
the figures they place (features/code.py), the notebook's cells (features/notebook.py), the captions checked for
hand-typed numbers (features/handnumbers.py). Each parse of a lesson's code costs a build tens of milliseconds."""
from __future__ import annotations

import ast
import functools


@functools.lru_cache(maxsize=16)
def parse(source: str) -> ast.Module:
    """The syntax tree of `source`, shared: callers read it and never change it. SyntaxError as ast.parse."""
    return ast.parse(source)


def first_line(func) -> int:
    """The line of lesson.py where a function of a lesson's registry begins: its code's first line, or — for the
    stand-in a kept registry holds (compute/registry.py DeferredFunction, which has no code) — the line it recorded."""
    code = getattr(func, "__code__", None)
    return code.co_firstlineno if code is not None else func.line
