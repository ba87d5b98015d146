"""Draw a lesson's figures with matplotlib and turn them into small, self-contained inline SVG.

matplotlib is imported only here, and only when a figure must really be drawn.
"""
from __future__ import annotations

import io
import re
import warnings
from pathlib import Path
from typing import Any

from .errors import ContentError, Problem

CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "PingFang SC", "Microsoft YaHei",
             "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Noto Sans CJK JP", "Source Han Sans", "Heiti SC")
INSTALL_HINT = ("no Chinese (CJK) font found for the figures. Install one, e.g. on Debian/Ubuntu "
                "`sudo apt-get install fonts-noto-cjk`, on macOS/Windows a system font (PingFang SC / Microsoft YaHei) "
                "is found automatically; then delete matplotlib's font cache (`rm ~/.cache/matplotlib/fontlist-*.json`)")
SVG_PRECISION = 2


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

    from .cache import FontChoice

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
        "font.size": 10,
        "axes.titlesize": 10.5,
        "axes.labelsize": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.unicode_minus": True,
        "axes.prop_cycle": __import__("cycler").cycler(color=["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#555555"]),
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


def draw_svg(name: str, func, args: list[Any], font: str, path: Path, line: int | None) -> str:
    """Run one figure function and return its SVG, with ids made unique for `name`."""
    return draw_figure(name, func, args, font, path, line)[0]


def draw_figure(name: str, func, args: list[Any], font: str, path: Path, line: int | None) -> tuple[str, dict]:
    """Run one figure function: its SVG (ids unique for `name`) and the numbers it plots (lessonkit.figdata)."""
    import matplotlib

    from . import figdata

    with matplotlib.rc_context(style(font)), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fig = func(FigureMaker(), *args)
        except ContentError:
            raise
        except Exception as exc:
            from .compute import _problem_from_exception
            raise ContentError([_problem_from_exception(path, exc)]) from None
        if fig is None or not hasattr(fig, "savefig"):
            raise ContentError([Problem(path, line, f"figure `{name}` returned {type(fig).__name__}",
                                        "the matplotlib Figure from plt.subplots()")])
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        data = figdata.record(fig)  # after drawing, when the tick labels are known
    glyphs = sorted({str(w.message) for w in caught if "Glyph" in str(w.message) and "missing" in str(w.message)})
    if glyphs:
        raise ContentError([Problem(path, line, f"figure `{name}`: {g}", f"text the font {font} can draw")
                            for g in glyphs])
    return clean_svg(buffer.getvalue(), name), data


