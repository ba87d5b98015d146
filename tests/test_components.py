"""Widget components: found lesson → theme → default; a page inlines the code of exactly the kinds it uses."""
import base64
import hashlib
import re

MINIMAL_YAML = "title: 小课\nsummary: 一节用来测试的小课\nobjectives:\n  - 看懂一个数\n"
COUNTER_PY = """\
from lessonkit import Lesson
from lessonkit.support.numbers import format_value

lesson = Lesson()


@lesson.widget
def counter():
    return {"steps": [format_value(0.5 ** n) for n in range(4)]}
"""
COUNTER_HTML = '<p class="counter-value">{{ widget.data.steps[0] }}</p><button type="button">下一步</button>\n'
COUNTER_JS = "lessonkit.widget('counter', function (root, data) { /* counter-js */ });\n"
COUNTER_CSS = ".counter-value{font-weight:700} /* counter-css */\n"


def add_component(folder, kind, html=COUNTER_HTML, js=COUNTER_JS, css=COUNTER_CSS):
    target = folder / "widgets" / kind
    target.mkdir(parents=True)
    for name, text in (("widget.html", html), ("widget.js", js), ("widget.css", css)):
        if text is not None:
            (target / name).write_text(text, encoding="utf-8")


def inline(page: str, tag: str) -> str:
    return re.search(rf"<{tag}>(.*?)</{tag}>", page, re.S).group(1)


def scripts(page: str) -> list[str]:
    """The page's inline scripts (the base code, then one per component), without its JSON data blocks."""
    return re.findall(r"<script>(.*?)</script>", page, re.S)


def source_url(script: str) -> str:
    return re.search(r"\n//# sourceURL=(\S+)$", script).group(1)


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_a_lesson_brings_its_own_widget_kind(make_lesson, run_build):
    folder = make_lesson(md="## 一 {#one}\n\n{{< widget counter >}}\n", py=COUNTER_PY)
    add_component(folder, "counter")
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<div class="widget widget-counter" id="widget-counter" data-widget="counter">' in page
    assert '<p class="counter-value">1.00</p>' in page  # formatted in Python, shown without JS
    assert re.search(r'id="widget-counter-data">\{"steps":\["1.00","0.500","0.250","0.125"\]\}</script>', page)
    style = inline(page, "style")
    by_file = {source_url(s): s for s in scripts(page)}
    script = by_file["content/demo/widgets/counter/widget.js"]     # its own script, named for devtools
    assert script.startswith("lessonkit.widget('counter'") and ".counter-value{font-weight:700}" in style
    assert "counter" not in by_file["themes/default/assets/lesson.js"]
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    script_src = re.search(r"script-src ([^;]*);", csp).group(1).split()
    assert sorted(script_src) == sorted(sha(s) for s in by_file.values())  # exactly what is inlined
    assert sha(style) in csp


def test_each_script_keeps_its_files_line_numbers(make_lesson, run_build):
    """lean_js strips indentation and comment lines but never joins lines: line 6 of widget.js is line 6 of its
    script, so a console error `widget.js:6` points at the line the author wrote."""
    js = ("// counter: the first line is a comment\n"
          "lessonkit.widget('counter', function (root, data) {\n"
          "\n"
          "    // a comment inside\n"
          "    var steps = data.steps;\n"
          "    root.setAttribute('data-last', steps[steps.length - 1]);  // line 6\n"
          "});\n")
    folder = make_lesson(md="## 一 {#one}\n\n{{< widget counter >}}\n", py=COUNTER_PY)
    add_component(folder, "counter", js=js)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    script = next(s for s in scripts(page) if "'counter'" in s)
    lines = script.splitlines()
    assert lines[5] == "root.setAttribute('data-last', steps[steps.length - 1]);  // line 6"
    assert lines[:5] == ["", "lessonkit.widget('counter', function (root, data) {", "", "", "var steps = data.steps;"]
    assert lines[-1] == "//# sourceURL=content/demo/widgets/counter/widget.js"


def test_a_page_inlines_only_the_kinds_it_places(make_lesson, run_build):
    make_lesson(md="## 一 {#one}\n\n没有小部件。\n")
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'data-widget="([\w-]+)"', page))
    script = "\n".join(scripts(page))
    registered = set(re.findall(r"""lessonkit\.widget\(['"`]([\w-]+)['"`]""", script))   # (minified: any quotes)
    assert registered == used - {"counter"}  # page-level components only: no explorer, mask_table, toggle …
    assert not registered & {"explorer", "mask_table", "toggle", "bars"}


