"""render/placers.py and the features' placements: what each directive, `[[term]]` and `@lesson:` put in the text — HTML, or a Miss saying what
is wrong (markup adds file and line). The placers of one small computed lesson (no figure drawn) are called as
markup would call them; the lesson and the course around it are written here."""
import re

import pytest

from lessonkit.features.coursenav import Course
from lessonkit.render.draft import FigureDataHole, FigureHole
from lessonkit.features import code as listings
from lessonkit.features import coursenav, figures, glossary, selfcheck_page, widget_page
from lessonkit.features.figures import unknown
from lessonkit.render.placers import LessonRenderer
from lessonkit.support.errors import Miss, Notice
from page_setting import NONCE, computed, course_of, read, setting, write_lesson

PY = """\
from lessonkit import Lesson, table

lesson = Lesson()


@lesson.value
def n():
    return 1024


@lesson.value
def rows():
    return [{"x": 1, "y": 2}, {"x": 3, "y": 4}]


@lesson.value
def captioned(rows):
    return table(rows, caption="Two rows of {{ n }}")


@lesson.figure(caption="Curve of {{ n }}", alt="a curve")
def curve(plt):
    pass


@lesson.figure(caption="Blank", alt=" ")
def blank(plt):
    pass


@lesson.widget(kind="gauge")
def meter(n):
    return {"value": n}


@lesson.widget(kind="dial")
def knob(n):
    return {"value": n}


def helper():
    return 1
"""

MD = """\
## One {#one}

{{< figure curve >}}

$$e = mc^2$$ {#eq:energy}
"""

YAML = """\
title: Tiny lesson
summary: A lesson to test with
objectives:
  - Read *a* number
checks:
  - id: quiz
    question: Pick one
    check:
      choices:
        - text: right
          correct: true
        - text: wrong
"""

GAUGE = '<p class="gauge">{{ widget.data.value }}</p>\n'


@pytest.fixture
def lesson(tmp_path):
    return computed(write_lesson(tmp_path, md=MD, yaml=YAML, py=PY, files={"widgets/gauge/widget.html": GAUGE}))


def renderer_of(lesson, course: Course | None = None, **options) -> LessonRenderer:
    return LessonRenderer(lesson, setting(course, **options))


def missed(result) -> tuple[str, str]:
    assert isinstance(result, Miss), result
    return str(result.message), str(result.expected)


# ── figures ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def test_a_figure_is_its_holes_number_and_caption(lesson):
    r = renderer_of(lesson)
    html = figures.place(r, "curve", ())
    assert '<figure id="fig-curve" class="figure">' in html
    assert '<div class="figure-svg" role="img" aria-label="a curve">' in html
    assert '<span class="fig-num">Figure 1</span> Curve of 1024' in html     # the caption's value filled in
    assert r.setting.holes.known == [FigureHole("demo", "curve"), FigureDataHole("demo", "curve", "fig-curve", 1)]
    assert f"<!--lk-{NONCE}-0-->" in html and f"<!--lk-{NONCE}-1-->" in html
    assert 'id="fig-curve-print"' in figures.place(r, "curve", (), copy="print")


def test_an_unknown_figure_and_an_empty_alt_text(lesson):
    r = renderer_of(lesson)
    assert missed(figures.place(r, "curv", ())) == (
        "unknown figure `curv`; did you mean `curve`?",
        "a figure defined with @lesson.figure in lesson.py: blank, curve")
    assert missed(figures.place(r, "blank", ()))[0] == "figure `blank` has an empty alt text"


def test_unknown_names_a_widget_or_a_figure():
    assert str(unknown("widget", "metre", ["meter", "knob"]).message) == "unknown widget `metre`; did you mean `meter`?"
    assert str(unknown("figure", "x", []).expected) == "a figure defined with @lesson.figure in lesson.py: none"


