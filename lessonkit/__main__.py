"""`python -m lessonkit`: the same command line as `lessonkit`."""
import sys

from .cli import main

sys.exit(main(prog="python -m lessonkit"))
