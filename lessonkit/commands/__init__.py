"""One module per command-line verb. Each module offers `HELP`, `add_arguments(parser)` and `run(args) -> int`."""
from . import build, clean, new, pdf, serve, slides

# name → module; the first one is the default when no verb is given
COMMANDS = {
    "build": build,
    "serve": serve,
    "new": new,
    "pdf": pdf,
    "slides": slides,
    "clean": clean,
}
