"""The preview behind `serve`: a temporary site rebuilt when a watched file changes, and the HTTP server that serves
it and tells open pages to reload (Server-Sent Events). Imported only by `serve`: a build never needs it."""
from __future__ import annotations

import html
import mimetypes
import os
import secrets
import shutil
import sys
import tempfile
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from ..support.errors import project_root
from ..support.i18n import Speaker
from ..support.paths import BUILTIN_THEMES
from ..support.messages import NOTHING, Message, msg
from ..support.records import Mutable

POLL_SECONDS = 0.3
SETTLE_SECONDS = 0.05
RELOAD_PATH = "/__reload"
BUILD_TIMING = "lk-build"  # the Server-Timing entry that tells a page which build it came from
KEEPALIVE_SECONDS = 15
IGNORED_DIRS = {"__pycache__", "node_modules"}


def shown(path: Path) -> str:
    try:
        return f"{path.relative_to(Path.cwd())}/"
    except ValueError:
        return f"{path}/"


# ── the build side: a temporary site, rebuilt when a watched file changes ───────────────────────────────────────────
class BuildState(Mutable):
    build_id: str                  # changes on every rebuild; pages learn it and ask /__reload whether it is stale
    problems: list[str] | None     # None: the last build succeeded


class Preview:
    """Builds the site into a temporary folder and rebuilds it whenever a file under content/ or themes/ changes."""

    def __init__(self, options, quiet: bool = False, verbose: bool = False, say: Speaker | None = None):
        from ..render.templates import theme_dirs

        if not options.content.is_dir():
            from ..support.errors import UsageError
            raise UsageError(msg("content folder {path} does not exist", path=options.content))
        from ..load.siteconfig import load_site_config
        theme_dirs(options.themes, options.theme or load_site_config(options.content, []).theme)  # fail now, not as an error page
        self.workdir = Path(tempfile.mkdtemp(prefix="lessonkit-preview-"))
        options.out = self.workdir / "site"
        # the project's cache, as `build` uses it: only changed figures redraw (none given: one for this preview)
        options.cache = options.cache or self.workdir / "cache"
        options.preview_script = reload_script()  # the same on every build: a page whose inputs did not change is kept
        self.options = options
        self.quiet, self.verbose = quiet, verbose
        self.speak = say or Speaker(root=project_root(options.content))
        self.session = secrets.token_hex(4)
        self.generation = 0
        self.state = BuildState(f"{self.session}-0", [self.speak("the site has not been built yet")])
        self.changed = threading.Condition()
        self.stopping = threading.Event()
        self.seen = self.snapshot()

    @property
    def site(self) -> Path:
        return self.options.out

    def say(self, text: str, always: bool = False) -> None:
        if always or not self.quiet:
            print(text, flush=True)

    def snapshot(self) -> dict[str, tuple[int, int]]:
        """Modification time and size of every watched file (hidden files, caches and editor backups left out)."""
        files = {}
        # the built-in theme too: in a checkout of lessonkit it is edited like any other file
        for root in (self.options.content, self.options.themes, BUILTIN_THEMES):
            for folder, dirs, names in os.walk(root):
                dirs[:] = [d for d in dirs if not d.startswith(".") and d not in IGNORED_DIRS]
                for name in names:
                    if name.startswith((".", "#")) or name.endswith(("~", ".swp", ".swx", ".tmp")):
                        continue
                    path = os.path.join(folder, name)
                    try:
                        st = os.stat(path)
                    except OSError:  # deleted between listing and stat
                        continue
                    files[path] = (st.st_mtime_ns, st.st_size)
        return files

    def rebuild(self, reason: Message = NOTHING) -> None:
        from ..support.errors import ContentError, UsageError
        from ..site import build

        started = time.perf_counter()
        build_id = f"{self.session}-{self.generation + 1}"
        problems: list[str] | None
        try:
            report = build(self.options)
            problems = None
        except ContentError as err:
            problems = [self.speak.problem(p) for p in err.problems]
        except UsageError as err:
            problems = [self.speak.text(err.message)]
        except Exception:  # our bug: show it, keep serving, let the author keep working
            problems = [self.speak("internal error in lessonkit (please report it):") + "\n" + traceback.format_exc()]
        seconds = time.perf_counter() - started
        with self.changed:
            self.generation += 1
            self.state = BuildState(build_id, problems)
            self.changed.notify_all()
        why = msg(" ({reason})", reason=reason) if reason else NOTHING
        if problems is None:
            self.say(self.speak("built in {seconds:.2f} s{why}", seconds=seconds, why=why)
                     + (self.speak(" · {n} files", n=len(report.pages)) if self.verbose else ""))
        else:
            print(self.speak("error: the content has {n} problem(s){why}; the page shows them until they are fixed:",
                      n=len(problems), why=why), file=sys.stderr, flush=True)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr, flush=True)

    def watch(self) -> None:
        """Poll the watched folders; rebuild once per batch of changes."""
        while not self.stopping.wait(POLL_SECONDS):
            now = self.snapshot()
            if now != self.seen:
                now = self.settled(now)
                changed = sorted(path for path in now.keys() | self.seen.keys() if now.get(path) != self.seen.get(path))
                self.seen = now
                first = _shown_file(changed[0])
                self.rebuild(msg("{file} and {n} more changed", file=first, n=len(changed) - 1) if len(changed) > 1
                             else msg("{file} changed", file=first))

    def settled(self, now: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
        """Wait until a save has finished (editors may truncate, write and rename in steps), at most ~1 s."""
        for _ in range(20):
            time.sleep(SETTLE_SECONDS)
            again = self.snapshot()
            if again == now:
                break
            now = again
        return now

    def wait_for_rebuild(self, build_id: str, timeout: float) -> BuildState:
        """Block until the build id differs from `build_id` (or the timeout passes, or the server stops)."""
        with self.changed:
            self.changed.wait_for(lambda: self.state.build_id != build_id or self.stopping.is_set(), timeout)
            return self.state

    def start(self, host: str, port: int) -> "PreviewServer":
        self.rebuild()
        return PreviewServer(self, host, port)

    def close(self) -> None:
        self.stopping.set()
        with self.changed:
            self.changed.notify_all()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _shown_file(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


# ── the HTTP side ───────────────────────────────────────────────────────────────────────────────────────────────────
class PreviewServer:
    """The HTTP server and the watcher thread, started together and stopped together."""

    def __init__(self, preview: Preview, host: str, port: int):
        from ..support.errors import UsageError

        self.preview = preview
        try:
            self.httpd = ThreadingHTTPServer((host, port), _handler_for(preview))
        except OSError as exc:
            preview.close()
            hint = msg("; try --port {port}", port=port + 1) if port else NOTHING
            raise UsageError(msg("cannot listen on {address}: {reason}{hint}", address=f"{host}:{port}",
                                 reason=exc.strerror or str(exc), hint=hint)) from None
        self.httpd.daemon_threads = True
        self.url = f"http://{host}:{self.httpd.server_address[1]}/"
        self.threads = [threading.Thread(target=self.httpd.serve_forever, args=(0.1,), name="preview-http",
                                         daemon=True),
                        threading.Thread(target=preview.watch, name="preview-watch", daemon=True)]
        for thread in self.threads:
            thread.start()

    def wait(self) -> None:
        while self.threads[0].is_alive():
            self.threads[0].join(0.5)

    def stop(self) -> None:
        self.preview.close()
        self.httpd.shutdown()
        self.httpd.server_close()
        for thread in self.threads:
            thread.join(5)


def _handler_for(preview: Preview) -> type[BaseHTTPRequestHandler]:
    class Handler(PreviewHandler):
        pass
    Handler.preview = preview
    return Handler


class PreviewHandler(BaseHTTPRequestHandler):
    preview: Preview
    server_version = "lessonkit-preview"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
        if self.preview.verbose:
            super().log_message(format, *args)

    def do_GET(self) -> None:  # noqa: N802 (the base class's name)
        url = urlsplit(self.path)
        if url.path == RELOAD_PATH:
            self.send_events(parse_qs(url.query).get("build", [""])[0])
        else:
            self.send_page(unquote(url.path))

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def send_page(self, url_path: str) -> None:
        state = self.preview.state
        site = self.preview.site
        rel = url_path.lstrip("/")
        if rel == "" or rel.endswith("/"):
            rel += "index.html"
        if state.problems is not None and rel.endswith(".html"):
            self.send_html(HTTPStatus.INTERNAL_SERVER_ERROR, error_page(state.problems, self.preview.speak),
                           state.build_id)
            return
        target = (site / rel).resolve()
        inside = target == site.resolve() or site.resolve() in target.parents
        data, state = self.read_built(target, inside)
        if inside and target.is_dir():
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", url_path.rstrip("/") + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if data is None:
            self.send_html(HTTPStatus.NOT_FOUND, not_found_page(url_path, self.preview.speak), state.build_id)
        elif target.suffix == ".html":  # built with the reload script and its hash in the page's policy
            self.send_bytes(HTTPStatus.OK, data, "text/html; charset=utf-8", state.build_id)
        else:
            self.send_bytes(HTTPStatus.OK, data, mimetypes.guess_type(target.name)[0] or "application/octet-stream")

    def read_built(self, target: Path, inside: bool) -> tuple[bytes | None, BuildState]:
        """A file of the site and the build it belongs to (read again if a rebuild swapped the site meanwhile)."""
        while True:
            state = self.preview.state
            try:
                data = target.read_bytes() if inside else None
            except OSError:
                data = None
            if self.preview.state is state:
                return data, state

    def send_html(self, status: HTTPStatus, page: str, build_id: str) -> None:
        """One of the preview's own pages (an error list, not found): no policy, the reload script at its end."""
        page = page.replace("</body>", f"<script>{reload_script()}</script></body>", 1)
        self.send_bytes(status, page.encode("utf-8"), "text/html; charset=utf-8", build_id)

    def send_bytes(self, status: HTTPStatus, data: bytes, content_type: str, build_id: str | None = None) -> None:
        """`build_id`: a page's build, which its reload script reads from the Server-Timing header."""
        self.send_response(status)
        if build_id is not None:
            self.send_header("Server-Timing", f'{BUILD_TIMING};desc="{build_id}"')
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_events(self, build_id: str) -> None:
        """Server-Sent Events: one `reload` message as soon as the site differs from the page's build. A page that
        could not read its build (a browser that hides Server-Timing outside a secure context, e.g. a phone on
        the LAN) is taken to be from the build at hand."""
        build_id = build_id or self.preview.state.build_id
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            self.wfile.write(b"retry: 500\n\n")
            self.wfile.flush()
            while not self.preview.stopping.is_set():
                state = self.preview.wait_for_rebuild(build_id, KEEPALIVE_SECONDS)
                if self.preview.stopping.is_set():
                    return
                if state.build_id != build_id:
                    self.wfile.write(f"data: {state.build_id}\n\n".encode())
                    self.wfile.flush()
                    return
                self.wfile.write(b": still here\n\n")  # a closed tab shows up as a failed write
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return


# ── what the preview adds to pages: its script, which the build puts into every page's own code ──────────────────────────────────────────────────────────────────────────────────
def reload_script() -> str:
    """Reload the page when the server reports a build newer than the one this page came from, which the page reads
    from its response's Server-Timing header: the script is the same in every build (its hash in each page's
    policy), so a rebuild takes every page whose inputs did not change as it was."""
    return ("(function(){var b='',t=performance.getEntriesByType('navigation')[0];"
            "((t&&t.serverTiming)||[]).forEach(function(e){if(e.name==='" + BUILD_TIMING + "')b=e.description;});"
            "var s=new EventSource('" + RELOAD_PATH + "?build='+encodeURIComponent(b));"
            "s.onmessage=function(){s.close();location.reload();};})();")


PAGE_STYLE = ("body{font:16px/1.6 system-ui,'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif;"
              "max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}h1{color:#b00020;font-size:1.4rem}"
              "li{margin:.6rem 0}pre{white-space:pre-wrap;background:#fff4f4;border-left:4px solid #b00020;"
              "padding:.5rem .8rem;margin:0;font:14px/1.5 ui-monospace,monospace}")


def error_page(problems: list[str], say: Speaker) -> str:
    here = str(Path.cwd()) + os.sep  # content/x/lesson.md:3 reads better than the full path
    items = "\n".join(f"<li><pre>{html.escape(p.replace(here, ''))}</pre></li>" for p in problems)
    return (f'<!DOCTYPE html>\n<html lang="{say.lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{say('Build failed · lessonkit preview')}</title>\n<style>{PAGE_STYLE}</style>\n</head>\n"
            f"<body>\n<main>\n<h1>{say('Build failed: {n} problem(s)', n=len(problems))}</h1>\n"
            f"<p>{say('Fix the files and save them: this page reloads by itself.')}</p>\n"
            f'<ol class="problems">\n{items}\n</ol>\n</main>\n</body>\n</html>\n')


def not_found_page(url_path: str, say: Speaker) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{say.lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{say('Page not found')}</title>\n<style>{PAGE_STYLE}</style>\n</head>\n<body>\n<main>\n"
            f"<h1>{html.escape(say('Not found: {path}', path=url_path))}</h1>\n"
            f'<p><a href="/">{say("Course contents")}</a></p>\n</main>\n</body>\n</html>\n')
