"""Figures: real CJK font, text kept as text, ids unique per figure, deterministic bytes, missing glyphs are errors."""
import re
from pathlib import Path

import pytest

from lessonkit.support.errors import ContentError
from lessonkit.draw.figures import TEXT_PT, draw_figure_files, find_cjk_font

PATH = Path("content/demo/lesson.py")


def svg_of(name: str, func, font: str, line: int) -> str:
    """The figure's SVG, as the build draws it (as if `func` were defined at `line` of PATH)."""
    return draw_figure_files(name, func, [], font, PATH, line)[0]


def chinese_plot(plt):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1, 2], [1, 0.5, 0.25], label="梯度")
    ax.set(xlabel="层数", title="梯度衰减")
    ax.legend()
    return fig


@pytest.fixture(scope="module")
def font():
    return find_cjk_font()


def test_cjk_font_found(font):
    assert any(word in font for word in ("CJK", "Han", "PingFang", "YaHei", "WenQuanYi", "Heiti", "SC"))


def test_chinese_stays_text_and_names_the_font(font):
    svg = svg_of("demo", chinese_plot, font, 1)
    assert svg.startswith("<svg") and "<?xml" not in svg
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert {"层数", "梯度衰减", "梯度"} <= set(texts)
    assert font in svg
    # scales with the page, up to a size given in rem (its text then reads at 1 rem), in the viewBox's proportions
    root = re.search(r"<svg\b[^>]*>", svg).group(0)
    w, h = (float(re.search(rf'\s{a}="([\d.]+)rem"', root).group(1)) for a in ("width", "height"))
    _, _, vw, vh = map(float, re.search(r'viewBox="([^"]*)"', root).group(1).split())
    assert abs(w / h - vw / vh) < 0.02 * vw / vh


def test_ids_are_prefixed_and_references_follow(font):
    svg = svg_of("decay", chinese_plot, font, 1)
    ids = re.findall(r'\bid="([^"]+)"', svg)
    assert ids and all(i.startswith("decay-") for i in ids)
    assert len(ids) == len(set(ids))
    for ref in re.findall(r'url\(#([^)]+)\)|xlink:href="#([^"]+)"', svg):
        target = ref[0] or ref[1]
        assert target in ids


def test_two_draws_are_byte_identical(font):
    assert svg_of("a", chinese_plot, font, 1) == svg_of("a", chinese_plot, font, 1)


def test_missing_glyph_is_a_build_error(font):
    def emoji_plot(plt):
        fig, ax = plt.subplots(figsize=(2, 2))
        ax.set_title("\U0001F600 \U0001F680")  # no CJK or DejaVu font draws these
        return fig

    with pytest.raises(ContentError) as info:
        svg_of("emoji", emoji_plot, font, 7)
    assert all(p.line == 7 and "missing from font" in str(p.message) for p in info.value.problems)


def test_figure_must_return_a_figure(font):
    with pytest.raises(ContentError, match="figure `nothing` returned NoneType"):
        svg_of("nothing", lambda plt: None, font, 3)


def test_no_cjk_font_stops_the_build_saying_how_to_install_one(make_lesson, run_build, monkeypatch):
    import lessonkit.draw.figures

    py = ("import numpy as np\nfrom lessonkit import Lesson\nlesson = Lesson()\n"
          "@lesson.figure(caption='图', alt='一条线')\ndef line(plt):\n"
          "    fig, ax = plt.subplots()\n    ax.plot([0, 1])\n    return fig\n")
    make_lesson(md="## 第一节\n\n{{< figure line >}}\n", py=py)
    monkeypatch.setattr(lessonkit.draw.figures, "CJK_FONTS", ("No Such Font SC",))
    code, _, err, out = run_build("--no-cache")
    assert code == 2
    assert "no Chinese (CJK) font found" in err and "apt-get install fonts-noto-cjk" in err
    assert not out.exists()


def three_panels(plt):
    fig, axs = plt.subplots(1, 3, figsize=(7.4, 2.5))
    for i, ax in enumerate(axs):
        ax.plot([0, 1], [i, 1 - i])
        ax.set_title(f"面板{i + 1}")
    axs[0].set_ylabel("当前词（查询）")
    fig.suptitle("总标题")
    return fig


