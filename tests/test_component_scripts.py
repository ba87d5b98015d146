"""Component scripts checked at build time (features/scriptcheck.py): every widget.js a page uses is parsed with a real
JavaScript parser; a syntax error, or a registration under another name than the component's folder (or none), is
reported at that file and line — a lesson's own component with the lesson's problems (exit 1, see also the broken
corpus: js-*), a theme's as the theme's error (exit 2). Verdicts are cached by the script's bytes: a warm build
neither imports the parser nor parses. Lines and columns below are counted by hand in the sources written here."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lesson_folders import PROJECT, real_lessons
from lessonkit.features.scriptcheck import faults_of
from lessonkit.support.paths import BUILTIN_THEMES

MD = "## 第一节 {#first}\n\n{{< widget shelf >}}\n"
PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.widget
def shelf():
    return {"books": ["甲", "乙"]}
"""
HTML = "<ul>{% for b in widget.data.books %}<li>{{ b }}</li>{% endfor %}</ul>\n"
GOOD_JS = "lessonkit.widget('shelf', function (root, data) {\n  root.setAttribute('data-n', data.books.length);\n});\n"
BROKEN_JS = "lessonkit.widget('shelf', function (root, data) {\n  root.setAttribute('data-n', data.books.length));\n});\n"
#                                                           line 2, column 49: the second `)` ^


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def theme(tmp_path: Path, files: dict[str, str]) -> list[str]:
    """A theme `mine` beside the real default holding `files`; the build options that select it."""
    themes = tmp_path / "themes"
    themes.mkdir(exist_ok=True)
    if not (themes / "default").exists():
        (themes / "default").symlink_to(BUILTIN_THEMES / "default")
    write(themes / "mine", files)
    return ["--theme", "mine", "--themes-dir", str(themes)]


def no_bug(code: int, err: str) -> None:
    assert code != 3 and "Traceback" not in err, err


# ── what the parser finds ──────────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("source, line, message", [
    (BROKEN_JS, 2, "JavaScript syntax error, column 49: unexpected `)`"),
    ("lessonkit.widget('shelf', function (root) {\n  if (root) {\n    root.hidden = true;\n});\n",
     4, "JavaScript syntax error, column 2: missing `}` before `);`"),          # the if's block is never closed
    ("lessonkit.widget('shelf', function (root) {\n  root.title = 'abc;\n});\n",
     2, "JavaScript syntax error, column 16: a string that is never closed: `'abc;`"),
    ("lessonkit.widget('shelf', function (root) {\n  root.title = 'ok';\n",
     1, "JavaScript syntax error, column 43: `{` is never closed"),              # the file ends inside the function
    ("lessonkit.widget('shelf', function (root) {\n  var x = <b>书</b>;\n});\n",
     2, "JavaScript syntax error, column 11: HTML inside JavaScript (JSX): browsers do not run it"),
    ("import {all} from './lesson.js';\nlessonkit.widget('shelf', function () {});\n",
     1, "JavaScript syntax error, column 1: `import` needs a JavaScript module, but a component is a plain script"),
    ("if (!window.lessonkit) return;\nlessonkit.widget('shelf', function () {});\n",
     1, "JavaScript syntax error, column 24: `return` outside a function"),
    ("var 书 = '中文'; var x = (1 + ;\nlessonkit.widget('shelf', function () {});\n",
     1, "JavaScript syntax error, column 28: unexpected `;`"),                  # columns count characters, not bytes
])
def test_a_syntax_error_is_found_at_its_line_and_column(source, line, message):
    faults = faults_of(source.encode("utf-8"), "shelf")
    assert [(f.line, str(f.message)) for f in faults] == [(line, message)]


