"""The build's cache (`.cache/lessonkit/`, `--cache-dir`; `--no-cache`: none): one store of named kinds of entry.

A kind is data — the folder its entries live in, the suffix of their names and the codec they are written with —
and this module is the only one that spells where an entry lives. Every other module names a kind and a key:
`cache.get_json(SCRIPTS, key)`, `cache.put_pickle(VALUES, key, values)`, `VALUES.entry(key)` (the entry's name
relative to the store, what a kept page lists as made of). Keys are made in support/cachekeys.py, old entries go in
support/prune.py.

  kind          entry                          codec    what
  FIGURE_SVG    figures/<key>.svg              text     a drawn figure (draw/)
  FIGURE_DATA   figures/<key>.json             json     beside it: the numbers it plots and its dark palette
  FIGURE_PNG    figures/<key>.png              bytes    the figure as a picture, for the slides (draw/raster.py)
  VALUES        values/<key>.pickle            pickle   a lesson's computed values and widget data (compute/)
  CELL_RUNS     values/<key>.cells.pickle      pickle   a lesson written as cells as its run left it: its registry
                                                        (the figure cells' figures), what each cell printed and showed,
                                                        its plain data (compute/run.py load_code)
  CELL_STEPS    values/<key>.step.pickle       pickle   one code cell as it ran: its output, figure, the names it left
  CELL_DATA     values/<key>.data              bytes    a value a cell left, pickled, by its content (cellsteps.py)
  PAGES         pages/<key>.pickle             pickle   kept pages and memos of one file's reading (incremental.py)
  SECTIONS      sections/<key>.pickle          pickle   a part of a lesson page rendered (a lesson.md section,
                                                        lesson.yaml's fields), with what is read of it
                                                        (render/sectionmemo.py)
  SCRIPTS       scripts/<key>.json             json     a component script's check (features/scriptcheck.py)
  REFERENCES    references/<key>.json          json     a parsed bibliography (features/citations.py)
  NOTEBOOKS     notebooks/<key>.ipynb          text     a lesson's notebook (render/notebook.py)
  NOTEBOOK_PARTS notebooks/<key>.json         json     beside them, their parts: the setup's code, lesson.py's cells,
                                                       a lesson's inline Markdown memo, what a notebook was made with
  DEFINITIONS   definitions/<key>.pickle       pickle   the glossary's definitions and problems (render/definitions.py)
  READINGS      readings/<key>.pickle          pickle   what reading a file gave: a YAML file's data, lines, problems;
                                                        lesson.md's sections (support/readings.py)
  READING_PARTS readings/<key>.part.pickle     pickle   beside them, a part of one: a lesson.md section's nodes, read
                                                        only when lesson.md changed (so a build that changed nothing
                                                        leaves them unread, and pruning takes them in time)
  MATHML        mathml-<version>.json          json     LaTeX → MathML conversions, for a latex2mathml version
  HIGHLIGHTS    highlight-<version>.json       json     highlighted code, for a Pygments version (features/code.py)
  MINIFIED      minified-<version>.json        json     the theme's scripts and the pages' styles minified, for a
                                                        minify-html version (assemble/minify.py)
  FONT          font.json                      json     the figures' font (support/font.py)
  TEMPLATES     templates/__jinja2_<…>.cache   (Jinja)  compiled templates, written by Jinja (render/templates.py)

What the store promises for every kind: a write is whole or absent (a temporary file renamed into place; a full
disk or a read-only folder leaves the entry out, the build goes on); reading an entry marks it used (its mtime:
what pruning keeps); an entry that cannot be read or decoded (missing, truncated, from classes that changed) reads
as missing; a value pickle cannot store is never cached; a store without a folder keeps nothing.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
from pathlib import Path
from typing import Any, Callable

from .records import Mutable, Record, fresh

HEX_KEY = r"[0-9a-f]{64}"     # a SHA-256 in hex: the key of most entries
STALE_TMP = re.compile(r"\..+\.\d+\.tmp")   # `.NAME.PID.tmp`: left by a build killed while writing (write_atomic)


def _pickled(data: Any) -> bytes | None:
    try:
        return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a value pickle cannot store (a lambda, an open file): never cached, always made afresh
        return None


class Codec(Record):
    """How an entry's data becomes bytes and back; `encode` may refuse (None: the entry is not written)."""
    name: str
    encode: Callable[[Any], bytes | None]
    decode: Callable[[bytes], Any]


