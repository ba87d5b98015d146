"""load/schema.py: lesson.yaml (and site.yaml) checked against the schema declared as data; every problem at once, at
the line of the key (or of the mapping that lacks it). The data and the line table are written here by hand, as
load/lessons.py's read_yaml would hand them on."""
from pathlib import Path

import pytest

from lessonkit.load.schema import LESSON, SITE, Key, check_lesson_meta, check_mapping, describe, is_a

PATH = Path("content/demo/lesson.yaml")
GOOD = {"title": "小课", "summary": "一行", "objectives": ["看懂一个数"]}
LINES = {"title": 1, "summary": 2, "objectives": 3, "objectives.0": 4}


def found(meta, lines=LINES) -> list[tuple[int | None, str]]:
    return [(p.line, str(p.message)) for p in check_lesson_meta(meta, lines, PATH)]


def test_a_complete_lesson_has_no_problems_and_an_unread_one_none_more():
    assert found(GOOD) == []
    assert found({}) == []   # empty or unreadable: the reader said so already


def test_an_unknown_key_says_the_closest_known_one_at_its_line():
    problems = check_lesson_meta({**GOOD, "sumary": "x"}, {**LINES, "sumary": 7}, PATH)
    assert [(p.line, str(p.message)) for p in problems] == [(7, "unknown key `sumary`; did you mean `summary`?")]
    assert str(problems[0].expected).startswith("one of: title, summary, order, objectives")


def test_every_missing_required_key_is_reported_together_at_the_top():
    assert found({"order": 2}, {"order": 1}) == [(None, "missing required key `title`"),
                                                 (None, "missing required key `summary`"),
                                                 (None, "missing required key `objectives`")]


def test_a_key_left_empty_counts_as_missing():
    assert found({**GOOD, "summary": None}) == [(None, "missing required key `summary`")]


@pytest.mark.parametrize("key, value, said", [
    ("order", "3", "`order` is text ('3')"),
    ("order", 2.5, "`order` is a number ('2.5')"),
    ("mastery", True, "`mastery` is true/false (True)"),        # YAML's true is a Python int: never a number here
    ("draft", "yes", "`draft` is text ('yes')"),
    ("objectives", "看懂", "`objectives` is text ('看懂')"),
    ("challenges", {"title": "x"}, "`challenges` is a mapping"),
    ("title", ["a"], "`title` is a list"),
])
def test_a_value_of_the_wrong_kind_says_what_was_written(key, value, said):
    assert found({**GOOD, key: value}, {**LINES, key: 9}) == [(9, said)]


def test_text_of_spaces_is_empty():
    assert found({**GOOD, "summary": "  "}) == [(2, "`summary` is empty")]


def test_list_items_are_checked_at_their_own_line():
    meta = {**GOOD, "objectives": ["一", 2, "三"]}
    lines = {**LINES, "objectives.0": 4, "objectives.1": 5, "objectives.2": 6}
    assert found(meta, lines) == [(5, "`objectives` item 2 is a whole number ('2')")]


def test_an_item_with_a_colon_read_as_a_mapping_says_so():
    meta = {**GOOD, "sources": [{"Note": "here"}]}
    problems = check_lesson_meta(meta, {**LINES, "sources": 8, "sources.0": 9}, PATH)
    assert [(p.line, str(p.message)) for p in problems] == [
        (9, "`sources` item 1 is read as `key: value`: its text has a `: ` in it")]
    assert "- \"Note: here\"" in str(problems[0].expected)


def test_an_empty_required_list():
    assert found({**GOOD, "objectives": []}) == [(3, "`objectives` is an empty list")]


def test_nested_keys_are_named_by_their_path_and_found_at_their_line():
    challenge = {"title": "为什么", "question": "问", "answer": "答",
                 "check": {"fields": [{"label": "μ", "answer": "mu", "scale": "100", "tolerence": {"sig": 2}}]}}
    lines = {**LINES, "challenges": 5, "challenges.0": 6, "challenges.0.check": 9, "challenges.0.check.fields.0": 10,
             "challenges.0.check.fields.0.scale": 12, "challenges.0.check.fields.0.tolerence": 13}
    assert found({**GOOD, "challenges": [challenge]}, lines) == [
        (13, "unknown key `challenges.0.check.fields.0.tolerence`; did you mean `tolerance`?"),
        (12, "`challenges.0.check.fields.0.scale` is text ('100')")]


def test_a_missing_nested_key_is_reported_at_the_line_of_its_mapping():
    lines = {**LINES, "challenges": 5, "challenges.0": 6, "challenges.0.title": 6}
    assert found({**GOOD, "challenges": [{"title": "t", "question": "q"}]}, lines) == [
        (6, "missing required key `challenges.0.answer`")]


def test_a_list_item_that_should_be_a_mapping():
    lines = {**LINES, "challenges": 5, "challenges.0": 6}
    assert found({**GOOD, "challenges": ["一道题"]}, lines) == [(6, "`challenges` item 1 is text ('一道题')")]


def test_check_mapping_with_a_schema_of_its_own():
    schema = {"n": Key(int, True, "a whole number"), "names": Key(list, False, "names", items=str)}
    problems = check_mapping({"n": 1, "names": ["a", None]}, schema, {"n": 1, "names": 2, "names.1": 4}, PATH)
    assert [(p.line, str(p.message), p.expected) for p in problems] == [
        (4, "`names` item 2 is None (nothing)", "names")]


def test_site_yaml_has_its_own_schema():
    problems = check_mapping({"title": "课", "them": "mine"}, SITE, {"title": 1, "them": 2}, Path("content/site.yaml"))
    assert [(p.line, str(p.message)) for p in problems] == [(2, "unknown key `them`; did you mean `theme`?")]
    assert set(LESSON) & set(SITE) == {"title", "budget", "answers"}


def test_is_a_keeps_true_and_false_out_of_the_numbers():
    assert is_a(3, (int, float)) and is_a(2.5, (int, float))
    assert not is_a(True, (int, float)) and not is_a(False, int)
    assert is_a(True, bool) and is_a(False, (str, bool))


def test_describe_shortens_long_text_to_forty_characters():
    assert str(describe("x" * 50)) == f"text ('{'x' * 40}')"
    assert str(describe(None)) == "None (nothing)"
    assert str(describe((1, 2))) == "a list"
    assert str(describe(1j)) == "complex ('1j')"
