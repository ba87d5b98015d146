"""What a colour map coloured keeps its colours in dark mode (viridis stays viridis): an image and a colour bar's
gradient (rasters), a mesh, filled contours and a scatter by value (vector, marked by draw/figures.py and written by
draw/svg.py where the dark palette's rules do not reach), and the values written on a heatmap's cells; the frame,
ticks, labels and plain lines still follow the page. Checked on the built page alone: the rasters decoded, the dark
palette read from the page's CSS, viridis asked of matplotlib."""
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


@lesson.figure(caption="写了数的网格", alt="三乘三的网格，格子里写着它的值")
def mesh(plt):
    fig, ax = plt.subplots(figsize=(3, 3))
    values = np.arange(9.0).reshape(3, 3)
    ax.pcolormesh(values, cmap="viridis")
    for (row, col), v in np.ndenumerate(values):
        ax.text(col + 0.5, row + 0.5, f"{v:.0f}", color="#000000", ha="center", va="center")
    ax.plot([0, 3], [0, 3], color="#000000")
    ax.set_xlabel("列")
    return fig
"""
HEATMAP_MD = ("## 热力图 {#heat}\n\n{{< figure levels >}}\n\n{{< figure gradient >}}\n\n{{< figure photo >}}\n\n"
              "{{< figure mesh >}}\n")


def pixels(uri: str) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(uri))).convert("RGBA"))


def hex_of(rgb) -> str:
    return "#%02x%02x%02x" % tuple(int(c) for c in rgb[:3])


def dark_palette_of(page: str) -> dict[str, str]:
    """The page's dark-mode colours, `#light` → `#dark`, from its `--fig-RRGGBB` custom properties."""
    block = re.search(r"html\[data-theme=dark\]\{(--fig-[^}]*)\}", page).group(1)
    return {f"#{light}": dark for light, dark in re.findall(r"--fig-([0-9a-f]{6}):(#[0-9a-f]{6})", block)}


def figure_markup(page: str, name: str) -> str:
    return re.search(rf'<figure[^>]*id="fig-{name}".*?</figure>', page, re.S).group(0)


def rasters(figure: str) -> list[np.ndarray]:
    return [pixels(uri) for uri in re.findall(r'<image\b[^>]*href="data:image/(?:png|webp);base64,([^"]+)"', figure)]


def viridis(values, norm, as_pixels: bool = False) -> set[str]:
    """viridis' colours of `values`, as matplotlib writes them: a vector's fill rounded (to_hex), a raster's pixel
    cut to 8 bits (bytes=True)."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex
    mapped = colormaps["viridis"](norm(np.asarray(values, dtype=float)), bytes=as_pixels)
    return {hex_of(c) for c in mapped} if as_pixels else {to_hex(c) for c in mapped}


def test_a_colour_map_keeps_its_colours_in_dark_mode(make_lesson, run_build):
    make_lesson(slug="heat", md=HEATMAP_MD, py=HEATMAP_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "heat" / "index.html").read_text(encoding="utf-8")
    palette = dark_palette_of(page)

    # an image: one raster, no twin and no class to switch it; its pixels viridis' colours of its three bins
    from matplotlib.colors import BoundaryNorm, Normalize
    levels = figure_markup(page, "levels")
    (heat,) = [r for r in rasters(levels) if r.shape[0] == 2]
    assert {hex_of(p) for p in heat.reshape(-1, 4) if p[3]} == viridis([0.5, 1.5, 2.5], BoundaryNorm([0, 1, 2, 3], 256),
                                                                      as_pixels=True)
    assert "lk-dark" not in page and "lk-light" not in page

    # a mesh: its nine cells viridis' colours of 0–8, written rgb(…) where the dark rules ([fill="#…"]) never reach;
    # the values on them keep their black, while the line and the axis label in that same black follow the page
    mesh = figure_markup(page, "mesh")
    cells = {"#%02x%02x%02x" % tuple(map(int, rgb)) for rgb in
             re.findall(r'fill="rgb\((\d+),(\d+),(\d+)\)"', mesh)}
    assert viridis(range(9), Normalize(0, 8)) <= cells
    assert not viridis(range(9), Normalize(0, 8)) & set(palette)              # no dark counterpart for a colour map's colour
    texts = re.findall(r'<text\b[^>]*>([^<]*)</text>', mesh)
    assert sorted(t for t in texts if t.isdigit()) == [str(i) for i in range(9)]
    assert len(re.findall(r'<g fill="rgb\(0,0,0\)"[^>]*>\s*<text', mesh)) + \
        len(re.findall(r'<text[^>]*fill="rgb\(0,0,0\)"', mesh)) >= 9     # the values: black kept
    assert '[stroke="#000000"]' in page and "#000000" in palette    # the diagonal line, black: adapted

    photo = figure_markup(page, "photo")                          # a photograph: one picture, as taken
    assert len(rasters(photo)) == 1 and "lk-" not in re.search(r"<image\b[^>]*>", photo).group(0)


def test_square_pixels_are_asked_for_only_where_drawn(make_lesson, run_build):
    make_lesson(slug="heat", md=HEATMAP_MD, py=HEATMAP_PY)
    make_lesson(slug="plain")
    code, _, err, out = run_build()
    assert code == 0, err
    assert ".lk-pixelated{image-rendering:pixelated}" in (out / "heat" / "index.html").read_text(encoding="utf-8")
    assert "lk-pixelated" not in (out / "plain" / "index.html").read_text(encoding="utf-8")
