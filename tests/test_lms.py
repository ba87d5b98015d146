"""The course for a learning platform (`lessonkit export scorm|moodle`, lessonkit/export/): the SCORM 1.2 package's
manifest has what a platform needs, the Moodle question bank parses and carries the numbers the page accepts (worked
out here by hand from tests/lms_lesson.py's own numbers), mastery and lessons without self-checks are checked.
The SCORM package's page under a real SCORM runtime: tests/browser/test_scorm_in_browser.py."""
from __future__ import annotations

import base64
import math
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

import lms_lesson
from lms_lesson import CHECKS, DEPTH, FACTOR, MASTERY, MU, SECRET, SLUG, TYPO, XHAT
from lessonkit.cli import main
from lessonkit.render.containers import scorm_id

CP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
ADLCP = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"
MD = "{http://www.imsglobal.org/xsd/imsmd_rootv1p2p1}"
REMAIN_PCT = FACTOR ** DEPTH * 100          # the percentage the student types: 0.0040484 …
SLACK = 1e-9                                # the page widens its intervals by 1e-12 of their size (rounding)


@pytest.fixture
def course(tmp_path) -> Path:
    lms_lesson.write_course(tmp_path / "content")
    return tmp_path


@pytest.fixture
def export(course, capsys):
    """export(FORMAT, *args) → (exit code, stderr, out folder); into course/lms unless --out is given."""
    def run(kind: str, *args: str, out: Path | None = None):
        out = out or course / "lms"
        code = main(["export", kind, "-C", str(course), "--out", str(out), "--cache-dir", str(course / "cache"),
                     *args])
        return code, capsys.readouterr().err, out
    return run


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=SLACK, abs_tol=1e-15)


# ── SCORM 1.2 ────────────────────────────────────────────────────────────────────────────────────────────────────────
def test_the_scorm_package_has_what_a_platform_needs(export):
    code, err, out = export("scorm")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["quiz.scorm.zip", "reading.scorm.zip"]
    with zipfile.ZipFile(out / "quiz.scorm.zip") as package:
        names = package.namelist()
        manifest = ET.fromstring(package.read("imsmanifest.xml"))
        page = package.read("index.html").decode("utf-8")
    assert names[0] == "imsmanifest.xml" and {"index.html", "quiz.ipynb"} <= set(names)
    assert manifest.tag == f"{CP}manifest" and manifest.get("identifier")
    assert manifest.findtext(f"{CP}metadata/{CP}schema") == "ADL SCORM"
    assert manifest.findtext(f"{CP}metadata/{CP}schemaversion") == "1.2"
    organizations = manifest.find(f"{CP}organizations")
    organization = organizations.find(f"{CP}organization[@identifier='{organizations.get('default')}']")
    assert organization.findtext(f"{CP}title") == "连乘与归一化"
    item = organization.find(f"{CP}item")
    resource = manifest.find(f"{CP}resources/{CP}resource[@identifier='{item.get('identifierref')}']")
    assert resource.get(f"{ADLCP}scormtype") == "sco" and resource.get("type") == "webcontent"
    assert resource.get("href") == "index.html"
    assert sorted(f.get("href") for f in resource.findall(f"{CP}file")) == sorted(n for n in names
                                                                                 if n != "imsmanifest.xml")
    description = manifest.findtext(f"{CP}metadata/{MD}lom/{MD}general/{MD}description/{MD}langstring")
    assert description == f"会算 \\(0.900^{{ {DEPTH} }}\\)\n会把一组数归一化"  # the objectives (values: 3 sig. figs)
    # the page: the scorm component with the page's checks and the mastery, and no way out of the package
    assert 'data-widget="scorm"' in page and f'"mastery":{MASTERY}' in page
    assert all(f'["{c}","{c}"]' in page for c in CHECKS)
    links = re.findall(r'href="([^"]*)"', page)
    # no way out of the package: every link is on the page, or to a file in the package (notebook, figures' CSV)
    assert links and all(h.startswith(("#", "data:")) or h in names for h in links), links


