"""The hand-typed-number report (lessonkit/features/handnumbers.py): every digit an author typed into what a student
reads that no value computed, as a warning at its file and line (an error under --strict); what is notation, a
year, a reference, an identifier or marked `literal` is left alone; the lessons in content/ report nothing."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lesson_folders import PROJECT, real_lessons, warning_lines
from lessonkit.features.handnumbers import findings, report
from lessonkit.load.lessons import read_lesson

PLANTED_MD = """\
## 96 层网络 {#depth}

每层的导数是 {{ factor:g }}，连乘以后只剩 0.004 %。

- 第一条
- 训练了 12 个小时

$$x_1 + x_2 = 1.5$$
"""
PLANTED_YAML = """\
title: 小课
summary: 一节用来测试的小课
objectives:
  - 看懂一个数
challenges:
  - title: 算一算
    question: 把 {{ factor:g }} 连乘 {{ depth }} 次。
    answer: |
      大约剩下

      $$ {{ factor:g }}^{ {{ depth }} } \\approx 4.0 \\times 10^{-5} $$
    check:
      fields:
        - label: 剩下的 100 份里
          answer: left_0_9
          mistakes:
            - value: 0.006
              hint: 乘 100
"""
PLANTED_PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def factor():
    return 0.9


@lesson.value
def depth():
    return 96


@lesson.value
def left_0_9(factor, depth):
    return factor ** depth


@lesson.figure(caption="每层乘 {{ factor:g }}，"
                       "到第 96 层时只剩一点。",
               alt="一条下降的线，从 1 降到 {{ left_0_9 }}")
def decay(plt, factor):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [1, factor])
    return fig
"""
PLANTED_WIDGET = """\
{#- a template comment with 42 in it is not text -#}
<p class="shelf-caption" data-n="7">种子 {{ widget.data.seed }}，一共 5 层</p>
"""
MD_WITH_FIGURE_AND_WIDGET = PLANTED_MD + "\n{{< figure decay >}}\n"


def planted(make_lesson) -> Path:
    folder = make_lesson(yaml=PLANTED_YAML, md=MD_WITH_FIGURE_AND_WIDGET, py=PLANTED_PY)
    (folder / "widgets" / "shelf").mkdir(parents=True)
    (folder / "widgets" / "shelf" / "widget.html").write_text(PLANTED_WIDGET, encoding="utf-8")
    return folder


# Each line worked out by hand from the fixture above: the heading's 96 (line 1), 0.004 (3), the 12 of a list item
# that is not its marker (6), the decimal inside display maths (8); in lesson.yaml the 4.0 in the answer's maths
# (line 11: the `|` block starts on line 9), the label's 100 (line 14) and the hint's 100 (line 18) — not the
# check's value name `left_0_9` nor the known wrong answer 0.006; the caption's second piece (line 22 of lesson.py)
# and the alt's 1 (line 23); the template's 5 (line 2), not its attribute's 7 nor the comment's 42.
EXPECTED = [
    "demo/lesson.md:1: hand-typed number `96` in a heading",
    "demo/lesson.md:3: hand-typed number `0.004` in the text",
    "demo/lesson.md:6: hand-typed number `12` in the text",
    "demo/lesson.md:8: hand-typed number `1.5` in the maths",
    "demo/lesson.yaml:11: hand-typed number `4.0` in maths in `challenges.0.answer`",
    "demo/lesson.yaml:14: hand-typed number `100` in `challenges.0.check.fields.0.label`",
    "demo/lesson.yaml:18: hand-typed number `100` in `challenges.0.check.fields.0.mistakes.0.hint`",
    "demo/lesson.py:22: hand-typed number `96` in the caption of figure `decay`",
    "demo/lesson.py:23: hand-typed number `1` in the alt text of figure `decay`",
    "demo/widgets/shelf/widget.html:2: hand-typed number `5` in the component's template",
]
ADVICE = ": compute it in lesson.py and write {{ name }} (expected a value computed in lesson.py written as " \
         "{{ name }}, or a comment `literal` on the line for a number typed on purpose (`<!-- literal -->`, " \
         "`# literal`, `{# literal #}`))"


def test_planted_numbers_are_warnings_at_their_file_and_line(make_lesson, run_build):
    planted(make_lesson)
    code, _, err, out = run_build()
    assert code == 0 and (out / "demo" / "index.html").is_file()
    lines = warning_lines(err)
    assert lines[0] == f"warning: {len(EXPECTED)} thing(s) to check (the site was built; --strict makes them errors):"
    assert lines[1:] == [line + ADVICE for line in EXPECTED]


