"""Figure and value cache: what changes a figure redraws it, what does not leaves it cached; warm builds stay light."""
import json
import os
import re
import subprocess
import sys

import pytest

PROJECT_ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent

FIGURE_MD = """\
## 第一节 {#first}

二的十次方是 {{ two_pow }}，公式 $2^{10}$。

{{< figure curve >}}
"""


def figure_py(calls_file, exponent=10, colour="#0072b2"):
    """A lesson whose value appends to calls_file each time it is computed (outside the lesson folder)."""
    return f"""\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    with open({str(calls_file)!r}, "a") as f:
        f.write("x")
    return 2 ** {exponent}


@lesson.value
def xs():
    return np.arange(5)


@lesson.figure(caption="曲线", alt="一条曲线")
def curve(plt, xs, two_pow):
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot(xs, xs * two_pow, color="{colour}")
    ax.set(xlabel="层数")
    return fig
"""


def summary_counts(out_text):
    new = int(re.search(r"Figures new\s+\|\s+(\d+)", out_text).group(1))
    cached = int(re.search(r"Figures cached\s+\|\s+(\d+)", out_text).group(1))
    return new, cached


@pytest.fixture
def figure_lesson(make_lesson, tmp_path):
    calls = tmp_path / "calls.txt"
    folder = make_lesson(md=FIGURE_MD, py=figure_py(calls))
    return folder, calls


def test_second_build_takes_figure_and_values_from_cache(figure_lesson, run_build):
    folder, calls = figure_lesson
    code, first, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_bytes()
    assert summary_counts(first) == (1, 0) and calls.read_text() == "x"
    code, second, err, out = run_build()
    assert code == 0, err
    assert summary_counts(second) == (0, 1)
    assert calls.read_text() == "x"  # the value was not computed again
    assert (out / "demo" / "index.html").read_bytes() == page


def test_editing_the_text_keeps_the_cache_editing_the_code_does_not(figure_lesson, run_build, make_lesson, tmp_path):
    folder, calls = figure_lesson
    run_build()
    (folder / "lesson.md").write_text(FIGURE_MD.replace("二的十次方是", "二的十次幂等于"), encoding="utf-8")
    code, out_text, err, out = run_build()
    assert code == 0 and summary_counts(out_text) == (0, 1) and calls.read_text() == "x"
    assert "二的十次幂等于 1024" in (out / "demo" / "index.html").read_text(encoding="utf-8")
    (folder / "lesson.py").write_text(figure_py(calls, colour="#d55e00"), encoding="utf-8")
    code, out_text, _, out = run_build()
    assert summary_counts(out_text) == (1, 0) and calls.read_text() == "xx"
    assert "#d55e00" in (out / "demo" / "index.html").read_text(encoding="utf-8")


def test_a_data_file_beside_the_lesson_invalidates_it(figure_lesson, run_build):
    folder, calls = figure_lesson
    run_build()
    (folder / "data.csv").write_text("1,2\n", encoding="utf-8")
    assert summary_counts(run_build()[1]) == (1, 0)


def test_no_cache_draws_everything_and_gives_the_same_page(figure_lesson, run_build, tmp_path):
    folder, calls = figure_lesson
    run_build()
    code, out_text, _, out = run_build("--no-cache", out=tmp_path / "fresh")
    assert code == 0 and summary_counts(out_text) == (1, 0) and calls.read_text() == "xx"
    assert (out / "demo" / "index.html").read_bytes() == (tmp_path / "out" / "demo" / "index.html").read_bytes()


def test_a_vanished_font_is_never_served_from_the_cache(figure_lesson, run_build, tmp_path):
    """A font file the figures were drawn from disappears: the next build chooses again and redraws."""
    from lessonkit.support.font import font_fingerprint
    from lessonkit.draw.figures import find_cjk_font

    font_file = tmp_path / "fonts" / "OldCJK.ttc"
    font_file.parent.mkdir()
    font_file.write_bytes(b"a font that will be uninstalled")
    st = font_file.stat()
    font_json = tmp_path / "cache" / "font.json"
    font_json.parent.mkdir()
    font_json.write_text(json.dumps({"family": find_cjk_font(), "file": str(font_file),
                                     "stat": [st.st_size, st.st_mtime_ns], "fingerprint": font_fingerprint()}))
    assert summary_counts(run_build()[1]) == (1, 0)
    assert summary_counts(run_build()[1]) == (0, 1)   # the font is still there
    font_file.unlink()
    code, out_text, _, _ = run_build()
    assert code == 0 and summary_counts(out_text) == (1, 0)
    assert json.loads(font_json.read_text(encoding="utf-8"))["file"] != str(font_file)


