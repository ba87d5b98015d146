"""Book-scale lessons in Chromium (issue 20): a course in parts whose lessons number their equations and refer to
them (in the lesson and across lessons), align `aligned` rows, switch tab sets of one group together and remember the
choice on the next lesson (from file:// and over http://), and show a heatmap in dark mode in its colour bar's
colours. The fixture course is built here, in tmp_path; axe and the Nu HTML checker find nothing on its pages."""
from __future__ import annotations

import functools
import http.server
import io
import shutil
import subprocess
import textwrap
import threading
from pathlib import Path

import pytest

from lessonkit.cli import main

from conftest import ACTION_TIMEOUT_MS, IN_CI, settled
from conftest import axe_violations

SITE_YAML = """\
title: 一本小书
parts:
  - title: 第一部分 公式
    lessons: [formulas]
  - title: 第二部分 代码
    lessons: [code]
"""
FORMULAS_YAML = "title: 公式\nsummary: 带编号的公式\nobjectives:\n  - 读懂编号\n"
FORMULAS_MD = r"""
## 定义 {#def}

先看 @eq:steps，再看 @eq:softmax；下一课的 @lesson:code#eq:mean。

$$\mathrm{softmax}(x)_i = \frac{e^{x_i}}{\sum_j e^{x_j}}$$ {#eq:softmax}

$$
\begin{aligned}
f(x) &= (x+1)^2 \\
     &= x^2 + 2x + 1
\end{aligned}
$$ {#eq:steps}

$$|x| = \begin{cases} x & x \ge 0 \\ -x & x < 0 \end{cases} \qquad
A = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}$$ {#eq:cases}

{{< figure heat >}}

## 代码 {#tabs}

::: tabs framework
::: tab PyTorch
第一组：`torch.ones(3)`
:::
::: tab NumPy
第一组：`np.ones(3)`
:::
:::

::: tabs os
::: tab Windows
用 `py`
:::
::: tab Linux
用 `python3`
:::
::: tab macOS
用 `python3`（Homebrew）
:::
:::

::: tabs framework
::: tab NumPy
第二组：`np.zeros(3)`
:::
::: tab PyTorch
第二组：`torch.zeros(3)`
:::
:::
"""
FORMULAS_PY = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.figure(caption="三档颜色的热力图", alt="2 × 3 的热力图，三档颜色，右边是色条")
def heat(plt):
    from matplotlib.colors import BoundaryNorm

    fig, ax = plt.subplots(figsize=(4, 2.4))
    image = ax.imshow(np.array([[0.5, 1.5, 2.5], [2.5, 0.5, 1.5]]), cmap="viridis",
                      norm=BoundaryNorm([0, 1, 2, 3], 256), interpolation="none")
    fig.colorbar(image, ax=ax)
    return fig
"""
CODE_YAML = "title: 代码\nsummary: 同一组的标签页\nobjectives:\n  - 记住选择\n"
CODE_MD = r"""
## 均值 {#mean-section}

