"""The data behind every figure: recorded from what the figure plots, shown as a table under it (long series
thinned), a CSV link holding every row, and kept in the figure cache beside the SVG."""
import re

import numpy as np
import pytest

from lessonkit.features.figdata import csv_text, plain_text, record, view
from lessonkit.draw.figures import FigureMaker, find_cjk_font, style
from lessonkit.support.i18n import load_ui
from lessonkit.support.words import spoken
from lessonkit.support.paths import BUILTIN_THEMES

THEME = [BUILTIN_THEMES / "default"]
ZH, EN = load_ui(THEME, "zh-CN"), load_ui(THEME, "en")


@pytest.fixture(autouse=True)
def cjk_style():
    import matplotlib
    with matplotlib.rc_context(style(find_cjk_font())):
        yield


def test_lines_bars_scatter_and_images_are_recorded():
    maker = FigureMaker()
    fig, (a, b, c, d) = maker.subplots(1, 4)
    x = np.arange(5)
    a.plot(x, x ** 2, label="平方")
    a.plot(x, 2 * x, label="两倍")
    a.plot(x[:3], [9, 9, 9])            # unlabelled, other x: its own table, named by the y label
    a.axhline(1)                          # a guide line: not data
    a.set(xlabel="n", ylabel="值", title="左")
    b.bar([0, 1], [3.0, 4.0], 0.4, label="$\\mu$ 甲")
    b.set_xticks([0, 1], ["第 1 组", "第 2 组"])
    c.scatter([1.5, 2.5], [0.1, 0.2])
    d.imshow(np.array([[0, 1], [1, 0]]))
    fig.savefig(__import__("io").StringIO(), format="svg")
    tables = spoken(record(fig)["tables"], ZH)  # the columns the recorder names itself: words of the theme
    assert tables[0] == {"title": "左", "columns": ["n", "平方", "两倍"],
                         "rows": [[0, 0, 0], [1, 1, 2], [2, 4, 4], [3, 9, 6], [4, 16, 8]]}
    assert tables[1] == {"title": "左", "columns": ["n", "值"], "rows": [[0, 9], [1, 9], [2, 9]]}
    assert tables[2] == {"title": "", "columns": ["类别", "μ 甲"], "rows": [["第 1 组", 3.0], ["第 2 组", 4.0]]}
    assert tables[3] == {"title": "", "columns": ["x", "y"], "rows": [[1.5, 0.1], [2.5, 0.2]]}
    assert tables[4]["rows"] == [["1", 0.0, 1.0], ["2", 1.0, 0.0]] and len(tables) == 5


def test_a_series_drawn_again_in_another_panel_is_shown_once():
    fig, (a, b) = FigureMaker().subplots(1, 2)
    a.plot([0, 1], [1, 2], label="甲")
    a.plot([0, 1], [3, 4], label="乙")
    b.plot([0, 1], [3, 4], label="乙")
    assert len(record(fig)["tables"]) == 1


def test_names_the_recorder_gives_are_phrases_said_in_the_sites_language():
    """Recorded while drawing (before the language is known): an unnamed bar series, its categories, an image's
    rows, the value column of an image listed cell by cell and an RGB image are named by the theme's words, in each
    language."""
    fig, (a, b, c, d) = FigureMaker().subplots(1, 4)
    a.bar([0, 1], [3.0, 4.0])
    a.set_xticks([0, 1], ["p", "q"])
    b.imshow(np.zeros((2, 2)))
    c.imshow(np.zeros((30, 30)))
    d.imshow(np.zeros((4, 5, 3)))
    fig.savefig(__import__("io").StringIO(), format="svg")
    recorded = record(fig)
    assert not re.search(r"[\u3400-\u9fff]", __import__("json").dumps(recorded, ensure_ascii=False))
    shown = {lang: view(recorded, "fig-x", ui) for lang, ui in (("zh", ZH), ("en", EN))}
    assert [t["columns"] for t in shown["zh"]] == [["类别", "值 1"], ["行", "0", "1"], ["x", "y", "值"], ["图像"]]
    assert [t["columns"] for t in shown["en"]] == [["category", "value 1"], ["row", "0", "1"], ["x", "y", "value"],
                                                   ["image"]]
    assert len(shown["en"][2]["csv_text"].strip().splitlines()) == 1 + 30 * 30   # every cell in the CSV
    assert shown["en"][3]["rows"] == [["4 × 5 × 3 pixels"]] and shown["zh"][3]["rows"] == [["4 × 5 × 3 像素"]]
    assert shown["en"][0]["csv_text"].lstrip("\ufeff").splitlines()[0] == "category,value 1"


