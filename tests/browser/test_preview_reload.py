"""`serve` in a real browser: the open page reloads itself after a save, under the page's own strict CSP."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import started

from lessonkit.commands.preview import Preview
from lesson_folders import PROJECT
from lessonkit.site import Options

@pytest.fixture
def preview(make_lesson, tmp_path):
    """A preview of one small lesson; its pages carry the engine's strict CSP (which lets only their own code run and
    connect only back to the preview server)."""
    make_lesson()
    options = Options(content=tmp_path / "content", out=tmp_path / "unused", themes=PROJECT / "themes",
                      cache=tmp_path / "cache")
    server = Preview(options, quiet=True).start("127.0.0.1", 0)
    yield server
    server.stop()


def save(path: Path, text: str) -> None:
    hidden = path.with_name(f".{path.name}.tmp")
    hidden.write_text(text, encoding="utf-8")
    os.replace(hidden, path)


def test_page_reloads_itself_after_a_save(browser, preview, tmp_path):
    page = browser.new_page()
    page.set_default_timeout(15_000)
    page.set_default_navigation_timeout(30_000)
    try:
        page.goto(preview.url + "demo/")
        started(page)
        assert page.get_by_text("二的十次方是 1024。").is_visible()
        # the page knows its build from the response (Server-Timing), which the reload script hands the server
        timing = page.evaluate("performance.getEntriesByType('navigation')[0].serverTiming"
                               ".map(e => [e.name, e.description])")
        assert timing == [["lk-build", preview.preview.state.build_id]]
        save(tmp_path / "content" / "demo" / "lesson.md", "## 第一节 {#first}\n\n改过了：{{ two_pow }}。\n")
        # reloading at all proves the script ran and reached /__reload under the page's strict policy
        page.get_by_text("改过了：1024").wait_for(timeout=10_000)
    finally:
        page.close()
