"""Self-check questions in Chromium, on a small fixture lesson built here (not the real lesson): what typing says,
the input forms it reads, keyboard only, the status announced, hints one by one, no JS, print, axe in every state.
Grading exists only in the shipped component (components/selfcheck/widget.js): every verdict here comes from typing
into the page, and every expected message from a ratio worked out by hand."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import axe_violations, started

from lessonkit.cli import main

TIMEOUT = 5000  # ms, for every wait

PY = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def remain():
    return 0.9 ** 96


@lesson.value
def slope():
    return -1 / np.sqrt(3)


@lesson.value
def start():
    return 0.0


@lesson.value
def norm():
    x = np.array([10.0, 0, 0, 0])
    mu, sigma = x.mean(), x.std()
    return {"mu": mu, "sigma": sigma, "xhat": ((x - mu) / sigma).tolist()}
"""
YAML = """\
title: 自测小课
summary: 测试自测题
objectives:
  - 会填数
challenges:
  - title: 剩多少
    question: 0.9 的 96 次方是百分之几？
    answer: 约 {{ remain:pct3 }}。
    hints:
      - 乘 96 次。
      - 再乘 100。
    check:
      fields:
        - label: 剩下的百分比
          answer: remain
          scale: 100
          unit: "%"
          tolerance: {relative: 0.05}
          mistakes:
            - {value: 0.006, hint: 这是讲义里的笔误。}
  - title: 归一化
    question: 算 μ、σ 和 x̂。
    answer: 见正文。
    check:
      fields:
        - {label: μ, answer: norm.mu, tolerance: {absolute: 0.01}}
        - {label: σ, answer: norm.sigma, tolerance: {relative: 0.01}}
        - {label: x̂, answer: norm.xhat, tolerance: {absolute: 0.01}}
  - title: 选一选
    question: 哪些是对的？
    answer: 甲和丙。
    check:
      multiple: true
      choices:
        - {text: 甲, correct: true}
        - {text: 乙, feedback: 乙刚好反了。}
        - {text: 丙, correct: true}
  - title: 负数与零
    question: 斜率和起点各是多少？
    answer: 斜率约 −0.577，起点是 0。
    check:
      fields:
        - {label: 斜率, answer: slope, tolerance: {absolute: 0.01}}
        - {label: 起点, answer: start, tolerance: {absolute: 0.01}}
  - title: 只选一个
    question: 哪个是二的十次方？
    answer: 是 1024。
    check:
      choices:
        - {text: "1000", feedback: 差一点。}
        - {text: "1024", correct: true}
"""
MD = "## 第一节 {#one}\n\n正文。\n"
REMAIN_PCT = 0.9 ** 96 * 100          # 0.0040484 (%)
KEY = f"答案：{REMAIN_PCT:.3g} %（相对误差 ±5 %）"


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("selfcheck")
    lesson = root / "content" / "quiz"
    lesson.mkdir(parents=True)
    (lesson / "lesson.py").write_text(PY, encoding="utf-8")
    (lesson / "lesson.yaml").write_text(YAML, encoding="utf-8")
    (lesson / "lesson.md").write_text(MD, encoding="utf-8")
    out = root / "out"
    assert main(["build", "--quiet", "--no-cache", "--content", str(root / "content"), "--out", str(out)]) == 0
    return out


def live(page) -> None:
    """The page's own inline script (the shipped component, as the build inlined it) has started every self-check."""
    page.wait_for_selector(".selfcheck.is-live", timeout=TIMEOUT)


@pytest.fixture
def quiz(open_page, fixture_site, axe_source):
    visit = open_page((fixture_site / "quiz" / "index.html").as_uri(), init_script=axe_source)
    visit.page.set_default_timeout(TIMEOUT)
    live(visit.page)
    yield visit.page
    visit.assert_clean()


def submit(page, selector: str, text: str) -> str:
    """Type `text` into the box and press Enter; the feedback next to the box."""
    page.fill(selector, "")
    page.type(selector, text)
    page.press(selector, "Enter")
    return page.text_content(f"{selector}-fb")


@pytest.mark.parametrize("typed", ["0.004", "0.00405", "0.00405 %", "0,004", "4e-3", "4E-3 %", "4×10⁻³",
                                   "4 × 10^-3", "０.００４", "０．００４％", "  .004  "])
