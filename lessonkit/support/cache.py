"""Figure and value cache: a figure is redrawn, a value recomputed, only when something it depends on changed.

The key of a figure is a SHA-256 over everything its drawing depends on:
  - the lesson folder's code and data files (lesson.py and anything beside it except lesson.md / lesson.yaml): a safe
    over-approximation of "the figure function and the helpers it calls";
  - the figure's input values (numpy arrays by dtype, shape and bytes; other values by a canonical encoding);
  - lessonkit/figures.py (style(), FigureMaker, the SVG cleaning) and this file's CACHE_FORMAT;
  - the numpy and matplotlib versions;
  - the font family and the (path, size, mtime) of the font file matplotlib draws it from.
A lesson's values and widget data are keyed by its code and data files, compute.py, Python and numpy (values/<key>.pickle).
Lesson code is assumed deterministic: no unseeded randomness, no network, no clock, no files outside its folder;
`--no-cache` computes and draws everything afresh.

A component script's check (features.scriptcheck: its syntax and registrations) is kept by a key over its bytes,
its folder's name, the engine's code and the JavaScript grammar's version (scripts/<key>.json), so a warm build never
imports the parser.

Features keep what would otherwise import a library on every build: highlighted code (highlight-<pygments>.json),
a parsed bibliography (references/<key>.json, keyed by the file's bytes) and each lesson's notebook
(notebooks/<key>.ipynb, keyed by everything it is made of).

The font itself is cached too (font.json), keyed by a fingerprint of the installed font files, so a build whose
figures are all cached never imports matplotlib. Before a cached font is trusted, its file must still exist unchanged.

Pruning: reading an entry touches it (its mtime becomes "last used"; atime is unreliable, often off), writing one is a
use too. After every successful build `prune` removes the entries no build used for PRUNE_AFTER_DAYS days, then, while
the cache is over MAX_CACHE_BYTES, the least recently used — never one the build that just ran used.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import json
import os
import pickle
import re
import stat
import sys
from pathlib import Path
from typing import Any

CACHE_FORMAT = "lessonkit-figure-cache-3"  # 2: the plotted data beside each SVG; 3: and its dark palette
ENGINE_DIR = Path(__file__).parents[1]
PRUNE_AFTER_DAYS = 30                 # an entry no build used for this long is removed after the next build
MAX_CACHE_BYTES = 200 * 1024 * 1024   # above this, least recently used entries go first


FIGURE_ENGINE = ("compute", "draw", "features", "support")  # the packages whose code shapes values and figures


@functools.lru_cache(maxsize=None)
def engine_source_digest(packages: tuple[str, ...] | None = None) -> str:
    """The engine's code: every module of lessonkit, or only those of `packages`. Values and figures are shaped by
    FIGURE_ENGINE (lesson code may call its helpers, e.g. format_value for figure labels; compute runs it, draw makes
    the SVG); editing the preview server or a template redraws nothing. Pages depend on all of it."""
    h = hashlib.sha256()
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        rel = path.relative_to(ENGINE_DIR)
        if packages is None or rel.parts[0] in packages:
            h.update(rel.as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


SKIPPED_IN_LESSON = {"lesson.md", "lesson.yaml", "references.bib", "__pycache__", "widgets"}  # the text (its
# bibliography too), and the components' own code
# Where matplotlib (via fontconfig or its own directory scan) finds fonts on Linux, macOS and Windows.
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/usr/lib/X11/fonts", "/usr/X11R6/lib/X11/fonts",
             "~/.fonts", "~/.local/share/fonts", "/Library/Fonts", "/System/Library/Fonts", "~/Library/Fonts",
             os.path.join(os.environ.get("WINDIR", "C:/Windows"), "Fonts"),
             os.path.join(os.environ.get("LOCALAPPDATA", "~"), "Microsoft/Windows/Fonts"))


class Uncacheable(Exception):
    """A figure input we cannot hash faithfully: the figure is always redrawn."""


@dataclasses.dataclass(frozen=True)
class FontChoice:
    family: str
    file: str            # the font file matplotlib draws the family from
    stat: tuple[int, int]  # its (size, mtime_ns) when the choice was made

    def still_installed(self) -> bool:
        return _stat(self.file) == tuple(self.stat)


class FigureCache:
    """SVGs by key in `folder/figures/`, the chosen font in `folder/font.json`. `folder=None` disables caching."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def get_figure(self, key: str) -> tuple[str, dict, dict] | None:
        """A drawn figure: its SVG (key.svg) and beside it (key.json) the numbers it plots (features.figdata) and
        its colours' dark counterparts (features.palette); None unless both files are whole."""
        if not self.enabled:
            return None
        svg_path, json_path = self.folder / "figures" / f"{key}.svg", self.folder / "figures" / f"{key}.json"
        try:
            svg = svg_path.read_text(encoding="utf-8")
            saved = json.loads(json_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return None
        if not isinstance(saved, dict) or not isinstance(saved.get("data"), dict) \
                or not isinstance(saved.get("palette"), dict):
            return None
        touch(svg_path)
        touch(json_path)
        return svg, saved["data"], saved["palette"]

    def put_figure(self, key: str, svg: str, data: dict, palette: dict) -> None:
        if self.enabled:
            _write_atomic(self.folder / "figures" / f"{key}.json",
                          json.dumps({"data": data, "palette": palette}, ensure_ascii=False, sort_keys=True))
            _write_atomic(self.folder / "figures" / f"{key}.svg", svg)

    def get_png(self, key: str) -> bytes | None:
        """The figure as a PNG picture (draw/raster.py), drawn by a build that asked for pictures (the slides)."""
        if not self.enabled:
            return None
        path = self.folder / "figures" / f"{key}.png"
        try:
            data = path.read_bytes()
        except OSError:
            return None
        touch(path)
        return data

    def put_png(self, key: str, picture: bytes) -> None:
        if self.enabled:
            _write_atomic(self.folder / "figures" / f"{key}.png", picture)

    def get_data(self, key: str) -> dict | None:
        if not self.enabled:
            return None
        try:
            data = json.loads((self.folder / "figures" / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def get_values(self, key: str) -> Any | None:
        """A lesson's computed values as an earlier build pickled them (our own file, as trusted as lesson.py).
        Call after the lesson module is loaded: pickles of its classes refer to it by module name."""
        if not self.enabled:
            return None
        path = self.folder / "values" / f"{key}.pickle"
        try:
            with open(path, "rb") as f:
                data = pickle.load(f)
        except Exception:  # missing, truncated or from classes that changed: compute afresh
            return None
        touch(path)
        return data

    def put_values(self, key: str, data: Any) -> None:
        if not self.enabled:
            return
        try:
            blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # a value pickle cannot store (a lambda, an open file): never cached, always computed
            return
        _write_atomic(self.folder / "values" / f"{key}.pickle", blob)

    def get_page(self, key: str) -> Any | None:
        """A page (or a set of pages) as an earlier build wrote it from the same inputs (lessonkit/incremental.py)."""
        return self._get_pickle("pages", key)

    def put_page(self, key: str, record: Any) -> None:
        self._put_pickle("pages", key, record)

    def _get_pickle(self, folder: str, key: str) -> Any | None:
        if not self.enabled:
            return None
        path = self.folder / folder / f"{key}.pickle"
        try:
            with open(path, "rb") as f:
                data = pickle.load(f)
        except Exception:  # missing, truncated or from classes that changed: made afresh
            return None
        touch(path)
        return data

    def _put_pickle(self, folder: str, key: str, data: Any) -> None:
        if not self.enabled:
            return
        try:
            blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return
        _write_atomic(self.folder / folder / f"{key}.pickle", blob)

    def get_math(self) -> dict[str, str]:
        """LaTeX → MathML conversions of earlier builds, for this latex2mathml version (so a warm build need not
        import it)."""
        if not self.enabled:
            return {}
        try:
            memo = json.loads(self._math_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        touch(self._math_file())
        return memo

    def put_math(self, memo: dict[str, str]) -> None:
        if self.enabled:
            _write_atomic(self._math_file(), json.dumps(memo, ensure_ascii=False, sort_keys=True))

    def get_script_verdict(self, key: str) -> list | None:
        """What features.scriptcheck found in a component script with this key (a list of faults, maybe empty)."""
        if not self.enabled:
            return None
        path = self.folder / "scripts" / f"{key}.json"
        try:
            verdict = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(verdict, list):
            return None
        touch(path)
        return verdict

    def put_script_verdict(self, key: str, verdict: list) -> None:
        if self.enabled:
            _write_atomic(self.folder / "scripts" / f"{key}.json", json.dumps(verdict, ensure_ascii=False))

    def get_record(self, kind: str, key: str) -> Any | None:
        """A feature's plain JSON result kept by the key of its inputs (`kind`/<key>.json: a parsed bibliography)."""
        if not self.enabled:
            return None
        path = self.folder / kind / f"{key}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        touch(path)
        return data

    def put_record(self, kind: str, key: str, data: Any) -> None:
        if self.enabled:
            _write_atomic(self.folder / kind / f"{key}.json", json.dumps(data, ensure_ascii=False, sort_keys=True))

    def get_file(self, kind: str, name: str) -> str | None:
        """A file a feature made, kept under its key (`kind`/<key>.<ext>: a lesson's notebook)."""
        if not self.enabled:
            return None
        path = self.folder / kind / name
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        touch(path)
        return text

    def put_file(self, kind: str, name: str, text: str) -> None:
        if self.enabled:
            _write_atomic(self.folder / kind / name, text)

    def get_highlights(self) -> dict[str, str]:
        """Code highlighted by earlier builds (features.code: "language NUL code" → HTML), for this Pygments version
        (so a warm build need not import it)."""
        if not self.enabled:
            return {}
        try:
            memo = json.loads(self._highlight_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        touch(self._highlight_file())
        return memo if isinstance(memo, dict) else {}

    def put_highlights(self, memo: dict[str, str]) -> None:
        if self.enabled:
            _write_atomic(self._highlight_file(), json.dumps(memo, ensure_ascii=False, sort_keys=True))

    def _highlight_file(self) -> Path:
        return self.folder / f"highlight-{package_version('pygments')}.json"

    def _math_file(self) -> Path:
        return self.folder / f"mathml-{package_version('latex2mathml')}.json"

    def font(self) -> FontChoice | None:
        """The font chosen by an earlier build, if the installed fonts did not change since (looked at once)."""
        if not self.enabled:
            return None
        if not hasattr(self, "_font"):
            self._font = self._saved_font()
        return self._font

    def _saved_font(self) -> FontChoice | None:
        try:
            saved = json.loads((self.folder / "font.json").read_text(encoding="utf-8"))
            choice = FontChoice(saved["family"], saved["file"], tuple(saved["stat"]))
        except (FileNotFoundError, ValueError, KeyError, TypeError):
            return None
        if saved.get("fingerprint") != font_fingerprint() or not choice.still_installed():
            return None
        touch(self.folder / "font.json")
        return choice

    def put_font(self, choice: FontChoice) -> None:
        self._font = choice
        if self.enabled:
            record = {**dataclasses.asdict(choice), "fingerprint": font_fingerprint()}
            _write_atomic(self.folder / "font.json", json.dumps(record, ensure_ascii=False, indent=1))


def touch(path: Path | str) -> None:
    """Mark a cache entry as used now (its mtime): what `prune` keeps."""
    try:
        os.utime(path)
    except OSError:
        pass


# what prune may remove, by folder: lessonkit's own entries only, whatever else a --cache-dir folder holds stays
PRUNABLE = {"figures": re.compile(r"[0-9a-f]{64}\.(?:svg|json|png)"), "values": re.compile(r"[0-9a-f]{64}\.pickle"),
            "scripts": re.compile(r"[0-9a-f]{64}\.json"), "references": re.compile(r"[0-9a-f]{64}\.json"),
            "notebooks": re.compile(r"[0-9a-f]{64}\.ipynb"),
            "pages": re.compile(r"[0-9a-f]{64}\.pickle"),
            "templates": re.compile(r"__jinja2_.+\.cache"),
            "": re.compile(r"mathml-.+\.json|highlight-.+\.json|font\.json")}
STALE_TMP = re.compile(r"\..+\.\d+\.tmp")   # left by a build killed while writing (see _write_atomic)


@dataclasses.dataclass
class Pruned:
    files: int = 0
    bytes: int = 0
    kept_bytes: int = 0


def prune(folder: Path, now: float, used_since: float, max_age_days: float = PRUNE_AFTER_DAYS,
          max_bytes: int = MAX_CACHE_BYTES) -> Pruned:
    """Remove the entries last used (mtime) more than `max_age_days` before `now`, then the least recently used
    until the cache holds at most `max_bytes` — never an entry used at or after `used_since` (by the build that just
    ran: it needs them next time too, so only what it uses may exceed the cap)."""
    entries: list[tuple[float, int, Path]] = []
    for sub, pattern in PRUNABLE.items():
        try:
            names = os.listdir(folder / sub)
        except OSError:
            continue
        for name in names:
            if not (pattern.fullmatch(name) or STALE_TMP.fullmatch(name)):
                continue
            path = folder / sub / name
            try:
                st = path.stat()
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            stale_tmp = STALE_TMP.fullmatch(name) and st.st_mtime < now - 86400
            entries.append((float("-inf") if stale_tmp else st.st_mtime, st.st_size, path))
    result = Pruned()

    def remove(size: int, path: Path) -> None:
        try:
            path.unlink()
        except OSError:
            return
        result.files += 1
        result.bytes += size
    cutoff = now - max_age_days * 86400
    kept = []
    for mtime, size, path in sorted(entries, key=lambda e: (e[0], str(e[2]))):
        if mtime < cutoff and mtime < used_since:
            remove(size, path)
        elif not STALE_TMP.fullmatch(path.name):
            kept.append((mtime, size, path))
    total = sum(size for _, size, _ in kept)
    for mtime, size, path in kept:              # oldest first
        if total <= max_bytes or mtime >= used_since:
            break
        remove(size, path)
        total -= size
    result.kept_bytes = total
    return result


def _write_atomic(path: Path, data: str | bytes) -> None:
    """Write a cache entry whole or not at all. The cache only saves time: a full disk or a read-only cache folder
    leaves the entry out (the next build makes it again), it does not stop the build."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def _stat(path: str) -> tuple[int, int] | None:
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
                h.update(f"{full}\0{_stat(full)}\n".encode())
    return h.hexdigest()


def package_version(name: str) -> str:
    """A package's version without importing it (importing matplotlib is what the cache saves)."""
    module = sys.modules.get(name)
    if module is not None and hasattr(module, "__version__"):
        return str(module.__version__)
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.origin:
        package_dir = Path(spec.origin).parent
        for info in sorted(package_dir.parent.glob(f"{name}-*.dist-info")):  # installed by pip: name-1.2.3.dist-info
            return info.name[len(name) + 1:-len(".dist-info")]
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
        return version(name)
    except PackageNotFoundError:
        return "absent"


def lesson_files_digest(folder: Path, cache: "FigureCache | None" = None, code: bool = True) -> str:
    """Hash of what a lesson's values and figures are made from: lesson.py as code (its syntax tree, so editing a
    comment or blank lines changes nothing) and its data files — not its text (lesson.md, lesson.yaml) nor its
    components (widgets/). With a `cache`, the tree's digest is kept for the file's bytes (parsing takes a while).
    `code=False`: the data files alone (a figure cell's key holds its own code: compute/cellrun.py)."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not code and rel.as_posix() == "lesson.py":
            continue
        if path.is_file() and not (set(rel.parts) & SKIPPED_IN_LESSON) and path.suffix != ".pyc":
            data = path.read_bytes()
            if rel.as_posix() == "lesson.py":
                data = _code_shape(data, cache).encode()
            h.update(f"{rel.as_posix()}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def _code_shape(source: bytes, cache: "FigureCache | None" = None) -> str:
    """Digest of Python source as the interpreter runs it: its syntax tree without positions (comments and layout
    gone), for this Python; of its bytes when it does not parse (its problem is reported)."""
    key = _code_shape_key(source)
    saved = cache.get_page(key) if cache is not None else None
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
        cache.put_page(key, digest)
    return digest


def _code_shape_key(source: bytes) -> str:
    return hashlib.sha256(f"{CACHE_FORMAT} code shape\0{sys.version}\0".encode() + source).hexdigest()


def code_shape_entries(folder: Path) -> list[str]:
    """The cache entry lesson_files_digest keeps the lesson's lesson.py in (relative path), if it has one."""
    try:
        return [f"pages/{_code_shape_key((folder / 'lesson.py').read_bytes())}.pickle"]
    except OSError:
        return []


def folder_digest(folder: Path) -> str:
    """Every file under `folder` (paths and bytes), caches left out: what a page made from it depends on."""
    h = hashlib.sha256()
    if folder.is_dir():
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder)
            if path.is_file() and "__pycache__" not in rel.parts and path.suffix != ".pyc":
                data = path.read_bytes()
                h.update(f"{rel.as_posix()}\0{len(data)}\0".encode())
                h.update(data)
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


def figure_key(engine: str, lesson_files: str, font: FontChoice, name: str, inputs: list[Any]) -> str:
    """Raises Uncacheable when an input cannot be hashed faithfully."""
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
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
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