def test_a_lesson_without_a_self_check_is_a_warning_and_still_a_reading_package(export):
    code, err, out = export("scorm")
    assert code == 0
    assert ("content/reading/lesson.yaml: lesson `reading` has no self-check: its SCORM package records only that "
            "it was opened (completed), with no score") in err
    with zipfile.ZipFile(out / "reading.scorm.zip") as package:
        page = package.read("index.html").decode("utf-8")
    assert '"checks":[]' in page
    code, err, _ = export("scorm", "--strict", out=out.parent / "strict")
    assert code == 1 and "lesson `reading` has no self-check" in err and not (out.parent / "strict").exists()


def test_the_student_package_never_holds_hidden_answers(export, course):
    (course / "content" / "site.yaml").write_text("answers: hidden\n", encoding="utf-8")
    code, err, out = export("scorm")
    assert code == 0, err
    with zipfile.ZipFile(out / "quiz.scorm.zip") as package:
        everything = b"".join(package.read(n) for n in package.namelist()).decode("utf-8")
    assert SECRET not in everything and "甲和丙" not in everything
    assert '"accept"' in everything                          # (the check still grades, in the page)


def test_two_exports_are_byte_identical(export, course):
    assert export("scorm", out=course / "a")[0] == 0
    assert export("scorm", "--no-cache", out=course / "b")[0] == 0
    for name in ("quiz.scorm.zip", "reading.scorm.zip"):
        assert (course / "a" / name).read_bytes() == (course / "b" / name).read_bytes()


def test_the_default_folder_is_output_lms_and_output_is_refused(course, capsys):
    assert main(["export", "scorm", "--lesson", SLUG, "-C", str(course), "--cache-dir", str(course / "cache"),
                 "-q"]) == 0
    assert [p.name for p in (course / "output-lms").iterdir()] == ["quiz.scorm.zip"]
    assert not (course / "output").exists()
    code = main(["export", "scorm", "-C", str(course), "--out", str(course / "output" / "lms")])
    assert code == 2 and "refusing to write the packages" in capsys.readouterr().err


# ── Moodle XML ───────────────────────────────────────────────────────────────────────────────────────────────────
@pytest.fixture
def bank(export):
    code, err, out = export("moodle")
    assert code == 0, err
    assert ("content/reading/lesson.yaml: lesson `reading` has no self-check: the question bank has nothing of "
            "it") in err
    data = (out / "questions.moodle.xml").read_bytes()
    return data, ET.fromstring(data)


def questions(root, kind: str) -> list:
    return root.findall(f"question[@type='{kind}']")


def test_the_bank_has_a_category_for_the_lesson_and_a_question_per_self_check(bank):
    data, root = bank
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    assert "连乘与归一化".encode("utf-8") in data                    # Chinese as itself, not as entities
    kinds = [q.get("type") for q in root.findall("question")]
    assert kinds[0] == "category" and kinds.count("category") == 1      # the reading lesson has none
    assert root.findtext("question[@type='category']/category/text") == "$course$/top/连乘与归一化"
    assert len(kinds) - 1 == len(CHECKS)
    assert sorted(kinds[1:]) == ["cloze", "multichoice", "multichoice", "numerical"]


def test_a_number_is_a_numerical_question_with_the_page_s_interval(bank):
    _, root = bank
    question, = questions(root, "numerical")
    answers = [(float(a.get("fraction")), float(a.findtext("text")), float(a.findtext("tolerance")),
                a.findtext("feedback/text")) for a in question.findall("answer")]
    # right: the value × 100 within ±5 %; the known slip within ±5 % of itself; the value typed unconverted
    right, typo, unconverted = answers
    assert right[0] == 100 and close(right[1], REMAIN_PCT) and close(right[2], 0.05 * REMAIN_PCT)
    assert right[3] == "正确"
    assert typo[:2] == (0, TYPO) and close(typo[2], 0.05 * TYPO) and typo[3] == "这是讲义里的笔误。"
    assert unconverted[0] == 0 and close(unconverted[1], REMAIN_PCT / 100)
    assert close(unconverted[2], 0.05 * REMAIN_PCT / 100) and "乘以 100" in unconverted[3]
    assert question.findtext("units/unit/unit_name") == "%" and question.findtext("showunits") == "0"
    text = question.findtext("questiontext/text")
    assert "\\(a = 0.900\\)" in text and "<math" not in text   # maths as TeX, the value filled in (3 sig. figs)
    assert [h.findtext("text") for h in question.findall("hint")] == [f"<p>连乘 {DEPTH} 次。</p>",
                                                                      "<p>换成百分数。</p>"]
    feedback = question.find("generalfeedback")
    assert SECRET in feedback.findtext("text") and '<img src="@@PLUGINFILE@@/decay.png"' in feedback.findtext("text")
    picture, = feedback.findall("file")
    assert picture.get("name") == "decay.png" and picture.get("encoding") == "base64"
    assert base64.b64decode(picture.text).startswith(b"\x89PNG")


