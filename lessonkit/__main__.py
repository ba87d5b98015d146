"""`python -m lessonkit`: the same command line as `lessonkit`."""
from .cli import run_process

run_process(prog="python -m lessonkit")
