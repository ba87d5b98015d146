"""draw/drawing.py: one figure job drawn into a DrawnFigure — an SVG whose ids are its own (prefixed by the figure's
name, every reference inside resolving inside), the same bytes every time, the numbers it plots, the author's
mistakes as problems at lesson.py's line — and the dark counterparts of the colours it draws. Jobs made here from
small figure functions; no lesson, no cache."""
import re
from pathlib import Path

import numpy as np
import pytest

from lessonkit.draw.drawing import DrawnFigure, DrawStats, Drawing, Drawn, draw_job, start_drawing, with_palettes
from lessonkit.draw.figures import find_cjk_font
from lessonkit.compute.run import FigureJob
from lessonkit.features.palette import builtin_page_colors

PAGE = builtin_page_colors()   # the built-in theme's page colours, which the dark palette is computed against

CODE = Path("content/demo/lesson.py")


def curve(plt, k):
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2, 3], [0, k, 2 * k, 3 * k], label="线")
    ax.fill_between([0, 1, 2, 3], 0, [0, k, 2 * k, 3 * k], alpha=0.2)
    ax.set_xlabel("时间")
    ax.legend()
    return fig


def bars(plt):
    fig, (left, right) = plt.subplots(1, 2)
    left.bar(["甲", "乙"], [3, 5], color="#d55e00")
    right.plot([1, 2], [2, 1])
    return fig


def job(name, func, *args, data=None, **kwargs) -> FigureJob:
    return FigureJob("demo", name, func, args, kwargs, CODE, 12, None, data)


@pytest.fixture(scope="module")
def font():
    return find_cjk_font()


def drawn(font, j) -> DrawnFigure:
    kind, result = draw_job(j, font)
    assert kind == "figure", result
    return result


def ids(svg: str) -> list[str]:
    return re.findall(r'\sid="([^"]+)"', svg)


@pytest.fixture(scope="module")
def curve_2(font) -> DrawnFigure:
    return drawn(font, job("curve", curve, 2))


@pytest.fixture(scope="module")
def two_panels(font) -> DrawnFigure:
    return drawn(font, job("bars", bars))


