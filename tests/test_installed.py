"""lessonkit as a teacher meets it: the wheel built from this checkout, installed into a fresh virtual environment,
run as the `lessonkit` command from a folder outside the repository whose path has Chinese characters and a space.
The environment holds the wheel's declared dependencies and nothing else (linked from the test environment's
installed files, as tests/plain_python.py does, so offline and in seconds: a dependency the wheel forgets to declare
is missing there), and pip installs the wheel itself.

The course is made by `init`, grows by `new`, overrides one partial of the built-in theme, builds with --strict, is
previewed by `serve` and published to a bare repository; the installed package's files are the same afterwards."""
from __future__ import annotations

import hashlib
import http.client
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import plain_python
from lesson_folders import PROJECT

COURSE_NAME = "深度学习 2027"
SOURCES = ("pyproject.toml", "README.md", "lessonkit")   # what the wheel is built from
GIT_ID = {"GIT_AUTHOR_NAME": "老师", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "老师",
          "GIT_COMMITTER_EMAIL": "t@example.org"}


def wheel_of_this_checkout(work: Path) -> Path:
    """The wheel of a copy of the sources (a wheel built in place would leave build/ and *.egg-info in the
    repository), built by the PEP 517 backend pyproject.toml names, called as pip calls it (`pip wheel --no-deps
    --no-build-isolation` does just this, after seconds of its own start-up)."""
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (PROJECT / name).is_dir():
            shutil.copytree(PROJECT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(PROJECT / name, source / name)
    backend = re.search(r'^build-backend\s*=\s*"([^"]+)"', (source / "pyproject.toml").read_text(encoding="utf-8"),
                        re.M).group(1)   # (tomllib is Python 3.11+)
    dist = work / "dist"
    subprocess.run([sys.executable, "-c", "import importlib, sys; "
                    "importlib.import_module(sys.argv[1]).build_wheel(sys.argv[2])", backend, str(dist)],
                   cwd=source, check=True, capture_output=True, timeout=300)
    return next(dist.glob("lessonkit-*.whl"))


def requirements_of(wheel: Path) -> tuple[str, ...]:
    """The distributions the wheel requires (its METADATA's Requires-Dist without extras, for this platform)."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(name).decode("utf-8"))
    required = [Requirement(text) for text in metadata.get_all("Requires-Dist") or []]
    return tuple(r.name for r in required if r.marker is None or r.marker.evaluate({"extra": ""}))


def package_files(root: Path) -> dict[str, str]:
    """Every file of the installed package (bytecode pip compiled at install time included) → its SHA-256."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


class Installed:
    def __init__(self, work: Path):
        self.env_dir = work / "venv"
        self.wheel = wheel_of_this_checkout(work)
        python = plain_python.make_venv_with(self.env_dir, requirements_of(self.wheel))
        self.bin = python.parent
        subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                        "--quiet", "--disable-pip-version-check", str(self.wheel)],
                       check=True, capture_output=True, timeout=300)
        found = subprocess.run([str(self.bin / "python"), "-c", "import lessonkit, pathlib; "
                                "print(pathlib.Path(lessonkit.__file__).parent)"],
                               check=True, capture_output=True, text=True, cwd=work, env=self.env()).stdout.strip()
        self.package = Path(found)
        self.files = package_files(self.package)
        self.places = work / "课程 文件夹"   # a teacher's folder: Chinese characters and a space
        self.places.mkdir()

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        return {**env, "PATH": f"{self.bin}{os.pathsep}{env.get('PATH', '')}", **GIT_ID, **extra}

    def run(self, *args: str, cwd: Path, lang: str = "en") -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin / "lessonkit"), *args], cwd=cwd, capture_output=True, text=True,
                              env=self.env(LESSONKIT_LANG=lang), timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    return Installed(tmp_path_factory.mktemp("installed"))


@pytest.fixture(scope="module")
def course(installed) -> Path:
    """`lessonkit init` in the teacher's folder, as the README says."""
    done = installed.run("init", COURSE_NAME, cwd=installed.places)
    assert done.returncode == 0, done.stderr
    return installed.places / COURSE_NAME


