"""Rasters in figures (imshow, a colour bar's gradient) in dark mode: each gets a twin whose pixels are the dark
counterparts of its colours, the same counterparts the page's CSS gives a vector cell or bar of that colour, so a
heatmap agrees with its colour bar in both modes. Checked on the built page alone: the twin PNGs decoded, the dark
palette read from the page's CSS."""
from __future__ import annotations

import base64
import io
import re

import numpy as np
from PIL import Image

HEATMAP_PY = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.figure(caption="离散的色条", alt="三档颜色的热力图和它的色条")
def levels(plt):
    from matplotlib.colors import BoundaryNorm

    fig, ax = plt.subplots(figsize=(3, 2.4))
    image = ax.imshow(np.array([[0.5, 1.5, 2.5], [2.5, 0.5, 1.5]]), cmap="viridis",
                      norm=BoundaryNorm([0, 1, 2, 3], 256), interpolation="none")
    fig.colorbar(image, ax=ax)
    return fig


@lesson.figure(caption="连续的色条", alt="一张 8 × 8 的热力图和连续的色条")
def gradient(plt):
    fig, ax = plt.subplots(figsize=(3, 2.4))
    image = ax.imshow(np.arange(64.0).reshape(8, 8), cmap="magma")
    fig.colorbar(image, ax=ax)
    return fig


@lesson.figure(caption="照片", alt="随机颜色的像素")
def photo(plt):
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.imshow(np.random.default_rng(0).random((80, 80, 3)))
    return fig
"""
HEATMAP_MD = "## 热力图 {#heat}\n\n{{< figure levels >}}\n\n{{< figure gradient >}}\n\n{{< figure photo >}}\n"


def pixels(uri: str) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(uri))).convert("RGBA"))


def hex_of(rgb) -> str:
    return "#%02x%02x%02x" % tuple(int(c) for c in rgb[:3])


def dark_palette_of(page: str) -> dict[str, str]:
    """The page's dark-mode colours, `#light` → `#dark`, from its `--fig-RRGGBB` custom properties."""
    block = re.search(r"html\[data-theme=dark\]\{(--fig-[^}]*)\}", page).group(1)
    return {f"#{light}": dark for light, dark in re.findall(r"--fig-([0-9a-f]{6}):(#[0-9a-f]{6})", block)}


def rasters(figure: str) -> list[tuple[str, str]]:
    return re.findall(r'<image class="(lk-light|lk-dark)(?: lk-pixelated)?" href="data:image/(?:png|webp);base64,([^"]+)"',
                      figure)


def near(a: str, b: str, by: int = 2) -> bool:
    """Two colours a rounding apart (matplotlib's resampling of an image may move a channel by one)."""
    return all(abs(int(a[i:i + 2], 16) - int(b[i:i + 2], 16)) <= by for i in (1, 3, 5))


def figure_markup(page: str, name: str) -> str:
    return re.search(rf'<figure[^>]*id="fig-{name}".*?</figure>', page, re.S).group(0)


def test_a_heatmap_in_dark_mode_has_its_colour_bars_colours(make_lesson, run_build):
    make_lesson(slug="heat", md=HEATMAP_MD, py=HEATMAP_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "heat" / "index.html").read_text(encoding="utf-8")
    palette = dark_palette_of(page)

    levels = figure_markup(page, "levels")
    (light_kind, light), (dark_kind, dark) = rasters(levels)  # the heatmap; the discrete colour bar is vector cells
    assert (light_kind, dark_kind) == ("lk-light", "lk-dark")
    light_px, dark_px = pixels(light), pixels(dark)
    assert light_px.shape == dark_px.shape
    bar_colors = set(re.findall(r'<path[^>]*fill="(#[0-9a-f]{6})"', levels)) - {"#000000", "#ffffff"}
    heat_colors = {hex_of(p) for p in light_px.reshape(-1, 4) if p[3]}
    assert len(heat_colors) == 3 and len(bar_colors) == 3  # the three levels, drawn by both
    bar_of = {c: next(b for b in bar_colors if near(b, c)) for c in heat_colors}  # a heatmap colour's bar cell
    assert len(set(bar_of.values())) == 3
    for light_rgba, dark_rgba in zip(light_px.reshape(-1, 4), dark_px.reshape(-1, 4)):
        assert light_rgba[3] == dark_rgba[3]
        if light_rgba[3]:  # the colour bar's cell of that colour, on the dark page: the same colour
            light_bar, dark_bar = bar_of[hex_of(light_rgba)], palette[bar_of[hex_of(light_rgba)]]
            assert near(hex_of(dark_rgba), dark_bar)
    assert not near(palette[bar_of[max(heat_colors)]], bar_of[max(heat_colors)], 40)  # viridis' yellow, darkened

    gradient = rasters(figure_markup(page, "gradient"))
    assert [kind for kind, _ in gradient] == ["lk-light", "lk-dark"] * 2  # the heatmap and the colour bar's gradient
    (_, heat_light), (_, heat_dark), (_, bar_light), (_, bar_dark) = gradient
    bar = {hex_of(l): hex_of(d) for l, d in zip(pixels(bar_light).reshape(-1, 4), pixels(bar_dark).reshape(-1, 4))}
    heat = {hex_of(l): hex_of(d) for l, d in zip(pixels(heat_light).reshape(-1, 4), pixels(heat_dark).reshape(-1, 4))}
    pairs = [(c, b) for c in heat for b in bar if near(c, b, 1)]  # a heatmap colour and the bar's at its value
    assert len({c for c, _ in pairs}) >= 48
    # one colour, one dark colour: a channel's step of 1 may grow a little (near black, where the hue is unstable)
    assert [(c, b, heat[c], bar[b]) for c, b in pairs if not near(heat[c], bar[b], 6)] == []
    assert any(not near(heat[c], c, 40) for c in heat)  # magma's light end is darker on the dark page

    assert rasters(figure_markup(page, "photo")) == []  # thousands of colours: a picture, not a colour map
    assert re.search(r'<image href="data:image/(png|webp);', figure_markup(page, "photo"))  # one picture, no class
    assert ".lk-dark{display:none}" in page and "html[data-theme=dark] .lk-dark{display:inline}" in page


def test_pages_without_rasters_carry_no_raster_rules(make_lesson, run_build):
    make_lesson(slug="plain")
    code, _, err, out = run_build()
    assert code == 0, err
    assert "lk-dark" not in (out / "plain" / "index.html").read_text(encoding="utf-8")
