"""WCAG 2.1 A/AA with axe-core, plus what axe cannot judge: focus you can see, heading order, mask colours."""
from __future__ import annotations

import pytest

from conftest import SLUG

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
MASK = "#widget-mask_table"


def axe_violations(page) -> list[str]:
    found = page.evaluate("""tags => axe.run(document, {runOnly: {type: 'tag', values: tags},
                                                        resultTypes: ['violations']})
        .then(r => r.violations.map(v => `${v.id} (${v.impact}): ${v.help} — ` +
                                         v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(' | ')))""", WCAG)
    return found


def open_answers(page):
    page.eval_on_selector_all("details.answer", "ds => ds.forEach(d => { d.open = true; })")


STATES = {
    "encoder": lambda page: None,
    "decoder": lambda page: page.click(f"{MASK} .mode-btn[data-mode=decoder]"),
    "decoder-row-3-answers-open": lambda page: (page.click(f"{MASK} .mode-btn[data-mode=decoder]"),
                                                page.click(f"{MASK} .row-btn[data-row='3']"), open_answers(page)),
}


@pytest.mark.parametrize("width", [1280, 390])
def test_lesson_passes_axe_in_every_state(open_page, site, axe_source, width):
    visit = open_page((site / SLUG / "index.html").as_uri(), width=width, init_script=axe_source)
    problems = {}
    for state, reach in STATES.items():
        reach(visit.page)
        problems[state] = axe_violations(visit.page)
    assert problems == {state: [] for state in STATES}
    visit.assert_clean()


def test_index_passes_axe(open_page, site, axe_source):
    visit = open_page((site / "index.html").as_uri(), init_script=axe_source)
    assert axe_violations(visit.page) == []
    visit.assert_clean()


@pytest.mark.parametrize("page_name", ["index.html", f"{SLUG}/index.html"])
def test_headings_in_order_and_language(open_page, site, page_name):
    page = open_page((site / page_name).as_uri()).page
    levels = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6",
                                       "hs => hs.filter(h => h.getClientRects().length).map(h => +h.tagName[1])")
    assert levels[0] == 1 and levels.count(1) == 1
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, f"heading level jumps from h{before} to h{after}"
    assert page.evaluate("document.documentElement.lang") == "zh-CN"


def test_figures_have_text_alternatives(open_page, site):
    page = open_page((site / SLUG / "index.html").as_uri()).page
    figures = page.eval_on_selector_all("figure", """fs => fs.map(f => {
        const img = f.querySelector('[role=img]');
        return [f.id, img ? img.getAttribute('aria-label') : null, !!f.querySelector('figcaption'),
                !!f.querySelector('[role=img] svg')];
    })""")
    assert len(figures) == 4
    for fid, alt, has_caption, has_svg in figures:
        assert alt and len(alt) > 30 and has_caption and has_svg, fid


def test_keyboard_focus_is_always_visible(open_page, site):
    """Tab through the whole lesson: every stop shows an outline of at least 2 px that contrasts with the page."""
    page = open_page((site / SLUG / "index.html").as_uri()).page
    seen = []
    for _ in range(200):
        page.keyboard.press("Tab")
        stop = page.evaluate("""() => {
            const el = document.activeElement;
            if (!el || el === document.body) return null;
            const s = getComputedStyle(el), r = el.getBoundingClientRect();
            return {tag: el.tagName, text: (el.textContent || '').trim().slice(0, 20), style: s.outlineStyle,
                    width: parseFloat(s.outlineWidth), color: s.outlineColor, inView: r.bottom > 0 && r.top < innerHeight,
                    id: el.id || el.getAttribute('href') || el.dataset.mode || el.dataset.row || el.dataset.action};
        }""")
        if stop is None or (seen and stop == seen[0]):
            break
        seen.append(stop)
        assert stop["style"] != "none" and stop["width"] >= 2, stop
        assert stop["inView"], f"focused element scrolled out of view: {stop}"
        assert contrast(parse_rgb(stop["color"]), (0xfb, 0xfa, 0xf6)) >= 3, stop
    kinds = {s["tag"] for s in seen}
    assert {"A", "BUTTON"} <= kinds and len(seen) > 15


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
    """axe cannot judge text on the striped (gradient) masked cells: check every colour stop here, WCAG AA 4.5:1."""
    page = open_page((site / SLUG / "index.html").as_uri()).page
    page.click(f"{MASK} .mode-btn[data-mode=decoder]")
    styles = page.evaluate("""sel => ['is-visible', 'is-masked'].map(k => {
        const c = document.querySelector(sel + ' td.cell.' + k), s = getComputedStyle(c);
        return [k, s.color, s.backgroundColor, s.backgroundImage];
    })""", MASK)
    import re
    for kind, fg, bg, image in styles:
        stops = [parse_rgb(m) for m in re.findall(r"rgba?\([^)]*\)", image)] or [parse_rgb(bg)]
        for stop in stops:
            assert contrast(parse_rgb(fg), stop) >= 4.5, (kind, fg, stop)
    assert styles[0][2] != styles[1][2] or styles[0][3] != styles[1][3], "masked and visible cells must look different"
