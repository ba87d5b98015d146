"""Dark mode in Chromium over every page the build makes: the theme follows prefers-color-scheme, a reader's choice
(浅色 / 深色 / 跟随系统) is kept across pages, figures (drawn once) switch their colours, print is always light, axe finds
nothing in dark mode; and figures read on a phone without sideways scrolling."""
from __future__ import annotations

import re

import pytest

from conftest import settled, started

from conftest import axe_violations

TIMEOUT = 10_000  # ms, every wait


def lum(rgb: list[float]) -> float:
    def ch(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (ch(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a, b) -> float:
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def pages(site) -> list[str]:
    return ["index.html"] + sorted(str(p.relative_to(site)) for p in site.glob("*/index.html"))


def lesson_pages(site) -> list[str]:
    return [p for p in pages(site) if p != "index.html"]


@pytest.fixture
def visit_in(browser):
    """visit_in(url, scheme='light', width=1280, init_script=None) → page; a context per call, closed at the end."""
    contexts = []

    def open_(url, scheme="light", width=1280, init_script=None, context=None):
        if context is None:
            context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, locale="zh-CN")
            contexts.append(context)
            if init_script:
                context.add_init_script(script=init_script)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url, wait_until="load", timeout=TIMEOUT)
        started(page)
        page.errors = errors
        return page

    yield open_
    for context in contexts:
        context.close()


RGB = "c => { const m = c.match(/[\\d.]+/g); return m ? m.slice(0, 3).map(Number) : null; }"

# every <text> and every stroked or filled shape of every figure: its colour as computed, and the page colour behind
FIGURE_COLOURS = """() => {
    const rgb = %s;
    const out = [];
    for (const svg of document.querySelectorAll('figure svg')) {
        for (const el of svg.querySelectorAll('text, path, use, rect, line, polyline, polygon')) {
            if (el.closest('defs, clipPath, pattern') || !el.getClientRects().length) continue;
            const cs = getComputedStyle(el);
            if (cs.visibility === 'hidden' || cs.display === 'none') continue;
            const isText = el.tagName === 'text';
            const stroke = cs.stroke !== 'none' && parseFloat(cs.strokeWidth) > 0 && !cs.stroke.startsWith('url');
            const fill = cs.fill !== 'none' && !cs.fill.startsWith('url') && parseFloat(cs.fillOpacity) === 1;
            // what a colour map coloured, and text written on it, keep their colours: written rgb(…) (draw/svg.py)
            const kept = el.closest('[fill^="rgb("], [stroke^="rgb("]') !== null;
            out.push({tag: el.tagName, text: isText ? el.textContent : '', figure: svg.closest('figure').id, kept,
                      attr: el.getAttribute(isText ? 'fill' : (stroke ? 'stroke' : 'fill')),
                      color: rgb(isText || !stroke ? cs.fill : cs.stroke), painted: isText || stroke || fill});
        }
    }
    return {items: out, bg: rgb(getComputedStyle(document.body).backgroundColor),
            fg: rgb(getComputedStyle(document.body).color), theme: document.documentElement.getAttribute('data-theme')};
}""" % RGB


def test_dark_mode_follows_the_system_on_every_page_and_light_mode_shows_the_figures_as_drawn(visit_in, site):
    """One light and one dark visit of every page: dark follows the system; the light page's figures are drawn
    in exactly the colours their SVG names."""
    hexes = lambda c: "#" + "".join(f"{int(v):02x}" for v in c)  # noqa: E731
    for name in pages(site):
        light = visit_in((site / name).as_uri(), "light").evaluate(FIGURE_COLOURS)
        for item in light["items"]:
            if item["attr"] and item["attr"].startswith("#") and item["painted"]:
                assert hexes(item["color"]) == item["attr"], (name, item)
        dark_page = visit_in((site / name).as_uri(), "dark")
        dark = dark_page.evaluate(FIGURE_COLOURS)
        assert dark_page.errors == []
        assert lum(light["bg"]) > 0.8 and lum(dark["bg"]) < 0.02, name
        assert ratio(dark["fg"], dark["bg"]) >= 7 and lum(dark["fg"]) > lum(dark["bg"]), name
        assert len(light["items"]) == len(dark["items"])
        for before, after in zip(light["items"], dark["items"]):
            if not before["painted"]:
                continue
            if before["kept"]:    # a colour map's colours, and the values written on them: the same in both modes
                assert after["color"] == before["color"], (name, after)
                continue
            was, now = ratio(before["color"], light["bg"]), ratio(after["color"], dark["bg"])
            where = f"{name} {after['figure']} <{after['tag']}> {after['text']!r} {before['color']} → {after['color']}"
            assert now >= min(was, 3.0) - 0.05, where  # as readable as on the light page, 3:1 whenever it was
            if after["tag"] == "text" and was >= 3:
                assert lum(after["color"]) > lum(dark["bg"]), where  # light ink on the dark page


