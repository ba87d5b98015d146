"""`serve`: preview the site at http://127.0.0.1:8000. Saving any file under content/ or themes/ rebuilds the site
and the open page reloads by itself, usually within a second. A mistake turns the page into the list of problems
(also printed here); save the fix and the lesson comes back. The preview builds into a temporary folder and never
touches output/. Stop with Ctrl+C.

How: a thread polls the watched files' modification times; the preview's own build appends a small script to every
page's code (never `build`'s: output/ never holds it) that waits on /__reload (Server-Sent Events) and reloads after
the next build.
"""
from __future__ import annotations

import argparse
import signal
from pathlib import Path

from ..support.messages import msg
from .build import add_edition_options, add_jobs_option, add_site_options, edition

HELP = msg("preview the site in the browser, rebuilt and reloaded on every save")
DESCRIPTION = msg("Preview the site at http://127.0.0.1:8000/. Saving a file under content/ or themes/ rebuilds the "
                  "site and the open page reloads by itself; a mistake turns the page into the list of problems "
                  "until the file is saved again. The preview never touches output/. Stop with Ctrl+C.")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    add_site_options(p, say)
    add_jobs_option(p, say)
    p.add_argument("--port", type=int, default=8000, help=say("port to listen on (default: 8000; 0 picks a free one)"))
    p.add_argument("--host", default="127.0.0.1",
                   help=say("address to listen on (default: 127.0.0.1, this computer only)"))
    p.add_argument("--lesson", metavar="SLUG", help=say("preview only this lesson (faster for a long course)"))
    add_edition_options(p, say)


def run(args: argparse.Namespace) -> int:
    from ..site import Options
    from .preview import Preview, shown

    # drawing workers come from a fork server (a process started afresh, single-threaded): forking them from this
    # process, which runs the server's threads, could copy a lock one of them holds and leave the child waiting;
    # drafts too (marked): the preview is where a draft is written
    options = Options(content=args.content.resolve(), out=Path("."), themes=args.themes_dir.resolve(),
                      theme=args.theme, lesson=args.lesson, jobs=args.jobs, drawing_start="forkserver",
                      cache=args.project.cache, **{**edition(args), "drafts": True})
    say = args.say
    preview = Preview(options, quiet=args.quiet, verbose=args.verbose, say=say)
    signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops as cleanly as Ctrl+C: the temporary site is removed
    try:
        server = preview.start(args.host, args.port)
    except BaseException:  # Ctrl+C during the first build, or the port is taken
        preview.close()
        raise
    try:
        preview.say(say("serving {url} — saving a file in {content} or {themes} rebuilds the site and reloads the page; "
                        "Ctrl+C stops", url=server.url, content=shown(options.content), themes=shown(options.themes)),
                    always=True)
        server.wait()
    except KeyboardInterrupt:
        preview.say(say("stopped"), always=True)
    finally:
        server.stop()
    return 0


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


