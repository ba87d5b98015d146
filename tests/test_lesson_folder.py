"""Lesson code runs in its lesson's folder, as Jupyter runs a notebook in its own (compute/registry.py
in_lesson_folder): a module's top level, a value, a widget, a figure and a cell read `open("data.txt")` beside
lesson.py; the build's own working folder is back afterwards; a file that is not there is reported at its line,
saying where lesson code looks."""
import os
import re

import pytest

from pagetext import visible_text

MD = """\
## 数据 {#data}

文件里的数加起来是 {{ total }}，表里有 {{ rows }} 行，单元读到 {{ first_word }}。

{{< figure from_file >}}
"""

PLAIN_PY = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()
HEADER = open("numbers.txt", encoding="utf-8").readline().strip()   # the module's top level


@lesson.value
def total():
    return int(np.loadtxt("numbers.txt", skiprows=1).sum())


@lesson.value
def rows():
    return len(np.loadtxt("data/points.csv", delimiter=","))


@lesson.value
def first_word():
    return HEADER


@lesson.figure(caption="文件里的点", alt="三个点")
def from_file(plt):
    xy = np.loadtxt("data/points.csv", delimiter=",")
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot(xy[:, 0], xy[:, 1], "o")
    return fig
"""

CELLS_PY = """\
# %% setup
import numpy as np
import matplotlib.pyplot as plt
first_word = open("numbers.txt", encoding="utf-8").readline().strip()
total = int(np.loadtxt("numbers.txt", skiprows=1).sum())

# %% count
rows = len(np.loadtxt("data/points.csv", delimiter=","))

# %% figure: from_file caption="文件里的点" alt="三个点"
xy = np.loadtxt("data/points.csv", delimiter=",")
plt.plot(xy[:, 0], xy[:, 1], "o")
"""

FILES = {"numbers.txt": "数\n3\n4\n5\n".encode(), "data/points.csv": b"0,1\n1,3\n2,2\n"}


def lesson_with(make_lesson, py: str, files=FILES):
    folder = make_lesson(md=MD, py=py)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize("py", [PLAIN_PY, CELLS_PY], ids=["plain", "cells"])
def test_lesson_code_reads_the_files_beside_it(make_lesson, run_build, tmp_path, py):
    lesson_with(make_lesson, py)
    before = os.getcwd()
    code, _, err, out = run_build()
    assert code == 0, err
    assert os.getcwd() == before
    text = visible_text((out / "demo" / "index.html").read_text(encoding="utf-8"))
    assert "加起来是 12，表里有 3 行，单元读到 数" in text           # 3 + 4 + 5; three rows; the first line
    assert re.search(r"<svg[^>]*>.*?</svg>", (out / "demo" / "index.html").read_text(encoding="utf-8"), re.S)


def test_a_changed_data_file_computes_and_draws_again(make_lesson, run_build):
    folder = lesson_with(make_lesson, PLAIN_PY)
    assert run_build()[0] == 0
    (folder / "numbers.txt").write_text("数\n10\n20\n", encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 0, err
    assert "加起来是 30" in visible_text((out / "demo" / "index.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("py, line", [(PLAIN_PY, 15), (CELLS_PY, 8)], ids=["plain", "cells"])
def test_a_file_that_is_not_there_is_reported_at_its_line_saying_where_code_looks(make_lesson, run_build, py, line):
    lesson_with(make_lesson, py, files={"numbers.txt": FILES["numbers.txt"]})   # data/points.csv missing
    before = os.getcwd()
    code, out_text, err, out = run_build()
    assert code != 0 and os.getcwd() == before
    said = out_text + err
    assert f"lesson.py:{line}" in said, said
    assert "`data/points.csv` in the lesson folder, beside lesson.py" in said
    assert "Traceback" not in said and not (out / "demo").exists()