def test_accepted_forms_say_right(quiz, typed):
    assert submit(quiz, "#check-1-f0", typed) == "正确"
    assert quiz.text_content("#check-1 [role=status]") == "正确"
    assert quiz.get_attribute("#check-1-f0", "aria-invalid") == "false"


# the answer is 0.0040484 (%), accepted within ±5 %: [0.003846, 0.004251]; r = typed / answer picks the band
@pytest.mark.parametrize("typed, message", [
    ("0.0045", "稍偏大：比正确值大，但不到它的 1.5 倍。"),     # r = 1.11: in [1, 1.5)
    ("0.01", "偏大，约为正确值的 2～3 倍。"),                   # 2.47: in [1.5, √10)
    ("0.04", "偏大，约为正确值的 10 倍。"),                     # 9.88: in [√10, 10√10)
    ("0.5", "偏大，约为正确值的 100 倍。"),                     # 124: in [10√10, 100√10)
    ("1000", "偏大很多：超过正确值的 10⁴ 倍。"),                # 2.5 × 10⁵ ≥ 10^4.5
    ("0.003", "稍偏小：比正确值小，但在它的 2/3 以上。"),       # 0.741: in [2/3, 1)
    ("0.0015", "偏小，约为正确值的 1/2～1/3。"),                # 0.371: in [1/√10, 2/3)
    ("0.0004", "偏小，约为正确值的 1/10。"),                    # 0.0988: in [10^−1.5, 10^−0.5)
    ("0", "偏小很多：不到正确值的 1/10⁴。"),                    # 0: below 10^−4.5
    ("-0.00405", "正负号反了：大小对，但符号不对。"),           # −x is accepted
    ("-3", "正负号不对：应该是正数。"),                         # r < 0, and −x is not accepted
])
def test_the_band_of_a_wrong_answer(quiz, typed, message):
    assert submit(quiz, "#check-1-f0", typed) == message
    assert quiz.get_attribute("#check-1-f0", "aria-invalid") == "true"


def test_a_negative_answer_speaks_of_its_size_and_a_zero_answer_of_above_or_below(quiz):
    """Slope −1/√3 = −0.57735 ± 0.01; start 0 ± 0.01 (no ratio to 0: only too large or too small)."""
    assert submit(quiz, "#check-4-f0", "-0.577") == "正确"
    assert submit(quiz, "#check-4-f0", "-5.8") == "绝对值偏大，约为正确值的 10 倍。"        # r = 10.05
    assert submit(quiz, "#check-4-f0", "-0.5") == "稍偏大：绝对值比正确值小，但在它的 2/3 以上。"  # r = 0.866
    assert submit(quiz, "#check-4-f0", "-0.7") == "稍偏小：绝对值比正确值大，但不到它的 1.5 倍。"  # r = 1.21
    assert submit(quiz, "#check-4-f0", "0.577") == "正负号反了：大小对，但符号不对。"
    assert submit(quiz, "#check-4-f0", "3") == "正负号不对：应该是负数。"
    assert submit(quiz, "#check-4-f1", "0.005") == "正确"
    assert submit(quiz, "#check-4-f1", "0.5") == "偏大。"
    assert submit(quiz, "#check-4-f1", "-0.5") == "偏小。"
    assert quiz.text_content("#check-4 [role=status]") == "斜率：正负号不对：应该是负数。 起点：偏小。"


def test_a_single_choice(quiz):
    quiz.check("#check-5-c0")
    quiz.click("#check-5 .sc-check")
    assert quiz.text_content("#check-5-c0-fb") == "不对。 差一点。"
    assert quiz.text_content("#check-5 [role=status]") == "A：不对。 差一点。"
    assert quiz.get_attribute("#check-5", "data-verdict") == "wrong"
    quiz.check("#check-5-c1")
    quiz.press("#check-5-c1", "Enter")
    assert quiz.text_content("#check-5-c0-fb") == "" and quiz.text_content("#check-5-c1-fb") == "正确"
    assert quiz.text_content("#check-5 [role=status]") == "B：正确"
    assert quiz.get_attribute("#check-5", "data-verdict") == "right"


