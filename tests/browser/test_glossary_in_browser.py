"""Glossary toggletips in Chromium, over every lesson found in content/: each mark opens its tip on click and from
the keyboard (Tab to it, Enter or Space), Escape closes it, the tip fits a 390 px phone screen, axe finds nothing
with a tip open (light and dark); without JavaScript a mark is a link to the lesson's 术语表 entry."""
from __future__ import annotations

import pytest

from conftest import started
import yaml

from lesson_folders import PROJECT, real_lessons
from conftest import axe_violations

TIMEOUT = 10_000          # ms, every wait
MARKS = "a.term-ref[data-term]"
TAB_LIMIT = 600           # Tab presses allowed to reach the first mark
REAL_LESSONS = real_lessons()   # every lesson folder in content/, found now


def glossary_terms() -> dict[str, dict]:
    path = PROJECT / "content" / "glossary.yaml"
    if not path.exists():
        return {}
    return {t["id"]: t for t in yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]}


def open_lesson(open_page, site, slug, width=1280, init_script=None):
    visit = open_page((site / slug / "index.html").as_uri(), width=width, init_script=init_script)
    visit.page.set_default_timeout(TIMEOUT)
    return visit


def mark_ids(page) -> list[str]:
    return page.eval_on_selector_all(MARKS, "ms => ms.map(m => m.getAttribute('data-term'))")


def tip_state(page, index: int) -> dict:
    return page.evaluate("""i => {
        const m = document.querySelectorAll('a.term-ref[data-term]')[i];
        const live = m.parentElement.querySelector('.term-live');
        const bubble = live && live.querySelector('.term-bubble');
        const r = bubble && bubble.getBoundingClientRect();
        return {expanded: m.getAttribute('aria-expanded'), role: m.getAttribute('role'),
                live: live && live.getAttribute('role'), text: bubble ? bubble.textContent : null,
                rect: r && [r.left, r.right, r.top, r.bottom], width: document.documentElement.clientWidth,
                focused: document.activeElement === m,
                open: document.querySelectorAll('.term-bubble').length};
    }""", index)


def wait_open(page, index: int) -> None:
    page.wait_for_function("""i => {
        const m = document.querySelectorAll('a.term-ref[data-term]')[i];
        return m.getAttribute('aria-expanded') === 'true' && m.parentElement.querySelector('.term-bubble');
    }""", arg=index, timeout=TIMEOUT)


def wait_closed(page) -> None:
    page.wait_for_function("() => !document.querySelector('.term-bubble') && "
                           "!document.querySelector('a.term-ref[aria-expanded=true]')", timeout=TIMEOUT)


def check_tip_text(text: str, term: dict, entry_text: str) -> None:
    assert term["zh"] in text and term["en"] in text
    assert entry_text.strip() and entry_text.strip() in " ".join(text.split())


def entry_definition(page, term_id: str) -> str:
    return page.evaluate("id => document.querySelector('#term-' + id + ' dd').textContent.split(/\\s+/).join(' ')",
                         term_id)


@pytest.mark.parametrize("lesson_slug", REAL_LESSONS)
def test_tips_open_on_click_and_keyboard_and_close_on_escape(open_page, site, lesson_slug):
    visit = open_lesson(open_page, site, lesson_slug)
    page = visit.page
    ids = mark_ids(page)
    entries = page.eval_on_selector_all(".glossary-entry", "es => es.map(e => e.id)")
    assert entries == list(dict.fromkeys(f"term-{i}" for i in ids)), "the 术语表 lists each marked term, in order"
    if not ids:
        return
    terms = glossary_terms()
    assert page.eval_on_selector_all(MARKS, "ms => ms.every(m => m.getAttribute('role') === 'button' && "
                                     "m.getAttribute('aria-expanded') === 'false')")
    # click: opens with both names and the definition in a live region; Escape closes it and keeps the focus
    for i in range(min(len(ids), 3)):
        page.locator(MARKS).nth(i).click()
        wait_open(page, i)
        state = tip_state(page, i)
        assert state["live"] == "status" and state["open"] == 1
        check_tip_text(state["text"], terms[ids[i]], entry_definition(page, ids[i]))
        page.keyboard.press("Escape")
        wait_closed(page)
        assert tip_state(page, i)["focused"], "Escape returns focus to the mark"
    # a second click on the mark closes its tip
    page.locator(MARKS).first.click()
    wait_open(page, 0)
    page.locator(MARKS).first.click()
    wait_closed(page)
    # a click elsewhere closes it
    page.locator(MARKS).first.click()
    wait_open(page, 0)
    page.locator("h1").click()
    wait_closed(page)
    # keyboard only: Tab from the top of the page to the first mark, Enter opens, Escape closes, Space opens
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.locator("body").focus() if page.evaluate("document.body.tabIndex >= 0") else None
    for _ in range(TAB_LIMIT):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('a.term-ref[data-term]')"):
            break
    else:
        pytest.fail(f"no glossary mark reached with {TAB_LIMIT} Tab presses")
    index = page.evaluate("[...document.querySelectorAll('a.term-ref[data-term]')].indexOf(document.activeElement)")
    page.keyboard.press("Enter")
    wait_open(page, index)
    check_tip_text(tip_state(page, index)["text"], terms[ids[index]], entry_definition(page, ids[index]))
    page.keyboard.press("Escape")
    wait_closed(page)
    scrolled = page.evaluate("window.scrollY")
    page.keyboard.press("Space")
    wait_open(page, index)
    assert page.evaluate("window.scrollY") == scrolled, "Space opens the tip instead of scrolling the page"
    page.keyboard.press("Escape")
    wait_closed(page)
    assert tip_state(page, index)["focused"]
    visit.assert_clean()