def test_changed_font_folders_make_the_build_choose_the_font_again(figure_lesson, run_build, tmp_path):
    run_build()
    font_json = tmp_path / "cache" / "font.json"
    record = json.loads(font_json.read_text(encoding="utf-8"))
    font_json.write_text(json.dumps({**record, "family": "Imaginary Sans", "fingerprint": "other fonts"}),
                         encoding="utf-8")
    code, out_text, _, _ = run_build()
    assert code == 0 and "Imaginary Sans" not in out_text
    assert json.loads(font_json.read_text(encoding="utf-8"))["family"] == record["family"]


def test_warm_build_imports_neither_matplotlib_nor_latex2mathml(figure_lesson, tmp_path):
    """…and no build, cold or warm, imports the preview server: nothing is served."""
    folder, _ = figure_lesson
    args = ["build", "-q", "--content", str(folder.parent), "--out", str(tmp_path / "out"),
            "--cache-dir", str(tmp_path / "cache")]
    probe = ("import sys; from lessonkit.cli import main; code = main(sys.argv[1:]); "
             "print(code, 'matplotlib' in sys.modules, 'latex2mathml' in sys.modules, "
             "any(m in sys.modules for m in ('lessonkit.commands.preview', 'http.server', 'socketserver')))")
    run = lambda: subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, cwd=PROJECT_ROOT,
                                 timeout=300)
    cold = run()
    assert cold.stdout.split() == ["0", "True", "True", "False"], cold.stderr
    warm = run()
    assert warm.stdout.split() == ["0", "False", "False", "False"], warm.stderr


def test_figure_errors_from_worker_processes_are_reported(make_lesson, run_build):
    py = """\
    from lessonkit import Lesson
    lesson = Lesson()

    @lesson.figure(caption="甲", alt="甲")
    def good(plt):
        fig, ax = plt.subplots(figsize=(1, 1))
        return fig

    @lesson.figure(caption="乙", alt="乙")
    def bad(plt):
        return 1 / 0
    """
    make_lesson(md="## 一 {#a}\n\n{{< figure good >}}\n\n{{< figure bad >}}\n", py=py)
    code, _, err, _ = run_build("--jobs", "2")
    assert code == 1 and "lesson.py:11: the lesson code raised ZeroDivisionError" in err and "Traceback" not in err


JOBS_FIGURE = """
@lesson.figure(caption="图N", alt="图N")
def fN(plt):
    with open(PIDS, "a") as f:
        f.write(f"{os.getpid()}\\n")
    deadline = time.monotonic() + 60  # with WAIT: the first figure holds its process until another one draws
    while N == 0 and os.path.exists(WAIT) and len(open(PIDS).read().split()) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1], [0, N])
    return fig
"""


def test_jobs_counts_the_processes_that_draw_the_parent_among_them(make_lesson, run_build, tmp_path):
    """`--jobs N`: N processes draw, the parent (once its pages are rendered) and N - 1 forked workers, so a build
    never runs more drawing processes than it was given cores for; `--jobs 1` forks nothing."""
    pids, wait = tmp_path / "pids.txt", tmp_path / "wait"
    py = (f"import os, time\nfrom lessonkit import Lesson\nlesson = Lesson()\nPIDS, WAIT = {str(pids)!r}, {str(wait)!r}\n"
          + "".join(JOBS_FIGURE.replace("N", str(i)) for i in range(4)))
    make_lesson(md="## 一 {#a}\n\n" + "".join(f"{{{{< figure f{i} >}}}}\n\n" for i in range(4)), py=py)
    pids.write_text("")
    code, _, err, _ = run_build("--jobs", "1", "--no-cache", out=tmp_path / "one")
    assert code == 0, err
    assert pids.read_text().split() == [str(os.getpid())] * 4
    pids.write_text("")
    wait.touch()  # the first figure waits for a second process: one worker, and the parent after rendering
    code, _, err, _ = run_build("--jobs", "2", "--no-cache", out=tmp_path / "two")
    assert code == 0, err
    drew = pids.read_text().split()
    assert len(drew) == 4 and len(set(drew)) == 2 and str(os.getpid()) in drew


