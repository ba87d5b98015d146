"""What the first paint of a lesson page relies on (issue 17), in Chromium, for every lesson:

- `<html class="js">` is set in the head, before the body is parsed, so the first screen is laid out once, as
  scripted, not again when the scripts at the end of the body run; without JavaScript it never is.
- every section with another one on screen after it is rendered only when it comes near the screen
  (content-visibility:auto, marked by the template, not found by :has()), the last one always; on paper all are.
"""
from __future__ import annotations

from conftest import page_url

# records, the moment the parser inserts <body>, whether <html> is already marked as scripted
WATCH_BODY = """
new MutationObserver((records, observer) => {
  if (!document.body) return;
  window.__jsAtBody = document.documentElement.classList.contains('js');
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});
"""

SECTIONS = """() => [...document.querySelectorAll('.lesson > section')].map(s => ({
  id: s.id, shown: getComputedStyle(s).display !== 'none',
  lazy: getComputedStyle(s).contentVisibility === 'auto'}))"""


def test_html_is_marked_scripted_before_the_body_is_parsed(open_page, lesson_url):
    visit = open_page(lesson_url, init_script=WATCH_BODY)
    assert visit.page.evaluate("window.__jsAtBody") is True
    visit.assert_clean()


def test_without_javascript_html_is_never_marked_scripted(browser, site, slug):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(page_url(site, None, slug, "file"), wait_until="load")
        assert page.evaluate("document.documentElement.className") == ""  # evaluate runs; the page's scripts did not
        assert page.locator(".js-only").first.is_hidden()
    finally:
        context.close()


def test_every_section_but_the_last_on_screen_renders_near_the_screen_only(lesson):
    page = lesson.page
    sections = [s for s in page.evaluate(SECTIONS) if s["shown"]]
    lazy = [s["id"] for s in sections if s["lazy"]]
    content = [s["id"] for s in sections if s["id"] not in ("lesson-glossary", "references", "sources")]
    # the lesson's sections and its challenges: each rendered late unless nothing on screen follows it
    expected = [i for i in content if i != sections[-1]["id"]]
    assert lazy == expected and lazy, sections
    assert not sections[-1]["lazy"]
    page.emulate_media(media="print")
    assert not any(s["lazy"] for s in page.evaluate(SECTIONS)), "on paper every section is laid out"


def test_a_lesson_of_sections_only_renders_its_last_section_at_once(open_page, make_lesson, run_build):
    """Nothing after the last section (no challenges, glossary, references, sources): that one is never deferred."""
    folder = make_lesson(md="## 一 {#one}\n\n甲。\n\n## 二 {#two}\n\n乙。\n\n## 三 {#three}\n\n丙。\n", py=None)
    code, _, err, out = run_build()
    assert code == 0, err
    visit = open_page((out / folder.name / "index.html").as_uri())
    sections = [s for s in visit.page.evaluate(SECTIONS) if s["shown"]]
    assert [(s["id"], s["lazy"]) for s in sections] == [("one", True), ("two", True), ("three", False)]
    visit.assert_clean()
