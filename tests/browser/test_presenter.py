"""The presenter view: from projector mode, S opens the same page as #presenter in a second window that shows the
current screen, the next one and the screen's notes, and stays in step with the projector window both ways — from
file:// and over http://, under the page's CSP, offline. Run on the fixture lesson (it has notes:
fixture_lesson.NOTES_WORDS) and on every lesson for axe."""
from __future__ import annotations

import re

import pytest

from conftest import PROJECT, page_url
from fixture_lesson import NOTES_WORDS
from lessonkit.support.i18n import load_ui
from conftest import axe_violations
from lessonkit.support.paths import BUILTIN_THEMES

SIZE = {"width": 1280, "height": 720}
WAIT = 15000  # ms a window may take to follow the other: ample on a loaded CI machine (two workers, LibreOffice)
UI = load_ui([BUILTIN_THEMES / "default"], "zh-CN")
# what the projector window shows now: its title, its count and the text of the blocks on screen
SHOWN = """() => ({
    title: document.querySelector('.pj-title').textContent,
    count: document.querySelector('.pj-count [aria-hidden]').textContent,
    text: [...document.querySelectorAll('.pj-block.pj-on')].filter(b => b.getClientRects().length)
        .map(b => b.innerText).join(' ')})"""
PRESENTER = """() => {
    const q = s => document.querySelector(s), t = e => e ? e.innerText : '';
    return {title: t(q('.pj-p-title')), count: t(q('.pj-p-count')), now: t(q('.pj-p-now .pj-stage')),
            next: t(q('.pj-p-next .pj-p-body')), notes: t(q('.pj-p-notes .pj-p-body')), status: t(q('.pj-p-status')),
            clock: t(q('.pj-p-time'))};
}"""


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def start(open_page, url: str, init_script: str | None = None):
    """The lesson in projector mode at a projector's size, and the presenter window opened with S from it."""
    visit = open_page(url, init_script=init_script)
    page = visit.page
    page.set_viewport_size(SIZE)
    page.keyboard.press("p")
    with page.expect_popup(timeout=WAIT) as popup:
        page.keyboard.press("s")
    presenter = popup.value
    errors: list[str] = []
    presenter.on("pageerror", lambda e: errors.append(str(e)))
    presenter.on("console", lambda m: m.type == "error" and errors.append(m.text))
    presenter.wait_for_load_state("load")
    presenter.set_viewport_size({"width": 1200, "height": 760})
    return visit, presenter, errors


def in_step(page, presenter, count: str | None = None) -> dict:
    """Wait until the projector shows screen `count` (as "i / n", when given; a key pressed in the other window
    reaches it a moment later) and the presenter shows the projector's screen; both as they are then."""
    if count is not None:
        page.wait_for_function("c => document.querySelector('.pj-count [aria-hidden]').textContent === c",
                               arg=count, timeout=WAIT)
    shown = page.evaluate(SHOWN)
    presenter.wait_for_function("t => { const e = document.querySelector('.pj-p-title');"
                                " return e && e.textContent === t; }", arg=shown["title"], timeout=WAIT)
    i, n = shown["count"].split(" / ")
    presenter.wait_for_function("c => (document.querySelector('.pj-p-count') || {}).textContent === c",
                                arg=UI.projector_count.format(i=i, n=n), timeout=WAIT)
    return {"projector": shown, "presenter": presenter.evaluate(PRESENTER)}


def test_presenter_follows_the_projector_and_drives_it(open_page, fixture_url):
    visit, presenter, errors = start(open_page, fixture_url)
    page = visit.page
    assert presenter.url.endswith("#presenter") and presenter.url.split("#")[0] == page.url.split("#")[0]
    screens = [page.evaluate(SHOWN)]                      # the projector's screens, walked on the projector
    total = int(screens[0]["count"].split(" / ")[1])
    for _ in range(total - 1):
        page.keyboard.press("ArrowRight")
        screens.append(page.evaluate(SHOWN))
    page.keyboard.press("Home")
    seen = []
    for i in range(total):                                # now the presenter's clicker walks both windows
        both = in_step(page, presenter, f"{i + 1} / {total}")
        shown = both["presenter"]
        assert squeeze(shown["now"]) == squeeze(screens[i]["text"]), f"screen {i + 1}: the current screen"
        if i + 1 < total:
            assert squeeze(shown["next"]) == squeeze(screens[i + 1]["text"]), f"screen {i + 1}: the next one"
        else:
            assert shown["next"].strip() == UI.presenter_last
        seen.append((screens[i]["title"], shown["notes"]))
        if i + 1 < total:  # (on the last screen it would move nothing, but could reach the projector after the
            presenter.keyboard.press("PageDown")  # ArrowLeft below and undo it)
    with_notes = {word: [title for title, notes in seen if word in notes] for word in NOTES_WORDS}
    assert with_notes == {"蓝鲸": ["1 掩码表"], "海豚": ["2 块数"]}, "each note beside the screen it sits on"
    assert all(notes.strip() == UI.presenter_no_notes for title, notes in seen
               if not any(w in notes for w in NOTES_WORDS))
    for key, back in (("ArrowLeft", total - 1), ("PageUp", total - 2)):   # and the projector's keys move it back
        page.keyboard.press(key)
        in_step(page, presenter, f"{back} / {total}")
    assert re.fullmatch(r"\d\d:\d\d", presenter.evaluate(PRESENTER)["clock"])
    assert errors == []
    visit.assert_clean()


def test_presenter_in_step_after_the_projector_moves_on_its_own(open_page, fixture_url):
    visit, presenter, errors = start(open_page, fixture_url)
    page = visit.page
    for _ in range(3):
        page.keyboard.press("PageDown")
    assert in_step(page, presenter)["projector"]["count"].startswith("4 / ")
    page.keyboard.press("Escape")                          # the projector leaves: the presenter says so
    presenter.wait_for_function("w => document.querySelector('.pj-p-status').textContent === w",
                                arg=UI.presenter_waiting, timeout=WAIT)
    page.keyboard.press("p")
    in_step(page, presenter)
    assert errors == []
    visit.assert_clean()


def test_presenter_window_alone_says_how_to_open_it(open_page, site, server):
    visit = open_page(page_url(site, server, "test-fixture-widgets", "file") + "#presenter")
    page = visit.page
    page.wait_for_function("w => document.querySelector('.pj-p-status').textContent === w",
                           arg=UI.presenter_alone, timeout=WAIT)
    assert page.locator(".pj-p-grid").is_hidden()
    visit.url = visit.url.split("#")[0]                  # what the page requested: itself, without the fragment
    visit.assert_clean()


@pytest.mark.parametrize("via", ["file"])
def test_both_windows_pass_axe(open_page, site, server, axe_source, slug, via):
    visit, presenter, errors = start(open_page, page_url(site, server, slug, via), init_script=axe_source)
    page = visit.page
    for _ in range(2):
        page.keyboard.press("PageDown")
    in_step(page, presenter)
    assert axe_violations(page) == [], "the projector window"
    presenter.wait_for_function("() => window.axe !== undefined", timeout=WAIT)
    assert axe_violations(presenter) == [], "the presenter window"
    assert errors == []
    visit.assert_clean()
