"""What a cell showed reaches the page as Jupyter shows it (compute/cells.py, features/code.py): a figure cell's
printed lines above its figure, what compiled code printed to the process's stdout in the cell's output (never on
the build's terminal), and empty axes as a figure."""
import re
import subprocess
import sys

from pagetext import visible_text

MD = """\
## 输出 {#out}

{{< code report >}}

{{< code native >}}

{{< code frame >}}
"""

PY = """\
# %% setup
import ctypes
import os

import matplotlib.pyplot as plt
import numpy as np

# %% figure: report caption="一条线" alt="一条上升的线"
xs = np.arange(4)
print(f"共 {len(xs)} 个点")
print("画好了")
plt.plot(xs, xs ** 2)

# %% native
print("Python 先说")
os.write(1, b"from a compiled solver: 359 lines\\n")
ctypes.CDLL(None).printf(b"printf says %d\\n", 7)
os.write(2, b"a native warning\\n")

# %% figure: frame caption="空的坐标系" alt="一个空的坐标系"
fig = plt.figure()
ax = plt.axes()
"""


def test_what_cells_printed_and_drew_is_on_the_page_and_not_on_the_terminal(make_lesson, tmp_path):
    make_lesson(md=MD, py=PY)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "lessonkit", "build", "--content", str(tmp_path / "content"),
                           "--out", str(out), "--cache-dir", str(tmp_path / "cache")],
                          capture_output=True, text=True)   # the build's own terminal: its real descriptors
    assert done.returncode == 0, done.stderr
    for native in ("359 lines", "printf says", "a native warning"):
        assert native not in done.stdout + done.stderr
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    report = page[page.index('id="code-report"'):page.index('id="code-native"')]
    assert report.index("<samp>共 4 个点\n画好了</samp>") < report.index("<svg")   # printed, then the figure
    native = re.search(r"<samp>(.*?)</samp>", page[page.index('id="code-native"'):], re.S).group(1)
    # stderr nowhere; the last line's value as Jupyter shows it: os.write's count, len("a native warning\n")
    assert native == "Python 先说\nfrom a compiled solver: 359 lines\nprintf says 7\n17"
    frame = page[page.index('id="code-frame"'):]
    assert "<svg" in frame and "空的坐标系" in frame


FRAME_MD = "## 表 {#table}\n\n{{< code small >}}\n\n{{< code long >}}\n"
FRAME_PY = """\
# %% small
import numpy as np
import pandas as pd

pd.DataFrame({"x": np.arange(3), "y": [0.1, 2.25, 3.0]})

# %% long
frame = pd.DataFrame({"x": np.arange(100), "y": np.linspace(0, 1, 100)})
frame.index.name = "i"
frame
"""


def rows_of(html: str) -> list[list[str]]:
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)]


def test_a_dataframe_is_a_table_as_jupyter_shows_it(make_lesson, run_build):
    make_lesson(md=FRAME_MD, py=FRAME_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    small = page[page.index('id="code-small"'):page.index('id="code-long"')]
    assert "<samp>" not in small                                  # not its text form
    assert rows_of(small) == [["", "x", "y"], ["0", "0", "0.10"], ["1", "1", "2.25"], ["2", "2", "3.00"]]
    long = page[page.index('id="code-long"'):]
    rows = rows_of(long)
    # a header row and one naming the index; then pandas' 5 first and 5 last rows (y = i / 99, to 6 decimals)
    assert rows[:2] == [["", "x", "y"], ["i", "", ""]] and len(rows) == 2 + 5 + 1 + 5
    assert rows[3] == ["1", "1", "0.010101"] and rows[7] == ["...", "...", "..."] and rows[-1] == ["99", "99", "1.000000"]
    assert "100 rows × 2 columns" in long and 'style="' not in long
    # its notebook needs pandas, which the tests' plain Python for notebooks (numpy and matplotlib) lacks: a lesson
    # names it in `requires:` and the notebook's header says so (tests/test_requires.py)
    (out / "demo" / "demo.ipynb").unlink()
