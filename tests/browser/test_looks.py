"""Screenshots for a human to look at ($LESSONKIT_ARTIFACTS) and what can be asserted about the look: no sideways
scrolling in any widget state, Chinese drawn with a CJK font. Every lesson in content/ plus the fixture lesson."""
from __future__ import annotations

import re

import pytest

from conftest import FIXTURE, LESSONS, press_each_widget_button

CJK_FONT = re.compile(r"CJK|Source Han|PingFang|Hiragino|YaHei|WenQuanYi|Droid Sans Fallback", re.I)

OVERFLOW = """() => {
    const doc = document.documentElement, out = [];
    for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= innerWidth + 1) continue;
        let clipped = false;
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
            if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(a).overflowX)) { clipped = true; break; }
        }
        if (!clipped) out.push(el.tagName + '.' + el.className + ' right=' + Math.round(r.right));
    }
    return {scroll: doc.scrollWidth, client: doc.clientWidth, out: out.slice(0, 10)};
}"""


def assert_no_overflow(page, state: str) -> None:
    """Nothing sticks out of the viewport, except inside boxes that scroll on purpose (formulas, tables)."""
    overflow = page.evaluate(OVERFLOW)
    assert overflow["scroll"] <= overflow["client"], (state, overflow)
    assert overflow["out"] == [], (state, overflow)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("page_name", [*(f"{slug}/index.html" for slug in LESSONS), "index.html"])
def test_screenshot_and_no_sideways_scrolling(open_page, site, artifacts, width, page_name):
    visit = open_page((site / page_name).as_uri(), width=width)
    page = visit.page
    stem = page_name.split("/")[0] if "/" in page_name else "index"
    page.screenshot(path=str(artifacts / f"{stem}-{width}.png"), full_page=True)
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
    page.evaluate("() => new Promise(r => setTimeout(r, 100))")  # the toggle events run
    assert_no_overflow(page, "answers open")
    for state in press_each_widget_button(page):
        assert_no_overflow(page, state)
    # each widget as the buttons left it, for a human to look at
    widgets = page.locator("[data-widget]")
    for k in range(widgets.count()):
        widget = widgets.nth(k)
        if widget.is_visible():
            name = re.sub(r"[^\w-]", "_", widget.get_attribute("id") or f"widget-{k}")
            widget.screenshot(path=str(artifacts / f"{stem}-{width}-{name}.png"))
    visit.assert_clean()


def fonts_for(cdp, root: int, selector: str) -> list[str]:
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, selector
    return [f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]


# Marks a few elements holding Chinese: the title, the first paragraph, a leaf inside each widget (never one marked
# already: a paragraph may be inside a widget), and one <text> of each figure drawn as SVG (and shown: not one in a
# closed answer). Their data-cjk-probe attribute lets the DevTools protocol find them by selector.
MARK_CHINESE = r"""() => {
    const han = /[\u4e00-\u9fff]/, pure = /^[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef\s]+$/, marked = [];
    const mark = (el, what) => {
        el.dataset.cjkProbe = String(marked.length);
        marked.push([what, pure.test(el.textContent)]);
    };
    // a leaf-most element with Chinese, preferring one with nothing but Chinese (then every glyph is CJK)
    const first = (sel, scope = document) => {
        const found = [...scope.querySelectorAll(sel)].filter(e => han.test(e.textContent) && !e.dataset.cjkProbe &&
            e.getClientRects().length && ![...e.children].some(c => han.test(c.textContent)));
        return found.find(e => pure.test(e.textContent)) || found[0];
    };
    for (const [sel, what] of [['h1', 'title'], ['main p, article p, p', 'paragraph']]) {
        const el = first(sel);
        if (el) mark(el, what);
    }
    for (const w of document.querySelectorAll('[data-widget]')) {
        const el = first('*', w);
        if (el) mark(el, 'widget ' + (w.id || w.dataset.widget));
    }
    for (const f of document.querySelectorAll('figure')) {
        const t = [...f.querySelectorAll('svg text')].find(t => han.test(t.textContent) && t.getClientRects().length
            && !t.closest('details:not([open])'));   // (a closed answer's figure has boxes, but is not drawn)
        if (t) mark(t, 'figure ' + f.id);
    }
    return marked;
}"""


def test_chinese_is_drawn_with_a_cjk_font_in_text_and_figures(open_page, site, slug):
    """Ask Chromium which installed fonts drew the glyphs: a missing CJK font would show up as a fallback here."""
    visit = open_page((site / slug / "index.html").as_uri())
    marked = visit.page.evaluate(MARK_CHINESE)
    names = [what for what, _ in marked]
    assert "title" in names
    if slug == FIXTURE:  # its figure has Chinese axis labels: they must still be <text> (not turned into paths)
        assert any(m.startswith("figure ") for m in names), names
        assert sum(m.startswith("widget widget-") for m in names) == 2, names  # its two placed widgets
    # sections off screen are not laid out yet (content-visibility: auto): lay them out to ask what drew them
    visit.page.evaluate("document.querySelectorAll('*').forEach(e => { if (getComputedStyle(e).contentVisibility"
                        " === 'auto') e.style.contentVisibility = 'visible'; })")
    cdp = visit.page.context.new_cdp_session(visit.page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    for k, (what, only_chinese) in enumerate(marked):
        families = fonts_for(cdp, root, f'[data-cjk-probe="{k}"]')
        cjk = [bool(CJK_FONT.search(f)) for f in families]
        # text with nothing but Chinese: every glyph from a CJK font; mixed text: at least the Chinese from one
        assert families and (all(cjk) if only_chinese else any(cjk)), (what, families)


# each table in a box it scrolls in, with its caption (a <caption>, or the paragraph that names it)
CAPTIONS = """() => [...document.querySelectorAll('.table-scroll>table')].map(t => [t, t.caption ||
        document.getElementById(t.getAttribute('aria-labelledby'))]).filter(([t, c]) => c && c.checkVisibility())
    .map(([t, c]) => ({text: c.textContent.slice(0, 30), width: c.getBoundingClientRect().width,
                       box: t.closest('.table-scroll').clientWidth, table: t.getBoundingClientRect().width,
                       lines: c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight)}))"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_table_caption_takes_the_column_width(open_page, site, slug, width):
    """A caption that wraps wraps at the width of the text column, not at its table's: a table of two narrow columns
    no longer squeezes its caption into a few characters a line, and on a phone the caption of a table wider than
    the screen wraps on the screen rather than across the table (a caption on one line may stay as wide as it is)."""
    page = open_page((site / slug / "index.html").as_uri(), width=width).page
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
    page.eval_on_selector_all(".ex-all-toggle", "bs => bs.forEach(b => b.click())")
    captions = page.evaluate(CAPTIONS)
    if slug == FIXTURE:
        assert any(c["table"] < c["box"] / 2 and c["lines"] > 1.5 for c in captions), captions
    for caption in captions:
        assert caption["lines"] < 1.5 or caption["width"] == pytest.approx(caption["box"], abs=1), caption
