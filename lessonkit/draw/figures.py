"""Draw a lesson's figures with matplotlib and turn them into small, self-contained inline SVG.

matplotlib is imported only here, and only when a figure must really be drawn.
"""
from __future__ import annotations

import contextlib
import io
import re
import warnings
from pathlib import Path
from typing import Any

from ..support.errors import ContentError, Problem
from ..support.messages import msg
from .svg import KEEP_COLOURS, TEXT_PT, clean_svg

CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "PingFang SC", "Microsoft YaHei",
             "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Noto Sans CJK JP", "Source Han Sans", "Heiti SC")
INSTALL_HINT = msg("no Chinese (CJK) font found for the figures. Install one, e.g. on Debian/Ubuntu "
                "`sudo apt-get install fonts-noto-cjk`, on macOS/Windows a system font (PingFang SC / Microsoft YaHei) "
                "is found automatically; then delete matplotlib's font cache (`rm ~/.cache/matplotlib/fontlist-*.json`)")
# Okabe–Ito, with its reddish purple darkened (#cc79a7 → #c0679a) to reach 3:1 against the light page
CYCLE = ("#0072b2", "#d55e00", "#009e73", "#c0679a", "#555555")
PANEL_PAD = 0.08  # inches of margin around each cropped panel: the browser draws text a little larger than matplotlib measures it


class FontMissing(Exception):
    pass


def find_cjk_font() -> str:
    """The first installed CJK font family in our preference order."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    for family in CJK_FONTS:
        if family in installed:
            return family
    # a stale cache may hide a font installed after matplotlib first ran: rebuild once
    font_manager._load_fontmanager(try_read_cache=False)
    installed = {f.name for f in font_manager.fontManager.ttflist}
    for family in CJK_FONTS:
        if family in installed:
            return family
    raise FontMissing(INSTALL_HINT)


def font_choice():
    """The CJK font family plus the file matplotlib draws it from, for the figure cache's key."""
    import os

    from matplotlib import font_manager

    from ..support.font import FontChoice

    family = find_cjk_font()
    found = font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
    file = os.path.abspath(found)  # a plain str (matplotlib ≥ 3.10 returns a FontPath carrying the face index)
    st = os.stat(file)
    return FontChoice(family, file, (st.st_size, st.st_mtime_ns))


def preload() -> None:
    """Import what drawing needs once, before worker processes fork, so each worker does not import it again."""
    import matplotlib.backends.backend_svg  # noqa: F401
    import matplotlib.figure  # noqa: F401


def style(font: str) -> dict[str, Any]:
    """rcParams every figure is drawn with: same font, sizes and deterministic SVG."""
    return {
        "font.family": "sans-serif",
        "font.sans-serif": [font, "DejaVu Sans"],
        "font.size": TEXT_PT,
        "axes.titlesize": 10.5,
        "axes.labelsize": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.unicode_minus": True,
        "axes.prop_cycle": __import__("cycler").cycler(color=CYCLE),
        "legend.frameon": False,
        "svg.fonttype": "none",
        "svg.hashsalt": "lessonkit",
        "svg.image_inline": True,
        "path.simplify": True,
    }


class FigureMaker:
    """The `plt` a figure function receives: only `subplots`, backed by a Figure with no pyplot state."""

    def subplots(self, nrows: int = 1, ncols: int = 1, *, figsize=(6.4, 3.0), **kwargs):
        from matplotlib.figure import Figure

        fig = Figure(figsize=figsize, layout="constrained")
        return fig, fig.subplots(nrows, ncols, **kwargs)


def draw_figure_files(name: str, func, args: list[Any], font: str, path: Path, line: int | None,
                      png: bool = False) -> tuple[str, dict, bytes | None]:
    """Run one figure function: its SVG (ids unique for `name`; what a colour map coloured marked to keep its
    colours in dark mode), the numbers it plots (features.figdata) and, with `png`, the same figure as a PNG
    picture (draw/raster.py) from the same run."""
    import matplotlib

    from ..features import figdata
    from .raster import figure_png

    figdata.keep_grid_data()
    with matplotlib.rc_context(style(font)), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fig = func(FigureMaker(), *args)
        except ContentError:
            raise
        except Exception as exc:
            from ..compute.registry import problem_from_exception
            raise ContentError([problem_from_exception(path, exc)]) from None
        if fig is None or not hasattr(fig, "savefig"):
            raise ContentError([Problem(path, line, msg("figure `{name}` returned {type}", name=name,
                                                        type=type(fig).__name__),
                                        "the matplotlib Figure from plt.subplots()")])
        _transparent_background(fig)
        _legible(fig)
        dense = _rasterize_dense(fig)
        _keep_colour_mapped(fig)
        with _one_math_parser(), _raster_resolution(fig if dense else None):
            # drawn once: laid out (constrained layout), tick labels known from here on
            svg = _figure_markup(fig, name)
        data = figdata.record(fig)
        picture = figure_png(fig, PANEL_PAD) if png else None
    glyphs = sorted({str(w.message) for w in caught if "Glyph" in str(w.message) and "missing" in str(w.message)})
    if glyphs:
        raise ContentError([Problem(path, line, msg("figure `{name}`: {warning}", name=name, warning=g),
                                    msg("text the font {font} can draw", font=font))
                            for g in glyphs])
    return svg, data, picture


