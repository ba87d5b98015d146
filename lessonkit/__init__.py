"""lessonkit: build illustrated, computed lessons into self-contained HTML pages."""
from .compute import Lesson

__all__ = ["Lesson"]
__version__ = "0.1.0"
