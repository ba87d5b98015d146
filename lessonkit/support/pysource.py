"""lesson.py parsed once however many features read it: its values' cache key (support/cachekeys.py), code listings and
the figures they place (features/code.py), the notebook's cells (features/notebook.py), the captions checked for
hand-typed numbers (features/handnumbers.py). Each parse of a lesson's code costs a build tens of milliseconds."""
from __future__ import annotations

import ast
import functools
import sys


@functools.lru_cache(maxsize=16)
def parse(source: str) -> ast.Module:
    """The syntax tree of `source`, shared: callers read it and never change it. SyntaxError as ast.parse."""
    return ast.parse(source)


def first_line(func) -> int:
    """The line of lesson.py where a function of a lesson's registry begins: its code's first line, or — for the
    stand-in a kept registry holds (compute/registry.py DeferredFunction, which has no code) — the line it recorded."""
    code = getattr(func, "__code__", None)
    return code.co_firstlineno if code is not None else func.line


NOT_INSTALLED = {"lessonkit", "__future__"}   # what lesson code imports that no package installs for it


def imported_modules(code: str) -> list[str]:
    """The modules `code` imports anywhere (`import numpy as np`, `from scipy import linalg`: their dotted names), in
    the order first imported; the standard library's and lessonkit's left out. Code that does not parse gives none."""
    try:
        tree = parse(code)
    except SyntaxError:
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return [name for name in dict.fromkeys(found)
            if name.partition(".")[0] not in sys.stdlib_module_names and name.partition(".")[0] not in NOT_INSTALLED]
