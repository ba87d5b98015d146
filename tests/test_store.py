"""The store (support/store.py): one get/put per codec over named kinds; where each kind's entries live on disk (the
layout earlier builds' caches have), a corrupt entry read as missing, a store without a folder keeping nothing, and
writes that are whole or absent."""
import os
import pickle
import time
from pathlib import Path

import pytest

from lessonkit.support.store import (FIGURE_DATA, FIGURE_PNG, FIGURE_SVG, FONT, HIGHLIGHTS, KINDS, MATHML, NOTEBOOKS,
                                     PAGES, REFERENCES, SCRIPTS, TEMPLATES, VALUES, Store, is_entry, looks_like_store)

H1, H2, H3 = (c * 64 for c in "abc")
DAY = 86400.0


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "cache")


def test_entry_names_are_the_cache_layout_earlier_builds_wrote():
    assert FIGURE_SVG.entry(H1) == f"figures/{H1}.svg"
    assert FIGURE_DATA.entry(H1) == f"figures/{H1}.json"
    assert FIGURE_PNG.entry(H1) == f"figures/{H1}.png"
    assert VALUES.entry(H1) == f"values/{H1}.pickle"
    assert PAGES.entry(H1) == f"pages/{H1}.pickle"
    assert SCRIPTS.entry(H1) == f"scripts/{H1}.json"
    assert REFERENCES.entry(H1) == f"references/{H1}.json"
    assert NOTEBOOKS.entry(H1) == f"notebooks/{H1}.ipynb"
    assert MATHML.entry("3.81.1") == "mathml-3.81.1.json"
    assert HIGHLIGHTS.entry("2.19.2") == "highlight-2.19.2.json"
    assert FONT.entry() == "font.json"
    assert TEMPLATES.name("0123abcd") == "__jinja2_0123abcd.cache"


def test_a_key_that_is_not_of_its_kind_is_refused():
    """A hashed kind takes SHA-256 keys only: nothing else can name a file, say, outside its folder."""
    for bad in ("../escape", H1[:-1], H1.upper(), ""):
        with pytest.raises(ValueError):
            VALUES.entry(bad)
    with pytest.raises(ValueError):
        FONT.entry("x")


def sample_key(kind):
    return "" if kind is FONT else H1 if kind.keys == "[0-9a-f]{64}" else "1.2.3"


def test_every_entry_belongs_to_exactly_one_kind():
    for kind in KINDS:
        folder, _, name = kind.entry(sample_key(kind)).rpartition("/")
        assert is_entry(folder, name)
        assert [k for k in KINDS if k.folder == folder and k.name(sample_key(k)) == name] == [kind]
    assert not is_entry("figures", f"{H1}.txt") and not is_entry("", "notes.txt") and not is_entry("values", H1)


def test_each_codec_round_trips_at_its_entry(store, tmp_path):
    values = {"a": (1, 2.5), "b": [None, "三"]}
    store.put_json(SCRIPTS, H1, [[3, {"template": "x {y}", "y": "中文"}, None]])
    store.put_pickle(VALUES, H1, values)
    store.put_bytes(FIGURE_PNG, H1, b"\x89PNG\r\n\x1a\n\x00\xff")
    store.put_text(NOTEBOOKS, H1, "第一行\r\n第二行\n")
    store.put_json(FONT, "", {"family": "Noto"})
    assert store.get_json(SCRIPTS, H1) == [[3, {"template": "x {y}", "y": "中文"}, None]]
    assert store.get_pickle(VALUES, H1) == values
    assert store.get_bytes(FIGURE_PNG, H1) == b"\x89PNG\r\n\x1a\n\x00\xff"
    assert store.get_text(NOTEBOOKS, H1) == "第一行\r\n第二行\n"   # line ends as written
    assert store.get_json(FONT) == {"family": "Noto"}
    c = tmp_path / "cache"
    assert pickle.loads((c / "values" / f"{H1}.pickle").read_bytes()) == values
    assert (c / "notebooks" / f"{H1}.ipynb").read_bytes() == "第一行\r\n第二行\n".encode("utf-8")
    assert (c / "font.json").is_file() and (c / "scripts" / f"{H1}.json").is_file()
    assert store.get_json(SCRIPTS, H2) is None and store.get_pickle(PAGES, H1) is None


