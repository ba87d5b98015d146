"""render/lesson.py: render_lesson, everything lesson.html shows of one computed lesson — figures numbered in
reading order (sections, then the challenges' answers, an answer's figure printed again with other ids), answers
left out when the release hides them yet still checked, what must be placed and what may not be placed where, the
edition's parts (teacher, learning platform). One small lesson computed in tmp_path (no figure drawn); the figure
holes the context marks say which figure got which number."""
import json
import re

import pytest

from lessonkit.features.coursenav import Course
from lessonkit.load.release import Release
from lessonkit.render.draft import FigureDataHole
from lessonkit.render.lesson import render_lesson
from lessonkit.support.errors import ContentError
from page_setting import UI, computed, course_of, setting, write_lesson

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def n():
    return 1024


@lesson.figure(caption="Curve", alt="a curve")
def curve(plt):
    pass


@lesson.figure(caption="Bars", alt="some bars", name="bars")
def draw_bars(plt):
    pass


@lesson.figure(caption="Answer", alt="the answer drawn")
def answer_fig(plt):
    pass
"""

MD = """\
## One {#one}

{{< figure curve >}}

Two to the ten is {{ n }}.

## Two {#two}

{{< code draw_bars >}}
{{< check quiz >}}
"""

YAML = """\
title: Tiny lesson
summary: A lesson to test with
objectives:
  - Read a number
challenges:
  - title: First
    question: How much?
    answer: |
      See the figure: {{ n }}.

      {{< figure answer_fig >}}
checks:
  - id: quiz
    question: Pick one
    check:
      choices:
        - text: right
          correct: true
        - text: wrong
    answer: The right one.
