"""The SCORM 1.2 package in Chromium, under a real SCORM runtime: scorm-again's Scorm12API (npm, devDependencies) as
`window.API` in a parent page, the package's page (unzipped from `lessonkit export scorm`) in its iframe, both served
over http://127.0.0.1. What the student does in the page reaches the runtime as interactions, score and status (read
back from the runtime's cmi object), with every value the runtime accepts; outside a platform nothing changes and
nothing is logged. Expected scores are worked out by hand: each check counts with its first complete answer, the
score is the percentage of the page's checks counted right, passed from tests/lms_lesson.py's MASTERY on."""
from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
import zipfile
from pathlib import Path

import pytest

from conftest import axe_violations, require
from lessonkit.support.chromium import STARTED
from lessonkit.cli import main
from lesson_folders import PROJECT

import lms_lesson
from lms_lesson import CHECKS, MASTERY, MU, XHAT

RUNTIME = PROJECT / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
TIMEOUT = 10_000   # ms, for every wait
# the parent page: the runtime, every call the page makes recorded with its result and the runtime's last error
PARENT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">
<script src="scorm12.js"></script>
<script>
window.API = new Scorm12API({logLevel: 3, autocommit: false});
%(setup)s
window.calls = [];
['LMSInitialize', 'LMSSetValue', 'LMSGetValue', 'LMSCommit', 'LMSFinish'].forEach(function (name) {
  var real = window.API[name].bind(window.API);
  window.API[name] = function () {
    var result = real.apply(null, arguments);
    window.calls.push([name, Array.prototype.slice.call(arguments), String(result), String(window.API.LMSGetLastError())]);
    return result;
  };
});
</script></head>
<body><iframe id="sco" title="lesson" src="%(package)s/index.html" width="1200" height="800"></iframe></body></html>
"""
PLAIN = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>not a platform</title><link rel="icon" href="data:,"></head>
<body><iframe title="lesson" src="quiz/index.html" width="1200" height="800"></iframe></body></html>
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Path:
    """The course exported as SCORM packages, unzipped beside the runtime and the parent pages."""
    require(None if RUNTIME.exists() else f"scorm-again is not installed ({RUNTIME} missing): run `npm install`")
    root = tmp_path_factory.mktemp("scorm")
    content = lms_lesson.write_course(root / "content")
    assert main(["export", "scorm", "-q", "--content", str(content), "--out", str(root / "lms"), "--no-cache"]) == 0
    folder = root / "www"
    for slug in (lms_lesson.SLUG, lms_lesson.READING):
        with zipfile.ZipFile(root / "lms" / f"{slug}.scorm.zip") as package:
            package.extractall(folder / slug)
    shutil.copy(RUNTIME, folder / "scorm12.js")
    resumed = {"core": {"entry": "resume"}, "suspend_data": json.dumps({"check-1": 1})}
    for name, package, setup in (("lms", "quiz", ""), ("reading", "reading", ""),
                                 ("resume", "quiz", f"window.API.loadFromJSON({json.dumps(resumed)}, 'cmi');")):
        (folder / f"{name}.html").write_text(PARENT % {"package": package, "setup": setup}, encoding="utf-8")
    (folder / "plain.html").write_text(PLAIN, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def address(served):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(served)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


class Platform:
    """A parent page with the runtime (or without), its iframe, and every console message of both."""

    def __init__(self, browser, url: str, axe: str | None = None):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
        self.context.set_default_timeout(TIMEOUT)
        if axe:
            self.context.add_init_script(script=axe)
        self.page = self.context.new_page()
        self.messages: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.messages.append((m.type, m.text)))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url, wait_until="load")
        alone = url.endswith("index.html")   # the package's page opened by itself
        self.frame = self.page.main_frame if alone else self.page.frame_locator("iframe")
        self.lesson = self.page.main_frame if alone else self.page.frames[1]  # (its Frame, to run scripts in)
        self.lesson.wait_for_function(STARTED, timeout=TIMEOUT)

    def cmi(self) -> dict:
        return self.page.evaluate("JSON.parse(JSON.stringify(window.API.cmi))")

    def interactions(self) -> list[dict]:
        found = self.cmi()["interactions"]
        return [{k: found[n][k] for k in ("id", "type", "student_response", "result")}
                for n in sorted(found, key=int)]

    def calls(self) -> list:
        return self.page.evaluate("window.calls")

    def type(self, box: str, text: str) -> None:
        self.frame.locator(f"#{box}").fill(text)
        self.frame.locator(f"#{box}").press("Enter")

    def choose(self, check: str, *options: int) -> None:
        for k in options:
            self.frame.locator(f"#{check}-c{k}").check()
        self.frame.locator(f"#{check} .sc-check").click()

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def platform(browser, address, axe_source):
    opened = []

    def open_(page: str) -> Platform:
        opened.append(Platform(browser, address + page, axe_source))
        return opened[-1]
    yield open_
    for each in opened:
        each.close()


def score(cmi: dict) -> tuple[str, str, str, str]:
    core = cmi["core"]
    return core["lesson_status"], core["score"]["raw"], core["score"]["min"], core["score"]["max"]


def assert_runtime_accepted_everything(lms: Platform) -> None:
    """Every value the page gave the runtime was one it accepts, and nothing complained."""
    refused = [c for c in lms.calls() if c[0] != "LMSGetValue" and (c[2] != "true" or c[3] != "0")]
    assert refused == []
    assert lms.errors == [] and [m for m in lms.messages if m[0] in ("error", "warning")] == []


@pytest.mark.parametrize("chosen, status, right", [((0, 2), "passed", 3), ((0,), "failed", 2)])
def test_answers_reach_the_runtime_as_interactions_score_and_status(platform, chosen, status, right):
    lms = platform("lms.html")
    assert lms.frame.locator(".widget-scorm").is_visible()       # the note: the page reports to a platform
    assert score(lms.cmi()) == ("incomplete", "0", "0", "100")
    lms.type("check-1-f0", "0.04")                                 # wrong first: this is what counts …
    assert score(lms.cmi())[:2] == ("incomplete", "0")
    lms.type("check-1-f0", "0,004 %")                              # … right later: recorded, no score
    lms.choose("check-pick", 1)                                    # right: 1 of 4
    assert score(lms.cmi())[:2] == ("incomplete", "25")
    lms.frame.locator("#check-2-f0").fill(f"{MU}")
    typed = [f"{x:.3g}" for x in XHAT]                            # 1.73 and -0.577: right to 2 figures
    lms.frame.locator("#check-2-f1-1").fill(typed[0])
    lms.type("check-2-f1-2", typed[1])                             # right: 2 of 4
    assert score(lms.cmi())[:2] == ("incomplete", "50")
    lms.choose("check-3", *chosen)                                 # A and C right, A alone wrong
    assert score(lms.cmi()) == (status, str(100 * right // len(CHECKS)), "0", "100")
    assert (100 * right >= MASTERY * len(CHECKS)) == (status == "passed")
    letters = ",".join("abc"[k] for k in chosen)
    assert lms.interactions() == [
        {"id": "check-1-f0", "type": "numeric", "student_response": "0.04", "result": "wrong"},
        {"id": "check-1-f0", "type": "numeric", "student_response": "0.004", "result": "correct"},
        {"id": "check-pick", "type": "choice", "student_response": "b", "result": "correct"},
        {"id": "check-2-f0", "type": "numeric", "student_response": f"{MU}", "result": "correct"},
        {"id": "check-2-f1-1", "type": "numeric", "student_response": typed[0], "result": "correct"},
        {"id": "check-2-f1-2", "type": "numeric", "student_response": typed[1], "result": "correct"},
        {"id": "check-3", "type": "choice", "student_response": letters, "result": "correct" if right == 3 else "wrong"},
    ]
    assert json.loads(lms.cmi()["suspend_data"]) == {"check-1": 0, "check-pick": 1, "check-2": 1,
                                                     "check-3": 1 if right == 3 else 0}
    assert [c[0] for c in lms.calls()].count("LMSCommit") >= 5     # after every answer
    assert_runtime_accepted_everything(lms)


def test_a_check_half_answered_is_reported_but_not_counted(platform):
    lms = platform("lms.html")
    lms.type("check-2-f0", f"{MU}")                                # one of three boxes
    assert lms.interactions() == [{"id": "check-2-f0", "type": "numeric", "student_response": f"{MU}",
                                   "result": "correct"}]
    assert score(lms.cmi())[:2] == ("incomplete", "0")
    assert_runtime_accepted_everything(lms)


def test_leaving_the_page_finishes_the_session(platform):
    lms = platform("lms.html")
    lms.choose("check-pick", 1)
    lms.page.evaluate("document.getElementById('sco').remove()")
    lms.page.wait_for_function("() => window.calls.some(c => c[0] === 'LMSFinish')", timeout=TIMEOUT)
    calls = lms.calls()
    assert [c[0] for c in calls if c[0] in ("LMSInitialize", "LMSFinish")] == ["LMSInitialize", "LMSFinish"]
    core = lms.cmi()["core"]
    assert core["exit"] == "suspend" and core["lesson_status"] == "incomplete"  # to be resumed
    assert len(core["session_time"].split(":")) == 3
    assert_runtime_accepted_everything(lms)


def test_a_resumed_attempt_keeps_its_counted_answers(platform):
    lms = platform("resume.html")                                  # check-1 already counted right
    assert score(lms.cmi())[:2] == ("incomplete", "25")
    lms.type("check-1-f0", "0.04")                                 # a wrong answer now is only recorded
    assert score(lms.cmi())[:2] == ("incomplete", "25")
    assert lms.interactions()[-1]["result"] == "wrong"
    assert_runtime_accepted_everything(lms)


def test_a_lesson_without_self_checks_is_completed_when_opened(platform):
    lms = platform("reading.html")
    lms.page.wait_for_function("() => window.API.cmi.core.lesson_status === 'completed'", timeout=TIMEOUT)
    assert lms.cmi()["core"]["score"]["raw"] == "" and lms.interactions() == []
    assert_runtime_accepted_everything(lms)


def test_the_page_in_the_platform_has_no_accessibility_violations(platform):
    lms = platform("lms.html")
    assert axe_violations(lms.lesson) == []
    lms.type("check-1-f0", "0.04")
    lms.choose("check-3", 0)
    assert axe_violations(lms.lesson) == []
    assert_runtime_accepted_everything(lms)


@pytest.mark.parametrize("page", ["quiz/index.html", "plain.html"])
def test_outside_a_platform_nothing_changes_and_nothing_is_logged(platform, page):
    lms = platform(page)
    assert lms.frame.locator(".widget-scorm").count() == 1 and not lms.frame.locator(".widget-scorm").is_visible()
    lms.type("check-1-f0", "0.004")
    assert lms.frame.locator("#check-1 [role=status]").text_content() == "正确"
    assert lms.lesson.evaluate("typeof window.API") == "undefined"
    assert lms.messages == [] and lms.errors == []
