"""Mistakes a widget author makes, reported where they can be fixed: `file:line: message (expected …)`, files named
from the project (the content folder's parent: here tmp_path), as `content/demo/…`.

A lesson's own component (content/<slug>/widgets/<kind>/) is content: its mistakes exit 1 with the rest of the
lesson's problems. A theme's component is the theme's: exit 2. Never exit 3 ("a bug in lessonkit"), never a traceback.
The data of the built-in kinds (explorer, bars, mask_table, tables) is checked against its schema
(lessonkit/features/widgetdata.py) where lesson.py makes it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from lessonkit.support.paths import BUILTIN_THEMES

MD = """\
## 第一节 {#first}

{{< widget shelf >}}
"""

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def books():
    return ["甲", "乙"]


@lesson.widget(kind="shelf")
def shelf(books):
    return {"books": books}
"""
WIDGET_LINE = PY.splitlines().index('@lesson.widget(kind="shelf")') + 1   # where the function starts: its decorator

GOOD_HTML = """\
<ul class="shelf">
{% for b in widget.data.books %}<li>{{ b }}</li>
{% endfor %}</ul>
"""


def component(folder: Path, html: str | None = GOOD_HTML, kind: str = "shelf", js: str | None = None) -> Path:
    """Write a component into `folder` (a lesson's or a theme's); its widget.html as messages name it."""
    where = folder / "widgets" / kind
    where.mkdir(parents=True, exist_ok=True)
    if html is not None:
        (where / "widget.html").write_text(html, encoding="utf-8")
    if js is not None:
        (where / "widget.js").write_text(js, encoding="utf-8")
    return (where / "widget.html").relative_to(folder.parent.parent)  # content/demo/… or themes/mine/…


def no_bug(code: int, err: str) -> None:
    assert code != 3 and "Traceback" not in err and "bug in lessonkit" not in err, err


def test_a_good_component_of_the_lessons_own_builds(make_lesson, run_build):
    folder = make_lesson(md=MD, py=PY)
    component(folder, js="lessonkit.widget('shelf', function (root, data) { root.setAttribute('data-n', data.books.length); });")
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<div class="widget widget-shelf" id="widget-shelf" data-widget="shelf">' in page
    assert re.search(r'<script type="application/json" id="widget-shelf-data">\{\s*"books"', page)
    assert "<li>甲</li>" in page and "lessonkit.widget('shelf'" in page


def test_a_key_the_data_lacks_names_the_widget_function_and_the_key(make_lesson, run_build):
    folder = make_lesson(md=MD, py=PY)
    template = component(folder, GOOD_HTML.replace("widget.data.books", "widget.data.shelves"))
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert f"lesson.py:{WIDGET_LINE}: widget `shelf` (kind `shelf`)" in err
    assert "shelves" in err                                   # the key it could not find
    assert f"(at {template}:2)" in err                        # and where the template reads it


def test_data_of_the_wrong_shape_for_a_built_in_kind_is_checked_against_its_schema(make_lesson, run_build):
    py = PY.replace('@lesson.widget(kind="shelf")', '@lesson.widget(kind="bars")')
    make_lesson(md=MD, py=py)
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    where = f"content/demo/lesson.py:{WIDGET_LINE}: widget `shelf` (kind `bars`): "
    assert err.splitlines()[1:] == [
        f"  {where}unknown key `books` (expected one of: caption, rows, scale)",
        f"  {where}missing required key `caption` (expected the chart's caption (\"\" for none))",
        f"  {where}missing required key `rows` (expected the bars: `[{{label, text, bar, highlight}}, …]`)"]