"""


def context_of(tmp_path, md=MD, yaml=YAML, py=PY, **options):
    lesson = computed(write_lesson(tmp_path, md=md, yaml=yaml, py=py))
    page = setting(**options)
    return render_lesson(lesson, page).context, page


def problems_of(tmp_path, md=MD, yaml=YAML, py=PY, **options) -> list[tuple[str, int | None, str]]:
    with pytest.raises(ContentError) as info:
        context_of(tmp_path, md, yaml, py, **options)
    return [(p.path.name, p.line, str(p.message)) for p in info.value.problems]


def test_figures_are_numbered_in_reading_order_and_an_answer_s_figure_is_printed_again(tmp_path):
    context, page = context_of(tmp_path)
    assert [h for h in page.holes.known if isinstance(h, FigureDataHole)] == [
        FigureDataHole("demo", "curve", "fig-curve", 1),
        FigureDataHole("demo", "bars", "fig-bars", 2),                  # placed by its function's code listing
        FigureDataHole("demo", "answer_fig", "fig-answer_fig", 3),      # the answer on screen …
        FigureDataHole("demo", "answer_fig", "fig-answer_fig-print", 3)]  # … and printed with the answers
    (challenge,) = context["challenges"]
    assert 'id="fig-answer_fig"' in challenge["answer"] and 'id="fig-answer_fig-print"' in challenge["answer_print"]
    assert "See the figure: 1024." in challenge["answer"]
    assert [s["id"] for s in context["sections"]] == ["one", "two"]
    assert 'id="fig-curve"' in context["sections"][0]["body"] and "Two to the ten is 1024." in \
        context["sections"][0]["body"]


def test_the_head_and_the_edition(tmp_path):
    context, _ = context_of(tmp_path)
    assert (context["slug"], context["title"], context["summary"]) == ("demo", "Tiny lesson", "A lesson to test with")
    assert context["objectives"] == ["Read a number"]
    assert context["intro"] == "" and context["question"] == ""
    # well under 100 words of text (under ½ minute) and three figures (1½ minutes): 2 minutes
    assert context["minutes"] == 2
    assert context["notebook"] == {"url": "demo.ipynb"}
    assert (context["teacher"], context["draft"], context["answers"], context["answers_from"]) == \
        (False, False, True, None)
    assert [c["name"] for c in context["checks"]] == ["quiz"]           # a standalone check with an answer
    assert context["warnings"] == [] and "package" not in context


def test_hidden_answers_are_left_out_but_still_checked(tmp_path):
    context, page = context_of(tmp_path, release=Release(answers=False))
    assert (context["challenges"][0]["answer"], context["challenges"][0]["answer_print"]) == ("", "")
    assert context["checks"] == [] and context["answers"] is False
    broken = YAML.replace("See the figure: {{ n }}.", "See the figure: {{ nn }}.")
    assert problems_of(tmp_path / "again", yaml=broken, release=Release(answers=False)) == [
        ("lesson.yaml", 9, "unknown value `nn`; did you mean `n`?")]


def test_a_figure_placed_twice(tmp_path):
    md = MD + "\n{{< figure curve >}}\n"
    assert problems_of(tmp_path, md=md) == [("lesson.md", 12, "figure `curve` is placed twice (first at line 3)")]
    yaml = YAML.replace("{{< figure answer_fig >}}", "{{< figure curve >}}")
    assert ("lesson.yaml", 11, "figure `curve` is placed twice (first at lesson.md:3)") in \
        problems_of(tmp_path / "again", yaml=yaml)


def test_what_is_never_placed(tmp_path):
    md = MD.replace("{{< check quiz >}}\n", "").replace("{{< figure curve >}}\n", "")
    assert problems_of(tmp_path, md=md) == [
        ("lesson.yaml", 13, "self-check `quiz` is never placed"),
        ("lesson.md", None, "figure `curve` is defined in lesson.py but never placed")]


@pytest.mark.parametrize("yaml_edit, problem", [
    (("  - Read a number", "  - Read a [[number]]"),
     (4, "glossary term `[[number]]` in an objective (the index page shows it too)")),
    (("  - Read a number", "  - Read a number [@knuth]"),
     (4, "citation `[@knuth]` in an objective (the index page shows it too)")),
    (("objectives:", "intro: |\n  Look:\n\n  {{< figure curve >}}\nobjectives:"),
     (6, "`curve` placed outside lesson.md")),
])
def test_what_lesson_yaml_s_fields_may_not_hold(tmp_path, yaml_edit, problem):
    assert problem in [(line, message) for _, line, message in problems_of(tmp_path, yaml=YAML.replace(*yaml_edit))]


def test_a_section_title_holds_no_citation(tmp_path):
    md = MD.replace("## Two {#two}", "## Two [@knuth] {#two}")
    assert ("lesson.md", 7, "citation `[@knuth]` in a section title") in problems_of(tmp_path, md=md)


def test_a_link_to_a_lesson_not_published_yet_is_a_warning(tmp_path):
    md = MD.replace("Two to the ten is {{ n }}.", "Later: @lesson:later.")
    lesson = computed(write_lesson(tmp_path, md=md, yaml=YAML, py=PY))
    # a lesson the build leaves out is not among the course's lessons, only named as left out
    context = render_lesson(lesson, setting(course_of(lesson.source, left_out=("later",)))).context
    assert [str(w.message) for w in context["warnings"]] == [
        "link to `@lesson:later`, which this site does not publish yet (a draft, or released later): the page shows "
        f"“{UI.coming_soon}”"]
    assert f'<span class="lesson-ref lesson-coming">{UI.coming_soon}</span>' in context["sections"][0]["body"]


def test_the_teacher_s_edition_shows_the_speaker_notes(tmp_path):
    md = MD + "\n::: notes\nAsk the class first.\n:::\n"
    students, _ = context_of(tmp_path / "students", md=md)
    teacher, _ = context_of(tmp_path / "teacher", md=md, teacher=True)
    assert (students["teacher"], teacher["teacher"]) == (False, True)
    hidden, shown = students["sections"][1]["body"], teacher["sections"][1]["body"]
    assert re.search(r'<aside class="speaker-notes" data-widget="notes" hidden>\s*<p>Ask the class first.</p>', hidden)
    assert re.search(r'<aside class="speaker-notes speaker-notes-shown"[^>]*>', shown) and " hidden>" not in shown


def test_a_page_for_a_learning_platform_carries_its_package_and_the_scorm_component(tmp_path):
    from lessonkit.render.lesson import render_lesson

    rendered = render_lesson(computed(write_lesson(tmp_path, md=MD, yaml=YAML, py=PY)), setting(lms=True))
    context, package = rendered.context, rendered.package
    assert (package.slug, package.title, package.mastery) == ("demo", "Tiny lesson", 60)
    assert package.check_ids == ["check-quiz"]        # the challenge has no self-check
    data = json.loads(re.search(r'id="lms-scorm-data">(.*?)</script>', context["scorm"])[1])
    assert data == {"checks": [["check-quiz", "check-quiz"]], "mastery": 60}


def test_a_lesson_without_challenges_or_checks(tmp_path):
    lesson = computed(write_lesson(tmp_path))
    context = render_lesson(lesson, setting(Course())).context
    assert context["challenges"] == [] and context["checks"] == []
    assert context["minutes"] == 1 and "Two to the ten is 1024." in context["sections"][0]["body"]
