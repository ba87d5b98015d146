"""Output safety: refuse dangerous --out folders, never leave a half-written site, and build byte-identical sites."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import lessonkit.write.output
import lessonkit.site
import lessonkit.stages
from lessonkit.cli import main
from lessonkit.write.output import MARKER
from lesson_folders import PROJECT
from lessonkit.support.paths import PACKAGE
from lesson_folders import real_lessons


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def build(tmp_path: Path, out: Path, *extra: str) -> int:
    return main(["build", "--content", str(tmp_path / "content"), "--out", str(out),
                 "--cache-dir", str(tmp_path / "cache"), *extra])


# ── refusing --out folders that are not ours to replace ───────────────────────────────────────────────────────────
@pytest.mark.parametrize("where", ["project", "themes", "package", "inside package", "parent of package", "home",
                                   "root", "inside content", "custom content", "parent of custom content"])
def test_refuses_dangerous_out(where, make_lesson, tmp_path, capsys, monkeypatch):
    make_lesson()
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    out = {"project": tmp_path, "themes": tmp_path / "themes", "package": PACKAGE,
           "inside package": PACKAGE / "themes" / "site", "parent of package": PACKAGE.parent, "home": home,
           "root": Path("/"),
           "inside content": tmp_path / "content" / "site", "custom content": tmp_path / "content",
           "parent of custom content": tmp_path}[where]
    before = snapshot(tmp_path / "content")
    code = build(tmp_path, out)
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"refusing to write the site to {out.resolve()}" in err and "Traceback" not in err
    assert snapshot(tmp_path / "content") == before
    assert not (out / "index.html").exists()  # nothing was written


def test_refuses_the_given_themes_dir(make_lesson, tmp_path, capsys):
    make_lesson()
    themes = tmp_path / "my-themes"
    themes.mkdir()
    assert build(tmp_path, themes, "--themes-dir", str(themes)) == 2
    assert "refusing to write the site to" in capsys.readouterr().err


def test_refuses_a_file_and_a_folder_without_marker(make_lesson, tmp_path, capsys):
    make_lesson()
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    assert build(tmp_path, a_file) == 2
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "cat.jpg").write_bytes(b"\xff\xd8\xff")
    assert build(tmp_path, folder) == 2
    assert "was not made by this tool" in capsys.readouterr().err
    assert a_file.read_text() == "mine" and (folder / "cat.jpg").read_bytes() == b"\xff\xd8\xff"


def test_empty_folder_and_own_output_are_replaced(make_lesson, tmp_path):
    make_lesson()
    out = tmp_path / "empty"
    out.mkdir()
    assert build(tmp_path, out) == 0
    assert (out / MARKER).exists() and (out / "demo" / "index.html").exists()
    (out / "stale.html").write_text("from an older build")
    assert build(tmp_path, out) == 0
    assert not (out / "stale.html").exists()  # the whole folder is replaced, not merged


def test_write_site_itself_refuses_a_folder_that_is_not_ours(tmp_path):
    folder = tmp_path / "theirs"
    folder.mkdir()
    (folder / "keep.txt").write_text("keep")
    with pytest.raises(lessonkit.write.output.UsageError):
        lessonkit.write.output.write_site({"index.html": b"x"}, folder)
    assert (folder / "keep.txt").read_text() == "keep"


# ── a failed build leaves the previous site byte for byte ─────────────────────────────────────────────────────────
@pytest.fixture
def old_site(make_lesson, tmp_path):
    make_lesson()
    out = tmp_path / "out"
    assert build(tmp_path, out) == 0
    make_lesson(md="## 第一节 {#first}\n\n新版本：{{ two_pow }}。\n")  # the next build would change the page
    return out, snapshot(out)


def leftovers(out: Path) -> list[str]:
    return [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}-")]


def test_disk_error_mid_write_keeps_old_site(old_site, tmp_path, capsys, monkeypatch):
    out, before = old_site
    real_write = Path.write_bytes
    calls = []

    def write_then_fail(self, data):
        if self.is_relative_to(out.parent) and not self.is_relative_to(tmp_path / "cache"):  # the site's files
            calls.append(self)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_then_fail)
    code = build(tmp_path, out)
    err = capsys.readouterr().err
    assert code == 2 and "No space left on device" in err and "previous site" in err and "Traceback" not in err
    assert len(calls) == 2  # it really failed half-way
    assert snapshot(out) == before and leftovers(out) == []


def test_interrupt_mid_write_keeps_old_site(old_site, tmp_path, capsys, monkeypatch):
    out, before = old_site
    real_write = Path.write_bytes
    calls = []

    def interrupted(self, data):
        if self.is_relative_to(out.parent) and not self.is_relative_to(tmp_path / "cache"):  # the site's files
            calls.append(self)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", interrupted)
    assert build(tmp_path, out) == 130
    assert "interrupted: nothing was written" in capsys.readouterr().err
    assert snapshot(out) == before and leftovers(out) == []


def test_failure_while_swapping_restores_old_site(old_site, tmp_path, monkeypatch, capsys):
    out, before = old_site
    real_rename = Path.rename

    def rename(self, target):
        if Path(target) == out and ".out-new-" in self.name:  # moving the new site in fails
            raise OSError(5, "Input/output error")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    assert build(tmp_path, out) == 2
    assert snapshot(out) == before and leftovers(out) == []


def test_our_bug_says_so_and_keeps_old_site(old_site, tmp_path, capsys, monkeypatch):
    out, before = old_site

    def broken_render(*args, **kwargs):
        raise RuntimeError("simulated bug in the renderer")

    monkeypatch.setattr(lessonkit.stages, "render_site", broken_render)
    code = build(tmp_path, out)
    err = capsys.readouterr().err
    assert code == 3
    assert "Traceback" in err and "RuntimeError: simulated bug in the renderer" in err
    assert "This is a bug in lessonkit, not in your lesson" in err
    assert snapshot(out) == before and leftovers(out) == []


# ── reproducible ──────────────────────────────────────────────────────────────────────────────────────────────────
def test_two_builds_are_byte_identical(tmp_path):
    """The real lessons (whichever content/ holds), built from scratch by two processes that share nothing: other
    hash seeds, other times, other folders, figures drawn by one process and by two, without a cache and into an
    empty one. (One pair of cold builds answers all of these at once: each cold build of the real lessons costs
    seconds.)"""
    outs = [tmp_path / "first", tmp_path / "second" / "site"]
    runs = [("1", ["--jobs", "1", "--no-cache"]), ("2", ["--jobs", "2", "--cache-dir", str(tmp_path / "cache2")])]
    for (seed, options), out in zip(runs, outs):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run([sys.executable, str(PROJECT / "build.py"), "--quiet", "--out", str(out), *options],
                                env=env, capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert result.returncode == 0, result.stderr
        if out is outs[0]:
            time.sleep(1.1)  # a timestamp anywhere in the output would now differ
    first, second = snapshot(outs[0]), snapshot(outs[1])
    assert sorted(first) == sorted(second) and len(first) >= 4
    different = [name for name in first if first[name] != second[name]]
    assert different == []
    assert {str(Path(slug, "index.html")) for slug in real_lessons()} <= set(first)


def test_a_killed_build_is_recovered_next_time(old_site, tmp_path, make_lesson, capsys):
    """kill -9 between the renames leaves the old site as `.out-old-PID` and half-written staging beside it: the next
    build, even one that fails, puts the old site back and removes what it can prove is its own."""
    out, before = old_site
    dead_pid = 2 ** 22 + 7  # above Linux's default pid_max: no such process
    out.rename(out.parent / f".{out.name}-old-{dead_pid}")
    half = out.parent / f".{out.name}-new-{dead_pid}-abc123"
    half.mkdir()
    (half / ".lessonkit-output").write_text("made by lessonkit")
    stranger = out.parent / f".{out.name}-new-{dead_pid}-notours"
    stranger.mkdir()  # no marker: not ours, never deleted
    make_lesson(md="## 第一节\n\n{{ nope }}\n")
    assert build(tmp_path, out) == 1
    capsys.readouterr()
    assert snapshot(out) == before
    assert leftovers(out) == [stranger.name]
