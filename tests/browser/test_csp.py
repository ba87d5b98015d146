"""Under the page's own Content-Security-Policy, in Chromium: the widgets work and nothing is blocked.

A tampered copy of the page (one inline script the policy does not list) proves the listener does catch violations.
"""
from __future__ import annotations

from conftest import FIXTURE, press_each_widget_button
from fixture_lesson import INITIAL, TOKENS
from sink_lesson import SVG, tiny_png

LISTEN = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));
"""


def test_widgets_work_and_nothing_is_blocked(open_page, lesson_url):
    """Every lesson: the policy is there, the inline script and style ran, and pressing each widget button in turn
    (whatever the widgets are) triggers no violation, error or request."""
    visit = open_page(lesson_url, init_script=LISTEN)
    page = visit.page
    assert visit.has_csp()
    assert page.evaluate("document.documentElement.classList.contains('js')"), "the inline script did not run"
    assert page.evaluate("[...document.styleSheets].some(s => s.cssRules.length > 0)"), "the inline style was refused"
    for state in press_each_widget_button(page):
        assert page.evaluate("window.__violations") == [], state
    assert page.evaluate("window.__violations") == []
    visit.assert_clean()  # no console errors (a CSP refusal is one), no request but the page itself


def test_fixture_widgets_change_under_the_policy(open_page, fixture_url):
    """The widgets really run under the policy: the clicks change what the page shows (fixture lesson)."""
    visit = open_page(fixture_url, init_script=LISTEN)
    page = visit.page
    n = len(TOKENS)
    table = page.locator("#widget-mask_table")
    assert table.locator(".mask-live td.is-masked").count() == 0          # encoder: every cell visible
    table.locator('.mode-btn[data-mode="decoder"]').click()               # 解码器
    assert table.locator(".mask-live td.is-masked").count() == n * (n - 1) // 2   # the cells above the diagonal
    first_row = table.locator(".mask-live tbody tr").first                # the first token may not see the next
    assert first_row.locator("td").nth(1).text_content() == "✕遮住"

    stack = page.locator("#widget-block_stack")
    assert stack.locator(".ex-shown").inner_text() == str(INITIAL)
    stack.locator('[data-step="1"]').click()                              # 加一块
    assert stack.locator(".ex-shown").inner_text() == str(INITIAL + 1)
    assert stack.get_attribute("data-state") == str(INITIAL + 1)
    assert page.evaluate("window.__violations") == []
    visit.assert_clean()


def test_a_script_outside_the_policy_is_blocked_and_reported(open_page, site, tmp_path):
    tampered = tmp_path / "tampered.html"
    html = (site / FIXTURE / "index.html").read_text(encoding="utf-8")
    tampered.write_text(html.replace("<body>", "<body><script>document.title = 'injected'</script>", 1),
                        encoding="utf-8")
    visit = open_page(tampered.as_uri(), init_script=LISTEN)
    assert visit.page.title() != "injected"
    assert visit.page.evaluate("window.__violations") == ["script-src-elem inline"]
    assert any("Content Security Policy" in text for text, _ in visit.console_errors)


def test_inlined_images_display_under_the_policy(open_page, make_lesson, run_build):
    folder = make_lesson(md="## 图 {#img}\n\n![蓝色像素](pixel.png) ![蓝色长方形](diagram.svg) {{ two_pow }}\n",
                         extra={"pixel.png": tiny_png(), "diagram.svg": SVG})
    code, _, err, out = run_build()
    assert code == 0, err
    visit = open_page((out / folder.name / "index.html").as_uri(), init_script=LISTEN)
    loaded = visit.page.evaluate("Array.from(document.images, i => [i.alt, i.complete, i.naturalWidth > 0])")
    assert loaded == [["蓝色像素", True, True], ["蓝色长方形", True, True]]  # a blocked image has naturalWidth 0
    assert visit.page.evaluate("document.images[0].naturalWidth") == 1    # the 1×1 PNG, decoded
    assert visit.page.evaluate("window.__violations") == []
    visit.assert_clean()
