"""课堂投影 (projector mode) in every lesson of content/: the lesson one screen at a time, each screen fitting the window.

The expectation is built from the normal page, before projector mode is touched: the header's parts (title, intro,
objectives; then the class question), every section, then the challenges, each a list of child elements ("pieces").
Walking the screens must show every visible piece exactly once, in page order, one part per screen, inside the window
and above the control bar.
"""
from __future__ import annotations

import re

import pytest

from conftest import axe_violations, started

# lessons: tests taking `slug` run over every lesson in content/ plus the fixture lesson (conftest.py)
SIZES = [(1280, 720), (1024, 768)]
ROOT = "[data-widget=projector]"
TOGGLE = f"{ROOT} .pj-toggle"
HASH = re.compile(r"#present-(.+)-(\d+)")

# Tag each piece of the normal page with its index (data-t) and its part (data-g); return the visible pieces in order.
TAG = """() => {
    const lesson = document.querySelector('article.lesson'), header = lesson.querySelector('.lesson-header');
    const parts = [];
    if (header) {
        const q = header.querySelector(':scope > .question-box');
        parts.push([...header.children].filter(c => c !== q));
        if (q) parts.push([q]);
    }
    lesson.querySelectorAll(':scope > section.lesson-section, :scope > section.challenges')
        .forEach(s => parts.push([...s.children]));
    const pieces = [];
    let n = 0;
    parts.forEach((p, g) => p.forEach(el => {
        el.dataset.t = n; el.dataset.g = g;
        if (el.getClientRects().length) pieces.push(n);
        n++;
    }));
    return {pieces, parts: parts.filter(p => p.length).length, rootPx: parseFloat(getComputedStyle(document.documentElement).fontSize)};
}"""

# What the window shows now.
SCREEN = """() => {
    const seen = el => el.getClientRects().length > 0;
    const shown = [...document.querySelectorAll('[data-t]')].filter(seen);
    const rects = shown.map(el => el.getBoundingClientRect());
    const root = document.querySelector('[data-widget=projector]'), bar = root.getBoundingClientRect();
    const active = document.activeElement, first = shown[0];
    const parent = first && first.parentElement;
    return {
        shown: shown.map(el => +el.dataset.t), parts: [...new Set(shown.map(el => +el.dataset.g))],
        top: Math.min(...rects.map(r => r.top)), bottom: Math.max(...rects.map(r => r.bottom)),
        left: Math.min(...rects.map(r => r.left)), right: Math.max(...rects.map(r => r.right)),
        barTop: bar.top, barBottom: bar.bottom, vh: innerHeight, vw: innerWidth,
        scrollH: document.documentElement.scrollHeight, scrollW: document.documentElement.scrollWidth,
        count: root.querySelector('.pj-count [aria-hidden]').textContent,
        hash: decodeURIComponent(location.hash),
        section: parent && parent.matches('section.lesson-section, section.challenges') ? parent.id : null,
        pressed: root.querySelector('.pj-toggle').getAttribute('aria-pressed'),
        focused: !!(active && active !== document.body && shown.some(e => active.contains(e) || e.contains(active))),
        elsewhere: ['.toc', '.site-bar', '.site-footer', '#sources', '.answers-part']
            .filter(s => [...document.querySelectorAll(s)].some(seen)),
        open: [...document.querySelectorAll('details.answer')].filter(d => d.open).length,
        rootPx: parseFloat(getComputedStyle(document.documentElement).fontSize),
    };
}"""


def lesson_file(site, slug: str) -> str:
    return (site / slug / "index.html").as_uri()


def open_lesson(open_page, site, slug, size=SIZES[0], init_script=None):
    visit = open_page(lesson_file(site, slug), width=size[0], init_script=init_script)
    visit.page.set_viewport_size({"width": size[0], "height": size[1]})
    visit.page.set_default_timeout(5000)
    return visit


def expect_fits(s: dict) -> None:
    """One part, inside the window, above the bar; nothing scrolls; the rest of the page hidden; focus on the part."""
    assert s["shown"], "a screen shows something"
    assert len(s["parts"]) == 1, f"one part per screen, got {s['parts']}"
    assert s["top"] >= 0 and s["left"] >= 0 and s["right"] <= s["vw"] + 0.5, s
    assert s["bottom"] <= s["barTop"] + 0.5, f"screen {s['count']} runs under the bar: {s['bottom']} > {s['barTop']}"
    assert s["barBottom"] <= s["vh"] + 0.5, s
    assert s["scrollH"] <= s["vh"] and s["scrollW"] <= s["vw"], f"screen {s['count']} scrolls: {s}"
    assert s["elsewhere"] == [], s["elsewhere"]
    assert s["pressed"] == "true" and s["focused"], s
    m = HASH.fullmatch(s["hash"])
    assert m, s["hash"]
    if s["section"]:
        assert m.group(1) == s["section"], (s["hash"], s["section"])


