"""The assemble stage: each page draft filled once — figures, their data tables, the page's code (the theme's base
code plus exactly the components it mounted, each script its own `<script>`, and the dark palette of the colours its
figures draw) and the Content-Security-Policy listing their hashes — then checked against that policy."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable

import jinja2

from ..draw.drawing import DrawnFigure, FigureKey
from ..features import figdata
from ..features.components import LEAN, Components, Lean, source_name, with_source_url
from ..features.palette import palette_css, raster_css
from ..render.draft import CodeHole, FigureDataHole, FigureHole, PageDraft
from ..render.templates import asset_path, read_asset
from ..support import csp as content_security
from ..support.errors import UsageError
from ..support.messages import joined, msg
from ..support.paths import SitePaths


class Assembler:
    """Fills drafts from what the draw stage made. Code is assembled once per set of components (most pages share
    one), figure data tables once per figure."""

    def __init__(self, env: jinja2.Environment, ui, components: Components, dirs: list[Path],
                 figures: dict[FigureKey, DrawnFigure], preview_script: str | None = None, shrink: Lean = LEAN):
        self.env, self.ui, self.components, self.figures, self.shrink = env, ui, components, figures, shrink
        self.base_js, self.base_css = read_asset(dirs, "lesson.js"), read_asset(dirs, "style.css")
        self.base_path = asset_path(dirs, "lesson.js")
        # run in <head>, before the body is parsed (the `js` class: the first screen laid out once, as scripted)
        head = asset_path(dirs, "head.js")
        self.head_js = with_source_url(shrink.js(read_asset(dirs, "head.js"), head), source_name(head, 4))
        self.preview_script = preview_script
        self._code = functools.lru_cache(maxsize=None)(self._page_code)
        self.data_files: dict[str, bytes] = {}  # the figures' CSV files, written beside their pages

    def site(self, drafts: list[PageDraft], made: Callable[[str, bytes], None] | None = None) -> dict[str, bytes]:
        """Every page, the files written with them (notebooks, the figures' CSV files), and `.nojekyll` for
        GitHub Pages. `made(path, page)` is told of each page as soon as it is assembled (budget.GzipSizes)."""
        pages = {}
        for draft in drafts:
            pages[draft.path] = self.page(draft)
            if made is not None:
                made(draft.path, pages[draft.path])
        pages.update((path, text.encode("utf-8")) for draft in drafts for path, text in draft.files)
        pages.update(self.data_files)
        pages[SitePaths.NOJEKYLL] = b""
        return pages

    def page(self, draft: PageDraft) -> bytes:
        palette: dict[str, str] = {}
        rasters = False  # a figure with a raster drawn in square pixels (features.palette.raster_css)
        for hole in draft.figures():
            drawn = self.figures.get((hole.lesson, hole.name))
            if drawn is not None:
                palette.update(drawn.palette)
                rasters = rasters or '<image class="' in drawn.svg
        scripts, css = self._code(draft.components, draft.lesson_folder)
        css += "\n" + palette_css(palette).rstrip() if palette else ""
        css += "\n" + raster_css().rstrip() if rasters else ""
        scripts += (self.preview_script,) if self.preview_script else ()
        policy = content_security.policy(scripts=[self.head_js, *scripts], styles=[css],
                                         connect_self=bool(self.preview_script), script_sources=draft.script_sources)
        code = {"head": f"<script>{self.head_js}</script>", "style": css, "policy": policy,
                "scripts": "\n".join(f"<script>{s}</script>" for s in scripts)}
        placed: dict[tuple[str, str], int] = {}  # how often each figure is on the page so far
        text = "".join(self._fill(part, code, placed, draft.path) for part in draft.parts)
        return _checked(text, draft.template, policy)

    def _page_code(self, kinds: tuple[str, ...], lesson_folder: Path | None) -> tuple[tuple[str, ...], str]:
        return self.components.page_code(kinds, self.base_js, self.base_css, lesson_folder, self.base_path, self.shrink)

    def _fill(self, part, code: dict[str, str], placed: dict[tuple[str, str], int], page: str) -> str:
        if isinstance(part, str):
            return part
        if isinstance(part, CodeHole):
            return code[part.what]
        drawn = self.figures.get((part.lesson, part.name))
        if drawn is None:  # drawing it failed: the build stops with the author's problem before writing anything
            return ""
        if isinstance(part, FigureHole):
            placed[key] = placed.get(key := (part.lesson, part.name), 0) + 1
            if placed[key] == 1:
                return drawn.svg
            from ..draw.svg import placed_again  # (a figure shown twice; draw/svg.py is the drawing's, ≈2 ms to import)

            return placed_again(drawn.svg, placed[key])
        if isinstance(part, FigureDataHole):
            return self._figure_data(part, drawn.data, page)
        raise TypeError(f"unknown hole {part!r}")

    def _figure_data(self, hole: FigureDataHole, data: dict, page: str) -> str:
        """The 「数据」 disclosure under a figure: the numbers it plots as tables, with a link each to the CSV file
        of every row, written beside the page."""
        tables = figdata.view(data, hole.figure_id, self.ui, csv_base=f"fig-{hole.name}")
        if not tables:
            return ""
        for table in tables:
            path = SitePaths.figure_data(hole.lesson, table["csv_name"])
            self.data_files[path] = table["csv_text"].encode("utf-8")
            table["csv_href"] = SitePaths.url(page, path)
        figure = {"id": hole.figure_id, "number": hole.number}
        return self.env.get_template("partials/figure_data.html").render(figure=figure, tables=tables, ui=self.ui)


def _checked(page: str, template: str, csp: str) -> bytes:
    """A page the browser would partly block is the theme's mistake: say so rather than ship it."""
    blocked = content_security.violations(page, csp)
    if blocked:
        raise UsageError(msg("the theme's {template} makes a page its Content-Security-Policy would break: {found} "
                             "(inline code belongs in assets/lesson.js and assets/style.css, or in a component's "
                             "widget.js and widget.css, whose hashes the policy lists)", template=template,
                             found=joined(list(dict.fromkeys(blocked)))))
    return page.encode("utf-8")
