"""A lesson written as cells, kept (compute/run.py load_code, compute/cellsteps.py): a rebuild after an edit of its
text runs no cell, in a fresh process as in `serve`; an edit of cell k runs k and the cells after it, never one
before; an edited data file runs them all; the page is always the one a `--no-cache` build makes of the same
sources. Each cell writes a line to a log outside the lesson folder when it runs (the cells' own evidence, not the
engine's word)."""
from __future__ import annotations

import os
import re
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


def test_a_data_file_edited_runs_the_cells_again(make_lesson, tmp_path):
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
    assert build(tmp_path, "out").returncode == 0                           # a header (a comment) is its cell's
    assert runs(log) == ["load", "fit", "points"] * 2 + ["points"]
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


STEPS_PY = """\
# %% load
import numpy as np
from pathlib import Path

LOG = Path({log!r})
LOG.open("a").write("load\\n")
rows = np.loadtxt("data.csv", delimiter=",")
np.random.seed(7)
import matplotlib
matplotlib.rcParams["lines.markersize"] = 3      # (a setting the figure cell, run alone later, must still see)

# %% scale
LOG.open("a").write("scale\\n")
scale = float(Path("scale.txt").read_text())
scaled = rows * np.array([1, scale])

# %% fit
LOG.open("a").write("fit\\n")
slope = float(np.polyfit(scaled[:, 0], scaled[:, 1], 1)[0])
noise = float(np.random.rand())
print(f"slope {{slope:.3f}}")

# %% figure: points caption="{{{{ len(rows) }}}} 个点" alt="斜率 {{{{ slope:.2f }}}} 的点"
LOG.open("a").write("points\\n")
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.plot(scaled[:, 0], scaled[:, 1], "o")

# %% summary
LOG.open("a").write("summary\\n")
print(f"{{len(rows)}} rows, slope {{slope:.2f}}, noise {{noise:.4f}}")
"""
STEPS_MD = ("## 拟合 {{#fit}}\n\n{word}斜率是 {{{{ slope:.2f }}}}。\n\n{{{{< code fit >}}}}\n\n{{{{< figure points >}}}}\n\n"
            "{{{{< code summary >}}}}\n")