def test_clean_deletes_cache_and_marked_output_only(figure_lesson, run_build, tmp_path, capsys):
    from lessonkit.cli import main

    run_build()
    assert (tmp_path / "cache" / "figures").is_dir()
    assert main(["clean", "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "cache")]) == 0
    assert not (tmp_path / "cache").exists() and not (tmp_path / "out").exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    assert main(["clean", "--out", str(mine), "--cache-dir", str(tmp_path / "cache")]) == 2
    assert "refusing to delete" in capsys.readouterr().err and (mine / "notes.txt").exists()
    assert main(["clean", "--out", str(tmp_path / "out"), "--cache-dir", str(mine)]) == 2
    assert (mine / "notes.txt").exists()


def test_a_value_that_cannot_travel_to_a_worker_is_drawn_in_the_main_process(make_lesson, run_build):
    py = """\
    from lessonkit import Lesson
    lesson = Lesson()

    @lesson.value
    def slope():
        return lambda x: 3 * x          # a function: pickle cannot send it to a worker process

    @lesson.figure(caption="甲", alt="甲")
    def first(plt, slope):
        fig, ax = plt.subplots(figsize=(1, 1))
        ax.plot([0, 1], [slope(0), slope(1)])
        return fig

    @lesson.figure(caption="乙", alt="乙")
    def second(plt):
        fig, ax = plt.subplots(figsize=(1, 1))
        return fig
    """
    make_lesson(md="## 一 {#a}\n\n{{< figure first >}}\n\n{{< figure second >}}\n", py=py)
    code, out_text, err, out = run_build("--jobs", "2")
    assert code == 0, err
    assert summary_counts(out_text) == (2, 0)
    assert (out / "demo" / "index.html").read_text(encoding="utf-8").count("<svg") == 2


# ---- pruning after a build (the rules themselves: tests/test_prune.py) ----

DAY = 86400.0
H1 = "a" * 64


def present(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_a_build_prunes_old_entries_and_keeps_the_ones_it_used(figure_lesson, run_build, tmp_path):
    import time

    run_build()
    c = tmp_path / "cache"
    used = present(c)
    assert any(p.startswith("figures/") for p in used) and any(p.startswith("templates/") for p in used)
    long_ago = time.time() - 60 * DAY
    for p in c.rglob("*"):
        if p.is_file():
            os.utime(p, (long_ago, long_ago))
    stale = c / "figures" / f"{H1}.svg"
    stale.write_text("<svg>a figure of a deleted lesson</svg>", encoding="utf-8")
    os.utime(stale, (long_ago, long_ago))
    code, out_text, err, _ = run_build()
    assert code == 0, err
    assert summary_counts(out_text) == (0, 1)       # everything it needed was still there
    # the stale figure went, what the build read stayed; lesson.md's sections, read only when it changes, went too
    assert present(c) == [p for p in used if not p.endswith(".part.pickle")]
    assert any(p.endswith(".part.pickle") for p in used)
    assert summary_counts(run_build()[1]) == (0, 1)


def test_a_build_prunes_at_most_once_a_day(figure_lesson, run_build, tmp_path):
    import time

    from lessonkit.support.prune import PRUNED_STAMP

    run_build()
    c = tmp_path / "cache"
    stale = c / "figures" / f"{H1}.svg"
    stale.write_text("<svg>a figure of a deleted lesson</svg>", encoding="utf-8")
    long_ago = time.time() - 60 * DAY
    os.utime(stale, (long_ago, long_ago))
    assert run_build()[0] == 0 and stale.exists()         # the first build pruned today: this one does not
    yesterday = time.time() - 25 * 3600
    os.utime(c / PRUNED_STAMP, (yesterday, yesterday))
    assert run_build()[0] == 0 and not stale.exists()


def test_a_kept_page_marks_what_it_is_made_of_once_an_hour_and_before_every_pruning(figure_lesson, run_build,
                                                                                     tmp_path):
    """A rebuild that changed nothing reads the kept pages (marking them used) but marks the hundreds of entries
    they are made of only when it last did so an hour ago or more — or when it prunes, which keeps only what the
    build marked."""
    import time

    from lessonkit.support.prune import PRUNED_STAMP

    run_build()
    c = tmp_path / "cache"
    figure = next((c / "figures").glob("*.svg"))
    records = list((c / "pages").glob("*.pickle"))

    def age_everything(seconds, stamp_hours=0.0):
        then = time.time() - seconds
        for p in c.rglob("*"):
            if p.is_file():
                os.utime(p, (then, then))
        stamp = time.time() - stamp_hours * 3600
        os.utime(c / PRUNED_STAMP, (stamp, stamp))
        return then

    then = age_everything(600)                              # read ten minutes ago, pruned today
    assert summary_counts(run_build()[1]) == (0, 1)
    assert figure.stat().st_mtime == then                   # not marked again …
    assert any(r.stat().st_mtime > then + 500 for r in records)   # … though its page's record was read
    then = age_everything(2 * 3600)                         # read two hours ago
    assert summary_counts(run_build()[1]) == (0, 1)
    assert figure.stat().st_mtime > then + 3600
    then = age_everything(600, stamp_hours=25)              # read ten minutes ago, but this build prunes
    assert summary_counts(run_build()[1]) == (0, 1)
    assert figure.stat().st_mtime > then + 500 and figure.exists()


def test_a_failed_build_prunes_nothing(figure_lesson, run_build, tmp_path):
    folder, _ = figure_lesson
    c = tmp_path / "cache"
    stale = c / "figures" / f"{H1}.svg"
    stale.parent.mkdir(parents=True)
    stale.write_text("<svg/>", encoding="utf-8")
    os.utime(stale, (1e9, 1e9))
    (folder / "lesson.md").write_text(FIGURE_MD + "\n{{ no_such_value }}\n", encoding="utf-8")
    code, _, _, _ = run_build()
    assert code == 1 and stale.exists()


def test_a_cache_that_cannot_be_written_does_not_stop_the_build(figure_lesson, run_build, tmp_path, monkeypatch):
    """A full disk or a read-only cache folder: the entries are left out, the site is built as without a cache
    (the output's own writes still report a full disk: tests/test_output.py)."""
    from pathlib import Path

    code, _, err, out = run_build()
    assert code == 0, err
    expected = (out / "demo" / "index.html").read_bytes()
    for p in (tmp_path / "cache").rglob("*"):
        if p.is_file():
            p.unlink()
    real_write = Path.write_bytes

    def full_cache(self, data):
        if self.is_relative_to(tmp_path / "cache"):
            raise OSError(28, "No space left on device")
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", full_cache)
    code, _, err, out = run_build(out=tmp_path / "out2")
    assert code == 0, err
    assert (out / "demo" / "index.html").read_bytes() == expected
    written = [p.relative_to(tmp_path / "cache").parts[0] for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert not {"figures", "values", "pages"} & set(written)  # none of these entries was written, none half-written


DESCRIBED_PY = """\
import os
import time
from dataclasses import dataclass

from lessonkit import Lesson, explorer, param

lesson = Lesson()
PIDS, WAIT = {pids!r}, {wait!r}


def drew():
    # say which process draws; with WAIT, hold it (60 s at most) until another process has drawn too
    with open(PIDS, "a") as f:
        f.write(f"{{os.getpid()}}\\n")
    deadline = time.monotonic() + 60
    while os.path.exists(WAIT) and set(open(PIDS).read().split()) <= {{str(os.getpid())}} \\
            and time.monotonic() < deadline:
        time.sleep(0.01)


@dataclass
class Curve:                      # a value of a class lesson.py defines: pickled by reference, found again there
    scale: float


@lesson.value
def curve():
    return Curve(2.0)


@lesson.value
def double():                     # a value pickle cannot carry: its figure is drawn by the build itself
    return lambda x: 2 * x


@lesson.figure(caption="甲", alt="一条线")
def line(plt, curve):
    drew()
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [0, curve.scale])
    return fig


@lesson.figure(caption="乙", alt="一条线")
def doubled(plt, double):
    drew()
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [0, double(1)])
    return fig


@lesson.widget
def knob(curve):
    def state_figure(plt, k):      # a state figure's function exists only inside the widget's: run again there
        drew()
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.plot([0, 1], [0, k * curve.scale])
        return fig

    return explorer([param("k", "k", [1, 2, 3])], lambda k: {{"values": [("x", k * curve.scale)]}},
                    figure=state_figure, alt="k = {{k}}")
"""


def test_workers_from_the_fork_server_draw_the_same_bytes(make_lesson, tmp_path):
    """`serve`'s drawing workers start from the fork server and get each job described (lesson.py loaded again,
    inputs pickled): a value of a class lesson.py defines, a widget's state figures (their function made by running
    the widget again) and a value pickle cannot carry (drawn by the build) come out as the build's forked workers
    and a single process draw them, byte for byte; and the workers did draw."""
    from lessonkit.site import Options, build

    pids, wait = tmp_path / "pids.txt", tmp_path / "wait"
    make_lesson(md="## 一 {#a}\n\n{{< figure line >}}\n\n{{< figure doubled >}}\n\n{{< widget knob >}}\n",
                py=DESCRIBED_PY.format(pids=str(pids), wait=str(wait)))
    pages, drawn_by = {}, {}
    for name, jobs, start in (("one", 1, "fork"), ("fork", 3, "fork"), ("forkserver", 3, "forkserver")):
        pids.write_text("")
        if jobs > 1:
            wait.touch()   # a process that draws waits for another one: the workers do draw
        report = build(Options(content=tmp_path / "content", out=tmp_path / name, themes=PROJECT_ROOT / "themes",
                               jobs=jobs, drawing_start=start))
        pages[name], drawn_by[name] = report.pages, pids.read_text().split()
    wait.unlink()   # (the notebook, run at the session's end, then waits for nobody)
    assert pages["fork"] == pages["one"] and pages["forkserver"] == pages["one"]
    assert len(drawn_by["forkserver"]) == 5 and set(drawn_by["forkserver"]) - {str(os.getpid())}
    assert drawn_by["one"] == [str(os.getpid())] * 5


SHARED_FIGURE = """
@lesson.figure(caption="图N", alt="图N")
def fN(plt):
    with open(PIDS, "a") as f:
        f.write(f"{os.getpid()}\\n")
    drew = lambda: open(PIDS).read().split()  # noqa: E731
    if os.getpid() == BUILD_PID:       # the build's figure waits (till STOP_AT) until a worker drew the 3 others …
        while len([p for p in drew() if p != str(BUILD_PID)]) < 3 and time.time() < STOP_AT:
            time.sleep(0.01)
    else:                              # … and a worker holds its first figure until the build has begun drawing
        deadline = time.monotonic() + 60
        while str(BUILD_PID) not in drew() and time.monotonic() < deadline:
            time.sleep(0.01)
    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1], [0, N])
    return fig
"""


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_the_build_takes_one_figure_at_a_time_so_a_worker_takes_the_others(make_lesson, tmp_path, start):
    """Once its pages are rendered the build draws too, one figure at a time from the same queue as the workers:
    while it draws a slow one, a free worker takes the next (it does not keep them all for itself). Here the build's
    figure lasts until a worker has drawn the three others, however late the worker starts (30 s at most)."""
    from lessonkit.site import Options, build

    pids = tmp_path / "pids.txt"
    py = (f"import os, time\nfrom lessonkit import Lesson\nlesson = Lesson()\nPIDS, BUILD_PID = {str(pids)!r}, "
          f"{os.getpid()}\nSTOP_AT = time.time() + 30\n"
          + "".join(SHARED_FIGURE.replace("N", str(i)) for i in range(4)))
    make_lesson(md="## 一 {#a}\n\n" + "".join(f"{{{{< figure f{i} >}}}}\n\n" for i in range(4)), py=py)
    pids.write_text("")
    build(Options(content=tmp_path / "content", out=tmp_path / "out", themes=PROJECT_ROOT / "themes", jobs=2,
                  drawing_start=start))
    drew = pids.read_text().split()
    assert len(drew) == 4 and drew.count(str(os.getpid())) == 1, drew   # the worker drew the three others
