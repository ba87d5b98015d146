"""Every kind of matplotlib artist a lesson may draw builds (exit 0, never exit 3) into SVG that a strict
Content-Security-Policy lets through: no `style=` attribute, no `<style>`. One lesson draws a broad set of artists —
images with each interpolation, meshes with Gouraud shading, hatches, path effects, legends with shadows, tables,
polar and 3-D axes — through the real command line."""
from __future__ import annotations

import re

ARTISTS_PY = '''
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.figure(caption="许多种画法", alt="一张图里画了各种 matplotlib 元素")
def many(plt):
    from matplotlib import patches, patheffects
    from matplotlib.collections import LineCollection, PolyCollection

    rng = np.random.default_rng(0)
    fig, axs = plt.subplots(5, 6, figsize=(14, 11))
    a = iter(axs.flat)
    for interpolation in ("none", "nearest", "bilinear", "antialiased", "bicubic"):
        next(a).imshow(rng.random((4, 4)), interpolation=interpolation, cmap="magma")
    ax = next(a); ax.imshow(rng.random((5, 5, 3)), interpolation="nearest")
    ax.imshow(rng.random((3, 3, 4)), extent=(0, 1, 0, 1), alpha=0.5)
    ax = next(a); mesh = ax.pcolormesh(rng.random((5, 5))); fig.colorbar(mesh, ax=ax)
    ax = next(a); ax.contourf(rng.random((8, 8)), levels=4, hatches=["/", "\\\\", "x", "."]); ax.contour(rng.random((8, 8)))
    ax = next(a); ax.bar([1, 2], [3, 4], hatch="//", edgecolor="k")
    ax.text(1, 1, "框", bbox=dict(boxstyle="round", fc="y", alpha=0.5))
    ax = next(a); ax.annotate("箭头", xy=(0.5, 0.5), xytext=(0.1, 0.9),
                              arrowprops=dict(arrowstyle="->", connectionstyle="arc3,rad=.3"))
    ax = next(a); ax.quiver(*np.meshgrid(np.arange(3), np.arange(3)), np.ones((3, 3)), np.ones((3, 3)))
    ax = next(a); y, x = np.mgrid[-1:1:10j, -1:1:10j]; ax.streamplot(x, y, -y, x)
    ax = next(a); ax.fill_between([0, 1, 2], [0, 1, 0], alpha=0.3)
    ax.errorbar([0, 1], [1, 2], yerr=[0.1, 0.2], fmt="o", capsize=3)
    ax = next(a); ax.violinplot([rng.normal(size=50)]); ax.boxplot([rng.normal(size=50)], notch=True)
    ax = next(a); ax.hist(rng.normal(size=100), bins=10, histtype="step")
    ax.hexbin(rng.normal(size=100), rng.normal(size=100), gridsize=5)
    ax = next(a); ax.pie([1, 2, 3], labels=["a", "b", "c"], autopct="%1.0f%%", shadow=True)
    ax = next(a); ax.scatter(rng.random(10), rng.random(10), c=rng.random(10), marker="*", s=50, edgecolors="k")
    ax = next(a); ax.step([0, 1, 2], [0, 1, 0], where="mid"); ax.stem([1, 2, 3], [1, 2, 1])
    ax = next(a); ax.spy(rng.random((5, 5)) > 0.5); ax.matshow(rng.random((3, 3)))
    ax = next(a); ax.eventplot([[0.1, 0.5], [0.3]]); ax.broken_barh([(1, 2)], (0, 1), facecolors="tab:blue")
    ax = next(a); ax.stackplot([0, 1, 2], [1, 2, 3], [1, 1, 1]); ax.axhspan(0.5, 1, alpha=0.2); ax.axvline(1, ls=":")
    ax = next(a)
    ax.add_patch(patches.Ellipse((0.5, 0.5), 0.4, 0.2, angle=30, fill=False, ls="--"))
    ax.add_patch(patches.Wedge((0.3, 0.3), 0.2, 0, 90))
    ax.add_patch(patches.FancyBboxPatch((0.6, 0.1), 0.2, 0.2, boxstyle="round,pad=0.02"))
    ax.add_patch(patches.Polygon([[0, 0], [0.2, 0.1], [0.1, 0.3]], closed=True, joinstyle="bevel"))
    ax.add_patch(patches.FancyArrowPatch((0, 1), (1, 0), arrowstyle="-|>", mutation_scale=10))
    ax = next(a); line, = ax.plot([0, 1], [0, 1], lw=3, dashes=[2, 1], marker="o", drawstyle="steps")
    line.set_path_effects([patheffects.withStroke(linewidth=5, foreground="w")])
    ax.legend(["线"], loc="upper left", frameon=True, fancybox=True, shadow=True)
    ax = next(a); ax.add_collection(LineCollection([[(0, 0), (1, 1)], [(0, 1), (1, 0)]], colors=["r", "b"],
                                                   linestyles="dashdot"))
    ax.add_collection(PolyCollection([[(0, 0), (0.5, 0), (0.5, 0.5)]], alpha=0.4))
    ax.table(cellText=[["1", "2"]], loc="bottom")
    ax = next(a); ax.set_xscale("log"); ax.set_yscale("symlog"); ax.plot([1, 10, 100], [-1, 0, 10])
    ax.grid(True, which="both", alpha=0.3); ax.set_title("$\\\\alpha^2$ 标题", fontstyle="italic", fontweight="bold")
    ax = next(a); ax.tripcolor(rng.random(12), rng.random(12), rng.random(12), shading="gouraud")
    ax.pcolormesh(rng.random((3, 3)), shading="gouraud")
    ax = next(a); ax.tricontourf(rng.random(20), rng.random(20), rng.random(20)); ax.triplot(rng.random(10), rng.random(10))
    ax = next(a); ax.set_aspect("equal")
    ax.text(0.5, 0.5, "spin", rotation=45, fontfamily="monospace", alpha=0.6, fontvariant="small-caps",
            fontstretch="condensed")
    ax.secondary_xaxis("top"); ax.twinx().plot([0, 1], [1, 0]); ax.inset_axes([0.6, 0.6, 0.3, 0.3]).plot([0, 1])
    fig.suptitle("全部"); fig.text(0.01, 0.01, "注"); fig.figimage(rng.random((10, 10)), 0, 0, alpha=0.2)
    return fig


@lesson.figure(caption="极坐标", alt="极坐标里的一条螺线和两根柱子")
def polar(plt):
    fig, ax = plt.subplots(subplot_kw={"projection": "polar"})
    ax.plot(np.linspace(0, 6, 20), np.linspace(0, 1, 20)); ax.bar([0, 1], [1, 2], width=0.5, alpha=0.5)
    return fig


@lesson.figure(caption="三维", alt="一个曲面、一个点和一张网格")
def solid(plt):
    fig, ax = plt.subplots(subplot_kw={"projection": "3d"})
    x, y = np.meshgrid(np.linspace(-1, 1, 8), np.linspace(-1, 1, 8))
    ax.plot_surface(x, y, x * y, cmap="coolwarm"); ax.scatter([0], [0], [0]); ax.plot_wireframe(x, y, x + y, alpha=0.2)
    return fig
'''
ARTISTS_MD = """\
## 画法 {#kinds}

{{< figure many >}}

{{< figure polar >}}

{{< figure solid >}}
"""


def test_every_kind_of_artist_builds_into_svg_the_policy_allows(make_lesson, run_build, tmp_path):
    make_lesson(slug="artists", md=ARTISTS_MD, py=ARTISTS_PY)
    (tmp_path / "content" / "site.yaml").write_text("budget: {page_kb: 2000, gzip_kb: 1000}\n", encoding="utf-8")
    code, _, err, out = run_build("--jobs", "1")
    assert code == 0, err
    page = (out / "artists" / "index.html").read_text(encoding="utf-8")
    svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
    assert len(svgs) >= 3
    for svg in svgs:
        assert not re.search(r"\sstyle=", svg) and "<style" not in svg
    # interpolation="none": the browser draws each pixel square (a class: SVG 1.1's attribute has no `pixelated`)
    assert 'class="lk-pixelated"' in page and ".lk-pixelated{image-rendering:pixelated}" in page
    assert "image-rendering=" not in page