# ── widgets ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def test_a_widget_is_mounted_once_with_its_data(lesson):
    r = renderer_of(lesson)
    html = widget_page.place(r, "meter", ())
    assert html.startswith('<div class="widget widget-gauge" id="widget-meter" data-widget="gauge">')
    assert '<p class="gauge">1024</p>' in html
    assert '<script type="application/json" id="widget-meter-data">{"value":1024}</script>' in html
    assert missed(widget_page.place(r, "meter", ())) == ("widget `meter` is placed twice", "each widget placed once")


def test_an_unknown_widget_and_a_kind_without_a_component(lesson):
    r = renderer_of(lesson)
    assert missed(widget_page.place(r, "metre", ()))[0] == "unknown widget `metre`; did you mean `meter`?"
    message, expected = missed(widget_page.place(r, "knob", ()))
    assert message == "widget `knob` is of kind `dial`, but there is no component widgets/dial/widget.html"
    assert expected.startswith("a component folder in demo/widgets/ or the theme; kinds: ")
    assert "gauge" in expected.split("kinds: ")[1].split(", ")   # the lesson's own kind is among them


# ── code listings ───────────────────────────────────────────────────────────────────────────────────────────────────
def test_a_value_s_code_and_what_it_computed(lesson):
    r = renderer_of(lesson)
    html = listings.place(r, "n", ())
    assert '<div class="code-listing" id="code-n" data-widget="code">' in html
    assert "<code>n</code> · lesson.py, lines 7–8</p>" in html    # from its `def` (line 7 of PY) to its end
    assert "<samp>1024</samp>" in html
    assert missed(listings.place(r, "n", ())) == ("code `n` is shown twice", "each function's code shown once")


def test_a_figure_function_s_code_places_its_figure(tmp_path):
    md = "## One {#one}\n\n{{< code curve >}}\n\n{{< code blank output=false >}}\n"
    r = renderer_of(computed(write_lesson(tmp_path, md=md, yaml=YAML, py=PY,
                                          files={"widgets/gauge/widget.html": GAUGE})))
    assert 'id="fig-curve"' in listings.place(r, "curve", ())
    assert 'id="fig-curve"' not in listings.place(r, "blank", ("output=false",))   # the source alone: nothing drawn


@pytest.mark.parametrize("name, args, message", [
    ("n", ("output=maybe",), "cannot read `output=maybe` in `{{< code n >}}`"),
    ("nn", (), "unknown function `nn` in lesson.py; did you mean `n`?"),
    ("helper", (), "`helper` is not a value, figure or widget of the lesson: it has no output to show"),
])
def test_code_that_cannot_be_shown(lesson, name, args, message):
    assert missed(listings.place(renderer_of(lesson), name, args))[0] == message


def test_a_helper_s_source_alone_is_fine(lesson):
    assert 'id="code-helper"' in listings.place(renderer_of(lesson), "helper", ("output=false",))


def test_code_of_a_lesson_without_lesson_py(tmp_path):
    lesson = computed(write_lesson(tmp_path, md="## One {#one}\n\nText.\n", py=None))
    assert missed(listings.place(renderer_of(lesson), "n", ()))[0] == "code `n` but the lesson has no lesson.py"


# ── self-checks and tables ──────────────────────────────────────────────────────────────────────────────────────────
def test_a_self_check_is_placed_once(lesson):
    r = renderer_of(lesson)
    html = selfcheck_page.place_check(r, "quiz", ())
    assert 'id="check-quiz"' in html and [c["id"] for c in r.ledger.alone_checks] == ["selfcheck-quiz"]
    assert r.ledger.checks == {"quiz"}
    assert missed(selfcheck_page.place_check(r, "quiz", ()))[0] == "self-check `quiz` is placed twice"
    assert missed(selfcheck_page.place_check(r, "quizz", ())) == ("unknown self-check `quizz`; did you mean `quiz`?",
                                            "an `id` in lesson.yaml's `checks:` list: quiz")


