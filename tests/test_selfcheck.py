"""Self-check questions: lesson.yaml problems with exact messages, the model the compute stage makes (intervals,
ratio band edges, keys) and the words the placement takes from the theme, checked against values worked out by hand.
What the shipped script says for a typed answer is tested in Chromium (tests/browser/test_selfcheck_in_browser.py):
grading exists only there."""
import json
import pickle
import re


import pytest

from lessonkit.compute.run import compute_lesson
from lessonkit.features.selfcheck import NumberField, accepted_interval, ratio_bands, ratio_edges
from lessonkit.features.selfcheck_page import Placement
from lessonkit.load.lessons import read_lesson
from lessonkit.support.i18n import load_ui
from lessonkit.support.paths import BUILTIN_THEMES

THEME = [BUILTIN_THEMES / "default"]
ZH, EN = load_ui(THEME, "zh-CN"), load_ui(THEME, "en")

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


def test_ratio_band_edges_by_hand():
    """«About 10ᵏ× off» is the band from 10^(k − ½) to 10^(k + ½); between 1/√10 and 2/3 «1/2 to 1/3», up to 1
    «a little too small», up to 1.5 «a little too large», up to √10 «2 to 3×»; beyond 10^4.5 «far too large»."""
    root10 = 10 ** 0.5
    expected = [0, 10 ** -4.5, 10 ** -3.5, 10 ** -2.5, 10 ** -1.5, 1 / root10, 2 / 3, 1, 1.5,
                root10, 10 * root10, 100 * root10, 1000 * root10, 10_000 * root10]
    assert ratio_edges() == pytest.approx(expected, rel=1e-6)
    names = [(name, k) for _, name, k in ratio_bands()]
    assert names == [("far_below", 4), ("below", 4), ("below", 3), ("below", 2), ("below", 1), ("below_2_3", None),
                     ("slightly_below", None), ("slightly_above", None), ("above_2_3", None),
                     ("above", 1), ("above", 2), ("above", 3), ("above", 4)]
    # 0.04 typed for 0.0040484: ratio 9.88 lies in [√10, 10√10) — the band «about 10×»
    ratio = 0.04 / REMAIN
    band = max(i for i, edge in enumerate(ratio_edges()) if edge <= ratio)
    assert names[band] == ("above", 1)


def field_with(tolerance, unit=""):
    return NumberField("x", unit, False, (), "1", tolerance, "")


@pytest.mark.parametrize("tolerance, unit, zh, en", [
    (("relative", 0.05), "", "相对误差 ±5 %", "relative error ±5 %"),
    (("absolute", 0.001), "%", "误差 ±0.001 %", "error ±0.001 %"),
    (("absolute", 0.5), "", "误差 ±0.5", "error ±0.5"),
    (("sig", 2), "", "2 位有效数字", "significant figures: 2"),
])
def test_tolerances_in_the_words_of_each_language(tolerance, unit, zh, en):
    assert Placement({}, ZH, None, None).tolerance(field_with(tolerance, unit)) == zh
    assert Placement({}, EN, None, None).tolerance(field_with(tolerance, unit)) == en


def test_the_bands_words_follow_the_edges_for_either_sign():
    bands = Placement({}, EN, None, None).bands(False, tuple(ratio_edges()))
    assert len(bands["says"]) == len(bands["edges"]) - 1
    assert bands["says"][9] == "Too large: about 10 times the right value."
    assert bands["says"][1] == "Too small: about 1/10⁴ of the right value."
    assert bands["over"] == "Far too large: more than 10⁴ times the right value."
    negative = Placement({}, ZH, None, None).bands(True, tuple(ratio_edges()))
    assert negative["says"][10] == "绝对值偏大，约为正确值的 100 倍。"
    assert negative["sign"] == "正负号不对：应该是负数。"