def test_under_strict_they_are_errors_and_nothing_is_written(make_lesson, run_build):
    planted(make_lesson)
    code, _, err, out = run_build("--strict")
    assert code == 1 and not out.exists()
    assert f"error: the content has {len(EXPECTED)} problem(s); nothing was written:" in err
    assert "demo/lesson.md:1: hand-typed number `96` in a heading" in err


def test_a_build_that_keeps_every_page_reports_them_again(make_lesson, run_build):
    planted(make_lesson)
    first = run_build()
    second = run_build()
    assert first[0] == second[0] == 0
    assert "Pages unchanged | 1 of 1" in second[1]  # the page came from the cache …
    assert first[2] == second[2]                      # … and the report is the same


def test_an_edited_file_is_read_again_and_the_others_report_as_before(make_lesson, run_build):
    """Each file's findings are kept with its bytes: edit lesson.md and the page is made again, lesson.md is read
    again (its new number found), the other files' findings are those of the first build; edit lesson.py's caption
    and its new number is found too."""
    folder = planted(make_lesson)
    run_build()
    md = folder / "lesson.md"
    md.write_text(md.read_text(encoding="utf-8") + "\n再加 37 个。\n", encoding="utf-8")
    code, out, err, _ = run_build()
    assert code == 0 and "Pages unchanged | 0 of 1" in out
    lines = [line.strip().removeprefix("content/").removesuffix(ADVICE) for line in err.splitlines()[1:]]
    added = f"demo/lesson.md:{len(md.read_text(encoding='utf-8').splitlines())}: hand-typed number `37` in the text"
    assert lines == EXPECTED[:4] + [added] + EXPECTED[4:]
    py = folder / "lesson.py"
    py.write_text(py.read_text(encoding="utf-8").replace("到第 96 层时", "到第 96 层、共 88 层时"), encoding="utf-8")
    code, _, err, _ = run_build()
    assert "demo/lesson.py:22: hand-typed number `88` in the caption of figure `decay`" in err


def test_a_heading_holds_a_value(make_lesson, run_build):
    make_lesson(md="## {{ two_pow }} 种写法 {#ways}\n\n正文。\n")
    code, _, err, out = run_build()
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert code == 0 and err == ""
    assert f"{2 ** 10} 种写法" in page and 'id="ways"' in page


@pytest.mark.parametrize("text", [
    "{{ depth }} 层，{{ ratio:.2f }}，{{ ln.x.0:sig2 }}",                   # values and their formats
    "写成 `fp16 = 65504`，或者\n\n```\nx = 12345\n```",                     # code spans and code blocks
    "$x_1 + x^2 = \\sum_{i=1}^{n} d_{model}$，$2\\pi$，$d/2$，$10^{-5}$",   # notation in maths
    "$$\\frac{1}{2}\\sum_{i=0}^{d/2-1}$$",
    "Vaswani 等（2017）提出，He 等，2016[@he2016]，2021 年，(2023)",        # years
    "In 2009 the model was new; since 2013, by March 2013, in Sept. 2014",   # years in English prose
    "见 [@radford2019gpt2, 第 2.3 节] 和 @fig:mask_heatmaps、@eq:softmax_1",  # citations and references
    "§2 里，第 3 节，图 2，表 1，式 (3)，挑战 3，引理 2，定理 1，Lemma 2",
    "1. 第一步\n2. 第二步\n10) 第十步",                                       # list markers
    "第 1 层和第 3 个词",                                                     # one-digit indices
    "从 0 到 {{ n }}，1/{{ n }}",                                            # a count's start, a reciprocal
    "见 https://arxiv.org/abs/2104.09864 和 [论文](https://x.org/2017/a1.pdf)",  # URLs and link targets
    "数据在 data2024.csv 里，图在 fig-3.svg",                                # file names
    "## 小节 {#sec-2}\n{: .note-3 }",                                        # heading ids, attribute lists
    "fp16、GPT-2、IWSLT14、T5、W^Q、arXiv:1706.03762",                        # identifiers
    "1D linear convection, the 1-D diffusion equation, a 3D plot",            # dimensions
    "<!-- 第 12 版 --><span data-n=\"3\">文字</span>",                       # comments and tags
    "Step 9: Laplace Equation, step 5, Part 2, Exercise 3.1, the 2d and 1d cases",   # labels, dimensions
    "见步骤 9、练习 3 和例 2",
    "as shown in [1] and [2, 3]",                                              # a reference's number
    "steps 9 and 10, Lessons 3–5, the 2nd order derivative, the 21st century, CAREER award #1149784",
])
def test_what_is_not_a_measured_number_is_left_alone(text):
    assert findings(text, 1) == []


