"""render/containers.py: lesson.md's `:::` containers on the page — toggles and tabs with the ids the numbering pass
gave them (render/numbering.py), a container with a mistake said at its line, callouts, speaker notes — and the
SCORM names of self-checks. The containers are the parts markup hands on (kind, title, body HTML, parts, line,
file, copy), written here by hand; rendered with the built-in theme's templates and components, in English."""
import json
import re
from pathlib import Path

import pytest

from lessonkit.features.components import Components
from lessonkit.load.release import Edition
from lessonkit.render.containers import Containers, scorm_id
from lessonkit.render.numbering import PageNumbers
from lessonkit.render.questions import LessonPackage, Question
from lessonkit.render.templates import make_env
from lessonkit.support.i18n import load_ui
from lessonkit.support.paths import BUILTIN_THEMES

DIRS = [BUILTIN_THEMES / "default"]
UI = load_ui(DIRS, "en")
ENV = make_env(DIRS)
BODY = Path("content/demo/lesson.md")


def part(kind: str, arg: str, line: int, body: str = "", parts=(), copy: str = "") -> dict:
    return {"kind": kind, "title": arg, "body": body, "parts": list(parts), "line": line, "arg": arg, "path": BODY,
            "copy": copy}


def state(title: str, line: int) -> dict:
    return part("state", title, line, f"<p>{title} body</p>")


def tab(label: str, line: int) -> dict:
    return part("tab", label, line, f"<p>{label} code</p>")


def containers(folder: Path = Path("content/demo"), teacher: bool = False, **ids: int) -> Containers:
    """Containers of a page whose numbering pass gave the toggle or tab set at line L the number ids[f"kindL"]."""
    numbers = {(key.rstrip("0123456789"), BODY, int(key.lstrip("abcdefghijklmnopqrstuvwxyz"))): k
               for key, k in ids.items()}
    return Containers(ENV, UI, Components(DIRS), folder, BODY, [], Edition(teacher=teacher), PageNumbers({}, numbers))


def said(c: Containers) -> list[tuple[int, str]]:
    return [(p.line, str(p.message)) for p in c.problems]


def data_of(html: str, root: str):
    return json.loads(re.search(rf'<script type="application/json" id="{root}-data">(.*?)</script>', html, re.S)[1])


@pytest.mark.parametrize("cid, k, name", [
    ("power", 0, "power"), ("check-2", 5, "check-2"), ("a_b", 1, "a_b"),
    ("剩多少", 2, "selfcheck-3"),          # not ASCII: its place among the page's checks, counted from 1
    ("two words", 0, "selfcheck-1"),
    ("x" * 200, 0, "x" * 200), ("x" * 201, 3, "selfcheck-4"),   # SCORM 1.2 identifiers: at most 200 characters
])
def test_scorm_id(cid, k, name):
    assert scorm_id(cid, k) == name


def test_toggles_take_the_ids_the_numbering_gave_them():
    c = containers(toggle3=1, toggle12=2)
    first = c.container(part("toggle", "View", 3, parts=[state("Before", 4), state("After", 7)]))
    second = c.container(part("toggle", "", 12, parts=[state("A", 13), state("B", 15), state("C", 17)]))
    assert c.problems == []
    assert first.startswith('<div class="widget widget-toggle" id="toggle-1" data-widget="toggle">')
    assert second.startswith('<div class="widget widget-toggle" id="toggle-2" data-widget="toggle">')
    assert data_of(first, "toggle-1") == {"states": ["Before", "After"]}
    assert data_of(second, "toggle-2") == {"states": ["A", "B", "C"]}
    assert re.findall(r'id="(toggle-1-state-\d)"', first) == ["toggle-1-state-0", "toggle-1-state-1"]
    assert "<p>After body</p>" in first                  # every state is in the page (without JS, all show)
    assert f'aria-label="{UI.toggle_label}"' in second   # no title: the theme's word


def test_a_toggle_with_one_state_is_a_problem_at_its_line():
    c = containers(toggle9=1)
    assert c.container(part("toggle", "View", 9, parts=[state("Only", 10)])) == ""
    assert said(c) == [(9, "a toggle needs at least two `::: state` blocks, found 1")]


