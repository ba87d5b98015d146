"""The store's keys (support/cachekeys.py): what an entry is made from changes its key, nothing else does; a figure's
inputs hashed faithfully, or refused."""
import dataclasses
import hashlib
import sys
from importlib.metadata import version

import numpy as np
import pytest

from lessonkit.support import cachekeys
from lessonkit.support.cachekeys import (FIGURE_ENGINE, Uncacheable, code_shape_entries, engine_source_digest,
                                         feed_value, figure_key, folder_digest, lesson_files_digest, package_version,
                                         values_key)
from lessonkit.support.font import FontChoice
from lessonkit.support.store import Store

EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"   # SHA-256 of no bytes at all

CODE = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10
"""


def digest(value):
    h = hashlib.sha256()
    feed_value(h, value)
    return h.hexdigest()


# ---- a figure's inputs ----

def test_value_hash_sees_dtype_shape_and_content_but_not_dict_order():
    a = np.arange(6, dtype=np.int64)
    assert digest(a) == digest(np.arange(6, dtype=np.int64))
    assert digest(a) != digest(a.astype(np.int32))          # same numbers, other dtype
    assert digest(a) != digest(a.reshape(2, 3))              # same bytes, other shape
    assert digest(a.reshape(2, 3).T) != digest(a.reshape(3, 2))  # transposed view: other element order
    assert digest({"x": 1, "y": [1.0, 2.0]}) == digest({"y": [1.0, 2.0], "x": 1})
    assert digest([1, 2]) != digest((1, 2)) and digest(1) != digest(1.0) and digest(True) != digest(1)
    assert digest(0.1 + 0.2) != digest(0.3)


def test_value_hash_tells_apart_what_prints_alike_and_ignores_set_order():
    assert digest("1") != digest(1) and digest(b"a") != digest("a") and digest(None) != digest("None")
    assert digest([[1], [2]]) != digest([[1, 2]]) and digest([[1, 2]]) != digest([1, 2])   # where lists end
    assert digest({"a": 1, "b": 2}) != digest({"a": 2, "b": 1})                           # which value is whose
    assert digest({3, 1, 2}) == digest({1, 2, 3}) and digest({1, 2}) != digest(frozenset({1, 2}))
    assert digest(np.float64(0.5)) != digest(0.5)                                          # numpy scalar ≠ float
    assert digest(np.array(["a", None], dtype=object)) != digest(np.array(["a", "None"], dtype=object))


@dataclasses.dataclass
class Point:
    x: float
    y: float


@dataclasses.dataclass
class Size:
    x: float
    y: float


def test_a_dataclass_is_hashed_by_its_class_and_fields():
    assert digest(Point(1.0, 2.0)) == digest(Point(1.0, 2.0))
    assert digest(Point(1.0, 2.0)) != digest(Point(2.0, 1.0))
    assert digest(Point(1.0, 2.0)) != digest(Size(1.0, 2.0))     # same fields, another class


def test_unknown_objects_are_not_cached():
    with pytest.raises(Uncacheable):
        digest(object())
    with pytest.raises(Uncacheable):
        digest({"fine": [1, 2], "not": lambda: 1})                # however deep


FONT = FontChoice("Noto Sans CJK SC", "/usr/share/fonts/noto/NotoSansCJK.ttc", (1000, 17))


def test_a_figure_key_changes_with_each_thing_the_figure_is_drawn_from():
    base = figure_key("engine", "files", FONT, "curve", [np.arange(3), {"n": 2}])
    assert base == figure_key("engine", "files", FONT, "curve", [np.arange(3), {"n": 2}])
    others = [figure_key("engine2", "files", FONT, "curve", [np.arange(3), {"n": 2}]),
              figure_key("engine", "files2", FONT, "curve", [np.arange(3), {"n": 2}]),
              figure_key("engine", "files", FONT._replace(family="Source Han Sans SC"), "curve",
                         [np.arange(3), {"n": 2}]),
              figure_key("engine", "files", FONT._replace(stat=(1000, 18)), "curve",   # font file replaced
                         [np.arange(3), {"n": 2}]),
              figure_key("engine", "files", FONT, "curve2", [np.arange(3), {"n": 2}]),
              figure_key("engine", "files", FONT, "curve", [np.arange(3), {"n": 3}]),
              figure_key("engine", "files", FONT, "curve", [np.arange(3)])]
    assert len({base, *others}) == 1 + len(others)
    assert all(len(k) == 64 and int(k, 16) >= 0 for k in others)     # a SHA-256 in hex: a store key
    with pytest.raises(Uncacheable):
        figure_key("engine", "files", FONT, "curve", [object()])


def test_the_values_key_follows_the_lessons_files():
    assert values_key("a" * 64) == values_key("a" * 64) != values_key("b" * 64)


# ---- a lesson's files ----

@pytest.fixture
def lesson(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "lesson.py").write_text(CODE, encoding="utf-8")
    (folder / "lesson.md").write_text("## 一 {#a}\n\n{{ two_pow }}\n", encoding="utf-8")
    (folder / "lesson.yaml").write_text("title: 演示\n", encoding="utf-8")
    (folder / "data").mkdir()
    (folder / "data" / "table.csv").write_text("x,y\n1,2\n", encoding="utf-8")
    return folder


def test_the_lessons_files_digest_changes_with_its_code_and_data_only(lesson):
    before = lesson_files_digest(lesson)
    edits_that_change_nothing = [
        ("lesson.py", CODE.replace("return 2 ** 10", "# ten doublings\n    return 2 ** 10  # 1024\n\n")),
        ("lesson.md", "## 二 {#b}\n"),
        ("lesson.yaml", "title: 另一个\n"),
        ("references.bib", "@book{k, title={T}}\n"),
        ("widgets/gauge/widget.js", "lessonkit.widget('gauge', () => {});\n"),
        ("__pycache__/lesson.cpython-311.pyc", "\0\0"),
    ]
    for name, text in edits_that_change_nothing:
        (lesson / name).parent.mkdir(parents=True, exist_ok=True)
        (lesson / name).write_text(text, encoding="utf-8")
        assert lesson_files_digest(lesson) == before, name
    (lesson / "lesson.py").write_text(CODE.replace("2 ** 10", "2 ** 11"), encoding="utf-8")
    code_edited = lesson_files_digest(lesson)
    (lesson / "data" / "table.csv").write_text("x,y\n1,3\n", encoding="utf-8")
    data_edited = lesson_files_digest(lesson)
    (lesson / "data" / "table.csv").rename(lesson / "data" / "other.csv")
    data_renamed = lesson_files_digest(lesson)
    (lesson / "extra.npy").write_bytes(b"\x93NUMPY")
    data_added = lesson_files_digest(lesson)
    assert len({before, code_edited, data_edited, data_renamed, data_added}) == 5


def test_code_that_does_not_parse_is_keyed_by_its_bytes(lesson):
    (lesson / "lesson.py").write_text("def broken(:\n", encoding="utf-8")
    first = lesson_files_digest(lesson)
    (lesson / "lesson.py").write_text("def broken(:  # a comment\n", encoding="utf-8")
    assert lesson_files_digest(lesson) != first


def test_the_code_shape_is_kept_in_the_store_and_read_back_without_parsing(lesson, tmp_path, monkeypatch):
    store = Store(tmp_path / "cache")
    without_store = lesson_files_digest(lesson)
    assert lesson_files_digest(lesson, store) == without_store
    (entry,) = code_shape_entries(lesson)
    assert [p.relative_to(store.folder).as_posix() for p in (store.folder / "pages").iterdir()] == [entry]
    assert entry.startswith("pages/") and entry.endswith(".pickle")

    def no_parsing(source):
        raise AssertionError("parsed again")
    monkeypatch.setattr("lessonkit.support.pysource.parse", no_parsing)
    assert lesson_files_digest(lesson, store) == without_store       # from the store: not parsed
    with pytest.raises(AssertionError, match="parsed again"):
        lesson_files_digest(lesson)                                  # without it: parsed
    (lesson / "lesson.py").unlink()
    assert code_shape_entries(lesson) == []


def test_the_folder_digest_sees_every_file_but_compiled_python(lesson, tmp_path):
    assert folder_digest(tmp_path / "nothing-here") == EMPTY_SHA256 == hashlib.sha256().hexdigest()
    before = folder_digest(lesson)
    (lesson / "__pycache__").mkdir()
    (lesson / "__pycache__" / "lesson.cpython-311.pyc").write_bytes(b"\0")
    assert folder_digest(lesson) == before
    seen = set()
    for name in ("lesson.md", "lesson.yaml", "lesson.py"):         # the text too: a page is made from it
        (lesson / name).write_text((lesson / name).read_text(encoding="utf-8") + "\n", encoding="utf-8")
        seen.add(folder_digest(lesson))
    assert len(seen | {before}) == 4


# ---- the engine and the packages ----

def test_the_figure_engine_digest_ignores_the_code_that_cannot_change_a_figure(tmp_path, monkeypatch):
    engine = tmp_path / "lessonkit"
    for rel in ("compute/run.py", "draw/drawing.py", "commands/serve.py", "site.py"):
        (engine / rel).parent.mkdir(parents=True, exist_ok=True)
        (engine / rel).write_text(f"# {rel}\n", encoding="utf-8")
    monkeypatch.setattr(cachekeys, "ENGINE_DIR", engine)
    engine_source_digest.cache_clear()
    try:
        def digests():
            engine_source_digest.cache_clear()
            cachekeys.engine_sources.cache_clear()  # the package is read once per process
            return engine_source_digest(FIGURE_ENGINE), engine_source_digest()
        figures, everything = digests()
        (engine / "commands" / "serve.py").write_text("# the preview server, edited\n", encoding="utf-8")
        figures2, everything2 = digests()
        assert figures2 == figures and everything2 != everything
        (engine / "draw" / "drawing.py").write_text("# drawing, edited\n", encoding="utf-8")
        figures3, everything3 = digests()
        assert figures3 != figures and everything3 != everything2
    finally:
        engine_source_digest.cache_clear()
        cachekeys.engine_sources.cache_clear()


def test_a_packages_version_is_the_installed_one_and_absent_when_it_is_not_installed():
    for name in ("numpy", "jinja2", "latex2mathml"):
        assert package_version(name) == version(name)
    assert package_version("no_such_package_for_lessonkit") == "absent"


def test_a_package_imported_by_another_name_than_it_is_installed_by(monkeypatch):
    """PyYAML is imported as `yaml`: its version is found before anything has imported it too."""
    monkeypatch.delitem(sys.modules, "yaml", raising=False)  # (lessonkit imports it only to read a YAML text afresh)
    assert package_version.__wrapped__("yaml") == version("PyYAML")


def test_the_files_under_a_folder_are_what_os_walk_lists_in_path_order(tmp_path):
    """_files_under against os.walk (followlinks, every __pycache__ left out, only files), sorted part by part."""
    import os

    from lessonkit.support.cachekeys import _files_under

    for rel in ["a.py", "a-b/c.txt", "a/b.py", "a/__pycache__/b.pyc", "a/z/deep.md", "b.py", "é/文件.yaml"]:
        (tmp_path / "root" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "root" / rel).write_text(rel, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "linked.py").write_text("x", encoding="utf-8")
    os.symlink(tmp_path / "elsewhere", tmp_path / "root" / "link")             # a linked folder: followed
    os.symlink(tmp_path / "root" / "b.py", tmp_path / "root" / "b-link.py")    # a linked file: a file
    os.symlink(tmp_path / "missing", tmp_path / "root" / "broken")             # a broken link: nothing
    root = tmp_path / "root"
    expected = []
    for top, subfolders, names in os.walk(root, followlinks=True):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        under = os.path.relpath(top, root).replace(os.sep, "/")
        expected += [(n if under == "." else f"{under}/{n}", os.path.join(top, n)) for n in names
                     if os.path.isfile(os.path.join(top, n))]
    expected.sort(key=lambda item: item[0].split("/"))
    found = _files_under(root)
    assert found == expected
    assert [rel for rel, _ in found] == ["a/b.py", "a/z/deep.md", "a-b/c.txt", "a.py", "b-link.py", "b.py",
                                         "link/linked.py", "é/文件.yaml"]


def test_a_cell_runs_key_holds_its_text_data_imports_versions_and_figure_settings(monkeypatch):
    from lessonkit.support import cachekeys
    from lessonkit.support.cachekeys import cell_run_key
    from lessonkit.support.pysource import imported_modules

    text = "# %% load\nimport numpy as np\nimport os\nx = 1\n"
    base = cell_run_key("files", text, {"font.size": 10})
    assert cell_run_key("files", text, {"font.size": 10}) == base
    assert cell_run_key("files", text.replace("# %% load", "# %% load echo=false"), {"font.size": 10}) != base
    assert cell_run_key("other files", text, {"font.size": 10}) != base
    assert cell_run_key("files", text, {"font.size": 11}) != base
    monkeypatch.setattr(cachekeys, "package_version", lambda name: "0.0-another")   # numpy upgraded
    assert cell_run_key("files", text, {"font.size": 10}) != base
    assert imported_modules(text + "from sklearn.linear_model import Ridge\nfrom . import local\n") == [
        "numpy", "sklearn.linear_model"]                    # (os: the standard library's; `.`: the lesson's own)
