"""`python -m lessonkit`: the same command line as `lessonkit`."""
from .cli import exit_with, main

exit_with(main(prog="python -m lessonkit"))
