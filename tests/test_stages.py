"""stages.py, through the entry points that stay while the cache is reworked (issue 26: support/cache.py becomes a
store; make_pages' many inputs become one object): compute_all, which runs each lesson's code and leaves out a lesson
whose values cannot be computed, and pictures, the PNGs a build drew by lesson. make_pages, made_of and remember
are driven by the end-to-end build tests (test_incremental.py, test_cache.py) until their inputs settle."""
from lessonkit.draw.drawing import DrawnFigure
from lessonkit.load.lessons import read_lesson
from lessonkit.stages import compute_all, pictures
from page_setting import read, write_lesson

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
