"""Draw a lesson's figures with matplotlib and turn them into small, self-contained inline SVG.

matplotlib is imported only here, and only when a figure must really be drawn.
"""
from __future__ import annotations

import io
import math
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
SVG_PRECISION = 1
# Okabe–Ito, with its reddish purple darkened (#cc79a7 → #c0679a) to reach 3:1 against the light page
CYCLE = ("#0072b2", "#d55e00", "#009e73", "#c0679a", "#555555")
PANEL_PAD = 0.04  # inches of margin around each cropped panel


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
        _transparent_background(fig)
        fig.draw_without_rendering()  # lay out once (constrained layout): tick labels are known from here on
        data = figdata.record(fig)    # before the panels are cut out (that hides axes in turn)
        svg = _figure_markup(fig, name)
    glyphs = sorted({str(w.message) for w in caught if "Glyph" in str(w.message) and "missing" in str(w.message)})
    if glyphs:
        raise ContentError([Problem(path, line, f"figure `{name}`: {g}", f"text the font {font} can draw")
                            for g in glyphs])
    return svg, data


def _figure_markup(fig, name: str) -> str:
    """One SVG, or for a figure of several side-by-side axes one SVG per axes in a `figure-panels` box that wraps on
    a narrow screen (the suptitle as a strip above them). Each is cropped to what it draws, labels included."""
    fig.set_layout_engine("none")  # freeze the layout draw_figure made
    renderer = fig._get_renderer()
    panels = _panels(fig)
    if len(panels) < 2:
        return clean_svg(_save(fig, fig.get_tightbbox(renderer).padded(PANEL_PAD)), name)
    extras = [a for a in (fig._suptitle,) if a is not None and a.get_visible() and a.get_text()]
    visible = {ax: ax.get_visible() for ax in fig.axes}
    title, parts = "", []
    if extras:
        for ax in fig.axes:
            ax.set_visible(False)
        title = clean_svg(_save(fig, _crop(fig, [a.get_window_extent(renderer) for a in extras])),
                          f"{name}-t", sized=True, css_class="figure-panel-title") + "\n"
        for a in extras:
            a.set_visible(False)
    for i, group in enumerate(panels, start=1):
        for ax in fig.axes:
            ax.set_visible(visible[ax] and ax in group)
        box = _crop(fig, [ax.get_tightbbox(renderer) for ax in group])
        parts.append(clean_svg(_save(fig, box), f"{name}-{i}", sized=True, css_class="figure-panel"))
    return title + '<div class="figure-panels">\n' + "\n".join(parts) + "\n</div>"


def _save(fig, bbox) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches=bbox)
    return buffer.getvalue()


def _crop(fig, extents):
    """The union of display-space boxes, in inches, with a small margin."""
    from matplotlib.transforms import Bbox

    box = Bbox.union([e for e in extents if e is not None and e.width > 0 and e.height > 0])
    return box.transformed(fig.dpi_scale_trans.inverted()).padded(PANEL_PAD)


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


def clean_svg(svg: str, name: str, sized: bool = False, css_class: str = "") -> str:
    """Make matplotlib's SVG fit inline under a strict CSP: no XML prolog, no <style>, no style="…" attributes
    (a CSP without 'unsafe-inline' blocks both), ids only where referenced and unique per figure, scalable (a
    `sized` one keeps its width and height in pt as its natural size). The root carries the class FIGURE_CLASS,
    which the dark theme's colour rules (figure_palette_css) and the ink colour of its text hang on."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r"<defs>\s*<style[^>]*>.*?</style>\s*</defs>\s*", "", svg, flags=re.DOTALL)
    if sized:
        svg = re.sub(r'\s(width|height)="([\d.]+)pt"', lambda m: f' {m.group(1)}="{float(m.group(2)):.1f}pt"', svg,
                     count=2)
    else:
        svg = re.sub(r'\s(width|height)="[\d.]+pt"', "", svg, count=2)
    svg = re.sub(r' style="([^"]*)"', lambda m: _style_to_attributes(m.group(1)), svg)
    families = re.findall(r' font-family="([^"]*)"', svg)
    svg = re.sub(r' font-family="[^"]*"', "", svg)  # one family on the root, inherited by every <text>
    family = families[0] if families else "sans-serif"
    classes = " ".join(filter(None, (FIGURE_CLASS, css_class)))
    svg = svg.replace("<svg ", f'<svg class="{classes}" {ROOT_ATTRIBUTES} font-family="{family}" ', 1)
    svg = re.sub(r' transform="rotate\(-?0 [\d.]+ [\d.]+\)"', "", svg)
    svg = _unique_ids(svg, f"{name}-")
    svg = _round_numbers(svg)
    svg = re.sub(r' d="([^"]*)"', lambda m: f' d="{_compact_path(m.group(1))}"', svg)
    svg = re.sub(r"<clipPath>.*?</clipPath>", "", svg, flags=re.DOTALL)  # lost its id: nothing refers to it
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.DOTALL)  # matplotlib notes the mathtext source of labels
    svg = svg.replace(' version="1.1"', "", 1)
    svg = _hoist_text_size(svg)
    svg = _lean_uses(svg)
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


_ATTRIBUTE = re.compile(r'\s([\w:-]+)="([^"]*)"')


def _lean_uses(svg: str) -> str:
    """A `<use>` (tick marks, markers) repeats the presentation attributes its referenced element already has,
    which win anyway: drop them. And SVG 2's `href` instead of `xlink:href` (every current browser)."""
    defined = {}
    for m in re.finditer(r'<(?:path|g)\s[^>]*\bid="([^"]+)"[^>]*>', svg):
        defined[m.group(1)] = {k: v for k, v in _ATTRIBUTE.findall(m.group(0)) if k in SVG_PROPERTIES}

    def lean(m: re.Match) -> str:
        tag = m.group(0)
        ref = re.search(r'href="#([^"]+)"', tag)
        same = defined.get(ref.group(1), {}) if ref else {}
        return _ATTRIBUTE.sub(lambda a: "" if same.get(a.group(1)) == a.group(2) else a.group(0), tag)

    svg = re.sub(r"<use\s[^>]*>", lean, svg)
    svg = svg.replace("xlink:href=", "href=")
    return svg.replace(' xmlns:xlink="http://www.w3.org/1999/xlink"', "", 1) if "xlink:" not in svg else svg


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


