"""A real teaching notebook — numerical-mooc's lesson 2.1, 1D linear convection (tests/fixtures/numerical-mooc,
CC BY text, MIT code: see its README) — imported with `lessonkit import`, the import's report followed as an
author would (objectives, captions and alt texts, the images' weight, a self-check, the numbers `--strict` names),
and built with `--strict`. The page shows every figure the notebook showed, drawn by lessonkit (SVG, a data table
and its CSV), what its cells printed (the very text the notebook recorded), its maths as MathML and its Markdown
text. What is expected is read from the notebook itself with nbformat, or worked by hand."""
from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from lessonkit.cli import main
from pagetext import visible_text

FIXTURE = Path(__file__).parent / "fixtures" / "numerical-mooc"
NOTEBOOK = FIXTURE / "02_01_1DConvection.ipynb"
SLUG = "convection"
CAPTIONS = {  # what each figure cell draws, as an author writes it after the import (its numbers computed)
    "figure1": ("方波初始条件",
                "x 从 {{ x[mask][0]:g }} 到 {{ x[mask][-1]:g }} 处 u 为 {{ max(u0):g }}，其余为 {{ min(u0):g }}"),
    "figure2": ("线性对流 nt 步以后", "方波向右移动，边缘被抹平"),
    "figure3": ("非线性对流的初始条件", "同样的方波"),
    "figure4": ("非线性对流 nt 步以后", "波形向右移动，前沿变陡，后沿拉长"),
}
ALT_SHOWN = {"figure1": "x 从 0.5 到 1 处 u 为 2，其余为 1"}   # x = 0.05 i, the wave 2 for i = 10 … 20