def walk(page) -> list[dict]:
    """From the first screen press → until the indicator says N / N; every screen checked on the way."""
    screens = [page.evaluate(SCREEN)]
    total = int(screens[0]["count"].split("/")[1])
    for _ in range(total - 1):
        page.keyboard.press("ArrowRight")
        screens.append(page.evaluate(SCREEN))
    return screens


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_and_every_piece_is_shown_once(open_page, site, slug, size):
    visit = open_lesson(open_page, site, slug, size)
    page = visit.page
    normal = page.evaluate(TAG)
    assert page.get_attribute(TOGGLE, "aria-pressed") == "false"
    assert page.evaluate("document.querySelector('.pj-toggle').tagName") == "BUTTON"
    page.click(TOGGLE)
    screens = walk(page)
    total = len(screens)
    for i, s in enumerate(screens, 1):
        assert s["count"] == f"{i} / {total}"
        expect_fits(s)
        assert s["rootPx"] >= 1.25 * normal["rootPx"], "projector type is large"
    assert [t for s in screens for t in s["shown"]] == normal["pieces"], "every piece once, in page order"
    parts = [s["parts"][0] for s in screens]
    assert parts == sorted(parts) and len(set(parts)) == normal["parts"], "parts in page order, none skipped"
    assert total >= normal["parts"]
    page.keyboard.press("ArrowRight")                               # past the end: stays
    assert page.evaluate(SCREEN)["count"] == f"{total} / {total}"
    for i in range(total - 1, 0, -1):                               # ← all the way back: the same screens
        page.keyboard.press("ArrowLeft")
        s = page.evaluate(SCREEN)
        assert (s["count"], s["shown"]) == (f"{i} / {total}", screens[i - 1]["shown"])
    visit.assert_clean()


def test_buttons_clicker_keys_and_p(open_page, site, slug):
    visit = open_lesson(open_page, site, slug)
    page = visit.page
    page.evaluate(TAG)
    page.keyboard.press("p")                                        # P from the page (focus on no text field)
    first = page.evaluate(SCREEN)
    expect_fits(first)
    total = int(first["count"].split("/")[1])
    if total > 1:
        page.click(f"{ROOT} .pj-step >> nth=1")                     # 下一屏
        assert page.evaluate(SCREEN)["count"] == f"2 / {total}"
        page.click(f"{ROOT} .pj-step >> nth=0")                     # 上一屏
        assert page.evaluate(SCREEN)["count"] == f"1 / {total}"
        assert page.is_disabled(f"{ROOT} .pj-step >> nth=0")
        for key, expect in [("PageDown", 2), ("PageUp", 1), ("Space", 2), ("End", total), ("Home", 1)]:
            page.keyboard.press(key)
            assert page.evaluate(SCREEN)["count"] == f"{expect} / {total}", key
    page.keyboard.press("p")
    assert page.get_attribute(TOGGLE, "aria-pressed") == "false"
    assert page.evaluate(SCREEN)["elsewhere"][:1] == [".toc"], "the whole page is back"
    visit.assert_clean()


def test_widgets_and_answers_usable_on_screen(open_page, site, slug):
    """Every button and answer on every screen can be clicked (nothing covers it); answers start closed and opening
    one keeps it on a screen that still fits."""
    visit = open_lesson(open_page, site, slug)
    page = visit.page
    page.evaluate(TAG)
    page.eval_on_selector_all("details.answer", "ds => ds.forEach(d => { d.open = true; })")   # a student opened them
    page.click(TOGGLE)
    total = int(page.evaluate(SCREEN)["count"].split("/")[1])
    answers = []
    for i in range(1, total + 1):
        s = page.evaluate(SCREEN)
        assert s["open"] == 0, "answers stay closed until the teacher opens them"
        controls = page.locator("[data-t] button:visible:not([disabled]), [data-t] summary:visible")
        for k in range(controls.count()):
            controls.nth(k).click(trial=True, timeout=3000)         # visible, enabled, not covered by the bar
        if page.locator("details.answer > summary:visible").count():
            answers.append(i)
        if i < total:
            page.keyboard.press("ArrowRight")
    if not answers:
        return
    page.keyboard.press("Home")
    for _ in range(answers[0] - 1):
        page.keyboard.press("ArrowRight")
    summary = page.locator("details.answer > summary:visible").first
    summary.click()
    body = page.locator("details.answer[open] .answer-body")
    body.wait_for(state="visible", timeout=5000)
    page.wait_for_function(f"""() => {{                         // the screen is dealt again: all of it fits
        const limit = document.querySelector('{ROOT}').getBoundingClientRect().top + 0.5;
        return [...document.querySelectorAll('[data-t]')].filter(e => e.getClientRects().length)
            .every(e => e.getBoundingClientRect().bottom <= limit);
    }}""", timeout=5000)
    assert page.locator("details.answer[open] .answer-body").is_visible(), "the opened answer stays on screen"
    expect_fits(page.evaluate(SCREEN))
    visit.assert_clean()