@pytest.mark.parametrize("text, number", [
    ("种子 1", "1"), ("只剩 0.004 %", "0.004"), ("$10000^{2i/d}$", "10000"), ("$E = 1.5\\,d$", "1.5"),
    ("第 12 层", "12"), ("2048 个位置", "2048"), ("约 34 BLEU", "34"), ("$\\mathbb{R}^{512}$", "512"),
    ("Step 9 takes 3 seconds", "3"), ("## 12 steps to Navier–Stokes", "12"),
    ("in 2048.5 steps", "2048.5"), ("from 1999 %", "1999"),                  # after a dating word, not a year
])
def test_a_hand_typed_number_is_found(text, number):
    assert [f.number for f in findings(text, 1)] == [number]


def test_a_literal_comment_lets_the_numbers_it_lists_pass(make_lesson):
    folder = make_lesson(
        md="## 第一节 {#first}\n\n"
           "只训到 8.45 BLEU，预热后约 34。<!-- literal: 8.45 34 -->\n\n"
           "只训到 8.45 BLEU，预热后约 34。<!-- literal: 8.45 -->\n\n"
           "引自论文：7 %–64 %。<!-- literal -->\n",
        yaml="title: 小课\nsummary: 一节，加起来等于 1  # literal（概率的定义）\nobjectives:\n  - 看懂一个数\n",
        py=PLANTED_PY.replace('alt="一条下降的线，从 1 降到 {{ left_0_9 }}")',
                              'alt="一条下降的线，从 1 降到 {{ left_0_9 }}")  # literal: 1')
                     .replace('"到第 96 层时只剩一点。",', '"到第 96 层时只剩一点。",  # literal: 96'))
    problems = report(read_lesson(folder))
    assert [(p.path.name, p.line, p.message.params[0][1]) for p in problems] == [("lesson.md", 5, "34")]


def test_maths_is_maths_whatever_its_delimiters_and_a_literal_inside_it_is_no_tex(make_lesson):
    """`\\(x^2\\)` is notation as `$x^2$` is (the old reader took its 2 for a typed number); a decimal in `\\[…\\]` is
    a number as in `$$…$$`; a `<!-- literal -->` on a line inside display maths lets that line's number pass, and the
    page's formula holds no comment."""
    folder = make_lesson(md="## 第一节 {#first}\n\n"
                            "设 \\(x^2 + y_1\\)，则 \\[ z = 1.5 \\]\n\n"
                            "$$\nw = 2.75 <!-- literal -->\n+ 0.125\n$$\n")
    assert [(p.line, p.message.params[0][1]) for p in report(read_lesson(folder))] == [(3, "1.5"), (7, "0.125")]


def test_a_template_comment_marks_a_template_line(make_lesson):
    folder = make_lesson()
    (folder / "widgets" / "shelf").mkdir(parents=True)
    (folder / "widgets" / "shelf" / "widget.html").write_text("<p>一共 5 层{# literal #}</p>\n<p>3 层</p>\n",
                                                             encoding="utf-8")
    assert [(p.line, p.message.params[0][1]) for p in report(read_lesson(folder))] == [(2, "3")]


@pytest.mark.parametrize("slug", real_lessons())
def test_the_lessons_in_content_type_no_number_by_hand(slug):
    problems = report(read_lesson(PROJECT / "content" / slug))
    assert [p.render("en", root=PROJECT) for p in problems] == []


def test_the_report_reads_text_only(make_lesson):
    """It runs on every build, also one that takes every page from the cache: source text and `ast`, no lesson
    code run (a lesson.py that would raise when run is still read)."""
    folder = make_lesson(py=textwrap.dedent("""\
        from lessonkit import Lesson
        raise SystemExit("never run")
        lesson = Lesson()


        @lesson.figure(caption="第 96 层", alt="一条线")
        def decay(plt):
            return None
        """))
    assert [(p.line, p.message.params[0][1]) for p in report(read_lesson(folder))] == [(6, "96")]


