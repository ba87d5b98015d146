"""The author's project (lessonkit/support/project.py, commands/init.py, commands/publish.py): found from the current
folder or -C, made by `init`, holding the version it requires; nothing written inside the installed package."""
from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from lessonkit import __version__
from lessonkit.cli import main
from lessonkit.support.paths import PACKAGE
from lessonkit.support.project import Project, compatible_range, find_project

GIT_ID = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
          "GIT_COMMITTER_EMAIL": "t@example.org"}


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def course(tmp_path, monkeypatch) -> Path:
    """A course made by `init`, as the current folder."""
    root = tmp_path / "课程 一"
    assert main(["init", str(root), "--quiet"]) == 0
    monkeypatch.chdir(root)
    return root


# ── finding the project ──────────────────────────────────────────────────────────────────────────────────────────
def test_the_project_is_the_first_folder_upwards_holding_content(tmp_path):
    (tmp_path / "a" / "content" / "x").mkdir(parents=True)
    (tmp_path / "a" / "notes" / "deep").mkdir(parents=True)
    assert find_project(tmp_path / "a" / "notes" / "deep") == Project((tmp_path / "a").resolve())
    assert find_project(tmp_path / "a" / "content" / "x") == Project((tmp_path / "a").resolve())
    assert find_project(tmp_path) is None or find_project(tmp_path).root not in (tmp_path, tmp_path / "a")


