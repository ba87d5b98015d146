"""The keys of the store's entries (support/store.py): hashes over everything an entry is made from.

A figure's key is a SHA-256 over everything its drawing depends on:
  - the lesson folder's code and data files (lesson.py as its syntax tree, and anything beside it except lesson.md /
    lesson.yaml): a safe over-approximation of "the figure function and the helpers it calls";
  - the figure's input values (numpy arrays by dtype, shape and bytes; other values by a canonical encoding);
  - the engine code that shapes values and figures (FIGURE_ENGINE) and CACHE_FORMAT;
  - the numpy and matplotlib versions;
  - the font family and the (path, size, mtime) of the font file matplotlib draws it from (support/font.py).
A lesson's values and widget data are keyed by its code and data files, that engine code, Python and numpy.
Lesson code is assumed deterministic: no unseeded randomness, no network, no clock, no files outside its folder;
`--no-cache` computes and draws everything afresh.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Any

from .pysource import imported_modules
from .records import Record
from .store import PAGES, Store

CACHE_FORMAT = "lessonkit-figure-cache-3"  # 2: the plotted data beside each SVG; 3: and its dark palette
ENGINE_DIR = Path(__file__).parents[1]
FIGURE_ENGINE = ("compute", "draw", "features", "support")  # the packages whose code shapes values and figures


@functools.lru_cache(maxsize=None)
def engine_source_digest(packages: tuple[str, ...] | None = None) -> str:
    """The engine's code: every module of lessonkit, or only those of `packages`. Values and figures are shaped by
    FIGURE_ENGINE (lesson code may call its helpers, e.g. format_value for figure labels; compute runs it, draw makes
    the SVG); editing the preview server or a template redraws nothing. Pages depend on all of it."""
    h = hashlib.sha256()
    for parts, data in engine_sources():
        if packages is None or parts[0] in packages:
            h.update("/".join(parts).encode() + b"\0" + data)
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def engine_sources() -> tuple[tuple[tuple[str, ...], bytes], ...]:
    """Every module of lessonkit (its path's parts under the package, its bytes) in path order: the package is read
    once per process, for every digest of it a build takes (`engine_sources.cache_clear()` reads it again)."""
    return tuple((tuple(rel.split("/")), _read(path)) for rel, path in _files_under(ENGINE_DIR) if rel.endswith(".py"))


# what pages are made with: a new version of one may change a page
PAGE_PACKAGES = ("jinja2", "markdown_it", "mdit_py_plugins", "latex2mathml", "numpy", "matplotlib", "yaml", "pygments")


def page_engine() -> str:
    """Python, the engine's code and the versions of PAGE_PACKAGES, as one text: the part of every page key (and of
    every memo of a page's parts) that says what made it."""
    versions = " ".join(f"{name} {package_version(name)}" for name in PAGE_PACKAGES)
    return f"{sys.version}\0{engine_source_digest()}\0{versions}"


SKIPPED_IN_LESSON = {"lesson.md", "lesson.yaml", "references.bib", "__pycache__", "widgets"}  # the text (its
# bibliography too), and the components' own code


class Uncacheable(Exception):
    """A figure input we cannot hash faithfully: the figure is always redrawn."""


# a package installed under another name than it is imported by (pip writes the name normalized: pyyaml-6.0.dist-info)
DISTRIBUTIONS = {"yaml": "pyyaml", "markdown_it": "markdown_it_py", "sklearn": "scikit_learn", "PIL": "pillow",
                 "skimage": "scikit_image", "cv2": "opencv_python", "bs4": "beautifulsoup4"}   # (dist-info names)


@functools.lru_cache(maxsize=None)
def package_version(name: str) -> str:
    """A package's version without importing it (importing matplotlib is what the cache saves); looked up once per
    process, as the engine's own code is (a build asks for the same few packages' versions many times)."""
    module = sys.modules.get(name)
    if module is not None and hasattr(module, "__version__"):
        return str(module.__version__)
    spec = importlib.util.find_spec(name)
    distribution = DISTRIBUTIONS.get(name, name)
    if spec is not None and spec.origin:
        package_dir = Path(spec.origin).parent
        prefix, suffix = f"{distribution}-".lower(), ".dist-info"            # by pip: name-1.2.3.dist-info
        for info in _folder_names(package_dir.parent):
            if info.lower().startswith(prefix) and info.endswith(suffix) and len(info) >= len(prefix) + len(suffix):
                return info[len(prefix):-len(suffix)]
        for candidate in ("_version.py", "version.py"):
            try:
                text = (package_dir / candidate).read_text(encoding="utf-8")
            except OSError:
                continue
            m = re.search(r"^(?:__version__|version)\s*(?::\s*str\s*)?=\s*['\"]([^'\"]+)['\"]", text, re.M)
            if m:
                return m.group(1)
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "absent"


@functools.lru_cache(maxsize=None)
def _folder_names(folder: Path) -> tuple[str, ...]:
    """The names in a folder (site-packages), sorted, listed once per process for every package looked up there."""
    try:
        return tuple(sorted(os.listdir(folder)))
    except OSError:
        return ()


def _lesson_files(folder: Path):
    """(path in the folder, file) of what a lesson's values and figures are made from: lesson.py and its data files
    — not its text (lesson.md, lesson.yaml) nor its components (widgets/) — in a fixed order."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and not (set(rel.parts) & SKIPPED_IN_LESSON) and path.suffix != ".pyc":
            yield rel.as_posix(), path


def lesson_data_files(folder: Path) -> dict[str, str]:
    """A lesson's data files, by path in its folder, each its bytes' SHA-256 (what lesson_files_digest(code=False)
    hashes, one by one: a cell lesson's cells are keyed on those they name, compute/cellsteps.py)."""
    return {rel: hashlib.sha256(path.read_bytes()).hexdigest() for rel, path in _lesson_files(folder)
            if rel != "lesson.py"}


def lesson_files_digest(folder: Path, cache: Store | None = None, code: bool = True) -> str:
    """Hash of what a lesson's values and figures are made from (_lesson_files): lesson.py as code (its syntax tree,
    so editing a comment or blank lines changes nothing) and its data files. With a `cache`, the tree's digest is
    kept for the file's bytes (parsing takes a while). `code=False`: the data files alone (a figure cell's key holds
    its own code: compute/cellrun.py)."""
    h = hashlib.sha256()
    for rel, path in _lesson_files(folder):
        if rel == "lesson.py" and not code:
            continue
        data = path.read_bytes()
        if rel == "lesson.py":
            data = _code_shape(data, cache).encode()
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def _code_shape(source: bytes, cache: Store | None = None) -> str:
    """Digest of Python source as the interpreter runs it: its syntax tree without positions (comments and layout
    gone), for this Python; of its bytes when it does not parse (its problem is reported)."""
    key = _code_shape_key(source)
    saved = cache.get_pickle(PAGES, key) if cache is not None else None
    if isinstance(saved, str):
        return saved
    import ast

    from .pysource import parse
    try:
        shape = ast.dump(parse(source.decode("utf-8")), include_attributes=False).encode("utf-8")
    except (SyntaxError, ValueError):
        shape = b"unparsed\0" + source
    digest = hashlib.sha256(shape).hexdigest()
    if cache is not None:
        cache.put_pickle(PAGES, key, digest)
    return digest


def _code_shape_key(source: bytes) -> str:
    return hashlib.sha256(f"{CACHE_FORMAT} code shape\0{sys.version}\0".encode() + source).hexdigest()


def code_shape_entries(folder: Path) -> list[str]:
    """The store entry lesson_files_digest keeps the shape of the lesson's lesson.py in, if it has one."""
    try:
        return [PAGES.entry(_code_shape_key((folder / 'lesson.py').read_bytes()))]
    except OSError:
        return []


def folder_digest(folder: Path, leave_out: tuple[str, ...] = ()) -> str:
    """Every file under `folder` (paths and bytes), caches and the files `leave_out` names (relative paths) left
    out: what a page made from it depends on."""
    h = hashlib.sha256()
    for rel, path in _files_under(folder):
        if not rel.endswith(".pyc") and rel not in leave_out:
            data = _read(path)
            h.update(f"{rel}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def _files_under(folder: Path) -> list[tuple[str, str]]:
    """(relative POSIX path, path) of every file under `folder` (symbolic links followed), none in a __pycache__, in
    path order (as sorted Paths: part by part). os.scandir and plain strings: a folder entry knows whether it is a
    file or a folder without asking the file system again. A build lists the engine, the theme and each lesson for
    its keys; the engine's folder took ≈3 ms with os.walk and a check of each file, ≈0.9 ms so."""
    found: list[tuple[str, str]] = []

    def visit(path: str, under: str) -> None:
        try:
            with os.scandir(path) as listing:
                entries = list(listing)
        except OSError:  # an unreadable folder is left out, as os.walk leaves it
            return
        for entry in entries:
            if entry.is_dir():
                if entry.name != "__pycache__":
                    visit(entry.path, f"{under}{entry.name}/")
            elif entry.is_file():
                found.append((under + entry.name, entry.path))
    visit(os.fspath(folder), "")
    return sorted(found, key=lambda item: item[0].split("/"))


def _read(path: str) -> bytes:
    with open(path, "rb") as f:  # (not Path.read_bytes: a build reads a few hundred files for its keys)
        return f.read()


SECTION_FORMAT = "lessonkit-section-2"  # 2: lesson.yaml's fields kept too, an entry's rendering as plain data


class SectionInputs(Record):
    """Everything one rendered part of a lesson page (render/sectionmemo.py: a lesson.md section, lesson.yaml's
    fields) is made from, each part a digest or a canonical text; the key hashes them all. A part left out would be
    a silently wrong page."""
    shared: str      # what every page is made from (incremental.shared_inputs): the engine's code and packages,
                     # the theme (templates, words, components), site.yaml (language), glossary.yaml, references.bib,
                     # every lesson's title, sections, figure and equation numbers (links), the edition and releases
    lesson: str      # its lesson: slug, folder, and every file there but lesson.md (lesson.py and its data: the
                     # values and figure captions; lesson.yaml: its fields and self-checks; its components, its
                     # references.bib)
    numbering: str   # the lesson's plan (load/plan.py): figure and equation numbers, every placement in reading order
    release: str     # the lesson's release and the edition: answers shown, a draft, teacher, LMS
    state: str       # what the parts before it left (the page's Ledger): widgets, checks and code placed,
                     # glossary terms met and marked, citations placed
    part: str        # the part itself: a section's id, number, title, first line and parsed blocks (text and
                     # lines); for lesson.yaml's fields, their name (their text is in `lesson`)


def section_key(inputs: SectionInputs) -> str:
    h = hashlib.sha256(f"{SECTION_FORMAT}\0".encode())
    for name, value in zip(inputs._fields, inputs):
        h.update(f"{name}\0{len(value)}\0{value}\0".encode())
    return h.hexdigest()


def engine_digest() -> str:
    """What of lessonkit shapes a figure: the format of this cache, the engine's code, numpy and matplotlib."""
    h = hashlib.sha256(CACHE_FORMAT.encode())
    h.update(engine_source_digest(FIGURE_ENGINE).encode())
    h.update(f"numpy {package_version('numpy')} matplotlib {package_version('matplotlib')}".encode())
    return h.hexdigest()


def values_key(lesson_files: str) -> str:
    """Key of a lesson's values and widget data: they are a function of its code and data files (lesson.md and
    lesson.yaml cannot change them), of the engine's code that runs them, and of the Python and numpy versions."""
    h = hashlib.sha256(f"{CACHE_FORMAT} values\0{sys.version}\0numpy {package_version('numpy')}\0".encode())
    h.update(engine_source_digest(FIGURE_ENGINE).encode())
    h.update(lesson_files.encode())
    return h.hexdigest()


def cell_run_key(lesson_files: str, text: str, style: dict[str, Any]) -> str:
    """Key of a cell lesson's run: what values_key holds (its code's syntax tree, its data files, the engine,
    Python, numpy), lesson.py's text (a cell's header is a comment: its caption and options), the installed
    versions of what its cells import, and the figures' settings its figure cells draw with."""
    h = hashlib.sha256(cell_base_key(lesson_files, text, style).encode())
    h.update(text.encode("utf-8"))
    return h.hexdigest()


def cell_base_key(lesson_files: str, text: str, style: dict[str, Any]) -> str:
    """What every cell of a cell lesson runs with, its cells aside: `lesson_files` (its data files alone, for the
    keys of its cells one by one: compute/cellsteps.py), the engine, Python, numpy, the versions of what `text`
    imports, the figures' settings."""
    h = hashlib.sha256(f"{values_key(lesson_files)}\0cells\0".encode())
    for module in sorted({name.partition(".")[0] for name in imported_modules(text)}):
        h.update(f"\0{module} {package_version(module)}".encode())
    h.update(repr(sorted((str(k), repr(v)) for k, v in style.items())).encode())
    return h.hexdigest()


def figure_key(engine: str, lesson_files: str, font, name: str, inputs: list[Any]) -> str:
    """`font`: the figures' support.font.FontChoice. Raises Uncacheable when an input cannot be hashed faithfully."""
    h = hashlib.sha256()
    h.update(f"{engine}\0{lesson_files}\0{font.family}\0{font.file}\0{tuple(font.stat)}\0{name}\0".encode())
    for value in inputs:
        feed_value(h, value)
    return h.hexdigest()


def feed_value(h, value: Any) -> None:
    """Feed a canonical, type-tagged encoding of `value` into hash `h`: equal encodings ⇔ equal values."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        h.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__}[{len(value)}:".encode())
        for item in value:
            feed_value(h, item)
        h.update(b"]")
    elif isinstance(value, dict):
        h.update(f"dict{{{len(value)}:".encode())
        for key in sorted(value, key=repr):
            feed_value(h, key)
            feed_value(h, value[key])
        h.update(b"}")
    elif isinstance(value, (set, frozenset)):
        h.update(f"{type(value).__name__}{{{len(value)}:".encode())
        for item in sorted(value, key=repr):
            feed_value(h, item)
        h.update(b"}")
    elif type(value).__module__ == "numpy" and hasattr(value, "dtype") and hasattr(value, "tobytes"):
        _feed_numpy(h, value)
    elif hasattr(type(value), "__dataclass_fields__"):  # a dataclass instance (dataclasses.is_dataclass)
        import dataclasses  # (imported only here: a build whose figures take no dataclass does not need it)

        h.update(f"dataclass {type(value).__module__}.{type(value).__qualname__}(".encode())
        for f in dataclasses.fields(value):
            h.update(f"{f.name}=".encode())
            feed_value(h, getattr(value, f.name))
        h.update(b")")
    else:
        raise Uncacheable(f"cannot hash a {type(value).__module__}.{type(value).__qualname__}")


def _feed_numpy(h, value) -> None:
    """ndarray or numpy scalar: dtype, shape and raw bytes (C order); object arrays go through their items."""
    import numpy as np

    array = np.asarray(value)
    h.update(f"numpy {type(value).__name__} {array.dtype!r} {array.shape}:".encode())
    if array.dtype.hasobject:
        feed_value(h, array.tolist())
    else:
        h.update(np.ascontiguousarray(array).tobytes())
    h.update(b";")