def references(svg: str) -> set[str]:
    return {a or b for a, b in re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', svg)}


def test_a_figure_s_ids_are_its_own_and_its_references_resolve_inside_it(curve_2, two_panels):
    one, two = curve_2, two_panels
    assert references(one.svg)                                           # (the clip paths are referred to)
    for name, figure in (("curve", one), ("bars", two)):
        found = ids(figure.svg)
        assert found and len(found) == len(set(found))                   # no id twice in one figure
        assert all(i.startswith(f"{name}-") for i in found), found        # prefixed by the figure's name …
        assert references(figure.svg) <= set(found)                      # … and what refers to one finds it
    assert not set(ids(one.svg)) & set(ids(two.svg))                     # two figures on a page never collide


def test_the_same_job_draws_the_same_bytes(font, curve_2):
    assert drawn(font, job("curve", curve, 2)).svg == curve_2.svg
    assert drawn(font, job("curve", curve, 3)).svg != curve_2.svg


def test_what_a_figure_plots_is_recorded_unless_the_lesson_hands_its_own_table(font, curve_2):
    recorded = curve_2.data
    assert recorded["tables"] and [0, 2, 4, 6] in [[row[1] for row in t["rows"]] for t in recorded["tables"]]
    handed = {"tables": [{"title": "own", "columns": ["a"], "rows": [[1]]}]}
    assert drawn(font, job("curve", curve, 2, data=handed)).data == handed


def test_keyword_inputs_reach_the_function(font, curve_2):
    def scaled(plt, k, *, factor):
        return curve(plt, k * factor)
    assert drawn(font, job("curve", scaled, 1, factor=2)).svg == curve_2.svg


def test_a_figure_may_not_change_its_inputs(font):
    values = [1, 2, 3]

    def greedy(plt, xs):
        xs.append(4)
        fig, ax = plt.subplots()
        ax.plot(xs)
        return fig

    j = job("greedy", greedy, values)
    drawn(font, j)
    assert j.args == ([1, 2, 3],) and values == [1, 2, 3]


def test_the_author_s_mistakes_come_back_as_problems(font):
    def raises(plt):
        raise ValueError("bad shape")

    def returns_nothing(plt):
        plt.subplots()

    kind, problems = draw_job(job("raises", raises), font)
    assert kind == "problems" and "bad shape" in str(problems[0].message) and problems[0].path == CODE
    kind, problems = draw_job(job("nothing", returns_nothing), font)
    assert kind == "problems"
    assert [(p.line, str(p.message)) for p in problems] == [(12, "figure `nothing` returned NoneType")]


def test_with_palettes_gives_each_colour_a_dark_counterpart(two_panels):
    figure = two_panels
    assert figure.palette == {}                                           # drawn without one: the batch adds it
    ((index, (kind, done)), problem) = with_palettes([(0, ("figure", figure)), (1, ("problems", ["p"]))], PAGE)
    assert (index, kind, problem) == (0, "figure", (1, ("problems", ["p"])))
    assert "#d55e00" in done.palette and done.palette["#d55e00"] != "#d55e00"
    assert set(done.palette) == {c.lower() for c in re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{6})"', figure.svg)}


def test_nothing_to_draw_touches_nothing():
    drawing = start_drawing([], cache=None, jobs=1, page=PAGE)
    assert vars(drawing.finish()) == vars(Drawn()) and vars(drawing.stats) == vars(DrawStats())


def test_drawn_by_the_parent_or_by_a_worker_the_bytes_are_the_same(font, curve_2, two_panels):
    forked = Drawing(DrawStats(), Drawn(), [(job("curve", curve, 2), None), (job("bars", bars), None)], None, set(),
                     font, PAGE)
    with forked:
        forked.start(2, "fork")                     # one worker draws beside the parent (no cache: key None)
        done = forked.finish()
    assert sorted(done.figures) == [("demo", "bars"), ("demo", "curve")] and done.problems == []
    assert done.figures[("demo", "curve")].svg == curve_2.svg and done.figures[("demo", "bars")].svg == two_panels.svg
    assert done.figures[("demo", "bars")].palette == with_palettes([(0, ("figure", two_panels))], PAGE)[0][1][1].palette


def surface(plt, n):
    """CFD Python's Laplace solution drawn as its notebook draws it: an n × n surface on an 11 × 7 inch figure."""
    import numpy as np

    fig, ax = plt.subplots(figsize=(11, 7), subplot_kw={"projection": "3d"})
    x = np.linspace(0, 2, n)
    X, Y = np.meshgrid(x, np.linspace(0, 1, n))
    ax.plot_surface(X, Y, X * Y / 2, cmap="viridis", rstride=1, cstride=1)
    ax.set(xlabel="x", ylabel="y")
    return fig


def cloud(plt, n):
    import numpy as np

    rng = np.random.default_rng(0)
    fig, ax = plt.subplots()
    ax.scatter(rng.normal(size=n), rng.normal(size=n), s=4)
    return fig


def test_a_dense_surface_or_cloud_is_a_light_picture_inside_the_svg_its_text_still_text(font):
    """81 × 81: a 6 400-facet surface, ≈ 190 KB of paths, is one WebP picture at twice the page's width (its colours
    kept in dark mode: no twin); the axes' labels stay text. A cloud of 3 000 points stays vector (15 KB gzip as
    paths, 85 KB as a picture), one of 10 000 becomes a picture (its paths alone outweigh a page's raw budget)."""
    big = drawn(font, job("surface", surface, 81))
    pictures = re.findall(r'<image\b[^>]*href="data:image/(\w+);base64,([^"]+)"', big.svg)
    assert [kind for kind, _ in pictures] == ["webp"] and 'class="raster-' not in big.svg
    assert len(big.svg) < 60 * 1024, len(big.svg)
    assert re.search(r"<text[^>]*>x</text>", big.svg) and "<path" in big.svg          # ticks, panes: vector
    from PIL import Image
    import base64
    import io
    width = Image.open(io.BytesIO(base64.b64decode(pictures[0][1]))).width
    assert width <= 2 * 720                                                            # ≤ 2 × SHOWN_PX
    assert "<image" not in drawn(font, job("few", cloud, 3000)).svg
    assert "<image" in drawn(font, job("many", cloud, 10000)).svg
    assert big.data["tables"][0]["columns"] == ["x", "y", "z"] and len(big.data["tables"][0]["rows"]) == 81 * 81


def wide(plt, panels):
    fig, axes = plt.subplots(1, panels, figsize=(12, 8) if panels == 1 else (7.4, 2.5))
    for ax in [axes] if panels == 1 else axes:
        ax.plot([0, 1], [0, 1])
        ax.set_xlabel("层数")
    return fig


def view_widths(svg: str) -> list[float]:
    return [float(v.split()[2]) for v in re.findall(r'viewBox="([^"]+)"', svg)]


def test_a_figure_wider_than_a_column_is_drawn_at_its_width_so_its_text_is_as_large_as_the_others(font):
    """A notebook's figsize=(12, 8) would show its 10 pt text at half the size of every other figure's (and ≈ 5 px
    on a phone): it is drawn 6.4 in wide, its proportions kept. Side-by-side panels, each narrower, are not."""
    (single,) = view_widths(drawn(font, job("wide", wide, 1)).svg)
    assert 6.4 * 72 * 0.9 < single < 6.4 * 72 * 1.1, single       # pt: the width of the column's figures
    three = view_widths(drawn(font, job("panels", wide, 3)).svg)
    assert len(three) == 3 and sum(three) < 7.4 * 72 * 1.05        # 7.4 in across three panels: as drawn


def heat(plt):
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.imshow(np.arange(64.0).reshape(8, 8), cmap="viridis", interpolation="none")
    return fig


def field(plt, n):
    x, y = np.meshgrid(np.linspace(0, 2, n), np.linspace(0, 1, n))
    fig, ax = plt.subplots()
    ax.quiver(x, y, np.sin(np.pi * y), np.cos(np.pi * x))
    ax.set_xlabel("x")
    return fig


def decoded(uri: str) -> np.ndarray:
    import base64
    import io

    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(uri))).convert("RGBA"))