def test_the_model_is_made_at_compute_as_plain_data(make_lesson):
    """Without rendering anything: the intervals in the typed unit (%), the mistakes' and the unconverted value's
    intervals, the printed key; and it pickles (it travels with the computed lesson)."""
    folder = make_lesson(yaml=GOOD, md=MD, py=PY)
    problems = []
    computed = compute_lesson(read_lesson(folder), problems)
    assert problems == []
    assert sorted(computed.checks) == ["challenges.0", "challenges.1"]
    first = computed.checks["challenges.0"]
    (field,) = first.fields
    (box,) = field.boxes
    assert box.accept == pytest.approx((REMAIN * 0.95, REMAIN * 1.05), rel=1e-9)
    assert [(m.low, m.high) for m in box.mistakes] == [
        pytest.approx((0.006 * 0.95, 0.006 * 1.05), rel=1e-9),
        pytest.approx((REMAIN / 100 * 0.95, REMAIN / 100 * 1.05), rel=1e-9)]
    assert [m.hint for m in box.mistakes] == ["这是笔误。", None]   # None: the value typed without converting
    assert field.key == "0.00405 %" and field.tolerance == ("relative", 0.05) and first.signs == ("pos",)
    assert [h for _, h in first.hints] == ["乘 96 次。"]
    second = computed.checks["challenges.1"]
    assert [c.correct for c in second.choices] == [False, True] and not second.fields
    assert pickle.loads(pickle.dumps(computed.checks)) == computed.checks


def test_the_model_reports_its_problems_at_compute_with_the_yaml_line(make_lesson):
    folder = make_lesson(yaml=GOOD.replace("answer: remain", "answer: remian"), md=MD, py=PY)
    problems = []
    computed = compute_lesson(read_lesson(folder), problems)
    assert [(p.path.name, p.line, str(p.message)) for p in problems] == [
        ("lesson.yaml", 14, "`challenges.0.check.fields.0.answer`: unknown value `remian`; did you mean `remain`?")]
    assert computed.checks["challenges.0"].fields == ()   # the page is not built, but the rest is still checked


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
    # the teacher edition's answers part holds the standalone check's answer too, with its question
    answers = re.search(r'<section id="answers".*?</section>', page, re.S).group(0)
    assert "<p>二的十次方是多少？</p>" in answers and "<p>是 1024。</p>" in answers
    data = json.loads(re.search(r'id="check-pow-data">(.*?)</script>', page, re.S).group(1))
    assert data["fields"][0]["accept"] == pytest.approx([1023.5, 1024.5], abs=1e-6)  # 2¹⁰ ± 0.5


def test_self_checks_on_their_own_are_checked(make_lesson, run_build):
    make_lesson(yaml=ALONE_YAML, md="## 第一节 {#first}\n\n{{< check pwo >}}\n")
    code, _, err, _ = run_build()
    assert code == 1
    assert "lesson.md:3: unknown self-check `pwo`; did you mean `pow`?" in err
    assert "lesson.yaml:6: self-check `pow` is never placed" in err


WHOLE_PY = PY + """

@lesson.value
def count():
    return 22


@lesson.value
def halved():
    return 44 / 2


@lesson.value
def share():
    return 0.22
"""
WHOLE = HEAD + """\
  - title: 数一数
    question: 几步？
    answer: 见上。
    check:
      fields:
        - {label: 步数, answer: count}
        - {label: 一半, answer: halved}
        - {label: 百分比, answer: share, scale: 100, unit: "%"}
        - {label: 剩下, answer: remain}
"""


def test_a_whole_answer_prints_whole_in_the_key(make_lesson, run_build):
    """22 (an int), 44 / 2 (the float 22.0) and 0.22 × 100 (22.000000000000004) print as 22 in the key; a fraction
    keeps its three significant figures (0.9⁹⁶: 4.05 × 10⁻⁵)."""
    folder = make_lesson(yaml=WHOLE, md=MD, py=WHOLE_PY)
    problems = []
    field_keys = [f.key for f in compute_lesson(read_lesson(folder), problems).checks["challenges.0"].fields]
    assert problems == [] and field_keys == ["22", "22", "22 %", "4.05 × 10⁻⁵"]
    code, _, err, out = run_build()
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert code == 0, err
    assert re.findall(r"答案：([^（<]*)（", page) == ["22", "22", "22 %", "4.05 × 10⁻⁵"]   # the printed key
