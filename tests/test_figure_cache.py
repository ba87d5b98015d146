"""The preview's figure cache: an unchanged figure is reused, any change to lesson.py or its inputs redraws it."""
from lessonkit import figures
from lessonkit.paths import PROJECT
from lessonkit.site import Options, build

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def height():
    return {height}


@lesson.figure(caption="高 {{{{ height }}}}", alt="一根柱子")
def bar(plt, height):
    fig, ax = plt.subplots()
    ax.bar([0], [height])
    return fig
"""
MD = "## 一 {#one}\n\n{{< figure bar >}}\n"


def test_unchanged_figures_are_reused_and_changed_ones_redrawn(make_lesson, tmp_path, monkeypatch):
    drawn = []
    real = figures.draw_svg
    monkeypatch.setattr(figures, "draw_svg", lambda name, *a: drawn.append(name) or real(name, *a))
    cache: dict = {}
    options = Options(content=tmp_path / "content", out=tmp_path / "out", themes=PROJECT / "themes",
                      figure_cache=cache)
    folder = make_lesson(md=MD, py=PY.format(height=1))
    first = build(options).pages["demo/index.html"]
    assert drawn == ["bar"]

    (folder / "lesson.md").write_text(MD + "\n多写一句。\n", encoding="utf-8")
    second = build(options).pages["demo/index.html"]
    assert drawn == ["bar"]  # not drawn again
    assert first.split(b"<svg")[1].split(b"</svg>")[0] == second.split(b"<svg")[1].split(b"</svg>")[0]

    (folder / "lesson.py").write_text(PY.format(height=3), encoding="utf-8")
    third = build(options).pages["demo/index.html"]
    assert drawn == ["bar", "bar"]
    assert first.split(b"<svg")[1].split(b"</svg>")[0] != third.split(b"<svg")[1].split(b"</svg>")[0]


def test_without_a_cache_every_build_draws(make_lesson, tmp_path, monkeypatch):
    drawn = []
    real = figures.draw_svg
    monkeypatch.setattr(figures, "draw_svg", lambda name, *a: drawn.append(name) or real(name, *a))
    make_lesson(md=MD, py=PY.format(height=1))
    options = Options(content=tmp_path / "content", out=tmp_path / "out", themes=PROJECT / "themes")
    build(options)
    build(options)
    assert drawn == ["bar", "bar"]