@pytest.mark.parametrize("text, count", [
    ("看十步走到哪里", "十步"), ("三层网络", "三层"), ("## 十六个头的 ALiBi", "十六个头"), ("迭代五十次", "五十次"),
    ("走一百步", "一百步"), ("二十层的网络", "二十层"), ("放大三倍", "三倍"), ("训练十轮", "十轮"),
])
def test_a_count_in_chinese_numerals_is_found(text, count):
    """A numeral and a counter of what a lesson computes (steps, layers, heads, iterations …) is a number typed
    by hand, like `10 步`."""
    assert [f.number for f in findings(text, 1)] == [count]


@pytest.mark.parametrize("text", [
    "一个数", "一起", "一些", "一般", "十分重要", "万一", "一步一步地走", "一层一层",  # words, and 一 as "a"
    "两者", "两次输出", "前两步", "两个位置",                                       # 两: "both", "a pair"
    "三种结构", "四种办法", "三角形", "每十万份",                                   # no counter of a computed thing
    "第三层", "第十步",                                                            # ordinals
    "上百层", "数十步", "十几步", "近千层",                                         # estimates
    "二次函数", "三次方", "三次多项式",                                             # degrees
])
def test_a_word_that_holds_a_chinese_numeral_is_left_alone(text):
    assert findings(text, 1) == []


def test_a_literal_comment_may_list_a_chinese_count(make_lesson):
    folder = make_lesson(md="## 第一节 {#first}\n\n看十步走到哪里。<!-- literal: 十 -->\n\n"
                            "看十步、三层。<!-- literal: 十步 -->\n")
    assert [(p.line, p.message.params[0][1]) for p in report(read_lesson(folder))] == [(5, "三层")]


TITLED_YAML = """\
title: 小课
summary: 一节用来测试的小课
objectives:
  - 看懂一个数
challenges:
  - title: 把坐标转 {title} 度
    question: 转完在哪里？
    answer: 在原点。
"""
CAPTIONED_PY = """\
from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def rot_deg():
    return 90


@lesson.value
def steps():
    return 10


@lesson.value
def path_table(steps):
    return table({{"步": list(range(steps)), "x": [0.5 ** k for k in range(steps)]}},
                 caption="{table}")


@lesson.widget
def knob(steps):
    return explorer([param("k", "步数", [1, steps])], lambda k: {{"values": [("x", 0.5 ** k)]}},
                    caption="{explorer}")


@lesson.widget
def shares(rot_deg):
    return bars(["甲", "乙"], [0.25, 0.75], caption="{bars}")


@lesson.figure(caption="下降", alt="一条线", data="path_table")
def descent(plt, path_table):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [1, 0])
    return fig
"""
CAPTIONED_MD = """\
## 第一节 {#first}

{{< figure descent >}}

{{< widget knob >}}

{{< widget shares >}}
"""


def captioned(make_lesson, title: str, table: str, explorer: str, bars: str) -> None:
    make_lesson(yaml=TITLED_YAML.format(title=title), md=CAPTIONED_MD,
                py=CAPTIONED_PY.format(table=table, explorer=explorer, bars=bars))


def test_a_number_in_a_title_or_caption_is_flagged_and_the_advice_works(make_lesson, run_build):
    """A challenge title, an explorer's or bars' caption and a table's caption take `{{ value }}` as the text does,
    so the report's advice — write {{ name }} — is one the author can follow."""
    captioned(make_lesson, "90", "走 10 步的路径", "看 10 步", "转 90 度后")
    code, _, err, _ = run_build("--strict")
    assert code == 1
    lines = sorted(line.strip().removeprefix("content/").split(": compute")[0] for line in err.splitlines()
                   if "hand-typed" in line)
    assert lines == ["demo/lesson.py:19: hand-typed number `10` in the caption of `table(…)`",
                     "demo/lesson.py:25: hand-typed number `10` in the caption of `explorer(…)`",
                     "demo/lesson.py:30: hand-typed number `90` in the caption of `bars(…)`",
                     "demo/lesson.yaml:6: hand-typed number `90` in `challenges.0.title`"]
    captioned(make_lesson, "{{ rot_deg }}", "走 {{ steps }} 步的路径", "看 {{ steps }} 步", "转 {{ rot_deg }} 度后")
    code, _, err, out = run_build("--strict")
    assert code == 0 and err == ""
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "挑战 1 · 把坐标转 90 度" in page
    assert '<p class="ex-caption">看 10 步' in page and 'class="table-caption" id="widget-knob-caption">看 10 步</p>' in page
    assert ">转 90 度后</p>" in page
    assert "走 10 步的路径" in page and "{{" not in page


