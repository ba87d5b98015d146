"""One build's shared state, passed down from `site.build` instead of living in module globals."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .cache import FigureCache


@dataclass
class Session:
    cache: FigureCache
    preview_script: str | None = None    # `serve`'s reload script: every page runs it, its policy lists its hash
    mathml: dict[str, str] = field(default_factory=dict)  # "display NUL latex" → MathML, kept in the cache

    @property
    def templates_folder(self) -> Path | None:
        """Where compiled templates are kept between builds (None: compiled afresh)."""
        return self.cache.folder / "templates" if self.cache.enabled else None
