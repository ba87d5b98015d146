"""Shared fixtures: small lessons written into tmp_path, built with the real theme; the lessons found in content/;
and a session-wide check that no test wrote into the repository."""
from __future__ import annotations

import ast
import functools
import os
import tempfile
import textwrap
from pathlib import Path

import pytest

from lessonkit.cli import main
import notebook_runs
from lesson_folders import PROJECT, real_lessons  # noqa: F401 (re-exported)
from run_once import made_once, shared_folder

# Hypothesis keeps its example database and caches in ./.hypothesis/ (inside the repository) unless told otherwise:
# no example database, and its caches in the system's temporary folder (kept between runs: they only save time).
HYPOTHESIS_HOME = Path(tempfile.gettempdir()) / "lessonkit-tests-hypothesis"
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(HYPOTHESIS_HOME))
try:
    from hypothesis import settings as _hypothesis_settings
except ImportError:  # pragma: no cover
    pass
else:
    try:
        from hypothesis.configuration import set_hypothesis_home_dir
    except ImportError:  # pragma: no cover (older Hypothesis reads only the environment variable)
        pass
    else:
        set_hypothesis_home_dir(os.environ["HYPOTHESIS_STORAGE_DIRECTORY"])
    _hypothesis_settings.register_profile("lessonkit-tests", database=None)
    _hypothesis_settings.load_profile("lessonkit-tests")


# What a test run must leave exactly as it found it: everything the engine, theme and lessons are made of, the
# broken-lesson corpus, and the places a build without an explicit --out/--cache-dir would write to; plus the names
# at the top of the repository (a stray .hypothesis/ or artifacts/). Python's own __pycache__ folders are left out
# (a build imports lesson.py like any module); so are $LESSONKIT_ARTIFACTS and pytest's own .pytest_cache. The test
# files themselves are not watched: editing one while the suite runs is not the suite's doing.
WATCHED = ("content", "themes", "lessonkit", "tests/broken", "benchmarks", "docs", ".cache", "output")
UNWATCHED_TOP = {"__pycache__", ".pytest_cache", ".git"}


def repository_listing() -> dict[str, tuple[int, int] | None]:
    """path → (mtime_ns, size) of every file under WATCHED, every folder (None), and the repository's top-level
    names: a few hundred stat calls, a few milliseconds."""
    listing: dict[str, tuple[int, int] | None] = {}
    artifacts = os.environ.get("LESSONKIT_ARTIFACTS")
    skip_top = set(UNWATCHED_TOP)
    if artifacts and Path(artifacts).resolve().parent == PROJECT:
        skip_top.add(Path(artifacts).resolve().name)
    for name in os.listdir(PROJECT):
        if name not in skip_top:
            listing[f"/{name}"] = None
    for top in WATCHED:
        for folder, dirs, files in os.walk(PROJECT / top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            rel = os.path.relpath(folder, PROJECT)
            listing[rel] = None
            for name in files:
                path = os.path.join(folder, name)
                try:
                    st = os.lstat(path)
                except FileNotFoundError:
                    continue
                listing[os.path.join(rel, name)] = (st.st_mtime_ns, st.st_size)
    return listing


@pytest.fixture(scope="session", autouse=True)
def repository_untouched():
    """Fails the run if any test created, changed or deleted a file in the repository (tracked or ignored): every
    build in the tests writes into tmp_path, output and cache alike."""
    before = repository_listing()
    yield
    after = repository_listing()
    changed = sorted(p for p in before.keys() & after.keys() if before[p] != after[p])
    created = sorted(after.keys() - before.keys(), key=lambda p: (p.count("/") - p.startswith("/"), p))
    deleted = sorted(before.keys() - after.keys(), key=lambda p: (p.count("/") - p.startswith("/"), p))
    if changed or created or deleted:
        pytest.fail("the tests wrote into the repository " + str(PROJECT) + ":"
                    + "".join(f"\n  {kind}: {', '.join(paths[:12])}{' …' if len(paths) > 12 else ''}"
                              for kind, paths in (("created", created), ("changed", changed), ("deleted", deleted))
                              if paths), pytrace=False)

@pytest.fixture(scope="session", autouse=True)
def every_built_notebook_runs(tmp_path_factory):
    """Fails the run if a lesson notebook any test built does not run top to bottom in a Python with numpy and
    matplotlib alone (tests/notebook_runs.py): fixture lessons' notebooks included, not only content/'s."""
    yield
    notebooks = notebook_runs.claimed(tmp_path_factory, notebook_runs.built_notebooks(tmp_path_factory))
    if not notebooks:
        return
    python = notebook_runs.plain_python_for_run(tmp_path_factory)
    failed = notebook_runs.run_notebooks(python, notebooks, tmp_path_factory.mktemp("notebook-runs"))
    if failed:
        pytest.fail(f"{len(failed)} of the {len(notebooks)} notebooks built by the tests do not run without "
                    "lessonkit:" + "".join(f"\n  {path}\n{error}" for path, error in failed), pytrace=False)


def defines_a_shared_fixture(test_file: Path) -> bool:
    """Whether the test file defines a fixture wider than one test (a site built for the module, a handout printed
    for the session): read from its source, as the controlling process of an xdist run collects nothing itself."""
    tree = ast.parse(test_file.read_bytes())
    for node in ast.walk(tree):
        for decorator in getattr(node, "decorator_list", ()):
            if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) in ("pytest.fixture", "fixture") and any(
                    k.arg == "scope" and not (isinstance(k.value, ast.Constant) and k.value.value == "function")
                    for k in decorator.keywords):
                return True
    return False


