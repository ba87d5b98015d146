"""A component that throws stops only itself (each component script is its own <script>; lesson.js starts each one
inside try/catch): on a fixture lesson built here whose own components throw — one in its init, one while its script
runs — projector, search, colour mode and the self-check still work, and the console names the component and its
widget.js file and line (every script ends with //# sourceURL=…)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import started

from lessonkit.cli import main

SLUG = "fragile"
PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def answer():
    return 42


@lesson.widget
def abacus():
    return {"beads": 3}


@lesson.widget
def abacus_at_load():
    return {"beads": 4}
"""
YAML = """\
title: 易碎的小课
summary: 组件出错时其余功能照常
objectives:
  - 看懂一个数
challenges:
  - title: 填一个数
    question: 答案是多少？
    answer: 是 {{ answer }}。
    check:
      fields:
        - {label: 答案, answer: answer, tolerance: {absolute: 0.5}}
"""
MD = """\
## 算盘 {#abacus}

算盘上的珠子会动。

{{< widget abacus >}}

## 第二个算盘 {#second}

{{< widget abacus_at_load >}}
"""
HTML = '<p class="beads">{{ widget.data.beads }}</p>\n'
# its init throws at line 4 (after marking that it started), column 8
INIT_THROWS = """\
// abacus: starts, then fails
lessonkit.widget('abacus', function (root, data) {
  root.setAttribute('data-started', '');
  root.missing.call();
});
"""
# its script throws at line 3 while it runs, before it registers
LOAD_THROWS = """\
// abacus_at_load: fails before it registers
var beads = window.lessonkit;
beads.none.count();
lessonkit.widget('abacus_at_load', function (root) { root.setAttribute('data-started', ''); });
"""


@pytest.fixture(scope="module")
def fragile_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fragile")
    lesson = root / "content" / SLUG
    for kind, js in (("abacus", INIT_THROWS), ("abacus_at_load", LOAD_THROWS)):
        (lesson / "widgets" / kind).mkdir(parents=True)
        (lesson / "widgets" / kind / "widget.html").write_text(HTML, encoding="utf-8")
        (lesson / "widgets" / kind / "widget.js").write_text(js, encoding="utf-8")
    for name, text in (("lesson.py", PY), ("lesson.yaml", YAML), ("lesson.md", MD)):
        (lesson / name).write_text(text, encoding="utf-8")
    out = root / "out"
    assert main(["build", "--quiet", "--no-cache", "--content", str(root / "content"), "--out", str(out)]) == 0
    return out


@pytest.fixture
def fragile(open_page, fragile_site):
    visit = open_page((fragile_site / SLUG / "index.html").as_uri())
    visit.page.set_default_timeout(5000)
    return visit


def test_the_component_that_throws_is_named_with_its_file_and_line(fragile):
    page = fragile.page
    assert page.get_attribute("#widget-abacus", "data-started") == ""     # it did start, then threw
    assert page.get_attribute("#widget-abacus_at_load", "data-started") is None   # never registered
    init_errors = [text for text, _ in fragile.console_errors if text.startswith("abacus ")]
    assert len(init_errors) == 1, fragile.console_errors
    assert f"content/{SLUG}/widgets/abacus/widget.js:4:" in init_errors[0]          # its own file, its own line
    assert len(fragile.page_errors) == 1                                    # abacus_at_load's, uncaught (next test)


def test_a_script_that_throws_while_it_runs_is_reported_at_its_file(open_page, fragile_site):
    visit = open_page((fragile_site / SLUG / "index.html").as_uri())
    errors = []
    visit.page.on("pageerror", lambda e: errors.append(e.stack or ""))
    visit.page.reload(wait_until="load")
    started(visit.page)
    assert any(f"content/{SLUG}/widgets/abacus_at_load/widget.js:3:" in stack for stack in errors), errors


def test_everything_else_still_works(fragile):
    page = fragile.page
    assert page.evaluate("document.documentElement.classList.contains('js')")
    page.click('.colormode button[data-mode="dark"]')                                    # colour mode
    assert page.get_attribute("html", "data-theme") == "dark"
    assert page.get_attribute('.colormode button[data-mode="dark"]', "aria-pressed") == "true"
    page.fill("#site-search-input", "算盘")                                                   # search
    page.wait_for_function("() => document.querySelectorAll('#site-search-results li').length > 0")
    page.fill("#site-search-input", "")
    page.fill("#check-1-f0", "42")                                                        # the self-check
    page.press("#check-1-f0", "Enter")
    assert page.text_content("#check-1-f0-fb") == "正确"
    page.click("[data-widget=projector] .pj-toggle")                                     # the projector
    assert page.get_attribute("[data-widget=projector] .pj-toggle", "aria-pressed") == "true"
    assert page.evaluate("location.hash").startswith("#present-")
    page.keyboard.press("ArrowRight")
    assert page.text_content("[data-widget=projector] .pj-count [aria-hidden]").startswith("2 /")
    page.keyboard.press("Escape")
    assert page.get_attribute("[data-widget=projector] .pj-toggle", "aria-pressed") == "false"
