"""One module per command-line verb. Each module offers `HELP` and `DESCRIPTION` (messages), `add_arguments(parser,
say)` and `run(args) -> int`; `NEEDS_PROJECT = False` for a verb that works without a project (init)."""
from . import build, clean, export, import_, init, new, pdf, publish, serve, slides

# name → module; the first one is the default when no verb is given
COMMANDS = {
    "build": build,
    "serve": serve,
    "new": new,
    "init": init,
    "import": import_,
    "publish": publish,
    "pdf": pdf,
    "slides": slides,
    "export": export,
    "clean": clean,
}
