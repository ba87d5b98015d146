"""Figures: real CJK font, text kept as text, ids unique per figure, deterministic bytes, missing glyphs are errors."""
import re
from pathlib import Path

import pytest

from lessonkit.errors import ContentError
from lessonkit.figures import draw_svg, find_cjk_font

PATH = Path("content/demo/lesson.py")


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
    svg = draw_svg("demo", chinese_plot, [], font, PATH, 1)
    assert svg.startswith("<svg") and "<?xml" not in svg
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert {"层数", "梯度衰减", "梯度"} <= set(texts)
    assert font in svg
    assert 'viewBox="' in svg and not re.search(r'<svg[^>]*\swidth="', svg)  # scales with the page


def test_ids_are_prefixed_and_references_follow(font):
    svg = draw_svg("decay", chinese_plot, [], font, PATH, 1)
    ids = re.findall(r'\bid="([^"]+)"', svg)
    assert ids and all(i.startswith("decay-") for i in ids)
    assert len(ids) == len(set(ids))
    for ref in re.findall(r'url\(#([^)]+)\)|xlink:href="#([^"]+)"', svg):
        target = ref[0] or ref[1]
        assert target in ids


def test_two_draws_are_byte_identical(font):
    assert draw_svg("a", chinese_plot, [], font, PATH, 1) == draw_svg("a", chinese_plot, [], font, PATH, 1)


def test_missing_glyph_is_a_build_error(font):
    def emoji_plot(plt):
        fig, ax = plt.subplots(figsize=(2, 2))
        ax.set_title("\U0001F600 \U0001F680")  # no CJK or DejaVu font draws these
        return fig

    with pytest.raises(ContentError) as info:
        draw_svg("emoji", emoji_plot, [], font, PATH, 7)
    assert all(p.line == 7 and "missing from font" in p.message for p in info.value.problems)


def test_figure_must_return_a_figure(font):
    with pytest.raises(ContentError, match="figure `nothing` returned NoneType"):
        draw_svg("nothing", lambda plt: None, [], font, PATH, 3)


def test_no_cjk_font_stops_the_build_saying_how_to_install_one(make_lesson, run_build, monkeypatch):
    import lessonkit.figures

    py = ("import numpy as np\nfrom lessonkit import Lesson\nlesson = Lesson()\n"
          "@lesson.figure(caption='图', alt='一条线')\ndef line(plt):\n"
          "    fig, ax = plt.subplots()\n    ax.plot([0, 1])\n    return fig\n")
    make_lesson(md="## 第一节\n\n{{< figure line >}}\n", py=py)
    monkeypatch.setattr(lessonkit.figures, "CJK_FONTS", ("No Such Font SC",))
    code, _, err, out = run_build("--no-cache")
    assert code == 2
    assert "no Chinese (CJK) font found" in err and "apt-get install fonts-noto-cjk" in err
    assert not out.exists()
