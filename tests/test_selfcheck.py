"""Self-check questions: lesson.yaml problems with exact messages, and the intervals and messages the build computes,
checked against values worked out by hand."""
import json
import math
import re

import pytest

from lessonkit.features.selfcheck import accepted_interval, find_message, ratio_table, tolerance_text

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def factor():
    return 0.9


@lesson.value
def remain(factor):
    return factor ** 96


@lesson.value
def steps():
    return {"mu": 2.5, "xhat": [1.5, -0.5, -0.5, -0.5], "word": "abc"}
"""
MD = "## 第一节 {#one}\n\n正文。\n"
HEAD = "title: 小课\nsummary: 一节用来测试的小课\nobjectives:\n  - 看懂一个数\nchallenges:\n"
GOOD = HEAD + """\
  - title: 剩多少
    question: 算一算。
    answer: 约 {{ remain:pct3 }}。
    hints:
      - 乘 96 次。
    check:
      fields:
        - label: 剩下的百分比
          answer: remain
          scale: 100
          unit: "%"
          tolerance: {relative: 0.05}
          mistakes:
            - {value: 0.006, hint: 这是笔误。}
  - title: 选一选
    question: 哪个对？
    answer: B。
    check:
      choices:
        - {text: 甲, feedback: 不是甲。}
        - {text: 乙, correct: true}
