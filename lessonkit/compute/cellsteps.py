"""A lesson written as cells, kept cell by cell: an edit of cell k runs k and the cells after it, from the namespace
kept after the cell before — never a cell before k, never a stale value.

Each code cell has a key that chains: the key before it (the first: the versions of what the cells import, the
figures' settings and the data files no cell names — support/cachekeys.py cell_base_key) and the cell itself (its
header, its line, its code, and the data files it names: an edited data file runs the cells from the first that
names it). After a cell ran, its step is kept (CELL_STEPS): what it printed and showed, its figure, and the
namespace as it left it — each value pickled and kept by its content (CELL_DATA: an array no cell changed is kept
once), a module by its name; a name an import or a `def`/`class` of the cells bound is *replayed*: those statements
run again on restore, in order. Anything else — a figure or axes, an open file, a generator — is a *dropped* name: a
resume from that step is allowed only if no cell after it reads the name before binding it again (nor does a
function defined before it mention it), else an earlier step is taken. A lesson whose cells make a `Lesson`
registry is not kept by step (Steps.makes_a_registry).

    Steps(cache, path, cells, base)   keys of the cells; resume(namespace, changes) → (first cell to run,
                                      the kept steps before it); keep(index, …) after a cell ran
"""
from __future__ import annotations

import ast
import hashlib
import importlib
import io
import pickle
import sys
import types
from pathlib import Path
from typing import Any

from ..load.cells import Cell, names_bound, names_read
from ..support.records import Record
from ..support.store import CELL_DATA, CELL_STEPS, Store

STEP_FORMAT = "lessonkit-cell-step-1"


class Step(Record):
    """One code cell as it ran: what the rest of the build reads of it, and the namespace after it."""
    printed: str
    result: Any                              # its last line's value as the page shows it (or None)
    figure: Any                              # a figure cell's CellFigure (its figure pickled), else None
    names: dict[str, tuple[str, str]]        # name → ("module", module) | ("replayed", name) | ("data", content key)
    dropped: frozenset[str]                  # names it left that cannot be kept
    changes: tuple[dict, dict]               # cellrun.Changes' digests and cells after it
    process: dict[str, Any]                  # the state outside the namespace a later cell reads (process_state)


def step_keys(base: str, cells: list[Cell], files: dict[str, str] | None = None) -> list[str | None]:
    """Each cell's key (None for a Markdown cell, which never runs), chained from `base`, with the data `files`
    (path → digest) its code names (nothing else reads them before it, or it would name them: see data_split)."""
    keys, before = [], base
    for cell in cells:
        if cell.kind == "markdown":
            keys.append(None)
            continue
        h = hashlib.sha256(f"{STEP_FORMAT}\0{before}\0{cell.kind}\0{cell.name}\0{sorted(cell.options.items())!r}\0"
                           f"{cell.first}\0".encode())
        h.update(cell.body.encode("utf-8"))
        for path in _named(cell, files or {}):
            h.update(f"\0{path} {files[path]}".encode())
        before = h.hexdigest()
        keys.append(before)
    return keys


def data_split(cells: list[Cell], files: dict[str, str]) -> dict[str, str]:
    """The data files no cell names (by its path in the lesson folder or its file name): read some other way (a
    pattern, a computed name), they belong to every cell's key."""
    named = {path for cell in cells if cell.kind != "markdown" for path in _named(cell, files)}
    return {path: digest for path, digest in files.items() if path not in named}


def _named(cell: Cell, files: dict[str, str]) -> list[str]:
    return [path for path in files if path in cell.body or path.rpartition("/")[2] in cell.body]