def test_wrong_answers_say_how_wrong(quiz):
    assert submit(quiz, "#check-1-f0", "0.006") == "这是讲义里的笔误。"
    assert quiz.get_attribute("#check-1-f0", "aria-invalid") == "true"
    # 0.04 / 0.00405 ≈ 9.9: about ten times too big
    assert submit(quiz, "#check-1-f0", "0.04") == "偏大，约为正确值的 10 倍。"
    assert submit(quiz, "#check-1-f0", "0.0004") == "偏小，约为正确值的 1/10。"
    assert submit(quiz, "#check-1-f0", "4.05e-5").startswith("像是没有换算的值")
    assert submit(quiz, "#check-1-f0", "-0.004") == "正负号反了：大小对，但符号不对。"
    assert submit(quiz, "#check-1-f0", "四") .startswith("看不懂这个数")
    assert submit(quiz, "#check-1-f0", "") == "请先填写一个数。"


def test_several_fields_are_checked_independently(quiz):
    mu, sigma = 2.5, (((10 - 2.5) ** 2 + 3 * 2.5 ** 2) / 4) ** 0.5     # 4.33
    xhat = [(10 - mu) / sigma] + [-mu / sigma] * 3                      # 1.73, −0.577 ×3
    quiz.fill("#check-2-f0", f"{mu}")
    quiz.fill("#check-2-f1", "5")                                       # the n − 1 standard deviation
    for i, v in enumerate(xhat, start=1):
        quiz.fill(f"#check-2-f2-{i}", f"{v:.3f}" if i != 3 else f"{-v:.3f}")
    quiz.click("#check-2 .sc-check")
    assert quiz.text_content("#check-2-f0-fb") == "正确"
    assert quiz.text_content("#check-2-f1-fb") == "稍偏大：比正确值大，但不到它的 1.5 倍。"
    assert [quiz.text_content(f"#check-2-f2-{i}-fb") for i in (1, 2, 3, 4)] == \
        ["正确", "正确", "正负号反了：大小对，但符号不对。", "正确"]
    status = quiz.text_content("#check-2 [role=status]")
    assert status.startswith("μ：正确 σ：稍偏大") and "x̂ 的第 3 个值：正负号反了" in status
    quiz.fill("#check-2-f1", f"{sigma:.2f}")
    quiz.fill("#check-2-f2-3", f"{xhat[2]:.2f}")
    quiz.press("#check-2-f1", "Enter")
    assert quiz.text_content("#check-2 [role=status]") == "全部正确"


def test_keyboard_only(quiz):
    """Tab to the box, type, Enter; Tab to 检查 and press Space; hints and the answer by keyboard; choices with
    Space and Enter."""
    quiz.focus("#check-1-f0")
    quiz.keyboard.press("Shift+Tab")
    quiz.keyboard.press("Tab")
    assert quiz.evaluate("document.activeElement.id") == "check-1-f0"
    quiz.keyboard.type("0.006")
    quiz.keyboard.press("Tab")
    assert quiz.evaluate("document.activeElement.className") == "sc-check"
    quiz.keyboard.press("Space")
    assert quiz.text_content("#check-1 [role=status]") == "这是讲义里的笔误。"
    quiz.keyboard.press("Shift+Tab")
    quiz.keyboard.press("Control+a")
    quiz.keyboard.type("0.00405")
    quiz.keyboard.press("Enter")
    assert quiz.text_content("#check-1 [role=status]") == "正确"
    # hints: the next Tab stop after 检查 is the hint button
    quiz.keyboard.press("Tab")
    quiz.keyboard.press("Tab")
    assert quiz.evaluate("document.activeElement.className") == "sc-hint-next"
    assert quiz.text_content(".sc-hint-next") == "提示（1/2）"
    assert quiz.locator("#check-1 .sc-hint").nth(0).is_hidden()
    quiz.keyboard.press("Enter")
    assert quiz.locator("#check-1 .sc-hint").nth(0).is_visible()
    assert quiz.locator("#check-1 .sc-hint").nth(1).is_hidden()
    quiz.keyboard.press("Enter")
    assert quiz.locator("#check-1 .sc-hint").nth(1).is_visible()
    assert quiz.text_content(".sc-hint-next") == "查看答案"
    quiz.keyboard.press("Enter")
    assert quiz.evaluate("document.querySelector('#challenge-1 details.answer').open")
    assert quiz.evaluate("document.activeElement.tagName") == "SUMMARY"
    # choices: check boxes with Space, check with Enter
    quiz.focus("#check-3-c0")
    quiz.keyboard.press("Space")
    quiz.keyboard.press("Tab")
    quiz.keyboard.press("Space")
    quiz.keyboard.press("Enter")
    assert quiz.text_content("#check-3-c1-fb") == "不对。 乙刚好反了。"
    assert quiz.text_content("#check-3 [role=status]") == "A：正确 B：不对。 乙刚好反了。 还有正确的选项没有选。"
    quiz.keyboard.press("Space")        # B off
    quiz.keyboard.press("Tab")
    quiz.keyboard.press("Space")        # C on
    quiz.keyboard.press("Enter")
    assert quiz.text_content("#check-3 [role=status]") == "A：正确 C：正确"
    assert quiz.get_attribute("#check-3", "data-verdict") == "right"