def test_the_printed_copy_of_a_toggle_has_ids_of_its_own():
    c = containers(toggle4=3)
    printed = c.container(part("toggle", "View", 4, parts=[state("A", 5), state("B", 7)], copy="print"))
    assert 'id="toggle-3-print"' in printed and 'id="toggle-3-print-state-1"' in printed


def test_tab_sets_take_their_ids_and_carry_their_group():
    c = containers(tabs2=1, tabs10=2)
    first = c.container(part("tabs", "framework", 2, parts=[tab("PyTorch", 3), tab(" JAX  ", 6)]))
    second = c.container(part("tabs", "framework", 10, parts=[tab("PyTorch", 11)]))
    assert c.problems == []
    assert 'id="tabs-1" data-widget="tabs"' in first and 'id="tabs-2" data-widget="tabs"' in second
    assert data_of(first, "tabs-1") == {"group": "framework", "storage": "lessonkit-tabs:framework"}
    assert re.findall(r'data-key="([^"]*)"', first) == ["PyTorch", "JAX"]   # a label's spaces trimmed: its key
    assert "<p> JAX   code</p>" in first


@pytest.mark.parametrize("group, tabs, problems", [
    ("", [tab("A", 3)], [(2, "`::: tabs` without a group name")]),
    ("two words", [tab("A", 3)], [(2, "cannot read the tab group `two words`")]),
    ("g", [], [(2, "`::: tabs` without a `::: tab` block")]),
    ("g", [tab("A", 3), tab("", 5)], [(5, "`::: tab` without a label")]),
    ("g", [tab("A", 3), tab("B", 5), tab(" A ", 7)], [(7, "two tabs labelled `A` in one set (first at line 3)")]),
])
def test_a_tab_set_with_a_mistake_is_reported(group, tabs, problems):
    c = containers(tabs2=1)
    assert c.container(part("tabs", group, 2, parts=tabs)) == ""
    assert said(c) == problems


def test_a_callout_and_cards_use_their_partials():
    c = containers()
    note = c.container(part("note", "<em>Mind</em>", 1, "<p>text</p>"))
    assert note.startswith('<aside class="callout callout-note">')
    assert '<p class="callout-title"><em>Mind</em></p>' in note                # the title is HTML already
    assert '<div class="callout-body"><p>text</p></div>' in note


def test_speaker_notes_are_hidden_for_students_and_labelled_for_the_teacher():
    block = part("notes", "", 5, "<p>say this</p>")
    assert containers().container(block) == \
        '<aside class="speaker-notes" data-widget="notes" hidden>\n<p>say this</p>\n</aside>'
    shown = containers(teacher=True).container(block)
    assert " hidden>" not in shown and f'aria-label="{UI.presenter_notes}"' in shown and "<p>say this</p>" in shown


def test_the_scorm_component_names_each_check_for_the_platform():
    questions = tuple(Question(cid, cid, "", {}, {}) for cid in ("check-1", "check-剩多少", "check-power"))
    package = LessonPackage("demo", "Demo", "", (), "en", 80.0, questions, ())
    html = containers().scorm(package)
    assert html.startswith('<div class="widget widget-scorm" id="lms-scorm" data-widget="scorm">')
    assert data_of(html, "lms-scorm") == {"checks": [["check-1", "check-1"], ["check-剩多少", "selfcheck-2"],
                                                     ["check-power", "check-power"]], "mastery": 80.0}
    assert UI.scorm_connected in html


def test_a_lesson_s_own_toggle_component_wins_and_its_mistake_is_the_author_s(tmp_path):
    own = tmp_path / "demo" / "widgets" / "toggle"
    own.mkdir(parents=True)
    (own / "widget.html").write_text("<p>{{ widget.data.states | length }} states</p>\n{% if %}\n", encoding="utf-8")
    c = containers(tmp_path / "demo", toggle1=1)
    assert c.container(part("toggle", "", 1, parts=[state("A", 2), state("B", 3)])) == ""
    assert [(p.path, p.line) for p in c.problems] == [(own / "widget.html", 2)]
    (own / "widget.html").write_text("<p>{{ widget.data.states | length }} states</p>\n", encoding="utf-8")
    c = containers(tmp_path / "demo", toggle1=1)
    html = c.container(part("toggle", "", 1, parts=[state("A", 2), state("B", 3)]))
    assert c.problems == [] and "<p>2 states</p>" in html and 'id="toggle-1"' in html
