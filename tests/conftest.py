"""Shared fixtures: small lessons written into tmp_path, built with the real theme."""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from lessonkit.cli import main

PROJECT = Path(__file__).resolve().parent.parent

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