"""

REMAIN = 0.9 ** 96 * 100  # what the student types, in %: 0.0040484…


def data_of(page: str, cid: str) -> dict:
    m = re.search(rf'<script type="application/json" id="{cid}-data">(.*?)</script>', page)
    return json.loads(m.group(1))


def test_a_good_check_builds_with_its_key_and_intervals(make_lesson, run_build):
    make_lesson(yaml=GOOD, md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "答案：0.00405 %（相对误差 ±5 %）" in page
    assert 'inputmode="decimal"' in page and 'role="status"' in page
    field = data_of(page, "check-1")["fields"][0]
    assert field["accept"][0] == pytest.approx(REMAIN * 0.95, rel=1e-9)
    assert field["accept"][1] == pytest.approx(REMAIN * 1.05, rel=1e-9)
    assert field["mistakes"][0][:2] == pytest.approx([0.006 * 0.95, 0.006 * 1.05], rel=1e-9)
    assert field["mistakes"][0][2] == "这是笔误。"
    # the value typed without converting to % (4.05e-5) has its own hint
    assert field["mistakes"][1][:2] == pytest.approx([REMAIN / 100 * 0.95, REMAIN / 100 * 1.05], rel=1e-9)
    choices = data_of(page, "check-2")["choices"]
    assert choices["correct"] == [1] and choices["feedback"] == ["不是甲。", ""] and not choices["multiple"]
    assert "答案：B" in page


@pytest.mark.parametrize("check, message", [
    ("fields: [{label: x, answer: remian}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.answer`: unknown value `remian`; did you mean `remain`? "
     "(expected a value defined in lesson.py: factor, remain, steps)"),
    ("fields: [{label: x, answer: steps.word}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.answer`: value `steps.word` is text ('abc'), not a number "
     "(expected the name of a number, or a list of numbers, computed in lesson.py)"),
    ("fields: [{label: x, answer: steps}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.answer`: value `steps` is a mapping (keys: mu, xhat, word), "
     "not a number (expected the name of a number, or a list of numbers, computed in lesson.py)"),
    ("fields: [{label: x, answer: 0.004}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.answer` is a number ('0.004') (expected the name of a number "
     "(or list of numbers) computed in lesson.py, e.g. `no_res_09` or `ln_challenge.mu`, never a number typed in)"),
    ("fields: [{label: x, answer: remain, tolerance: {relative: 0.05, sig: 2}}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.tolerance`: sets `relative` and `sig` "
     "(expected exactly one of `{relative: 0.05}`, `{absolute: 0.001}`, `{sig: 2}`)"),
    ("fields: [{label: x, answer: remain, tolerance: {relative: -1}}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.tolerance.relative`: is -1 (expected a positive number, e.g. 0.05)"),
    ("fields: [{label: x, answer: remain, tolerance: {sig: 0}}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.tolerance.sig`: is 0 "
     "(expected a whole number of significant figures from 1 to 15)"),
    ("fields: [{label: x, answer: remain, tolerance: {relatve: 0.1}}]",
     "lesson.yaml:10: unknown key `challenges.0.check.fields.0.tolerance.relatve`; did you mean `relative`? "
     "(expected one of: relative, absolute, sig)"),
    ("fields: [{label: x, answer: remain, tolerance: {relative: 0.05}, mistakes: [{value: 4.1e-5, hint: h}]}]",
     "lesson.yaml:10: `challenges.0.check.fields.0.mistakes.0.value`: 4.10 × 10⁻⁵ lies within the accepted answers "
     "(3.85 × 10⁻⁵ … 4.25 × 10⁻⁵) (expected a wrong answer, outside the tolerance)"),
    ("choices: [{text: 甲}, {text: 乙}]",
     "lesson.yaml:10: `challenges.0.check.choices`: no option is marked `correct: true` "
     "(expected at least one correct option)"),
    ("choices: [{text: 甲, correct: true}, {text: 乙, correct: true}]",
     "lesson.yaml:10: `challenges.0.check.choices`: 2 options are marked correct but `multiple` is not true "
     "(expected one correct option, or `multiple: true`)"),
    ("{}",
     "lesson.yaml:9: `challenges.0.check`: has neither `fields` nor `choices` "
     "(expected either `fields:` (numeric answers) or `choices:` (multiple choice))"),
])
def test_check_problems_have_exact_messages(make_lesson, run_build, check, message):
    yaml = HEAD + f"  - title: 题\n    question: 问\n    answer: 答\n    check:\n      {check}\n"
    if check == "{}":
        yaml = HEAD + "  - title: 题\n    question: 问\n    answer: 答\n    check: {}\n"
    make_lesson(yaml=yaml, md=MD, py=PY)
    code, _, err, _ = run_build()
    assert code == 1
    assert message in err, err


def test_problems_in_several_checks_are_reported_at_once_with_their_lines(make_lesson, run_build):
    yaml = GOOD.replace("answer: remain", "answer: nothing").replace("{text: 乙, correct: true}", "{text: 乙}")
    make_lesson(yaml=yaml, md=MD, py=PY)
    code, _, err, _ = run_build()
    assert code == 1
    assert "lesson.yaml:14: `challenges.0.check.fields.0.answer`: unknown value `nothing`" in err
    assert "lesson.yaml:24: `challenges.1.check.choices`: no option is marked `correct: true`" in err


# ── intervals, by hand ─────────────────────────────────────────────────────────────────────────────────────────────
def test_relative_tolerance():
    lo, hi = accepted_interval(0.004, {"relative": 0.05})
    assert (lo, hi) == pytest.approx((0.0038, 0.0042), rel=1e-9)


def test_absolute_tolerance_in_the_typed_unit():
    lo, hi = accepted_interval(-0.57735, {"absolute": 0.01})
    assert (lo, hi) == pytest.approx((-0.58735, -0.56735), rel=1e-9)


def test_significant_figures_is_half_a_unit_of_the_last_kept_digit():
    # 0.0040525 to 2 significant figures is 0.0041: within ±0.00005 → [0.0040025, 0.0041025]; 0.004 is not in it
    lo, hi = accepted_interval(0.0040525, {"sig": 2})
    assert (lo, hi) == pytest.approx((0.0040025, 0.0041025), rel=1e-9)
    assert not lo <= 0.004 <= hi
    # to 1 figure (0.004): ±0.0005
    lo, hi = accepted_interval(0.0040525, {"sig": 1})
    assert (lo, hi) == pytest.approx((0.0035525, 0.0045525), rel=1e-9)
    # 4.5 to 1 figure: ±0.5 → [4, 5], both ends accepted despite rounding
    lo, hi = accepted_interval(4.5, {"sig": 1})
    assert lo <= 4.0 and hi >= 5.0 and lo > 3.9999 and hi < 5.0001


def test_tolerance_texts():
    assert tolerance_text({"relative": 0.05}) == "相对误差 ±5 %"
    assert tolerance_text({"absolute": 0.001}, "%") == "误差 ±0.001 %"
    assert tolerance_text({"sig": 2}) == "2 位有效数字"


def check_for(expected, tolerance):
    accept = accepted_interval(expected, tolerance)
    return {"accept": accept, "mistakes": [], "answer": expected}, {"pos": ratio_table(), "neg": ratio_table(True)}


@pytest.mark.parametrize("typed, right, message", [
    (0.004, True, "正确"),
    (0.00405, True, "正确"),
    (0.0045, False, "稍偏大：比正确值大，但不到它的 1.5 倍。"),      # ratio 1.11
    (0.01, False, "偏大，约为正确值的 2～3 倍。"),                    # 2.47
    (0.04, False, "偏大，约为正确值的 10 倍。"),                      # 9.87 (between √10 and 10√10)
    (0.5, False, "偏大，约为正确值的 100 倍。"),                      # 123
    (1000.0, False, "偏大很多：超过正确值的 10⁴ 倍。"),               # 2.5 × 10⁵ > 10^4.5
    (0.003, False, "稍偏小：比正确值小，但在它的 2/3 以上。"),        # 0.74
    (0.0004, False, "偏小，约为正确值的 1/10。"),                     # 0.099
    (-0.00405, False, "正负号反了：大小对，但符号不对。"),
    (-3.0, False, "正负号不对：应该是正数。"),
])
def test_messages_for_wrong_answers(typed, right, message):
    check, texts = check_for(REMAIN, {"relative": 0.05})
    assert find_message(check, typed, texts) == (right, message)


def test_negative_answer_says_absolute_value():
    check, texts = check_for(-1 / math.sqrt(3), {"absolute": 0.01})
    assert find_message(check, -0.577, texts) == (True, "正确")
    assert find_message(check, -5.8, texts) == (False, "绝对值偏大，约为正确值的 10 倍。")
    assert find_message(check, 0.577, texts) == (False, "正负号反了：大小对，但符号不对。")


def test_zero_answer_has_no_ratio_bands():
    check, texts = check_for(0.0, {"absolute": 0.01})
    assert find_message(check, 0.005, texts) == (True, "正确")
    assert find_message(check, 0.5, texts) == (False, "偏大。")
    assert find_message(check, -0.5, texts) == (False, "偏小。")


def test_a_wrong_type_is_reported_once_and_hints_alone_need_no_check(make_lesson, run_build):
    yaml = HEAD + "  - title: 题\n    question: 问\n    answer: 答\n    hints: [想一想。]\n    check:\n      fields: 三\n"
    make_lesson(yaml=yaml, md=MD, py=PY)
    code, _, err, _ = run_build()
    assert code == 1
    assert err.count("lesson.yaml:") == 1 and "lesson.yaml:11: `challenges.0.check.fields` is text ('三')" in err
    make_lesson(yaml=HEAD + "  - title: 题\n    question: 问\n    answer: 答\n    hints: [想一想。, 再想想。]\n",
                md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="sc-hint"') == 2 and 'class="sc-form"' not in page


ALONE_YAML = """\
title: 小课
summary: 一节用来测试的小课
objectives:
  - 看懂一个数