def pressed(page) -> list[str]:
    return page.eval_on_selector_all("[data-widget=colormode] button[aria-pressed=true]",
                                     "bs => bs.map(b => b.getAttribute('data-mode'))")


def theme_becomes(page, expected: str | None) -> str | None:
    """html[data-theme] once it is `expected` (a choice made in another page: conftest.settled), else as it is."""
    return settled(page, "document.documentElement.getAttribute('data-theme')", expected, TIMEOUT)


def body_bg(page) -> list[float]:
    return page.evaluate(f"({RGB})(getComputedStyle(document.body).backgroundColor)")


def test_choice_is_kept_across_pages_and_reset_by_follow_system(visit_in, site):
    names = pages(site)
    first = visit_in((site / names[-1]).as_uri(), "light")
    assert pressed(first) == ["auto"] and first.evaluate("document.documentElement.getAttribute('data-theme')") is None
    first.click("[data-widget=colormode] button[data-mode=dark]")
    assert first.evaluate("document.documentElement.getAttribute('data-theme')") == "dark"
    assert lum(body_bg(first)) < 0.02 and pressed(first) == ["dark"]
    for name in names:  # same browser profile, other pages: opened dark although the system is light
        other = visit_in((site / name).as_uri(), context=first.context)
        assert theme_becomes(other, "dark") == "dark", name
        assert lum(body_bg(other)) < 0.02 and pressed(other) == ["dark"], name
    other.click("[data-widget=colormode] button[data-mode=light]")
    other.emulate_media(color_scheme="dark")  # a light choice wins over a dark system
    assert lum(body_bg(other)) > 0.8
    other.click("[data-widget=colormode] button[data-mode=auto]")
    assert lum(body_bg(other)) < 0.02  # following the (dark) system again
    again = visit_in((site / names[0]).as_uri(), context=first.context)
    assert theme_becomes(again, None) is None and pressed(again) == ["auto"]


def test_blocked_storage_still_switches_the_page(visit_in, site):
    block = "Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('blocked'); }});"
    page = visit_in((site / pages(site)[-1]).as_uri(), "light", init_script=block)
    page.click("[data-widget=colormode] button[data-mode=dark]")
    assert lum(body_bg(page)) < 0.02 and page.errors == []


def test_toggle_is_hidden_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False, color_scheme="dark")
    try:
        page = context.new_page()
        page.goto((site / pages(site)[-1]).as_uri(), wait_until="load", timeout=TIMEOUT)
        started(page)
        assert not page.is_visible("[data-widget=colormode]")
        assert lum(body_bg(page)) < 0.02  # the system's dark mode needs no script
    finally:
        context.close()


def test_print_is_always_light(visit_in, site):
    """Printed from a dark system and after choosing dark: both print the page as printed from a light one. (Dark is
    chosen on the light page itself once its print colours are read: a page less to open per page.)"""
    for name in pages(site):
        light = visit_in((site / name).as_uri(), "light")
        light.emulate_media(media="print")
        expected = light.evaluate(FIGURE_COLOURS)
        light.emulate_media(media="screen")
        for how in ("system", "chosen"):
            if how == "chosen":
                page = light
                page.click("[data-widget=colormode] button[data-mode=dark]")
                assert lum(body_bg(page)) < 0.02, name   # dark on screen before it prints
            else:
                page = visit_in((site / name).as_uri(), "dark")
            page.emulate_media(media="print", color_scheme="dark")
            found = page.evaluate(FIGURE_COLOURS)
            assert lum(found["bg"]) > 0.9 and lum(found["fg"]) < 0.05, (name, how)
            assert [i["color"] for i in found["items"]] == [i["color"] for i in expected["items"]], (name, how)


SYSTEM_DARK, CHOSEN_DARK = "@media screen and (prefers-color-scheme:dark)", "@media screen"


def media_blocks(css: str, condition: str) -> list[str]:
    """The bodies of every `condition{…}` block in `css`, braces matched."""
    bodies, start = [], 0
    while (start := css.find(condition + "{", start)) != -1:
        opened, depth = start + len(condition), 0
        for end in range(opened, len(css)):
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            if depth == 0:
                break
        bodies.append(css[opened + 1:end])
        start = end
    return bodies


