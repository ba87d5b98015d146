"""What a feature's placement may use of the lesson's page, and the ledger of what was placed where.

Each feature exports its own placement next to its compute and its theme component — `place(page, name, args)` for
what `{{< kind NAME … >}}` puts in the text (HTML, or a Miss saying what is wrong: markup adds file and line), and
`unplaced(page)` for what lesson.py or lesson.yaml defines but the text never placed. render/placers.py keeps the
registry (which directive is whose) and makes the page; features never import render."""
from __future__ import annotations

from typing import Any, Callable, Protocol

from ..support.errors import Miss, Problem
from ..support.records import Mutable, fresh


class Ledger(Mutable):
    """What one page's rendering noted so far, in reading order: the page's whole render state (its numbers and ids
    are render/numbering.py's, made before). A part of the page taken from the memo (render/sectionmemo.py) sets it
    as rendering the part would have left it, field by field, whatever the fields are."""
    widgets: set[str] = fresh(set)
    checks: set[str] = fresh(set)
    code: set[str] = fresh(set)       # the functions and cells whose listing is shown
    alone_checks: list[dict] = fresh(list)  # the standalone self-checks' contexts
    terms_used: dict[str, None] = fresh(dict)    # term ids in reading order (sections, then yaml)
    terms_marked: dict[str, None] = fresh(dict)  # those marked with [[…]] anywhere
    cited: dict[str, None] = fresh(dict)         # citation keys placed, in reading order (the bibliography's)

    def state(self) -> tuple:
        """Every field but the self-checks (a part's own output), as plain data."""
        return tuple((field, sorted(value) if isinstance(value, set) else list(value))
                     for field in self._fields if field != "alone_checks" for value in (getattr(self, field),))

    def restore(self, state: tuple) -> None:
        """Set every field to `state` (Ledger.state), in place: other objects hold these sets and dicts."""
        for field, value in state:
            held = getattr(self, field)
            held.clear()
            held.update(value if isinstance(held, set) else dict.fromkeys(value))


class Page(Protocol):
    """render/placers.py LessonRenderer, as the placements see it."""
    lesson: Any             # compute.run.ComputedLesson
    setting: Any            # render.placers.PageSetting: env, ui, components, course, holes, release, edition
    env: Any
    ui: Any
    ctx: Any                # render.markup.MarkupContext of lesson.md
    ledger: Ledger
    numbers: Any            # render.numbering.PageNumbers: the page's ids, numbered before rendering
    figure_order: list[str]
    problems: list[Problem]

    def md(self, key: str, text: str, inline: bool = False, context=None) -> str:
        """A lesson.yaml field's Markdown (`key` names its line)."""

    def inline(self, text: str, path, line: int | None, plain: bool = False) -> str:
        """Markdown on one line (a caption, a column name) in lesson.md's context: HTML, or `plain` text."""

    def template(self, name: str, **context) -> str:
        """The theme's template `name` rendered with `context` and the page's words."""

    def figure_mark(self, name: str) -> str:
        """The draft's hole for the drawing of lesson.py's figure `name` (render/draft.py: it may still be drawing)."""

    def figure_data_mark(self, name: str, figure_id: str, number: int) -> str:
        """The draft's hole for the data table under figure `name`."""

    def mounted(self, component, context: dict, widget, name: str, script) -> str:
        """A component's template rendered with `context` and mounted with the data its script reads ("" when the
        template failed, which is reported)."""

    def place(self, kind: str, name: str, args: tuple[str, ...], **options) -> str | Miss:
        """What `{{< kind name args >}}` puts in the text, by the feature that owns `kind`."""


Placer = Callable[..., "str | Miss"]