def follow_the_report(folder: Path) -> None:
    """What the import's report asks for, done as an author would."""
    yaml = (folder / "lesson.yaml").read_text(encoding="utf-8")
    yaml = yaml.replace('summary: "Space & Time"', 'summary: "一维对流方程的有限差分解"')
    yaml = yaml.replace('  - "what a student can do after this lesson"',
                        "  - 用前向时间、后向空间格式解一维线性对流方程\n  - 说出非线性对流为什么让波前变陡")
    yaml += ("budget:\n  page_kb: 400\n  gzip_kb: 150\n"       # the notebook's five pictures are in the page
             "challenges:\n"
             "  - title: 非线性对流的最大值\n"
             "    question: 走完 {{ nt }} 步以后，u 最大是多少？\n"
             "    answer: 约 {{ max(u):.3f }}。\n"
             "    check:\n"
             "      fields:\n"
             "        - label: u 的最大值\n"
             "          answer: max(u)\n"
             "          tolerance: {relative: 0.01}\n")
    (folder / "lesson.yaml").write_text(yaml, encoding="utf-8")
    code = (folder / "lesson.py").read_text(encoding="utf-8")
    for n, (name, (caption, alt)) in enumerate(CAPTIONS.items(), start=1):
        code = code.replace(f'# %% figure: {name} caption="Figure {n}" alt="describe what figure {n} shows"',
                            f'# %% figure: {name} caption="{caption}" alt="{alt}"')
    (folder / "lesson.py").write_text(code, encoding="utf-8")
    md = (folder / "lesson.md").read_text(encoding="utf-8")
    # --strict: the square wave starts where the code's mask does; the licence line and the notes are typed on purpose
    md = md.replace(r"\text{where } 0.5\leq x", r"\text{where } {{ x[mask][0]:g }}\leq x")
    md = md.replace("begins at $x = 0.5$", "begins at $x = {{ x[mask][0]:g }}$")
    lines = [line + " <!-- literal -->" if line.startswith(("###### Content under", "**Note 1**", "**Note 2**"))
             else line for line in md.splitlines()]
    (folder / "lesson.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("real-notebook")
    shutil.copytree(FIXTURE, root / "notebook")
    content = root / "content"
    assert main(["import", str(root / "notebook" / NOTEBOOK.name), SLUG, "--content", str(content),
                 "--quiet"]) == 0
    follow_the_report(content / SLUG)
    assert main(["build", "--strict", "--quiet", "--content", str(content), "--out", str(root / "out"),
                 "--cache-dir", str(root / "cache")]) == 0
    return root / "out", (root / "out" / SLUG / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def notebook():
    return nbformat.read(str(NOTEBOOK), as_version=4)


def test_the_import_reports_what_it_changed_and_what_to_do(tmp_path, capsys):
    shutil.copytree(FIXTURE, tmp_path / "notebook")
    assert main(["import", str(tmp_path / "notebook" / NOTEBOOK.name), SLUG, "--content",
                 str(tmp_path / "content")]) == 0
    out = capsys.readouterr().out
    notebook = nbformat.read(str(NOTEBOOK), as_version=4)
    markdown = sum(cell.cell_type == "markdown" for cell in notebook.cells)
    code = sum(cell.cell_type == "code" for cell in notebook.cells) - 1        # the last one shows a style sheet
    assert f"{markdown} Markdown cell(s), {code} code cell(s), 4 figure(s)" in out, out
    assert "`%matplotlib inline` removed" in out
    assert "cell 56: uses IPython (what Jupyter displays), left out" in out      # the notebook's style sheet
    assert "LaTeX numbering environment(s)" in out and "`$$ … $$ {#eq:NAME}`" in out
    assert "images: " in out and "KB, which the page holds" in out and "--strict" in out


def test_every_figure_the_notebook_showed_is_drawn_by_lessonkit_with_its_data(built, notebook):
    out, page = built
    shown = sum(1 for cell in notebook.cells if cell.cell_type == "code"
                for o in cell.get("outputs", []) if "image/png" in o.get("data", {}))
    figures = re.findall(r'<figure id="fig-(figure\d+)" class="figure">(.*?)</figure>', page, re.S)
    assert shown == 4 and [name for name, _ in figures] == list(CAPTIONS)
    for name, figure in figures:
        assert '<svg' in figure and 'class="lk-figure' in figure and "data:image/png" not in figure
        alt = ALT_SHOWN.get(name, CAPTIONS[name][1])
        assert CAPTIONS[name][0] in visible_text(figure) and f'aria-label="{alt}"' in figure
    # figure 1: u0 over the 41 grid points, 2 where 0.5 ≤ x ≤ 1 (x = 0.05 i), else 1
    rows = (out / SLUG / "data" / "fig-figure1.csv").read_text(encoding="utf-8-sig").splitlines()
    assert rows[0] == "x,u" and len(rows) == 42
    assert [row.split(",")[1] for row in rows[1:]] == ["2" if 10 <= i <= 20 else "1" for i in range(41)]
    # figure 2: two curves, as the notebook's legend names them (nt = 25); u(0) stays 1, the boundary condition
    rows = (out / SLUG / "data" / "fig-figure2.csv").read_text(encoding="utf-8-sig").splitlines()
    assert rows[0] == "x,Initial,nt = 25" and rows[1] == "0,1,1"


def test_what_the_cells_printed_is_what_the_notebook_recorded(built, notebook):
    _, page = built
    printed = ["".join(o["text"] for o in cell.get("outputs", []) if o.get("output_type") == "stream")
               for cell in notebook.cells if cell.cell_type == "code"]
    printed = [text for text in printed if text]
    samples = [html.unescape(s) for s in re.findall(r"<samp>(.*?)</samp>", page, re.S)]
    assert len(printed) == 2 and samples == [text.rstrip("\n") for text in printed]
    assert samples[0] == "(array([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]),)"   # 0.5 ≤ 0.05 i ≤ 1


def test_the_maths_is_mathml_and_the_markdown_is_the_text(built, notebook):
    _, page = built
    markdown = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    assert page.count('class="math-block"') == markdown.count("$$") // 2
    assert "\\begin{" not in visible_text(page) and "$$" not in visible_text(page)
    first = re.search(r'<span class="math-block">(.*?)</span>', page, re.S).group(1)
    assert "<mo>∂</mo>" in first and "<mi>c</mi>" in first                 # ∂u/∂t + c ∂u/∂x = 0
    assert "<mn>0.5</mn>" in page                                          # {{ x[mask][0]:g }} in the cases
    text = visible_text(page)
    for sentence in ("It's surprising that this little equation can teach us so much!",
                     "Maybe it can be improved by making the grid spacing finer.",
                     "Characteristic curves for positive wave speed."):
        assert sentence in text
    assert re.search(r"<em>one-dimensional linear convection equation</em>", page)
    for section in ("finite-differences", "spatial-truncation-error", "non-linear-convection"):  # the ## headings
        assert f'<section id="{section}"' in page
    pictures = re.findall(r'<img src="data:image/(?:png|webp);base64,[^"]+" alt="([^"]+)"', page)
    assert pictures == ["characteristics", "FDapproxiamtions", "FTBS_stencil", "squarewave", "vectorizedstencil"]


def test_the_licence_cell_credits_the_authors_with_the_lesson_s_sources(built, notebook):
    """The notebook's first cell (its licence and authors) is among the page's sources, its text whole."""
    _, page = built
    credit = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", notebook.cells[0].source.lstrip("# "))  # a link: its text
    text = visible_text(page)
    assert credit in text, credit
    assert text.index(credit) > text.index("Space & Time")        # with the sources, after the lesson's text