class Steps:
    def __init__(self, cache: Store, path: Path, cells: list[Cell], base: str, files: dict[str, str] | None = None):
        self.cache, self.path, self.cells = cache, path, cells
        self.keys = step_keys(base, cells, files)
        # each code cell parsed once, at its own lines (an error in a replayed `def` names lesson.py's line)
        self.trees = {i: ast.parse("\n" * (cell.first - 1) + cell.body, str(path)) for i, cell in enumerate(cells)
                      if cell.kind != "markdown"}

    def makes_a_registry(self) -> bool:
        """Whether a cell calls `Lesson(…)`: the decorator API's registry holds the cells' functions, and is only
        right when every cell that fed it ran (such a lesson is kept whole, never by step)."""
        return any(isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Lesson"
                   for tree in self.trees.values() for node in ast.walk(tree))

    # ── restore ───────────────────────────────────────────────────────────────────────────────────────────────────
    def resume(self, namespace: dict[str, Any], changes) -> tuple[int, dict[int, Step]]:
        """(index of the first cell to run, the kept steps of the cells before it), the namespace restored as the
        last of those left it; (0, {}) when nothing can be taken."""
        kept: dict[int, Step] = {}
        for index, key in enumerate(self.keys):
            if key is None:
                continue
            step = self.cache.get_pickle(CELL_STEPS, key)
            if not isinstance(step, Step):
                break
            kept[index] = step
        for last in sorted(kept, reverse=True):
            if kept[last].dropped & self._read_after(last):
                continue
            if self._restore(kept[last], last, namespace):
                changes.digests, changes.cells = (dict(part) for part in kept[last].changes)
                return last + 1, {i: s for i, s in kept.items() if i <= last}
            break
        return 0, {}

    def _read_after(self, index: int) -> set[str]:
        """The names the cells after `index` read before one of them binds them again, and every name the functions
        and classes defined up to `index` mention (a later cell may call them)."""
        read: set[str] = set()
        bound: set[str] = set()
        for i, tree in self.trees.items():
            if i > index:
                read |= set(names_read(self.cells[i], tree)) - bound
                bound |= names_bound(tree)
            else:
                read |= {n.id for d in tree.body if isinstance(d, DEFINITIONS) for n in ast.walk(d)
                         if isinstance(n, ast.Name)}
        return read

    def _restore(self, step: Step, index: int, namespace: dict[str, Any]) -> bool:
        """The namespace as cell `index` left it: its imports and definitions run again, in order, then its values
        unpickled. False (the namespace left as it was made) when that cannot be done."""
        try:
            for i in (i for i in self.trees if i <= index):
                replayed = [node for node in self.trees[i].body if isinstance(node, REPLAYED)]
                exec(compile(ast.Module(replayed, type_ignores=[]), str(self.path), "exec"), namespace)
            restored = {}
            for name, (kind, what) in step.names.items():
                if kind == "module":
                    restored[name] = importlib.import_module(what)
                elif kind == "replayed":
                    restored[name] = namespace[what]
                else:
                    data = self.cache.get_bytes(CELL_DATA, what)
                    if data is None:
                        raise LookupError(what)
                    restored[name] = _Unpickler(io.BytesIO(data), namespace).load()
        except Exception:   # (a definition that needs a value first, a module gone: the cells run from the start,
            for name in [n for n in namespace if not n.startswith("__")]:   # in a namespace as new as it was)
                del namespace[name]
            return False
        for name in [n for n in namespace if not n.startswith("__") and n not in restored]:
            del namespace[name]
        namespace.update(restored)
        restore_process_state(step.process)
        return True

    def _imported_names(self, index: int) -> dict[str, tuple[str, str]]:
        """name → (module, attribute) of the top-level `from module import attribute` statements of the cells up to
        `index` (those a restore replays)."""
        return {a.asname or a.name: (node.module, a.name) for i, tree in self.trees.items() if i <= index
                for node in tree.body if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                for a in node.names if a.name != "*"}

    # ── keep ─────────────────────────────────────────────────────────────────────────────────────────────────────
    def keep(self, index: int, namespace: dict[str, Any], printed: str, result: Any, figure: Any, changes) -> None:
        """Cell `index` ran: its step kept, its values by their content."""
        names, dropped = {}, set()
        module_name = namespace.get("__name__")
        imported = self._imported_names(index)
        for name, value in namespace.items():
            if name.startswith("__"):
                continue
            source = imported.get(name)
            if source is not None and getattr(sys.modules.get(source[0]), source[1], None) is value:
                names[name] = ("replayed", name)   # (`from matplotlib import rcParams`: the import binds it again)
                continue
            kind = _reference(value, namespace, module_name)
            if kind is not None:
                names[name] = kind
                continue
            data = _pickled(value, namespace, module_name)
            if data is None:
                dropped.add(name)
                continue
            key = hashlib.sha256(data).hexdigest()
            if self.cache.digest(CELL_DATA, key) is None:
                self.cache.put_bytes(CELL_DATA, key, data)
            names[name] = ("data", key)
        step = Step(printed, result, figure, names, frozenset(dropped),
                    (dict(changes.digests), {k: list(v) for k, v in changes.cells.items()}), process_state())
        self.cache.put_pickle(CELL_STEPS, self.keys[index], step)


