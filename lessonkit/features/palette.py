"""Dark mode for figures: each colour a figure draws gets a counterpart on the dark page, switched in by CSS."""
from __future__ import annotations

import functools
import math
import re

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


@functools.cache
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


def dark_palette(colors) -> dict[str, str]:
    """Each `#rrggbb` colour → its dark counterpart: made once per figure when it is drawn, and cached with it."""
    return {c: dark_counterpart(c) for c in sorted({c.lower() for c in colors})}


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


def figure_palette_css(colors) -> str:
    """palette_css of the given colours."""
    return palette_css(dark_palette(colors))


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
