"""An English site built from English content (tests/english_lesson.py), in Chromium and on paper: the self-checks
grade in English (the shipped component, expected messages worked out by hand), and with every answer, hint and
feedback opened, every widget pressed and the projector on, nothing lessonkit wrote is Chinese — not the text, not an
attribute; nor the student's or the teacher's PDF (`build.py pdf`, `pdf --teacher`, read back with pdftotext)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PROJECT, press_each_widget_button, require
from english_lesson import CJK, SLUG, write_english_site
from lessonkit.cli import main
from lessonkit.support import chromium

TIMEOUT = 5000          # ms, for every wait
PDF_TIMEOUT = 300       # s: one lesson, two editions
# typed into every number box: unreadable, empty-ish, zero, both signs, far and near, the unconverted value
TRIES = ["", "four", "0", "-0.004", "0.006", "0.04", "4.05e-5", "1e9", "-1e9", "1e-9", "3", "-3", "0.5", "-0.5"]


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("english")
    write_english_site(root / "content")
    out = root / "out"
    assert main(["build", "--quiet", "--content", str(root / "content"), "--out", str(out),
                 "--cache-dir", str(root / "cache")]) == 0
    return root


@pytest.fixture
def page(open_page, english):
    visit = open_page((english / "out" / SLUG / "index.html").as_uri())
    visit.page.set_default_timeout(TIMEOUT)
    visit.page.wait_for_selector(".selfcheck.is-live")
    yield visit.page
    visit.assert_clean()


def submit(page, selector: str, text: str) -> str:
    page.fill(selector, text)
    page.press(selector, "Enter")
    return page.text_content(f"{selector}-fb")


def test_self_checks_grade_in_english(page):
    # 0.9⁹⁶ × 100 = 0.0040484 (%), ±5 %: 0.004 is right; 0.04 is 9.88 times it (the band around 10)
    assert submit(page, "#check-1-f0", "0.004") == "Right"
    assert submit(page, "#check-1-f0", "0.006") == "That is the handout's slip; multiply by 100 only once."
    assert submit(page, "#check-1-f0", "0.04") == "Too large: about 10 times the right value."
    assert submit(page, "#check-1-f0", "0.0004") == "Too small: about 1/10 of the right value."
    assert submit(page, "#check-1-f0", "4.05e-5") == ("This looks like the value before converting: type it "
                                                      "multiplied by 100, in %.")
    assert submit(page, "#check-1-f0", "-0.004") == "Wrong sign: the size is right, the sign is not."
    assert submit(page, "#check-1-f0", "four").startswith("Cannot read this number")
    assert submit(page, "#check-1-f0", "") == "Type a number first."
    # a vector: x̂ of [10, 0, 0, 0] is [1.73, −0.577, −0.577, −0.577]; the third typed with the wrong sign
    page.fill("#check-2-f0", "2.5")
    page.fill("#check-2-f1", "5")                     # 5 / 4.33 = 1.15: a little too large
    for i, typed in enumerate(["1.73", "-0.577", "0.577", "-0.58"], start=1):
        page.fill(f"#check-2-f2-{i}", typed)
    page.click("#check-2 .sc-check")
    assert page.text_content("#check-2 [role=status]") == (
        "Mean: Right Spread: A little too large: above the right value, but less than 1.5 times it. "
        "Normalised, value 1: Right Normalised, value 2: Right "
        "Normalised, value 3: Wrong sign: the size is right, the sign is not. Normalised, value 4: Right")
    assert page.get_attribute("#check-2-f2-3", "aria-label") == "Normalised, value 3"
    # −0.25 to 2 significant figures: [−0.255, −0.245]; the start is 0 ± 0.01
    assert submit(page, "#check-5-f0", "-2.5") == "Too large in size: about 10 times the right value."
    assert submit(page, "#check-5-f0", "-0.2") == ("A little too large: smaller in size than the right value, "
                                                   "but more than 2/3 of it.")           # r = 0.8
    assert submit(page, "#check-5-f0", "1") == "Wrong sign: the answer is negative."
    assert submit(page, "#check-5-f1", "0.5") == "Too large."
    assert submit(page, "#check-5-f1", "-0.5") == "Too small."
    # choices, several and one
    page.check("#check-3-c0")
    page.check("#check-3-c1")
    page.click("#check-3 .sc-check")
    assert page.text_content("#check-3 [role=status]") == ("A: Right B: Not this one. It has the direction "
                                                           "backwards. A correct option is still unchosen.")
    page.check("#check-4-c0")
    page.click("#check-4 .sc-check")
    assert page.text_content("#check-4 [role=status]") == "A: Not this one. Close, but ten doublings give a little more."
    # the standalone check, its hints one at a time
    assert submit(page, "#check-pow-f0", "1024.4") == "Right"
    assert page.text_content("#check-pow .sc-hint-next") == "Hint (1/1)"
    page.click("#check-pow .sc-hint-next")
    assert page.text_content("#check-pow .sc-hint-next") == "Show answer"


def words_on_the_page(page) -> list[str]:
    """Every text node and every attribute value of the document (hidden ones too: a screen reader or a printer
    may show them), scripts' data included."""
    return page.evaluate("""() => {
        const out = [];
        for (const el of document.querySelectorAll('*')) {
            for (const a of el.attributes) out.push(a.name + '=' + a.value);
        }
        const walk = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) out.push(walk.currentNode.nodeValue);
        return out;
    }""")


