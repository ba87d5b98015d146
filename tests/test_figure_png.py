"""Figures as PNG pictures for the slides (site.Options.figure_png, draw/raster.py): drawn from the same figure
function in the same run as the SVG, at least twice the resolution a slide shows them at, cached beside the SVG —
a warm build draws nothing — and the pages stay byte for byte what a build without pictures writes."""
from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from lessonkit.site import Options, build

PROJECT = Path(__file__).resolve().parents[1]
PY = """\
import numpy as np
from lessonkit import Lesson, explorer, param

lesson = Lesson()


@lesson.value
def xs():
    return np.linspace(0, 1, 5)


@lesson.figure(caption="一条线。", alt="一条从左下到右上的直线。")
def line(plt, xs):
    fig, ax = plt.subplots(figsize=(6.0, 3.0))
    ax.plot(xs, xs)
    ax.set_xlabel("横轴")
    return fig


@lesson.figure(caption="两幅并排。", alt="左右两幅小图。")
def pair(plt, xs):
    fig, axs = plt.subplots(1, 2, figsize=(7.0, 2.5))
    axs[0].plot(xs, xs ** 2)
    axs[1].plot(xs, 1 - xs)
    return fig


@lesson.widget
def knob():
    return explorer(params=[param("k", "几", [1, 2])], state=lambda k: {"values": [("值", float(k))]},
                    figure=lambda plt, k: plt.subplots(figsize=(3, 2))[0], alt="一幅空图。")
"""
MD = "## 第一节 {#first}\n\n{{< figure line >}}\n\n{{< figure pair >}}\n\n{{< widget knob >}}\n"


def options(tmp_path: Path, out: str, png: bool) -> Options:
    return Options(content=tmp_path / "content", out=tmp_path / out, themes=PROJECT / "themes",
                   cache=tmp_path / "cache", jobs=1, figure_png=png)


def png_header(data: bytes) -> tuple[int, int, float]:
    """Width, height and dots per inch (the pHYs chunk, in dots per metre) read from the bytes themselves."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    at = data.index(b"pHYs")
    per_metre = struct.unpack(">I", data[at + 4:at + 8])[0]
    return width, height, per_metre * 0.0254


def svg_aspect(page: str, name: str) -> float:
    svg = re.search(rf'<figure id="fig-{name}".*?<svg[^>]*viewBox="-?[\d.]+ -?[\d.]+ ([\d.]+) ([\d.]+)"', page, re.S)
    return float(svg.group(1)) / float(svg.group(2))


def test_pictures_of_every_lesson_figure_cached_and_the_pages_unchanged(make_lesson, tmp_path):
    make_lesson(md=MD, py=PY)
    plain = build(options(tmp_path, "plain", png=False))
    assert plain.figure_png == {} and plain.figures_drawn == 4          # two figures, two explorer states
    first = build(options(tmp_path, "first", png=True))
    assert first.figures_drawn == 2, "the SVGs are cached: only the two lesson figures run again, for pictures"
    assert set(first.figure_png["demo"]) == {"line", "pair"}, "the lesson's figures, not a widget's states"
    assert first.pages == plain.pages, "asking for pictures changes no page"
    warm = build(options(tmp_path, "warm", png=True))
    assert (warm.figures_drawn, warm.figures_cached) == (0, 4), "a warm build draws no figure"
    assert warm.figure_png == first.figure_png
    page = warm.pages["demo/index.html"].decode()
    for name, inches in (("line", 6.0), ("pair", 7.0)):
        width, height, dpi = png_header(warm.figure_png["demo"][name])
        assert dpi >= 2 * 96, "twice the CSS resolution"
        assert width >= 2 * 96 * inches * 0.8, "the figure cropped to what it draws, still twice its size"
        largest = min(1280, 720 * width / height)                # the widest a 1280 × 720 slide can show it
        assert width >= 2 * largest, "twice the pixels of the largest a slide shows it at"
        if name == "line":   # one panel: the picture and the page's SVG show the same drawing
            assert width / height == pytest.approx(svg_aspect(page, name), rel=0.03)


def test_the_cache_keeps_pictures_beside_the_svgs(make_lesson, tmp_path):
    make_lesson(md=MD, py=PY)
    build(options(tmp_path, "out", png=True))
    figures = tmp_path / "cache" / "figures"
    pngs = sorted(p.stem for p in figures.glob("*.png"))
    assert len(pngs) == 2 and all((figures / f"{key}.svg").is_file() for key in pngs)


def test_pictures_no_build_used_for_a_month_are_pruned_like_svgs(tmp_path):
    import os
    import time

    from lessonkit.support.prune import prune

    figures = tmp_path / "cache" / "figures"
    figures.mkdir(parents=True)
    now = time.time()
    for name, days in ((f"{'a' * 64}.png", 31), (f"{'b' * 64}.png", 2), ("picture.png", 90)):
        (figures / name).write_bytes(b"\x89PNG")
        os.utime(figures / name, (now - days * 86400, now - days * 86400))
    prune(tmp_path / "cache", now=now, used_since=now - 60)
    assert sorted(p.name for p in figures.iterdir()) == [f"{'b' * 64}.png", "picture.png"], "not ours: kept"
