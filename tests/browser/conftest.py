"""Browser tests: every lesson in headless Chromium, opened from file:// and over http://127.0.0.1.

"Every lesson" = each lesson folder found in content/ when the tests are collected (any number, any names: tests
that take a `slug` argument run once per lesson) plus the test's own fixture lesson (tests/browser/fixture_lesson.py),
which places the widgets the widget-specific tests drive. All of them are copied into one site built in a temporary
folder (output and cache there too). One site build, one browser and one HTTP server per session. Without
Chromium/Playwright (or axe-core, or poppler) these tests skip with the reason; under CI (CI=true) a missing tool is
a failure, never a skip. Every wait has a timeout: Playwright's defaults are set on each context, axe gets 60 s.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lessonkit.support import chromium
from lessonkit.cli import main

import book_lesson
import fixture_lesson
from lesson_folders import PROJECT, real_lessons
from run_once import made_once

REAL_LESSONS = real_lessons()
FIXTURE = fixture_lesson.SLUG
BOOK = book_lesson.SLUG                 # code with its output, citations, a figure in an answer (tests/book_lesson.py)
LESSONS = [*REAL_LESSONS, FIXTURE, BOOK]  # what tests taking `slug` run over
ACTION_TIMEOUT_MS = 15_000              # a click, a fill, a wait_for
NAVIGATION_TIMEOUT_MS = 30_000          # page.goto / reload
AXE = PROJECT / "node_modules" / "axe-core" / "axe.min.js"
IN_CI = os.environ.get("CI", "").lower() in ("true", "1", "yes")


def require(reason) -> None:
    """Skip locally, fail under CI: a browser test that silently skips in CI proves nothing. (`reason`: text, or a
    message such as chromium.missing()'s, None when nothing is missing.)"""
    if reason is None:
        return
    reason = str(reason)
    if IN_CI:
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_generate_tests(metafunc):
    if "slug" in metafunc.fixturenames:
        metafunc.parametrize("slug", LESSONS)


@pytest.fixture(scope="session")
def site_content(tmp_path_factory) -> Path:
    """A copy of content/ (every lesson, site.yaml, glossary, references.bib …) plus the fixture lessons, in a temporary
    folder (the book fixture's entries are added to the copy of references.bib); once per run (tests/run_once.py).
    Read it, never write into it."""
    def make(folder: Path) -> None:
        content = folder / "content"
        if (PROJECT / "content").is_dir():
            shutil.copytree(PROJECT / "content", content, ignore=shutil.ignore_patterns("__pycache__"))
        fixture_lesson.write_fixture_lesson(content)
        book_lesson.write_book_lesson(content)
    return made_once(tmp_path_factory, "browser-content", make) / "content"


@pytest.fixture(scope="session")
def site(site_content, tmp_path_factory, shared_cache) -> Path:
    """site_content built, once per run (tests/run_once.py). Read it, never write into it."""
    def make(folder: Path) -> None:
        assert main(["build", "--quiet", "--content", str(site_content), "--out", str(folder / "out"),
                     "--cache-dir", str(shared_cache)]) == 0
    return made_once(tmp_path_factory, "browser-site", make) / "out"


@pytest.fixture(scope="session")
def site_cache(site, shared_cache) -> Path:
    """The figure cache the site was built with (the PDF handout reuses it)."""
    return shared_cache


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


WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_TIMEOUT_MS = 60_000


def axe_violations(page, within: str | None = None) -> list[str]:
    """axe's WCAG 2.1 A/AA violations on the whole page, or only inside the elements matching `within` (the page
    has axe: open it with init_script=axe_source)."""
    return page.evaluate("""([tags, ms, within]) => Promise.race([
        axe.run(within ? {include: [...document.querySelectorAll(within)]} : document,
                {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']}),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`axe.run took over ${ms} ms`)), ms))])
        .then(r => r.violations.map(v => `${v.id} (${v.impact}): ${v.help} — ` +
                                         v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(' | ')))""",
                         [WCAG, AXE_TIMEOUT_MS, within])


@pytest.fixture(scope="session")
def poppler():
    tools = ("pdffonts", "pdftotext", "pdftoppm", "pdfinfo")
    absent = [t for t in tools if shutil.which(t) is None]
    require(f"poppler-utils missing ({', '.join(absent)}): sudo apt-get install poppler-utils" if absent else None)


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory) -> Path:
    """Screenshots go to $LESSONKIT_ARTIFACTS when it is set (e.g. LESSONKIT_ARTIFACTS=artifacts, git-ignored),
    otherwise into the session's temporary folder: a test run writes nothing into the repository by itself."""
    chosen = os.environ.get("LESSONKIT_ARTIFACTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("artifacts")
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




def started(page, timeout: int = 10_000) -> None:
    """Wait until the page's components have started (lesson.js starts them after the first paint)."""
    page.wait_for_function(chromium.STARTED, timeout=timeout)


def settled(page, expression: str, expected, timeout: int = NAVIGATION_TIMEOUT_MS):
    """The value of the JS `expression` once it equals `expected`, else as it is after `timeout` ms (for the caller's
    assertion to report). For what a page learns from another page of the same browser, such as a choice kept in
    localStorage: the browser hands it on, on a loaded machine a moment after this page has started, and the page
    follows it (its `storage` listener). As long as a page may take to load: a fresh-clone run at load ≈10 once took
    longer than 10 s for a tab choice to show on the next lesson's page. The predicate is a function: Playwright `eval`s a bare expression in the page
    while it polls, which the page's CSP refuses."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"() => JSON.stringify({expression}) === {json.dumps(json.dumps(expected))}",
                               timeout=timeout)
    except PlaywrightTimeout:
        pass
    return page.evaluate(expression)


@pytest.fixture
def open_page(browser):
    """open_page(url, width=1280, init_script=None) → Visit; every page gets its own context, closed at the end."""
    contexts = []

    def open_(url: str, width: int = 1280, init_script: str | None = None) -> Visit:
        context = browser.new_context(viewport={"width": width, "height": 900}, locale="zh-CN")
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
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
        # a lesson page checks the boxes of sections not laid out yet (content-visibility) when idle: wait for it
        page.wait_for_function("() => !(window.lessonkit && window.lessonkit.refresh)"
                               " || document.documentElement.hasAttribute('data-lk-checked')", timeout=10000)
        return visit

    yield open_
    for context in contexts:
        context.close()


def page_url(site: Path, server: Server, slug: str, via: str) -> str:
    if via == "file":
        return (site / slug / "index.html").as_uri()
    return f"{server.url}{slug}/index.html"


@pytest.fixture(params=["file", "http"])
def lesson_url(request, site, server, slug) -> str:
    """Each lesson's page from disk and over HTTP: both must behave the same."""
    return page_url(site, server, slug, request.param)


@pytest.fixture
def lesson(open_page, lesson_url):
    visit = open_page(lesson_url)
    yield visit
    visit.assert_clean()


@pytest.fixture(params=["file", "http"])
def fixture_url(request, site, server) -> str:
    """The fixture lesson (the one with mask_table and block_stack) from disk and over HTTP."""
    return page_url(site, server, FIXTURE, request.param)


@pytest.fixture
def fixture_page(open_page, fixture_url):
    visit = open_page(fixture_url)
    yield visit
    visit.assert_clean()


def widget_buttons(page):
    """Every button inside a widget, in document order (generic: any kind of widget, today's or a teacher's)."""
    return page.locator("[data-widget] button")


def press_each_widget_button(page, mark: str | None = None):
    """Click each visible, enabled `[data-widget] button` in turn; yields a description of the state reached.
    With `mark`, the widget (outermost `[data-widget]`) holding the button just pressed carries that attribute."""
    buttons = widget_buttons(page)
    for i in range(buttons.count()):
        button = buttons.nth(i)
        if not button.is_visible() or button.is_disabled():
            continue
        name = button.evaluate("""(b, mark) => {
            const all = [], w = b.closest('[data-widget]');
            for (let a = w; a; a = a.parentElement && a.parentElement.closest('[data-widget]')) all.push(a);
            if (mark) {
                document.querySelectorAll('[' + mark + ']').forEach(e => e.removeAttribute(mark));
                all[all.length - 1].setAttribute(mark, '');
            }
            return (w.id || w.dataset.widget) + ' «' + b.textContent.trim().slice(0, 20) + '»';
        }""", mark)
        button.click()
        yield f"after pressing button {i} ({name})"
