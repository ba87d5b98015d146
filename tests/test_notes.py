"""Speaker notes (`::: notes`): in the built page only as one hidden element the presenter view reads; never in the
text search indexes or the glossary's first-use marks; and a figure, widget or self-check inside notes is an error
at its line. (The browser checks — not shown, not printed, not found by the page's search — are in
tests/browser/test_notes_in_browser.py.)"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from lessonkit.features import search
from lessonkit.load.document import parse_lesson_body
from lessonkit.load.syntax.nodes import Container, Paragraph, Text
from lessonkit.support.errors import Problem
from lessonkit.support.paths import SitePaths

SECRET = "讲稿里的悄悄话"     # a phrase only the notes hold

MD = f"""\
## 第一节 {{#first}}

二的十次方是 {{{{ two_pow }}}}。学生看得见这一句。

::: notes
{SECRET}：先问学生 $2^{{10}}$ 是多少，答案是 **{{{{ two_pow }}}}**。

- 再问 $2^{{20}}$
:::

::: tip 小提示
提示里的字学生看得见。

::: notes
提示里的{SECRET}。
:::
:::
"""


class Notes(HTMLParser):
    """The elements with class speaker-notes: their attributes and their text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[dict] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.depth:
            self.depth += tag == "aside"
        elif "speaker-notes" in (a.get("class") or "").split():
            self.found.append({"tag": tag, "attrs": a, "text": ""})
            self.depth = 1

    def handle_endtag(self, tag):
        if self.depth and tag == "aside":
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.found[-1]["text"] += data


def build_page(make_lesson, run_build, md=MD, extra=None):
    make_lesson(md=md)
    if extra:
        extra()
    code, out, err, site = run_build()
    return code, err, site


def test_notes_render_as_one_hidden_element_each(make_lesson, run_build):
    code, err, site = build_page(make_lesson, run_build)
    assert code == 0, err
    page = (site / "demo" / "index.html").read_text(encoding="utf-8")
    reader = Notes()
    reader.feed(page)
    assert len(reader.found) == 2
    for notes in reader.found:
        assert notes["tag"] == "aside" and "hidden" in notes["attrs"]
        assert notes["attrs"].get("data-widget") == "notes"   # the component whose CSS keeps it hidden
        assert SECRET in notes["text"]
    assert "1024" in reader.found[0]["text"], "values are formatted in notes like anywhere"
    assert "<math" in page.split(SECRET)[1].split("</aside>")[0], "math in notes is MathML"
    assert page.count(SECRET) == 2, "the notes' text is nowhere else on the page"


def test_notes_stay_out_of_the_search_indexes(make_lesson, run_build):
    code, err, site = build_page(make_lesson, run_build)
    assert code == 0, err
    index = (site / "index.html").read_text(encoding="utf-8")
    course = (site / SitePaths.SEARCH_INDEX).read_text(encoding="utf-8")   # the course's index, loaded when searched
    data = json.loads(course[course.index("{"):course.rindex("}") + 1])
    texts = " ".join(str(s[3] or "") for s in data["sections"])
    assert "学生看得见这一句" in texts, "the section's own text is indexed"
    assert SECRET not in texts and SECRET not in index and SECRET not in course
    lesson_page = (site / "demo" / "index.html").read_text(encoding="utf-8")
    section = re.search(r'<section id="first".*?</section>', lesson_page, re.S).group(0)
    assert SECRET not in search.plain_text(section), "the page's text as search reads it"


def test_glossary_marks_skip_notes(make_lesson, run_build, tmp_path):
    """A term first met inside notes is marked where the student first sees it, not in the notes."""
    (tmp_path / "content").mkdir(parents=True, exist_ok=True)
    (tmp_path / "content" / "glossary.yaml").write_text(
        "terms:\n  - id: power\n    zh: 次方\n    en: power\n    definition: 同一个数连乘。\n", encoding="utf-8")
    md = "## 第一节 {#first}\n\n::: notes\n讲稿先说次方。\n:::\n\n正文里的次方。\n"
    code, err, site = build_page(make_lesson, run_build, md=md)
    assert code == 0, err
    page = (site / "demo" / "index.html").read_text(encoding="utf-8")
    notes = re.search(r'<aside class="speaker-notes".*?</aside>', page, re.S).group(0)
    body = page.split("</aside>", 1)[1]
    assert "data-term" not in notes and "term-power" not in notes
    assert re.search(r'<[^>]*(term-power|data-term="power")[^>]*>次方', body), "the visible use is the first"


def test_a_figure_widget_or_check_inside_notes_is_an_error_at_its_line(make_lesson, run_build):
    md = ("## 第一节 {#first}\n\n正文。\n\n::: notes\n讲稿。\n\n{{< figure curve >}}\n\n"
          "::: note 里面\n{{< widget knob >}}\n:::\n:::\n\n{{< table rows >}}\n")
    make_lesson(md=md)
    code, out, err, _ = run_build()
    assert code == 1
    assert "lesson.md:8: `{{< figure curve >}}` inside `::: notes`: notes are hidden from students" in err
    assert "lesson.md:11: `{{< widget knob >}}` inside `::: notes`" in err


def test_notes_is_a_container_kind():
    problems: list[Problem] = []
    [section] = parse_lesson_body("## 一 {#one}\n\n::: notes\n只给老师看。\n:::\n", "lesson.md", problems)
    assert problems == []
    [block] = [b for b in section.blocks if type(b) is Container]
    assert (block.kind, block.children) == ("notes", (Paragraph(4, (Text(4, "只给老师看。"),)),))
