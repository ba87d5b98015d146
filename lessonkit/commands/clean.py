"""`clean`: delete the figure cache and the built site (the site only if this tool made it: it holds the marker file)."""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from ..support.messages import msg

HELP = msg("delete the cache (.cache/lessonkit/) and the output folder")
DESCRIPTION = msg("Delete the project's cache (.cache/lessonkit/) and its output folder; the output folder only if "
                  "lessonkit made it (it holds the .lessonkit-output marker).")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help=say("output folder to delete (default: the project's "
                                                              "output/)"))
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                   help=say("cache folder to delete (default: the project's .cache/lessonkit/)"))


def run(args: argparse.Namespace) -> int:
    from ..support.errors import UsageError
    from ..support.messages import msg
    from ..write.output import MARKER

    out, cache = args.out.expanduser().resolve(), args.cache_dir.expanduser().resolve()
    if out.exists() and not (out / MARKER).exists():
        raise UsageError(msg("refusing to delete {out}: it was not made by this tool (no {marker} file)", out=out,
                             marker=MARKER))
    if cache.exists() and not _looks_like_cache(cache):
        raise UsageError(msg("refusing to delete {cache}: it does not look like a lessonkit cache", cache=cache))
    for folder in (cache, out):
        if folder.exists():
            shutil.rmtree(folder)
            if not args.quiet:
                print(args.say("deleted {folder}", folder=folder))
    return 0


def _looks_like_cache(folder: Path) -> bool:
    """Only our own entries: an arbitrary folder passed by mistake is never deleted."""
    ours = {"figures", "values", "scripts", "pages", "templates", "references", "notebooks", "font.json"}
    return all(p.name in ours or p.name.startswith(("mathml-", "highlight-", ".")) for p in folder.iterdir())