def test_escape_returns_to_the_same_place_and_the_hash_survives_reload(open_page, site, slug):
    visit = open_lesson(open_page, site, slug)
    page = visit.page
    page.evaluate(TAG)
    page.click(TOGGLE)
    total = int(page.evaluate(SCREEN)["count"].split("/")[1])
    target = max(1, (total * 2) // 3)                               # somewhere inside the lesson, past the header
    for _ in range(target - 1):
        page.keyboard.press("ArrowRight")
    before = page.evaluate(SCREEN)
    assert before["count"] == f"{target} / {total}"

    page.reload(wait_until="load")                                  # the hash alone brings the same screen back

    started(page)
    assert visit.requests.count(visit.url) == 2
    visit.requests.remove(visit.url)
    page.evaluate(TAG)
    after = page.evaluate(SCREEN)
    assert (after["count"], after["shown"], after["hash"]) == (before["count"], before["shown"], before["hash"])
    expect_fits(after)

    page.keyboard.press("Escape")
    back = page.evaluate(f"""first => {{
        const el = document.querySelector('[data-t="' + first + '"]'), r = el.getBoundingClientRect();
        const bottomed = scrollY >= document.documentElement.scrollHeight - innerHeight - 1;
        return {{top: bottomed ? 0 : r.top, vh: innerHeight, hash: decodeURIComponent(location.hash),
                 pressed: document.querySelector('{TOGGLE}').getAttribute('aria-pressed'),
                 focusIn: document.activeElement.contains(el)}};
    }}""", before["shown"][0])
    assert back["pressed"] == "false"
    assert -2 <= back["top"] < back["vh"] / 2, f"the screen's first piece is in view after Esc: {back}"
    assert back["focusIn"], "focus stays with the part that was shown"
    if before["section"]:
        assert back["hash"] == "#" + before["section"]
    assert not HASH.fullmatch(back["hash"]), "leaving projector mode leaves no projector hash (reload = normal page)"
    assert page.evaluate(SCREEN)["elsewhere"][:1] == [".toc"]
    visit.assert_clean()


def test_print_ignores_projector_mode(open_page, site, slug):
    """Printing while projecting gives the same pieces, the same type size and no projector bar as printing the page."""
    visit = open_lesson(open_page, site, slug)
    page = visit.page
    page.evaluate(TAG)
    printed = """() => ({shown: [...document.querySelectorAll('[data-t]')].filter(e => e.getClientRects().length)
                                 .map(e => +e.dataset.t),
                         rootPx: getComputedStyle(document.documentElement).fontSize,
                         widths: [...document.querySelectorAll('[data-t]')].map(e => Math.round(e.getBoundingClientRect().width)),
                         bar: document.querySelector('[data-widget=projector]').getClientRects().length})"""
    page.emulate_media(media="print")
    plain = page.evaluate(printed)
    page.emulate_media(media="screen")
    page.click(TOGGLE)
    page.keyboard.press("ArrowRight")
    page.emulate_media(media="print")
    projecting = page.evaluate(printed)
    assert projecting == plain and plain["bar"] == 0
    page.emulate_media(media="screen")
    visit.assert_clean()


def test_projector_mode_passes_axe(open_page, site, slug, axe_source):
    """axe on the first screen of every part, every screen with a widget or an answer, and the last (axe takes
    seconds a run: every screen would take minutes): the whole page once, on the first screen; after that only
    what changes from screen to screen — what the screen shows and the bar (its count and its buttons)."""
    visit = open_lesson(open_page, site, slug, init_script=axe_source)
    page = visit.page
    page.click(TOGGLE)
    total = int(page.evaluate(SCREEN)["count"].split("/")[1])
    problems = {}
    for i in range(1, total + 1):
        if page.evaluate("""() => location.hash.endsWith('-1') || [...document.querySelectorAll(
                '.pj-on [data-widget], .pj-on details')].some(e => e.getClientRects().length)""") or i == total:
            problems[page.evaluate("location.hash")] = axe_violations(page, None if i == 1 else f".pj-on, {ROOT}")
        if i < total:
            page.keyboard.press("ArrowRight")
    assert len(problems) > 1 and problems == {h: [] for h in problems}
    visit.assert_clean()