def test_tables_take_their_ids_from_the_numbering_and_a_value_that_is_no_table_says_why(lesson):
    from lessonkit.render.numbering import PageNumbers

    r = renderer_of(lesson)
    md = r.lesson.source.body_path
    r.numbers = PageNumbers({}, {("table", md, 7): 1, ("table", md, 9): 2})   # (what the pass gives two tables)
    first, second = (widget_page.place_table(r, "rows", (), at=(md, 7)),
                     widget_page.place_table(r, "captioned", (), at=(md, 9)))
    assert re.findall(r"<t[hd][^>]*>(\d)</t[hd]>", first) == ["1", "2", "3", "4"]
    assert 'id="table-1' not in first                        # without a caption nothing refers to its id …
    assert '<p class="table-caption" id="table-2-caption">Two rows of 1024</p>' in second   # … the second table
    assert missed(widget_page.place_table(r, "row", (), at=(md, 7)))[0] == \
        "unknown value `row` for a table; did you mean `rows`?"
    assert missed(widget_page.place_table(r, "n", (), at=(md, 7)))[0].startswith("value `n` cannot be shown as a table: ")
    printed = widget_page.place_table(r, "captioned", (), at=(md, 9), copy="print")
    assert 'id="table-2-print-caption"' in printed


# ── terms and links ─────────────────────────────────────────────────────────────────────────────────────────────────
def test_a_term_without_a_glossary(lesson):
    assert missed(glossary.mark(renderer_of(lesson), "softmax", None))[0] == \
        "glossary term `[[softmax]]` but there is no content/glossary.yaml"


@pytest.fixture
def other(tmp_path):
    md = "## Start {#start}\n\n$$a$$ {#eq:first}\n\n{{< figure plot >}}\n"
    py = PY.replace("def curve(plt)", "def plot(plt)")
    return read(write_lesson(tmp_path / "more", "other", md=md, yaml=YAML.replace("Tiny lesson", "Other"), py=py))


@pytest.mark.parametrize("anchor, html", [
    (None, '<a class="lesson-ref" href="../other/index.html">Other</a>'),
    ("start", '<a class="lesson-ref" href="../other/index.html#start">Other · 1 Start</a>'),
    ("eq:first", '<a class="lesson-ref" href="../other/index.html#eq-first">Other · Eq. (1)</a>'),
    ("fig:plot", '<a class="lesson-ref" href="../other/index.html#fig-plot">Other · Figure 1</a>'),
])
def test_links_to_another_lesson_and_places_in_it(lesson, other, anchor, html):
    r = renderer_of(lesson, course_of(lesson.source, other))
    assert coursenav.link(r, "other", anchor) == html


def test_a_link_to_the_page_itself_goes_to_its_top_or_the_place(lesson):
    r = renderer_of(lesson, course_of(lesson.source))
    assert coursenav.link(r, "demo", None) == '<a class="lesson-ref" href="#main">Tiny lesson</a>'
    assert coursenav.link(r, "demo", "eq:energy") == '<a class="lesson-ref" href="#eq-energy">Tiny lesson · Eq. (1)</a>'


@pytest.mark.parametrize("slug, anchor, message", [
    ("othr", None, "link to unknown lesson `@lesson:othr`; did you mean `other`?"),
    ("other", "strat", "link to unknown section `@lesson:other#strat`; did you mean `start`?"),
    ("other", "eq:frist", "link to unknown equation `@lesson:other#eq:frist`; did you mean `first`?"),
    ("other", "fig:curve", "link to unknown figure `@lesson:other#fig:curve`"),
])
def test_links_to_what_does_not_exist(lesson, other, slug, anchor, message):
    r = renderer_of(lesson, course_of(lesson.source, other))
    assert missed(coursenav.link(r, slug, anchor))[0] == message


def test_a_page_for_a_learning_platform_links_nowhere_but_to_itself(lesson, other):
    r = renderer_of(lesson, course_of(lesson.source, other), lms=True)
    assert coursenav.link(r, "other", "start") == '<span class="lesson-ref">Other · 1 Start</span>'
    assert coursenav.link(r, "demo", "one").startswith('<a class="lesson-ref" href="#one">')


