"""Dark mode for figures: each colour a figure draws gets a counterpart on the dark page, switched in by CSS.
numpy is imported by the functions that compute colours, not here: a rebuild of a lesson's text reads only the
page's colours."""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (imported where colours are computed)
    import numpy as np

from ..support.errors import ContentError, Problem
from ..support.messages import msg
from ..support.paths import BUILTIN_THEMES
from ..support.records import Record

# A figure is drawn once, in the author's colours, which light mode and print show as drawn (presentation
# attributes). For dark mode each colour gets a counterpart computed here, switched in by CSS custom properties:
# CSS rules win over presentation attributes, so `[fill="#0072b2"]{fill:var(--fig-0072b2,#0072b2)}` is the
# author's colour until the dark theme defines the property. The counterpart keeps the hue and has the same WCAG
# contrast against the dark page as the colour has against the light page (so a line that reads on the light page
# reads as well on the dark one, and a pale fill stays a pale fill). The luminance map (Y' + .05)·(Y + .05) = k
# preserves the contrast ratio between ANY two colours too — dark text on a light cell stays readable.
# The pages' colours are the theme's: read from its assets/style.css (page_colors), never copied here.
LIGHT_PAGE = ":root"                  # the rule whose custom properties are the light page's
DARK_PAGE = "html[data-theme=dark]"   # the dark page's (chosen; the system's dark mode repeats it)
PAGE_PROPERTIES = {"light_bg": (LIGHT_PAGE, "--bg"), "dark_bg": (DARK_PAGE, "--bg"), "dark_fg": (DARK_PAGE, "--fg")}
FIGURE_CLASS = "lk-figure"
# What a colour map coloured keeps its colours (draw/figures.py marks it, draw/svg.py writes its colours where
# these rules do not reach): a colour map is data, viridis stays viridis. A raster keeps its colours as well.
RASTER_PIXELATED = "lk-pixelated"  # a raster drawn square pixel by pixel (imshow's interpolation="none")
RASTER_MAX_COLORS = 4096  # more colours than any colour map has: a photograph (draw/pictures.py)
# bisection steps: the result is rounded to 8 bits a channel (1/255), which 2⁻²⁴ of lightness and 2⁻²⁰ of the
# chroma range resolve many times over; a fixed count keeps a colour's counterpart the same in any batch
LIGHTNESS_STEPS, CHROMA_STEPS = 24, 20
HEX_COLOR = re.compile(r'\b(?:fill|stroke)="(#[0-9a-f]{6})"')
# a rule with no rule inside: its selectors (everything since the brace before) and its declarations. Tried only at
# the text's start and after a brace, with no backtracking into the runs: tried everywhere, a failed try (an @media
# block's head) scanned on to the next brace from each character again, 15 ms for the built-in style.css
INNERMOST_RULE = re.compile(r"(?:^|(?<=[{}]))([^{}]*+)\{([^{}]*+)\}")


class PageColors(Record):
    """The page colours a figure's dark counterparts are computed against, each `#rrggbb`: the light page's
    background, the dark page's background, and the dark page's text (the lightest ink a figure gets: black text
    and axes map to it)."""
    light_bg: str
    dark_bg: str
    dark_fg: str


def page_colors(css_path: Path) -> PageColors:
    """The page colours a theme's style.css sets (PAGE_PROPERTIES: `--bg` of `:root`, `--bg` and `--fg` of
    `html[data-theme=dark]`, inside @media or not, the last one set winning as in CSS). ContentError naming the
    file (and the line of a value that is not one) when one is not set as a `#rgb` or `#rrggbb` colour."""
    text = css_path.read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.DOTALL)  # lines kept
    declared: dict[str, dict[str, tuple[str, int]]] = {LIGHT_PAGE: {}, DARK_PAGE: {}}  # property → value, line
    for rule in INNERMOST_RULE.finditer(css):
        for selector in {s.strip().replace('"', "").replace("'", "") for s in rule.group(1).split(",")} & set(declared):
            for d in re.finditer(r"(--[\w-]+)\s*:\s*([^;]*?)\s*(?:;|$)", rule.group(2)):
                declared[selector][d.group(1)] = d.group(2), css.count("\n", 0, rule.start(2) + d.start()) + 1
    found, problems = {}, []
    for name, (selector, prop) in PAGE_PROPERTIES.items():
        value, line = declared[selector].get(prop, ("", None))
        if re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}", value):
            found[name] = "#" + (value[1:] if len(value) == 7 else "".join(c * 2 for c in value[1:])).lower()
        else:
            problems.append(Problem(css_path, line, msg("no page colour {property} in `{selector}{…}`: the figures' "
                                                        "dark colours are computed against it",
                                                        property=prop, selector=selector),
                                    msg("`{property}: #rrggbb` (found: {value})", property=prop,
                                        value=value or msg("none"))))
    if problems:
        raise ContentError(problems)
    return PageColors(**found)


