"""render/pages.py: the render stage — computed lessons → page drafts: each lesson page with its neighbours in course
order, the index page with every lesson (kept ones too), the glossary page when there is a glossary; a lesson with a
problem gets no page but the others do; a theme's template mistake is a usage error at its file and line. Two small
lessons computed in tmp_path (no figure drawn)."""
import datetime as dt
import textwrap

import pytest

from lessonkit.features.components import Components
from lessonkit.features.glossary import load_glossary
from lessonkit.load.release import Edition, Publication, Release
from lessonkit.load.siteconfig import Part, SiteConfig
from lessonkit.render import markup
from lessonkit.render.draft import CodeHole, FigureHole, Holes
from lessonkit.render.definitions import render_definitions
from lessonkit.render.pages import Renderer, render_site
from lessonkit.render.templates import make_env
from lessonkit.support.errors import UsageError
from page_setting import DIRS, ENV, NONCE, UI, YAML, computed, write_lesson

FIRST_MD = "## One {#one}\n\nTwo to the ten is {{ n }}.\n"
SECOND_MD = "## Start {#start}\n\nBack to @lesson:alpha#one.\n"


def lessons(tmp_path, second_md: str = SECOND_MD):
    alpha = computed(write_lesson(tmp_path, "alpha", md=FIRST_MD, yaml=YAML.replace("Tiny lesson", "Alpha")))
    beta = computed(write_lesson(tmp_path, "beta", md=second_md, yaml=YAML.replace("Tiny lesson", "Beta")))
    return [alpha, beta]


def renderer(env=ENV, publication=None, format="site") -> Renderer:
    from lessonkit.load.formats import FORMATS

    return Renderer(env, UI, Components(DIRS), Holes(nonce=NONCE), markup.Converters(), publication=publication,
                    format=FORMATS[format])


def text_of(draft) -> str:
    return "".join(p if isinstance(p, str) else f"[{type(p).__name__}]" for p in draft.parts)


def render(computed_lessons, config=SiteConfig(), **options):
    problems = []
    rendered = render_site(computed_lessons, options.pop("renderer", None) or renderer(), config, problems, **options)
    return rendered, [str(p) for p in problems]


def test_each_lesson_page_then_the_index(tmp_path):
    rendered, problems = render(lessons(tmp_path))
    assert problems == []
    assert [(d.path, d.template) for d in rendered.drafts] == [
        ("alpha/index.html", "lesson.html"), ("beta/index.html", "lesson.html"), ("index.html", "index.html")]
    assert sorted(rendered.summaries) == ["alpha", "beta"]
    assert rendered.summaries["beta"]["title"] == "Beta" and rendered.summaries["alpha"]["minutes"] == 1
    alpha = rendered.drafts[0]
    assert alpha.lesson_folder == tmp_path / "alpha"
    assert [path for path, _ in alpha.files] == ["alpha/alpha.ipynb"]      # its notebook, written beside it
    assert {CodeHole("style"), CodeHole("head"), CodeHole("scripts"), CodeHole("policy")} <= set(alpha.parts)


def test_neighbours_link_in_course_order(tmp_path):
    rendered, _ = render(lessons(tmp_path))
    alpha, beta, index = (text_of(d) for d in rendered.drafts)
    assert 'rel="next" href="../beta/index.html"' in alpha and 'rel="prev"' not in alpha
    assert 'rel="prev" href="../alpha/index.html"' in beta and 'rel="next"' not in beta
    assert '<a class="lesson-ref" href="../alpha/index.html#one">Alpha · 1 One</a>' in beta
    assert index.index("Alpha") < index.index("Beta")


def test_site_yaml_s_parts_decide_the_order(tmp_path):
    config = SiteConfig(parts=(Part("Part one", ("beta", "alpha"), 2, (3, 4)),))
    rendered, _ = render(lessons(tmp_path), config)
    assert [d.path for d in rendered.drafts] == ["beta/index.html", "alpha/index.html", "index.html"]
    assert 'rel="next" href="../alpha/index.html"' in text_of(rendered.drafts[0])


def test_a_lesson_with_a_problem_has_no_page_but_the_others_do(tmp_path):
    rendered, problems = render(lessons(tmp_path, second_md="## Start {#start}\n\n{{ nothing }}\n"))
    assert problems == [f"{tmp_path / 'beta' / 'lesson.md'}:3: unknown value `nothing` (expected a value defined in "
                        "lesson.py: n)"]
    assert [d.path for d in rendered.drafts] == ["alpha/index.html", "index.html"]