def _figure_markup(fig, name: str) -> str:
    """One SVG, or for a figure of several side-by-side axes one SVG per axes in a `figure-panels` box that wraps on
    a narrow screen (the suptitle as a strip above them). Each is cropped to what it draws, labels included.

    The figure is drawn once, as SVG, and laid out in that draw; the crops are measured with the same renderer
    (its text already measured) and cut out of that one drawing: a panel is the drawing without the other panels'
    groups, seen through its own viewBox."""
    panels, boxes = [], {}
    extras = [a for a in (fig._suptitle,) if a is not None and a.get_visible() and a.get_text()]
    for i, ax in enumerate(fig.axes):
        ax.set_gid(f"{GROUP}{i}")
    for i, artist in enumerate(extras):
        artist.set_gid(f"{GROUP}t{i}")

    def measure(event) -> None:  # at the end of the draw, before the SVG is written out
        renderer = event.renderer
        panels[:] = _panels(fig)
        boxes["whole"] = fig.get_tightbbox(renderer).padded(PANEL_PAD)
        boxes["title"] = _crop(fig, [a.get_window_extent(renderer) for a in extras]) if extras else None
        boxes["panels"] = [_crop(fig, [ax.get_tightbbox(renderer) for ax in group]) for group in panels]

    listening = fig.canvas.mpl_connect("draw_event", measure)
    try:
        drawing = _save(fig)
    finally:
        fig.canvas.mpl_disconnect(listening)
    fig.set_layout_engine("none")  # freeze the layout this draw made (a PNG of it for the slides keeps it)
    height = fig.get_figheight()
    if len(panels) < 2:
        return clean_svg(_viewed(drawing, boxes["whole"], height), name)
    axes_ids, title_ids = {ax.get_gid() for ax in fig.axes}, {a.get_gid() for a in extras}
    title = ""
    if extras:
        title = clean_svg(_viewed(_without(drawing, axes_ids), boxes["title"], height), f"{name}-t",
                          css_class="figure-panel-title") + "\n"
    parts = []
    for i, (group, box) in enumerate(zip(panels, boxes["panels"]), start=1):
        others = axes_ids - {ax.get_gid() for ax in group} | title_ids
        parts.append(clean_svg(_viewed(_without(drawing, others), box, height), f"{name}-{i}",
                               css_class="figure-panel"))
    return title + '<div class="figure-panels">\n' + "\n".join(parts) + "\n</div>"


@contextlib.contextmanager
def _one_math_parser():
    """One mathtext parser for every renderer of this figure's draw. matplotlib's layout pass and its SVG draw
    each make a renderer, and each renderer its own parser, whose parse cache is its own: every `$…$` of a figure
    (log-scale tick labels are too) was parsed twice with pyparsing, a quarter of the figure's drawing time. The
    parse depends only on the text, its font properties and dpi (the cache's key), so the drawing is the same;
    one figure at a time, so a figure's own rcParams never reach another's parses."""
    from matplotlib import textpath
    from matplotlib.mathtext import MathTextParser

    parser, own_init = MathTextParser("path"), textpath.TextToPath.__init__

    def init(self):
        own_init(self)
        self.mathtext_parser = parser
    textpath.TextToPath.__init__ = init
    try:
        yield
    finally:
        textpath.TextToPath.__init__ = own_init


GROUP = "lk-part-"  # the group id each axes (and the suptitle) gets in the drawing, to cut panels out by


def _save(fig) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return buffer.getvalue()


LEGIBLE_WIDTH = 6.4   # inches: the widest a panel is drawn (FigureMaker's default width; every figure is shown
#                       at the column's width, so a wider one would show its text and lines smaller than the rest)