@functools.cache
def builtin_page_colors() -> PageColors:
    """The built-in theme's page colours."""
    return page_colors(BUILTIN_THEMES / "default" / "assets" / "style.css")


def relative_luminance(color: str) -> float:
    """WCAG 2.x relative luminance of `#rrggbb`."""
    return _luminance(_linear_rgb(color))


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio, 1 … 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@functools.cache
def dark_counterpart(color: str, page: PageColors) -> str:
    """The colour's stand-in on the dark page: same hue (OKLCH), contrast against the dark background equal to its
    contrast against the light one, at most as light as the dark page's text. Rounded to #rrggbb so that it never
    loses contrast."""
    return dark_counterparts([color], page)[0]


def dark_counterparts(colors, page: PageColors) -> list[str]:
    """dark_counterpart of each `#rrggbb` colour, all at once (numpy; a raster's hundreds of colours in a blink). The
    one computation of a counterpart: a colour gets the same one alone (a line, a cell) or among a raster's pixels."""
    import numpy as np

    y_light, y_dark, y_max = _luminance_array(_linear_array(_rgb8([page.light_bg, page.dark_bg, page.dark_fg])))
    linear = _linear_array(_rgb8(colors))
    y = _luminance_array(linear)
    k = (y_light + 0.05) * (y_dark + 0.05)
    target = np.clip(k / (y + 0.05) - 0.05, 0.0, y_max)
    lab = _oklab_array(linear)
    chroma = np.sqrt(lab[:, 1] ** 2 + lab[:, 2] ** 2)
    towards_a = np.divide(lab[:, 1], chroma, out=np.zeros_like(chroma), where=chroma > 0)  # the hue, as a direction
    towards_b = np.divide(lab[:, 2], chroma, out=np.zeros_like(chroma), where=chroma > 0)

    def rgb_at(lightness):
        lo, hi = np.zeros_like(chroma), chroma.copy()  # the most chroma, up to the colour's own, inside sRGB
        for _ in range(CHROMA_STEPS):
            mid = (lo + hi) / 2
            rgb = _oklab_to_linear_array(lightness, mid * towards_a, mid * towards_b)
            inside = np.all((rgb >= -1e-7) & (rgb <= 1 + 1e-7), axis=1)
            lo, hi = np.where(inside, mid, lo), np.where(inside, hi, mid)
        return _oklab_to_linear_array(lightness, lo * towards_a, lo * towards_b)

    lo, hi = np.zeros_like(y), np.ones_like(y)
    for _ in range(LIGHTNESS_STEPS):
        mid = (lo + hi) / 2
        below = _luminance_array(rgb_at(mid)) < target
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    rgb = np.clip(rgb_at(hi), 0.0, 1.0)
    out = np.round(np.where(rgb <= 0.0031308, 12.92 * rgb, 1.055 * rgb ** (1 / 2.4) - 0.055) * 255)
    # rounding to 8 bits may cost a hair of contrast: step away from the background until it does not
    light_ratio = (np.maximum(y, y_light) + 0.05) / (np.minimum(y, y_light) + 0.05)
    wanted = np.minimum(light_ratio, (y_max + 0.05) / (y_dark + 0.05))
    step = np.where(target >= y_dark, 1, -1)[:, None]
    for _ in range(255):
        y_out = _luminance_array(_linear_array(out))
        short = (np.maximum(y_out, y_dark) + 0.05) / (np.minimum(y_out, y_dark) + 0.05) < wanted - 1e-9
        if not short.any():
            break
        out = np.where(short[:, None], np.clip(out + step, 0, 255), out)
    return ["#%02x%02x%02x" % tuple(int(v) for v in row) for row in out]


