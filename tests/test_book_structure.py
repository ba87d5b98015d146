"""Book-scale lessons (issue 20): numbered equations and references to them, in a lesson and across lessons;
aligned formulas as tables; synced tabs; a course in parts. Built through the command line in tmp_path; the
browser half (numbers on screen, tabs switching and remembered) is tests/browser/test_book_structure_in_browser.py."""
from __future__ import annotations

import re
import textwrap

YAML = "title: {title}\nsummary: 简介\nobjectives:\n  - 目标\n"
EQUATIONS_MD = r"""
## 定义 {#def}

先看 @eq:steps，再看 @eq:softmax。

$$\mathrm{softmax}(x)_i = \frac{e^{x_i}}{\sum_j e^{x_j}}$$ {#eq:softmax}

没有编号的公式：$$a = b$$

$$
\begin{aligned}
f(x) &= (x+1)^2 \\
     &= x^2 + 2x + 1
\end{aligned}
$$ {#eq:steps}

$$A^T = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}^T$$

别的课的 @lesson:other#eq:mean 和 @lesson:other#fig:line。
"""
OTHER_MD = "## 均值 {#mean}\n\n$$\\bar x = \\frac{1}{n}\\sum_i x_i$$ {#eq:first}\n\n$$m$$ {#eq:mean}\n\n" \
           "{{< figure dots >}}\n\n{{< figure line >}}\n"
OTHER_PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.figure(caption="点", alt="两个点")
def dots(plt):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], "o")
    return fig


