"""The figures' font kept in the store (support/font.py): trusted by the next build only while its file and the
installed fonts are as they were."""
import pytest

from lessonkit.support import font
from lessonkit.support.font import FontChoice, file_stat, keep_font, saved_font
from lessonkit.support.store import Store


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A font folder of our own (the machine's fonts stay out of it) holding one font file."""
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    monkeypatch.setattr(font, "FONT_DIRS", (str(fonts),))
    file = fonts / "SomeCJK.ttc"
    file.write_bytes(b"glyphs")
    return file


def chosen(file):
    return FontChoice("Some CJK", str(file), file_stat(str(file)))


def test_a_kept_font_is_the_next_builds_font(installed, tmp_path):
    keep_font(Store(tmp_path / "cache"), chosen(installed))
    assert saved_font(Store(tmp_path / "cache")) == chosen(installed)       # a new store: another build


def test_a_changed_font_file_is_chosen_again(installed, tmp_path):
    keep_font(Store(tmp_path / "cache"), chosen(installed))
    installed.write_bytes(b"other glyphs")
    assert saved_font(Store(tmp_path / "cache")) is None


def test_a_font_installed_beside_it_makes_the_build_choose_again(installed, tmp_path):
    keep_font(Store(tmp_path / "cache"), chosen(installed))
    (installed.parent / "Newer.otf").write_bytes(b"more glyphs")
    assert saved_font(Store(tmp_path / "cache")) is None


def test_a_build_looks_at_the_kept_font_once(installed, tmp_path):
    store = Store(tmp_path / "cache")
    keep_font(Store(tmp_path / "cache"), chosen(installed))
    assert saved_font(store) == chosen(installed)
    (tmp_path / "cache" / "font.json").unlink()
    assert saved_font(store) == chosen(installed)           # the same build: as it found it


def test_without_a_store_no_font_is_kept(installed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store(None)
    keep_font(store, chosen(installed))
    assert saved_font(store) is None and sorted(p.name for p in tmp_path.iterdir()) == ["fonts"]


@pytest.mark.parametrize("damaged", ['{"family": "Some CJK"}', '{"family": "X", "file": "f", "stat": 3}', "[1, 2]"])
def test_a_damaged_font_entry_is_chosen_again(installed, tmp_path, damaged):
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "font.json").write_text(damaged, encoding="utf-8")
    assert saved_font(Store(tmp_path / "cache")) is None
