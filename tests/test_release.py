"""The course as a teacher runs it (lessonkit/load/release.py and the build): answers kept out of the students'
site (`answers: hidden` or a day), the teacher's edition, drafts, lessons released by date, the build's day."""
from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest

from lessonkit.cli import main
from lessonkit.load.release import Edition, Release, release_of
from lesson_folders import TWO_VALUES_PY

DAY = dt.date(2027, 3, 1)

# a lesson whose worked answer, standalone check's answer, self-check key and notes are words found nowhere else
YAML = """\
title: 连乘
summary: 每层乘一个数
objectives:
  - 会算连乘
challenges:
  - title: 翻一倍
    question: 两倍的 {{ two_pow }} 是多少？
    answer: 答案是 {{ doubled }}，凤凰飞过山岗。
    check:
      fields:
        - label: 两倍
          answer: doubled
checks:
  - id: power
    question: 二的十次方是多少？
    answer: 麒麟踏雪而来，是 {{ two_pow }}。
    check:
      fields:
        - label: 十次方
          answer: two_pow
"""
MD = """\
## 第一节 {#first}

二的十次方是 {{ two_pow }}。

{{< check power >}}

::: notes
讲稿：白泽在此。
:::
"""
PY = TWO_VALUES_PY
SECRETS = ("凤凰飞过山岗", "麒麟踏雪而来")   # the worked answers' words


def site_text(out: Path) -> str:
    """Every file the build wrote, as text (pages, search index, notebooks)."""
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(out.rglob("*")) if p.is_file())


def tree(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture
def course(make_lesson, tmp_path):
    def make(lesson_extra: str = "", site: str = "") -> Path:
        make_lesson(yaml=YAML + lesson_extra, md=MD, py=PY)
        if site:
            (tmp_path / "content" / "site.yaml").write_text(site, encoding="utf-8")
        return tmp_path / "content"
    return make


# ── the decisions, by hand ───────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("meta, site, edition, expected", [
    ({}, "shown", Edition(), Release()),
    ({}, "hidden", Edition(), Release(answers=False)),
    ({"answers": "shown"}, "hidden", Edition(), Release()),                       # the lesson's own wins
    ({"answers": "2027-03-02"}, "shown", Edition(), Release(answers=False, answers_from=dt.date(2027, 3, 2))),
    ({"answers": "2027-03-01"}, "shown", Edition(), Release()),                   # shown from that very day
    ({}, "hidden", Edition(teacher=True), Release()),
    ({"release": "2027-03-02"}, "shown", Edition(), Release(built=False, coming=dt.date(2027, 3, 2))),
    ({"release": "2027-03-01"}, "shown", Edition(), Release()),
    ({"release": "2027-03-02"}, "shown", Edition(teacher=True), Release()),     # the teacher sees it ahead
    ({"draft": True}, "shown", Edition(), Release(built=False, draft=True)),
    ({"draft": True}, "shown", Edition(teacher=True), Release(built=False, draft=True)),  # drafts excepted
    ({"draft": True}, "hidden", Edition(drafts=True), Release(draft=True, answers=False)),
])
def test_each_lessons_release(meta, site, edition, expected):
    asked = []

    def today():
        asked.append(DAY)
        return DAY
    assert release_of(meta, site, edition, today) == expected
    dated = "release" in meta or "answers" in meta and meta["answers"] not in ("shown", "hidden")
    assert bool(asked) == (dated and not edition.teacher and not meta.get("draft"))   # the day only where it decides


# ── answers ──────────────────────────────────────────────────────────────────────────────────────────────────────
def test_hidden_answers_are_in_no_file_of_the_students_site(course, run_build):
    course(site="answers: hidden\n")
    code, _, err, out = run_build()
    assert code == 0, err
    text = site_text(out)
    for secret in SECRETS:
        assert secret not in text
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert 'class="sc-key' not in page and "答案：" not in page          # no printed key either …
    assert '"accept"' in page                                             # the checks still grade
    assert "二的十次方是多少？" in page and "两倍的 1024 是多少？" in page  # … but the questions and the checks


def test_the_teacher_edition_has_every_answer_key_and_note_and_is_marked(course, tmp_path):
    content = course(site="answers: hidden\n")
    assert main(["build", "--teacher", "-C", str(tmp_path), "--quiet"]) == 0
    out = tmp_path / "output-teacher"                      # its own folder, never output/
    assert not (tmp_path / "output").exists()
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    for secret in SECRETS:
        assert secret in page
    assert '<details class="answer" open>' in page
    assert '<p class="sc-key">' in page                      # the key on screen, not only on paper
    assert "白泽在此" in page and 'class="speaker-notes speaker-notes-shown"' in page
    for name in ("index.html", "demo/index.html"):
        assert '<p class="edition-mark teacher-mark">教师版</p>' in (out / name).read_text(encoding="utf-8")
    assert content.is_dir()


def test_answers_shown_from_a_day_are_hidden_before_it_and_shown_on_it(course, run_build, tmp_path):
    course(lesson_extra="answers: 2027-03-01\n")
    code, _, err, before = run_build("--date", "2027-02-28", out=tmp_path / "before")
    assert code == 0, err
    page = (before / "demo" / "index.html").read_text(encoding="utf-8")
    assert not any(secret in site_text(before) for secret in SECRETS)
    assert "答案将于 2027-03-01 公布" in page
    code, _, err, on = run_build("--date", "2027-03-01", out=tmp_path / "on")
    assert code == 0, err
    assert all(secret in (on / "demo" / "index.html").read_text(encoding="utf-8") for secret in SECRETS)


