"""lesson.py written as cells, in the percent format editors already run cell by cell (VS Code, PyCharm, Spyder,
Jupytext): `# %%` starts a code cell, `# %% [markdown]` a Markdown cell (its lines are `# ` comments).

    # %% setup
    import numpy as np
    xs = np.arange(10)

    # %% descent echo=false
    trace = gradient_descent(0.2)
    print(f"epoch 10, x: {trace[-1]:f}")

    # %% figure: trace_good caption="学习率 0.2" alt="x 一步步走向 0"
    plt.plot(trace)

A header names its cell (`descent`: `{{< code descent >}}` shows its source and what it printed) and may set
options, `key=value` or `key="a value"`: `echo` and `output` (true/false, as Quarto names them) for the listing; a
figure cell (`figure: NAME`) takes `caption` and `alt`, and `data` (the value shown as its data table). Read here,
from the text alone (the plan's figure numbers, the hand-typed-number report); compute/cells.py runs them.
"""
from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path
from typing import Any

from ..support.errors import Problem
from ..support.messages import msg
from ..support.records import Record

HEADER = re.compile(r"^# %%(?P<rest>.*)$")
MARKDOWN = re.compile(r"\[\s*markdown\s*\]|\[\s*md\s*\]")
FIGURE = re.compile(r"^figure\s*:\s*(?P<name>\S*)\s*(?P<options>.*)$")
NAME = re.compile(r"^[A-Za-z_][\w-]*$")
OPTIONS = {"code": {"echo", "output"}, "figure": {"caption", "alt", "echo", "output", "data"}, "markdown": set()}
BOOLEAN = {"true": True, "false": False, "yes": True, "no": False}
LITERAL = re.compile(r"\s#\s*literal\b.*$")   # `# %% figure: … caption="…"  # literal`


class Cell(Record):
    kind: str                      # code | markdown | figure
    line: int                      # its `# %%` line (1-based); 0 for code before the first header
    first: int                     # the line its body starts on
    body: str                      # its code; for a Markdown cell, its text without the `# ` of each line
    name: str | None
    options: dict[str, Any]        # its header's `key=value` options

    def option(self, key: str, default: Any = None) -> Any:
        return self.options.get(key, default)


def is_cell_file(text: str) -> bool:
    """Whether a lesson.py is written as cells: some line starts with `# %%`."""
    return any(HEADER.match(line) for line in text.splitlines())


def split_cells(text: str, path: Path) -> tuple[list[Cell], list[Problem]]:
    """The cells of a percent-format file, and the problems of their headers (unknown option, two cells with one
    name, a figure cell without a name …), each at its line."""
    lines, cells, problems = text.splitlines(), [], []
    starts = [i for i, line in enumerate(lines) if HEADER.match(line)]
    if starts and any(line.strip() for line in lines[:starts[0]]):  # code before the first header: a cell of its own
        cells.append(Cell("code", 0, 1, "\n".join(lines[:starts[0]]), None, {}))
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        header = HEADER.match(lines[start]).group("rest").strip()
        cell = _cell(header, start + 1, lines[start + 1:end], path, problems)
        if cell is not None:
            cells.append(cell)
    seen: dict[str, int] = {}
    for cell in cells:
        if cell.name and cell.name in seen:
            problems.append(Problem(path, cell.line, msg("two cells are named `{name}` (first at line {line})",
                                                         name=cell.name, line=seen[cell.name]),
                                    msg("each cell's name once")))
        elif cell.name:
            seen[cell.name] = cell.line
    return cells, problems


def _cell(header: str, line: int, body: list[str], path: Path, problems: list[Problem]) -> Cell | None:
    kind, name, rest = "code", None, header
    if MARKDOWN.search(header):
        kind, rest = "markdown", MARKDOWN.sub("", header).strip()
        text = "\n".join(re.sub(r"^# ?", "", b) if b.startswith("#") else b for b in body).strip("\n")
        return Cell(kind, line, line + 1, text, rest.split()[0] if rest.split() else None, {})
    figure = FIGURE.match(header)
    if figure:
        kind, name, rest = "figure", figure.group("name"), figure.group("options")
        if not NAME.match(name or ""):
            problems.append(Problem(path, line, msg("a figure cell without a name: `# %% {header}`", header=header),
                                    msg("`# %% figure: NAME caption=\"…\" alt=\"…\"`")))
            return None
    else:
        words = rest.split(maxsplit=1)
        if words and "=" not in words[0]:
            name, rest = words[0], words[1] if len(words) > 1 else ""
            if not NAME.match(name):
                problems.append(Problem(path, line, msg("`{name}` cannot name a cell", name=name),
                                        msg("a name of letters, digits, _ and -, e.g. `# %% descent`")))
                name = None
    options = _options(rest, kind, path, line, problems)
    if kind == "figure":
        for required in ("caption", "alt"):
            if not str(options.get(required, "")).strip():
                problems.append(Problem(path, line, msg("figure cell `{name}` has no `{key}`", name=name,
                                                        key=required),
                                        msg("`# %% figure: {name} caption=\"…\" alt=\"…\"`", name=name)))
    return Cell(kind, line, line + 1, "\n".join(body), name, options)


def _options(text: str, kind: str, path: Path, line: int, problems: list[Problem]) -> dict[str, Any]:
    import shlex  # only a lesson written as cells has options to read

    text = LITERAL.sub("", text)  # (features/handnumbers.py reads it: the header's numbers typed on purpose)
    try:
        words = shlex.split(text)
    except ValueError:
        problems.append(Problem(path, line, msg("cannot read the cell's options `{text}` (a quote never closed?)",
                                                text=text), msg("`key=value` or `key=\"a value\"` after the name")))
        return {}
    options: dict[str, Any] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in OPTIONS[kind]:
            problems.append(Problem(path, line, msg("unknown cell option `{word}`", word=word),
                                    msg("one of: {items}", items=", ".join(sorted(OPTIONS[kind])) or msg("none"))))
            continue
        options[key] = BOOLEAN.get(value.lower(), value) if key in ("echo", "output") else value
        if key in ("echo", "output") and not isinstance(options[key], bool):
            problems.append(Problem(path, line, msg("`{key}={value}` is not true or false", key=key, value=value),
                                    msg("`{key}=true` or `{key}=false`", key=key)))
    return options


def names_bound(tree: ast.AST) -> set[str]:
    """The names a cell's code binds: assigned, deleted, imported, defined."""
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    bound |= {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
              for a in n.names}
    return bound | {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                      ast.ClassDef))}


def names_read(cell: Cell, tree: ast.AST | None = None) -> tuple[str, ...]:
    """The names a cell reads that it does not bind itself (nor are builtins): what a figure cell is drawn from,
    in the order it first reads them. `tree`: the cell's code parsed, when the caller has it."""
    tree = tree if tree is not None else ast.parse(cell.body)
    bound = names_bound(tree) | {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    read = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)),
                  key=lambda n: (n.lineno, n.col_offset))
    return tuple(dict.fromkeys(n.id for n in read if n.id not in bound and not hasattr(builtins, n.id)))
