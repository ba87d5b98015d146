"""The take-home notebook of a lesson written as cells (render/notebook.py) is close to the author's own: each of
lesson.py's cells as a cell of the notebook, in the author's order, put where the page first shows it (with the
cells before it), a figure cell followed by its caption, an `echo=false` cell folded, the cells no section shows at
the end; `from lessonkit import …` stands for the setup's names. (The suite runs every notebook it builds in a
Python without lessonkit: tests/notebook_runs.py.)"""
import json

import pytest

PY = '''\
# %% setup
from lessonkit import Lesson

lesson = Lesson()
xs = [10.0]


def f_grad(x):
    return 2 * x


# %% descent
for _ in range(10):
    xs.append(xs[-1] - 0.2 * f_grad(xs[-1]))
print(f"epoch 10, x: {xs[-1]:f}")

# %% [markdown]
# 下面画出来。

# %% figure: trace caption="x 一步步走向 0" alt="十一个点往下走"
import matplotlib.pyplot as plt
plt.plot(xs)

# %% quiet echo=false
last_x = xs[-1]


@lesson.value
def halved(xs):
    return [x / 2 for x in xs]

# %% unshown
total = sum(xs)
'''
MD = """\
## 下降 {#descent}

先走十步：

{{< code descent >}}

最后是 {{ last_x:.4f }}，见 @fig:trace。

{{< figure trace >}}

{{< code quiet >}}
"""


@pytest.fixture
def notebook(make_lesson, run_build):
    make_lesson(md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    return json.loads((out / "demo" / "demo.ipynb").read_text(encoding="utf-8"))


def test_the_authors_cells_stand_where_the_page_shows_them(notebook):
    cells = [(c["cell_type"], "".join(c["source"]), c["metadata"]) for c in notebook["cells"]]
    code = [source for kind, source, _ in cells if kind == "code"]
    assert code[1:] == [
        "lesson = Lesson()\nxs = [10.0]\n\n\ndef f_grad(x):\n    return 2 * x",   # the import: the setup's names
        "for _ in range(10):\n    xs.append(xs[-1] - 0.2 * f_grad(xs[-1]))\nprint(f\"epoch 10, x: {xs[-1]:f}\")",
        "import matplotlib.pyplot as plt\nplt.plot(xs)",
        "last_x = xs[-1]\n\n\n@lesson.value\ndef halved(xs):\n    return [x / 2 for x in xs]",
        "total = sum(xs)"]                                                      # never shown: at the end
    assert "def format_value" in code[0]                                        # the setup (lessonkit's stand-in)
    order = [source for _, source, _ in cells]
    descent = order.index(code[2])
    assert order[descent - 1] == code[1] and "先走十步：" in order[descent - 2]     # the cells before it first
    assert "最后是 0.0605，见 图 1。" in order[descent + 1]
    assert order[descent + 1].endswith("下面画出来。")       # the author's Markdown cell, just before the figure cell
    trace = order.index(code[3])
    assert trace == descent + 2
    assert order[trace + 1].startswith("**图 1** x 一步步走向 0")               # the figure's caption after it
    folded = [metadata for kind, source, metadata in cells if source == code[4]]
    assert folded == [{"jupyter": {"source_hidden": True}}]                    # echo=false
    assert "lesson.draw(" not in "\n".join(code[1:]) and "本课的全部计算" not in "\n".join(order)
