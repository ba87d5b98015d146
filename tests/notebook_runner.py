"""Run notebooks as Jupyter would, in the plain Python (tests/plain_python.py: numpy and matplotlib, no lessonkit):
each code cell compiled on its own (a `from __future__` import at the top of a cell is allowed and stays in force
for the cells after it, as in IPython), the value of a cell's last expression shown — a figure drawn as a PNG, as
Jupyter's inline backend draws it; anything else through repr(). Standard library and matplotlib only.

    python -I notebook_runner.py LIST.json RESULT.json

LIST.json: [notebook path, …]. RESULT.json: [[notebook path, None or "cell N: traceback"], …]. Each notebook runs in
a module of its own, with pyplot's figures closed and matplotlib's settings reset between notebooks.
"""
import ast
import codeop
import io
import json
import os
import sys
import tempfile
import traceback
import types


def run_cell(source: str, compiler: codeop.Compile, namespace: dict, name: str) -> None:
    tree = compile(source, name, "exec", ast.PyCF_ONLY_AST | compiler.flags, True)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compiler(tree, name, "exec"), namespace)   # (compile takes a syntax tree as it takes source)
    if last is not None:
        show(eval(compiler(ast.Expression(last.value), name, "eval"), namespace))


def show(value) -> None:
    """What Jupyter does with a cell's value: a figure becomes a PNG, anything else its repr."""
    if hasattr(value, "savefig") and hasattr(value, "axes"):
        value.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    elif value is not None:
        repr(value)


def run_notebook(path: str) -> str | None:
    import matplotlib
    import matplotlib.pyplot as plt

    with open(path, encoding="utf-8") as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    module = types.ModuleType(f"notebook_{abs(hash(path))}")
    sys.modules[module.__name__] = module      # dataclasses defined in a cell look their module up here
    compiler = codeop.Compile()
    try:
        for n, cell in enumerate(cells, start=1):
            try:
                run_cell("".join(cell["source"]), compiler, module.__dict__, f"<{os.path.basename(path)} cell {n}>")
            except BaseException:
                return f"code cell {n}:\n{traceback.format_exc()}"
        return None
    finally:
        plt.close("all")
        matplotlib.rcdefaults()
        del sys.modules[module.__name__]


def main(listing: str, result: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    with open(listing, encoding="utf-8") as f:
        paths = json.load(f)
    home = os.getcwd()
    outcomes = []
    for path in paths:
        with tempfile.TemporaryDirectory() as work:  # a notebook's working folder, as a student's would be
            os.chdir(work)
            outcomes.append([path, run_notebook(path)])
            os.chdir(home)
    with open(result, "w", encoding="utf-8") as f:
        json.dump(outcomes, f)


if __name__ == "__main__":
    main(*sys.argv[1:])
