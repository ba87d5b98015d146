"""Lesson 2's RoPE dial in Chromium: moving m and n by mouse and keyboard; moving both keeps the dot product.

Skipped when the lesson is not in content/ (the engine and its tests never require a particular lesson).
"""
from __future__ import annotations

import cmath
import math

import pytest

from conftest import PROJECT, axe_violations

SLUG = "positional-encoding"
ROOT = "#widget-rope_dial"
THETA = 10000 ** (-2 / 16)       # pair i = 1 of d = 16, as the lesson says

pytestmark = pytest.mark.skipif(not (PROJECT / "content" / SLUG / "lesson.py").exists(),
                                reason=f"content/{SLUG} is not in this checkout")


def number(text: str) -> float:
    return float(text.replace("\u2212", "-").rstrip("°"))


def state(page) -> dict[str, str]:
    return page.evaluate("""root => Object.fromEntries(Array.from(document.querySelectorAll(root + ' [data-role]'))
        .filter(e => !/line|head|label/.test(e.dataset.role)).map(e => [e.dataset.role, e.textContent.trim()]))""", ROOT)


def check(page) -> tuple[int, int, str]:
    """What the panel says agrees with q = e^{imθ}, k = i·e^{inθ} computed here, and the arrows point there."""
    s = state(page)
    m, n = int(s["m"]), int(s["n"])
    q, k = cmath.exp(1j * m * THETA), 1j * cmath.exp(1j * n * THETA)
    assert number(s["dot"]) == pytest.approx((q * k.conjugate()).real, rel=5e-3, abs=5e-4)
    assert number(s["offset"]) == m - n
    assert number(s["q-angle"]) == pytest.approx(math.degrees(cmath.phase(q)) % 360, abs=0.051)
    assert number(s["k-angle"]) == pytest.approx(math.degrees(cmath.phase(k)) % 360, abs=0.051)
    x2, y2 = (float(page.get_attribute(f"{ROOT} [data-role=q-line]", a)) for a in ("x2", "y2"))
    assert math.atan2(-y2, x2) == pytest.approx(cmath.phase(q), abs=0.01)
    status = page.text_content(f"{ROOT} .rope-status")
    assert f"m = {m}，n = {n}" in status and s["dot"] in status
    return m, n, s["dot"]


@pytest.fixture
def dial(open_page, site, axe_source):
    visit = open_page((site / SLUG / "index.html").as_uri(), init_script=axe_source)
    visit.page.locator(ROOT).scroll_into_view_if_needed()  # its section is laid out once near the screen
    yield visit.page
    visit.assert_clean()


def test_the_dial_by_mouse(dial):
    page = dial
    m, n, dot = check(dial)
    both = f"{ROOT} .rope-shift[data-step='1']"
    while not page.is_disabled(both):                 # both turn: the offset and the dot product stay
        page.click(both)
        m2, n2, dot2 = check(page)
        assert (m2 - n2, dot2) == (m - n, dot)
    page.click(f"{ROOT} .rope-step[data-param=n][data-step='-1']")
    _, _, dot3 = check(page)
    assert dot3 != dot
    page.click(f"{ROOT} .rope-shift[data-step='-1']")
    assert check(page)[2] == dot3


def test_the_dial_by_keyboard_and_axe(dial):
    page = dial
    page.focus(f"{ROOT} .rope-step[data-param=m][data-step='1']")
    m = check(page)[0]
    for _ in range(7 - m):
        page.keyboard.press("Enter")
        assert check(page)[0] == m + _ + 1
    assert page.is_disabled(f"{ROOT} .rope-step[data-param=m][data-step='1']")
    assert page.evaluate("document.activeElement.dataset.step") == "-1"     # the focus went to m's −
    page.keyboard.press("Space")
    assert check(page)[0] == 6
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")                       # on to the next control (m+, then n+: n− is disabled at 0)
    page.keyboard.press("Enter")
    check(page)
    assert axe_violations(page, "#widget-rope_dial") == []
    page.emulate_media(color_scheme="dark")
    assert axe_violations(page, "#widget-rope_dial") == []