@lesson.figure(caption="线", alt="一条线")
def line(plt):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    return fig
"""


def course(make_lesson, md=EQUATIONS_MD, other_md=OTHER_MD):
    make_lesson(slug="eqs", yaml=YAML.format(title="公式课"), md=md, py=None)
    make_lesson(slug="other", yaml=YAML.format(title="另一课"), md=other_md, py=OTHER_PY)


def section(page: str, section_id: str) -> str:
    return re.search(rf'<section id="{section_id}".*?</section>', page, re.S).group(0)


def test_labelled_equations_are_numbered_in_reading_order_and_references_link_to_them(make_lesson, run_build):
    course(make_lesson)
    code, _, err, out = run_build("--jobs", "1")
    assert code == 0, err
    page = (out / "eqs" / "index.html").read_text(encoding="utf-8")
    body = section(page, "def")
    numbered = re.findall(r'<span class="equation" id="eq-([\w-]+)" data-widget="equation">.*?'
                          r'<span class="eq-number">([^<]*)</span></span>', body, re.S)
    assert numbered == [("softmax", "(1)"), ("steps", "(2)")]  # the unlabelled one between them has no number
    assert body.count('class="math-block"') == 4
    # references before the equation they name, and across lessons: the other lesson's second equation, 2nd figure
    assert '先看 <a class="eq-ref" href="#eq-steps">式 (2)</a>，再看 <a class="eq-ref" href="#eq-softmax">式 (1)</a>' in body
    assert '<a class="lesson-ref" href="../other/index.html#eq-mean">另一课 · 式 (2)</a>' in body
    assert '<a class="lesson-ref" href="../other/index.html#fig-line">另一课 · 图 2</a>' in body
    other = (out / "other" / "index.html").read_text(encoding="utf-8")
    assert 'id="eq-mean"' in other and 'id="fig-line"' in other


def test_aligned_rows_are_a_table_and_a_matrix_takes_its_superscript_whole(make_lesson, run_build):
    course(make_lesson)
    code, _, err, out = run_build("--jobs", "1")
    assert code == 0, err
    body = section((out / "eqs" / "index.html").read_text(encoding="utf-8"), "def")
    steps = re.search(r'id="eq-steps".*?</math>', body, re.S).group(0)
    steps = re.sub(r' alttext="[^"]*"', "", steps)  # (its TeX, `&` and all, is the formula's text alternative)
    assert "&amp;" not in steps and "<mi>&</mi>" not in steps
    rows = re.findall(r"<mtr>(.*?)</mtr>", steps, re.S)
    assert len(rows) == 2
    for row in rows:  # `&=`: the left side right-aligned, `=` and the right side left-aligned, in each row
        cells = re.findall(r'<mtd columnalign="(\w+)"\s*/?>(.*?)(?=<mtd|$)', row, re.S)
        assert [align for align, _ in cells] == ["right", "left"]
        assert re.match(r"(<mi\s*/>|<mi></mi>)?<mo>=</mo>", cells[1][1])
    transposed = re.findall(r"<msup>(.*?)</msup>", body, re.S)[-1]  # the matrix's `^T`: its two children
    assert transposed.startswith("<mrow><mo>[</mo><mtable>") and transposed.endswith("</mrow><mi>T</mi>")


def test_only_pages_with_equations_or_aligned_math_carry_their_rules(make_lesson, run_build):
    course(make_lesson, other_md="## 均值 {#mean}\n\n$$m = 1$$\n\n{{< figure dots >}}\n\n{{< figure line >}}\n")
    code, _, err, out = run_build("--jobs", "1", "--lesson", "eqs")
    assert code == 1 and "unknown equation `@lesson:other#eq:mean` (expected an equation labelled in that lesson: " \
                          "none)" in err
    course(make_lesson, other_md="## 均值 {#mean}\n\n$$m = 1$$ {#eq:mean}\n\n{{< figure dots >}}\n\n"
                                 "{{< figure line >}}\n")
    code, _, err, out = run_build("--jobs", "1")
    assert code == 0, err
    assert ".eq-number{" in (out / "eqs" / "index.html").read_text(encoding="utf-8")
    assert ".eq-number{" not in (out / "index.html").read_text(encoding="utf-8")


def problems(err: str) -> list[str]:
    return [line.strip().removeprefix("content/") for line in err.splitlines()[1:]]


def test_equation_mistakes_are_errors_at_their_lines(make_lesson, run_build):
    md = textwrap.dedent(r"""
        ## 一 {#one}

        $$a$$ {#eq:a}

        $$b$$ {#eq:a}

        见 @eq:b 和 @lesson:other#eq:meen。

        $x$ {#eq:c}

        $$\foo{x}$$ {#eq:中文}
        """).lstrip()
    make_lesson(slug="eqs", yaml=YAML.format(title="公式课") + "intro: \"$$c$$ {#eq:c}\"\n", md=md, py=None)
    make_lesson(slug="other", yaml=YAML.format(title="另一课"), md=OTHER_MD, py=OTHER_PY)
    code, _, err, _ = run_build("--jobs", "1")
    assert code == 1 and "Traceback" not in err
    assert problems(err) == [
        "eqs/lesson.md:5: equation label `eq:a` is used twice (first at line 3) (expected a unique `{#eq:NAME}` per "
        "equation)",
        "eqs/lesson.md:7: reference to unknown equation `@eq:b` (expected an equation labelled `$$ … $$ {#eq:NAME}` "
        "in the lesson: a)",
        "eqs/lesson.md:7: link to unknown equation `@lesson:other#eq:meen`; did you mean `mean`? (expected an "
        "equation labelled in that lesson: first, mean)",
        "eqs/lesson.md:9: an equation label `{#eq:…}` that follows no display equation (expected `$$ … $$ "
        "{#eq:NAME}`: the label right after the closing `$$`)",
        "eqs/lesson.md:11: unknown LaTeX command `\\foo` (expected a command the converter knows, e.g. `\\frac`, "
        "`\\sum`, `\\mathrm`, `\\operatorname`)",
        "eqs/lesson.md:11: cannot read the equation label `{#eq:中文}` (expected `{#eq:NAME}` right after the closing "
        "`$$`, NAME made of ASCII letters, digits, - and _)",
        "eqs/lesson.yaml:5: numbered equation `{#eq:c}` outside lesson.md's sections (expected equations numbered in "
        "lesson.md only (in reading order); refer to one from anywhere with `@eq:NAME`)",
    ]


TABS_MD = textwrap.dedent("""
    ## 代码 {#code}

    ::: tabs framework
    ::: tab PyTorch
    `torch.ones(3)`
    :::
    ::: tab NumPy
    `np.ones(3)`
    :::
    :::
    """).lstrip()


def test_tabs_print_every_tab_under_its_label_with_the_aria_tabs_pattern(make_lesson, run_build):
    make_lesson(slug="tabs", md=TABS_MD, py=None)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "tabs" / "index.html").read_text(encoding="utf-8")
    root = re.search(r'<div class="widget widget-tabs" id="tabs-1" data-widget="tabs">.*?</script>\n</div>', page,
                     re.S).group(0)
    assert '"group":"framework"' in root and '"storage":"lessonkit-tabs:framework"' in root
    tabs = re.findall(r'<button type="button" role="tab"[^>]*id="(tabs-1-tab-\d)" aria-controls="(tabs-1-panel-\d)" '
                      r'aria-selected="(\w+)" tabindex="(-?\d)" data-key="([^"]+)">([^<]*)</button>', root)
    assert tabs == [("tabs-1-tab-0", "tabs-1-panel-0", "true", "0", "PyTorch", "PyTorch"),
                    ("tabs-1-tab-1", "tabs-1-panel-1", "false", "-1", "NumPy", "NumPy")]
    panels = re.findall(r'<div class="tab-panel[^"]*" role="tabpanel" id="(tabs-1-panel-\d)" '
                        r'aria-labelledby="(tabs-1-tab-\d)" tabindex="0">\s*<p class="tab-panel-title"[^>]*>(\w+)</p>\s*'
                        r'<p><code>([^<]*)</code></p>', root)
    assert panels == [("tabs-1-panel-0", "tabs-1-tab-0", "PyTorch", "torch.ones(3)"),
                      ("tabs-1-panel-1", "tabs-1-tab-1", "NumPy", "np.ones(3)")]
    assert re.search(r"""lessonkit\.widget\(['"`]tabs['"`]""", page)          # (minified: any quotes)
    make_lesson(slug="tabs", md="## 一 {#one}\n\n文字。\n", py=None)
    assert run_build()[0] == 0
    plain_page = (out / "tabs" / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"""lessonkit\.widget\(['"`]tabs['"`]""", plain_page)


def test_tab_mistakes_are_errors_at_their_lines(make_lesson, run_build):
    md = textwrap.dedent("""
        ## 代码 {#code}

        ::: tabs
        ::: tab A
        a
        :::
        ::: tab A
        b
        :::
        :::

        ::: tab B
        c
        :::

        ::: tabs os
        stray
        :::
        """).lstrip()
    make_lesson(slug="tabs", md=md, py=None)
    code, _, err, _ = run_build()
    assert code == 1 and "Traceback" not in err
    assert problems(err) == [
        "tabs/lesson.md:3: `::: tabs` without a group name (expected `::: tabs GROUP`, GROUP made of ASCII letters, "
        "digits, - and _ (e.g. `::: tabs framework`): the tab sets of one group switch together)",
        "tabs/lesson.md:7: two tabs labelled `A` in one set (first at line 4) (expected a different label for each "
        "tab of a set)",
        "tabs/lesson.md:12: `::: tab` outside a `::: tabs` block (expected tabs inside `::: tabs` … `:::`)",
        "tabs/lesson.md:16: `::: tabs` without a `::: tab` block (expected `::: tab LABEL` … `:::` blocks inside it)",
        "tabs/lesson.md:17: `::: tabs` shows only its `::: tab` blocks: this is outside any of them (expected the "
        "content inside a `::: tab TITLE` … `:::` block, or after the closing `:::` of the `::: tabs` block)",
    ]


PARTS = """\
title: 一本书
parts:
  - title: 第一部分 基础
    lessons: [gamma, alpha]
  - title: 第二部分 进阶
    lessons:
      - beta
"""


def three_lessons(make_lesson):
    for slug, order in (("alpha", 1), ("beta", 2), ("gamma", 3)):  # `order` says otherwise: the parts decide
        make_lesson(slug=slug, yaml=YAML.format(title=f"{slug} 课") + f"order: {order}\n",
                    md=f"## 开头 {{#start}}\n\n{slug} 正文。\n", py=None)


def test_parts_order_the_contents_the_index_and_the_pager(make_lesson, run_build, tmp_path):
    three_lessons(make_lesson)
    (tmp_path / "content" / "site.yaml").write_text(PARTS, encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 0, err
    index = (out / "index.html").read_text(encoding="utf-8")
    parts = re.findall(r'<h2 class="lesson-part-title" id="part-\d">([^<]*)</h2>(.*?)</section>', index, re.S)
    assert [title for title, _ in parts] == ["第一部分 基础", "第二部分 进阶"]
    assert [re.findall(r'<h3 class="lesson-item-title"><a href="(\w+)/index.html"><span class="lesson-num">'
                       r'第 (\d) 课', body) for _, body in parts] == [[("gamma", "1"), ("alpha", "2")], [("beta", "3")]]
    alpha = (out / "alpha" / "index.html").read_text(encoding="utf-8")
    assert 'rel="prev" href="../gamma/index.html"' in alpha and 'rel="next" href="../beta/index.html"' in alpha
    nav = re.search(r'<nav class="course-nav".*?</nav>', alpha, re.S).group(0)
    titles = re.findall(r'<p class="course-part-title">([^<]*)</p>', nav)
    assert titles == ["第一部分 基础", "第二部分 进阶"]
    assert re.findall(r'<span class="lesson-num">(\d)</span> (\w+) 课', nav) == [("1", "gamma"), ("2", "alpha"),
                                                                                ("3", "beta")]
    assert "warning" not in err  # `order` ties or not, the parts order the course


def test_parts_that_do_not_match_the_lessons_are_errors_at_their_lines(make_lesson, run_build, tmp_path):
    three_lessons(make_lesson)
    (tmp_path / "content" / "site.yaml").write_text(
        "parts:\n  - title: 一\n    lessons: [alpah, gamma]\n  - title: 二\n    lessons:\n      - gamma\n",
        encoding="utf-8")
    code, _, err, _ = run_build()
    assert code == 1 and "Traceback" not in err
    assert problems(err) == [
        "site.yaml:1: lessons in no part: alpha, beta (expected every lesson in exactly one part (`lessons: [slug, …]` "
        "of a part))",
        "site.yaml:3: unknown lesson `alpah` in part 1; did you mean `alpha`? (expected a lesson folder under "
        "content/: alpha, beta, gamma)",
        "site.yaml:6: lesson `gamma` is in two parts (first at line 3) (expected each lesson in exactly one part)",
    ]
