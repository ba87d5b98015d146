"""The course's self-checks as one Moodle question bank (`lessonkit export moodle`): Moodle XML, UTF-8, a
`<question type="category">` per lesson, then each of its self-checks as one question:

- one number to type → `numerical`: the page's answer (value × `scale`) with Moodle's absolute tolerance taken from
  the interval the page accepts (its half-width: features/selfcheck.py computed it from the author's relative,
  absolute or significant-figure tolerance), the unit as an optional unit, each known mistake as a wrong answer
  with its hint (the page's words for a value typed without converting, too);
- several numbers (a list answer, or several fields) → a Cloze (`multianswer`) question: one NUMERICAL gap per box,
  each graded on its own like the page's boxes, with the same answers, tolerances and mistakes; the unit is written
  after the gap (Cloze gaps take no units: the student types the number alone);
- choices → `multichoice`, single (the correct option 100 %) or multiple (each correct option 100/k %, each wrong one
  −100/k %, k correct options: choosing exactly the correct ones is full marks, as on the page); the option's
  feedback as its feedback, the page's words as the overall feedback.

Hints become `<hint>`s, the worked answer the general feedback (left out while answers are hidden), maths is TeX for
Moodle's filters, pictures are `<file>`s beside the text that shows them. Rules and words are the build's
(render/questions.py): this module only writes them in Moodle's format."""
from __future__ import annotations

import base64
import html
from decimal import Decimal
import xml.etree.ElementTree as ET
from typing import Any

from ..render.questions import PICTURE_URL, LessonPackage, Question

PENALTY = "0.3333333"   # Moodle's default penalty for each wrong try (interactive mode)
FRACTION_DIGITS = 5     # Moodle's grade list: 33.33333, 14.28571 …


def bank_name(slug: str | None) -> str:
    return f"{slug}.moodle.xml" if slug else "questions.moodle.xml"


def question_bank(packages: list[LessonPackage], course: str, figures: dict[str, dict[str, bytes]]) -> bytes:
    """The bank of the lessons' questions; `course`: the course's title (the categories' parent, "" for none);
    `figures`: slug → figure name → PNG."""
    quiz = ET.Element("quiz")
    for package in packages:
        if not package.questions:
            continue
        quiz.append(category(course, package))
        files = {p.name: p.data or figures[package.slug][p.figure] for p in package.pictures}
        for question in package.questions:
            quiz.append(moodle_question(question, files))
    ET.indent(quiz)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, encoding="unicode", short_empty_elements=False) + "\n").encode("utf-8")


def category(course: str, package: LessonPackage) -> ET.Element:
    """The lesson's category, under the course's (a `/` inside a name is written `//`)."""
    path = "/".join(name.replace("/", "//") for name in ("$course$", "top", course, package.title) if name)
    element = ET.Element("question", type="category")
    ET.SubElement(ET.SubElement(element, "category"), "text").text = path
    text(element, "info", html.escape(package.summary), {})
    return element


def moodle_question(question: Question, files: dict[str, bytes]) -> ET.Element:
    choices, boxes = question.data["choices"], question.data["fields"]
    kind = "multichoice" if choices else "numerical" if len(boxes) == 1 else "cloze"
    element = ET.Element("question", type=kind)
    ET.SubElement(ET.SubElement(element, "name"), "text").text = question.name
    body = question.text + (cloze_gaps(question) if kind == "cloze" else label_line(question) if boxes else "")
    text(element, "questiontext", body, files)
    text(element, "generalfeedback", question.answer, files)
    if kind != "cloze":  # (a Cloze question's mark is the sum of its gaps')
        ET.SubElement(element, "defaultgrade").text = "1"
    ET.SubElement(element, "penalty").text = PENALTY
    ET.SubElement(element, "hidden").text = "0"
    if kind == "numerical":
        numerical(element, question, files)
    elif kind == "multichoice":
        multichoice(element, question, files)
    for hint in question.check["hints"]:
        text(element, "hint", hint, files)
    return element


# ── one number, several numbers ─────────────────────────────────────────────────────────────────────────────────────
def answers_of(box: dict[str, Any]) -> list[tuple[int, float, float, str]]:
    """(fraction, value, absolute tolerance, feedback) of a box: the accepted interval, then each known mistake's,
    as the page carries them (intervals centred on their value)."""
    low, high = box["accept"]
    found = [(100, box["answer"], max(high - box["answer"], box["answer"] - low), "")]
    return found + [(0, (lo + hi) / 2, (hi - lo) / 2, hint) for lo, hi, hint in box["mistakes"]]