JSON = Codec("json", lambda data: json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8"),
             lambda raw: json.loads(raw.decode("utf-8")))
PICKLE = Codec("pickle", _pickled, pickle.loads)   # our own files, as trusted as lesson.py
BYTES = Codec("bytes", bytes, bytes)
TEXT = Codec("text", lambda text: text.encode("utf-8"), lambda raw: raw.decode("utf-8"))


class Kind(Record):
    """A kind of entry: `folder/` (or the store's top, "") + `prefix` + key + `suffix`, written with `codec`
    (None: written by another library, which the store only locates). `keys`: the pattern its keys match."""
    folder: str
    suffix: str
    codec: Codec | None
    prefix: str = ""
    keys: str = HEX_KEY

    def name(self, key: str = "") -> str:
        """The entry's file name."""
        if not re.fullmatch(self.keys, key):
            raise ValueError(f"{key!r} is no key of {self.prefix}…{self.suffix} entries")
        return f"{self.prefix}{key}{self.suffix}"

    def entry(self, key: str = "") -> str:
        """The entry's path relative to the store (what a kept page lists as made of)."""
        return f"{self.folder}/{self.name(key)}" if self.folder else self.name(key)

    @property
    def pattern(self) -> str:
        """A regular expression every name of this kind's entries matches (in its folder)."""
        return re.escape(self.prefix) + self.keys + re.escape(self.suffix)


FIGURE_SVG = Kind("figures", ".svg", TEXT)
FIGURE_DATA = Kind("figures", ".json", JSON)
FIGURE_PNG = Kind("figures", ".png", BYTES)
VALUES = Kind("values", ".pickle", PICKLE)
SHAPE = Kind("values", ".shape.pickle", PICKLE)      # compute/kept.py: the registry, deferred, and widget data
DERIVED = Kind("values", ".derived.pickle", PICKLE)  # … and what a build derived from the values
CELL_RUNS = Kind("values", ".cells.pickle", PICKLE)  # compute/run.py: a lesson written as cells, as its run left it
CELL_STEPS = Kind("values", ".step.pickle", PICKLE)  # compute/cellsteps.py: one of its cells as it ran …
CELL_DATA = Kind("values", ".data", BYTES)           # … and the values it left, each by its content
PAGES = Kind("pages", ".pickle", PICKLE)
SECTIONS = Kind("sections", ".pickle", PICKLE)
SCRIPTS = Kind("scripts", ".json", JSON)
REFERENCES = Kind("references", ".json", JSON)
NOTEBOOKS = Kind("notebooks", ".ipynb", TEXT)
NOTEBOOK_PARTS = Kind("notebooks", ".json", JSON)
DEFINITIONS = Kind("definitions", ".pickle", PICKLE)
READINGS = Kind("readings", ".pickle", PICKLE)
READING_PARTS = Kind("readings", ".part.pickle", PICKLE)   # support/readings.py Parts: read only when their file changed
MATHML = Kind("", ".json", JSON, prefix="mathml-", keys=r".+")        # key: latex2mathml's version
HIGHLIGHTS = Kind("", ".json", JSON, prefix="highlight-", keys=r".+")  # key: Pygments' version
MINIFIED = Kind("", ".json", JSON, prefix="minified-", keys=r".+")     # key: minify-html's version
FONT = Kind("", ".json", JSON, prefix="font", keys="")                # one entry, key ""
TEMPLATES = Kind("templates", ".cache", None, prefix="__jinja2_", keys=r".+")
KINDS = (FIGURE_SVG, FIGURE_DATA, FIGURE_PNG, VALUES, SHAPE, DERIVED, CELL_RUNS, CELL_STEPS, CELL_DATA, PAGES,
         SECTIONS, SCRIPTS, REFERENCES, NOTEBOOKS, NOTEBOOK_PARTS, DEFINITIONS, READINGS, READING_PARTS, MATHML,
         HIGHLIGHTS, MINIFIED, FONT, TEMPLATES)
FIGURE = (FIGURE_SVG, FIGURE_DATA, FIGURE_PNG)   # one drawn figure's entries