# ── releases and drafts ──────────────────────────────────────────────────────────────────────────────────────────
def later_and_draft(make_lesson) -> None:
    make_lesson("later", yaml="title: 下周的课\nsummary: 还没到\norder: 2\nrelease: 2027-03-08\nobjectives:\n  - 等\n")
    make_lesson("wip", yaml="title: 玄武未完稿\nsummary: 还在写\norder: 3\ndraft: true\nobjectives:\n  - 写完\n")


def test_a_lesson_released_later_is_announced_and_built_on_its_day(course, make_lesson, run_build, tmp_path):
    course()
    later_and_draft(make_lesson)
    code, _, err, out = run_build("--date", "2027-03-07", out=tmp_path / "before")
    assert code == 0, err
    assert not (out / "later").exists() and "later/" not in site_text(out)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "下周的课" in index and "2027-03-08 发布" in index        # announced: title and day, no link
    code, _, err, out = run_build("--date", "2027-03-08", out=tmp_path / "on")
    assert code == 0, err
    assert (out / "later" / "index.html").is_file()
    assert 'href="later/index.html"' in (out / "index.html").read_text(encoding="utf-8")


def test_a_draft_is_in_no_file_unless_drafts_are_asked_for(course, make_lesson, run_build, tmp_path):
    course()
    later_and_draft(make_lesson)
    code, _, err, out = run_build("--date", "2027-03-08")
    assert code == 0, err
    assert "玄武未完稿" not in site_text(out) and not (out / "wip").exists()
    code, _, err, out = run_build("--date", "2027-03-08", "--drafts", out=tmp_path / "drafts")
    assert code == 0, err
    assert '<p class="edition-mark draft-mark">草稿</p>' in (out / "wip" / "index.html").read_text(encoding="utf-8")
    assert 'draft-mark">草稿</span>' in (out / "index.html").read_text(encoding="utf-8")


def test_a_link_to_an_unpublished_lesson_is_a_warning_and_reads_coming_soon(make_lesson, run_build):
    later_and_draft(make_lesson)
    lesson_md = make_lesson("demo", yaml=YAML, md=MD + "\n见 @lesson:later 和 @lesson:wip#x。\n", py=PY) / "lesson.md"
    code, _, err, out = run_build("--date", "2027-03-01")
    assert code == 0, err
    line = len(lesson_md.read_text(encoding="utf-8").splitlines())
    assert f"content/demo/lesson.md:{line}: link to `@lesson:later`, which this site does not publish yet" in err
    assert f"content/demo/lesson.md:{line}: link to `@lesson:wip`" in err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert page.count('<span class="lesson-ref lesson-coming">即将发布</span>') == 2 and "下周的课" not in page
    code, _, err, _ = run_build("--date", "2027-03-01", "--strict", out=out.parent / "strict")
    assert code == 1 and "link to `@lesson:later`" in err


# ── the build's day ──────────────────────────────────────────────────────────────────────────────────────────────
def test_two_builds_for_one_day_are_byte_identical(course, make_lesson, run_build, tmp_path, monkeypatch):
    course(site="answers: 2027-03-05\n")
    later_and_draft(make_lesson)
    assert run_build("--date", "2027-03-04", "--no-cache", out=tmp_path / "a")[0] == 0
    # SOURCE_DATE_EPOCH names the day as --date does: 2027-03-04 08:00 in Shanghai is 00:00 UTC
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(dt.datetime(2027, 3, 4, tzinfo=dt.timezone.utc).timestamp())))
    assert run_build("--no-cache", out=tmp_path / "b")[0] == 0
    assert tree(tmp_path / "a") == tree(tmp_path / "b")


def test_the_day_is_the_site_time_zones(course, run_build, tmp_path, monkeypatch):
    """23:30 UTC on 28 February is already 1 March in Shanghai (UTC+8), still 28 February in New York."""
    moment = int(dt.datetime(2027, 2, 28, 23, 30, tzinfo=dt.timezone.utc).timestamp())
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(moment))
    course(lesson_extra="answers: 2027-03-01\n")
    code, _, err, out = run_build(out=tmp_path / "shanghai")
    assert code == 0 and SECRETS[0] in (out / "demo" / "index.html").read_text(encoding="utf-8")
    (tmp_path / "content" / "site.yaml").write_text("timezone: America/New_York\n", encoding="utf-8")
    code, _, err, out = run_build(out=tmp_path / "new-york")
    assert code == 0 and SECRETS[0] not in (out / "demo" / "index.html").read_text(encoding="utf-8")


# ── bad input ────────────────────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("extra, expected", [
    ("answers: maybe\n", "content/demo/lesson.yaml:{line}: `answers: maybe` is not a way to show answers"),
    ("release: 2027-02-30\n", "content/demo/lesson.yaml:{line}: `release: 2027-02-30` is not a real date"),
    ("draft: perhaps\n", "content/demo/lesson.yaml:{line}: `draft` is text ('perhaps')"),
])
def test_a_release_that_means_nothing_is_named_at_its_line(course, run_build, extra, expected):
    course(lesson_extra=extra)
    code, _, err, out = run_build()
    line = len(YAML.splitlines()) + 1
    assert code == 1 and expected.format(line=line) in err and not out.exists()


def test_site_answers_and_time_zone_are_checked(course, run_build):
    course(site="title: 课\nanswers: 2027-13-01\ntimezone: Mars/Olympus\n")
    code, _, err, _ = run_build()
    assert code == 1
    assert "content/site.yaml:2: `answers: 2027-13-01` is not a way to show answers" in err
    assert "content/site.yaml:3: unknown time zone `Mars/Olympus`" in err


def test_a_date_that_is_no_date_is_a_usage_error(course, run_build):
    course()
    code, _, err, out = run_build("--date", "2027-02-30")
    assert code == 2 and "--date 2027-02-30 is not a real date" in err and not out.exists()
