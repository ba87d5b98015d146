#!/usr/bin/env python3
"""Build the lessons in content/ into output/. Run `python build.py --help` for the options.

The pipeline lives in lessonkit/: load → validate → compute → render → write (see lessonkit/site.py).
"""
import sys

from lessonkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
