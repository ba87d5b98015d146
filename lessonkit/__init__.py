"""lessonkit: build illustrated, computed lessons into self-contained HTML pages."""
from .compute import Lesson
from .widgets import bars, explorer, param, table

__all__ = ["Lesson", "bars", "explorer", "param", "table"]
__version__ = "0.1.0"