# ── colours for dark mode ───────────────────────────────────────────────────────────────────────────────────────────
# A figure is drawn once, in the author's colours, which light mode and print show as drawn (presentation
# attributes). For dark mode each colour gets a counterpart computed here, switched in by CSS custom properties:
# CSS rules win over presentation attributes, so `[fill="#0072b2"]{fill:var(--fig-0072b2,#0072b2)}` is the
# author's colour until the dark theme defines the property. The counterpart keeps the hue and has the same WCAG
# contrast against the dark page as the colour has against the light page (so a line that reads on the light page
# reads as well on the dark one, and a pale fill stays a pale fill). The luminance map (Y' + .05)·(Y + .05) = k
# preserves the contrast ratio between ANY two colours too — dark text on a light cell stays readable.
# Keep in step with themes/default/assets/style.css (tests/test_figure_colors.py checks).
LIGHT_BG = "#fbfaf6"     # --bg, light
DARK_BG = "#15171a"      # --bg, dark
DARK_FG = "#e2e5e9"      # --fg, dark: the lightest ink a figure gets (black text and axes map to it)
FIGURE_CLASS = "lk-figure"
HEX_COLOR = re.compile(r'\b(?:fill|stroke)="(#[0-9a-f]{6})"')


def relative_luminance(color: str) -> float:
    """WCAG 2.x relative luminance of `#rrggbb`."""
    return _luminance(_linear_rgb(color))


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio, 1 … 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def dark_counterpart(color: str) -> str:
    """The colour's stand-in on the dark page: same hue (OKLCH), contrast against DARK_BG equal to its contrast
    against LIGHT_BG, at most as light as DARK_FG. Rounded to #rrggbb so that it never loses contrast."""
    y_light, y_dark, y_max = (relative_luminance(c) for c in (LIGHT_BG, DARK_BG, DARK_FG))
    y = relative_luminance(color)
    k = (y_light + 0.05) * (y_dark + 0.05)
    target = min(max(k / (y + 0.05) - 0.05, 0.0), y_max)
    lab = _oklab(_linear_rgb(color))
    chroma, hue = math.hypot(lab[1], lab[2]), math.atan2(lab[2], lab[1])

    def rgb_at(lightness: float) -> tuple[float, float, float]:
        lo, hi = 0.0, chroma  # the most chroma, up to the colour's own, that stays inside sRGB at this lightness
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _in_gamut(_oklab_to_linear((lightness, mid * math.cos(hue), mid * math.sin(hue)))) \
                else (lo, mid)
        return _oklab_to_linear((lightness, lo * math.cos(hue), lo * math.sin(hue)))

    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _luminance(rgb_at(mid)) < target else (lo, mid)
    out = _hex(rgb_at(hi))
    # rounding to 8 bits may cost a hair of contrast: step away from the background until it does not
    wanted = min(contrast(color, LIGHT_BG), contrast(DARK_FG, DARK_BG))
    step = 1 if target >= y_dark else -1
    for _ in range(255):
        if contrast(out, DARK_BG) >= wanted - 1e-9:
            break
        out = "#" + "".join(f"{min(255, max(0, int(out[i:i + 2], 16) + step)):02x}" for i in (1, 3, 5))
    return out


def figure_colors(markup: str) -> list[str]:
    """The `#rrggbb` colours of fill and stroke attributes in a page's (or an SVG's) markup, sorted."""
    return sorted(set(HEX_COLOR.findall(markup)))


def figure_palette_css(colors) -> str:
    """CSS that switches the given figure colours to their dark counterparts in the dark theme (screen only: print
    is always light). The engine appends it to the page's <style>, for the colours of the figures on that page."""
    colors = sorted({c.lower() for c in colors})
    if not colors:
        return ""
    rules = "".join(f'.{FIGURE_CLASS} [{prop}="{c}"]{{{prop}:var(--fig-{c[1:]},{c})}}'
                    for c in colors for prop in ("fill", "stroke"))
    props = "".join(f"--fig-{c[1:]}:{dark_counterpart(c)};" for c in colors)
    return (f"{rules}\n@media screen and (prefers-color-scheme:dark){{html:not([data-theme=light]){{{props}}}}}\n"
            f"@media screen{{html[data-theme=dark]{{{props}}}}}\n")


def _linear_rgb(color: str) -> tuple[float, float, float]:
    return tuple(_to_linear(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _from_linear(c: float) -> float:
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _luminance(rgb) -> float:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(min(1.0, max(0.0, _from_linear(c))) * 255):02x}" for c in rgb)


def _in_gamut(rgb) -> bool:
    return all(-1e-7 <= c <= 1 + 1e-7 for c in rgb)


def _oklab(rgb) -> tuple[float, float, float]:
    r, g, b = rgb
    l_ = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m_ = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s_ = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
            1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
            0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)


def _oklab_to_linear(lab) -> tuple[float, float, float]:
    L, a, b = lab
    l_ = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3
    m_ = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3
    s_ = (L - 0.0894841775 * a - 1.2914855480 * b) ** 3
    return (4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
            -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
            -0.0041960863 * l_ - 0.7034186168 * m_ + 1.7076147010 * s_)
