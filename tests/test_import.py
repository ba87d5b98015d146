"""`lessonkit import NOTEBOOK.ipynb` (lessonkit/load/ipynb.py, commands/import_.py): a notebook we write ourselves —
a title, sections, maths, an image attachment, a print, a figure, a magic, an HTML output — as a lesson folder."""
from __future__ import annotations

import base64
import shutil

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from lessonkit.cli import main
from lessonkit.load.cells import split_cells

PNG = base64.b64encode(bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                                     "1f15c4890000000d49444154789c6360000002000154a24f6a0000000049454e44ae426082")).decode()


def notebook(path, cells, language="python"):
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "language": language,
                                                             "display_name": "Python 3"}})
    nbformat.write(nb, str(path))
    return path


@pytest.fixture
def chapter(tmp_path):
    image = new_markdown_cell("![一张小图](attachment:tiny.png)\n\n<!-- 给自己的备注 -->\n步长 $\\eta$ 决定走多快。")
    image["attachments"] = {"tiny.png": {"image/png": PNG}}
    return notebook(tmp_path / "gradient descent.ipynb", [
        new_markdown_cell("# 梯度下降\n\n沿着负梯度走。"),
        new_code_cell("%matplotlib inline\nimport numpy as np\nimport matplotlib.pyplot as plt"),
        new_markdown_cell("## One dimension\n\n$$x \\leftarrow x - \\eta f'(x)$$"),
        image,
        new_code_cell("xs = [10.0]\nfor _ in range(10):\n    xs.append(xs[-1] * 0.6)\nprint(f'epoch 10, x: {xs[-1]:f}')",
                      outputs=[new_output("stream", name="stdout", text="epoch 10, x: 0.060466\n")]),
        new_code_cell("plt.plot(xs)", outputs=[new_output("display_data", data={"image/png": PNG})]),
        new_code_cell("import pandas\npandas.DataFrame({'x': xs})",
                      outputs=[new_output("execute_result", data={"text/html": "<table></table>",
                                                                  "text/plain": "x"}, execution_count=1)]),
        new_markdown_cell("### A deeper heading"),
    ])


def test_a_notebook_becomes_a_lesson_folder(chapter, tmp_path, capsys):
    content = tmp_path / "content"
    assert main(["import", str(chapter), "--content", str(content)]) == 0
    folder = content / "gradient-descent"                        # the file name, as a lesson name
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == \
        ["img/tiny.png", "lesson.md", "lesson.py", "lesson.yaml"]
    md = (folder / "lesson.md").read_text(encoding="utf-8")
    assert md.startswith("## Introduction {#introduction}\n\n沿着负梯度走。")   # text before the first section: a
    #                                     section (the title is the page's heading already; the words: the messages')
    assert "## One dimension {#one-dimension}" in md and "### A deeper heading" in md
    assert "$$x \\leftarrow x - \\eta f'(x)$$" in md and "![一张小图](img/tiny.png)" in md
    assert "给自己的备注" not in md                                # HTML comments dropped
    assert md.index("{{< code cell2 >}}") < md.index("{{< code figure1 >}}") < md.index("### A deeper")
    py = (folder / "lesson.py").read_text(encoding="utf-8")
    cells, problems = split_cells(py, folder / "lesson.py")
    assert problems == [] and "%matplotlib" not in py
    assert [(c.kind, c.name) for c in cells] == [("code", "cell1"), ("code", "cell2"), ("figure", "figure1"),
                                                 ("code", "cell3")]
    assert (folder / "lesson.yaml").read_text(encoding="utf-8").startswith('title: "梯度下降"\n')
    out = capsys.readouterr().out
    assert "imported gradient descent.ipynb" in out and "4 code cell(s), 1 figure(s)" in out, out
    assert "`%matplotlib inline` removed" in out
    assert "text/html cannot come along" not in out     # a DataFrame: the page shows it again, as a table
    assert "objectives" in out and "--strict" in out