def test_true_and_false_cells_are_words_of_the_site_language():
    data = {"tables": [{"title": "", "columns": ["n", "even"], "rows": [[1, False], [2, True]]}]}
    assert view(data, "f", ZH)[0]["rows"] == [["1", "否"], ["2", "是"]]
    assert view(data, "f", EN)[0]["rows"] == [["1", "no"], ["2", "yes"]]


def test_long_series_are_thinned_with_a_note_and_the_csv_has_every_row():
    rows = [[i, i / 10] for i in range(97)]
    table = {"tables": [{"title": "", "columns": ["层", "值"], "rows": rows}]}
    shown = view(table, "fig-demo", ZH)[0]
    # ⌈97/25⌉ = 4: rows 0, 4, …, 96 — 25 rows, the last one among them
    assert shown["note"] == "共 97 行，显示每 4 行"
    assert view(table, "fig-demo", EN)[0]["note"] == "97 rows, one in every 4 shown"
    assert [r[0] for r in shown["rows"]] == [str(i) for i in range(0, 97, 4)]
    assert shown["rows"][1] == ["4", "0.400"]
    assert shown["csv_name"] == "fig-demo.csv"
    lines = shown["csv_text"].lstrip("\ufeff").splitlines()
    assert lines[0] == "层,值" and len(lines) == 98 and lines[-1] == "96,9.6"
    # 98 rows: every 4th, then the last (97) too
    odd_table = {"tables": [{"title": "", "columns": ["a"], "rows": [[i] for i in range(98)]}]}
    odd = view(odd_table, "f", ZH)[0]
    assert odd["note"] == "共 98 行，显示每 4 行（以及最后一行）" and odd["rows"][-1] == ["97"]
    assert view(odd_table, "f", EN)[0]["note"] == "98 rows, one in every 4 shown, and the last"


def test_csv_quotes_text_with_commas():
    assert csv_text({"columns": ["a,b", "c"], "rows": [["x\"y", 1.5], [None, True]]}) == \
        '\ufeff"a,b",c\r\n"x""y",1.5\r\n,1\r\n'


@pytest.mark.parametrize("label, text", [
    ("原向量 $x$", "原向量 x"), ("归一化后 $\\hat{x}$", "归一化后 x̂"), ("$x^2$ 的值", "x² 的值"),
    ("$\\mathrm{LN}(x_l)$", "LN(xₗ)"),                        # l has a subscript form: ₗ
    # the two headers issue 19 found garbled (「sumi cos(komega_i)」, 「qm · k_n」)
    ("公式 $\\sum_i \\cos(k\\omega_i)$", "公式 ∑ᵢ cos(kωᵢ)"),
    ("16 维 RoPE：$q_m \\cdot k_n$", "16 维 RoPE：qₘ · kₙ"),
    ("$\\Vert x_l\\Vert^2 / d$", "‖xₗ‖² / d"),                  # the first lesson's y label
    ("$x_{max}$", "xₘₐₓ"),                                      # a braced script, every letter has a form
    ("$W^Q$", "W^Q"),                                           # no superscript Q in Unicode: keep the ^
    ("$\\theta_{\\alpha}$", "θ_α"),                               # nor a subscript α: keep the _
    ("$10^{-2i/d}$", "10^(−2i/d)"),                             # nor a superscript /: ^ and the group kept
    ("$e^{-x}$", "e⁻ˣ"),                                        # math minus, superscript
    ("$\\frac{1}{\\sqrt{d}}$", "1/√d"), ("$\\sqrt{x + 1}$", "√(x + 1)"),
    ("$\\mathcal{N}(0, 1/d)$", "N(0, 1/d)"), ("$x^\\top y$", "xᵀ y"), ("$k\\,\\omega$", "k ω"),
])
def test_mathtext_labels_become_plain_text(label, text):
    assert plain_text(label) == text