def test_the_lessons_component_wins_over_the_themes(make_lesson, run_build):
    py = COUNTER_PY.replace("@lesson.widget\ndef counter", "@lesson.widget(kind='bars')\ndef counter")
    folder = make_lesson(md="## 一 {#one}\n\n{{< widget counter >}}\n", py=py)
    add_component(folder, "bars", js="lessonkit.widget('bars', function () { /* the lesson's bars */ });\n")
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "the lesson's bars" in page and '<p class="counter-value">1.00</p>' in page
    assert "bars-list" not in page  # the theme's bars template was not used


def test_a_kind_without_a_component_is_reported_with_a_suggestion(make_lesson, run_build):
    py = COUNTER_PY.replace("@lesson.widget\ndef counter", "@lesson.widget(kind='explorr')\ndef counter")
    make_lesson(md="## 一 {#one}\n\n{{< widget counter >}}\n", py=py)
    code, _, err, _ = run_build()
    assert code == 1 and "Traceback" not in err
    assert ("lesson.md:3: widget `counter` is of kind `explorr`, but there is no component "
            "widgets/explorr/widget.html; did you mean `explorer`?") in err


def test_toggle_states_all_render_and_print(make_lesson, run_build):
    md = ("## 一 {#one}\n\n::: toggle 比较\n::: state 不缩放\n值是 {{ two_pow }}。\n:::\n"
          "::: state 缩放\n一半是 $2^9$。\n:::\n:::\n")
    make_lesson(md=md)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert page.count('<section class="toggle-state') == 2 and "值是 1024。" in page and "<msup>" in page
    assert any(re.search(r"""(^|[\n;}])lessonkit\.widget\(['"`]toggle['"`]""", s) for s in scripts(page))


def test_a_toggle_needs_two_states(make_lesson, run_build):
    make_lesson(md="## 一 {#one}\n\n::: toggle\n::: state 只有一个\n甲\n:::\n:::\n")
    code, _, err, _ = run_build()
    assert code == 1
    assert "lesson.md:3: a toggle needs at least two `::: state` blocks, found 1" in err


EXPLORER_PY = """\
import numpy as np
from lessonkit import Lesson, explorer, param

lesson = Lesson()


@lesson.widget
def powers():
    def draw(plt, p):
        x = np.linspace(0, 1, 5)
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.plot(x, x ** p)
        ax.set_title(f"幂 {p}")
        return fig

    return explorer(params=[param("p", "指数", [1, 2, 3])], state=lambda p: {"values": [("x=0.5 时", 0.5 ** p)]},
                    figure=draw, alt="y = x 的 {p} 次方", key=[1, 3])
"""


def test_an_explorer_figure_is_drawn_for_every_state(make_lesson, run_build):
    make_lesson(md="## 一 {#one}\n\n{{< widget powers >}}\n", py=EXPLORER_PY)
    for jobs in ("1", "2"):
        code, _, err, out = run_build("--jobs", jobs)
        assert code == 0, err
        page = (out / "demo" / "index.html").read_text(encoding="utf-8")
        live = re.findall(r'<div class="figure-svg ex-figure[^"]*" data-state="(\d)" role="img" aria-label="([^"]*)">'
                          r'\s*<svg', page)
        # the key states' figures (p = 1, 3) among the key states, where the live panel shows them too, then the other's
        assert live == [("0", "y = x 的 1 次方"), ("2", "y = x 的 3 次方"), ("1", "y = x 的 2 次方")]
        assert page.count(">幂 2<") == 1 and page.count(">幂 3<") == 1  # each state's figure once
        assert '<span class="ex-value" data-row="0">0.500</span>' in page


def test_data_keys_named_like_dict_methods_read_as_written(make_lesson, run_build):
    """`widget.data.items` is the data's `items`, not the method dict.items (Jinja looks attributes up first); the
    same for `keys`, `values`, `get`. A dict without such a key still offers its methods."""
    py = COUNTER_PY + '''

@lesson.widget
def basket():
    return {"items": ["苹果", "梨"], "keys": ["甲", "乙"], "values": [1, 2], "get": "拿", "plain": {"a": 1}}
'''
    html = ('<ul>{% for i in widget.data.items %}<li>{{ i }}</li>{% endfor %}</ul>'
            '<p>{{ widget.data.keys | join("、") }}；{{ widget.data.values | sum }}；{{ widget.data.get }}；'
            '{% for k, v in widget.data.plain.items() %}{{ k }}={{ v }}{% endfor %}</p>\n')
    folder = make_lesson(md="## 一 {#one}\n\n{{< widget basket >}}\n", py=py)
    add_component(folder, "basket", html=html, js=None, css=None)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "<ul><li>苹果</li><li>梨</li></ul><p>甲、乙；3；拿；a=1</p>" in page