def clean_svg(svg: str, name: str) -> str:
    """Make matplotlib's SVG fit inline under a strict CSP: no XML prolog, no <style>, no style="…" attributes
    (a CSP without 'unsafe-inline' blocks both), ids only where referenced and unique per figure, scalable."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r"<defs>\s*<style[^>]*>.*?</style>\s*</defs>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r'\s(width|height)="[\d.]+pt"', "", svg, count=2)
    svg = re.sub(r' style="([^"]*)"', lambda m: _style_to_attributes(m.group(1)), svg)
    families = re.findall(r' font-family="([^"]*)"', svg)
    svg = re.sub(r' font-family="[^"]*"', "", svg)  # one family on the root, inherited by every <text>
    family = families[0] if families else "sans-serif"
    svg = svg.replace("<svg ", f'<svg {ROOT_ATTRIBUTES} font-family="{family}" ', 1)
    svg = re.sub(r' transform="rotate\(-?0 [\d.]+ [\d.]+\)"', "", svg)
    svg = _unique_ids(svg, f"{name}-")
    svg = _round_numbers(svg)
    svg = re.sub(r' d="([^"]*)"', lambda m: f' d="{_compact_path(m.group(1))}"', svg)
    svg = re.sub(r"<clipPath>.*?</clipPath>", "", svg, flags=re.DOTALL)  # lost its id: nothing refers to it
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.DOTALL)  # matplotlib notes the mathtext source of labels
    svg = svg.replace(' version="1.1"', "", 1)
    svg = _hoist_text_size(svg)
    svg = re.sub(r"\s*\n\s*", "\n", svg)
    svg = re.sub(r"<defs>\s*</defs>\n?", "", svg)
    return _unwrap_bare_groups(svg).strip()


# matplotlib's <style> said `*{stroke-linejoin: round; stroke-linecap: butt}`: inherited attributes say the same
ROOT_ATTRIBUTES = 'stroke-linejoin="round" stroke-linecap="butt"'
SVG_PROPERTIES = {"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
                  "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "stroke-miterlimit", "opacity",
                  "font-size", "font-family", "font-style", "font-weight", "font-stretch", "font-variant",
                  "text-anchor", "clip-path",
                  "dominant-baseline", "display", "visibility"}


def _style_to_attributes(style: str) -> str:
    attributes = []
    for declaration in filter(None, (d.strip() for d in style.split(";"))):
        prop, _, value = (part.strip() for part in declaration.partition(":"))
        if prop not in SVG_PROPERTIES:  # our bug: extend the table, don't ship a style attribute
            raise ValueError(f"SVG style property {prop!r} has no presentation attribute mapping")
        attributes.append(f' {prop}="{value.replace(chr(34), chr(39))}"')
    return "".join(attributes)


def _unique_ids(svg: str, prefix: str) -> str:
    """Keep only ids something refers to, prefixed so several inlined figures never share one."""
    referenced = set(re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', svg))
    referenced = {a or b for a, b in referenced}
    svg = re.sub(r'\sid="([^"]+)"', lambda m: f' id="{prefix}{m.group(1)}"' if m.group(1) in referenced else "", svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)
    return re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}{m.group(1)}"', svg)


def _compact_path(d: str) -> str:
    """`M 44.5 27.36 \nL 77.5 27.36 \nz` → `M44.5 27.36L77.5 27.36z`: the path grammar needs no space next to a
    command letter, nor before a minus sign."""
    d = re.sub(r"\s+", " ", d).strip()
    d = re.sub(r" ?([MLHVCSQTAZmlhvcsqtaz]) ?", r"\1", d)
    return d.replace(" -", "-")


def _hoist_text_size(svg: str) -> str:
    """The most common font-size of <text> elements once on the root, which they inherit from (matplotlib never sets
    a font-size on a <g>); <tspan>s keep theirs, as their <text> parent may have another size."""
    sizes = re.findall(r'<text\b[^>]*? font-size="([^"]+)"', svg)
    if not sizes:
        return svg
    common = max(sorted(set(sizes)), key=sizes.count)
    svg = re.sub(r'(<text\b[^>]*?) font-size="' + re.escape(common) + '"', r"\1", svg)
    return svg.replace("<svg ", f'<svg font-size="{common}" ', 1)


def _unwrap_bare_groups(svg: str) -> str:
    """Drop `<g>` wrappers without attributes (matplotlib's, once their ids are gone): they change nothing."""
    out, kept, pos = [], [], 0
    for m in re.finditer(r"<g(\s[^>]*)?>|</g>", svg):
        out.append(svg[pos:m.start()])
        pos = m.end()
        tag = m.group(0)
        if tag == "</g>":
            if kept.pop():
                out.append(tag)
            else:
                pos += svg.startswith("\n", pos)  # its line break too
        else:
            bare = m.group(1) is None or not m.group(1).strip()
            kept.append(not bare)
            if bare:
                pos += svg.startswith("\n", pos)
            else:
                out.append(tag)
    out.append(svg[pos:])
    return "".join(out)


def _round_numbers(svg: str) -> str:
    """Trim coordinates to SVG_PRECISION decimals: invisible at screen and print sizes, a third of the bytes."""
    def trim(m: re.Match) -> str:
        text = f"{float(m.group(0)):.{SVG_PRECISION}f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    def in_attr(m: re.Match) -> str:
        return m.group(1) + re.sub(r"-?\d+\.\d+", trim, m.group(2)) + m.group(3)

    return re.sub(r'(\s(?:d|points|transform|x|y|x1|x2|y1|y2|width|height|viewBox|style)=")([^"]*)(")', in_attr, svg)