def test_a_kind_is_read_and_written_with_its_own_codec_only(store):
    with pytest.raises(AssertionError):
        store.put_text(VALUES, H1, "not a pickle")
    with pytest.raises(AssertionError):
        store.get_json(FIGURE_SVG, H1)


@pytest.mark.parametrize("kind, get, damaged", [
    (SCRIPTS, "get_json", b'[[1, "unfinished'),
    (VALUES, "get_pickle", pickle.dumps({"a": list(range(50))})[:-7]),
    (VALUES, "get_pickle", b"not a pickle at all"),
    (FIGURE_SVG, "get_text", b"<svg>\xff\xfe</svg>"),
])
def test_a_corrupt_entry_reads_as_missing(store, kind, get, damaged):
    path = store.path(kind, H1)
    path.parent.mkdir(parents=True)
    path.write_bytes(damaged)
    assert getattr(store, get)(kind, H1) is None


def test_a_pickle_of_a_class_that_is_gone_reads_as_missing(store, tmp_path):
    """An entry pickled from a lesson's class, read by a build where that class no longer exists."""
    path = store.path(VALUES, H1)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"cno_such_module\nCls\n.")     # (pickle protocol 0: the global no_such_module.Cls)
    assert store.get_pickle(VALUES, H1) is None


def test_a_value_pickle_cannot_store_is_never_cached(store, tmp_path):
    store.put_pickle(VALUES, H1, {"f": lambda x: x})
    assert store.get_pickle(VALUES, H1) is None
    assert not (tmp_path / "cache" / "values").exists() or not any((tmp_path / "cache" / "values").iterdir())


def test_a_store_without_a_folder_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store(None)
    assert not store.enabled and store.folder_of(TEMPLATES) is None
    store.put_json(SCRIPTS, H1, [])
    store.put_pickle(VALUES, H1, 1)
    store.put_bytes(FIGURE_PNG, H1, b"x")
    store.put_text(FIGURE_SVG, H1, "<svg/>")
    store.touch(VALUES.entry(H1))
    store.touch_all(SCRIPTS)
    assert (store.get_json(SCRIPTS, H1), store.get_pickle(VALUES, H1), store.get_bytes(FIGURE_PNG, H1),
            store.get_text(FIGURE_SVG, H1)) == (None, None, None, None)
    assert list(tmp_path.iterdir()) == []


def test_a_write_is_whole_or_absent(store, tmp_path, monkeypatch):
    """A write that fails (a full disk, a read-only folder) leaves the earlier entry as it was and no part of the new
    one, and does not stop the build."""
    store.put_text(FIGURE_SVG, H1, "<svg>old</svg>")

    def full_disk(self, data):
        with open(self, "wb") as f:
            f.write(data[:3])          # part of it reached the disk
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(Path, "write_bytes", full_disk)
    store.put_text(FIGURE_SVG, H1, "<svg>new</svg>")
    store.put_text(FIGURE_SVG, H2, "<svg>another</svg>")
    monkeypatch.undo()
    assert store.get_text(FIGURE_SVG, H1) == "<svg>old</svg>" and store.get_text(FIGURE_SVG, H2) is None
    assert os.listdir(tmp_path / "cache" / "figures") == [f"{H1}.svg"]


def test_reading_an_entry_marks_it_used_and_a_missing_one_stays_missing(store, tmp_path):
    store.put_text(FIGURE_SVG, H1, "<svg></svg>")
    store.put_json(FIGURE_DATA, H1, {"data": {"tables": []}, "palette": {"#000000": "#e5e5e5"}})
    store.put_pickle(VALUES, H2, {"a": 1})
    store.put_json(MATHML, "3.81.1", {"x": "<math></math>"})
    c = tmp_path / "cache"
    files = [c / "figures" / f"{H1}.svg", c / "figures" / f"{H1}.json", c / "values" / f"{H2}.pickle",
             c / "mathml-3.81.1.json"]
    long_ago = time.time() - 40 * DAY
    for f in files:
        os.utime(f, (long_ago, long_ago))
    assert store.get_text(FIGURE_SVG, H1) == "<svg></svg>"
    assert store.get_json(FIGURE_DATA, H1) == {"data": {"tables": []}, "palette": {"#000000": "#e5e5e5"}}
    assert store.get_pickle(VALUES, H2) == {"a": 1}
    assert store.get_json(MATHML, "3.81.1") == {"x": "<math></math>"}
    assert all(f.stat().st_mtime > time.time() - DAY for f in files)
    assert store.get_text(FIGURE_SVG, H3) is None and not (c / "figures" / f"{H3}.svg").exists()


