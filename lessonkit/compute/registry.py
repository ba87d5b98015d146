"""The lesson's computations: values, figures and widgets declared in a lesson's ``lesson.py``.

A lesson module creates one ``Lesson()`` registry and decorates plain functions:

    lesson = Lesson()

    @lesson.value
    def decay_96(factor):            # parameters name other values: computed first
        return factor ** 96

    @lesson.figure(caption="…", alt="…")
    def gradient_decay(plt, decay_96):
        fig, ax = plt.subplots()
        …
        return fig

    @lesson.widget
    def mask_table(masks):           # JSON-able data for the component widgets/mask_table/
        return {...}

Values are resolved by name, like pytest fixtures, so the engine knows what every figure depends on.
Data files come from the lesson folder only. Lesson code runs in that folder, as Jupyter runs a notebook in its own:
``open("data.csv")`` and ``np.loadtxt("data/x.txt")`` read the lesson's files, as do ``lesson.read_text("data.csv")``
and ``lesson.path("data.csv")`` (which also refuse a path leading out of the folder).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import inspect
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable

from ..load.lessons import LessonFileMissing, LessonPathError, read_text, resolve_in_lesson
from ..support.errors import ContentError, Problem
from ..support.messages import msg, reason
from ..support.pysource import first_line
from ..support.records import Record


class FigureSpec(Record):
    name: str
    func: Callable
    caption: str
    alt: str
    inputs: tuple[str, ...]
    data: str | None = None          # the value shown as its data table (features.figdata.explicit); None: recorded
    cell: Any = None                 # a figure cell's Cell (compute/cells.py); None: a `@lesson.figure` function

    @property
    def line(self) -> int | None:
        """Where lesson.py declares it: the figure cell's `# %%` line, or the function's first line."""
        return self.cell.line if self.cell is not None else first_line(self.func)

    @property
    def code_name(self) -> str:
        """The name `{{< code NAME >}}` shows it by: the figure cell's, or the function's."""
        return self.cell.name if self.cell is not None else self.func.__name__


class WidgetSpec(Record):
    name: str
    func: Callable
    kind: str | None                 # None: the function's name, unless it returns a builder's result with its own
    inputs: tuple[str, ...]


KIND = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")   # a component folder's name, and `data-widget="KIND"` in a page


class Lesson:
    """Registry a lesson module fills with its decorated functions. Made as `Lesson()`, with nothing to pass: the
    notebook's stand-in (features/notebook_standin.py) has the same public methods with the same parameters
    (tests/test_notebook_standin.py compares them)."""

    def __init__(self) -> None:
        self.values: dict[str, Callable] = {}
        self.figures: dict[str, FigureSpec] = {}
        self.widgets: dict[str, WidgetSpec] = {}
        self.code_path: Path | None = _creating_module_file()

    def path(self, name: str) -> Path:
        """The data file `name` in this lesson's folder; a clear error for a missing file or a path leading out."""
        if self.code_path is None:
            raise RuntimeError("Lesson.path() works in a lesson.py loaded by lessonkit")
        try:
            return resolve_in_lesson(self.code_path.parent, name)
        except LessonPathError as exc:
            message = msg("data file `{name}` not found in the lesson folder", name=name) \
                if isinstance(exc, LessonFileMissing) else msg("data file {what}", what=exc.args[0])
            raise ContentError([Problem(self.code_path, self._caller_line(), message,
                                        exc.args[1])]) from None

    def read_text(self, name: str) -> str:
        """The UTF-8 text of the data file `name` in this lesson's folder."""
        file = self.path(name)
        problems: list[Problem] = []
        text = read_text(file, problems)
        if text is None:
            raise ContentError(problems)
        return text

    def _caller_line(self) -> int | None:
        import traceback  # (where a lesson's mistake is reported: a build imports it only then)

        frames = [f for f in traceback.extract_stack() if Path(f.filename) == self.code_path]
        return frames[-1].lineno if frames else None

    def value(self, func: Callable) -> Callable:
        self.values[func.__name__] = func
        return func

    def figure(self, *, caption: str, alt: str, name: str | None = None, data: str | None = None) -> Callable:
        """A figure placed with `{{< figure NAME >}}`. `data`: the name of a value to show as the figure's data
        table instead of what drawing records from its artists."""
        def register(func: Callable) -> Callable:
            fig_name = name or func.__name__
            self.figures[fig_name] = FigureSpec(fig_name, func, caption, alt, inputs_of(func, skip_first=True), data)
            return func
        return register

    def widget(self, func: Callable | None = None, *, kind: str | None = None) -> Callable:
        """A widget placed with `{{< widget NAME >}}`: its component is `widgets/<kind>/`, kind = the function's
        name unless given (or carried by the builder the function returns: explorer, bars)."""
        def register(f: Callable) -> Callable:
            self.widgets[f.__name__] = WidgetSpec(f.__name__, f, kind, inputs_of(f))
            return f
        return register(func) if func is not None else register


