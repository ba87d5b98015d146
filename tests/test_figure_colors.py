"""Dark mode for figures: every colour a figure uses gets a dark counterpart that reads on the dark page as well as the
colour reads on the light page; lines and text reach 3:1 in both modes. Contrast is computed here from the WCAG 2.x
formula, independently of lessonkit.draw.figures."""
from __future__ import annotations

import re


import pytest

from lessonkit.draw.figures import CYCLE
from lessonkit.features.palette import PageColors, builtin_page_colors, dark_counterpart, figure_colors
from lessonkit.features.palette import figure_palette_css
from lessonkit.support.paths import BUILTIN_THEMES

STYLE = BUILTIN_THEMES / "default" / "assets" / "style.css"
PAGE = builtin_page_colors()  # what the build computes the built-in theme's dark colours against


def channel(c8: int) -> float:
    c = c8 / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(hex_color: str) -> float:
    r, g, b = (channel(int(hex_color[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def theme_variables(css: str) -> tuple[dict[str, str], dict[str, str]]:
    """(light, dark) custom properties of the theme: :root, and the html[data-theme=dark] block."""
    light = dict(re.findall(r"--([\w-]+):(#[0-9a-f]{3,6})", re.search(r":root\{([^}]*)\}", css).group(1)))
    dark_block = re.search(r"html\[data-theme=dark\]\{([^}]*)\}", css).group(1)
    dark = dict(re.findall(r"--([\w-]+):(#[0-9a-f]{3,6})", dark_block))
    return light, dark


LIGHT, DARK = theme_variables(STYLE.read_text(encoding="utf-8"))
LIGHT_BG, DARK_BG = LIGHT["bg"], DARK["bg"]


def test_theme_backgrounds_are_the_ones_the_colours_are_computed_against():
    assert PAGE == PageColors(light_bg=LIGHT["bg"], dark_bg=DARK["bg"], dark_fg=DARK["fg"])
    assert DARK["fig-ink"] == dark_counterpart("#000000", PAGE)  # unfilled text = black lines


def test_system_dark_and_chosen_dark_are_the_same_theme_and_screen_only():
    css = STYLE.read_text(encoding="utf-8")
    system = re.search(r"@media screen and \(prefers-color-scheme:dark\)\{html:not\(\[data-theme=light\]\)\{([^}]*)\}",
                       css).group(1)
    chosen = re.search(r"@media screen\{html\[data-theme=dark\]\{([^}]*)\}", css).group(1)
    assert system == chosen


INK = ["#000000", "#262626", "#333333", "#555555", "#808080"]


@pytest.mark.parametrize("color", list(CYCLE) + INK)
def test_cycle_and_ink_reach_3_to_1_in_both_modes(color):
    assert ratio(color, LIGHT_BG) >= 3, f"{color} on the light page"
    dark = dark_counterpart(color, PAGE)
    assert ratio(dark, DARK_BG) >= 3, f"{color} → {dark} on the dark page"


OKABE_ITO_AND_MORE = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#08306b",
                      "#888888", "#eeeeee", "#ffffff", "#ff0000", "#00ff00", "#0000ff", "#1f77b4", "#ff7f0e",
                      "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


@pytest.mark.parametrize("color", OKABE_ITO_AND_MORE + list(CYCLE) + INK)
def test_dark_counterpart_keeps_the_contrast_with_the_page(color):
    light, dark = ratio(color, LIGHT_BG), ratio(dark_counterpart(color, PAGE), DARK_BG)
    assert dark >= min(light, 3.0)                       # never harder to see; 3:1 whenever it was
    assert dark == pytest.approx(light, rel=0.06) or dark >= 3  # a pale fill stays pale, a line stays a line
    if light >= 3:
        assert luminance(dark_counterpart(color, PAGE)) > luminance(DARK_BG), "a line: lighter than the dark page"


def test_colours_on_top_of_each_other_keep_their_contrast():
    """Navy ✓ on a sky-blue cell, grey × on a pale grey cell: what reads in light mode reads in dark mode."""
    for text, cell in (("#08306b", "#56b4e9"), ("#888888", "#eeeeee"), ("#d55e00", "#e69f00")):
        light = ratio(text, cell)
        dark = ratio(dark_counterpart(text, PAGE), dark_counterpart(cell, PAGE))
        assert dark >= min(light, 3.0) * 0.97, (text, cell, light, dark)


def test_dark_counterpart_keeps_the_hue():
    import colorsys

    for color in ("#0072b2", "#d55e00", "#009e73", "#e69f00"):
        def hue(c):
            return colorsys.rgb_to_hls(*(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)))[0] * 360
        diff = abs(hue(color) - hue(dark_counterpart(color, PAGE))) % 360
        assert min(diff, 360 - diff) < 15, color


def test_palette_css_switches_every_colour_by_attribute_in_dark_screen_mode_only():
    css = figure_palette_css(["#0072B2", "#000000", "#0072b2"], PAGE)
    assert css.count('[fill="#0072b2"]') == 1 and css.count('[stroke="#000000"]') == 1
    assert "fill:var(--fig-0072b2,#0072b2)" in css  # the author's colour until the dark theme defines it
    dark = dark_counterpart("#0072b2", PAGE)
    assert css.count(f"--fig-0072b2:{dark};") == 2
    assert "@media screen and (prefers-color-scheme:dark){html:not([data-theme=light])" in css
    assert "@media screen{html[data-theme=dark]" in css
    assert figure_palette_css([], PAGE) == ""


def test_figure_colors_reads_fill_and_stroke_attributes():
    svg = '<svg><path fill="#0072b2" stroke="#000000"/><path fill="none" stroke="url(#p)"/><rect fill="#eeeeee"/></svg>'
    assert figure_colors(svg) == ["#000000", "#0072b2", "#eeeeee"]


def test_every_colour_of_the_built_lessons_figures_reads_in_dark_mode(built_figures):
    """Over every lesson in content/: each stroke or text colour reads at 3:1 in dark mode if it does in light mode,
    and nothing becomes harder to see."""
    for name, svg in built_figures.items():
        for color in figure_colors(svg):
            light, dark = ratio(color, LIGHT_BG), ratio(dark_counterpart(color, PAGE), DARK_BG)
            assert dark >= min(light, 3.0), (name, color)


@pytest.fixture(scope="module")
def built_figures(real_site) -> dict[str, str]:
    out = real_site     # content/ built once per run (tests/conftest.py)
    found = {}
    for page in out.glob("*/index.html"):
        for fid, body in re.findall(r'<figure id="([^"]+)".*?>(.*?)</figure>', page.read_text("utf-8"), re.S):
            found[f"{page.parent.name}#{fid}"] = body
    if not found:
        pytest.skip("no lesson in content/ has a figure")
    return found


# A course's own theme sets its page colours in its style.css: its figures' dark colours follow them. Worked by hand,
# for grey pages: the light page's own colour has contrast 1 with the light page, so on the dark page it is the dark
# page's colour; black ink reads on the light page as well as anything can, so on the dark page it is as light as
# ink gets there, the dark page's text colour.
PAGE_SQUARE_PY = """\
import numpy as np
from matplotlib.patches import Rectangle

from lessonkit import Lesson

lesson = Lesson()


@lesson.figure(caption="页面色的方块", alt="一个页面底色的方块，一个字，一张两格的小图")
def square(plt):
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.add_patch(Rectangle((0, 0), 1, 0.5, facecolor="#f0f0f0", edgecolor="none"))
    ax.imshow(np.array([[[240, 240, 240], [0, 0, 0]]], dtype=np.uint8), extent=(0, 1, 0.5, 1), interpolation="none")
    ax.text(0.5, 0.25, "字", color="#000000")
    ax.set(xlim=(0, 1), ylim=(0, 1))
    return fig
"""
SQUARE_MD = "## 方块 {#square}\n\n{{< figure square >}}\n"
GREY_THEME_CSS = """\
/* a course's theme: grey pages */
:root{--bg:#f0f0f0;--fg:#111}
@media screen{html[data-theme=dark]{--bg:#202020;--fg:#d0d0d0}}
"""


def dark_colours_of(page: str) -> dict[str, str]:
    """The page's dark-mode figure colours, `#light` → `#dark`, from its `--fig-RRGGBB` custom properties."""
    block = re.search(r"html\[data-theme=dark\]\{(--fig-[^}]*)\}", page).group(1)
    return {f"#{light}": dark for light, dark in re.findall(r"--fig-([0-9a-f]{6}):(#[0-9a-f]{6})", block)}


def raster_colours(page: str) -> list[set[str]]:
    """The colours of the pixels of each raster on the page."""
    import base64
    import io

    import numpy as np
    from PIL import Image

    found = []
    for uri in re.findall(r'<image\b[^>]*href="data:image/(?:png|webp);base64,([^"]+)"', page):
        rgba = np.asarray(Image.open(io.BytesIO(base64.b64decode(uri))).convert("RGBA")).reshape(-1, 4)
        found.append({"#%02x%02x%02x" % tuple(int(c) for c in p[:3]) for p in rgba if p[3]})
    return found


def test_a_custom_themes_page_colours_are_the_ones_its_figures_dark_colours_follow(make_lesson, run_build, tmp_path):
    make_lesson(md=SQUARE_MD, py=PAGE_SQUARE_PY)
    (tmp_path / "themes" / "grey" / "assets").mkdir(parents=True)
    (tmp_path / "themes" / "grey" / "assets" / "style.css").write_text(GREY_THEME_CSS, encoding="utf-8")
    code, _, err, out = run_build("--theme", "grey")
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    dark = dark_colours_of(page)
    assert dark["#f0f0f0"] == "#202020" and dark["#000000"] == "#d0d0d0"
    assert raster_colours(page) == [{"#f0f0f0", "#000000"}]   # the image: its own colours in both modes

    code, _, err, out = run_build(out=tmp_path / "default")  # the same cache: the built-in theme's own colours
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert dark_colours_of(page)["#000000"] == DARK["fig-ink"]  # the ink the built-in theme's CSS gives text


def test_a_theme_without_its_page_colours_is_a_build_error_naming_its_css(make_lesson, run_build, tmp_path):
    make_lesson(md=SQUARE_MD, py=PAGE_SQUARE_PY)
    (tmp_path / "themes" / "odd" / "assets").mkdir(parents=True)
    (tmp_path / "themes" / "odd" / "assets" / "style.css").write_text(":root{--fg:#111}\n\nhtml[data-theme=dark]{\n  --bg:rgb(0 0 0);\n  --fg:#eee}\n", encoding="utf-8")
    code, _, err, out = run_build("--theme", "odd")
    assert code == 1 and not out.exists()
    shown = "themes/odd/assets/style.css"  # (as the build shows paths: from the project's folder)
    assert f"{shown}: no page colour --bg in `:root{{…}}`" in err                   # not set at all: the file
    assert f"{shown}:4: no page colour --bg in `html[data-theme=dark]{{…}}`" in err  # not #rrggbb: its line
    assert "(found: rgb(0 0 0))" in err and "--fg" not in err                      # the dark text colour is fine


def test_page_colours_are_read_from_the_innermost_rules_the_last_one_set_winning(tmp_path):
    from lessonkit.features.palette import page_colors

    css = tmp_path / "style.css"
    css.write_text("/* :root{--bg:#123456} in a comment */\n"
                   "a{color:red}\n:root , p{--bg:#abc; --fg:#000}\n"
                   "@media screen{\n  html[data-theme=dark]{--bg:#101010;--fg:#eeeeee}\n}\n"
                   "@media print{ .x{--bg:#ffffff} }\n"
                   "html[data-theme=\"dark\"]{--fg:#DDDDDD}\n:root{--bg:#fafafa}}\n", encoding="utf-8")
    assert page_colors(css) == PageColors(light_bg="#fafafa", dark_bg="#101010", dark_fg="#dddddd")
