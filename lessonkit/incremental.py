"""Only work whose inputs changed is redone: a lesson page whose inputs are those of an earlier build is taken as
that build wrote it (with what the other pages read of it), and when no lesson changed, the index and glossary
pages too — so a rebuild with nothing changed computes, draws and renders nothing, and imports neither Jinja,
Markdown nor the lessons' numpy code.

A lesson page is a function of: the engine's code and the packages it uses, the theme's files, the files at the
top of content/ (site.yaml, glossary.yaml …), every lesson's title and sections (the contents and pagers list them),
which lessons are built, the edition and each lesson's release (load/release.py: a day that changes no decision
keeps every page), the figures' font, `serve`'s reload script, and the lesson's own folder. The key hashes
exactly these; anything else a page showed would be a bug here (tests/test_incremental.py builds both ways and
compares the bytes).
The preview's pages (`serve`) carry its reload script, the same on every build, so they are kept the same way;
the slides (which need the figures' pictures) build everything.
"""
from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from .features.coursenav import course_entry
from .support.cachekeys import engine_source_digest, folder_digest, page_engine
from .support.errors import Problem
from .support.font import saved_font
from .support.prune import prune_due
from .support.records import Mutable, Record, fresh
from .support.store import HIGHLIGHTS, MATHML, MINIFIED, PAGES, REFERENCES, SCRIPTS, TEMPLATES, Store

PAGE_FORMAT = "lessonkit-pages-5"
SHARED_KINDS = (TEMPLATES, SCRIPTS, MATHML, HIGHLIGHTS, MINIFIED, REFERENCES)   # store entries every page's making uses
MARKED_FOR = 3600  # s: reading a kept record marks what it is made of used; read again within this, it is not
#                    marked again (hundreds of files), unless the store prunes after this build


class KeptLesson(Record):
    """A lesson page as the build that wrote it left it."""
    page: bytes
    gzip: int                     # its gzip size, as the budget weighs it (not gzipped again)
    summary: dict[str, Any]       # what the other pages read of it (render.pages.lesson_summary)
    figures: int                  # figures on it, for the build summary
    made_of: tuple[str, ...] = ()  # the store entries it was made from (Kind.entry), kept while it is
    files: tuple[tuple[str, bytes], ...] = ()  # written beside it (its notebook): (path, bytes)
    warnings: tuple = ()          # what the build said of its text (features.handnumbers), unanchored


class Reuse(Mutable):
    cache: Store
    keys: dict[str, str] = fresh(dict)   # slug → key, for the lessons that may be reused
    site_key: str | None = None                          # the index and glossary pages, when every lesson's is known
    basis: str | None = None                             # every input but the font, hashed (None: nothing reused)
    shared: str | None = None                            # shared_inputs (None: no cache)
    digests: dict[str, str] = fresh(dict)  # slug → its folder's digest (lessons that may be reused)
    lessons: int = 0                                     # how many lessons this build makes
    marked_since: float | None = None  # a record read after this had what it is made of marked (None: mark all)

    def key_with(self, font) -> None:
        """The keys, once the figures' font is known (a first build knows it after drawing: planned once, keyed
        then)."""
        if self.basis is None or font is None:
            return
        common = hashlib.sha256(f"{self.basis}\0{font.family}\0{font.file}\0{tuple(font.stat)}".encode()).hexdigest()
        self.keys = {slug: hashlib.sha256(f"{common}\0{slug}\0{digest}".encode()).hexdigest()
                     for slug, digest in self.digests.items()}
        if len(self.keys) == self.lessons:
            self.site_key = hashlib.sha256(f"{common}\0site\0{sorted(self.keys.items())}".encode()).hexdigest()

    def kept_lessons(self) -> dict[str, KeptLesson]:
        found = {}
        for slug, key in self.keys.items():
            mark = self._mark_due(key)
            record = self.cache.get_pickle(PAGES, key)
            if isinstance(record, KeptLesson):
                found[slug] = record
                for entry in record.made_of if mark else ():  # still needed the day its text changes: prune
                    self.cache.touch(entry)                      # must keep them
        return found

    def kept_site(self) -> dict[str, tuple[bytes, int | None]] | None:
        """The index page, the glossary page and the files written with them, by path: (bytes, gzip size)."""
        mark = self.site_key is not None and self._mark_due(self.site_key)
        record = self.cache.get_pickle(PAGES, self.site_key) if self.site_key else None
        if not isinstance(record, dict):
            return None
        for kind in SHARED_KINDS if mark else ():  # what making any page again would need: kept while the
            self.cache.touch_all(kind)               # pages are
        return record

    def _mark_due(self, key: str) -> bool:
        """Whether what the kept record `key` is made of is to be marked used now (before reading it: reading
        marks the record)."""
        last = self.cache.last_used(PAGES, key)
        return self.marked_since is None or last is None or not self.marked_since < last <= time.time() + 60

    def keep_lesson(self, slug: str, record: KeptLesson) -> None:
        if slug in self.keys:
            self.cache.put_pickle(PAGES, self.keys[slug], record)

    def keep_site(self, pages: dict[str, tuple[bytes, int | None]]) -> None:
        if self.site_key:
            self.cache.put_pickle(PAGES, self.site_key, pages)