def test_an_unknown_value_in_a_title_or_caption_is_an_error_at_its_line(make_lesson, run_build):
    captioned(make_lesson, "{{ rot_dg }}", "{{ stepz }}", "{{ steps }}", "{{ steps }}")
    code, _, err, out = run_build()
    assert code == 1 and not out.exists()
    assert "demo/lesson.yaml:6: unknown value `rot_dg`; did you mean `rot_deg`?" in err
    assert "demo/lesson.py:33: unknown value `stepz`; did you mean `steps`?" in err


def test_a_figure_cells_caption_and_alt_are_read_at_its_header(make_lesson, run_build):
    """lesson.py written as cells (compute/cells.py): the header's caption and alt are what a student reads."""
    py = ('# %% data\nimport matplotlib.pyplot as plt\nxs = [10.0, 6.0, 3.6]\n\n'
          '# %% figure: trace caption="学习率 0.2 时 {{ len(xs) }} 个点" alt="从 10 降到 {{ xs[-1] }}"\n'
          'plt.plot(xs)\n')
    make_lesson(md="## 第一节 {#first}\n\n{{< figure trace >}}\n", py=py)
    code, _, err, _ = run_build()
    assert code == 0
    assert [line.strip().removesuffix(ADVICE) for line in err.splitlines()[1:]] == [
        "content/demo/lesson.py:5: hand-typed number `0.2` in the caption of figure `trace`",
        "content/demo/lesson.py:5: hand-typed number `10` in the alt text of figure `trace`"]
    make_lesson(md="## 第一节 {#first}\n\n{{< figure trace >}}\n",
                py=py.replace('}}"\n', '}}"  # literal: 0.2 10\n', 1))
    code, _, err, _ = run_build("--strict")
    assert code == 0, err


def test_an_edited_section_alone_is_read_again_and_its_findings_are_a_build_without_cache_s(make_lesson, tmp_path,
                                                                                           monkeypatch):
    """With the build's memo (incremental.FileMemo), an edited lesson.md reads only the edited section again; what
    it reports is what reading the whole file without a memo reports."""
    from lessonkit import incremental
    from lessonkit.features import handnumbers
    from lessonkit.support.store import Store

    md = ("## 第一节 {#first}\n\n训练了 12 轮。\n\n"
          "## 第二节 {#second}\n\n学习率 0.5。<!-- literal -->\n\n"
          "## 第三节 {#third}\n\n一共 7 层，又 8 层。<!-- literal: 7 -->\n")
    folder = make_lesson(md=md)

    def found(memo=None) -> list[tuple[int, str]]:
        return [(p.line, p.message.params[0][1]) for p in report(read_lesson(folder), memo)]
    memo = lambda: incremental.FileMemo(Store(tmp_path / "cache"), folder, "handnumbers")  # noqa: E731
    assert found(memo()) == found() == [(3, "12"), (11, "8")]
    (folder / "lesson.md").write_text(md.replace("学习率 0.5。<!-- literal -->", "学习率 0.25，批 64。"), encoding="utf-8")
    read, pieces = [], handnumbers._section_pieces
    monkeypatch.setattr(handnumbers, "_section_pieces",
                        lambda section, **options: read.append(section.id) or pieces(section, **options))
    with_memo = found(memo())
    assert read == ["second"]
    assert with_memo == found() == [(3, "12"), (7, "0.25"), (7, "64"), (11, "8")]


def test_the_title_a_heading_repeating_it_and_a_number_as_a_link_s_text_are_names(make_lesson):
    """What `import` writes from a CFD Python notebook: its title in lesson.yaml (as the summary too) and as the
    first heading; the notebook's references as `[1](#ref1)`. A heading that is not the title still reports."""
    folder = make_lesson(yaml="title: 12 steps to Navier–Stokes\nsummary: 12 steps to Navier–Stokes\n"
                              "objectives:\n  - 读\n",
                         md="## 12 steps to Navier–Stokes {#intro}\n\n见 [1](#ref1) 与 [ 2 ](#ref2)。\n\n"
                            "## 96 层网络 {#depth}\n\n文字。\n", py=None)
    assert [(p.line, "`96`" in str(p.message)) for p in report(read_lesson(folder))] == [(5, True)]
