"""The widgets driven like a student would: mouse and keyboard, in Chromium, from file:// and http://."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from lessonkit.compute import compute_values, load_lesson_module
from lessonkit.numbers import format_value

from conftest import PROJECT, SLUG

MASK = "#widget-mask_table"
STACK = "#widget-block_stack"
TOKENS = ["它", "最", "爱", "晒太阳"]          # the lesson's sentence, as lesson.md shows it


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


def test_mask_table_by_mouse(lesson):
    page = lesson.page
    expect_state(page, "encoder", 0)
    page.click(f"{MASK} .mode-btn[data-mode=decoder]")
    expect_state(page, "decoder", 0)
    page.click(f"{MASK} .row-btn[data-row='2']")
    expect_state(page, "decoder", 2)
    page.click(f"{MASK} .mode-btn[data-mode=encoder]")
    expect_state(page, "encoder", 2)


def tab_to(page, selector: str, limit: int = 60) -> None:
    """Press Tab until `selector` has the focus: proves it is reachable by keyboard alone."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    pytest.fail(f"{selector} not reached after {limit} Tab presses")


def test_mask_table_by_keyboard(lesson):
    page = lesson.page
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
    for expected in (1, 2, 3, 3):
        page.keyboard.press("ArrowDown")
        expect_state(page, "decoder", expected)
        assert page.evaluate("document.activeElement.dataset.row") == str(expected)
    page.keyboard.press("ArrowUp")
    expect_state(page, "decoder", 2)
    page.keyboard.press("Home")
    expect_state(page, "decoder", 0)
    page.keyboard.press("End")
    expect_state(page, "decoder", 3)


@pytest.fixture(scope="module")
def norm_sim():
    """‖x_l‖²/d recomputed by the lesson's own numpy code, independently of the page."""
    path = PROJECT / "content" / SLUG / "lesson.py"
    return compute_values(load_lesson_module(path), path)["norm_sim"]


def parse_shown(text: str) -> float:
    """'1.80 × 10⁵' / '−0.5' / '1.27' → float."""
    text = text.replace("\u2212", "-").replace("⁻", "-")
    m = re.fullmatch(r"(-?[\d.]+)(?: × 10([-⁰¹²³⁴⁵⁶⁷⁸⁹]+))?", text)
    assert m, text
    exponent = m.group(2) or "0"
    exponent = exponent.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789"))
    return float(m.group(1)) * 10 ** int(exponent)


def test_block_stack_shows_the_computed_magnitudes(lesson, norm_sim):
    page = lesson.page
    data = json.loads(page.text_content(f"script#widget-block_stack-data"))
    labels = {s["key"]: s["label"] for s in data["series"]}
    embedded = {s["key"]: s["values"] for s in data["series"]}

    def check(n: int) -> None:
        shown = page.evaluate("""sel => {
            const el = document.querySelector(sel);
            const rows = [...el.querySelectorAll('li.bs-row')].map(r =>
                [r.dataset.series, r.querySelector('[data-role=value]').textContent]);
            return {count: el.querySelector('[data-role=count]').textContent, rows,
                    status: el.querySelector('.status').textContent,
                    add: el.querySelector('[data-action=add]').disabled,
                    remove: el.querySelector('[data-action=remove]').disabled};
        }""", STACK)
        assert shown["count"] == str(n)
        parts = [f"当前：{n} 块"]
        for key, text in shown["rows"]:
            truth = np.sqrt(norm_sim[key][n])                # ‖x‖/√d after n blocks
            assert parse_shown(text) == pytest.approx(truth, rel=6e-3), (key, n, text)
            assert text == format_value(embedded[key][n]), (key, n)   # the same number format as the text
            parts.append(f"{labels[key]} {text}")
        assert shown["status"] == " · ".join(parts)
        assert shown["remove"] == (n == 0) and shown["add"] == (n == len(norm_sim["layers"]) - 1)

    assert data["layers"] == list(range(len(norm_sim["layers"])))
    n = data["initial"]
    check(n)
    while n > 0:
        page.click(f"{STACK} [data-action=remove]")
        n -= 1
        check(n)
    last = data["layers"][-1]
    while n < last:
        page.click(f"{STACK} [data-action=add]")
        n += 1
        check(n)
    # at the end the disabled button hands the focus to the other one, so the keyboard is never lost
    assert page.evaluate("document.activeElement.dataset.action") == "remove"


def test_every_challenge_answer_reveals(lesson):
    page = lesson.page
    answers = page.locator("details.answer")
    assert answers.count() == 4
    for k in range(answers.count()):
        details = answers.nth(k)
        body = details.locator(".answer-body")
        assert not body.is_visible()
        details.locator("summary").click()
        assert details.evaluate("d => d.open")
        assert body.is_visible() and len(body.inner_text().strip()) > 20


def test_nothing_requested_and_no_errors(lesson, server):
    """The `lesson` fixture checks requests, console and page errors after every test; here after a full scroll,
    with the server's own log as a second witness."""
    page = lesson.page
    before = len(server.paths)
    lesson.requests.clear()
    page.reload(wait_until="load")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(300)
    lesson.assert_clean()
    if lesson.url.startswith("http"):
        path = "/" + lesson.url.split("/", 3)[3]
        extra = [p for p in server.paths[before:] if p != path and not lesson.browser_favicon(p)]
        assert path in server.paths[before:] and extra == []
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
