"""Speaker notes in Chromium, on the fixture lesson (its `::: notes` blocks hold words no other text has:
fixture_lesson.NOTES_WORDS), from file:// and http://: a student never sees them — not on the page, not in
projector mode, not on paper, not through the page's search."""
from __future__ import annotations

import re
import subprocess

from fixture_lesson import NOTES_WORDS

WAIT = 5000


def visible_text(page) -> str:
    return page.evaluate("document.body.innerText")


def test_notes_are_in_the_page_but_never_shown(fixture_page):
    page = fixture_page.page
    assert page.locator(".speaker-notes").count() == len(NOTES_WORDS), "the notes are in the page, for the teacher"
    assert page.evaluate("[...document.querySelectorAll('.speaker-notes')].every(n => !n.getClientRects().length)")
    text = visible_text(page)
    assert "一直变大的那一行涨得最快" in text, "the callout around a note shows"
    for word in NOTES_WORDS:
        assert word not in text


def test_notes_never_show_in_projector_mode(fixture_page):
    page = fixture_page.page
    page.set_viewport_size({"width": 1280, "height": 720})
    page.keyboard.press("p")
    total = int(page.locator("[data-widget=projector] .pj-count span").first.text_content().split("/")[1])
    for _ in range(total):
        text = visible_text(page)
        assert not any(word in text for word in NOTES_WORDS)
        page.keyboard.press("ArrowRight")


def test_notes_never_print(fixture_page, poppler, tmp_path):
    page = fixture_page.page
    page.emulate_media(media="print")
    assert not any(word in visible_text(page) for word in NOTES_WORDS)
    target = tmp_path / "handout.pdf"
    page.pdf(path=str(target), format="A4", prefer_css_page_size=True)
    printed = subprocess.run(["pdftotext", str(target), "-"], capture_output=True, text=True, check=True,
                             timeout=60).stdout
    assert "掩码表" in re.sub(r"\s+", "", printed), "the page printed"
    assert not any(word in printed for word in NOTES_WORDS)


def search_hits(page, query: str) -> list[str]:
    page.fill("#site-search-input", "")
    page.type("#site-search-input", query)
    page.wait_for_function("() => document.querySelector('#site-search-status').textContent.trim() !== ''",
                           timeout=WAIT)
    return page.eval_on_selector_all("#site-search-results a", "as => as.map(a => a.textContent)")


def test_the_page_search_does_not_find_notes(fixture_page):
    page = fixture_page.page
    assert search_hits(page, "切换编码器"), "the search finds the text around the notes"
    for word in NOTES_WORDS:
        assert search_hits(page, word) == [], word