def test_a_link_to_a_lesson_left_out_is_a_notice(lesson):
    result = coursenav.link(renderer_of(lesson, course_of(lesson.source, left_out=("later",))), "later", None)
    assert isinstance(result, Notice) and "lesson-coming" in result.html


# ── lesson.yaml's fields ────────────────────────────────────────────────────────────────────────────────────────────
def test_figures_widgets_and_checks_are_placed_in_lesson_md_only(lesson):
    r = renderer_of(lesson)
    for kind in ("figure", "widget", "check"):
        assert missed(r.yaml_placers[kind]("curve", ()))[0] == "`curve` placed outside lesson.md"
    assert r.yaml_placers["table"] is r.ctx.placers["table"]
    assert r.answer_ctx.placers["figure"] is r.ctx.placers["figure"]   # a challenge's answer may place a figure


def test_what_is_never_placed_is_reported_by_the_feature_that_owns_it(lesson):
    r = renderer_of(lesson)
    figures.place(r, "curve", ())               # placed in MD; `blank` and the self-check `quiz` are not
    assert [(p.path.name, str(p.message)) for p in r.unplaced()] == [
        ("lesson.yaml", "self-check `quiz` is never placed"),
        ("lesson.md", "figure `blank` is defined in lesson.py but never placed")]
    selfcheck_page.place_check(r, "quiz", ())
    assert [str(p.message) for p in r.unplaced()] == ["figure `blank` is defined in lesson.py but never placed"]


def test_md_renders_a_field_the_plan_parsed_and_refuses_one_it_did_not(lesson):
    r = renderer_of(lesson)
    assert r.md("checks.0.question", "Pick one") == "<p>Pick one</p>"
    assert r.md("objectives.0", "Read *a* number", inline=True) == "Read <em>a</em> number"
    with pytest.raises(KeyError):
        r.md("intro", "never parsed")   # our bug, not the author's: every Markdown field is parsed at load


def test_a_figure_registered_without_the_decorator_shown_by_its_code_is_the_author_s_problem(tmp_path):
    """Figure numbers come from the plan, which reads `@lesson.figure(…)` in lesson.py's source before any code
    runs; a figure registered by a call (`lesson.figure(…)(draw)`) is not numbered there, so its code listing cannot
    show it as a numbered figure. Said at the directive, never a traceback."""
    py = """\
        from lessonkit import Lesson

        lesson = Lesson()


        def draw(plt):
            pass


        lesson.figure(caption="Line", alt="a line")(draw)
        """
    lesson = computed(write_lesson(tmp_path, md="## One {#one}\n\n{{< code draw >}}\n", py=py))
    r = renderer_of(lesson)
    message, expected = missed(listings.place(r, "draw", ()))
    assert message == ("`{{< code draw >}}` shows figure `draw`, but lesson.py does not declare it with "
                       "`@lesson.figure(…)` above `def draw`")
    assert expected.startswith("`@lesson.figure(caption=…, alt=…)` directly above the function")
    assert r.setting.holes.known == []                                   # nothing placed


def test_a_figure_named_by_a_variable_shown_by_its_code_is_the_author_s_problem(tmp_path):
    py = """\
        from lessonkit import Lesson

        lesson = Lesson()
        NAME = "line"


        @lesson.figure(caption="Line", alt="a line", name=NAME)
        def draw(plt):
            pass
        """
    lesson = computed(write_lesson(tmp_path, md="## One {#one}\n\n{{< code draw >}}\n", py=py))
    assert lesson.source.plan.figure_functions == {"draw": "draw"}   # what the source says without running it
    message, _ = missed(listings.place(renderer_of(lesson), "draw", ()))
    assert message.startswith("`{{< code draw >}}` shows figure `line`, but lesson.py does not declare it")
