"""What one test run makes once however many pytest-xdist workers run it: a site built, a handout printed.

Each xdist worker is a session of its own (its own session fixtures, its own tmp_path_factory folder); the folders
made here live in the folder all of a run's workers share (their basetemps' parent) and are made by the first worker
that asks, under a lock, while the others wait and then read what it made. Without xdist, the run's own basetemp.
A plain module (not conftest), imported by tests/conftest.py and tests/browser/conftest.py.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from pathlib import Path
from typing import Callable, Iterator

def run_folder(tmp_path_factory) -> Path:
    """The temporary folder every worker of this run sees (a fresh one per run, as pytest's basetemp is)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)      # released when the file closes, also if the process dies
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """run_folder/name, made by make(folder) the first time any worker asks. A make that failed leaves no marker:
    the next worker to ask tries again (and fails the same way, with its own message)."""
    root = run_folder(tmp_path_factory)
    folder, done = root / name, root / f".{name}.done"
    with locked(root / f".{name}.lock"):
        if not done.is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            make(folder)
            done.write_bytes(b"")
    return folder


def shared_folder(tmp_path_factory, name: str) -> Path:
    """run_folder/name, created if missing: for what workers may fill side by side (a cache written atomically)."""
    folder = run_folder(tmp_path_factory) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
