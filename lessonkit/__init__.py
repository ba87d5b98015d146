"""lessonkit: build illustrated, computed lessons into self-contained HTML pages.

The names below are what a lesson.py may import (`from lessonkit import Lesson, explorer, param, bars, table,
format_value`). They are imported when first asked for, so the command line starts without numpy: a build with
nothing to compute never needs it.
"""
import importlib

__all__ = ["Lesson", "bars", "explorer", "format_value", "param", "table"]
__version__ = "0.2.0"
_WHERE = {"Lesson": ".compute.registry", "bars": ".features.widgets", "explorer": ".features.widgets",
          "param": ".features.widgets", "table": ".features.widgets", "format_value": ".support.numbers"}


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'lessonkit' has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name], __name__), name)
