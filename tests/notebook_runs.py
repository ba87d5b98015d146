"""Every notebook the suite builds runs: at the end of a test session (tests/conftest.py) each lesson notebook any
test wrote into the run's temporary folders — the real lessons, the fixture lessons, the guide's example, the
scaffold — is run in the plain Python (numpy and matplotlib, no lessonkit; tests/plain_python.py) by
tests/notebook_runner.py, cell by cell as Jupyter runs them.

A notebook is looked for in the sites builds wrote (a folder with the output marker: SITE/SLUG/SLUG.ipynb), in this
worker's temporary folder and in the folders made once for the whole run (tests/run_once.py); notebooks whose code
cells are the same run once per run, whichever worker claims them first. A plain module, not conftest.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import plain_python
from run_once import made_once, run_folder, shared_folder

MARKER = ".lessonkit-output"   # lessonkit/write/output.py MARKER: a folder a build wrote
RUNNER = Path(__file__).with_name("notebook_runner.py")


def plain_python_for_run(tmp_path_factory) -> Path:
    """The plain Python, made once per run."""
    return made_once(tmp_path_factory, "plain-python",
                     lambda folder: plain_python.make_plain_python(folder / "venv")) / "venv" / "bin" / "python"


def built_notebooks(tmp_path_factory) -> list[Path]:
    """The lesson notebooks of every site written under this worker's temporary folder or a finished shared one."""
    base = tmp_path_factory.getbasetemp()
    roots = [base]
    run = run_folder(tmp_path_factory)
    if run != base:  # under xdist: the folders made once (complete once their `.NAME.done` marker exists)
        roots += [run / marker.name[1:-len(".done")] for marker in run.glob(".*.done")]
    found = []
    for root in roots:
        for marker in root.rglob(MARKER):
            site = marker.parent
            found += [p for p in site.glob("*/*.ipynb") if p.stem == p.parent.name]
    return sorted(set(found))


def code_digest(notebook: Path) -> str:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    code = "\0".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def claimed(tmp_path_factory, notebooks: list[Path]) -> list[Path]:
    """One notebook per distinct code, and only those no other worker of the run has taken."""
    claims = shared_folder(tmp_path_factory, "notebooks-run")
    mine: dict[str, Path] = {}
    for notebook in notebooks:
        digest = code_digest(notebook)
        if digest in mine:
            continue
        try:
            os.close(os.open(claims / digest, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            continue
        mine[digest] = notebook
    return list(mine.values())


def run_notebooks(python: Path, notebooks: list[Path], work: Path) -> list[tuple[str, str]]:
    """(notebook, what failed) for each notebook that did not run top to bottom; [] when all did."""
    if not notebooks:
        return []
    work.mkdir(parents=True, exist_ok=True)
    listing, result = work / "notebooks.json", work / "outcomes.json"
    listing.write_text(json.dumps([str(p) for p in notebooks]), encoding="utf-8")
    run = subprocess.run([str(python), "-I", str(RUNNER), str(listing), str(result)], capture_output=True,
                         text=True, cwd=work, timeout=60 + 30 * len(notebooks),
                         env={"MPLBACKEND": "Agg", "HOME": str(Path.home()), "PATH": "/usr/bin:/bin"})
    if run.returncode != 0:
        return [("(the runner)", run.stderr[-4000:])]
    failed = [(path, error) for path, error in json.loads(result.read_text(encoding="utf-8")) if error]
    if "Glyph" in run.stderr or "missing from" in run.stderr:  # a Chinese label drawn in no CJK font
        failed.append(("(fonts)", run.stderr[-2000:]))
    return failed