$$\bar x = \frac{1}{n}\sum_i x_i$$ {#eq:first}

$$m = \bar x$$ {#eq:mean}

见上一课的 @lesson:formulas#eq:steps。

::: tabs framework
::: tab PyTorch
另一课：`x.mean()`
:::
::: tab NumPy
另一课：`np.mean(x)`
:::
:::
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("book")
    content = root / "content"
    for slug, files in (("formulas", (FORMULAS_YAML, FORMULAS_MD, FORMULAS_PY)), ("code", (CODE_YAML, CODE_MD, None))):
        (content / slug).mkdir(parents=True)
        for name, text in zip(("lesson.yaml", "lesson.md", "lesson.py"), files):
            if text is not None:
                (content / slug / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    (content / "site.yaml").write_text(SITE_YAML, encoding="utf-8")
    assert main(["build", "--quiet", "--content", str(content), "--out", str(root / "out"),
                 "--cache-dir", str(root / "cache")]) == 0
    return root / "out"


@pytest.fixture(scope="module")
def book_server(book):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(book))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def context(browser):
    made = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    made.set_default_timeout(ACTION_TIMEOUT_MS)
    yield made
    made.close()


def url(book: Path, server: str, slug: str, via: str) -> str:
    return (book / slug / "index.html").as_uri() if via == "file" else f"{server}{slug}/index.html"


def test_equation_numbers_and_references_on_screen(context, book):
    page = context.new_page()
    page.goto((book / "formulas" / "index.html").as_uri())
    numbers = page.eval_on_selector_all(".equation", "es => es.map(e => [e.id, e.querySelector('.eq-number')"
                                                     ".textContent])")
    assert numbers == [["eq-softmax", "(1)"], ["eq-steps", "(2)"], ["eq-cases", "(3)"]]
    links = page.eval_on_selector_all("#def a.eq-ref, #def a.lesson-ref", "as => as.map(a => [a.textContent, "
                                                                          "a.getAttribute('href')])")
    assert links == [["式 (2)", "#eq-steps"], ["式 (1)", "#eq-softmax"], ["代码 · 式 (2)", "../code/index.html#eq-mean"]]
    # the number sits at the right of its formula, on the formula's line
    box = page.eval_on_selector("#eq-softmax", "e => { const m = e.querySelector('math').getBoundingClientRect(), "
                                "n = e.querySelector('.eq-number').getBoundingClientRect(); "
                                "return [n.left - m.right, Math.abs((n.top + n.bottom) - (m.top + m.bottom)) / 2] }")
    assert box[0] > 0 and box[1] < 6
    page.click("text=式 (2)")
    assert page.evaluate("location.hash") == "#eq-steps"
    assert page.eval_on_selector("#eq-steps", "e => { const r = e.getBoundingClientRect(); "
                                              "return r.top >= 0 && r.bottom <= innerHeight }")
    page.click("text=代码 · 式 (2)")
    page.wait_for_url("**/code/index.html#eq-mean")
    assert page.eval_on_selector("#eq-mean .eq-number", "e => e.textContent") == "(2)"


def test_aligned_rows_align_their_equals_signs_and_delimiters_stretch(context, book):
    page = context.new_page()
    page.goto((book / "formulas" / "index.html").as_uri())
    lefts = page.eval_on_selector_all("#eq-steps mo", "ms => ms.filter(m => m.textContent === '=')"
                                                      ".map(m => m.getBoundingClientRect().left)")
    assert len(lefts) == 2 and abs(lefts[0] - lefts[1]) < 1.0
    # the two rows of the formula are stacked, not one overflowing line
    rows = page.eval_on_selector_all("#eq-steps mtr", "rs => rs.map(r => r.getBoundingClientRect().top)")
    assert len(rows) == 2 and rows[1] - rows[0] > 10
    # the brace of `cases` and the parentheses of the matrix as tall as their rows
    heights = page.eval_on_selector("#eq-cases", "e => { const h = x => x.getBoundingClientRect().height; "
                                    "const t = [...e.querySelectorAll('mtable')].map(h); "
                                    "const o = [...e.querySelectorAll('mo')].filter(m => '{('.includes(m.textContent))"
                                    ".map(h); return [t, o] }")
    tables, delimiters = heights
    assert len(tables) == 2 and len(delimiters) == 2
    assert all(d >= 0.8 * t for d, t in zip(delimiters, tables))


def panels_shown(page, selector: str) -> list[bool]:
    return page.eval_on_selector_all(f"{selector} [role=tabpanel]",
                                     "ps => ps.map(p => getComputedStyle(p).display !== 'none')")


def selected(page, selector: str, expected: list[str] | None = None) -> list[str]:
    """The selected tabs' names; once they are `expected` (waited for: conftest.settled), when given."""
    names = f"[...document.querySelectorAll('{selector} [role=tab][aria-selected=true]')].map(t => t.textContent)"
    return settled(page, names, expected) if expected is not None else page.evaluate(names)


@pytest.mark.parametrize("via", ["file", "http"])
def test_tabs_switch_together_and_are_remembered_on_the_next_lesson(context, book, book_server, via):
    page = context.new_page()
    page.goto(url(book, book_server, "formulas", via))
    assert selected(page, "#tabs-1") == ["PyTorch"] and selected(page, "#tabs-3") == ["NumPy"]
    assert panels_shown(page, "#tabs-1") == [True, False]
    page.click("#tabs-1 [role=tab]:has-text('NumPy')")
    assert selected(page, "#tabs-1") == ["NumPy"] and selected(page, "#tabs-3") == ["NumPy"]
    assert panels_shown(page, "#tabs-1") == [False, True] and panels_shown(page, "#tabs-3") == [True, False]
    assert selected(page, "#tabs-2") == ["Windows"]  # another group: untouched
    page.click("#tabs-3 [role=tab]:has-text('PyTorch')")
    assert selected(page, "#tabs-1") == ["PyTorch"] and panels_shown(page, "#tabs-3") == [False, True]
    page.click("#tabs-1 [role=tab]:has-text('NumPy')")
    # the next lesson opens on NumPy (the choice reaches its page through the browser); the lesson itself again too
    other = context.new_page()
    other.goto(url(book, book_server, "code", via))
    assert selected(other, "#tabs-1", ["NumPy"]) == ["NumPy"] and panels_shown(other, "#tabs-1") == [False, True]
    page.reload()   # the choice is read back once the page has started: waited for, as on the other page
    assert selected(page, "#tabs-1", ["NumPy"]) == ["NumPy"] and selected(page, "#tabs-3", ["NumPy"]) == ["NumPy"]
    assert selected(page, "#tabs-2") == ["Windows"]


def test_tabs_follow_the_aria_pattern_with_the_keyboard(context, book):
    page = context.new_page()
    page.goto((book / "formulas" / "index.html").as_uri())
    page.focus("#tabs-2 [role=tab][aria-selected=true]")
    page.keyboard.press("ArrowRight")
    assert selected(page, "#tabs-2") == ["Linux"]
    assert page.evaluate("document.activeElement.textContent") == "Linux"
    page.keyboard.press("End")
    assert selected(page, "#tabs-2") == ["macOS"] and panels_shown(page, "#tabs-2") == [False, False, True]
    page.keyboard.press("ArrowRight")  # wraps around
    assert selected(page, "#tabs-2") == ["Windows"]
    page.keyboard.press("ArrowLeft")
    assert selected(page, "#tabs-2") == ["macOS"]
    page.keyboard.press("Home")
    assert selected(page, "#tabs-2") == ["Windows"]
    tabindex = page.eval_on_selector_all("#tabs-2 [role=tab]", "ts => ts.map(t => t.tabIndex)")
    assert tabindex == [0, -1, -1]  # one tab stop for the list; Tab goes on into the panel
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('role')") == "tabpanel"


def test_without_javascript_and_on_paper_every_tab_shows_under_its_label(browser, context, book):
    page = context.new_page()
    page.goto((book / "formulas" / "index.html").as_uri())
    page.emulate_media(media="print")
    assert panels_shown(page, "#tabs-2") == [True, True, True]
    assert page.eval_on_selector("#tabs-2 [role=tablist]", "l => getComputedStyle(l).display") == "none"
    titles = page.eval_on_selector_all("#tabs-2 .tab-panel-title", "ts => ts.map(t => getComputedStyle(t).display)")
    assert titles == ["block"] * 3
    still = browser.new_context(java_script_enabled=False)
    try:
        plain = still.new_page()
        plain.goto((book / "formulas" / "index.html").as_uri())
        assert panels_shown(plain, "#tabs-1") == [True, True]
        assert plain.eval_on_selector("#tabs-1 [role=tablist]", "l => getComputedStyle(l).display") == "none"
        assert plain.eval_on_selector_all("#tabs-1 .tab-panel-title", "ts => ts.map(t => t.textContent)") == \
            ["PyTorch", "NumPy"]
    finally:
        still.close()


def pixel(png: bytes, x: float, y: float) -> tuple[int, int, int]:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.getpixel((int(x), int(y)))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_heatmap_and_its_colour_bar_keep_viridis_in_both_modes(context, book, scheme):
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto((book / "formulas" / "index.html").as_uri())
    figure = page.locator("#fig-heat")
    figure.scroll_into_view_if_needed()
    shown = page.eval_on_selector_all("#fig-heat image", "is => is.filter(i => getComputedStyle(i).display !== 'none')"
                                                         ".map(i => i.getAttribute('class'))")
    assert shown == ["lk-pixelated"]                               # one raster, the same in both modes
    image = page.eval_on_selector("#fig-heat image", "i => { const r = i.getBoundingClientRect(); "
                                  "return [r.left, r.top, r.width, r.height] }")
    # the colour bar's three cells: vector paths filled with the three levels' colours, bottom (level 0) to top
    cells = page.eval_on_selector_all("#fig-heat path[fill]", "ps => ps.map(p => [p.getAttribute('fill'), "
                                      "p.getBoundingClientRect()]).filter(([f, r]) => f !== 'none' && r.width > 3 && "
                                      "r.height > 3 && r.width < 40).map(([f, r]) => [r.left + r.width / 2, "
                                      "r.top + r.height / 2])")
    cells.sort(key=lambda c: -c[1])
    assert len(cells) == 3
    shot = page.screenshot()
    left, top, width, height = image
    heat = [[pixel(shot, left + (col + 0.5) * width / 3, top + (row + 0.5) * height / 2) for col in range(3)]
            for row in range(2)]
    bar = [pixel(shot, x, y) for x, y in cells]
    values = [[0, 1, 2], [2, 0, 1]]  # the level of each cell
    for row in range(2):
        for col in range(3):
            assert max(abs(a - b) for a, b in zip(heat[row][col], bar[values[row][col]])) <= 3, (row, col)
    yellow = (253, 231, 37)  # viridis' top level: the same on the light and the dark page (a colour map is data)
    assert max(abs(a - b) for a, b in zip(bar[2], yellow)) <= 3


def test_the_books_pages_pass_axe(context, book, axe_source):
    context.add_init_script(script=axe_source)
    for slug in ("formulas", "code"):
        page = context.new_page()
        page.goto((book / slug / "index.html").as_uri())
        assert axe_violations(page) == [], slug
        page.click("#tabs-1 [role=tab]:nth-child(2)")
        assert axe_violations(page) == [], slug
    page = context.new_page()
    page.goto((book / "index.html").as_uri())
    assert axe_violations(page) == []


def test_the_books_pages_pass_the_nu_html_checker(book):
    from test_page_integrity import JAVA, vnu_jar

    jar, _ = vnu_jar()
    if shutil.which("java") is None or jar is None:
        if IN_CI:
            pytest.fail("the Nu HTML checker needs Java and vnu.jar")
        pytest.skip("Java or vnu.jar not installed")
    files = [str(p) for p in sorted(book.rglob("*.html"))]
    result = subprocess.run([*JAVA, str(jar), "--errors-only", "--also-check-svg",
                             "--format", "gnu", *files], capture_output=True, text=True, timeout=300)
    errors = [line for line in result.stderr.splitlines() + result.stdout.splitlines() if line.strip()]
    assert len(files) == 3 and errors == [], "\n".join(errors[:30])
