"""A plain Python with numpy and matplotlib and nothing else: what a student has who never installed lessonkit.

How, offline and in about a second: `python -m venv --without-pip` makes an empty virtual environment (no system
site-packages); into its site-packages go links to the installed files of numpy, matplotlib and the distributions
their metadata requires (cycler, fonttools, pillow, python-dateutil …, found with importlib.metadata and each one's
RECORD), and to nothing else. pip cannot do this offline: its cache keeps HTTP responses, not wheels to install
from. Scripts run there with `-I` (isolated mode: no current folder or script folder on sys.path, no user
site-packages, no PYTHON* variables), so lessonkit — installed in the development environment, editable — cannot
be found by any route; the scripts check that it is not importable and report every third-party module they loaded.
"""
from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

PLAIN = ("numpy", "matplotlib")


def closure(names: tuple[str, ...] = PLAIN) -> dict[str, metadata.Distribution]:
    """The distributions `names` need to run (their requirements without extras, for this platform), by name."""
    found: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in found:
            continue
        dist = metadata.distribution(name)
        found[key] = dist
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return found


def top_level(dist: metadata.Distribution) -> set[str]:
    """The names a distribution puts into site-packages (packages, modules, their .libs and .dist-info folders)."""
    return {str(f).split("/")[0] for f in dist.files or [] if not str(f).startswith("..")} - {"__pycache__"}


def make_venv_with(folder: Path, names: tuple[str, ...]) -> Path:
    """A virtual environment in `folder` (no pip, no system site-packages) holding the distributions `names` and
    what they require, linked from this environment's installed files, and nothing else; returns its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    site = next(folder.glob("lib/python*/site-packages"), None) or folder / "Lib" / "site-packages"
    for dist in closure(names).values():
        for name in top_level(dist):
            target = site / name
            if not target.exists():
                target.symlink_to(dist.locate_file(name), target_is_directory=dist.locate_file(name).is_dir())
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    return python


def make_plain_python(folder: Path) -> Path:
    """A virtual environment in `folder` holding numpy and matplotlib only; returns its python."""
    return make_venv_with(folder, PLAIN)


def importable_tops() -> set[str]:
    """The top-level modules the plain Python may import besides the standard library."""
    tops = set()
    for dist in closure().values():
        for name in top_level(dist):
            if not name.endswith((".dist-info", ".libs", ".pth")):
                tops.add(name.split(".")[0])
    return tops
