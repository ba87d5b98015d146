#!/usr/bin/env python3
"""This repository's own course: `python build.py` is `lessonkit` with the repository as its project (content/,
themes/, output/ and .cache/ beside this file), whatever the current folder. Run `python build.py --help`.

The pipeline lives in lessonkit/: load → compute → draw → render → assemble → write (see lessonkit/site.py).
"""
from pathlib import Path

from lessonkit.cli import run_process

if __name__ == "__main__":
    run_process(prog="python build.py", home=Path(__file__).resolve().parent)