def test_a_notebook_in_another_language_or_not_a_notebook_is_refused(tmp_path, capsys):
    content = tmp_path / "content"
    r = notebook(tmp_path / "r.ipynb", [new_code_cell("x <- 1")], language="R")
    assert main(["import", str(r), "--content", str(content)]) == 1
    assert "the notebook's code is R, not Python" in capsys.readouterr().err
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [{"cell_type": "code"}], "nbformat": 4}', encoding="utf-8")
    assert main(["import", str(broken), "--content", str(content)]) == 1
    assert "not a valid Jupyter notebook" in capsys.readouterr().err
    assert not content.exists() or not any(content.iterdir())


def test_an_existing_lesson_is_never_overwritten(chapter, tmp_path, capsys):
    content = tmp_path / "content"
    (content / "gd").mkdir(parents=True)
    assert main(["import", str(chapter), "gd", "--content", str(content)]) == 2
    assert "already exists" in capsys.readouterr().err and not any((content / "gd").iterdir())


def test_numbering_environments_a_heading_before_the_title_and_ipython_display(tmp_path, capsys):
    path = notebook(tmp_path / "waves.ipynb", [
        new_markdown_cell("###### Text CC-BY 4.0, code MIT (c) 2014 L.A. Barba"),
        new_markdown_cell("###### 第二版讲义"),
        nbformat.v4.new_raw_cell("Text provided under a Creative Commons Attribution license, CC-BY."),
        new_markdown_cell("# Waves"),
        new_markdown_cell("## Speed\n\n$$\n\\begin{equation}\nu_t + c u_x = 0 \\label{eq1}\n\\end{equation}\n$$\n\n"
                          "$$\n\\begin{eqnarray}\na & = & b \\nonumber\\\\\nc & \\approx & d\n\\end{eqnarray}\n$$"),
        new_code_cell("c = 1.0\nprint(c)", outputs=[new_output("stream", name="stdout", text="1.0\n")]),
        new_code_cell("from IPython.core.display import HTML\nHTML('<style></style>')",
                      outputs=[new_output("execute_result", data={"text/html": "<style></style>"},
                                          execution_count=2)]),
    ])
    content = tmp_path / "content"
    assert main(["import", str(path), "--content", str(content)]) == 0
    md = (content / "waves" / "lesson.md").read_text(encoding="utf-8")
    assert md == ("## Introduction {#introduction}\n\n###### 第二版讲义\n\n## Speed {#speed}\n\n"   # a heading
                  "$$\n\nu_t + c u_x = 0 \n\n$$\n\n"                                  # before the title: inside
                  "$$\n\\begin{array}{rcl}\na & = & b \\\\\nc & \\approx & d\n\\end{array}\n$$\n\n"
                  "{{< code cell1 >}}\n")
    assert "IPython" not in (content / "waves" / "lesson.py").read_text(encoding="utf-8")
    out = capsys.readouterr().out
    assert "4 Markdown cell(s), 1 code cell(s), 0 figure(s)" in out
    assert "cell 7: uses IPython" in out and "2 LaTeX numbering environment(s)" in out
    # the licence: credited where a lesson credits what it is made from, not a heading of its text
    assert (content / "waves" / "lesson.yaml").read_text(encoding="utf-8").endswith(
        'sources:\n  - "Text CC-BY 4.0, code MIT (c) 2014 L.A. Barba"\n  - "Text provided under a Creative Commons '
        'Attribution license, CC-BY."\n')
    assert "cell 1: the notebook's licence and attribution, moved to lesson.yaml's `sources:`" in out


