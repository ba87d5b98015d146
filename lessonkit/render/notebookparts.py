"""A notebook's parts that its lesson's text cannot change, kept in the build's cache (NOTEBOOK_PARTS):
render/notebook.py makes the notebook with them."""
from __future__ import annotations

import inspect
import re

from ..compute.registry import inputs_of
from ..compute.run import ComputedLesson
from ..features import notebook
from ..features.notebook import Cell
from ..support import numbers
from ..support.store import NOTEBOOK_PARTS


class NotebookParts:
    """A notebook's parts that its lesson's text cannot change — the setup's code (the engine's) and lesson.py's
    cells (lesson.py's and the engine's) — made once and kept in the build's cache (NOTEBOOK_PARTS) under keys of
    what they are made of (features/notebook.py setup_key, code_cells_key): edit a paragraph and neither is made
    again; and the memo of the lesson's inline Markdown (InlineMemo, inline_key). `store` None: always made."""

    def __init__(self, store, lesson: ComputedLesson, ui):
        self.store, self.lesson, self.ui = store, lesson, ui
        self._keys: dict[str, str] = {}

    def setup_code(self) -> str:
        def make() -> str:
            from ..draw import figures as drawing  # (made once per engine: kept in the store)
            from ..features import notebook_standin

            rc = drawing.style("")
            return notebook.setup_code(inspect.getsource(numbers), inspect.getsource(notebook_standin),
                                       inspect.getsource(drawing.FigureMaker),
                                       {k: v for k, v in rc.items() if k != "font.sans-serif"}, drawing.CJK_FONTS,
                                       self.ui.notebook_font_missing)
        return self._kept("setup", lambda: notebook.setup_key(self.ui.notebook_font_missing), make, str)

    def code_cells(self) -> list[Cell]:
        """lesson.py in cells (a plain lesson.py: not written as cells)."""
        source, values = self._code()
        bodies = self._kept("code", lambda: notebook.code_cells_key(source, values),
                            lambda: [cell.source for cell in notebook.code_cells(source, values)], list)
        return [Cell("code", body) for body in bodies]

    def _code(self) -> tuple[str, dict[str, tuple[str, ...]]]:
        registry = self.lesson.registry
        values = {name: inputs_of(f) for name, f in registry.values.items()}
        return self.lesson.source.code_path.read_text(encoding="utf-8"), values

    def _kept(self, part: str, key, make, kind: type):
        if self.store is None:
            return make()
        self._keys[part] = key()
        saved = self.store.get_json(NOTEBOOK_PARTS, self._keys[part])
        if isinstance(saved, kind) and all(isinstance(s, str) for s in (saved if kind is list else [saved])):
            return saved
        made = make()
        self.store.put_json(NOTEBOOK_PARTS, self._keys[part], made)
        return made

    def keep_with(self, notebook_key: str) -> tuple[str, ...]:
        """Note the parts the notebook kept under `notebook_key` was made with (an entry of its own); the entries
        of the parts and of the note."""
        note = notebook.made_of_key(notebook_key)
        self.store.put_json(NOTEBOOK_PARTS, note, {"notebook": notebook_key, "parts": list(self.entries())})
        return (*self.entries(), NOTEBOOK_PARTS.entry(note))

    def kept_with(self, notebook_key: str) -> tuple[str, ...]:
        """The parts the notebook kept under `notebook_key` was made with (keep_with), marked used; their entries
        and the note's."""
        note = notebook.made_of_key(notebook_key)
        noted = self.store.get_json(NOTEBOOK_PARTS, note)
        listed = noted.get("parts") if isinstance(noted, dict) and noted.get("notebook") == notebook_key else None
        if not isinstance(listed, list):
            return ()
        found = tuple(entry for entry in listed if isinstance(entry, str)
                      and re.fullmatch(f"{NOTEBOOK_PARTS.folder}/{NOTEBOOK_PARTS.pattern}", entry))
        for entry in found:
            self.store.touch(entry)
        return (*found, NOTEBOOK_PARTS.entry(note))

    def entries(self) -> tuple[str, ...]:
        return tuple(NOTEBOOK_PARTS.entry(key) for key in self._keys.values())
