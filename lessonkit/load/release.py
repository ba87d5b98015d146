"""What a build publishes, decided once from lesson.yaml, site.yaml and the edition: which lessons (`draft: true`
keeps one out, `release: YYYY-MM-DD` keeps it out before that day) and whose worked answers (`answers: shown`,
`hidden`, or a day from which they are shown), for the students' site or the teacher's edition, on the build's day.

The build's day is an input like any other (`--date`, else SOURCE_DATE_EPOCH, else today in site.yaml's `timezone:`):
two builds for one day are byte-identical, and the decisions below are part of every page's key (incremental.py). It
is looked up only when a day in lesson.yaml or site.yaml asks for it: a course without one never reads the time zone
database.
"""
from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any, Callable

from ..support.errors import Problem, UsageError
from ..support.messages import msg
from ..support.records import Record

SHOWN, HIDDEN = "shown", "hidden"
DEFAULT_TIMEZONE = "Asia/Shanghai"
DAY_FORMAT = msg("a date written YYYY-MM-DD, e.g. 2027-03-01")
ANSWERS_EXPECTED = msg("`shown`, `hidden`, or the day they are shown from, YYYY-MM-DD (e.g. 2027-03-01)")


class Edition(Record):
    """Whose site a build makes (its day: release_of's `today`)."""
    teacher: bool = False      # every lesson, released or not; answers, keys and speaker notes shown
    drafts: bool = False       # drafts built too, marked (`serve`, `build --drafts`)
    lms: bool = False          # pages for a learning platform's package (`export`): each page stands alone (no
                               # links to other pages) and reports its self-checks to the platform (SCORM)


class Release(Record):
    """One lesson in one build."""
    built: bool = True                 # its page is part of the site
    draft: bool = False                # built as a draft, and marked so
    coming: dt.date | None = None      # not built yet: the day it is released (the index lists it as coming)
    answers: bool = True               # worked answers, answer figures and printed keys are in its page
    answers_from: dt.date | None = None  # hidden until that day (the page says when they come)


def parse_day(value: Any) -> dt.date | None:
    """`2027-03-01` (as YAML text) → the date; None for anything that is no real date (2027-02-30)."""
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value.strip()) if len(value.strip()) == 10 else None
    except ValueError:
        return None


def answers_problem(value: Any, path: Path, line: int | None, key: str = "answers") -> Problem | None:
    """`answers:` that is neither shown, hidden nor a real day."""
    if value is None or value in (SHOWN, HIDDEN) or parse_day(value) is not None:
        return None
    return Problem(path, line, msg("`{key}: {value}` is not a way to show answers", key=key, value=value),
                   ANSWERS_EXPECTED)


def check_lesson(meta: dict[str, Any], lines: dict[str, int], path: Path) -> list[Problem]:
    """lesson.yaml's `draft`, `release` and `answers` (their types are the schema's)."""
    problems = []
    if "release" in meta and meta["release"] is not None and parse_day(meta["release"]) is None:
        problems.append(Problem(path, lines.get("release"),
                                msg("`release: {value}` is not a real date", value=meta["release"]), DAY_FORMAT))
    found = answers_problem(meta.get("answers"), path, lines.get("answers"))
    return problems + ([found] if found else [])


def release_of(meta: dict[str, Any], site_answers: str, edition: Edition, today: Callable[[], dt.date]) -> Release:
    """The lesson in this build: `site_answers` is site.yaml's `answers:` (a lesson's own overrides it); `today()`
    the build's day, asked for only when a day decides."""
    draft = meta.get("draft") is True
    if draft and not edition.drafts:
        return Release(built=False, draft=True)
    day = parse_day(meta.get("release"))
    if day is not None and not edition.teacher and day > today():
        return Release(built=False, coming=day)
    policy = meta.get("answers") if meta.get("answers") is not None else site_answers
    shown_from = parse_day(policy)
    if edition.teacher or policy == SHOWN or (shown_from is not None and shown_from <= today()):
        return Release(draft=draft)
    return Release(draft=draft, answers=False, answers_from=shown_from)


def timezone_problem(name: Any, path: Path, line: int | None) -> Problem | None:
    if name is None:
        return None
    try:
        zone(name)
    except (ValueError, KeyError, OSError):
        return Problem(path, line, msg("unknown time zone `{name}`", name=name),
                       msg("an IANA time zone name, e.g. Asia/Shanghai or Europe/Berlin"))
    return None


def zone(name: str):
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except ZoneInfoNotFoundError as exc:
        raise KeyError(name) from exc


def day_option(text: str) -> dt.date:
    """`--date YYYY-MM-DD`, for argparse."""
    day = parse_day(text)
    if day is None:
        raise UsageError(msg("--date {value} is not a real date (expected YYYY-MM-DD, e.g. 2027-03-01)", value=text))
    return day


def build_day(timezone: str) -> dt.date:
    """The build's day when no --date names it: SOURCE_DATE_EPOCH (seconds since 1970, the reproducible-builds
    convention), else today; a day in `timezone`."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            moment = dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise UsageError(msg("SOURCE_DATE_EPOCH={value} is not a number of seconds", value=epoch)) from None
        return moment.astimezone(zone(timezone)).date()
    return dt.datetime.now(zone(timezone)).date()


class Publication(Record):
    """Every lesson's release in one build: what pages, links, the index and the cache keys read."""
    edition: Edition
    releases: dict[str, Release]
    announced: tuple[tuple[str, str, dt.date], ...] = ()  # (slug, title, day): the lessons released later

    def of(self, slug: str) -> Release:
        return self.releases.get(slug, Release())

    def left_out(self) -> set[str]:
        """Lessons of the course this build does not publish (drafts, lessons released later)."""
        return {slug for slug, r in self.releases.items() if not r.built}

    def key(self) -> str:
        """What every page's key holds of it: the decisions, not the day (a day that changes none keeps pages)."""
        return repr((self.edition.teacher, self.edition.drafts, self.edition.lms, sorted(self.releases.items())))
