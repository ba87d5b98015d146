"""lessonkit: build illustrated, computed lessons into self-contained HTML pages."""
from .compute.registry import Lesson
from .features.widgets import bars, explorer, param, table
from .support.numbers import format_value

__all__ = ["Lesson", "bars", "explorer", "format_value", "param", "table"]
__version__ = "0.1.0"