def test_the_package_is_outside_the_repository_and_answers_to_both_commands(installed):
    assert PROJECT not in installed.package.parents and installed.env_dir in installed.package.parents
    version = installed.run("--version", cwd=installed.places)
    module = subprocess.run([str(installed.bin / "python"), "-m", "lessonkit", "--version"], cwd=installed.places,
                            capture_output=True, text=True, env=installed.env())
    assert version.returncode == 0 and module.returncode == 0
    assert version.stdout == module.stdout and re.fullmatch(r"lessonkit \d+\.\d+\.\d+\S*\n", version.stdout)
    assert installed.wheel.name == f"lessonkit-{version.stdout.split()[1]}-py3-none-any.whl"


def test_the_help_speaks_chinese_from_the_installed_catalog(installed):
    """The message catalog ships in the wheel: an installed lessonkit does not fall back to English."""
    done = installed.run("--help", cwd=installed.places, lang="zh-CN")
    assert done.returncode == 0
    assert "用法：lessonkit" in done.stdout and "新建课程项目" in done.stdout and "退出码" in done.stdout


def test_a_folder_that_is_no_course_is_told_how_to_make_one(installed):
    done = installed.run("build", cwd=installed.places)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is not in a lessonkit project" in done.stderr and "lessonkit init DIR" in done.stderr


def test_init_makes_a_whole_course(course):
    names = sorted(str(p.relative_to(course)) for p in course.rglob("*") if p.is_file())
    assert names == [".github/workflows/pages.yml", ".gitignore", "README.md", "content/first-lesson/lesson.md",
                     "content/first-lesson/lesson.py", "content/first-lesson/lesson.yaml", "content/site.yaml"]
    site = (course / "content" / "site.yaml").read_text(encoding="utf-8")
    assert f'title: "{COURSE_NAME}"' in site and "language: zh-CN" in site
    readme = (course / "README.md").read_text(encoding="utf-8")
    assert readme.startswith(f"# {COURSE_NAME}\n") and "lessonkit serve" in readme and "lessonkit publish" in readme


def test_build_new_override_serve_publish_and_the_package_is_untouched(installed, course):
    assert installed.run("build", "--strict", cwd=course).returncode == 0
    assert (course / "output" / "first-lesson" / "index.html").is_file()
    assert (course / ".cache" / "lessonkit").is_dir()

    done = installed.run("new", "second-lesson", cwd=course / "content")  # from inside the course, too
    assert done.returncode == 0, done.stderr
    partial = course / "themes" / "default" / "partials" / "extend_head.html"
    partial.parent.mkdir(parents=True)
    partial.write_text('<meta name="course-theme" content="ours">\n', encoding="utf-8")
    done = installed.run("build", "--strict", cwd=course)
    assert done.returncode == 0, done.stderr
    page = (course / "output" / "second-lesson" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="course-theme" content="ours">' in page    # the project's one file …
    assert 'data-widget="projector"' in page                      # … on top of everything built in

    serve_answers(installed, course)
    publish_to_a_bare_repository(installed, course)
    assert package_files(installed.package) == installed.files


def serve_answers(installed: Installed, course: Path) -> None:
    proc = subprocess.Popen([str(installed.bin / "lessonkit"), "serve", "--port", "0"], cwd=course,
                            env=installed.env(LESSONKIT_LANG="en"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline, url = time.monotonic() + 120, None
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line and proc.poll() is not None:
                pytest.fail(f"serve stopped: {proc.stderr.read()}")
            found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
            url = found and int(found.group(1))
        assert url, "serve never said where it serves"
        connection = http.client.HTTPConnection("127.0.0.1", url, timeout=30)
        connection.request("GET", "/second-lesson/")
        response = connection.getresponse()
        assert response.status == 200 and "course-theme" in response.read().decode("utf-8")
        connection.close()
    finally:
        proc.terminate()
        proc.wait(20)


def publish_to_a_bare_repository(installed: Installed, course: Path) -> None:
    remote = installed.places / "remote.git"
    git = lambda *a, cwd=course: subprocess.run(["git", *a], cwd=cwd, check=True, capture_output=True, text=True,
                                                env=installed.env())
    git("init", "--quiet", "--bare", str(remote), cwd=installed.places)
    git("init", "--quiet", "-b", "main")
    git("add", "-A")
    git("commit", "--quiet", "-m", "the course")
    git("remote", "add", "origin", str(remote))
    done = installed.run("publish", cwd=course)
    assert done.returncode == 0, done.stderr
    files = git("ls-tree", "-r", "--name-only", "gh-pages", cwd=remote).stdout.split()
    assert {"index.html", "first-lesson/index.html", "second-lesson/index.html", ".nojekyll"} <= set(files)
    assert git("status", "--porcelain").stdout == ""   # the course's own working tree as it was
