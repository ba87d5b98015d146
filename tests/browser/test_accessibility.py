"""WCAG 2.1 A/AA with axe-core, plus what axe cannot judge: focus you can see, heading order, mask colours.

Run over every lesson found in content/ and the fixture lesson; the states checked are the ones a student reaches by
pressing each widget button in turn (whatever the widgets are), then with every answer open.
"""
from __future__ import annotations

import re

import pytest

from conftest import FIXTURE, LESSONS, axe_violations, press_each_widget_button

MASK = "#widget-mask_table"


def open_answers(page):
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
    page.evaluate("() => new Promise(r => setTimeout(r, 100))")  # the toggle events run


@pytest.mark.parametrize("width", [1280, 390])
def test_lesson_passes_axe_in_every_state(open_page, site, axe_source, slug, width):
    visit = open_page((site / slug / "index.html").as_uri(), width=width, init_script=axe_source)
    page = visit.page
    problems = {"as loaded": axe_violations(page)}
    # a widget button changes its own widget: check that widget after each press (a whole-page run per press would
    # take minutes on a long lesson); the whole page again once every button has been pressed and every answer opened
    for state in press_each_widget_button(page, mark="data-axe-pressed"):
        problems[state] = axe_violations(page, within="[data-axe-pressed]")
    open_answers(page)
    problems["every button pressed, every answer open"] = axe_violations(page)
    assert problems == {state: [] for state in problems}
    visit.assert_clean()


def test_index_passes_axe(open_page, site, axe_source):
    visit = open_page((site / "index.html").as_uri(), init_script=axe_source)
    assert axe_violations(visit.page) == []
    visit.assert_clean()


@pytest.mark.parametrize("page_name", ["index.html", *(f"{slug}/index.html" for slug in LESSONS)])
def test_headings_in_order_and_language(open_page, site, page_name):
    page = open_page((site / page_name).as_uri()).page
    levels = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6",
                                       "hs => hs.filter(h => h.getClientRects().length).map(h => +h.tagName[1])")
    assert levels[0] == 1 and levels.count(1) == 1
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, f"heading level jumps from h{before} to h{after}"
    assert page.evaluate("document.documentElement.lang") == "zh-CN"


def test_figures_have_text_alternatives(open_page, site, slug):
    page = open_page((site / slug / "index.html").as_uri()).page
    figures = page.eval_on_selector_all("figure", """fs => fs.map(f => {
        const img = f.querySelector('[role=img], img');
        const alt = img && (img.getAttribute('aria-label') || img.getAttribute('alt'));
        return [f.id, alt, !!f.querySelector('figcaption')];
    })""")
    if slug == FIXTURE:
        assert len(figures) == 1                              # the fixture places exactly one figure
    for fid, alt, has_caption in figures:
        assert alt and len(alt.strip()) >= 4 and has_caption, fid


def page_background(page) -> tuple[int, int, int]:
    """The colour behind the text: the body's, or the root's when the body is transparent."""
    css = page.evaluate("""() => {
        for (const el of [document.body, document.documentElement]) {
            const c = getComputedStyle(el).backgroundColor;
            if (c && c !== 'transparent' && !/rgba\\(.*,\\s*0\\)$/.test(c)) return c;
        }
        return 'rgb(255, 255, 255)';
    }""")
    return parse_rgb(css)


def test_keyboard_focus_is_always_visible(open_page, site, slug):
    """Tab through the whole lesson: every stop shows an outline of at least 2 px that contrasts with the page."""
    page = open_page((site / slug / "index.html").as_uri()).page
    background = page_background(page)
    has_widget_buttons = page.locator("[data-widget] button:visible:enabled").count() > 0
    seen = []
    for _ in range(400):
        page.keyboard.press("Tab")
        # (two frames: a section under content-visibility lays out when focus enters it, and the scroll follows)
        stop = page.evaluate("""async () => {
            await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
            const el = document.activeElement;
            if (!el || el === document.body) return null;
            const s = getComputedStyle(el), r = el.getBoundingClientRect();
            return {tag: el.tagName, text: (el.textContent || '').trim().slice(0, 20), style: s.outlineStyle,
                    width: parseFloat(s.outlineWidth), color: s.outlineColor, inView: r.bottom > 0 && r.top < innerHeight,
                    id: el.id || el.getAttribute('href') || el.dataset.mode || el.dataset.row || el.dataset.action,
                    widget: !!el.closest('[data-widget]')};
        }""")
        if stop is None or (seen and stop == seen[0]):
            break
        seen.append(stop)
        assert stop["style"] != "none" and stop["width"] >= 2, stop
        assert stop["inView"], f"focused element scrolled out of view: {stop}"
        assert contrast(parse_rgb(stop["color"]), background) >= 3, stop
    else:
        pytest.fail("Tab never came back to the first stop in 400 presses")
    assert "A" in {s["tag"] for s in seen}                    # at least the way back to the index
    if has_widget_buttons:
        assert any(s["tag"] == "BUTTON" and s["widget"] for s in seen), "no widget button reachable by keyboard"


def parse_rgb(css: str) -> tuple[int, int, int]:
    values = css[css.index("(") + 1:css.index(")")].replace(",", " ").split()
    return tuple(int(float(v)) for v in values[:3])


def luminance(rgb) -> float:
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_mask_cells_text_contrast(open_page, site):
    """axe cannot judge text on the striped (gradient) masked cells: check every colour stop here, WCAG AA 4.5:1.
    On the fixture lesson, which places the mask table."""
    page = open_page((site / FIXTURE / "index.html").as_uri()).page
    page.click(f"{MASK} .mode-btn[data-mode=decoder]")
    styles = page.evaluate("""sel => ['is-visible', 'is-masked'].map(k => {
        const c = document.querySelector(sel + ' td.cell.' + k), s = getComputedStyle(c);
        return [k, s.color, s.backgroundColor, s.backgroundImage];
    })""", MASK)
    for kind, fg, bg, image in styles:
        stops = [parse_rgb(m) for m in re.findall(r"rgba?\([^)]*\)", image)] or [parse_rgb(bg)]
        for stop in stops:
            assert contrast(parse_rgb(fg), stop) >= 4.5, (kind, fg, stop)
    assert styles[0][2] != styles[1][2] or styles[0][3] != styles[1][3], "masked and visible cells must look different"