def test_status_is_a_live_region_present_from_the_start(quiz):
    regions = quiz.eval_on_selector_all(".selfcheck [role=status]", "rs => rs.map(r => [r.textContent, "
                                        "r.closest('.selfcheck').id])")
    assert regions == [["", "check-1"], ["", "check-2"], ["", "check-3"], ["", "check-4"], ["", "check-5"]]
    submit(quiz, "#check-1-f0", "0.04")
    assert quiz.text_content("#check-1 [role=status]") == "偏大，约为正确值的 10 倍。"
    described = quiz.get_attribute("#check-1-f0", "aria-describedby")
    assert quiz.text_content(f"#{described}") == "偏大，约为正确值的 10 倍。"


STATES = {
    "start": lambda p: None,
    "wrong": lambda p: (submit(p, "#check-1-f0", "0.04"), p.click("#check-2 .sc-check"),
                        p.check("#check-3-c1"), p.click("#check-3 .sc-check")),
    "right-hints-answer": lambda p: (submit(p, "#check-1-f0", "0.004"), p.click("#check-1 .sc-hint-next"),
                                     p.click("#check-1 .sc-hint-next"), p.click("#check-1 .sc-hint-next")),
}


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_in_every_state(quiz, width):
    quiz.set_viewport_size({"width": width, "height": 900})
    found = {}
    for name, reach in STATES.items():
        reach(quiz)
        found[name] = axe_violations(quiz)
    assert found == {name: [] for name in STATES}


def test_without_javascript_the_question_and_answer_still_read(browser, fixture_site):
    context = browser.new_context(java_script_enabled=False, locale="zh-CN")
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto((fixture_site / "quiz" / "index.html").as_uri(), wait_until="load")
        started(page)
        assert page.is_visible("#challenge-1 .challenge-question")
        assert page.is_hidden("#check-1 .sc-check")                  # nothing pretends to check
        assert page.is_visible("#check-3-c0")                        # the options are part of the question
        page.click("#check-1-hints summary")
        assert page.is_visible("#check-1 .sc-hint >> nth=1")
        page.click("#challenge-1 details.answer summary")
        assert "约" in page.inner_text("#challenge-1 .answer-body")
    finally:
        context.close()


def test_print_student_boxes_and_teacher_key(quiz):
    submit(quiz, "#check-1-f0", "0.004")
    quiz.emulate_media(media="print")
    quiz.evaluate("document.documentElement.classList.add('print-student')")
    assert quiz.is_visible("#check-1-f0") and quiz.is_hidden("#check-1 .sc-key")
    color = quiz.eval_on_selector("#check-1-f0", "e => getComputedStyle(e).color")
    assert color == "rgb(255, 255, 255)"                      # an empty box: what was typed does not print
    assert quiz.is_hidden("#check-1 .sc-check") and quiz.is_hidden("#check-1 [role=status]")
    quiz.evaluate("document.documentElement.classList.remove('print-student')")
    assert quiz.is_visible("#check-1 .sc-key") and quiz.is_hidden("#check-1-f0")
    assert quiz.inner_text("#check-1 .sc-key") == KEY
    assert quiz.is_visible("#check-1 .sc-hint >> nth=1")      # every hint prints