def _creating_module_file() -> Path | None:
    """The lesson.py whose module-level code creates this registry: the nearest caller outside lessonkit whose module
    lessonkit loads (load_lesson_module gives it a `__lessonkit_lesson__` global), so `lesson.path()` works at
    import time; None for a Lesson made anywhere else."""
    frame = sys._getframe(1)
    while frame is not None:
        marker = frame.f_globals.get("__lessonkit_lesson__")
        if marker is not None:
            return marker
        frame = frame.f_back
    return None


def inputs_of(func: Callable, skip_first: bool = False) -> tuple[str, ...]:
    names = list(func.params if isinstance(func, DeferredFunction) else inspect.signature(func).parameters)
    return tuple(names[1:] if skip_first else names)


class DeferredFunction(Record):
    """A function of lesson.py as a kept registry names it (compute/kept.py): its name, first line and parameters,
    and lesson.py itself run only when it is called (`resolve`). `code`: the SHA-256 of lesson.py's bytes."""
    path: Path
    kind: str                        # "values", "figures" or "widgets": the registry's table that holds it
    key: str                         # its name in that table
    name: str                        # the function's own name (`__name__`)
    line: int
    params: tuple[str, ...]
    code: str

    @property
    def __name__(self) -> str:  # what a function answers: code listings and the notebook name it so
        return self.name

    def __call__(self, *args, **kwargs):
        return self.resolve()(*args, **kwargs)

    def resolve(self) -> Callable:
        found = getattr(_run_once(self.path, self.code), self.kind)[self.key]
        return found if self.kind == "values" else found.func


@functools.lru_cache(maxsize=8)
def _run_once(path: Path, code: str) -> "Lesson":
    """lesson.py run for the deferred functions of one version of it (`code`: its bytes' hash)."""
    return load_lesson_module(path)


def deferred(registry: "Lesson", path: Path, code: str) -> "Lesson":
    """The registry with each function replaced by a DeferredFunction: what the store keeps of it (plain data:
    no code object, nothing of lesson.py's module). Not for a lesson written as cells (its figures are drawn by
    running its cells)."""

    def stand_in(kind: str, key: str, func: Callable) -> DeferredFunction:
        return DeferredFunction(path, kind, key, func.__name__, first_line(func), inputs_of(func), code)

    kept = Lesson()
    kept.code_path = path
    kept.values = {name: stand_in("values", name, f) for name, f in registry.values.items()}
    kept.figures = {name: spec._replace(func=stand_in("figures", name, spec.func))
                    for name, spec in registry.figures.items()}
    kept.widgets = {name: spec._replace(func=stand_in("widgets", name, spec.func))
                    for name, spec in registry.widgets.items()}
    return kept


def lesson_module(path: Path):
    """A new module for a lesson's code (the namespace its cells run in, or lesson.py imported), known to Python
    under the lesson's name: dataclasses in lesson code look their module up there, inspect finds its source."""
    module_name = module_name_of(path)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    module.__lessonkit_lesson__ = path  # a Lesson() made by its code belongs to this folder
    try:
        module.__lessonkit_code__ = code_digest(path.read_bytes())  # which lesson.py it ran
    except OSError:
        pass
    return module