def test_a_lessons_own_component_of_a_built_in_kind_reads_the_data_it_likes(make_lesson, run_build):
    """The schema is the default component's: a lesson's own widgets/bars/ decides for itself."""
    folder = make_lesson(md=MD, py=PY.replace('@lesson.widget(kind="shelf")', '@lesson.widget(kind="bars")'))
    component(folder, kind="bars")
    code, _, err, out = run_build()
    assert code == 0, err
    assert "<li>甲</li>" in (out / "demo" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("broken, line", [
    ("<ul>\n{% for b in widget.data.books %}<li>{{ b }}</li>\n</ul>\n", 3),          # no endfor
    ("<ul>\n<li>{{ widget.data.books | nosuchfilter }}</li>\n</ul>\n", 2),           # unknown filter
    ("<p>\n{{ widget.data.books[ }}\n</p>\n", 2),
])
def test_a_syntax_error_in_the_lessons_own_template_names_that_file_and_line(make_lesson, run_build, broken, line):
    folder = make_lesson(md=MD, py=PY)
    template = component(folder, broken)
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert re.search(re.escape(f"{template}:") + r"\d+: template error", err), err
    found = int(re.search(re.escape(f"{template}:") + r"(\d+)", err).group(1))
    assert abs(found - line) <= 1, err
    assert "lesson.html" not in err


def theme_with(tmp_path: Path, kind: str, html: str) -> list[str]:
    """A theme `mine` beside the real default, holding one component; the build options that select it."""
    from lesson_folders import PROJECT

    themes = tmp_path / "themes"
    themes.mkdir(exist_ok=True)
    if not (themes / "default").exists():
        (themes / "default").symlink_to(BUILTIN_THEMES / "default")
    component(themes / "mine", html, kind)
    return ["--theme", "mine", "--themes-dir", str(themes)]


def test_a_syntax_error_in_a_theme_component_is_the_themes_exit_2(make_lesson, run_build, tmp_path):
    make_lesson(md=MD, py=PY)
    options = theme_with(tmp_path, "shelf", "<ul>\n{% for b in widget.data.books %}\n</ul>\n")
    code, _, err, _ = run_build(*options)
    no_bug(code, err)
    assert code == 2
    assert re.search(r"themes/mine/widgets/shelf/widget\.html:\d+: template error", err), err


def test_the_lessons_own_component_wins_over_the_themes(make_lesson, run_build, tmp_path):
    folder = make_lesson(md=MD, py=PY)
    options = theme_with(tmp_path, "shelf", "<p>主题的</p>\n")
    component(folder, "<p>本课的</p>\n")
    code, _, err, out = run_build(*options)
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "本课的" in page and "主题的" not in page


@pytest.mark.parametrize("attribute", ['style="color:red"', "onclick=\"alert(1)\""])
def test_a_blocked_attribute_is_blamed_on_the_widget_template(make_lesson, run_build, attribute):
    folder = make_lesson(md=MD, py=PY)
    template = component(folder, f"<ul>\n<li {attribute}>{{{{ widget.data.books[0] }}}}</li>\n</ul>\n")
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    name = attribute.split("=")[0]
    assert f"  {template}:2: a `{name}=` attribute: the page's Content-Security-Policy blocks it (expected style in " \
           "widget.css, event handlers in widget.js (the policy lets no inline ones run))" in err, err
    assert "lesson.html" not in err


def test_the_blocked_attribute_message_is_chinese_through_and_through(make_lesson, run_build):
    folder = make_lesson(md=MD, py=PY)
    template = component(folder, '<ul>\n<li style="color:red">{{ widget.data.books[0] }}</li>\n</ul>\n')
    code, _, err, _ = run_build("--lang", "zh-CN")
    assert code == 1
    assert err.splitlines()[1] == f"  {template}:2: `style=` 属性：页面的内容安全策略（Content-Security-Policy）会拦下它" \
                                  "（应为 样式写进 widget.css，事件处理写进 widget.js（这个策略不允许任何内联的样式和脚本））"


def test_a_blocked_attribute_in_a_theme_component_is_exit_2(make_lesson, run_build, tmp_path):
    make_lesson(md=MD, py=PY)
    options = theme_with(tmp_path, "shelf", '<p style="color:red">x</p>\n')
    code, _, err, _ = run_build(*options)
    no_bug(code, err)
    assert code == 2 and "themes/mine/widgets/shelf/widget.html" in err and "lesson.html" not in err


def test_unknown_widget_and_figure_names_get_did_you_mean(make_lesson, run_build):
    py = PY + '''

@lesson.figure(caption="书架", alt="两本书")
def shelf_plot(plt, books):
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.bar([0, 1], [1, 2])
    return fig
'''
    md = "## 第一节 {#first}\n\n{{< widget shelve >}}\n\n{{< figure shelf_plt >}}\n\n{{< figure shelf_plot >}}\n"
    make_lesson(md=md, py=py)
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert "lesson.md:3: unknown widget `shelve`; did you mean `shelf`?" in err
    assert "lesson.md:5: unknown figure `shelf_plt`; did you mean `shelf_plot`?" in err


def test_an_unknown_kind_gets_did_you_mean(make_lesson, run_build):
    py = PY.replace('kind="shelf"', 'kind="explorr"')
    make_lesson(md=MD, py=py)
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert "lesson.md:3: widget `shelf` is of kind `explorr`" in err and "did you mean `explorer`?" in err


def test_a_lesson_kind_without_widget_html_gets_did_you_mean(make_lesson, run_build):
    folder = make_lesson(md=MD, py=PY.replace('kind="shelf"', 'kind="shelves"'))
    component(folder)                                              # widgets/shelf/ exists, widgets/shelves/ not
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1 and "did you mean `shelf`?" in err


@pytest.mark.parametrize("alt", ['""', '"   "', '"{{ empty }}"'])
def test_an_empty_alt_on_a_figure_is_an_error(make_lesson, run_build, alt):
    py = PY + f'''

@lesson.value
def empty():
    return ""


@lesson.figure(caption="书架", alt={alt})
def shelf_plot(plt, books):
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.bar([0, 1], [1, 2])
    return fig
'''
    folder = make_lesson(md=MD + "\n{{< figure shelf_plot >}}\n", py=py)
    component(folder)
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert "figure `shelf_plot` has an empty alt text" in err


@pytest.mark.parametrize("kind", ["../shelf", "shelf box", "Shelf.v2", ""])
def test_a_kind_that_is_not_a_folder_name_is_reported(make_lesson, run_build, kind):
    folder = make_lesson(md=MD, py=PY.replace('kind="shelf"', f'kind="{kind}"'))
    component(folder)
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert f"lesson.py:{WIDGET_LINE}: widget `shelf`: kind {kind!r} cannot name a component folder" in err, err


# ── tables: caption and column names are Markdown, like a figure's caption ───────────────────────────────────────
TABLE_PY = '''\
from lessonkit import Lesson, table

lesson = Lesson()


@lesson.value
def d():
    return 64


@lesson.value
def scores(d):
    return table({"$d$": [16, d], "$\\\\sqrt{d}$": [4.0, 8.0]}, caption="维度 $d$ 取到 {{ d }} 时", spec="sig2")
'''
TABLE_LINE = TABLE_PY.splitlines().index("def scores(d):")   # the decorator's line, 1-based


def test_a_tables_caption_and_column_names_show_maths_and_values(make_lesson, run_build):
    make_lesson(md="## 第一节 {#first}\n\n{{< table scores >}}\n", py=TABLE_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    block = page[page.index('<div class="table-block">'):page.index("</table>")]
    caption_id, caption = re.search(r'<p class="table-caption" id="([^"]+)">(.*?)</p>', block, re.S).groups()
    table = block[block.index('<table class="computed-table"'):]
    assert f'aria-labelledby="{caption_id}"' in table                  # the caption names its table
    assert caption.startswith("维度 <math") and "<mi>d</mi>" in caption and caption.endswith("取到 64 时")
    headers = re.findall(r'<th scope="col">(.*?)</th>', table, re.S)
    assert len(headers) == 2 and all(h.startswith("<math") for h in headers) and "<msqrt>" in headers[1]
    assert "$" not in table and "{{" not in table
    assert re.findall(r"<td>(.*?)</td>", table) == ["4.0", "8.0"]   # cells are text, formatted with spec sig2


def test_an_unknown_value_in_a_table_caption_is_reported_at_the_tables_value(make_lesson, run_build):
    make_lesson(md="## 第一节 {#first}\n\n{{< table scores >}}\n", py=TABLE_PY.replace("{{ d }}", "{{ dd }}"))
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert f"content/demo/lesson.py:{TABLE_LINE}: unknown value `dd`; did you mean `d`?" in err, err


# ── built-in kinds: what lesson.py hands them is checked where it does ─────────────────────────────────────────────
BUILT_IN = '''\
from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.widget(kind="{kind}")
def shelf():
    {body}
'''


@pytest.mark.parametrize("kind, body, expected", [
    ("bars", 'return bars(["甲", "乙"], [0.5, float("inf")])',
     "`bars(…)`: `values[1]` is ∞, not a finite number (expected a finite number (or None for a gap))"),
    ("bars", 'return bars(["甲", "乙"], [0.5, 0.2], scale="logarithmic")',
     "`bars(…)`: `scale` 'logarithmic' is not linear or log (expected \"linear\" or \"log\")"),
    ("explorer", 'return explorer([param("n", "n", [1, 2])], state=lambda n: None)',
     "`explorer(…)`: `states[0]` is None (nothing) (the state at n = 1) (expected the state as a dict: "
     "`{\"values\": [(label, number), …], \"text\": \"…\"}`)"),
    ("explorer", 'return explorer([param("n", "n", [1, 2], control="slide")], state=lambda n: {"text": "x"})',
     "`param(…)`: `control` 'slide' of `n` is not one of slider, stepper, buttons; did you mean `slider`? "
     "(expected slider, stepper or buttons)"),
    ("explorer", 'return explorer([param("n", "n", [1, 2])], state=lambda n: {"values": [("n", n, "sig9x")]})',
     "`explorer(…)`: `states[0].values[0]` cannot be shown: cannot show 1: bad format spec 'sig9x': Invalid "
     "format specifier 'sig9x' for object of type 'float' (the state at n = 1) (expected a format spec such as "
     "sig3, pct2 or .2f)"),
    ("mask_table", 'return {"rows": ["甲", "乙"], "cols": ["甲"], "context": "c", "initial_mode": "a", '
                   '"modes": [{"key": "a", "label": "A", "visible": [[True], [True, False]]}]}',
     "widget `shelf` (kind `mask_table`): `modes[0].visible` does not have 2 rows of 1 (one per row label and "
     "column label) (expected true/false per row and column: `visible[row][col]`)"),
])
def test_built_in_kinds_name_the_key_path_of_what_does_not_fit(make_lesson, run_build, kind, body, expected):
    py = BUILT_IN.replace("{kind}", kind).replace("{body}", body)
    make_lesson(md="## 第一节 {#first}\n\n{{< widget shelf >}}\n", py=py)
    code, _, err, _ = run_build()
    no_bug(code, err)
    line = 6 if kind == "mask_table" else 8   # the widget function (its decorator), or the builder's call in it
    assert err.splitlines()[1:] == [f"  content/demo/lesson.py:{line}: {expected}"]


def test_a_table_spec_for_a_column_it_lacks_gets_did_you_mean(make_lesson, run_build):
    py = TABLE_PY.replace('spec="sig2"', 'spec={"$\\\\sqrt{d }$": "sig2"}')
    make_lesson(md="## 第一节 {#first}\n\n{{< table scores >}}\n", py=py)
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert err.splitlines()[1:] == [
        f"  content/demo/lesson.py:{TABLE_LINE + 2}: `table(…)`: `spec` names the column `$\\sqrt{{d }}$`, which the "
        "table does not have; did you mean `$\\sqrt{d}$`? (expected columns: $d$, $\\sqrt{d}$)"]


def test_an_explorer_gap_shows_a_dash(make_lesson, run_build):
    py = BUILT_IN.replace("{kind}", "explorer").replace(
        "{body}", 'return explorer([param("n", "n", [1, 2])], state=lambda n: {"values": [("1/(n−1)", None if n == 1 '
                  'else 1 / (n - 1))]}, key=[1, 2])')
    make_lesson(md="## 第一节 {#first}\n\n{{< widget shelf >}}\n", py=py)
    code, _, err, out = run_build()
    assert code == 0, err
    keys = (out / "demo" / "index.html").read_text(encoding="utf-8").split('<div class="ex-keys">')[1]
    assert re.findall(r'<span class="ex-value">(.*?)</span>', keys)[:2] == ["—", "1.00"]
