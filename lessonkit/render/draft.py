"""Page drafts: what the render stage hands to assembly. A draft is finished HTML text with typed holes for what is
not known yet when the page is rendered — a figure still being drawn, the numbers it plots, and the page's own code
(its inline scripts — the base code, then one `<script>` element per component —, its one inline style, and the
Content-Security-Policy listing their hashes), which depends on the components the page mounted and the colours its
figures draw.

Templates receive holes as objects and print them like any value (`{{ figure.svg }}`, `{{ assets.css | safe }}`):
each prints a marker unique to this build, and `Holes.draft()` splits the rendered text at the markers right away,
so a hole never survives as text and assembly never searches a page.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Union

from markupsafe import Markup

from ..support.records import Mutable, Record, fresh


class FigureHole(Record):
    """A drawn figure's SVG; the same hole placed twice on a page gets its ids renamed by assemble."""
    lesson: str
    name: str


class FigureDataHole(Record):
    """The 「数据」 disclosure under figure `name` (its tables, from what the figure plots)."""
    lesson: str
    name: str
    figure_id: str
    number: int


class CodeHole(Record):
    what: str           # "head" (the <script> for its <head>) | "scripts" (the page's other <script> elements)
                        # | "style" (one style's text) | "policy"


Hole = Union[FigureHole, FigureDataHole, CodeHole]
HEAD, SCRIPTS, STYLE, POLICY = CodeHole("head"), CodeHole("scripts"), CodeHole("style"), CodeHole("policy")
WIDGET_ATTRIBUTE = re.compile(r'\sdata-widget="([\w-]+)"')


class PageDraft(Record):
    path: str                           # the output path (support.paths.SitePaths)
    template: str                       # the theme template it was rendered from, for messages
    parts: tuple[Union[str, Hole], ...]
    components: tuple[str, ...]         # the kinds it mounts (elements with data-widget="KIND"), sorted
    lesson_folder: Path | None = None   # where its lesson's own components live
    script_sources: tuple[str, ...] = ()  # script-src sources beyond its inline scripts (a script file it loads)
    files: tuple[tuple[str, str], ...] = ()  # (output path, text) of files written with it, e.g. the search index

    def figures(self) -> list[FigureHole]:
        return [p for p in self.parts if isinstance(p, FigureHole)]


class Holes(Mutable):
    """Markers for the holes of one build's drafts."""
    nonce: str = fresh(lambda: os.urandom(6).hex())      # (secrets.token_hex(6), without importing secrets)
    known: list[Hole] = fresh(list)
    index: dict[tuple[type, Hole], int] = fresh(dict)  # (kind, hole): holes are tuples, and two
    #                                                                   kinds of hole with equal fields are two holes

    def mark(self, hole: Hole) -> Markup:
        """What a template prints for the hole."""
        key = (type(hole), hole)
        if key not in self.index:
            self.index[key] = len(self.known)
            self.known.append(hole)
        return Markup(f"<!--lk-{self.nonce}-{self.index[key]}-->")

    def draft(self, text: str, path: str, template: str, lesson_folder: Path | None = None,
              script_sources: tuple[str, ...] = (), files: tuple[tuple[str, str], ...] = ()) -> PageDraft:
        pieces = re.split(f"<!--lk-{self.nonce}-(\\d+)-->", text)
        parts: list[Union[str, Hole]] = []
        for i, piece in enumerate(pieces):
            if i % 2:
                parts.append(self.known[int(piece)])
            elif piece:
                parts.append(piece)
        kinds = sorted({k for p in parts if isinstance(p, str) for k in WIDGET_ATTRIBUTE.findall(p)})
        return PageDraft(path, template, tuple(parts), tuple(kinds), lesson_folder, script_sources, files)