def test_a_kept_lesson_is_listed_and_linked_but_not_rendered(tmp_path):
    alpha, beta = lessons(tmp_path)
    first, _ = render([alpha, beta])
    rendered, problems = render([beta], sources=[alpha.source, beta.source],
                                kept={"alpha": first.summaries["alpha"]})
    assert problems == []
    assert [d.path for d in rendered.drafts] == ["beta/index.html", "index.html"]
    assert 'rel="prev" href="../alpha/index.html"' in text_of(rendered.drafts[0])
    assert 'href="alpha/index.html"' in text_of(rendered.drafts[1])
    assert sorted(rendered.summaries) == ["beta"]      # only what was rendered now


def test_a_page_for_a_learning_platform_stands_alone(tmp_path):
    publication = Publication(Edition(lms=True), {})
    rendered, _ = render(lessons(tmp_path), renderer=renderer(publication=publication, format="lms"))
    alpha = text_of(rendered.drafts[0])
    assert 'rel="next"' not in alpha and "scorm" in rendered.drafts[0].components
    assert sorted(rendered.packages) == ["alpha", "beta"]


def test_a_lesson_released_later_is_announced_on_the_index(tmp_path):
    alpha, beta = lessons(tmp_path)
    publication = Publication(Edition(), {"beta": Release(built=False, coming=dt.date(2027, 4, 1))},
                              announced=(("beta", "Beta", dt.date(2027, 4, 1)),))
    rendered, problems = render([alpha], sources=[alpha.source], renderer=renderer(publication=publication))
    assert problems == [] and [d.path for d in rendered.drafts] == ["alpha/index.html", "index.html"]
    assert "2027-04-01" in text_of(rendered.drafts[1])


def test_the_glossary_page_and_its_terms(tmp_path):
    content = tmp_path / "content"
    (content).mkdir()
    (content / "glossary.yaml").write_text(textwrap.dedent("""\
        terms:
          - id: power
            zh: 幂
            en: power
            definition: Repeated *multiplication*, e.g. $2^{10}$.
        """), encoding="utf-8")
    problems = []
    glossary = load_glossary(content, problems)
    alpha = computed(write_lesson(content, "alpha", md="## One {#one}\n\nA [[power]] of two: {{ n }}.\n"))
    rendered, problems = render([alpha], glossary=glossary)
    assert problems == []
    assert [d.path for d in rendered.drafts] == ["alpha/index.html", "index.html", "glossary.html"]
    page = text_of(rendered.drafts[2])
    assert "Repeated <em>multiplication</em>" in page and "<math" in page
    assert 'href="alpha/index.html#term-power"' in page
    assert rendered.summaries["alpha"]["glossary"] == [{"id": "power"}]


def test_render_definitions_reports_a_definition_s_problem_at_its_line(tmp_path):
    (tmp_path / "glossary.yaml").write_text(textwrap.dedent("""\
        terms:
          - id: power
            zh: 幂
            en: power
            definition: See {{ n }}.
        """), encoding="utf-8")
    problems = []
    definitions = render_definitions(load_glossary(tmp_path, problems), problems)
    assert [(p.line, str(p.message)) for p in problems] == [(5, "unknown value `n`")]
    assert list(definitions) == ["power"]


def test_a_theme_template_mistake_is_a_usage_error_at_its_line(tmp_path):
    mine = tmp_path / "themes" / "mine"
    mine.mkdir(parents=True)
    (mine / "index.html").write_text("<!doctype html>\n<p>{{ no_such_thing.title }}</p>\n", encoding="utf-8")
    dirs = [mine, *DIRS]
    env = make_env(dirs)
    with pytest.raises(UsageError) as info:
        render(lessons(tmp_path / "content"), renderer=Renderer(env, UI, Components(dirs), Holes(),
                                                                    markup.Converters()))
    assert str(info.value).startswith(f"{mine / 'index.html'}:2: template error: ")


def test_figure_holes_stay_holes_in_the_draft(tmp_path):
    py = """\
        from lessonkit import Lesson

        lesson = Lesson()


        @lesson.figure(caption="Curve", alt="a curve")
        def curve(plt):
            pass
        """
    alpha = computed(write_lesson(tmp_path, "alpha", md="## One {#one}\n\n{{< figure curve >}}\n", py=py))
    rendered, _ = render([alpha])
    assert rendered.drafts[0].figures() == [FigureHole("alpha", "curve")]
