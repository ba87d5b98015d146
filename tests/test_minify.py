"""assemble/minify.py: the built-in theme's scripts and the page's style minified for `build`, kept in the store;
what a teacher wrote (a lesson's widgets, a project's theme) and everything under `serve` line for line."""
import re
import subprocess

from lessonkit.assemble.minify import Minified
from lessonkit.features.components import Lean, lean_js
from lessonkit.support.paths import BUILTIN_THEMES
from lessonkit.support.store import MINIFIED, Store

LESSON_JS = BUILTIN_THEMES / "default" / "assets" / "lesson.js"
SOURCE = """\
// a comment a script starts with
function total(values) {
    // add them up
    var sum = 0;
    for (var i = 0; i < values.length; i++) { sum += values[i]; }
    return sum;
}
"""


def test_the_built_in_theme_s_code_is_minified_and_still_runs(tmp_path):
    shrink = Minified(Store(tmp_path / "cache"))
    small = shrink.js(SOURCE, LESSON_JS)
    assert "//" not in small and "\n" not in small and len(small) < len(lean_js(SOURCE))
    run = subprocess.run(["node", "-e", small + "\nconsole.log(total([1, 2, 3.5]));"], capture_output=True, text=True)
    assert run.stdout.strip() == "6.5", run.stderr                                   # 1 + 2 + 3.5
    css = shrink.css(".a { color : red ; }\n/* note */\n.b{margin:0 0 0 0}")
    assert "note" not in css and css.replace(" ", "").startswith(".a{color:red}")


def test_a_teachers_own_code_keeps_its_lines(tmp_path):
    shrink = Minified(Store(tmp_path / "cache"))
    own = tmp_path / "content" / "demo" / "widgets" / "counter" / "widget.js"
    assert shrink.js(SOURCE, own) == lean_js(SOURCE)
    assert shrink.js(SOURCE, own).splitlines()[4].startswith("for (var i = 0;")    # line 5 is still line 5
    assert Lean().js(SOURCE, LESSON_JS) == lean_js(SOURCE)                          # `serve`: the theme's too


def test_what_was_minified_is_kept_for_the_next_build(tmp_path):
    first = Minified(Store(tmp_path / "cache"))
    small = first.js(SOURCE, LESSON_JS)
    first.save()
    saved = Store(tmp_path / "cache").get_json(MINIFIED, first.version)
    assert small in saved.values()
    again = Minified(Store(tmp_path / "cache"))
    assert again.js(SOURCE, LESSON_JS) == small and not again.added


def test_a_built_page_carries_the_theme_s_scripts_minified(make_lesson, run_build):
    make_lesson()
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    base = next(s for s in re.findall(r"<script>(.*?)</script>", page, re.S)
                if s.endswith("//# sourceURL=themes/default/assets/lesson.js"))
    assert base.count("\n") == 1                                                     # the code, then its name
    assert len(base) < 0.9 * len(lean_js(LESSON_JS.read_text(encoding="utf-8")))