def test_a_heatmap_is_a_lossless_webp_of_exactly_the_colour_maps_pixels(font):
    """An 8 × 8 heatmap drawn pixel by pixel: its raster is a lossless WebP (lighter than PNG) and decodes to exactly
    the colours viridis gives the values (matplotlib's colour map, asked directly); one raster, no dark twin."""
    from matplotlib import colormaps
    from matplotlib.colors import Normalize

    svg = drawn(font, job("heat", heat)).svg
    images = re.findall(r'<image class="lk-pixelated" href="data:image/(\w+);base64,([^"]+)"', svg)
    assert [fmt for fmt, _ in images] == ["webp"] and svg.count("<image") == 1
    values = np.arange(64.0).reshape(8, 8)
    expected = colormaps["viridis"](Normalize(0, 63)(values), bytes=True)
    assert np.array_equal(decoded(images[0][1]), expected)


def test_a_field_of_arrows_says_its_clip_once_and_keeps_every_arrow(font):
    """41 × 41 arrows: each arrow still its own path (vector: they gzip well), the axes' clip said once by a group
    around them instead of 1 681 times."""
    svg = drawn(font, job("field", field, 41)).svg
    group = re.search(r'<g clip-path="url\(#[^)]+\)">\n((?:<path [^>]*/>\n)+)</g>', svg)
    assert group and len(re.findall(r"<path ", group.group(1))) == 41 * 41
    assert "clip-path" not in group.group(1)
    assert len(re.findall(r"clip-path=", svg)) < 10