def _legible(fig) -> None:
    """A figure drawn wider than LEGIBLE_WIDTH a panel (a notebook's `figsize=(12, 8)`) drawn at that width instead,
    its proportions kept: its text and lines, sized in points, then show as large as every other figure's, on a
    phone too, instead of half as large."""
    width, height = fig.get_size_inches()
    if width <= LEGIBLE_WIDTH:
        return
    groups = _panels(fig)
    if len(groups) > 1:   # side-by-side panels are shown one by one on a narrow screen: the widest counts
        spans = [max(a.get_position().x1 for a in g) - min(a.get_position().x0 for a in g) for g in groups]
        width = width * min(1.0, max(spans) * 1.2)   # (its labels and ticks beside it)
    if width > LEGIBLE_WIDTH:
        scale = LEGIBLE_WIDTH / width
        fig.set_size_inches(fig.get_figwidth() * scale, height * scale)


DENSE = 400            # facets, cells or hexagons of one artist beyond which it is drawn as a picture …
DENSE_POINTS = 8000    # … and points of a scatter cloud (beyond them its paths outweigh the page's raw budget)
SHOWN_PX = 720     # the widest a figure is shown on the page, in CSS pixels: its picture has twice as many (2× screens)


def _rasterize_dense(fig) -> bool:
    """Surfaces, meshes and hexagonal bins of more than DENSE elements, and scatter clouds of more than DENSE_POINTS,
    drawn as one picture inside the SVG (matplotlib's `rasterized=True` on that artist: axes, ticks and text stay
    vector): an 81 × 81 surface is ≈ 190 KB of paths, ≈ 20 KB as a picture. A field of arrows, lines or a smaller
    cloud stays vector: their paths repeat, and gzip makes them lighter than any picture of them (3 000 points:
    15 KB gzip as paths, 85 KB as a picture). True when some artist was."""
    found = False
    for ax in fig.axes:
        for artist in ax.collections:
            limit = PICTURE_BEYOND.get(type(artist).__name__)
            if limit is None:   # (arrows, lines: always paths)
                continue
            elements = max(len(artist.get_paths()), len(artist.get_offsets()),
                           artist.get_array().size if artist.get_array() is not None else 0)
            if elements > limit and not artist.get_rasterized():
                artist.set_rasterized(True)
                if type(artist).__name__ in EDGE_TO_EDGE:   # facets edge to edge: drawn without anti-aliasing no
                    artist.set_antialiased(False)            # seam shows between them (≈ 30 % of the bytes)
                found = True
    return found


PICTURE_BEYOND = {"Poly3DCollection": DENSE, "QuadMesh": DENSE, "PolyCollection": DENSE,   # surfaces, meshes, hexbin
                  "PathCollection": DENSE_POINTS}                                          # scatter clouds
EDGE_TO_EDGE = {"Poly3DCollection", "QuadMesh"}   # (hexagons' slanted edges without anti-aliasing: heavier, jagged)


@contextlib.contextmanager
def _raster_resolution(fig):
    """The resolution matplotlib rasterizes at while the SVG is written: twice SHOWN_PX across the figure's width,
    whatever its `figsize` (only when something is rasterized: the vector parts of an SVG do not depend on it, and
    figures without a picture stay byte for byte as they were)."""
    if fig is None:
        yield
        return
    import matplotlib

    with matplotlib.rc_context({"savefig.dpi": round(2 * SHOWN_PX / fig.get_figwidth())}):
        yield


def _viewed(svg: str, box, figure_height: float) -> str:
    """The drawing seen through `box` (inches, from the figure's bottom left): its size and viewBox, in pt."""
    x, y, w, h = box.x0 * 72, (figure_height - box.y1) * 72, box.width * 72, box.height * 72
    root = re.search(r"<svg\b[^>]*>", svg)
    tag = re.sub(r'\swidth="[^"]*"', f' width="{w:.3f}pt"', root.group(0), count=1)
    tag = re.sub(r'\sheight="[^"]*"', f' height="{h:.3f}pt"', tag, count=1)
    tag = re.sub(r'\sviewBox="[^"]*"', f' viewBox="{x:.3f} {y:.3f} {w:.3f} {h:.3f}"', tag, count=1)
    return svg[:root.start()] + tag + svg[root.end():]


