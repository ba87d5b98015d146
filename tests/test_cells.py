"""lesson.py as cells (lessonkit/load/cells.py, compute/cells.py): the percent format split, run in one namespace,
printed output kept per cell, errors at lesson.py's line inside the cell, figure cells read what they draw from."""
import traceback
from pathlib import Path

import pytest

from lessonkit.compute.cells import CellError, run_cells
from lessonkit.load.cells import is_cell_file, names_read, split_cells

PATH = Path("lesson.py")
TEXT = '''\
import math

# %% setup
xs = [1, 2, 3]

# %% [markdown]
# 梯度下降走 **十步**。
#
# 第二段。

# %% descent echo=false
trace = [x / 2 for x in xs]
print(f"epoch 3, x: {trace[-1]:f}")

# %% figure: trace_plot caption="学习率 0.5" alt="三个点往下走"
plt.plot(xs, trace)
plt.title(label)
'''


def test_the_percent_format_is_split_into_named_cells_with_their_lines():
    cells, problems = split_cells(TEXT, PATH)
    assert problems == []
    assert [(c.kind, c.name, c.line, c.first) for c in cells] == [
        ("code", None, 0, 1), ("code", "setup", 3, 4), ("markdown", None, 6, 7), ("code", "descent", 11, 12),
        ("figure", "trace_plot", 15, 16)]
    assert cells[2].body == "梯度下降走 **十步**。\n\n第二段。"
    assert cells[3].options == {"echo": False}
    assert cells[4].options == {"caption": "学习率 0.5", "alt": "三个点往下走"}
    assert is_cell_file(TEXT) and not is_cell_file("import numpy as np\nx = 1\n")


def test_code_cells_run_once_in_order_in_one_namespace_and_keep_what_they_print():
    cells, _ = split_cells(TEXT, PATH)
    run = run_cells(cells, PATH, {})
    assert run.namespace["trace"] == [0.5, 1.0, 1.5]
    assert run.printed == {"#1": "", "setup": "", "descent": "epoch 3, x: 1.500000\n"}
    assert "plt" not in run.namespace            # the figure cell is drawn later, not run with the others


def test_a_failing_cell_names_the_line_inside_it():
    text = "# %% a\nx = 1\n\n# %% b\ny = 2\nz = x / (y - 2)\n"
    cells, _ = split_cells(text, PATH)
    with pytest.raises(CellError) as caught:
        run_cells(cells, PATH, {})
    error = caught.value
    assert error.cell.name == "b" and isinstance(error.error, ZeroDivisionError)
    frames = [f for f in traceback.extract_tb(error.error.__traceback__) if f.filename == "lesson.py"]
    assert [f.lineno for f in frames] == [6]


@pytest.mark.parametrize("header, message", [
    ("# %% figure: plot caption=\"x\"", "figure cell `plot` has no `alt`"),
    ("# %% figure:  caption=\"x\" alt=\"y\"", "a figure cell without a name"),
    ("# %% a colour=red", "unknown cell option `colour=red`"),
    ("# %% a echo=maybe", "`echo=maybe` is not true or false"),
    ("# %% 3d", "`3d` cannot name a cell"),
    ("# %% a caption=\"never closed", "cannot read the cell's options"),
])
def test_a_header_that_means_nothing_is_a_problem_at_its_line(header, message):
    _, problems = split_cells(f"x = 1\n\n{header}\ny = 2\n", PATH)
    assert [(p.line, message in str(p.message)) for p in problems] == [(3, True)]


def test_two_cells_with_one_name_are_a_problem():
    _, problems = split_cells("# %% a\nx = 1\n# %% a\ny = 2\n", PATH)
    assert [(p.line, str(p.message)) for p in problems] == [(3, "two cells are named `a` (first at line 1)")]


def test_a_figure_cell_reads_the_names_it_does_not_bind():
    cells, _ = split_cells(TEXT, PATH)
    assert names_read(cells[4]) == ("plt", "xs", "trace", "label")
    cell = split_cells("# %% figure: f caption=c alt=a\nimport numpy as np\nys = np.sin(xs)\n"
                       "def g(t):\n    return t * k\nplt.plot(ys, [g(y) for y in ys])\n", PATH)[0][0]
    assert names_read(cell) == ("xs", "k", "plt")