def chinese_in(texts: list[str]) -> list[str]:
    return [t[:120] for t in texts if CJK.search(t)]


def test_nothing_chinese_with_every_answer_hint_and_feedback_opened(page):
    said = []
    for box in page.locator(".sc-input").element_handles():
        box_id = box.get_attribute("id")
        for typed in TRIES:
            said.append(submit(page, f"#{box_id}", typed))
            said.append(page.locator(f"#{box_id}").evaluate("b => b.closest('.selfcheck').querySelector"
                                                             "('[role=status]').textContent"))
    for check in page.locator(".selfcheck:has(.sc-choice)").element_handles():
        boxes = check.query_selector_all(".sc-choice input")
        for box in boxes:                              # each option alone, then all of them
            for other in boxes:
                other.evaluate("b => { b.checked = false; }")
            box.check()
            check.query_selector(".sc-check").click()
            said.append(check.query_selector("[role=status]").text_content())
        for box in boxes:
            box.evaluate("b => { b.checked = true; }")
        check.query_selector(".sc-check").click()
        said.append(check.query_selector("[role=status]").text_content())
    for button in page.locator(".sc-hint-next").element_handles():
        for _ in range(4):
            said.append(button.text_content())
            if button.is_enabled():
                button.click()
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert len(said) > 100 and chinese_in(said) == []
    assert chinese_in(words_on_the_page(page)) == []
    for state in press_each_widget_button(page):       # explorer steppers and buttons, the mask table, projector
        found = chinese_in(words_on_the_page(page))
        assert found == [], state
    page.keyboard.press("Escape")


@pytest.fixture(scope="module")
def handouts(english, poppler) -> Path:
    require(chromium.missing())
    out = english / "pdf"
    for edition, folder in (([], "student"), (["--teacher"], "teacher")):
        done = subprocess.run([sys.executable, "build.py", "pdf", *edition, "--content", str(english / "content"),
                               "--out", str(out / folder), "--cache-dir", str(english / "cache")], cwd=PROJECT,
                              capture_output=True, text=True, timeout=PDF_TIMEOUT)
        assert done.returncode == 0, done.stderr
    return out


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True,
                          timeout=120).stdout


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_the_handouts_print_no_chinese_and_the_teacher_gets_every_key_and_answer(handouts):
    student, teacher = pdf_text(handouts / "student" / f"{SLUG}.pdf"), pdf_text(handouts / "teacher" / f"{SLUG}.pdf")
    assert CJK.findall(student) == [] and CJK.findall(teacher) == []
    keys = ["Answer: 0.00405 % (relative error ±5 %)", "Answer: [1.73, −0.577, −0.577, −0.577] (error ±0.01)",
            "Answer: −0.250 (significant figures: 2)", "Answer: 0 (error ±0.01)", "Answer: A, C", "Answer: B",
            "Answer: 1024 (error ±0.5)"]
    for key in keys:
        assert squeeze(key) in squeeze(teacher), key
        assert squeeze(key) not in squeeze(student), key
    answers = squeeze(teacher)[squeeze(teacher).rindex("Answers"):]  # the answers part comes last
    assert squeeze("What is two to the tenth?") in answers       # the standalone check's question, then its answer
    for answer in ("It is 1024, a little more than a thousand.", "About 0.00405 % is left after all the layers.",
                   "The slope is −0.250"):
        assert squeeze(answer) in answers, answer
        assert squeeze(answer) not in squeeze(student), answer
    assert "Show answer" not in student + teacher