def test_a_folder_that_is_no_project_is_a_usage_error_with_the_init_hint(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    if find_project(empty) is not None:
        pytest.skip("a folder above the temporary folder holds content/")
    assert main(["build"]) == 2
    err = capsys.readouterr().err
    assert "is not in a lessonkit project" in err and "`lessonkit init DIR`" in err and "Traceback" not in err
    assert main(["build", "-C", str(tmp_path / "missing")]) == 2
    assert "project folder" in capsys.readouterr().err and not (tmp_path / "missing").exists()
    assert main(["-C", str(empty), "build"]) == 2       # -C before the command, too
    assert "`lessonkit init DIR`" in capsys.readouterr().err


def test_every_default_belongs_to_the_project_found_from_a_subfolder(course, monkeypatch):
    monkeypatch.chdir(course / "content" / "first-lesson")
    assert main(["build", "--quiet"]) == 0
    assert (course / "output" / "first-lesson" / "index.html").is_file()
    assert (course / ".cache" / "lessonkit").is_dir()
    assert not (course / "content" / "first-lesson" / "output").exists()
    assert main(["clean", "--quiet"]) == 0
    assert not (course / "output").exists() and not (course / ".cache" / "lessonkit").exists()


def test_minus_c_names_the_project_from_anywhere(course, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["-C", str(course), "--quiet"]) == 0      # no command: build
    assert (course / "output" / "index.html").is_file()
    assert main(["new", "second", "-C", str(course), "--quiet"]) == 0
    assert (course / "content" / "second" / "lesson.yaml").is_file()


# ── init ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def test_init_writes_a_course_that_builds_strictly_with_a_second_lesson(course, capsys):
    site = (course / "content" / "site.yaml").read_text(encoding="utf-8")
    assert 'title: "课程 一"' in site and "language: zh-CN" in site
    assert f'lessonkit: "{compatible_range(__version__)}"' in site
    assert (course / ".gitignore").read_text(encoding="utf-8").splitlines()[1:3] == ["output/", "output-*/"]
    assert main(["new", "second"]) == 0 and main(["new", "third"]) == 0
    capsys.readouterr()
    assert main(["build", "--strict", "--quiet"]) == 0, capsys.readouterr().err  # no two lessons share an `order`
    index = (course / "output" / "index.html").read_text(encoding="utf-8")
    assert index.index("first-lesson/") < index.index("second/") < index.index("third/")


def test_init_speaks_the_language_asked_for(tmp_path):
    assert main(["init", str(tmp_path / "c"), "--language", "en", "--title", "Deep learning", "--quiet"]) == 0
    site = (tmp_path / "c" / "content" / "site.yaml").read_text(encoding="utf-8")
    assert 'title: "Deep learning"' in site and "language: en" in site
    assert "## Publish on GitHub Pages" in (tmp_path / "c" / "README.md").read_text(encoding="utf-8")


def test_init_refuses_a_folder_holding_a_course_and_changes_nothing(course, capsys):
    before = tree(course)
    assert main(["init", str(course)]) == 2
    err = capsys.readouterr().err
    assert f"{course / 'content'} already exists" in err
    assert tree(course) == before


def test_init_keeps_the_teachers_own_files(tmp_path, capsys):
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "README.md").write_text("# 我的课\n", encoding="utf-8")
    (folder / ".gitignore").write_text("*.bak\noutput/\n", encoding="utf-8")
    assert main(["init", str(folder)]) == 0
    assert "README.md  (yours, kept as it was)" in capsys.readouterr().out
    assert (folder / "README.md").read_text(encoding="utf-8") == "# 我的课\n"
    ignored = (folder / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ignored[:2] == ["*.bak", "output/"] and ignored.count("output/") == 1 and ".cache/" in ignored
    assert not any(p.name.startswith(".lessonkit-init") for p in folder.iterdir())


def test_compatible_range_by_hand():
    assert compatible_range("0.2.0") == ">=0.2,<0.3"
    assert compatible_range("0.2.7.dev1") == ">=0.2,<0.3"
    assert compatible_range("1.4.2") == ">=1.4,<2"
    assert compatible_range("3.0") == ">=3.0,<4"


# ── the version a course requires ────────────────────────────────────────────────────────────────────────────────
def require(course: Path, requirement: str) -> int:
    """Sets site.yaml's requirement; the line it stands on."""
    path = course / "content" / "site.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("lessonkit:"))
    lines[number] = f"lessonkit: {requirement}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return number + 1


def test_another_installed_version_stops_every_command_naming_the_requirement(course, capsys):
    major, minor = (int(part) for part in __version__.split(".")[:2])
    wanted = f'">={major + 1}.0"'
    line = require(course, wanted)
    for command in (["build"], ["serve", "--port", "0"], ["new", "later"], ["clean"]):
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert f"content/site.yaml:{line}: this course requires lessonkit >={major + 1}.0, but {__version__} is " \
               f"installed" in err, err
    assert not (course / "output").exists() and not (course / "content" / "later").exists()
    require(course, f'"=={major}.{minor}.*"')
    assert main(["build", "--quiet"]) == 0


def test_a_requirement_that_is_no_version_range_is_a_content_problem(course, capsys):
    line = require(course, '"about two"')
    assert main(["build"]) == 1
    assert f"content/site.yaml:{line}: `lessonkit: about two` is not a version requirement" in capsys.readouterr().err


# ── nothing inside the installed package ─────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("command", [
    ["build", "--cache-dir", str(PACKAGE / "cache")],
    ["build", "--out", str(PACKAGE / "site")],
    ["new", "x", "--content", str(PACKAGE / "content")],
    ["init", str(PACKAGE / "course")],
])
def test_nothing_is_written_inside_the_package(course, capsys, command):
    before = tree(PACKAGE)
    assert main(command) == 2
    err = capsys.readouterr().err
    assert str(PACKAGE) in err and "Traceback" not in err
    assert tree(PACKAGE) == before


def test_a_missing_catalog_is_an_error_not_english(tmp_path, monkeypatch):
    from lessonkit.support import messages

    monkeypatch.setattr("lessonkit.support.paths.CATALOGS", tmp_path)
    messages.catalog.cache_clear()
    try:
        with pytest.raises(FileNotFoundError, match="zh-CN"):
            messages.msg("none").render("zh-CN")
    finally:
        messages.catalog.cache_clear()


# ── a project's own theme files ──────────────────────────────────────────────────────────────────────────────────
def test_a_project_overrides_one_word_and_one_partial_of_the_built_in_theme(course):
    default = course / "themes" / "default"
    (default / "i18n").mkdir(parents=True)
    (default / "i18n" / "zh-CN.yaml").write_text("footer: 本页的数都由王老师的 lesson.py 算出\n", encoding="utf-8")
    (default / "partials").mkdir()
    (default / "partials" / "extend_head.html").write_text('<meta name="author" content="王老师">\n',
                                                            encoding="utf-8")
    assert main(["build", "--quiet"]) == 0
    page = (course / "output" / "first-lesson" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="author" content="王老师">' in page
    assert "本页的数都由王老师的 lesson.py 算出" in page
    assert "投影" in page  # every other word still the built-in theme's


def test_a_theme_that_does_not_exist_is_a_usage_error(course, capsys):
    assert main(["build", "--theme", "mine"]) == 2
    err = capsys.readouterr().err
    assert "theme `mine` not found" in err and str(course / "themes" / "mine") in err


# ── publish ──────────────────────────────────────────────────────────────────────────────────────────────────────
def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ID}).stdout


