"""lesson.py written as cells (load/cells.py reads them) run in order, once, in one namespace: what each printed and
the value of its last line are kept per cell; a figure cell runs in its turn through the caller's `draw` (which
routes pyplot to a figure of its own: compute/cellrun.py); an error names lesson.py and the line inside the cell.
What compiled code writes to the process's own stdout (a Fortran solver, C's printf) is the cell's output too, after
what Python printed; its stderr goes nowhere: the build's terminal shows the build's messages only.
"""
from __future__ import annotations

import ast
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..load.cells import Cell
from ..support.errors import ContentError
from ..support.messages import reason
from ..support.records import Mutable, fresh


class CellRun(Mutable):
    """What running the cells left: the namespace, what each named cell printed, and the value of its last line
    when that is an expression (what Jupyter shows after the printed text; not after a `;`, nor None)."""
    namespace: dict[str, Any]
    printed: dict[str, str] = fresh(dict)
    results: dict[str, Any] = fresh(dict)


def run_cells(cells: list[Cell], path: Path, namespace: dict[str, Any], draw=None, after=None, start: int = 0,
              done=None) -> CellRun:
    """Run the code cells in order in `namespace`, each compiled as the file's own lines so that an error names
    lesson.py and the line inside the cell. Raises CellError. A figure cell is run by `draw(cell, run)` (which calls
    `run()` with pyplot routed to a figure of its own), or left out without one; `after(cell)` is called after each
    code cell (to find what it drew). Markdown cells are never run. `start`: the cells before it are not run (the
    namespace is as they left it: compute/cellsteps.py); `done(index, cell, printed, result)` after each cell ran."""
    run = CellRun(namespace)
    for index, cell in enumerate(cells):
        if cell.kind == "markdown" or (cell.kind == "figure" and draw is None) or index < start:
            continue
        key = cell.name or f"#{index + 1}"
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()), _native_output(out):
                if cell.kind == "figure":
                    draw(cell, lambda: _execute(cell, path, namespace))
                else:
                    result = _execute(cell, path, namespace)
                    if result is not None:
                        run.results[key] = result
                    if after is not None:
                        after(cell)
        except (CellError, ContentError):
            raise
        except Exception as exc:
            raise CellError(cell, exc) from None
        run.printed[key] = out.getvalue()
        if done is not None:
            done(index, cell, run.printed[key], run.results.get(key))
    return run


@contextlib.contextmanager
def _native_output(out: io.StringIO):
    """The process's stdout and stderr (file descriptors 1 and 2) sent to files while a cell runs: what compiled
    code printed there is added to `out`, what it wrote to stderr is dropped."""
    try:
        saved = [os.dup(1), os.dup(2)]
    except OSError:   # (no such descriptors: nothing native can print either)
        yield
        return
    with tempfile.TemporaryFile() as native, tempfile.TemporaryFile() as errors:
        for stream in (sys.__stdout__, sys.__stderr__):
            _flush(stream)
        os.dup2(native.fileno(), 1)
        os.dup2(errors.fileno(), 2)
        try:
            yield
        finally:
            _flush_c_streams()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            native.seek(0)
            out.write(native.read().decode("utf-8", errors="replace"))


def _flush(stream) -> None:
    try:
        stream.flush()
    except (AttributeError, OSError, ValueError):
        pass


def _flush_c_streams() -> None:
    """C's stdio buffers (a compiled library's printf) written out while its stdout is still the cell's file."""
    import ctypes

    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):   # (no C library to ask: Windows' msvcrt keeps its own)
        pass


def _execute(cell: Cell, path: Path, namespace: dict[str, Any]) -> Any:
    """Run one cell; the value of its last line when that is an expression not ended by `;`, else None."""
    tree = ast.parse("\n" * (cell.first - 1) + cell.body, str(path))
    last = tree.body[-1] if tree.body else None
    shown = isinstance(last, ast.Expr) and not cell.body.rstrip().endswith(";")
    if shown:
        tree.body.pop()
    exec(compile(tree, str(path), "exec"), namespace)
    return eval(compile(ast.Expression(last.value), str(path), "eval"), namespace) if shown else None


class CellError(Exception):
    """A cell raised: the cell and the exception (compute reports it at lesson.py's line)."""

    def __init__(self, cell: Cell, error: BaseException):
        super().__init__(reason(error))
        self.cell, self.error = cell, error