def test_heatmap_cells_are_named_by_numeric_ticks_and_colour_bars_are_not_data():
    """pcolormesh cells centred on 0.5, 1.5, …; ticks on every 2nd row labelled 0, 2 (counting from 0) name every
    row 0, 1, 2, 3; columns labelled by words keep the words; a colour bar is a key, not a second table."""
    fig, ax = FigureMaker().subplots()
    matrix = np.arange(12.0).reshape(4, 3)
    mesh = ax.pcolormesh(matrix)
    ax.set_yticks([0.5, 2.5], ["0", "2"])
    ax.set_xticks([0.5, 1.5, 2.5], ["甲", "乙", "丙"])
    ax.set_ylabel("行号")
    fig.colorbar(mesh, ax=ax)
    fig.draw_without_rendering()
    (table,) = record(fig)["tables"]
    assert table["columns"] == ["行号", "甲", "乙", "丙"]
    assert table["rows"] == [["0", 0.0, 1.0, 2.0], ["1", 3.0, 4.0, 5.0], ["2", 6.0, 7.0, 8.0],
                             ["3", 9.0, 10.0, 11.0]]
    # ticks that do not count the cells (0 and 5 two rows apart): numbers 1 … n, as before
    ax.set_yticks([0.5, 2.5], ["0", "5"])
    assert [r[0] for r in record(fig)["tables"][0]["rows"]] == ["1", "2", "3", "4"]


PY = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def layers():
    return np.arange(0, 97)


@lesson.figure(caption="衰减", alt="一条下降的线")
def decay(plt, layers):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.semilogy(layers, 0.9 ** layers, label="每层 ×0.9")
    ax.set(xlabel="层数", ylabel="倍数")
    return fig


@lesson.figure(caption="两根柱子", alt="两根柱子")
def two(plt):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.bar([0, 1], [2, 3], label="高")
    ax.set_xticks([0, 1], ["甲", "乙"])
    return fig