@pytest.fixture
def repository(course, tmp_path, monkeypatch) -> tuple[Path, Path]:
    """The course committed in a git repository with a bare `origin`."""
    for name, value in GIT_ID.items():
        monkeypatch.setenv(name, value)
    remote = tmp_path / "remote.git"
    git("init", "--quiet", "--bare", str(remote), cwd=tmp_path)
    git("init", "--quiet", "-b", "main", cwd=course)
    git("add", "-A", cwd=course)
    git("commit", "--quiet", "-m", "course", cwd=course)
    git("remote", "add", "origin", str(remote), cwd=course)
    return course, remote


def test_publish_commits_the_site_to_gh_pages_and_pushes_it(repository, capsys):
    course, remote = repository
    assert main(["publish"]) == 0, capsys.readouterr().err
    files = git("ls-tree", "-r", "--name-only", "gh-pages", cwd=remote).split()
    assert {"index.html", "first-lesson/index.html", ".nojekyll", "search-index.js"} <= set(files)
    first = git("rev-parse", "gh-pages", cwd=remote).strip()
    assert git("rev-parse", "--abbrev-ref", "HEAD", cwd=course).strip() == "main"
    assert git("status", "--porcelain", cwd=course) == ""
    assert main(["publish", "--quiet"]) == 0                    # again: a commit after the first
    assert git("rev-parse", "gh-pages^", cwd=remote).strip() == first


def test_publish_outside_git_or_with_uncommitted_content_is_refused(course, capsys, monkeypatch):
    if subprocess.run(["git", "rev-parse"], cwd=course, capture_output=True).returncode == 0:
        pytest.skip("the temporary folder lies inside a git repository")
    assert main(["publish"]) == 2
    assert "is not in a git repository" in capsys.readouterr().err
    for name, value in GIT_ID.items():
        monkeypatch.setenv(name, value)
    git("init", "--quiet", "-b", "main", cwd=course)
    git("add", "-A", cwd=course)
    git("commit", "--quiet", "-m", "course", cwd=course)
    (course / "content" / "first-lesson" / "lesson.md").write_text("## 改了 {#x}\n", encoding="utf-8")
    assert main(["publish"]) == 2
    assert "1 file(s) of the course are not committed (content/first-lesson/lesson.md)" in capsys.readouterr().err
    assert "gh-pages" not in git("branch", cwd=course)


def test_a_refused_push_leaves_the_branches_as_they_were(repository, capsys):
    course, remote = repository
    assert main(["publish", "--quiet"]) == 0
    before = {ref: git("rev-parse", ref, cwd=course).strip() for ref in ("main", "gh-pages")}
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'pages are frozen this week' >&2\nexit 1\n", encoding="utf-8")
    hook.chmod(0o755)
    (course / "content" / "first-lesson" / "lesson.md").write_text(
        (course / "content" / "first-lesson" / "lesson.md").read_text(encoding="utf-8") + "\n再加一句。\n",
        encoding="utf-8")
    git("commit", "--quiet", "-am", "more", cwd=course)
    before["main"] = git("rev-parse", "main", cwd=course).strip()
    assert main(["publish"]) == 2
    err = capsys.readouterr().err
    assert "`origin` refused the push of `gh-pages`; the branch is left as it was" in err
    assert "pages are frozen this week" in err
    assert {ref: git("rev-parse", ref, cwd=course).strip() for ref in ("main", "gh-pages")} == before


def test_clean_deletes_every_output_the_tool_wrote_and_nothing_else(course, capsys):
    assert main(["build", "--quiet"]) == 0 and main(["build", "--teacher", "--quiet"]) == 0
    lms = course / "output-lms"
    lms.mkdir()
    (lms / "first-lesson.scorm.zip").write_bytes(b"PK")
    assert main(["clean"]) == 0
    for name in ("output", "output-teacher", "output-lms", ".cache/lessonkit"):
        assert not (course / name).exists(), name
    lms.mkdir()
    (lms / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["clean"]) == 2 and "output-lms" in capsys.readouterr().err
    assert (lms / "notes.txt").exists()