def _without(svg: str, ids: set[str]) -> str:
    """The drawing without the groups of these ids — but with those definitions inside them that what is left
    uses (matplotlib defines a tick mark or a marker where it is first drawn, and other panels use it)."""
    out, moved, pos = [], [], 0
    for m in re.finditer(r'<g id="([^"]+)"', svg):
        if m.start() < pos or m.group(1) not in ids:
            continue
        end = _group_end(svg, m.start())
        out.append(svg[pos:m.start()])
        moved += re.findall(r"<defs>(.*?)</defs>", svg[m.start():end], flags=re.DOTALL)
        pos = end
    out.append(svg[pos:])
    left = "".join(out)
    used = [d for block in moved for d in re.findall(r"<[^<>]*/>", block)
            if (ref := re.search(r'\sid="([^"]+)"', d)) and re.search(f"#{re.escape(ref.group(1))}[\")]", left)]
    if not used:
        return left
    first = left.index(">", left.index("<svg")) + 1
    return left[:first] + "\n<defs>\n" + "\n".join(used) + "\n</defs>" + left[first:]


def _group_end(svg: str, start: int) -> int:
    """The end of the `<g>` element that starts at `start` (groups nest)."""
    depth = 0
    for m in re.compile(r"<g(?:\s[^>]*)?>|</g>").finditer(svg, start):
        tag = m.group(0)
        depth += -1 if tag == "</g>" else 0 if tag.endswith("/>") else 1
        if depth == 0:
            return m.end()
    raise ValueError("unbalanced <g> in matplotlib's SVG")


def _crop(fig, extents):
    """The union of display-space boxes, in inches, with a small margin."""
    from matplotlib.transforms import Bbox

    box = Bbox.union([e for e in extents if e is not None and e.width > 0 and e.height > 0])
    return box.transformed(fig.dpi_scale_trans.inverted()).padded(PANEL_PAD)


def _keep_colour_mapped(fig) -> None:
    """What a colour map coloured — a mesh, filled contours, a scatter by value — and the text written on an image,
    a mesh or filled contours (inside its extent, in data coordinates) keep their colours in dark mode: viridis
    stays viridis, a value written on a light cell stays dark on it. Each gets the gid svg.clean_svg writes out of
    the dark palette's reach. Rasters (an image, a colour bar's gradient, a surface as a picture) keep theirs
    anyway; frame, ticks, labels and lines still follow the page."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.transforms import Bbox

    marked = 0
    for ax in fig.axes:
        mapped = [c for c in ax.collections if isinstance(c, ScalarMappable) and c.get_array() is not None]
        if not mapped and not ax.images:
            continue
        areas = [c.get_datalim(ax.transData) for c in mapped if _covers_an_area(c)]   # (not a scatter's markers)
        for image in ax.images:
            left, right, bottom, top = image.get_extent()
            areas.append(Bbox.from_extents(min(left, right), min(bottom, top), max(left, right), max(bottom, top)))
        written_on = [text for text in ax.texts if text.get_transform() == ax.transData
                      and any(area.contains(*text.get_position()) for area in areas)]
        for artist in mapped + written_on:
            if artist.get_gid() is None:
                artist.set_gid(f"{KEEP_COLOURS}{marked}")
                marked += 1


def _covers_an_area(collection) -> bool:
    """A mesh or filled contours: text inside its extent is written on its colours (a scatter's is on the page)."""
    return type(collection).__name__ in ("QuadMesh", "PolyQuadMesh") or bool(getattr(collection, "filled", False))


def _transparent_background(fig) -> None:
    """Drop the white rectangles behind the figure and its axes: the page shows through, light or dark."""
    from matplotlib.colors import to_rgba

    for patch in [fig.patch] + [ax.patch for ax in fig.axes]:
        if to_rgba(patch.get_facecolor()) == (1.0, 1.0, 1.0, 1.0) and (
                patch.get_linewidth() == 0 or to_rgba(patch.get_edgecolor())[3] == 0):
            patch.set_visible(False)


def _panels(fig) -> list[list]:
    """The figure's axes grouped into panels (overlapping axes — twins, insets — stay together), left to right then
    top to bottom; one group when the figure has figure-level artists a panel cannot carry (legends, texts, a
    colorbar) or fewer than two groups."""
    axes = [ax for ax in fig.axes if ax.get_visible()]
    if (fig.legends or [t for t in fig.texts if t is not fig._suptitle] or fig.images or getattr(fig, "_supxlabel", None) or getattr(fig, "_supylabel", None)
            or any(hasattr(ax, "_colorbar") for ax in axes)):
        return [axes]
    groups: list[list] = []
    for ax in axes:
        box = ax.get_position()
        touching = [g for g in groups if any(box.overlaps(other.get_position()) for other in g)]
        merged = [ax] + [a for g in touching for a in g]
        groups = [g for g in groups if g not in touching] + [merged]
    order = sorted(groups, key=lambda g: (-round(max(a.get_position().y1 for a in g), 2),
                                          min(a.get_position().x0 for a in g)))
    return [sorted(g, key=fig.axes.index) for g in order]