def figure_colors(markup: str) -> list[str]:
    """The `#rrggbb` colours of fill and stroke attributes in a page's (or an SVG's) markup, sorted."""
    return sorted(set(HEX_COLOR.findall(markup)))


def dark_palette(colors, page: PageColors) -> dict[str, str]:
    """Each `#rrggbb` colour → its dark counterpart: made when figures are drawn, for all of a build's new figures
    at once (draw.drawing.with_palettes), and cached with each figure."""
    chosen = sorted({c.lower() for c in colors})
    return dict(zip(chosen, dark_counterparts(chosen, page))) if chosen else {}


def palette_css(palette: dict[str, str]) -> str:
    """CSS that switches figure colours to their dark counterparts in the dark theme (screen only: print is always
    light). Assembly appends it to a page's <style>, for the colours of the figures on that page."""
    if not palette:
        return ""
    colors = sorted(palette)
    rules = "".join(f'.{FIGURE_CLASS} [{prop}="{c}"]{{{prop}:var(--fig-{c[1:]},{c})}}'
                    for c in colors for prop in ("fill", "stroke"))
    props = "".join(f"--fig-{c[1:]}:{palette[c]};" for c in colors)
    return (f"{rules}\n@media screen and (prefers-color-scheme:dark){{html:not([data-theme=light]){{{props}}}}}\n"
            f"@media screen{{html[data-theme=dark]{{{props}}}}}\n")


def raster_css() -> str:
    """Square pixels where a figure asks for them; only on pages whose figures have such a raster."""
    return f".{RASTER_PIXELATED}{{image-rendering:pixelated}}\n"


def figure_palette_css(colors, page: PageColors) -> str:
    """palette_css of the given colours."""
    return palette_css(dark_palette(colors, page))


def _linear_rgb(color: str) -> tuple[float, float, float]:
    return tuple(_to_linear(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance(rgb) -> float:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _rgb8(colors) -> np.ndarray:
    import numpy as np
    return np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] for c in colors], dtype=float).reshape(-1, 3)


def _linear_array(rgb8: np.ndarray) -> np.ndarray:
    import numpy as np
    c = rgb8 / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _times(matrix, columns) -> np.ndarray:
    """Each row of a 3 × 3 matrix times the columns, term by term: elementwise operations give each colour the same
    result whatever else is computed with it (a matrix product may round differently with the array's length)."""
    import numpy as np
    x, y, z = columns
    return np.stack([a * x + b * y + c * z for a, b, c in matrix], axis=-1)


def _luminance_array(rgb: np.ndarray) -> np.ndarray:
    return 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]


def _oklab_array(rgb: np.ndarray) -> np.ndarray:
    lms = _times(((0.4122214708, 0.5363325363, 0.0514459929), (0.2119034982, 0.6806995451, 0.1073969566),
                  (0.0883024619, 0.2817188376, 0.6299787005)), rgb.T) ** (1 / 3)
    return _times(((0.2104542553, 0.7936177850, -0.0040720468), (1.9779984951, -2.4285922050, 0.4505937099),
                   (0.0259040371, 0.7827717662, -0.8086757660)), lms.T)


def _oklab_to_linear_array(lightness, a, b) -> np.ndarray:
    lms = _times(((1, 0.3963377774, 0.2158037573), (1, -0.1055613458, -0.0638541728),
                  (1, -0.0894841775, -1.2914855480)), (lightness, a, b)) ** 3
    return _times(((4.0767416621, -3.3077115913, 0.2309699292), (-1.2684380046, 2.6097574011, -0.3413193965),
                   (-0.0041960863, -0.7034186168, 1.7076147010)), lms.T)