@pytest.mark.parametrize("source", [
    GOOD_JS,
    "(function () {\n  'use strict';\n  lessonkit.widget('shelf', (root) => { return root; });\n})();\n",
    "window.lessonkit.widget(`shelf`, function () {});\n",
    "lessonkit.widget(/* the kind: */ 'shelf', function () {});\n",
    "// return is fine inside functions, and regexes and templates are no strings left open\n"
    "lessonkit.widget('shelf', function (root) { var r = /'/g; return `a'${r}`; });\n",
])
def test_a_good_script_has_no_fault(source):
    assert faults_of(source.encode("utf-8"), "shelf") == []


def test_registrations_must_name_the_folder():
    faults = faults_of(b"lessonkit.widget('shelf', f);\nlessonkit.widget('shelves', f);\nlessonkit.widget(kind, f);\n",
                       "shelf")
    assert [(f.line, str(f.message)) for f in faults] == [
        (2, "registers kind `shelves`, but its folder is `shelf`"),
        (3, "`lessonkit.widget(…)` needs the kind as a quoted string")]
    nothing = faults_of(b"function shelf(root) { root.hidden = false; }\n", "shelf")
    assert [(f.line, str(f.message)) for f in nothing] == [
        (None, "registers no kind: nothing on the page would start this component")]
    assert "lessonkit.widget('shelf', function (root, data)" in str(nothing[0].expected)


def test_every_shipped_script_passes():
    """The default theme's components and the lessons' own (whatever content/ holds) are what the check accepts."""
    scripts = sorted(BUILTIN_THEMES.glob("*/*/*/widget.js")) + sorted((PROJECT / "themes").glob("*/*/*/widget.js"))
    scripts += [p for slug in real_lessons() for p in sorted((PROJECT / "content" / slug).glob("widgets/*/widget.js"))]
    assert len(scripts) >= 9
    for script in scripts:
        assert faults_of(script.read_bytes(), script.parent.name) == [], script
    base = BUILTIN_THEMES / "default" / "assets" / "lesson.js"
    assert faults_of(base.read_bytes(), None) == []


# ── through the build ──────────────────────────────────────────────────────────────────────────────────────────────
def test_a_syntax_error_in_a_theme_widget_script_is_the_themes_exit_2(make_lesson, run_build, tmp_path):
    make_lesson(md=MD, py=PY)
    options = theme(tmp_path, {"widgets/shelf/widget.html": HTML, "widgets/shelf/widget.js": BROKEN_JS})
    code, _, err, out = run_build(*options)
    no_bug(code, err)
    assert code == 2 and not out.exists()
    assert (f"{tmp_path}/themes/mine/widgets/shelf/widget.js:2: the theme's component script: JavaScript syntax "
            "error, column 49: unexpected `)`") in err


def test_a_theme_page_component_registering_another_name_is_exit_2(make_lesson, run_build, tmp_path):
    """Page components (components/<name>/) are placed by the theme's templates and checked the same way."""
    make_lesson()
    options = theme(tmp_path, {"components/colormode/widget.js": "lessonkit.widget('colourmode', function () {});\n"})
    code, _, err, _ = run_build(*options)
    no_bug(code, err)
    assert code == 2
    assert (f"{tmp_path}/themes/mine/components/colormode/widget.js:1: the theme's component script: registers kind "
            "`colourmode`, but its folder is `colormode`") in err


def test_a_syntax_error_in_the_themes_base_script_is_exit_2(make_lesson, run_build, tmp_path):
    make_lesson()
    base = (BUILTIN_THEMES / "default" / "assets" / "lesson.js").read_text(encoding="utf-8")
    options = theme(tmp_path, {"assets/lesson.js": base.replace("function one(sel, el) {", "function one(sel, el) {(", 1)})
    line = base[:base.index("function one(sel, el) {")].count("\n") + 1
    code, _, err, _ = run_build(*options)
    no_bug(code, err)
    assert code == 2 and f"themes/mine/assets/lesson.js:{line}: the theme's component script: JavaScript syntax" in err


