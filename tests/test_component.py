"""render/component.py: a component's widget.html rendered with its data, and each mistake reported where it can be
fixed — in a lesson's own component a content problem at the template's line (exit 1), in a theme's a usage error
naming file and line (exit 2), a widget's data that does not fit at the widget function's line in lesson.py. The
components are written into tmp_path; the line numbers are those of the templates written here."""
from pathlib import Path

import pytest

from lessonkit.compute.run import ComputedWidget
from lessonkit.features.components import Component
from lessonkit.render.component import render_component
from lessonkit.render.templates import make_env
from lessonkit.support.errors import UsageError
from lessonkit.support.i18n import UnknownUiString, load_ui
from lessonkit.support.paths import BUILTIN_THEMES

DIRS = [BUILTIN_THEMES / "default"]
ENV = make_env(DIRS)
UI = load_ui(DIRS, "en")
CODE = Path("content/demo/lesson.py")
CONTEXT = {"id": "widget-w", "name": "w", "kind": "gauge", "data": {"value": 3, "items": [1, 2]}}


def component(tmp_path: Path, template: str, in_lesson: bool = True) -> Component:
    folder = tmp_path / ("demo/widgets" if in_lesson else "themes/mine/widgets") / "gauge"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "widget.html").write_text(template, encoding="utf-8")
    return Component("gauge", folder, in_lesson)


def render(c: Component, widget: ComputedWidget | None = None):
    problems = []
    return render_component(ENV, UI, c, CONTEXT, widget, "w", CODE, problems), problems


def test_a_component_renders_with_its_data(tmp_path):
    inner, problems = render(component(tmp_path, '<p id="{{ widget.id }}-v">{{ widget.data.value }}</p>\n'
                                                 "{% for i in widget.data.items %}{{ i }};{% endfor %}\n"))
    assert problems == []
    assert inner == '<p id="widget-w-v">3</p>\n1;2;'   # `items`: the data's key, not dict.items


def test_a_syntax_error_in_a_lesson_s_own_component_is_a_problem_at_its_line(tmp_path):
    c = component(tmp_path, "<p>\n{{ widget.data.value }}\n{% if widget.data.value %}\n<p>\n")
    inner, problems = render(c)
    assert inner is None
    assert [(p.path, p.line) for p in problems] == [(c.template, 4)]    # where Jinja found the `if` unclosed
    assert str(problems[0].message).startswith("template error: ")
    assert str(problems[0].expected) == "a valid Jinja template"


def test_a_syntax_error_in_a_theme_component_is_a_usage_error_naming_file_and_line(tmp_path):
    c = component(tmp_path, "<p>\n{{ widget.data.value }\n", in_lesson=False)
    with pytest.raises(UsageError) as info:
        render(c)
    assert str(info.value).startswith(f"{c.template}:2: template error: ")


def test_what_the_template_reads_but_the_data_lacks_without_a_widget_is_the_template_s_problem(tmp_path):
    c = component(tmp_path, "<p>{{ widget.id }}</p>\n\n<p>{{ widget.data.missing.deeper }}</p>\n")
    inner, problems = render(c)
    assert inner is None
    assert [(p.path, p.line) for p in problems] == [(c.template, 3)]
    assert "'dict object' has no attribute 'missing'" in str(problems[0].message)


def test_a_widget_s_data_that_does_not_fit_is_reported_at_its_function_in_lesson_py(tmp_path):
    c = component(tmp_path, "<p>{{ widget.id }}</p>\n<p>{{ widget.data.missing.deeper }}</p>\n")
    inner, problems = render(c, ComputedWidget("gauge", CONTEXT["data"], line=12))
    assert inner is None
    assert [(p.path, p.line) for p in problems] == [(CODE, 12)]
    message = str(problems[0].message)
    assert message.startswith("widget `w` (kind `gauge`): its data does not fit the component: ")
    assert message.endswith(f"(at {c.template}:2)")
    assert str(problems[0].expected) == "data with the keys and shapes widgets/gauge/widget.html reads"


@pytest.mark.parametrize("attribute", ["onclick", "style", "onload", "onClick", "STYLE"])
def test_an_attribute_the_page_s_policy_would_block_is_a_problem_at_the_line_that_writes_it(tmp_path, attribute):
    template = f'<div>\n<p class="a">{{{{ widget.id }}}}</p>\n<button {attribute}="go()">x</button>\n</div>\n'
    c = component(tmp_path, template)
    inner, problems = render(c)
    assert inner is None
    assert [(p.path, p.line, str(p.message)) for p in problems] == [
        (c.template, 3, f"a `{attribute}=` attribute: the page's Content-Security-Policy blocks it")]


def test_a_blocked_attribute_in_a_theme_component_is_a_usage_error(tmp_path):
    c = component(tmp_path, "<p>\n<b onclick=\"x()\">b</b>\n", in_lesson=False)
    with pytest.raises(UsageError, match=r"widget\.html:2: a `onclick=` attribute"):
        render(c)


def test_a_data_attribute_that_merely_ends_in_on_or_style_is_fine(tmp_path):
    inner, problems = render(component(tmp_path, '<p data-style="x" data-on="y" class="onclick">z</p>\n'))
    assert problems == [] and inner == '<p data-style="x" data-on="y" class="onclick">z</p>\n'


def test_an_attribute_written_with_spaces_around_its_equals_sign_is_found_too(tmp_path):
    c = component(tmp_path, '<p>\n<b onclick = "x()">b</b>\n')
    assert [(p.line, str(p.message)) for p in render(c)[1]] == [
        (2, "a `onclick=` attribute: the page's Content-Security-Policy blocks it")]


def test_the_words_of_an_attribute_s_value_are_text(tmp_path):
    """A widget's data may say `style=` in a label (escaped, its `=` stays): the browser blocks nothing there."""
    c = component(tmp_path, '<div role="img" aria-label="{{ widget.data.label }}">x</div>\n')
    problems = []
    context = {**CONTEXT, "data": {"label": "set style=bold, then onload=go"}}
    inner = render_component(ENV, UI, c, context, None, "w", CODE, problems)
    assert problems == [] and inner == '<div role="img" aria-label="set style=bold, then onload=go">x</div>\n'


def test_a_word_the_theme_lacks_is_not_the_component_s_problem(tmp_path):
    with pytest.raises(UnknownUiString):
        render(component(tmp_path, "<p>{{ ui.no_such_word_anywhere }}</p>\n"))