def test_several_boxes_are_one_cloze_question_with_a_gap_each(bank):
    _, root = bank
    question, = questions(root, "cloze")
    gaps = re.findall(r"\{1:NUMERICAL:=([-0-9.]+):([0-9.]+)#正确\}", question.findtext("questiontext/text"))
    values = [float(v) for v, _ in gaps]
    tolerances = [float(t) for _, t in gaps]
    assert len(gaps) == 3 and all(close(a, b) for a, b in zip(values, [MU, *XHAT]))
    # μ ± 0.01; x̂ to 2 significant figures: √3 = 1.7… ± 0.05, −1/√3 = −0.57… ± 0.005
    assert all(close(a, b) for a, b in zip(tolerances, [0.01, 0.05, 0.005]))


def test_choices_carry_the_fractions_moodle_requires(bank):
    _, root = bank
    single, multiple = questions(root, "multichoice")
    assert single.findtext("single") == "true" and multiple.findtext("single") == "false"
    assert [float(a.get("fraction")) for a in single.findall("answer")] == [0, 100]
    assert single.find("answer").findtext("feedback/text") == "差一点。"
    # the question's image: a file beside its text, which refers to it by name
    picture, = single.findall("questiontext/file")
    assert base64.b64decode(picture.text) == lms_lesson.DOT
    assert f'<img src="@@PLUGINFILE@@/{picture.get("name")}" alt="一个点">' in single.findtext("questiontext/text")
    grades = [float(a.get("fraction")) for a in multiple.findall("answer")]
    assert round(sum(g for g in grades if g > 0), 2) == 100 and grades[1] < 0
    assert [a.findtext("text") for a in multiple.findall("answer")] == ["残差让梯度直达浅层", "层数越多梯度越大",
                                                                        "归一化让尺度稳定"]


def test_hidden_answers_leave_the_general_feedback_out(export, course):
    (course / "content" / "site.yaml").write_text("answers: hidden\n", encoding="utf-8")
    code, err, out = export("moodle", "--lesson", SLUG)
    assert code == 0, err
    data = (out / "quiz.moodle.xml").read_text(encoding="utf-8")
    assert SECRET not in data and "甲和丙" not in data and "decay.png" not in data   # nor the answer's figure
    root = ET.fromstring(data)
    assert len(root.findall("question")) == 1 + len(CHECKS) and not root.findall("question/generalfeedback/file")


def test_a_bank_without_questions_is_not_written(export):
    code, err, out = export("moodle", "--lesson", "reading")
    assert code == 1 and "lesson `reading` has no self-check" in err and not out.exists()


# ── mastery ──────────────────────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("value, expected", [
    ("120", "`mastery: 120` is not a percentage"),
    ("-5", "`mastery: -5` is not a percentage"),
    ("high", "`mastery` is text ('high')"),
])
def test_a_mastery_that_is_no_percentage_is_named_at_its_line(export, course, value, expected):
    path = course / "content" / SLUG / "lesson.yaml"
    text = path.read_text(encoding="utf-8").replace(f"mastery: {MASTERY}", f"mastery: {value}")
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f"mastery: {value}") + 1
    code, err, out = export("scorm")
    assert code == 1 and f"content/{SLUG}/lesson.yaml:{line}: {expected}" in err and not out.exists()


def test_a_check_named_in_other_letters_gets_an_identifier_scorm_accepts():
    """SCORM 1.2 identifiers are ASCII letters, digits, - and _: a check placed as {{< check 幂 >}} is named by its
    place among the page's checks instead."""
    assert scorm_id("check-pick", 0) == "check-pick" and scorm_id("check-1", 3) == "check-1"
    assert scorm_id("check-幂", 2) == "selfcheck-3"