def numerical(element: ET.Element, question: Question, files: dict[str, bytes]) -> None:
    box, right = question.data["fields"][0], question.data["messages"]["right"]
    for fraction, value, tolerance, feedback in answers_of(box):
        answer = ET.SubElement(element, "answer", fraction=str(fraction), format="moodle_auto_format")
        ET.SubElement(answer, "text").text = number(value)
        text(answer, "feedback", html.escape(feedback or right), files)
        ET.SubElement(answer, "tolerance").text = number(tolerance)
    if box["unit"]:
        unit = ET.SubElement(ET.SubElement(element, "units"), "unit")
        ET.SubElement(unit, "multiplier").text = "1"
        ET.SubElement(unit, "unit_name").text = box["unit"]
    for name, value in (("unitgradingtype", "0"), ("unitpenalty", "0.1000000"),  # the unit optional …
                        ("showunits", "0" if box["unit"] else "3"), ("unitsleft", "0")):  # … typed after the number
        ET.SubElement(element, name).text = value


def label_line(question: Question) -> str:
    """What the box asks for, under the question (Moodle's numerical shows its own box below)."""
    return f"<p>{html.escape(question.check['fields'][0]['label'])}</p>"


def cloze_gaps(question: Question) -> str:
    """One line per box: its label, its NUMERICAL gap, its unit."""
    labels = [(item["label"], field["unit"]) for field in question.check["fields"] for item in field["inputs"]]
    right = question.data["messages"]["right"]
    lines = []
    for (label, unit), box in zip(labels, question.data["fields"]):
        options = [f"{'=' if fraction else ''}{number(value)}:{number(tolerance)}#{cloze_feedback(feedback or right)}"
                   for fraction, value, tolerance, feedback in answers_of(box)]
        gap = "{1:NUMERICAL:" + "~".join(options) + "}"
        lines.append(f"<p>{html.escape(label)} {gap}{' ' + html.escape(unit) if unit else ''}</p>")
    return "".join(lines)


def cloze_feedback(words: str) -> str:
    """Feedback inside a Cloze gap as Moodle reads it: it ends at `~` or an unescaped `}`, and Moodle decodes
    entities and `\\}` afterwards — so `}` is escaped, and `~` and the backslash are entities."""
    escaped = html.escape(words, quote=False).replace("\\", "&#92;")
    return escaped.replace("}", "\\}").replace("~", "&#126;")


def number(value: float) -> str:
    """A number as Moodle reads it: the shortest digits that are exactly this float (Python's repr), written
    without an exponent (4.05e-05 → 0.0000405)."""
    return format(Decimal(repr(float(value))), "f")


# ── choices ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def fractions(correct: list[int], count: int, multiple: bool) -> list[str]:
    """Each option's grade in percent: single, the correct option 100; multiple, each correct one 100/k and each
    wrong one −100/k, written as Moodle's grade list writes them (they sum to 100 once rounded, as Moodle checks)."""
    if not multiple:
        return ["100" if i in correct else "0" for i in range(count)]
    share = 100 / len(correct)
    return [f"{share if i in correct else -share:.{FRACTION_DIGITS}f}".rstrip("0").rstrip(".") for i in range(count)]


def multichoice(element: ET.Element, question: Question, files: dict[str, bytes]) -> None:
    choices, words = question.data["choices"], question.data["messages"]
    ET.SubElement(element, "single").text = "false" if choices["multiple"] else "true"
    ET.SubElement(element, "shuffleanswers").text = "false"  # the options keep their letters, as on the page
    ET.SubElement(element, "answernumbering").text = "ABCD"
    text(element, "correctfeedback", html.escape(words["choice_right"]), files)
    text(element, "partiallycorrectfeedback", html.escape(words["choice_missing"]), files)
    text(element, "incorrectfeedback", html.escape(words["choice_wrong"]), files)
    grades = fractions(choices["correct"], len(question.check["choices"]), choices["multiple"])
    for option, grade, feedback in zip(question.check["choices"], grades, choices["feedback"]):
        answer = ET.SubElement(element, "answer", fraction=grade, format="html")
        ET.SubElement(answer, "text").text = option["text"]
        text(answer, "feedback", html.escape(feedback), files)


# ── texts and their pictures ────────────────────────────────────────────────────────────────────────────────────────
def text(parent: ET.Element, tag: str, body: str, files: dict[str, bytes]) -> ET.Element:
    """`<tag format="html"><text>…</text></tag>`, with a `<file>` for each picture the text shows."""
    element = ET.SubElement(parent, tag, format="html")
    ET.SubElement(element, "text").text = body
    for name, data in files.items():
        if f'src="{PICTURE_URL}{name}"' in body:
            file = ET.SubElement(element, "file", name=name, path="/", encoding="base64")
            file.text = base64.b64encode(data).decode("ascii")
    return element
