"""One build's shared state, passed down from `site.build` instead of living in module globals."""
from __future__ import annotations

from pathlib import Path

from .records import Mutable, fresh
from .store import TEMPLATES, Store


class Session(Mutable):
    cache: Store                         # the build's cache (`--no-cache`: a store without a folder)
    preview_script: str | None = None    # `serve`'s reload script: every page runs it, its policy lists its hash
    mathml: dict[str, str] = fresh(dict)  # "display NUL latex" → MathML, kept in the cache
    shared_inputs: str | None = None     # what every page is made from (incremental.shared_inputs; None: no cache)

    @property
    def templates_folder(self) -> Path | None:
        """Where compiled templates are kept between builds (None: compiled afresh)."""
        return self.cache.folder_of(TEMPLATES)