def test_exactly_the_cells_that_must_run_run_and_the_page_is_always_a_fresh_builds(make_lesson, tmp_path):
    """The issue's held-out lesson: the first cell reads a data file, seeds numpy's generator (which a later cell
    draws from) and sets a matplotlib setting (which the figure cell draws with); every step checked against a
    `--no-cache` build of the same sources, byte for byte."""
    log = tmp_path / "ran.log"
    folder = make_lesson(py=STEPS_PY.format(log=str(log)), md=STEPS_MD.format(word=""),
                         extra={"data.csv": DATA, "scale.txt": b"10"})
    code = folder / "lesson.py"
    every = ["load", "scale", "fit", "points", "summary"]

    def step(expected_runs: list[str]) -> str:
        before = len(runs(log))
        done = build(tmp_path, "out", quiet=False)
        assert done.returncode == 0, done.stderr
        assert runs(log)[before:] == expected_runs
        page = (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")
        ran = runs(log)
        fresh = build(tmp_path, "fresh", "--no-cache")
        assert fresh.returncode == 0, fresh.stderr
        log.write_text("".join(f"{name}\n" for name in ran))     # (what the fresh build ran is not counted)
        assert page == (tmp_path / "fresh" / "demo" / "index.html").read_text(encoding="utf-8")
        return page

    page = step(every)                                                       # the first build: all
    assert "斜率是 20.00" in page and "4 rows, slope 20.00, noise 0.0763" in page   # y = 2x + 1, y × 10; seed 7
    step([])                                                                 # nothing changed: none
    (folder / "lesson.md").write_text(STEPS_MD.format(word="拟合出的"), encoding="utf-8")
    assert "拟合出的斜率是" in step([])                                        # a prose edit: none
    code.write_text(code.read_text(encoding="utf-8").replace("{len(rows)} rows", "{len(rows)} 行"), encoding="utf-8")
    assert "4 行, slope 20.00, noise 0.0763" in step(["summary"])              # the last cell alone
    code.write_text(code.read_text(encoding="utf-8").replace('read_text())', 'read_text()) / 2'), encoding="utf-8")
    assert "斜率是 10.00" in step(["scale", "fit", "points", "summary"])      # the second and after, never the first
    (folder / "scale.txt").write_text("6", encoding="utf-8")
    assert "斜率是 6.00" in step(["scale", "fit", "points", "summary"])       # a data file: from the cell naming it
    (folder / "data.csv").write_bytes(DATA + b"4,13\n")                        # slope 2.8, times 6 / 2
    assert "斜率是 8.40" in step(every)                                        # … the first one here


def test_a_name_that_cannot_be_kept_and_is_read_later_runs_the_cell_that_made_it(make_lesson, tmp_path):
    """The figure cell leaves `ax` (axes: not kept); a last cell that reads it is run with the figure cell before it,
    from the namespace kept after `fit`."""
    log = tmp_path / "ran.log"
    py = STEPS_PY.format(log=str(log)).replace('print(f"{len(rows)} rows', 'print(ax.get_xlabel() + f"{len(rows)} rows')
    folder = make_lesson(py=py, md=STEPS_MD.format(word=""), extra={"data.csv": DATA, "scale.txt": b"10"})
    assert build(tmp_path, "out").returncode == 0
    code = folder / "lesson.py"
    code.write_text(code.read_text(encoding="utf-8").replace("{len(rows)} rows", "{len(rows)} 行"), encoding="utf-8")
    assert build(tmp_path, "out").returncode == 0
    assert runs(log)[5:] == ["points", "summary"]
    assert "4 行, slope 20.00" in (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")


def test_a_data_file_is_in_the_key_of_the_first_cell_that_names_it_else_in_every_cells():
    from lessonkit.compute.cellsteps import data_split, step_keys
    from lessonkit.load.cells import split_cells

    cells, problems = split_cells("# %% a\nx = 1\n# %% b\nrows = open('data/a.csv').read()\n"
                                  "# %% c\nimport glob\nnames = glob.glob('*.txt')\n", Path("lesson.py"))
    assert problems == []
    files = {"data/a.csv": "1", "b.txt": "2"}
    assert data_split(cells, files) == {"b.txt": "2"}          # read through a pattern: every cell's
    before = step_keys("base", cells, files)
    after = step_keys("base", cells, {**files, "data/a.csv": "3"})
    assert before[0] == after[0] and before[1] != after[1] and before[2] != after[2]   # from the cell naming it


def test_random_edits_always_build_the_page_a_fresh_build_makes(make_lesson, run_build, tmp_path):
    """Seeded random edits — a cell's code, a data file, the text — each followed by a kept build and a --no-cache
    one in this process (as `serve` rebuilds), the two pages compared byte for byte."""
    import random

    log = tmp_path / "ran.log"
    folder = make_lesson(py=STEPS_PY.format(log=str(log)), md=STEPS_MD.format(word=""),
                         extra={"data.csv": DATA, "scale.txt": b"10"})
    code = folder / "lesson.py"
    rng = random.Random(44)

    def edit() -> None:
        kind, k = rng.choice(["scale", "data", "text", "fit", "summary"]), rng.randint(2, 9)
        if kind == "scale":
            (folder / "scale.txt").write_text(str(k), encoding="utf-8")
        elif kind == "data":
            (folder / "data.csv").write_bytes(DATA + f"4,{k}\n".encode())
        elif kind == "text":
            (folder / "lesson.md").write_text(STEPS_MD.format(word="改" * k), encoding="utf-8")
        else:
            text = code.read_text(encoding="utf-8")
            marker = "print(f\"slope" if kind == "fit" else "print(f\"{len(rows)}"
            code.write_text(re.sub(r"(?m)^(x_\w+ = \d+\n)?(?=" + re.escape(marker) + ")", f"x_{kind} = {k}\n", text,
                                   count=1), encoding="utf-8")

    assert run_build()[0] == 0
    ran = set()
    for _ in range(8):
        edit()
        before = len(runs(log))
        code_kept, _, err, out = run_build()
        assert code_kept == 0, err
        ran.add(len(runs(log)) - before)
        code_fresh, _, err, fresh = run_build("--no-cache", out=tmp_path / "fresh")
        assert code_fresh == 0, err
        assert (out / "demo" / "index.html").read_bytes() == (fresh / "demo" / "index.html").read_bytes()
    assert any(0 <= n < 5 for n in ran)     # (the edits took the kept paths, not only full runs)
