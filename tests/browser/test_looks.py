"""Screenshots for a human to look at (artifacts/, git-ignored) and what can be asserted about the look."""
from __future__ import annotations

import re

import pytest

from conftest import SLUG

CJK_FONT = re.compile(r"CJK|Source Han|PingFang|Hiragino|YaHei|WenQuanYi|Droid Sans Fallback", re.I)
MASK = "#widget-mask_table"


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("page_name", [f"{SLUG}/index.html", "index.html"])
def test_screenshot_and_no_sideways_scrolling(open_page, site, artifacts, width, page_name):
    visit = open_page((site / page_name).as_uri(), width=width)
    page = visit.page
    stem = "index" if page_name == "index.html" else SLUG
    page.screenshot(path=str(artifacts / f"{stem}-{width}.png"), full_page=True)
    if stem == SLUG:
        page.click(f"{MASK} .mode-btn[data-mode=decoder]")
        page.click(f"{MASK} .row-btn[data-row='2']")
        page.locator(MASK).screenshot(path=str(artifacts / f"{stem}-{width}-mask-decoder.png"))
    # nothing sticks out of the viewport, answers open, except inside boxes that scroll on purpose (formulas, tables)
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
    overflow = page.evaluate("""() => {
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
    }""")
    assert overflow["scroll"] <= overflow["client"], overflow
    assert overflow["out"] == [], overflow
    visit.assert_clean()


def fonts_for(cdp, root: int, selector: str) -> list[str]:
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, selector
    return [f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]


def test_chinese_is_drawn_with_a_cjk_font_in_text_and_figures(open_page, site):
    """Ask Chromium which installed fonts drew the glyphs: a missing CJK font would show up as a fallback here."""
    visit = open_page((site / SLUG / "index.html").as_uri())
    cdp = visit.page.context.new_cdp_session(visit.page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    chinese_svg_text = visit.page.evaluate("""() => {
        const texts = [...document.querySelectorAll('#fig-mask_heatmaps svg text')];
        const i = texts.findIndex(t => /[\\u4e00-\\u9fff]/.test(t.textContent));
        return i < 0 ? null : i + 1;
    }""")
    assert chinese_svg_text, "figure 1 has no Chinese <text> (were its labels turned into paths?)"
    for selector in ("h1", ".lesson-section p", f"{MASK} .status",
                     f"#fig-mask_heatmaps svg text:nth-of-type({chinese_svg_text})"):
        families = fonts_for(cdp, root, selector)
        assert families and all(CJK_FONT.search(f) for f in families), (selector, families)
