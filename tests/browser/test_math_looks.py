"""How formulas look in Chromium: a display formula wider than a phone scrolls in its own box (focusable, named,
a shade at the edge beyond which more of it lies) and never widens the page; a prime stands beside its base at the
base's size. Every lesson in content/ plus the fixture lesson, whose formula section (fixture_lesson.FORMULA) has
both for certain."""
from __future__ import annotations

import io

import pytest
import yaml

from lessonkit.support.paths import BUILTIN_THEMES

from conftest import FIXTURE

PHONE = 390

FORMULA_BOXES = """() => [...document.querySelectorAll('.math-block')].filter(b => b.checkVisibility()).map((b, i) => {
    b.dataset.probe = String(i);
    const s = getComputedStyle(b), r = b.getBoundingClientRect();
    return {i, wide: b.scrollWidth > b.clientWidth + 1, overflow: s.overflowX, right: r.right,
            tabindex: b.getAttribute('tabindex'), role: b.getAttribute('role'), name: b.getAttribute('aria-label'),
            inner: b.querySelector('math').getAttribute('tabindex')};
})"""

SCROLL_TO = """([i, at]) => new Promise(done => {
    const b = document.querySelector(`.math-block[data-probe="${i}"]`);
    b.scrollIntoView({block: 'center'});
    b.scrollLeft = at === 'end' ? b.scrollWidth : 0;
    requestAnimationFrame(() => requestAnimationFrame(done));     // its scroll event handled, the page drawn
})"""
EDGE = 12   # px: the strip at each side of the box compared


def shades(page, i: int, at) -> dict[str, bool]:
    """Which edges of the box are shaded once it is scrolled to `at` (0 or "end"): its picture against the same picture
    with the box's background taken away differs there."""
    from PIL import Image, ImageChops

    page.evaluate(SCROLL_TO, [i, at])
    box = page.locator(f'.math-block[data-probe="{i}"]')
    shown = Image.open(io.BytesIO(box.screenshot())).convert("L")
    box.evaluate("b => { b.style.background = 'none'; }")
    bare = Image.open(io.BytesIO(box.screenshot())).convert("L")
    box.evaluate("b => { b.style.background = ''; }")
    diff = ImageChops.difference(shown, bare)
    w, h = diff.size

    def shaded(x0: int) -> bool:
        strip = diff.crop((x0, 0, x0 + EDGE, h))
        return strip.getextrema()[1] > 24

    return {"left": shaded(0), "right": shaded(w - EDGE)}


def theme_word(lang: str, key: str) -> str:
    words = yaml.safe_load((BUILTIN_THEMES / "default" / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8"))
    return words[key]


def test_a_wide_display_formula_scrolls_in_its_own_box(open_page, site, slug):
    visit = open_page((site / slug / "index.html").as_uri(), width=PHONE)
    page = visit.page
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")   # answers' formulas too
    page.evaluate("() => new Promise(r => setTimeout(r, 100))")  # the toggle events run
    overflow = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert overflow[0] <= overflow[1], "the page itself never scrolls sideways"
    boxes = page.evaluate(FORMULA_BOXES)
    wide = [b for b in boxes if b["wide"]]
    if slug == FIXTURE:
        assert wide, "the fixture's formula is wider than a phone"
    name = theme_word(page.evaluate("document.documentElement.lang"), "formula_scrolls")
    for box in wide:
        assert box["overflow"] in ("auto", "scroll") and box["right"] <= PHONE, box
        # a Tab stop, named as a region, itself (not the formula inside it) the box the arrow keys scroll
        assert (box["tabindex"], box["role"], box["name"], box["inner"]) == ("0", "region", name, None), box
        page.focus(f'.math-block[data-probe="{box["i"]}"]')
        assert page.evaluate("document.activeElement.dataset.probe") == str(box["i"])
        # a shade on the side where more of the formula is: at the start on the right, at the end on the left
        assert shades(page, box["i"], 0) == {"left": False, "right": True}, box
        assert shades(page, box["i"], "end") == {"left": True, "right": False}, box
    for box in boxes:
        if not box["wide"]:  # a formula that fits: no Tab stop, no region, no shade
            assert (box["tabindex"], box["role"], box["name"]) == (None, None, None), box
            assert shades(page, box["i"], 0) == {"left": False, "right": False}, box
    visit.assert_clean()


PRIMES = """() => [...document.querySelectorAll('#formula mi, #formula mo')].filter(p => /^[′″‴]+$/.test(p.textContent))
    .map(p => {
        // the base: what stands before the prime in its row, or the base of the superscript holding it
        const base = p.previousElementSibling || p.closest('msup, msubsup').firstElementChild;
        const pr = p.getBoundingClientRect(), br = base.getBoundingClientRect();
        return {base: base.textContent, top: pr.top, bottom: pr.bottom, baseTop: br.top, baseBottom: br.bottom,
                size: parseFloat(getComputedStyle(p).fontSize), baseSize: parseFloat(getComputedStyle(base).fontSize)};
    })"""


def test_a_prime_stands_beside_its_base_at_its_size(open_page, site):
    """f′ as TeX draws it: the prime at f's size, its ink within f's height (Chromium drew a prime in a superscript at
    script size, floating wholly above f)."""
    page = open_page((site / FIXTURE / "index.html").as_uri()).page
    page.evaluate("document.getElementById('formula').scrollIntoView()")
    primes = page.evaluate(PRIMES)
    assert [p["base"] for p in primes] == ["f", "f", "f"]       # f'(x), f'^2, f''(x)
    for prime in primes:
        assert prime["size"] == pytest.approx(prime["baseSize"]), prime
        assert prime["top"] >= prime["baseTop"] - 1 and prime["bottom"] <= prime["baseBottom"], prime
