"""A lesson.py written as cells (compute/cellrun.py) at build time: its cells run once, in order, in one namespace;
the decorator API works beside them; a figure cell is a figure drawn by the pipeline (SVG, data table and CSV),
numbered in reading order; a cell's mistake is reported at lesson.py's line inside the cell, and nothing is written.
The expected numbers are worked by hand: x starts at 10 and is multiplied by 0.6 ten times."""
import re

import pytest

PY = '''\
# %% setup
import matplotlib.pyplot as plt
from lessonkit import Lesson

lesson = Lesson()
xs = [10.0]

# %% descent
for _ in range(10):
    xs.append(xs[-1] * 0.6)
print(f"epoch 10, x: {xs[-1]:f}")

# %% figure: trace caption="x 走了 {{ len(xs) - 1 }} 步" alt="x 从 10 降到 {{ xs[-1]:.3f }}"
plt.plot(xs, marker="o")
plt.xlabel("步")
plt.ylabel("x")

# %% after
halved = [x / 2 for x in xs]


@lesson.value
def last(xs):          # a plain value of the cells, named as a parameter
    return xs[-1]


@lesson.value
def total():           # the cells' namespace, read as a global
    return sum(halved)
'''
MD = """\
## 下降 {#descent}

十步以后 x 是 {{ xs[-1]:.4f }}（{{ last }}），一共 {{ len(xs) }} 个点，一半之和 {{ total }}。

{{< figure trace >}}
"""
X10 = 10 * 0.6 ** 10   # 0.060466176


@pytest.fixture
def built(make_lesson, run_build):
    make_lesson(md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    return out


def test_cells_run_in_one_namespace_and_their_values_fill_the_text(built):
    page = (built / "demo" / "index.html").read_text(encoding="utf-8")
    # 0.0605 (.4f); last: 3 significant figures; 11 points; ½·10·(1 − 0.6¹¹)/(1 − 0.6) = 12.45… → 12.5
    assert "十步以后 x 是 0.0605（0.0605），一共 11 个点，一半之和 12.5。" in page


def test_a_figure_cell_is_a_figure_drawn_by_the_pipeline(built):
    page = (built / "demo" / "index.html").read_text(encoding="utf-8")
    figure = re.search(r'<figure id="fig-trace".*?</figure>', page, re.S).group(0)
    assert 'role="img" aria-label="x 从 10 降到 0.060"' in figure
    assert '<span class="fig-num">图 1</span> x 走了 10 步' in figure
    svg = re.search(r"<svg.*?</svg>", figure, re.S).group(0)
    assert 'stroke="#0072b2"' in svg and "<text" in svg   # the figures' colour cycle; text as text (our style)
    assert re.search(r"--fig-0072b2:#[0-9a-f]{6}", page)   # … and the colour's dark-mode counterpart
    csv = (built / "demo" / "data" / "fig-trace.csv").read_text(encoding="utf-8-sig").splitlines()
    assert csv[0] == "步,x" and len(csv) == 12                      # the header and the 11 points
    assert csv[-1] == f"10,{X10:.6g}"


def test_a_failing_cell_is_reported_at_its_line_and_nothing_is_written(make_lesson, run_build):
    make_lesson(md=MD, py=PY.replace("    xs.append(xs[-1] * 0.6)", "    xs.append(xs[-1] / zero)"))
    code, _, err, out = run_build()
    assert code == 1 and not out.exists()
    assert "content/demo/lesson.py:10: cell `descent` raised NameError: name 'zero' is not defined" in err, err


@pytest.mark.parametrize("change, message", [
    (("plt.plot(xs, marker=\"o\")\nplt.xlabel(\"步\")\nplt.ylabel(\"x\")", "top = max(xs)"),
     "lesson.py:13: figure cell `trace` draws nothing"),
    (("plt.plot(xs, marker=\"o\")", "plt.plot(xs)\nplt.figure()\nplt.plot(xs)"),
     "lesson.py:13: figure cell `trace` draws 2 figures"),
    # shown, then drawn again: in Jupyter two figures, never one with both lines
    (("plt.plot(xs, marker=\"o\")", "plt.plot(xs)\nplt.show()\nplt.plot(xs)"),
     "lesson.py:13: figure cell `trace` draws 2 figures"),
    (("halved = [x / 2 for x in xs]", "halved = [x / 2 for x in xs]\nplt.plot(halved)"),
     "lesson.py:18: cell `after` draws a figure, but is not a figure cell"),
    (("# %% after", "# %% descent"), "lesson.py:18: two cells are named `descent` (first at line 8)"),
])
def test_a_figure_cell_that_draws_nothing_or_a_cell_that_draws_unseen_is_an_error(make_lesson, run_build,
                                                                                    change, message):
    make_lesson(md=MD, py=PY.replace(*change))
    code, _, err, out = run_build()
    assert code == 1 and message in err and not out.exists(), err


def test_a_figure_cells_data_names_the_table_it_shows(make_lesson, run_build):
    """`data=NAME` in the header: a plain value of the cells (here a dict of columns) is the figure's data table."""
    py = PY.replace('alt="x 从 10 降到 {{ xs[-1]:.3f }}"', 'alt="x 从 10 降到 {{ xs[-1]:.3f }}" data=every_other')
    py = py.replace('print(f"epoch 10, x: {xs[-1]:f}")',
                    'print(f"epoch 10, x: {xs[-1]:f}")\nevery_other = {"步": [0, 2, 4], "x": [xs[0], xs[2], xs[4]]}')
    make_lesson(md=MD, py=py)
    code, _, err, out = run_build()
    assert code == 0, err
    csv = (out / "demo" / "data" / "fig-trace.csv").read_text(encoding="utf-8-sig").splitlines()
    assert csv == ["步,x", "0,10", "2,3.6", "4,1.296"]       # 10 · 0.6²,  10 · 0.6⁴