class Store(Mutable):
    """The entries under `folder`; `folder=None` (`--no-cache`) keeps nothing: every get is None, every put does
    nothing. `remembered`: what a build looked up once and reads again (support/font.py: the chosen font)."""
    folder: Path | None
    remembered: dict[str, Any] = fresh(dict)

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def path(self, kind: Kind, key: str = "") -> Path:
        return self.folder / kind.entry(key)

    def folder_of(self, kind: Kind) -> Path | None:
        """Where another library keeps a kind's entries (Jinja's compiled templates); None without a store."""
        return self.folder / kind.folder if self.enabled else None

    def get_json(self, kind: Kind, key: str = "") -> Any | None:
        return self._get(kind, key, JSON)

    def put_json(self, kind: Kind, key: str, data: Any) -> None:
        self._put(kind, key, JSON, data)

    def get_pickle(self, kind: Kind, key: str, mark_used: bool = True) -> Any | None:
        """Call after the modules of the pickled classes are loaded (a lesson's: pickles refer to them by name).
        `mark_used=False`: only look (support/readings.py)."""
        return self._get(kind, key, PICKLE, mark_used)

    def put_pickle(self, kind: Kind, key: str, data: Any) -> None:
        self._put(kind, key, PICKLE, data)

    def get_bytes(self, kind: Kind, key: str) -> bytes | None:
        return self._get(kind, key, BYTES)

    def put_bytes(self, kind: Kind, key: str, data: bytes) -> None:
        self._put(kind, key, BYTES, data)

    def get_text(self, kind: Kind, key: str) -> str | None:
        return self._get(kind, key, TEXT)

    def put_text(self, kind: Kind, key: str, text: str) -> None:
        self._put(kind, key, TEXT, text)

    def digest(self, kind: Kind, key: str) -> str | None:
        """The SHA-256 of an entry's bytes (it is marked used), without decoding it; None when there is none."""
        if not self.enabled:
            return None
        path = self.path(kind, key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        touch(path)
        return hashlib.sha256(data).hexdigest()

    def touch(self, entry: str) -> None:
        """Mark an entry used now, by its name relative to the store (`Kind.entry`)."""
        if self.enabled:
            touch(self.folder / entry)

    def last_used(self, kind: Kind, key: str) -> float | None:
        """When an entry was last marked used (its mtime); None when there is none."""
        if not self.enabled:
            return None
        try:
            return os.stat(self.path(kind, key)).st_mtime
        except OSError:
            return None

    def touch_all(self, kind: Kind) -> None:
        """Mark every entry of `kind` there is used now."""
        if not self.enabled:
            return
        try:
            names = os.listdir(self.folder / kind.folder)
        except OSError:
            return
        for name in names:
            if re.fullmatch(kind.pattern, name):
                touch(self.folder / kind.folder / name)

    def _get(self, kind: Kind, key: str, codec: Codec, mark_used: bool = True) -> Any | None:
        assert kind.codec is codec, f"{kind.entry(key)} is not written as {codec.name}"
        if not self.enabled:
            return None
        path = self.path(kind, key)
        try:
            data = codec.decode(path.read_bytes())
        except Exception:  # missing, truncated, not what was written: made afresh
            return None
        if mark_used:
            touch(path)
        return data

    def _put(self, kind: Kind, key: str, codec: Codec, data: Any) -> None:
        assert kind.codec is codec, f"{kind.entry(key)} is not written as {codec.name}"
        if not self.enabled:
            return
        blob = codec.encode(data)
        if blob is not None:
            write_atomic(self.path(kind, key), blob)


def touch(path: Path | str) -> None:
    """Mark a cache entry as used now (its mtime): what pruning keeps (atime is unreliable, often off)."""
    try:
        os.utime(path)
    except OSError:
        pass


def write_atomic(path: Path, data: bytes) -> None:
    """Write a cache entry whole or not at all. The cache only saves time: a full disk or a read-only cache folder
    leaves the entry out (the next build makes it again), it does not stop the build."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def is_entry(folder: str, name: str) -> bool:
    """Whether `name` in the store's `folder` ("": its top) is an entry of some kind."""
    return any(k.folder == folder and re.fullmatch(k.pattern, name) for k in KINDS)


def looks_like_store(folder: Path) -> bool:
    """Only a store's own entries and folders (and hidden files) are in `folder`: what `clean` may delete (an
    arbitrary folder passed by mistake is never deleted)."""
    folders = {k.folder for k in KINDS if k.folder}
    return all(p.name in folders or p.name.startswith(".") or is_entry("", p.name) for p in folder.iterdir())
