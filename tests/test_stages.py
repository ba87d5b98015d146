"""stages.py, through the entry points whose inputs are small: compute_all, which runs each lesson's code and leaves
out a lesson whose values cannot be computed; theme_page_colors, the theme's page colours or the built-in ones with
the theme's problem; made_of, the store entries each page was made from; pictures, the PNGs a build drew by lesson.
make_pages and remember take a whole gathered course and session: the end-to-end build tests drive them
(test_incremental.py, test_cache.py)."""
from lessonkit.draw.drawing import Drawn, DrawnFigure
from lessonkit.features.palette import builtin_page_colors
from lessonkit.load.lessons import read_lesson
from lessonkit.stages import compute_all, made_of, pictures, theme_page_colors
from lessonkit.support.paths import BUILTIN_THEMES
from lessonkit.support.store import FIGURE
from page_setting import computed, read, write_lesson

RAISES = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def n():
    return 1 / 0
"""

WIDGET_FAILS = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def n():
    return 2


@lesson.widget(kind="gauge")
def meter(n):
    raise RuntimeError("no meter")
"""


def test_compute_all_leaves_out_a_lesson_whose_values_fail_and_reports_it(tmp_path):
    good = read(write_lesson(tmp_path, "good"))
    bad = read(write_lesson(tmp_path, "bad", py=RAISES))
    problems = []
    computed = compute_all([bad, good], None, problems)
    assert [c.slug for c in computed] == ["good"] and computed[0].values == {"n": 1024}
    assert [(p.path, p.line) for p in problems] == [(bad.code_path, 8)]      # `return 1 / 0`
    assert "ZeroDivisionError" in str(problems[0].message)


def test_compute_all_keeps_a_lesson_whose_widget_fails_and_reports_the_widget(tmp_path):
    lesson = read(write_lesson(tmp_path, "demo", py=WIDGET_FAILS))
    problems = []
    (computed,) = compute_all([lesson], None, problems)
    assert computed.values == {"n": 2} and computed.widgets == {}
    assert [p.line for p in problems] == [13] and "no meter" in str(problems[0].message)


def test_compute_all_skips_code_it_may_not_run(tmp_path):
    folder = write_lesson(tmp_path, "demo")
    (folder / "lesson.py").write_bytes(b"\x00\x01 not text")
    source = read_lesson(folder)
    assert source.code_readable is False                      # (its problem is the load stage's)
    problems = []
    assert compute_all([source], None, problems) == [] and problems == []


def test_pictures_by_lesson_and_figure():
    figures = {("a", "curve"): DrawnFigure("<svg/>", {}, {}, png=b"PNG1"),
               ("a", "bars"): DrawnFigure("<svg/>", {}, {}),
               ("b", "plot"): DrawnFigure("<svg/>", {}, {}, png=b"PNG2")}
    assert pictures(figures) == {"a": {"curve": b"PNG1"}, "b": {"plot": b"PNG2"}}
    assert pictures({}) == {}


def test_made_of_lists_each_page_s_figures_and_what_rendering_it_read(tmp_path):
    alpha, beta = computed(write_lesson(tmp_path, "alpha")), computed(write_lesson(tmp_path, "beta"))
    k1, k2 = "1" * 64, "2" * 64                # figure keys: SHA-256 digests in hex
    drawn = Drawn(keys={("alpha", "curve"): k1, ("alpha", "bars"): k2})
    found = made_of([alpha, beta], drawn, {"alpha": ("notebooks/n1.ipynb",)})
    assert found == {"alpha": ("notebooks/n1.ipynb", *(kind.entry(k1) for kind in FIGURE),
                               *(kind.entry(k2) for kind in FIGURE)),
                     "beta": ()}      # computed without a store: no values entry to keep


def test_a_theme_without_its_page_colours_is_reported_and_the_built_in_ones_stand_in(tmp_path):
    mine = tmp_path / "themes" / "mine"
    (mine / "assets").mkdir(parents=True)
    (mine / "assets" / "style.css").write_text("p { color: red; }\n", encoding="utf-8")
    problems = []
    assert theme_page_colors([mine, BUILTIN_THEMES / "default"], problems) == builtin_page_colors()
    # one problem for each colour it does not set: the light page's background, the dark page's background and text
    assert [p.path for p in problems] == [mine / "assets" / "style.css"] * 3
    problems = []
    assert theme_page_colors([BUILTIN_THEMES / "default"], problems) == builtin_page_colors() and problems == []