def test_an_imported_notebook_builds_and_a_cell_that_fails_is_reported_at_its_line(chapter, tmp_path, capsys):
    content, out = tmp_path / "content", tmp_path / "out"
    assert main(["import", str(chapter), "gd", "--content", str(content), "--quiet"]) == 0
    folder = content / "gd"
    (folder / "lesson.md").write_text((folder / "lesson.md").read_text(encoding="utf-8")
                                      .replace("{{< code cell3 >}}", ""), encoding="utf-8")   # pandas: not here
    code = (folder / "lesson.py").read_text(encoding="utf-8")
    (folder / "lesson.py").write_text(code[:code.index("# %% cell3")], encoding="utf-8")
    build = ["build", "--content", str(content), "--out", str(out), "--cache-dir", str(tmp_path / "cache")]
    assert main(build) == 0, capsys.readouterr().err
    page = (out / "gd" / "index.html").read_text(encoding="utf-8")
    assert "<samp>epoch 10, x: 0.060466</samp>" in page          # 10 · 0.6¹⁰, printed as the notebook printed it
    assert '<figure id="fig-figure1"' in page and "<svg" in page
    capsys.readouterr()
    (folder / "lesson.py").write_text(code[:code.index("# %% cell3")].replace("xs[-1] * 0.6", "xs[-1] * rate"),
                                      encoding="utf-8")
    shutil.rmtree(out)
    assert main(build) == 1 and not out.exists()
    line = [n for n, text in enumerate((folder / "lesson.py").read_text(encoding="utf-8").splitlines(), start=1)
            if "rate" in text][0]
    assert f"gd/lesson.py:{line}: cell `cell2` raised NameError: name 'rate' is not defined" in capsys.readouterr().err


def test_a_cell_that_drew_two_figures_is_to_be_split(tmp_path, capsys):
    path = notebook(tmp_path / "two.ipynb", [
        new_markdown_cell("# Two\n\n## One"),
        new_code_cell("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.figure()\nplt.plot([2, 1])",
                      outputs=[new_output("display_data", data={"image/png": PNG}),
                               new_output("display_data", data={"image/png": PNG})])])
    assert main(["import", str(path), "--content", str(tmp_path / "content")]) == 0
    assert "cell 2 drew 2 figures: a figure cell draws one, so split it into 2 figure cells" in capsys.readouterr().out


def test_a_cell_that_showed_two_figures_becomes_two_figure_cells_that_build(tmp_path, capsys):
    """Jupyter shows a figure at each `plt.show()` (the 100-Days-Of-ML-Code logistic regression: training set, then
    test set, in one cell): the import cuts the cell there, so each figure is drawn alone and both reach the page."""
    path = notebook(tmp_path / "two.ipynb", [
        new_markdown_cell("# Two\n\n## Both sets"),
        new_code_cell("import matplotlib.pyplot as plt\nplt.plot([0, 1], [0, 1], label='a')\nplt.title('A')\n"
                      "plt.show()\nplt.plot([0, 1], [1, 0], label='b')\nplt.title('B')\nplt.show()",
                      outputs=[new_output("display_data", data={"image/png": PNG}),
                               new_output("display_data", data={"image/png": PNG})])])
    content = tmp_path / "content"
    assert main(["import", str(path), "--content", str(content)]) == 0
    assert "split it" not in capsys.readouterr().out
    code = (content / "two" / "lesson.py").read_text(encoding="utf-8")
    assert code.count("# %% figure: ") == 2 and code.index("plt.title('A')") < code.index("# %% figure: figure2")
    out = tmp_path / "out"
    assert main(["build", "--content", str(content), "--out", str(out), "--cache-dir", str(tmp_path / "c")]) == 0
    page = (out / "two" / "index.html").read_text(encoding="utf-8")
    assert page.count('<figure id="fig-figure') == 2
    assert (out / "two" / "data" / "fig-figure1.csv").read_text(encoding="utf-8-sig").splitlines()[0] == "x,a"
    assert (out / "two" / "data" / "fig-figure2.csv").read_text(encoding="utf-8-sig").splitlines()[0] == "x,b"