@pytest.hookimpl(tryfirst=True, optionalhook=True)   # before xdist's own choice; a hook only with xdist
def pytest_xdist_make_scheduler(config, log):
    """`pytest -n N` (pytest-xdist, --dist load, its default): the tests of a file that defines a fixture wider than
    one test run on one worker, which makes it once; every other test goes to whichever worker is free, the files
    with the most tests first. (xdist's own --dist loadgroup does not group under pytest 9.) Each worker is a
    session of its own: what a whole run shares — the real site, the browser tests' site, the figure cache — is made
    once for all workers by tests/run_once.py."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    grouped = functools.cache(lambda path: defines_a_shared_fixture(config.rootpath / path))

    class SharedFixtureScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if grouped(path) else nodeid

    return SharedFixtureScheduling(config, log)


# The suites assert the exact English messages an author reads with `--lang en`; the Chinese ones (the default) are
# checked in tests/test_i18n.py, which sets the language itself. The pages' own words follow site.yaml, not this.
os.environ["LESSONKIT_LANG"] = "en"

MINIMAL_YAML = """\
title: 小课
summary: 一节用来测试的小课
objectives:
  - 看懂一个数
"""
MINIMAL_MD = """\
## 第一节 {#first}

二的十次方是 {{ two_pow }}。
"""
MINIMAL_PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10
"""


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    """One figure cache (in the run's temporary folder, shared by xdist workers: the cache writes each entry
    atomically) for the tests that build the real lessons: each figure is drawn once per run, not once per test
    module. Tests about the cache itself use their own."""
    return shared_folder(tmp_path_factory, "shared-cache")


@pytest.fixture(scope="session")
def real_site(tmp_path_factory, shared_cache) -> Path:
    """content/ as it is (every lesson), built once per run with the shared cache. Read it, never write into it."""
    def make(folder: Path) -> None:
        assert main(["build", "--quiet", "--out", str(folder / "out"), "--cache-dir", str(shared_cache)]) == 0
    return made_once(tmp_path_factory, "real-site", make) / "out"


@pytest.fixture(scope="session")
def fixture_course(tmp_path_factory, shared_cache) -> Path:
    """The fixture lessons as one course, built once per run with the shared cache (no site.yaml: the defaults,
    the default page budget among them): the kitchen sink (tests/sink_lesson.py), the book (tests/book_lesson.py,
    with its references.bib) and the chapter (tests/chapter_lesson.py). The folder holding content/ and out/; the
    page-integrity, notebook, book and chapter-weight tests read it. Read it, never write into it."""
    import book_lesson
    import chapter_lesson
    import sink_lesson

    def make(folder: Path) -> None:
        sink_lesson.write_sink_lesson(folder / "content")
        book_lesson.write_book_lesson(folder / "content")
        chapter_lesson.write_chapter_lesson(folder / "content")
        assert main(["build", "--quiet", "--content", str(folder / "content"), "--out", str(folder / "out"),
                     "--cache-dir", str(shared_cache)]) == 0   # a page over its budget is a build error
    return made_once(tmp_path_factory, "fixture-course", make)


@pytest.fixture
def make_lesson(tmp_path):
    """Write a lesson folder under tmp_path/content; keyword arguments override the three files."""
    def make(slug: str = "demo", yaml: str = MINIMAL_YAML, md: str = MINIMAL_MD, py: str | None = MINIMAL_PY,
             extra: dict[str, bytes] | None = None) -> Path:
        folder = tmp_path / "content" / slug
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "lesson.yaml").write_text(textwrap.dedent(yaml), encoding="utf-8")
        (folder / "lesson.md").write_text(textwrap.dedent(md), encoding="utf-8")
        if py is not None:
            (folder / "lesson.py").write_text(textwrap.dedent(py), encoding="utf-8")
        for name, data in (extra or {}).items():
            (folder / name).write_bytes(data)
        return folder
    return make


@pytest.fixture
def run_build(tmp_path, capsys):
    """Run the CLI on tmp_path/content into tmp_path/out; returns (exit code, stdout, stderr, out dir)."""
    def run(*args: str, out: Path | None = None):
        out = out or tmp_path / "out"
        code = main(["build", "--content", str(tmp_path / "content"), "--out", str(out),
                     "--cache-dir", str(tmp_path / "cache"), *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err, out
    return run
