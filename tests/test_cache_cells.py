"""The cache with a lesson written as cells (compute/cellrun.py): a figure cell is keyed on its own code and the
values it reads — a function of lesson.py by its code and the globals it reads — so an edit in the prose, in
lesson.py's Markdown cells or comments redraws nothing, and an edit in a cell redraws only the figures drawn from
what changed; the page is the same as a build without the cache."""
import re

import pytest

PY = '''\
# %% data
import numpy as np
import matplotlib.pyplot as plt

a = np.arange(5)
b = np.arange(5) ** 2
factor = 2


def scaled(v):
    return v * factor

# %% [markdown]
# 两条线。

# %% figure: fig_a caption="甲" alt="甲线"
plt.plot(a)

# %% figure: fig_b caption="乙" alt="乙线"
plt.plot(scaled(b))
'''
MD = """\
## 两条线 {#lines}

一共 {{ len(a) }} 个点。

{{< figure fig_a >}}

{{< figure fig_b >}}
"""


def counts(out_text: str) -> tuple[int, int]:
    new = int(re.search(r"Figures new\s+\|\s+(\d+)", out_text).group(1))
    cached = int(re.search(r"Figures cached\s+\|\s+(\d+)", out_text).group(1))
    return new, cached


def svg(page: str, name: str) -> str:
    return re.search(rf'<figure id="fig-{name}".*?</svg>', page, re.S).group(0)


@pytest.fixture
def lesson(make_lesson, run_build):
    folder = make_lesson(md=MD, py=PY)
    code, out_text, err, out = run_build()
    assert code == 0 and counts(out_text) == (2, 0), err
    return folder, (out / "demo" / "index.html").read_text(encoding="utf-8")


def rebuild(run_build, folder, file: str, old: str, new: str):
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    code, out_text, err, out = run_build()
    assert code == 0, err
    return counts(out_text), (out / "demo" / "index.html").read_text(encoding="utf-8")


def test_prose_markdown_cells_and_comments_redraw_nothing(lesson, run_build):
    folder, _ = lesson
    assert rebuild(run_build, folder, "lesson.md", "一共", "总共")[0] == (0, 2)
    assert rebuild(run_build, folder, "lesson.py", "# 两条线。", "# 两条线，一条直的。\n#\n# 一条弯的。")[0] == (0, 2)
    assert rebuild(run_build, folder, "lesson.py", "factor = 2\n", "factor = 2   # 放大\n\n\n")[0] == (0, 2)


@pytest.mark.parametrize("old, new", [
    ("b = np.arange(5) ** 2", "b = np.arange(5) ** 3"),      # a value the cell reads
    ("factor = 2", "factor = 3"),                            # a global read by a function the cell calls
    ("return v * factor", "return v * factor + 1"),          # that function's code
    ("plt.plot(scaled(b))", "plt.plot(scaled(b), color=\"#d55e00\")"),   # the cell's own code
])
def test_an_edit_in_a_cell_redraws_only_the_figures_drawn_from_it(lesson, run_build, old, new):
    folder, before = lesson
    (new_count, cached), page = rebuild(run_build, folder, "lesson.py", old, new)
    assert (new_count, cached) == (1, 1)
    assert svg(page, "fig_a") == svg(before, "fig_a") and svg(page, "fig_b") != svg(before, "fig_b")


def test_the_cached_page_is_the_page_without_the_cache(lesson, run_build, tmp_path):
    folder, first = lesson
    (_, cached), again = rebuild(run_build, folder, "lesson.md", "一共", "一共")
    assert cached == 2 and again == first
    code, out_text, err, out = run_build("--no-cache", out=tmp_path / "fresh")
    assert code == 0 and counts(out_text) == (2, 0), err
    assert (out / "demo" / "index.html").read_text(encoding="utf-8") == first
