"""Browser tests: the built lesson in headless Chromium, opened from file:// and over http://127.0.0.1.

One site build, one browser and one HTTP server per session. Without Chromium/Playwright (or axe-core, or poppler)
these tests skip with the reason; under CI (CI=true) a missing tool is a failure, never a skip.
"""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lessonkit import chromium
from lessonkit.cli import main

PROJECT = Path(__file__).resolve().parents[2]
SLUG = "transformer-stability"
AXE = PROJECT / "node_modules" / "axe-core" / "axe.min.js"
IN_CI = os.environ.get("CI", "").lower() in ("true", "1", "yes")


def require(reason: str | None) -> None:
    """Skip locally, fail under CI: a browser test that silently skips in CI proves nothing."""
    if reason is None:
        return
    if IN_CI:
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser-site") / "out"
    assert main(["build", "--quiet", "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="session")
def browser():
    require(chromium.missing())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        yield browser
        browser.close()


@dataclass
class Server:
    url: str
    paths: list[str]                 # every path a client asked for, in order


@pytest.fixture(scope="session")
def server(site):
    """http://127.0.0.1:<free port>/ serving the built site from a thread, logging each request; stopped after."""
    paths: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            paths.append(self.path)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield Server(f"http://127.0.0.1:{httpd.server_address[1]}/", paths)
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def axe_source() -> str:
    require(None if AXE.exists() else f"axe-core is not installed ({AXE} missing): run `npm install` in {PROJECT}")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def poppler():
    tools = ("pdffonts", "pdftotext", "pdftoppm", "pdfinfo")
    absent = [t for t in tools if shutil.which(t) is None]
    require(f"poppler-utils missing ({', '.join(absent)}): sudo apt-get install poppler-utils" if absent else None)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Screenshots go here (git-ignored): $LESSONKIT_ARTIFACTS, default artifacts/ in the project."""
    folder = Path(os.environ.get("LESSONKIT_ARTIFACTS") or PROJECT / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


FAVICON = "/favicon.ico"


@dataclass
class Visit:
    """A page with everything it asked for and complained about recorded."""
    page: object
    url: str
    requests: list[str] = field(default_factory=list)
    console_errors: list[tuple[str, str]] = field(default_factory=list)     # (text, url it is about)
    page_errors: list[str] = field(default_factory=list)

    def has_csp(self) -> bool:
        return self.page.evaluate("!!document.querySelector('meta[http-equiv=Content-Security-Policy]')")

    def browser_favicon(self, url: str) -> bool:
        """Chromium asks a web server for /favicon.ico on its own (not seen by page.on('request')) unless a CSP
        without img-src stops it; that request is the browser's, not the page's."""
        return url.endswith(FAVICON) and self.url.startswith("http") and not self.has_csp()

    def assert_clean(self) -> None:
        assert self.page_errors == [], f"uncaught errors in {self.url}"
        errors = [text for text, url in self.console_errors if not self.browser_favicon(url)]
        assert errors == [], f"console errors in {self.url}"
        assert self.requests == [self.url], "the page must request nothing but itself"


@pytest.fixture
def open_page(browser):
    """open_page(url, width=1280, init_script=None) → Visit; every page gets its own context, closed at the end."""
    contexts = []

    def open_(url: str, width: int = 1280, init_script: str | None = None) -> Visit:
        context = browser.new_context(viewport={"width": width, "height": 900}, locale="zh-CN")
        contexts.append(context)
        if init_script:
            context.add_init_script(script=init_script)
        page = context.new_page()
        visit = Visit(page, url)
        page.on("request", lambda r: visit.requests.append(r.url))
        page.on("console", lambda m: m.type == "error" and visit.console_errors.append(
            (m.text, m.location.get("url", ""))))
        page.on("pageerror", lambda e: visit.page_errors.append(str(e)))
        page.goto(url, wait_until="load")
        return visit

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture(params=["file", "http"])
def lesson_url(request, site, server) -> str:
    """The lesson page from disk and over HTTP: both must behave the same."""
    if request.param == "file":
        return (site / SLUG / "index.html").as_uri()
    return f"{server.url}{SLUG}/index.html"


@pytest.fixture
def lesson(open_page, lesson_url):
    visit = open_page(lesson_url)
    yield visit
    visit.assert_clean()
