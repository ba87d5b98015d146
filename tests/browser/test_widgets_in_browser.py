"""The widgets driven like a student would: mouse and keyboard, in Chromium, from file:// and http://.

The mask table and the block stack are driven on the tests' own fixture lesson (tests/browser/fixture_lesson.py,
its own tokens and series) and compared with numpy; every lesson found in content/ gets the generic checks.
"""
from __future__ import annotations

import re

import pytest

from lesson_folders import load_lesson

from conftest import press_each_widget_button, started
from fixture_lesson import INITIAL, LABELS, LAYERS, TOKENS, expected_series

MASK = "#widget-mask_table"
STACK = "#widget-block_stack"


def cells(page) -> dict[tuple[int, int], str]:
    """(row, col) → what the cell's accessible name says: 可看 or 遮住, checked against its row and column words."""
    labels = page.eval_on_selector_all(f"{MASK} .mask-live td.cell[data-row]", """cells => cells.map(c =>
        [+c.dataset.row, +c.dataset.col, c.getAttribute('aria-label')])""")
    result = {}
    for i, j, label in labels:
        m = re.fullmatch(r"(\S+) → (\S+)：(可看|遮住)", label)
        assert m, label
        assert (m.group(1), m.group(2)) == (TOKENS[i], TOKENS[j])
        result[i, j] = m.group(3)
    assert len(result) == len(TOKENS) ** 2
    return result


def expect_state(page, mode: str, row: int) -> None:
    """Cells, pressed button, current row and status line all tell the same story."""
    causal = mode == "decoder"
    for (i, j), word in cells(page).items():
        assert word == ("遮住" if causal and j > i else "可看"), (mode, i, j)
    pressed = page.eval_on_selector_all(f"{MASK} .mode-btn", "bs => bs.map(b => [b.dataset.mode, b.getAttribute('aria-pressed')])")
    assert dict(pressed) == {"encoder": str(mode == "encoder").lower(), "decoder": str(causal).lower()}
    current = page.eval_on_selector_all(f"{MASK} .mask-live tbody tr", """rows => rows.map(r =>
        [r.classList.contains('is-current'), r.getAttribute('aria-current'),
         r.querySelector('.row-btn').tabIndex, r.querySelector('.row-btn').getAttribute('aria-current')])""")
    for i, (is_current, aria, tabindex, button_aria) in enumerate(current):
        on = i == row
        assert (is_current, aria, tabindex, button_aria) == (on, "true" if on else None, 0 if on else -1,
                                                              "true" if on else None), (i, row)
    seen = " ".join(TOKENS[:row + 1] if causal else TOKENS)
    label = "解码器" if causal else "编码器"
    assert page.inner_text(f"{MASK} .status") == f"当前：{label} · 第 {row + 1} 行「{TOKENS[row]}」能看见：{seen}"
    assert page.inner_text(f"{MASK} [data-role=mode-label]") == label


def test_mask_table_by_mouse(fixture_page):
    page = fixture_page.page
    expect_state(page, "encoder", 0)
    page.click(f"{MASK} .mode-btn[data-mode=decoder]")
    expect_state(page, "decoder", 0)
    page.click(f"{MASK} .row-btn[data-row='3']")
    expect_state(page, "decoder", 3)
    page.click(f"{MASK} .mode-btn[data-mode=encoder]")
    expect_state(page, "encoder", 3)