"""


def test_the_page_shows_the_data_under_the_figure_cached_or_not(make_lesson, run_build):
    make_lesson(yaml="title: 小课\nsummary: 一节\nobjectives:\n  - 看\n", md="## 一 {#one}\n\n{{< figure decay >}}\n\n{{< figure two >}}\n",
                py=PY)
    pages = []
    for args in (["--jobs", "1"], ["--jobs", "1"], ["--no-cache", "--jobs", "2"]):
        code, _, err, out = run_build(*args)
        assert code == 0, err
        pages.append((out / "demo" / "index.html").read_text(encoding="utf-8"))
    assert pages[0] == pages[1] == pages[2]  # drawn, from the cache, in a worker process: the same page
    page = pages[0]
    figure = re.search(r'<figure id="fig-decay".*?</figure>', page, re.S).group(0)
    assert 'role="img" aria-label="一条下降的线"' in figure  # the alt text stays
    assert '<details class="figure-data">' in figure and "<summary>数据</summary>" in figure
    assert 'aria-describedby="fig-decay-caption"' in figure and 'id="fig-decay-caption"' in figure
    assert ('<p class="table-caption" id="fig-decay-data-caption">图 1 的数据<span class="data-note">（共 97 行，显示每 4 行）'
            '</span></p>') in figure
    assert 'aria-labelledby="fig-decay-data-caption"' in figure    # the caption names its table
    assert "<th>层数<th>每层 ×0.9</thead>" in figure
    # row 8: 0.9⁸ = 0.430…, formatted as the text formats numbers
    assert f"<tr><th>8<td>{0.9 ** 8:.3f}" in figure
    # every row in a CSV file beside the page, which the page links (the page carries the thinned table only)
    assert '<a href="data/fig-decay.csv" download="fig-decay.csv">' in figure
    csv = (out / "demo" / "data" / "fig-decay.csv").read_bytes()
    assert csv.startswith("\ufeff层数,".encode("utf-8")) and csv.count(b"\r\n") == 98  # the header and 97 rows
    assert csv.decode("utf-8").splitlines()[9] == f"8,{0.9 ** 8:.6g}"
    assert "<tr><th>乙<td>3</tbody>" in page  # the second figure, drawn in a worker in the third build


def test_figures_whose_numbers_were_listed_nowhere_now_have_a_table():
    """A 3-D surface, a step histogram, hexagonal bins, a large image, a 2-D histogram, contour plots and a field of
    arrows, each worked by hand; a contour of a triangulation, which keeps no grid, is named as untabulated."""
    from lessonkit.features.figdata import keep_grid_data

    keep_grid_data()
    maker = FigureMaker()
    fig, ax = maker.subplots(subplot_kw={"projection": "3d"})
    x = np.array([0.0, 1.0, 2.0])
    X, Y = np.meshgrid(x, x)
    ax.plot_surface(X, Y, X + Y)
    (surface,) = record(fig)["tables"]
    assert surface["columns"] == ["x", "y", "z"] and len(surface["rows"]) == 9
    assert surface["rows"][:4] == [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [2.0, 0.0, 2.0], [0.0, 1.0, 1.0]]

    fig, ax = maker.subplots()
    ax.hist([1, 1, 2, 3, 3, 3], bins=[0.5, 1.5, 2.5, 3.5], histtype="stepfilled")
    (steps,) = record(fig)["tables"]
    assert steps["rows"] == [[0.5, 1.5, 2.0], [1.5, 2.5, 1.0], [2.5, 3.5, 3.0]]    # two 1s, one 2, three 3s

    fig, ax = maker.subplots()
    ax.hexbin([0, 0, 1, 1, 1], [0, 0, 1, 1, 1], gridsize=2)
    (hexes,) = record(fig)["tables"]
    assert sorted(row[2] for row in hexes["rows"] if row[2]) == [2.0, 3.0]        # two points at 0, three at 1

    fig, ax = maker.subplots()
    ax.imshow(np.arange(30 * 20).reshape(30, 20))                                 # row 0 at the top, y down
    (image,) = record(fig)["tables"]
    assert len(image["rows"]) == 600 and image["rows"][1] == [1.0, 0.0, 1.0] and image["rows"][-1] == [19.0, 29.0, 599.0]

    fig, ax = maker.subplots()
    ax.hist2d([0.5, 0.5, 2.5], [0.5, 0.5, 0.5], bins=[np.arange(31), np.arange(31)])   # 30 × 30 unit cells
    (counts,) = record(fig)["tables"]
    assert len(counts["rows"]) == 900 and [row for row in counts["rows"] if row[2]] == [[0.5, 0.5, 2.0],
                                                                                         [2.5, 0.5, 1.0]]
    fig, ax = maker.subplots()
    ax.contourf(x, x + 10, X * Y)                        # 1-D x and y: the grid they span
    ax.contour(X, Y + 10, X * Y, levels=[1, 2])          # the same grid again, as lines: one table
    (grid,) = record(fig)["tables"]
    assert grid["rows"] == [[0.0, 10.0, 0.0], [1.0, 10.0, 0.0], [2.0, 10.0, 0.0],
                            [0.0, 11.0, 0.0], [1.0, 11.0, 1.0], [2.0, 11.0, 2.0],
                            [0.0, 12.0, 0.0], [1.0, 12.0, 2.0], [2.0, 12.0, 4.0]]     # z = x · (y − 10)

    fig, ax = maker.subplots()
    ax.contour(np.array([[1.0, 2.0], [3.0, 4.0]]))       # Z alone: its columns and rows are x and y
    assert record(fig)["tables"][0]["rows"] == [[0.0, 0.0, 1.0], [1.0, 0.0, 2.0], [0.0, 1.0, 3.0], [1.0, 1.0, 4.0]]

    fig, ax = maker.subplots()
    ax.quiver([0, 1], [0, 0], [1, 0], [0, 2])             # one arrow right, one up twice as long
    (arrows,) = record(fig)["tables"]
    assert arrows["columns"] == ["x", "y", "u", "v"] and arrows["rows"] == [[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 2.0]]

    fig, ax = maker.subplots()
    ax.tricontour([0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 2])   # a triangulation keeps no grid: named, not tabled
    assert record(fig) == {"tables": [], "untabulated": ["contour"]}


CONTOUR_PY = """\
# %% setup
import matplotlib.pyplot as plt
import numpy as np

x = np.linspace(-1, 1, 21)
X, Y = np.meshgrid(x, x)
grid = {{"x": X.ravel().tolist(), "y": Y.ravel().tolist(), "z": (X * Y).ravel().tolist()}}

# %% figure: saddle caption="马鞍面的等高线" alt="四个象限的等高线"{data}
plt.tricontour(X.ravel(), Y.ravel(), (X * Y).ravel())
"""


@pytest.mark.parametrize("data", ["", ' data="grid"'], ids=["silent", "handed"])
def test_a_figure_whose_drawing_no_table_holds_is_said_unless_its_data_is_handed(make_lesson, run_build, data):
    make_lesson(md="## 一 {#one}\n\n{{< figure saddle >}}\n", py=CONTOUR_PY.format(data=data))
    code, out_text, err, _ = run_build()
    assert code == 0, err
    said = "demo/lesson.py:9: figure `saddle`: what it draws as contour is in no data table"
    assert (said in out_text + err) == (data == ""), out_text + err