def test_several_axes_become_panels_that_can_wrap(font):
    html = svg_of("p", three_panels, font, 1)
    title, rest = html.split('<div class="figure-panels">')
    assert title.count("<svg") == 1 and "figure-panel-title" in title and ">总标题<" in title
    panels = re.findall(r"<svg\b.*?</svg>", rest, re.S)
    assert len(panels) == 3
    for i, svg in enumerate(panels, start=1):
        assert f">面板{i}<" in svg and all(f">面板{j}<" not in svg for j in (1, 2, 3) if j != i)
        width = float(re.search(r'<svg[^>]*\swidth="([\d.]+)rem"', svg).group(1)) * TEXT_PT  # in the figure's pt
        assert 100 < width < 7.4 * 72 / 2
        assert 'class="lk-figure figure-panel"' in svg
    assert "当前词（查询）" in panels[0]
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))  # panels of one figure never share an id


def test_each_panel_defines_every_mark_it_uses_and_draws_only_its_own(font):
    """matplotlib defines a tick mark or a marker once, in the first axes that draws it; cut into panels, each
    panel must still define what it uses (a <use> pointing nowhere draws nothing) and carry no other panel's
    lines, marks or definitions."""
    def marked(plt):
        fig, axs = plt.subplots(1, 3, figsize=(7.4, 2.5))
        for i, ax in enumerate(axs):
            ax.plot([0, 1, 2], [i, 1, 2 - i], marker="o", color=["#0072b2", "#d55e00", "#009e73"][i])
        return fig

    panels = re.findall(r"<svg\b.*?</svg>", svg_of("m", marked, font, 1), re.S)
    assert len(panels) == 3
    for i, svg in enumerate(panels):
        used = set(re.findall(r'href="#([^"]+)"', svg))
        defined = set(re.findall(r'\bid="([^"]+)"', svg))
        assert used and used <= defined                               # ticks and markers all resolve
        assert defined <= used | set(re.findall(r"url\(#([^)]+)\)", svg))  # nothing defined for another panel
        colours = {"#0072b2", "#d55e00", "#009e73"}
        assert {c for c in colours if c in svg} == {["#0072b2", "#d55e00", "#009e73"][i]}


def test_twin_axes_stay_in_one_panel(font):
    def twins(plt):
        fig, (a, b) = plt.subplots(1, 2, figsize=(6, 2.5))
        a.plot([0, 1], [0, 1])
        a.twinx().plot([0, 1], [1, 0], color="#d55e00")
        b.plot([0, 1], [1, 1])
        return fig

    html = svg_of("t", twins, font, 1)
    assert html.count("<svg") == 2 and html.count("#d55e00") >= 1


def test_white_backgrounds_are_left_out_and_colours_kept(font):
    svg = svg_of("demo", chinese_plot, font, 1)
    assert 'fill="#ffffff"' not in svg  # figure and axes patches: the page shows through, light or dark
    assert 'stroke="#0072b2"' in svg and 'class="lk-figure"' in svg


def log_plot_with_math(plt):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.semilogy([1, 2, 3], [1e-3, 1, 1e3])           # tick labels like $\mathdefault{10^{3}}$
    ax.set(xlabel="层号 $l$", ylabel=r"$\Vert x\Vert^2$")
    return fig


def test_each_math_text_of_a_figure_is_parsed_once(font, monkeypatch):
    """matplotlib's layout pass and its SVG draw measure the same `$…$` texts with renderers of their own: the
    draw shares one mathtext parser between them, so no text is parsed twice at one size, and matplotlib's own
    class is as it was afterwards."""
    from matplotlib import _mathtext, textpath

    own_init, parse = textpath.TextToPath.__init__, _mathtext.Parser.parse
    parsed = []

    def counting(self, s, fonts_object, fontsize, dpi):
        parsed.append((s, fontsize, dpi))
        return parse(self, s, fonts_object, fontsize, dpi)
    monkeypatch.setattr(_mathtext.Parser, "parse", counting)
    svg = svg_of("logmath", log_plot_with_math, font, 1)
    assert "10" in svg and any(r"\mathdefault{10^{3}}" in s for s, _, _ in parsed)
    assert len(parsed) == len(set(parsed))
    assert textpath.TextToPath.__init__ is own_init