def tab_to(page, selector: str, limit: int = 60) -> None:
    """Press Tab until `selector` has the focus: proves it is reachable by keyboard alone."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    pytest.fail(f"{selector} not reached after {limit} Tab presses")


def test_mask_table_by_keyboard(fixture_page):
    page = fixture_page.page
    tab_to(page, f"{MASK} .mode-btn[data-mode=decoder]")
    page.keyboard.press("Enter")
    expect_state(page, "decoder", 0)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    expect_state(page, "encoder", 0)
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect_state(page, "decoder", 0)
    # one Tab stop for the whole row column (roving tabindex), then arrows move the current row
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.row") == "0"
    last = len(TOKENS) - 1
    for expected in [*range(1, last + 1), last]:          # … and stays on the last row
        page.keyboard.press("ArrowDown")
        expect_state(page, "decoder", expected)
        assert page.evaluate("document.activeElement.dataset.row") == str(expected)
    page.keyboard.press("ArrowUp")
    expect_state(page, "decoder", last - 1)
    page.keyboard.press("Home")
    expect_state(page, "decoder", 0)
    page.keyboard.press("End")
    expect_state(page, "decoder", last)


def test_the_base_script_fills_a_themes_words(fixture_page):
    """lessonkit.fill, the one filler the components use (the mask table's status above is one of its words): each
    `{name}` given, wherever it occurs, taken literally; a field not given stays as written, an inherited one too."""
    fill = lambda template, fields: fixture_page.page.evaluate("([t, f]) => lessonkit.fill(t, f)", [template, fields])
    assert fill("{i} / {n} · {i}", {"i": 3, "n": 12}) == "3 / 12 · 3"
    assert fill("「{row}」{col}", {"row": "$& {col}", "col": "乙"}) == "「$& {col}」乙"  # one pass, no $-patterns
    assert fill("{label}: {verdict}{toString}", {"label": "b"}) == "b: {verdict}{toString}"
    assert fill(None, {}) == ""


def parse_shown(text: str) -> float:
    """'1.80 × 10⁵' / '−0.5' / '1.27' → float."""
    text = text.replace("\u2212", "-").replace("⁻", "-")
    m = re.fullmatch(r"(-?[\d.]+)(?: × 10([-⁰¹²³⁴⁵⁶⁷⁸⁹]+))?", text)
    assert m, text
    exponent = m.group(2) or "0"
    exponent = exponent.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789"))
    return float(m.group(1)) * 10 ** int(exponent)


def test_block_stack_shows_the_computed_magnitudes(fixture_page):
    """The fixture's explorer, stepped with − and + through every block count: what it shows is numpy's value."""
    page = fixture_page.page
    truth = expected_series()                                  # ‖x‖/√d after n blocks, by numpy
    order = list(LABELS)

    def check(n: int) -> None:
        shown = page.evaluate("""sel => {
            const el = document.querySelector(sel);
            return {count: el.querySelector('.ex-shown').textContent,
                    labels: [...el.querySelectorAll('.ex-live dt')].map(d => d.textContent),
                    values: [...el.querySelectorAll('.ex-live .ex-value')].map(v => v.textContent),
                    status: el.querySelector('.status').textContent,
                    add: el.querySelector('[data-step="1"]').disabled,
                    remove: el.querySelector('[data-step="-1"]').disabled};
        }""", STACK)
        assert shown["count"] == str(n)
        assert shown["labels"] == [LABELS[k] for k in order]
        for key, text in zip(order, shown["values"]):
            assert parse_shown(text) == pytest.approx(truth[key][n], rel=6e-3), (key, n, text)
        assert shown["status"] == f"块数 {n}：" + "；".join(f"{LABELS[k]} {t}" for k, t in zip(order, shown["values"]))
        assert shown["remove"] == (n == LAYERS[0]) and shown["add"] == (n == LAYERS[-1])

    n = INITIAL
    check(n)
    while n > LAYERS[0]:
        page.click(f'{STACK} [data-step="-1"]')
        n -= 1
        check(n)
    while n < LAYERS[-1]:
        page.click(f'{STACK} [data-step="1"]')
        n += 1
        check(n)
    # at the end the disabled button hands the focus to the other one, so the keyboard is never lost
    assert page.evaluate("document.activeElement.dataset.step") == "-1"


SHOWN_TEXTS = """sel => {
    // the text a sighted reader sees in the widget: text in boxes that are drawn (not display:none, not hidden, not a
    // 1 px visually-hidden announcement for screen readers)
    const el = document.querySelector(sel), shown = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const box = n.parentElement, r = box.getBoundingClientRect();
        if (n.data.trim() && box.checkVisibility({visibilityProperty: true}) && r.width > 1 && r.height > 1)
            shown.push(n.data.trim());
    }
    return {shown, values: [...el.querySelectorAll('.ex-live .ex-value')].map(v => v.textContent),
            status: el.querySelector('[role=status]').textContent};
}"""


def test_block_stack_shows_each_value_once(fixture_page):
    """The live panel shows each value once (no summary line repeating them below); the status that screen readers
    announce after each step still says them."""
    page = fixture_page.page
    for step in range(2):
        if step:
            page.click(f'{STACK} [data-step="1"]')
        seen = page.evaluate(SHOWN_TEXTS, STACK)
        assert len(seen["values"]) == len(LABELS)
        for value in seen["values"]:
            assert sum(value in text for text in seen["shown"]) == 1, (value, seen["shown"])
            assert value in seen["status"]


def test_every_challenge_answer_reveals(lesson, site_content, slug):
    """Every worked answer on the page opens: a challenge's (each has one) and a standalone self-check's (optional),
    counted per kind."""
    page = lesson.page
    meta = load_lesson(site_content / slug).meta
    challenges, checks = meta.get("challenges") or [], meta.get("checks") or []
    assert page.locator(".challenges details.answer").count() == sum(1 for c in challenges if c.get("answer"))
    assert page.locator(".selfcheck-alone details.answer").count() == sum(1 for c in checks if c.get("answer"))
    answers = page.locator("details.answer")
    assert answers.count() == page.locator(".challenges details.answer, .selfcheck-alone details.answer").count()
    for k in range(answers.count()):
        details = answers.nth(k)
        body = details.locator(".answer-body")
        assert not body.is_visible()
        details.locator(":scope > summary").click()   # not a figure's 「数据」 inside the answer
        assert details.evaluate("d => d.open")
        assert body.is_visible() and len(body.inner_text().strip()) > 20


def test_nothing_requested_and_no_errors(lesson, server):
    """The `lesson` fixture checks requests, console and page errors after every test; here after a full scroll,
    with the server's own log as a second witness."""
    page = lesson.page
    before = len(server.paths)
    lesson.requests.clear()
    page.reload(wait_until="load")
    started(page)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(300)
    lesson.assert_clean()
    if lesson.url.startswith("http"):
        path = "/" + lesson.url.split("/", 3)[3]
        extra = [p for p in server.paths[before:] if p != path and not lesson.browser_favicon(p)]
        assert path in server.paths[before:] and extra == []
    assert page.evaluate("document.documentElement.lang") == "zh-CN"


def test_every_widget_button_works_without_errors(lesson):
    """Any widget, of any kind: pressing each of its buttons in turn raises no error, logs nothing and requests
    nothing (checked by the `lesson` fixture after the test), and leaves the page as wide as the window."""
    page = lesson.page
    for state in press_each_widget_button(page):
        assert lesson.page_errors == [] and lesson.console_errors == [], state
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1], (state, width)