def process_state() -> dict[str, Any]:
    """What a cell can set outside its namespace that a later cell's output depends on: the random generators'
    states (`np.random.seed`, `random.seed`), numpy's print options and matplotlib's settings."""
    import random

    state: dict[str, Any] = {"random": random.getstate()}
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        state["numpy.random"] = numpy.random.get_state()
        state["numpy.print"] = numpy.get_printoptions()
    matplotlib = sys.modules.get("matplotlib")
    if matplotlib is not None:
        state["matplotlib"] = {k: v for k, v in matplotlib.rcParams.items() if k != "backend"}
    return state


def restore_process_state(state: dict[str, Any]) -> None:
    import random

    random.setstate(state["random"])
    if "numpy.random" in state:
        import numpy
        numpy.random.set_state(state["numpy.random"])
        numpy.set_printoptions(**state["numpy.print"])
    if "matplotlib" in state:
        import matplotlib
        matplotlib.rcParams.update(state["matplotlib"])


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
REPLAYED = (ast.Import, ast.ImportFrom, *DEFINITIONS)   # what a restore runs again of the cells before


def _reference(value: Any, namespace: dict[str, Any], module_name: str | None) -> tuple[str, str] | None:
    """A module by its name; a function or class the cells defined at their top level, under its own name, as
    replayed; None for anything else."""
    if isinstance(value, types.ModuleType):
        return ("module", value.__name__) if sys.modules.get(value.__name__) is value else None
    if isinstance(value, (types.FunctionType, type)) and getattr(value, "__module__", None) == module_name:
        own = getattr(value, "__name__", None)
        return ("replayed", own) if own and namespace.get(own) is value and "." not in value.__qualname__ else None
    return None


KEPT_TYPES = (type(None), bool, int, float, complex, str, bytes, bytearray, list, tuple, dict, set, frozenset, range,
              slice, pickle.PickleBuffer)
KEPT_MODULES = ("numpy", "pandas", "collections", "datetime", "decimal", "fractions", "pathlib", "builtins")


def _pickled(value: Any, namespace: dict[str, Any], module_name: str | None) -> bytes | None:
    """The value pickled, when pickling keeps it faithfully: plain data, numpy and pandas objects, instances of
    classes the cells defined, and containers of them; None for anything else."""
    buffer = io.BytesIO()
    pickler = _Pickler(buffer, namespace, module_name)
    try:
        pickler.dump(value)
    except Exception:
        return None
    return buffer.getvalue() if pickler.faithful else None


class _Pickler(pickle.Pickler):
    """Modules by name and the cells' own functions and classes by their names; any object of a type outside the
    kept ones marks the value unfaithful (a figure, axes, a file, a registry)."""

    def __init__(self, file, namespace, module_name):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.namespace, self.module_name, self.faithful = namespace, module_name, True

    def persistent_id(self, obj):
        if isinstance(obj, types.ModuleType):
            return ("module", obj.__name__)
        kind = _reference(obj, self.namespace, self.module_name)
        if kind is not None:
            return kind
        if isinstance(obj, (types.FunctionType, type)) and getattr(obj, "__module__", None) == self.module_name:
            raise pickle.PicklingError("a function or class of the cells' no longer under its name")
        if isinstance(obj, KEPT_TYPES) or isinstance(obj, type) or (callable(obj) and hasattr(obj, "__qualname__")):
            return None   # (plain data; a class or function pickle finds again by its module and name, or fails)
        module = type(obj).__module__
        if module.partition(".")[0] not in KEPT_MODULES and module != self.module_name:
            self.faithful = False
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, namespace):
        super().__init__(file)
        self.namespace = namespace

    def persistent_load(self, pid):
        kind, what = pid
        return importlib.import_module(what) if kind == "module" else self.namespace[what]
