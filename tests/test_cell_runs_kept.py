"""A lesson written as cells, run once and kept (compute/run.py load_code, the store's CELL_RUNS): a rebuild after
an edit of its text runs no cell, in a fresh process as in `serve`; an edit of lesson.py or of a data file it reads
runs its cells again; the page is always the one a `--no-cache` build makes of the same sources. Each cell writes a
line to a log outside the lesson folder when it runs (the cells' own evidence, not the engine's word)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PY = """\
# %% load
import numpy as np
from pathlib import Path

LOG = Path({log!r})
LOG.open("a").write("load\\n")
rows = np.loadtxt("data.csv", delimiter=",")
print(f"{{len(rows)}} rows")

# %% fit
LOG.open("a").write("fit\\n")
slope = float(np.polyfit(rows[:, 0], rows[:, 1], 1)[0])
round(slope, 3)

# %% figure: points caption="{{{{ len(rows) }}}} 个点" alt="斜率 {{{{ slope:.2f }}}} 的点"
LOG.open("a").write("points\\n")
import matplotlib.pyplot as plt
plt.plot(rows[:, 0], rows[:, 1], "o")
plt.xlabel("x")
"""
MD = "## 拟合 {{#fit}}\n\n{word}斜率是 {{{{ slope:.2f }}}}。\n\n{{{{< code fit >}}}}\n\n{{{{< figure points >}}}}\n"
DATA = b"0,1\n1,3\n2,5\n3,7\n"          # y = 2x + 1: slope 2


def build(root: Path, out: str, *extra: str, quiet: bool = True) -> subprocess.CompletedProcess:
    """The command line in a fresh process, as a teacher runs it."""
    return subprocess.run([sys.executable, "-m", "lessonkit", "build", *(["-q"] if quiet else []),
                           "--content", str(root / "content"),
                           "--out", str(root / out), "--cache-dir", str(root / "cache"), *extra],
                          capture_output=True, text=True, env={**os.environ, "LESSONKIT_LANG": "en"})


def runs(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def test_a_prose_edit_runs_no_cell_and_the_page_is_a_fresh_builds(make_lesson, tmp_path):
    log = tmp_path / "ran.log"
    folder = make_lesson(py=PY.format(log=str(log)), md=MD.format(word=""), extra={"data.csv": DATA})
    first = build(tmp_path, "out")
    assert first.returncode == 0, first.stderr
    assert runs(log) == ["load", "fit", "points"]
    page = (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")
    assert "斜率是 2.00" in page and "图 1</span> 4 个点" in page

    (folder / "lesson.md").write_text(MD.format(word="拟合出的"), encoding="utf-8")     # the text alone
    again = build(tmp_path, "out", quiet=False)
    assert again.returncode == 0, again.stderr
    assert runs(log) == ["load", "fit", "points"]                                        # no cell ran …
    assert "Cells run       | 0 of 3 (kept from the last build: no code changed)" in again.stdout   # … as it says
    kept = (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")
    assert "拟合出的斜率是 2.00" in kept
    assert build(tmp_path, "fresh", "--no-cache").returncode == 0
    assert kept == (tmp_path / "fresh" / "demo" / "index.html").read_text(encoding="utf-8")
    assert runs(log) == ["load", "fit", "points"] * 2                                    # (the --no-cache build ran)


def test_lesson_py_or_a_data_file_edited_runs_the_cells_again(make_lesson, tmp_path):
    log = tmp_path / "ran.log"
    folder = make_lesson(py=PY.format(log=str(log)), md=MD.format(word=""), extra={"data.csv": DATA})
    assert build(tmp_path, "out").returncode == 0
    (folder / "data.csv").write_bytes(DATA + b"4,13\n")     # a fifth point: Sxy = 28, Sxx = 10, slope 2.8
    rerun = build(tmp_path, "out", quiet=False)
    assert runs(log) == ["load", "fit", "points"] * 2 and "Cells run       | 3 of 3\n" in rerun.stdout
    page = (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")
    assert "斜率是 2.80" in page and "图 1</span> 5 个点" in page
    code = folder / "lesson.py"
    code.write_text(code.read_text(encoding="utf-8").replace('caption="', 'caption="共 '), encoding="utf-8")
    assert build(tmp_path, "out").returncode == 0                           # a header (a comment) is lesson.py too
    assert runs(log) == ["load", "fit", "points"] * 3
    assert "图 1</span> 共 5 个点" in (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")


def test_a_kept_run_whose_figure_left_the_cache_draws_it_from_the_kept_figure(make_lesson, tmp_path):
    import shutil

    log = tmp_path / "ran.log"
    make_lesson(py=PY.format(log=str(log)), md=MD.format(word=""), extra={"data.csv": DATA})
    assert build(tmp_path, "out").returncode == 0
    page = (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")
    shutil.rmtree(tmp_path / "cache" / "figures")
    shutil.rmtree(tmp_path / "cache" / "pages")                            # (the page made again, its figure too)
    assert build(tmp_path, "out").returncode == 0
    assert runs(log) == ["load", "fit", "points"]
    assert (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8") == page