def test_touching_by_entry_name_and_every_entry_of_a_kind(store, tmp_path):
    c = tmp_path / "cache"
    store.put_pickle(VALUES, H1, 1)
    store.put_json(SCRIPTS, H1, [])
    store.put_json(SCRIPTS, H2, [])
    (c / "scripts" / "notes.txt").write_text("not ours")
    long_ago = time.time() - 40 * DAY
    for f in c.rglob("*"):
        if f.is_file():
            os.utime(f, (long_ago, long_ago))
    store.touch(VALUES.entry(H1))
    store.touch_all(SCRIPTS)
    store.touch(VALUES.entry(H3))            # gone: nothing happens
    recent = sorted(f.relative_to(c).as_posix() for f in c.rglob("*") if f.stat().st_mtime > time.time() - DAY
                    and f.is_file())
    assert recent == [f"scripts/{H1}.json", f"scripts/{H2}.json", f"values/{H1}.pickle"]


def test_a_folder_is_a_store_only_if_it_holds_nothing_else(store, tmp_path):
    store.put_pickle(VALUES, H1, 1)
    store.put_json(MATHML, "3.81.1", {})
    store.put_json(HIGHLIGHTS, "2.19.2", {})
    store.put_json(FONT, "", {})
    (tmp_path / "cache" / "templates").mkdir()
    (tmp_path / "cache" / ".figures.svg.123.tmp").write_text("")
    assert looks_like_store(tmp_path / "cache")
    (tmp_path / "cache" / "thesis.tex").write_text("mine")
    assert not looks_like_store(tmp_path / "cache")


def test_kinds_are_data_a_new_kind_needs_no_code_in_the_store(store, tmp_path):
    """A kind is its folder, suffix and codec: one made here is kept where it says, with its codec."""
    from lessonkit.support.store import JSON, TEXT, Kind
    notes = Kind("notes", ".md", TEXT)
    tally = Kind("", ".json", JSON, prefix="tally-", keys=r"[a-z]+")
    store.put_text(notes, H1, "# 笔记\n")
    store.put_json(tally, "today", {"n": 3})
    assert (tmp_path / "cache" / "notes" / f"{H1}.md").read_text(encoding="utf-8") == "# 笔记\n"
    assert (tmp_path / "cache" / "tally-today.json").is_file()
    assert store.get_text(notes, H1) == "# 笔记\n" and store.get_json(tally, "today") == {"n": 3}
    with pytest.raises(ValueError):
        store.put_json(tally, "Today1", {})                         # not a key of this kind
    assert not is_entry("notes", f"{H1}.md")                        # not one of lessonkit's kinds: not its to prune


def test_a_kind_another_library_writes_is_only_located(store, tmp_path):
    assert store.folder_of(TEMPLATES) == tmp_path / "cache" / "templates"
    with pytest.raises(AssertionError):
        store.put_text(TEMPLATES, "0123abcd", "compiled")
    with pytest.raises(AssertionError):
        store.get_bytes(TEMPLATES, "0123abcd")


def test_a_missing_entry_reads_as_missing_and_reading_writes_nothing(store, tmp_path):
    assert (store.get_json(SCRIPTS, H1), store.get_pickle(VALUES, H1), store.get_bytes(FIGURE_PNG, H1),
            store.get_text(NOTEBOOKS, H1), store.get_json(FONT), store.get_json(MATHML, "3.81.1")) == (None,) * 6
    assert not (tmp_path / "cache").exists()


def test_json_that_is_not_utf8_reads_as_missing(store):
    path = store.path(REFERENCES, H1)
    path.parent.mkdir(parents=True)
    path.write_bytes('{"title": "注意力"}'.encode("gb18030"))
    assert store.get_json(REFERENCES, H1) is None


def test_a_write_replaces_the_entry_and_leaves_no_temporary_file(store, tmp_path):
    store.put_json(SCRIPTS, H1, [[1, "first", None]])
    store.put_json(SCRIPTS, H1, [])
    assert store.get_json(SCRIPTS, H1) == []
    assert os.listdir(tmp_path / "cache" / "scripts") == [f"{H1}.json"]
