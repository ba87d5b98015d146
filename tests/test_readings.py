"""support/readings.py: what reading a file gave is kept under its path and bytes; other bytes are read afresh."""
import os
from pathlib import Path

import pytest

from lessonkit.support.readings import kept
from lessonkit.support.store import Store

CALLS: list[str] = []


def words(path: Path, upper: bool) -> list[str]:
    CALLS.append(path.name)
    text = path.read_text(encoding="utf-8")
    return (text.upper() if upper else text).split()


def refusing(path: Path) -> None:
    CALLS.append(path.name)
    raise ValueError("not this one")


@pytest.fixture(autouse=True)
def fresh_calls():
    CALLS.clear()


def test_the_same_bytes_are_read_once_other_bytes_again(tmp_path):
    store, path = Store(tmp_path / "cache"), tmp_path / "a.txt"
    path.write_text("one two", encoding="utf-8")
    assert kept(store, words, path, False) == ["one", "two"]
    assert kept(store, words, path, False) == ["one", "two"]
    assert CALLS == ["a.txt"]
    assert kept(store, words, path, True) == ["ONE", "TWO"]  # other arguments: another reading
    path.write_text("three", encoding="utf-8")
    assert kept(store, words, path, False) == ["three"]
    assert CALLS == ["a.txt"] * 3


def test_a_reading_that_raises_is_not_kept_nor_is_one_without_a_store(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("x", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ValueError):
            kept(Store(tmp_path / "cache"), refusing, path)
    kept(Store(None), words, path, False)
    kept(None, words, path, False)
    assert CALLS == ["a.txt"] * 4


def test_a_missing_file_is_read_by_the_reading_itself(tmp_path):
    with pytest.raises(FileNotFoundError):
        kept(Store(tmp_path / "cache"), words, tmp_path / "none.txt", False)


def test_without_keep_the_store_is_only_looked_at(tmp_path):
    """A command that has not yet checked its cache folder (cli.py) reads what a build kept, and changes nothing."""
    path, store = tmp_path / "a.txt", Store(tmp_path / "cache")
    path.write_text("x", encoding="utf-8")
    kept(store, words, path, False, keep=False)
    assert not (tmp_path / "cache").exists()
    kept(store, words, path, False)
    [entry] = (tmp_path / "cache" / "readings").iterdir()
    os.utime(entry, (1, 1))
    assert kept(store, words, path, False, keep=False) == ["x"]
    assert CALLS == ["a.txt"] * 2 and entry.stat().st_mtime == 1  # taken from the store, not marked used


def test_a_kept_reading_of_lesson_yaml_reports_its_problems_again(make_lesson, run_build, tmp_path):
    """The problems are part of the reading: a second build of the same broken lesson.yaml names the same line."""
    make_lesson(yaml="title: 演示\nsummary: 一句话\ntitle: 又一个\n")
    first = run_build()
    assert first[0] == 1 and "demo/lesson.yaml:3: duplicate key `title` (first at line 1)" in first[2]
    assert list((tmp_path / "cache" / "readings").iterdir())
    assert run_build()[:3] == first[:3]
