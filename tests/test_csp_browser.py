"""In Chromium, under the page's own Content-Security-Policy: the widgets work and nothing is blocked.

A tampered copy of the page (one extra inline script) proves the listener does catch violations.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from lessonkit.cli import main

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SLUG = "transformer-stability"
LISTEN = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));
"""


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing at /usr/bin/chromium (install.sh installs it)")
        pytest.skip("Chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def lesson_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("csp") / "out"
    assert main(["build", "--quiet", "--out", str(out)]) == 0
    return out / SLUG / "index.html"


def open_page(browser, path: Path):
    page = browser.new_page()
    console = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    page.add_init_script(LISTEN)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, console


def test_widgets_work_and_nothing_is_blocked(browser, lesson_page):
    page, console = open_page(browser, lesson_page)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(251, 250, 246)"  # style ran

    table = page.locator("#widget-mask_table")
    assert table.locator(".mask-live td.is-masked").count() == 0          # encoder: every cell visible
    table.locator('.mode-btn[data-mode="decoder"]').click()               # 解码器
    assert table.locator('.mode-btn[data-mode="decoder"]').inner_text() == "解码器"
    assert table.locator(".mask-live td.is-masked").count() == 6          # 4 tokens: the 6 cells above the diagonal
    first_row = table.locator(".mask-live tbody tr").first                # 它: may not see 最, the next token
    assert first_row.locator("td").nth(1).text_content() == "✕遮住"

    stack = page.locator("#widget-block_stack")
    assert stack.locator('[data-role="count"]').inner_text() == "1"
    stack.locator('[data-action="add"]').click()                          # 加一块
    assert stack.locator('[data-role="count"]').inner_text() == "2"
    assert stack.locator(".bs-stack .blk").count() == 2

    assert page.evaluate("window.__violations") == []
    assert [m for m in console if m.startswith(("error", "warning", "pageerror"))] == []
    page.close()


def test_a_script_outside_the_policy_is_blocked_and_reported(browser, lesson_page, tmp_path):
    tampered = tmp_path / "tampered.html"
    html = lesson_page.read_text(encoding="utf-8")
    tampered.write_text(html.replace("<body>", "<body><script>document.title = 'injected'</script>", 1),
                        encoding="utf-8")
    page, console = open_page(browser, tampered)
    assert page.title() != "injected"
    assert page.evaluate("window.__violations") == ["script-src-elem inline"]
    assert any("Content Security Policy" in m for m in console)
    page.close()


def test_inlined_images_display_under_the_policy(browser, make_lesson, run_build):
    from test_page_integrity import SVG, tiny_png

    folder = make_lesson(md="## 图 {#img}\n\n![蓝色像素](pixel.png) ![蓝色长方形](diagram.svg) {{ two_pow }}\n",
                         extra={"pixel.png": tiny_png(), "diagram.svg": SVG})
    code, _, err, out = run_build()
    assert code == 0, err
    page, console = open_page(browser, out / folder.name / "index.html")
    sizes = page.evaluate("Array.from(document.images, i => [i.alt, i.complete, i.naturalWidth > 0])")
    assert sizes == [["蓝色像素", True, True], ["蓝色长方形", True, True]]  # a blocked image has naturalWidth 0
    assert page.evaluate("document.images[0].naturalWidth") == 1  # the 1×1 PNG, decoded
    assert page.evaluate("window.__violations") == [] and console == []
    page.close()