def plan(cache: Store, sources, course, content: Path, dirs: list[Path], options, publication) -> Reuse:
    """Which pages an earlier build may have written from the same inputs. `sources`: the lessons to build,
    `course`: every lesson of the course; `publication`: what this edition publishes, on the build's day."""
    reuse = Reuse(cache, lessons=len(sources))
    if not cache.enabled:
        return reuse
    reuse.shared = shared_inputs(content, dirs, course, options, publication)
    now = time.time()   # (pruning keeps what the build that just ran marked used: a build that prunes marks all)
    reuse.marked_since = None if prune_due(cache.folder, now) else now - MARKED_FOR
    if options.figure_png or publication.edition.lms:  # (an LMS export reads every lesson's rendered questions:
        return reuse                                   # none is kept)
    h = hashlib.sha256(f"{reuse.shared}\0".encode())
    h.update(repr([s.slug for s in sources]).encode())
    reuse.basis = h.hexdigest()
    reuse.digests = {source.slug: folder_digest(source.folder) for source in sources
                     if not source.problems}  # a lesson with problems in its text is built, so they are reported
    reuse.key_with(saved_font(cache))  # the fonts changed (None): figures are drawn again, and pages with them
    return reuse


def shared_inputs(content: Path, dirs: list[Path], course, options, publication) -> str:
    """What every page is made from but its own lesson's folder, the lessons built and the figures' font, hashed:
    the engine's code and the packages it uses, the theme's files (templates, words, components), the files at the
    top of content/ (site.yaml: the language; glossary.yaml, references.bib …), every lesson's title, sections,
    figure and equation numbers (links), the theme chosen, `serve`'s reload script and the edition with each
    lesson's release (drafts, answers shown, teacher, LMS)."""
    h = hashlib.sha256(f"{PAGE_FORMAT}\0{page_engine()}\0".encode())
    for folder in dirs:
        h.update(f"theme {folder.name}\0{folder_digest(folder)}\0".encode())
    for path in sorted(p for p in content.iterdir() if p.is_file()):  # site.yaml, glossary.yaml, references …
        h.update(f"{path.name}\0".encode() + path.read_bytes() + b"\0")
    h.update(repr([course_entry(s) for s in course]).encode())
    h.update(f"{options.theme}\0".encode())
    h.update(f"{options.preview_script}\0".encode())  # `serve`'s reload script: in every page and its policy
    h.update(f"{publication.key()}\0".encode())      # drafts, releases, answers shown or not, the edition
    return h.hexdigest()


def unanchored(problems, folder: Path) -> tuple:
    """Problems as a kept page keeps them: each file relative to its lesson's folder (the content may move)."""
    def where(path: Path) -> str:
        return path.relative_to(folder).as_posix() if path.is_relative_to(folder) else str(path)
    return tuple((where(Path(p.path)), p.line, p.message, p.expected) for p in problems)


def anchored(saved: tuple, folder: Path) -> tuple[Problem, ...]:
    return tuple(Problem(folder / path, line, message, expected) for path, line, message, expected in saved)


class FileMemo:
    """`memo(path, find)` for what is a function of one file's bytes and the engine's code alone (the hand-typed
    numbers of a lesson's file): `find()`'s problems as a build found them for the same bytes, else found and kept.
    Edit one paragraph and only lesson.md is read again. `entries`: the store entries it used (a kept page keeps
    them, as it keeps what it was made of)."""

    def __init__(self, cache: Store, folder: Path, purpose: str):
        self.cache, self.folder, self.purpose = cache, folder, purpose
        self.entries: list[str] = []

    def __call__(self, path: Path, find, purpose: str | None = None) -> list[Problem]:
        """`purpose`: another report of the same file (features/placeholders.py), kept apart."""
        if not self.cache.enabled:
            return find()
        try:
            data = path.read_bytes()
        except OSError:
            return find()
        return self.part(path, data, find, whole=True, purpose=purpose)

    def part(self, path: Path, data: bytes, find, whole: bool = False, purpose: str | None = None) -> list[Problem]:
        """The same for what is a function of `data` (a part of a file: a section of lesson.md) alone."""
        if not self.cache.enabled or not path.is_relative_to(self.folder):
            return find()
        purpose = purpose or self.purpose
        purpose = purpose if whole else f"{purpose} part"
        key = hashlib.sha256(f"{PAGE_FORMAT}\0{purpose}\0{engine_source_digest()}\0"
                             f"{path.relative_to(self.folder).as_posix()}\0".encode() + data).hexdigest()
        self.entries.append(PAGES.entry(key))
        saved = self.cache.get_pickle(PAGES, key)
        if isinstance(saved, tuple):
            return list(anchored(saved, self.folder))
        found = find()
        self.cache.put_pickle(PAGES, key, unanchored(found, self.folder))
        return found
