"""The figures' font, kept in the store (its FONT entry) by a fingerprint of the installed font files, so
a build whose figures are all cached never imports matplotlib to choose it. Before a kept font is trusted, its file
must still exist unchanged; installing or removing a font makes the next build choose afresh (draw/figures.py)."""
from __future__ import annotations

import hashlib
import os

from .cachekeys import package_version
from .records import Record
from .store import FONT, Store

# Where matplotlib (via fontconfig or its own directory scan) finds fonts on Linux, macOS and Windows.
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/usr/lib/X11/fonts", "/usr/X11R6/lib/X11/fonts",
             "~/.fonts", "~/.local/share/fonts", "/Library/Fonts", "/System/Library/Fonts", "~/Library/Fonts",
             os.path.join(os.environ.get("WINDIR", "C:/Windows"), "Fonts"),
             os.path.join(os.environ.get("LOCALAPPDATA", "~"), "Microsoft/Windows/Fonts"))


class FontChoice(Record):
    family: str
    file: str            # the font file matplotlib draws the family from
    stat: tuple[int, int]  # its (size, mtime_ns) when the choice was made

    def still_installed(self) -> bool:
        return file_stat(self.file) == tuple(self.stat)


def saved_font(cache: Store) -> FontChoice | None:
    """The font chosen by an earlier build, if the installed fonts did not change since (looked at once a build)."""
    if not cache.enabled:
        return None
    if "font" not in cache.remembered:
        cache.remembered["font"] = _read(cache)
    return cache.remembered["font"]


def keep_font(cache: Store, choice: FontChoice) -> None:
    """`choice` is the build's font, and the next builds' while the installed fonts stay as they are."""
    cache.remembered["font"] = choice
    cache.put_json(FONT, "", {**choice._asdict(), "fingerprint": font_fingerprint()})


def _read(cache: Store) -> FontChoice | None:
    saved = cache.get_json(FONT)
    try:
        choice = FontChoice(saved["family"], saved["file"], tuple(saved["stat"]))
    except (KeyError, TypeError, ValueError):
        return None
    if saved.get("fingerprint") != font_fingerprint() or not choice.still_installed():
        return None
    return choice


def file_stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def font_fingerprint() -> str:
    """Hash of every font file (path, size, mtime) in the usual font folders and of matplotlib's version:
    installing or removing a font there makes the next build choose its font afresh."""
    h = hashlib.sha256(package_version("matplotlib").encode())
    for folder in FONT_DIRS:
        for root, dirs, files in os.walk(os.path.expanduser(folder)):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(root, name)
                h.update(f"{full}\0{file_stat(full)}\n".encode())
    return h.hexdigest()
