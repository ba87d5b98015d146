"""An explorer that draws a figure for each state puts each figure on the page once (tests/test_explorer_ids.py) and
still shows the right ones, in Chromium, with the shipped script and styles: with JavaScript on screen exactly the
chosen state's figure (a key state's, which sits among the key states, or another's), under the live values; without
JavaScript, and on paper, the key states' figures side by side and no other; no accessibility violation either way."""
from __future__ import annotations

import pytest

from lessonkit.cli import main

from conftest import axe_violations, started

PY = """\
import numpy as np
from lessonkit import Lesson, explorer, param

lesson = Lesson()


def curve(plt, k):
    fig, ax = plt.subplots(figsize=(3, 2))
    x = np.linspace(0, 1, 201)
    ax.plot(x, x ** k, label="y")
    ax.set_title(f"k = {k}")
    ax.set_xlabel("x")
    return fig


@lesson.widget
def powers():
    return explorer([param("k", "指数 k", [1, 2, 3, 4])], state=lambda k: {"values": [("x = 0.5 时", 0.5 ** k)]},
                    figure=curve, alt="y = x 的 {k} 次方", key=[1, 3])
"""
YAML = "title: 幂\nsummary: 一个探索器\nobjectives:\n  - 看图\n"
MD = "## 幂 {#powers}\n\n{{< widget powers >}}\n"
EXPLORER = "#widget-powers"


@pytest.fixture(scope="module")
def url(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("explorer-figures")
    folder = root / "content" / "powers"
    folder.mkdir(parents=True)
    for name, text in (("lesson.yaml", YAML), ("lesson.md", MD), ("lesson.py", PY)):
        (folder / name).write_text(text, encoding="utf-8")
    assert main(["build", "--quiet", "--content", str(root / "content"), "--out", str(root / "out"),
                 "--cache-dir", str(root / "cache")]) == 0
    return (root / "out" / "powers" / "index.html").as_uri()


def shown(page) -> list[str]:
    """The data-state of every state figure on screen (laid out and not hidden), in page order."""
    return page.eval_on_selector_all(f"{EXPLORER} .ex-figure", """figures => figures
        .filter(f => f.getClientRects().length > 0 && getComputedStyle(f).visibility !== 'hidden')
        .map(f => f.dataset.state)""")


@pytest.mark.parametrize("width", [1280, 390])
def test_with_javascript_the_chosen_states_figure_alone_is_shown_under_the_values(browser, url, axe_source, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="zh-CN")
    context.add_init_script(script=axe_source)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    started(page)
    slider = page.locator(f"{EXPLORER} input[type=range]")
    for key, state in (("Home", "0"), ("ArrowRight", "1"), ("ArrowRight", "2"), ("End", "3")):
        slider.focus()
        page.keyboard.press(key)
        assert shown(page) == [state]      # k = 1 and 3 are key states, 2 and 4 are not: one of each kind
        figure = page.locator(f'{EXPLORER} .ex-figure[data-state="{state}"]')
        assert figure.get_attribute("aria-label") == f"y = x 的 {int(state) + 1} 次方"
        values = page.locator(f"{EXPLORER} .ex-live").bounding_box()
        status = page.locator(f"{EXPLORER} .status").bounding_box()
        box = figure.bounding_box()
        assert values["y"] + values["height"] <= box["y"] and box["y"] + box["height"] <= status["y"]
        assert box["width"] > 100
        assert axe_violations(page, within=EXPLORER) == []
    assert page.locator(f"{EXPLORER} .ex-point").evaluate_all("ps => ps.filter(p => p.offsetParent).length") == 0
    assert errors == []
    context.close()


def test_without_javascript_and_on_paper_the_key_states_figures_stand_side_by_side(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto(url)
    assert shown(page) == ["0", "2"]
    assert page.locator(f"{EXPLORER} .ex-controls").is_hidden()
    first, second = (page.locator(f'{EXPLORER} .ex-figure[data-state="{s}"]').bounding_box() for s in "02")
    assert abs(first["y"] - second["y"]) < 2 and first["x"] + first["width"] <= second["x"]  # side by side
    context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    started(page)
    page.emulate_media(media="print")
    assert shown(page) == ["0", "2"]
    context.close()
