"""compute/kept.py: a lesson whose lesson.py and data files did not change is taken from the store — lesson.py is
not run, numpy not imported — unless a page needs a value the store did not keep of it; the pages are those of a
build without the store."""
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent

LESSON_PY = """\
import numpy as np
from lessonkit import Lesson

with open({runs!r}, "a") as f:   # each time lesson.py runs
    f.write("x")

lesson = Lesson()


class Point(dict):   # unpickled only where lesson.py's module is
    pass


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def xs():
    return np.arange(1, 6)


@lesson.value
def corner():
    return Point(x=0.5, y=2.25)


@lesson.figure(caption="曲线，共 {{{{ two_pow }}}} 格", alt="一条曲线")
def curve(plt, xs, two_pow):
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot(xs, xs * two_pow)
    return fig
"""

LESSON_MD = """\
## 第一节 {{#first}}

二的十次方是 {{{{ two_pow }}}}。{extra}

{{{{< figure curve >}}}}
"""


@pytest.fixture
def lesson(make_lesson, tmp_path):
    runs = tmp_path / "runs.txt"
    folder = make_lesson(md=LESSON_MD.format(extra=""), py=LESSON_PY.format(runs=str(runs)))
    return folder, runs


def edit(folder: Path, extra: str) -> None:
    (folder / "lesson.md").write_text(LESSON_MD.format(extra=extra), encoding="utf-8")


def same_as_without_store(run_build, out: Path, tmp_path: Path) -> None:
    code, _, err, fresh = run_build("--no-cache", out=tmp_path / "fresh")
    assert code == 0, err
    for page in fresh.rglob("*.html"):
        assert (out / page.relative_to(fresh)).read_bytes() == page.read_bytes(), page


def test_an_edit_of_the_text_runs_no_lesson_code(lesson, run_build, tmp_path):
    folder, runs = lesson
    assert run_build()[0] == 0 and runs.read_text() == "x"
    edit(folder, "再说一遍：二的十次方是 {{ two_pow }}。")
    code, _, err, out = run_build()
    assert code == 0, err
    assert runs.read_text() == "x"  # the page's values, its figure and its text's numbers came from the store
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert page.count("1024") >= 3  # the text twice (computed by hand: 2 ** 10), the caption
    same_as_without_store(run_build, out, tmp_path)


def test_a_value_the_page_did_not_show_before_is_read_from_the_store(lesson, run_build, tmp_path):
    folder, runs = lesson
    run_build()
    edit(folder, "最后一格是 {{ xs[-1] * two_pow }}，共 {{ len(xs) }} 格。")
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "最后一格是 5120，共 5 格" in page  # 5 × 1024
    assert runs.read_text() == "x"  # numpy's values unpickled; lesson.py itself not run
    same_as_without_store(run_build, out, tmp_path)


def test_a_value_of_a_class_lesson_py_defines_is_read_with_it(lesson, run_build, tmp_path):
    folder, runs = lesson
    run_build()
    edit(folder, "角落在 ({{ corner.x }}, {{ corner.y }})。")
    sys.modules.pop("_lesson_demo")  # as in a new process: the class is nowhere until lesson.py runs
    code, _, err, out = run_build()
    assert code == 0, err
    assert "角落在 (0.500, 2.25)" in (out / "demo" / "index.html").read_text(encoding="utf-8")  # 3 significant figures
    assert runs.read_text() == "xx"  # run once more, for its class Point
    same_as_without_store(run_build, out, tmp_path)


def test_editing_lesson_py_computes_it_again(lesson, run_build, tmp_path):
    folder, runs = lesson
    run_build()
    py = folder / "lesson.py"
    py.write_text(py.read_text(encoding="utf-8").replace("2 ** 10", "2 ** 11"), encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 0, err
    assert "二的十次方是 2048" in (out / "demo" / "index.html").read_text(encoding="utf-8")
    same_as_without_store(run_build, out, tmp_path)


def test_a_rebuild_after_an_edit_of_the_text_imports_neither_numpy_nor_pyyaml(lesson, tmp_path):
    """The values come from the store (compute/kept.py); site.yaml, lesson.yaml, the theme's words and the message
    catalog (for the warning about a hand-typed number) from their kept readings (support/readings.py). A course
    without a release day never looks the build's day up (no zoneinfo: load/release.py)."""
    folder, runs = lesson
    build = ("import sys; from lessonkit.cli import main; "
             f"code = main(['build', '-q', '--content', {str(tmp_path / 'content')!r}, '--out', "
             f"{str(tmp_path / 'out')!r}, '--cache-dir', {str(tmp_path / 'cache')!r}]); "
             "print(code, 'numpy' in sys.modules, 'yaml' in sys.modules, 'zoneinfo' in sys.modules)")

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", build], capture_output=True, text=True, cwd=PROJECT_ROOT,
                              env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin", "LESSONKIT_LANG": "zh-CN"})
        assert done.returncode == 0, done.stderr
        run.warned = "手写的数字 `37`" in done.stderr
        return done.stdout.split()[-4:]

    assert run()[:3] == ["0", "True", "True"]       # the first build computes, draws and reads every file
    edit(folder, "又改了一句，写了 37 个字。")
    assert run() == ["0", "False", "True", "False"] and run.warned  # (the catalog read for the first warning)
    edit(folder, "又改了一句，还是 37 个字。")
    assert run() == ["0", "False", "False", "False"] and run.warned


def test_a_kept_registry_names_lines_and_parameters_as_lesson_py_does(lesson):
    import hashlib
    import pickle

    from lessonkit.compute.registry import deferred, inputs_of, load_lesson_module
    from lessonkit.support.pysource import first_line

    folder, runs = lesson
    path = folder / "lesson.py"
    registry = load_lesson_module(path)
    kept = pickle.loads(pickle.dumps(deferred(registry, path, hashlib.sha256(path.read_bytes()).hexdigest())))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[first_line(kept.figures["curve"].func) - 1].startswith("@lesson.figure")  # (decorator's line: 3.8+)
    assert first_line(kept.values["xs"]) == first_line(registry.values["xs"])
    assert kept.figures["curve"].code_name == "curve" and kept.figures["curve"].inputs == ("xs", "two_pow")
    assert inputs_of(kept.figures["curve"].func, skip_first=True) == ("xs", "two_pow")
    assert kept.values["two_pow"]() == 1024  # called: lesson.py runs


def test_values_the_store_cannot_read_are_computed_again(lesson, run_build, tmp_path):
    folder, runs = lesson
    run_build()
    for entry in (tmp_path / "cache" / "values").glob("*.pickle"):
        if entry.name.count(".") == 1:  # the VALUES entry (not .shape. nor .derived.)
            entry.write_bytes(b"not a pickle")
    edit(folder, "最后一格是 {{ xs[-1] * two_pow }}。")
    code, _, err, out = run_build()
    assert code == 0, err
    assert "最后一格是 5120" in (out / "demo" / "index.html").read_text(encoding="utf-8")
    same_as_without_store(run_build, out, tmp_path)