def test_ipython_help_is_left_out_like_a_magic(tmp_path, capsys):
    path = notebook(tmp_path / "help.ipynb", [
        new_markdown_cell("# Help\n\n## Asking"),
        new_code_cell("?print\nlen?\nnp.sum??\nx = 1 if True else 0\nprint(x)"),
        new_code_cell("# the data file's first lines\n!head data.csv")])   # a comment on a shell command alone
    content = tmp_path / "content"
    assert main(["import", str(path), "--content", str(content)]) == 0
    code = (content / "help" / "lesson.py").read_text(encoding="utf-8")
    assert "?" not in code.split("\n", 1)[1] and "x = 1 if True else 0" in code
    assert "first lines" not in code and code.count("# %%") == 1
    assert "`?print` removed" in capsys.readouterr().out


def test_setext_headings_are_the_title_and_sections_a_rule_stays_a_rule(tmp_path):
    """CFD Python writes its titles as setext headings (`Title` over `=====`): the title is the heading, not the
    file's name; a `---` after a blank line is a rule, under a paragraph a heading."""
    path = notebook(tmp_path / "12_Step_9.ipynb", [
        new_markdown_cell("Text provided under a Creative Commons Attribution license, CC-BY.\n\n"
                          "12 steps to Navier–Stokes\n=====\n***"),
        new_markdown_cell("Step 9: Laplace Equation\n----\n\nSolve it.\n\n---\n\nAfter a rule."),
        new_code_cell("x = 1"),
    ])
    content = tmp_path / "content"
    assert main(["import", str(path), "step9", "--content", str(content), "--quiet"]) == 0
    md = (content / "step9" / "lesson.md").read_text(encoding="utf-8")
    assert md.startswith("## Introduction {#introduction}\n\nText provided under a Creative Commons Attribution "
                         "license, CC-BY.\n\n***\n\n## Step 9")        # the title is the page's, not a section's
    assert "12 steps" not in md
    assert "## Step 9: Laplace Equation {#step-9-laplace-equation}\n\nSolve it.\n\n---\n\nAfter a rule." in md
    assert "=====" not in md and "----" not in md
    assert 'title: "12 steps to Navier–Stokes"' in (content / "step9" / "lesson.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_strict_names_each_placeholder_the_import_left_at_its_line(tmp_path, capsys, lang):
    path = notebook(tmp_path / "plot.ipynb", [
        new_markdown_cell("# Plot\n\n## One"),
        new_code_cell("import matplotlib.pyplot as plt\nplt.plot([1, 2])",
                      outputs=[new_output("display_data", data={"image/png": PNG})]),
    ])
    content = tmp_path / "content"
    assert main(["import", str(path), "plot", "--content", str(content), "--quiet", "--lang", lang]) == 0
    build = ["build", "--strict", "--content", str(content), "--out", str(tmp_path / "out"), "--cache-dir",
             str(tmp_path / "cache"), "--lang", "en"]
    capsys.readouterr()
    assert main(build) == 1
    said = capsys.readouterr().err
    assert "plot/lesson.yaml:2: `summary` repeats the title" in said
    assert "plot/lesson.yaml:4: `objectives`: the placeholder `lessonkit import` wrote is still there" in said
    caption, alt = ("Figure 1", "describe what figure 1 shows") if lang == "en" else ("图 1", "写出图 1 画的是什么")
    assert f"plot/lesson.py:1: figure `figure1`: its caption is the placeholder `lessonkit import` wrote, " \
           f"`{caption}`" in said
    assert f"plot/lesson.py:1: figure `figure1`: its alt is the placeholder `lessonkit import` wrote, `{alt}`" in said
    folder = content / "plot"
    yaml = (folder / "lesson.yaml").read_text(encoding="utf-8")
    objective = yaml.split("objectives:\n  - ")[1].split("\n")[0]
    (folder / "lesson.yaml").write_text(yaml.replace('summary: "Plot"', "summary: 画一条线")
                                        .replace(objective, "会画一条线"), encoding="utf-8")
    code = (folder / "lesson.py").read_text(encoding="utf-8")
    (folder / "lesson.py").write_text(code.replace(f'caption="{caption}" alt="{alt}"',
                                                   'caption="一条线" alt="一条上升的线"'), encoding="utf-8")
    assert main(build) == 0, capsys.readouterr().err


def test_jupyter_s_escaped_maths_delimiters_and_doubled_braces_are_lessonkit_s_maths(tmp_path, capsys):
    r"""A Chinese exercise notebook writes display maths as `\\[…\\]` (Jupyter's Markdown leaves MathJax `\[…\]`)
    and TeX braces doubled, `{{h}_{\theta}}`, which lessonkit would read as a value: imported as `$$…$$` with the
    braces apart, and it builds; a code block keeps its text."""
    path = notebook(tmp_path / "ex1.ipynb", [
        new_markdown_cell("# 线性回归\n\n## 代价函数\n\n其中：\\\\[{{h}_{\\theta }}\\left( x \\right)={{\\theta }^{T}}X\\\\]，"
                          "行内 \\\\(x^2\\\\)。\n\n```\n\\\\[{{x}}\\\\]\n```"),
        new_code_cell("x = 1"),
    ])
    content = tmp_path / "content"
    assert main(["import", str(path), "ex1", "--content", str(content), "--quiet"]) == 0
    md = (content / "ex1" / "lesson.md").read_text(encoding="utf-8")
    assert "其中：$${ {h}_{\\theta } }\\left( x \\right)={ {\\theta }^{T} }X$$，行内 $x^2$。" in md
    assert "```\n\\\\[{{x}}\\\\]\n```" in md
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "out"), "--cache-dir",
                 str(tmp_path / "cache")]) == 0, capsys.readouterr().err
    page = (tmp_path / "out" / "ex1" / "index.html").read_text(encoding="utf-8")
    assert page.count('<math display="block"') >= 1 and "<msup><mi>x</mi><mn>2</mn></msup>" in page