checks:
  - id: pow
    question: 二的十次方是多少？
    check:
      fields:
        - label: 结果
          answer: two_pow
          tolerance: {absolute: 0.5}
    answer: 是 {{ two_pow }}。
"""


def test_a_self_check_on_its_own_is_placed_in_the_text(make_lesson, run_build):
    make_lesson(yaml=ALONE_YAML, md="## 第一节 {#first}\n\n先算一算：\n\n{{< check pow >}}\n")
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<aside class="challenge selfcheck-alone" id="selfcheck-pow"' in page
    assert 'data-widget="selfcheck" id="check-pow"' in page and "是 1024。" in page
    data = json.loads(re.search(r'id="check-pow-data">(.*?)</script>', page, re.S).group(1))
    assert data["fields"][0]["accept"] == pytest.approx([1023.5, 1024.5], abs=1e-6)  # 2¹⁰ ± 0.5


def test_self_checks_on_their_own_are_checked(make_lesson, run_build):
    make_lesson(yaml=ALONE_YAML, md="## 第一节 {#first}\n\n{{< check pwo >}}\n")
    code, _, err, _ = run_build()
    assert code == 1
    assert "lesson.md:3: unknown self-check `pwo`; did you mean `pow`?" in err
    assert "lesson.yaml:6: self-check `pow` is never placed" in err