def test_a_syntax_error_in_the_themes_head_script_is_exit_2(make_lesson, run_build, tmp_path):
    make_lesson()
    head = (BUILTIN_THEMES / "default" / "assets" / "head.js").read_text(encoding="utf-8")
    options = theme(tmp_path, {"assets/head.js": head.rstrip() + "\n(function(){\n"})
    code, _, err, _ = run_build(*options)
    no_bug(code, err)
    assert code == 2 and "themes/mine/assets/head.js:" in err and "the theme's component script: JavaScript syntax" in err


def test_a_lesson_and_its_component_problems_come_out_together(make_lesson, run_build):
    folder = make_lesson(md=MD + "\n{{ nothing }}\n", py=PY)
    write(folder, {"widgets/shelf/widget.html": HTML, "widgets/shelf/widget.js": BROKEN_JS})
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1
    assert "lesson.md:5: unknown value `nothing`" in err
    assert "content/demo/widgets/shelf/widget.js:2: JavaScript syntax error, column 49: unexpected `)`" in err


PROBE = ("import sys; from lessonkit.cli import main; code = main(sys.argv[1:]); "
         "print(code, 'tree_sitter' in sys.modules, 'tree_sitter_javascript' in sys.modules)")


def test_a_warm_build_neither_imports_the_parser_nor_trusts_a_stale_verdict(make_lesson, tmp_path):
    folder = make_lesson(md=MD, py=PY)
    write(folder, {"widgets/shelf/widget.html": HTML, "widgets/shelf/widget.js": GOOD_JS})
    args = ["build", "-q", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
            "--cache-dir", str(tmp_path / "cache")]

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=PROJECT,
                              timeout=300, env={**os.environ, "LESSONKIT_LANG": "en"})
    cold = run()
    assert cold.stdout.split() == ["0", "True", "True"], cold.stderr
    assert len(list((tmp_path / "cache" / "scripts").glob("*.json"))) >= 2   # this component's and the theme's
    warm = run()
    assert warm.stdout.split() == ["0", "False", "False"], warm.stderr
    write(folder, {"widgets/shelf/widget.js": BROKEN_JS})                       # new bytes: checked afresh
    edited = run()
    assert edited.stdout.split() == ["1", "True", "True"]
    assert "widget.js:2: JavaScript syntax error, column 49" in edited.stderr
    again = run()                                                               # the failing verdict is kept too
    assert again.stdout.split() == ["1", "False", "False"] and "column 49" in again.stderr


def test_verdicts_are_pruned_like_every_entry_and_clean_knows_their_folder(make_lesson, run_build, tmp_path):
    from lessonkit.cli import main
    from lessonkit.support.prune import prune

    folder = make_lesson(md=MD, py=PY)
    write(folder, {"widgets/shelf/widget.html": HTML, "widgets/shelf/widget.js": GOOD_JS})
    assert run_build()[0] == 0
    scripts = tmp_path / "cache" / "scripts"
    stale = scripts / ("f" * 64 + ".json")
    stale.write_text("[]", encoding="utf-8")
    long_ago = time.time() - 60 * 86400
    os.utime(stale, (long_ago, long_ago))
    kept = sorted(p.name for p in scripts.iterdir() if p != stale)
    prune(tmp_path / "cache", now=time.time(), used_since=time.time() - 60)
    assert sorted(p.name for p in scripts.iterdir()) == kept and kept
    assert main(["clean", "-q", "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "out")]) == 0
    assert not (tmp_path / "cache").exists()


def test_a_script_that_is_not_utf8_is_the_lessons_problem(make_lesson, run_build):
    folder = make_lesson(md=MD, py=PY)
    write(folder, {"widgets/shelf/widget.html": HTML})
    (folder / "widgets" / "shelf" / "widget.js").write_bytes("// 书架\nlessonkit.widget('shelf', f);\n".encode("gbk"))
    code, _, err, _ = run_build()
    no_bug(code, err)
    assert code == 1 and "content/demo/widgets/shelf/widget.js: file is not UTF-8 (expected UTF-8 text)" in err