def code_digest(code: bytes) -> str:
    """What tells one version of lesson.py from another: the SHA-256 of its bytes."""
    return hashlib.sha256(code).hexdigest()


def module_name_of(path: Path) -> str:
    return f"_lesson_{path.parent.name.replace('-', '_')}"


def forget_other_module(path: Path, code: str) -> None:
    """Take a lesson's module out of sys.modules unless it ran lesson.py as `code` (its bytes' hash) — what values
    pickled from this code are unpickled with (a preview's process may hold one of an earlier lesson.py)."""
    module = sys.modules.get(module_name_of(path))
    if module is not None and getattr(module, "__lessonkit_code__", None) != code:
        del sys.modules[module_name_of(path)]


@contextlib.contextmanager
def in_lesson_folder(code_path: Path):
    """Run the author's code in its lesson's folder (the working folder the build had is back afterwards, also when
    the code raised): what a notebook's cells read beside it, a lesson's cells read beside lesson.py."""
    folder = Path(code_path).absolute().parent
    if not folder.is_dir():   # (a figure function handed a path of no folder: run where the build is)
        yield
        return
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def load_lesson_module(path: Path) -> Lesson:
    """Import a lesson's ``lesson.py`` and return its ``lesson`` registry."""
    module = lesson_module(path)
    spec = module.__spec__
    try:
        if path.is_absolute() and _hash_checked_bytecode(path):  # (its loader reads the file by that path)
            with in_lesson_folder(path):
                spec.loader.exec_module(module)
        else:
            code = compile(path.read_bytes(), str(path), "exec")
            with in_lesson_folder(path):
                exec(code, module.__dict__)
    except ContentError:
        raise
    except Exception as exc:  # the author's code failed: report it as their error, at their line
        raise ContentError([problem_from_exception(path, exc)]) from None
    registry = getattr(module, "lesson", None)
    if not isinstance(registry, Lesson):
        raise ContentError([Problem(path, None, "defines no `lesson = Lesson()` registry",
                                    "a module-level `lesson = Lesson()` from lessonkit")])
    return registry


def _hash_checked_bytecode(path: Path) -> bool:
    """Make Python's cached bytecode of lesson.py checked against the source's bytes, not its mtime (1 s steps) and
    size: otherwise a lesson.py saved twice within a second at the same length runs the old code, and the caches
    would file its results under the new code's hash. False when no such bytecode can be written."""
    if sys.dont_write_bytecode:
        return False
    cached = importlib.util.cache_from_source(str(path))
    try:
        with open(cached, "rb") as f:
            header = f.read(8)
        if len(header) == 8 and int.from_bytes(header[4:8], "little") & 0b11 == 0b11:  # hash-based, checked
            return True  # Python keeps it hash-based when it recompiles a changed source
    except OSError:
        pass
    import py_compile
    try:
        py_compile.compile(str(path), cached, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    except (py_compile.PyCompileError, OSError):
        return False
    return True


def problem_from_exception(path: Path, exc: BaseException) -> Problem:
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    line = frames[-1].lineno if frames else getattr(exc, "lineno", None)
    return Problem(path, line, msg("the lesson code raised {error}: {reason}", error=type(exc).__name__, reason=reason(exc)),
                   expected_of(exc))


def expected_of(exc: BaseException):
    """What would have run: for a file not found (open() names it; numpy says it in words), where lesson code looks
    for it."""
    if isinstance(exc, FileNotFoundError):
        name = exc.filename or next(iter(re.findall(r"^(\S+) not found\.$", str(exc))), None)
        if name and not os.path.isabs(str(name)):
            return msg("`{name}` in the lesson folder, beside lesson.py: lesson code runs there, as a notebook runs "
                       "in its own (`lessonkit import` brings the files a notebook reads)", name=name)
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        from ..load.requires import distribution_of

        return msg("the package installed (`pip install {package}`) and named in lesson.yaml's `requires:`, so the "
                   "build checks it before running any lesson", package=distribution_of(exc.name))
    return msg("lesson code that runs without error")
