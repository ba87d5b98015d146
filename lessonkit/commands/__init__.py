"""One module per command-line verb. Each module offers `HELP` and `DESCRIPTION` (messages), `add_arguments(parser,
say)` and `run(args) -> int`; `NEEDS_PROJECT = False` for a verb that works without a project (init).

A verb's module is imported only when that verb runs or the help lists every verb (`command()`), so a build never
imports what `publish`, `import` or `pdf` need."""
from __future__ import annotations

import importlib
from types import ModuleType

# name → its module in this package; the first one is the default when no verb is given
COMMANDS = {
    "build": "build",
    "serve": "serve",
    "new": "new",
    "init": "init",
    "import": "import_",
    "publish": "publish",
    "pdf": "pdf",
    "slides": "slides",
    "export": "export",
    "clean": "clean",
}


def command(name: str) -> ModuleType:
    """The module of the verb `name`."""
    return importlib.import_module(f"{__name__}.{COMMANDS[name]}")