def test_the_systems_dark_mode_and_the_chosen_one_are_one_set_of_rules(site):
    """Every page's dark rules come in twins: the system's (while no light theme is chosen) and the reader's choice,
    the same declarations. So one of the two is enough for the contrast checks in the browser (axe, below)."""
    for name in pages(site):
        css = "\n".join(re.findall(r"<style[^>]*>(.*?)</style>", (site / name).read_text(encoding="utf-8"), re.S))
        system = [b.replace("html:not([data-theme=light])", "html[data-theme=dark]")
                  for b in media_blocks(css, SYSTEM_DARK)]
        chosen = [b for b in media_blocks(css, CHOSEN_DARK) if "html[data-theme=dark]" in b]
        assert system and sorted(system) == sorted(chosen), name


@pytest.mark.parametrize("width", [1280, 390])
def test_dark_mode_passes_axe(visit_in, site, axe_source, width):
    """Chosen dark, which is the system's dark too (the test above)."""
    problems = {}
    for name in pages(site):
        page = visit_in((site / name).as_uri(), "light", width=width, init_script=axe_source)
        page.click("[data-widget=colormode] button[data-mode=dark]")
        page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
        page.evaluate("() => new Promise(r => setTimeout(r, 100))")  # the toggle events run
        problems[name] = axe_violations(page)
    assert problems == {name: [] for name in pages(site)}


FIGURE_FIT = """() => [...document.querySelectorAll('figure')].map(f => {
    const box = f.querySelector('.figure-svg');
    const svgs = [...f.querySelectorAll('svg')];
    const texts = svgs.flatMap(svg => {
        const r = svg.getBoundingClientRect(), scale = r.width / svg.viewBox.baseVal.width;
        return [...svg.querySelectorAll('text')].filter(t => t.getClientRects().length).map(t => {
            const b = t.getBoundingClientRect();
            return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
                    inside: b.left >= r.left - 1 && b.right <= r.right + 1 && b.top >= r.top - 1 && b.bottom <= r.bottom + 1};
        });
    });
    return {id: f.id, scroll: box.scrollWidth, client: box.clientWidth, right: Math.max(...svgs.map(s => s.getBoundingClientRect().right)),
            boxRight: box.getBoundingClientRect().right, panels: f.querySelectorAll('.figure-panels svg').length, texts,
            pxPerPt: svgs.map(s => s.getBoundingClientRect().width / s.viewBox.baseVal.width),
            rem: parseFloat(getComputedStyle(document.documentElement).fontSize)};
})"""
FIGURE_TEXT_PT = 10  # the figures' text size (draw/figures.py style): shown at most at 1 rem


@pytest.mark.parametrize("width", [1280, 390])
def test_figures_fit_the_screen_and_no_label_is_cut(visit_in, site, width):
    """Every figure fits the screen with no label cut, and none is shown larger than the size at which its text
    reads at the page's own text size (a small figure is not blown up to the column's width)."""
    for name in lesson_pages(site):
        page = visit_in((site / name).as_uri(), "light", width=width)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        for fig in page.evaluate(FIGURE_FIT):
            assert fig["scroll"] <= fig["client"] and fig["right"] <= fig["boxRight"] + 1, (name, fig["id"])
            cut = [t["text"] for t in fig["texts"] if not t["inside"]]
            assert cut == [], (name, fig["id"], cut)
            # never blown up: as wide as the column allows, but its text no larger than the page's (1 rem)
            assert max(fig["pxPerPt"]) * FIGURE_TEXT_PT <= fig["rem"] + 0.1, (name, fig["id"], fig["pxPerPt"])
            if fig["panels"] and width == 390:  # a panel of a wrapped figure keeps its text readable on a phone
                main_text = [t["px"] for t in fig["texts"] if len(t["text"]) > 1]
                assert min(main_text) >= 9.5, (name, fig["id"], min(main_text))


def test_panels_sit_side_by_side_on_a_wide_screen_and_in_print(visit_in, site):
    for name in lesson_pages(site):
        page = visit_in((site / name).as_uri(), "light", width=1280)
        for media in ("screen", "print"):
            page.emulate_media(media=media)
            tops = page.evaluate("""() => [...document.querySelectorAll('.figure-panels')].map(p =>
                [...p.querySelectorAll('svg')].map(s => Math.round(s.getBoundingClientRect().top)))""")
            for row in tops:
                assert len(set(row)) == 1, (name, media, row)
        page.set_viewport_size({"width": 390, "height": 900})
        page.emulate_media(media="screen")
        tops = page.evaluate("""() => [...document.querySelectorAll('.figure-panels')].map(p =>
            [...p.querySelectorAll('svg')].map(s => Math.round(s.getBoundingClientRect().top)))""")
        for row in tops:
            assert len(row) < 2 or len(set(row)) > 1, (name, "phone: panels wrap", row)