@pytest.mark.parametrize("plain, shown", [("   x\n0  1.0", True), (["   x\n", "0  1.0"], True),
                                          ("<IPython.core.display.HTML object>", False), ("", False)])
def test_an_html_output_is_shown_again_when_its_text_is_a_value(plain, shown):
    from lessonkit.load.ipynb import _shown_again

    assert _shown_again(plain) is shown


@pytest.mark.parametrize("cells, starts", [
    (["# Waves\n\n***", "## Speed\n\nFast."], "## Speed {#speed}\n\nFast."),          # only the title's rule: no intro
    (["# Waves\n\nA wave moves.", "## Speed\n\nFast."], "## Introduction {#introduction}\n\nA wave moves.\n\n## Speed"),
    (["# Waves\n\nA wave moves."], "## Waves {#waves}\n\nA wave moves."),               # no section: the title's
])
def test_the_text_before_the_first_section(tmp_path, cells, starts):
    path = notebook(tmp_path / "waves.ipynb", [new_markdown_cell(c) for c in cells] + [new_code_cell("x = 1")])
    content = tmp_path / "content"
    assert main(["import", str(path), "--content", str(content), "--quiet"]) == 0
    assert (content / "waves" / "lesson.md").read_text(encoding="utf-8").startswith(starts)


def test_an_english_notebook_in_a_chinese_site_says_how_its_pages_speak_english(tmp_path, capsys):
    path = notebook(tmp_path / "waves.ipynb", [new_markdown_cell("# Waves\n\nA wave moves to the right."),
                                               new_code_cell("x = 1")])
    content = tmp_path / "content"
    assert main(["import", str(path), "--content", str(content)]) == 0
    assert "write `language: en` in content/site.yaml" in capsys.readouterr().out
    (content / "site.yaml").write_text("language: en\n", encoding="utf-8")
    assert main(["import", str(path), "waves-2", "--content", str(content)]) == 0
    assert "language:" not in capsys.readouterr().out


def test_a_chinese_notebook_in_a_chinese_site_needs_no_word(chapter, tmp_path, capsys):
    assert main(["import", str(chapter), "--content", str(tmp_path / "content")]) == 0
    assert "language:" not in capsys.readouterr().out