@pytest.mark.parametrize("lesson_slug", REAL_LESSONS)
def test_every_tip_fits_a_phone_screen(open_page, site, lesson_slug, artifacts):
    visit = open_lesson(open_page, site, lesson_slug, width=390)
    page = visit.page
    ids = mark_ids(page)
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")   # marks in answers too
    shown = [i for i in range(len(ids)) if page.locator(MARKS).nth(i).is_visible()]   # not the print-only copies
    assert len(shown) >= len(set(ids))
    for i in shown:
        page.locator(MARKS).nth(i).click()
        wait_open(page, i)
        state = tip_state(page, i)
        left, right, _, _ = state["rect"]
        assert 0 <= left and right <= state["width"], f"tip of `{ids[i]}` leaves the screen: {state['rect']}"
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
        if i == shown[-1]:
            page.screenshot(path=str(artifacts / f"glossary-tip-{lesson_slug}-390.png"))
        page.keyboard.press("Escape")
        wait_closed(page)
    visit.assert_clean()


@pytest.mark.parametrize("scheme,width", [("light", 390), ("dark", 1280)])
@pytest.mark.parametrize("lesson_slug", REAL_LESSONS)
def test_axe_finds_nothing_with_a_tip_open(open_page, site, axe_source, lesson_slug, scheme, width, artifacts):
    visit = open_lesson(open_page, site, lesson_slug, width=width, init_script=axe_source)
    page = visit.page
    page.emulate_media(color_scheme=scheme)
    if mark_ids(page):
        page.locator(MARKS).first.click()
        wait_open(page, 0)
        page.screenshot(path=str(artifacts / f"glossary-tip-{lesson_slug}-{scheme}-{width}.png"))
    if scheme == "light":
        assert axe_violations(page) == []
    else:  # the open tip and the 术语表 (the page's other parts are checked in dark mode by test_colormode)
        page.evaluate("() => document.querySelector('a.term-ref[aria-expanded=true]')"
                      "?.parentElement.setAttribute('data-axe-tip', '')")
        assert axe_violations(page, within="[data-axe-tip]") == [] if mark_ids(page) else True
        assert axe_violations(page, within=".glossary") == [] if mark_ids(page) else True
    visit.assert_clean()


def test_glossary_page_lists_every_term_and_passes_axe(open_page, site, axe_source):
    terms = glossary_terms()
    if not terms:
        assert not (site / "glossary.html").exists()
        return
    visit = open_page((site / "glossary.html").as_uri(), init_script=axe_source)
    page = visit.page
    page.set_default_timeout(TIMEOUT)
    assert page.eval_on_selector_all(".glossary-entry", "es => es.map(e => e.id)") == [f"term-{t}" for t in terms]
    assert axe_violations(page) == []
    visit.assert_clean()


@pytest.mark.parametrize("lesson_slug", REAL_LESSONS)
def test_without_javascript_a_mark_links_to_its_entry(browser, site, lesson_slug):
    context = browser.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=False, locale="zh-CN")
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto((site / lesson_slug / "index.html").as_uri(), wait_until="load", timeout=TIMEOUT)
        started(page)
        ids = mark_ids(page)
        if not ids:
            return
        assert page.locator(MARKS).first.get_attribute("role") is None
        page.locator(MARKS).first.click()
        page.wait_for_function("id => location.hash === '#term-' + id", arg=ids[0], timeout=TIMEOUT)
        assert page.locator(f"#term-{ids[0]}").is_visible()
    finally:
        context.close()
