"""`clean`: delete the figure cache and the built site (the site only if this tool made it: it holds the marker file)."""
from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

from ..support.messages import msg

HELP = msg("delete the cache (.cache/lessonkit/) and the output folders")
DESCRIPTION = msg("Delete the project's cache (.cache/lessonkit/) and what the tool wrote: output/, output-teacher/ and "
                  "output-lms/ (or the one folder --out names), each only if lessonkit made it (a site holds the "
                  ".lessonkit-output marker; output-lms/ only packages and question banks).")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help=say("output folder to delete (default: the project's "
                                                              "output/)"))
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                   help=say("cache folder to delete (default: the project's .cache/lessonkit/)"))


def run(args: argparse.Namespace) -> int:
    from ..support.errors import UsageError
    from ..support.messages import msg
    from ..support.store import looks_like_store
    from ..write.output import MARKER

    cache = args.cache_dir.expanduser().resolve()
    project = args.project
    sites = [args.out] if args.out_given else [project.output, project.teacher_output]
    sites = [s.expanduser().resolve() for s in sites]
    lms = [] if args.out_given else [project.lms_output]
    for out in sites:
        if out.exists() and not (out / MARKER).exists():
            raise UsageError(msg("refusing to delete {out}: it was not made by this tool (no {marker} file)", out=out,
                                 marker=MARKER))
    for folder in lms:
        if folder.exists() and not all(LMS_FILE.fullmatch(p.name) for p in folder.iterdir()):
            raise UsageError(msg("refusing to delete {out}: it holds files lessonkit did not write there", out=folder))
    if cache.exists() and not looks_like_store(cache):
        raise UsageError(msg("refusing to delete {cache}: it does not look like a lessonkit cache", cache=cache))
    for folder in (cache, *sites, *lms):
        if folder.exists():
            shutil.rmtree(folder)
            if not args.quiet:
                print(args.say("deleted {folder}", folder=folder))
    return 0


LMS_FILE = re.compile(r"[\w.-]+\.(?:scorm\.zip|moodle\.xml)")   # what `export` writes into output-lms/

