"""The command line: exit codes, messages naming file and line, and a failed build that leaves the old site."""
from pathlib import Path
from shutil import copytree

import pytest

from lessonkit.cli import main
from lesson_folders import PROJECT
from lessonkit.support.paths import BUILTIN_THEMES


def snapshot(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_build_fixture_lesson(make_lesson, run_build):
    make_lesson()
    code, out_text, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "二的十次方是 1024。" in page  # 2**10, by hand
    assert 'href="demo/index.html"' in (out / "index.html").read_text(encoding="utf-8")
    assert "built 1 lesson(s)" in out_text


def test_content_error_exit_1_lists_every_problem_and_keeps_old_site(make_lesson, run_build, tmp_path):
    make_lesson()
    assert run_build()[0] == 0
    before = snapshot(tmp_path / "out")
    make_lesson(md="## 第一节\n\n{{ two_pwo }}\n\n{{< figure nope >}}\n")
    code, _, err, out = run_build()
    assert code == 1
    assert "lesson.md:3: unknown value `two_pwo`; did you mean `two_pow`?" in err
    assert "lesson.md:5: unknown figure `nope`" in err
    assert "Traceback" not in err
    assert snapshot(out) == before


def test_unknown_lesson_is_a_usage_error(make_lesson, run_build):
    make_lesson()
    code, _, err, _ = run_build("--lesson", "nope")
    assert code == 2 and "no lesson `nope`" in err and "demo" in err


def test_unknown_theme_is_a_usage_error(make_lesson, run_build):
    make_lesson()
    code, _, err, _ = run_build("--theme", "nope")
    assert code == 2 and "theme `nope` not found" in err


def test_bad_option_exits_2(capsys):
    assert main(["build", "--frobnicate"]) == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_help_names_the_build_options(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--out", "--theme", "--lesson"):
        assert option in text


def test_refuses_to_overwrite_a_folder_it_did_not_make(make_lesson, run_build, tmp_path):
    make_lesson()
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.txt").write_text("irreplaceable")
    code, _, err, _ = run_build(out=precious)
    assert code == 2 and "was not made by this tool" in err
    assert (precious / "thesis.txt").read_text() == "irreplaceable"


@pytest.fixture
def theme_with_head(tmp_path):
    """A themes folder holding a copy of `default` and a theme NAME that overrides only partials/extend_head.html."""
    def make(name: str, head_html: str) -> Path:
        themes = tmp_path / "themes"
        if not (themes / "default").exists():
            copytree(BUILTIN_THEMES / "default", themes / "default")
        (themes / name / "partials").mkdir(parents=True)
        (themes / name / "partials" / "extend_head.html").write_text(head_html)
        return themes
    return make


def test_user_theme_overrides_one_template(make_lesson, run_build, theme_with_head):
    make_lesson()
    themes = theme_with_head("mine", '<meta name="x-theme" content="mine">')
    code, _, err, out = run_build("--theme", "mine", "--themes-dir", str(themes))
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="x-theme" content="mine">' in page
    assert "二的十次方是 1024。" in page  # everything else came from default


def test_undefined_template_variable_is_an_error_naming_the_template(make_lesson, run_build, theme_with_head):
    make_lesson()
    themes = theme_with_head("typo", '\n<meta content="{{ lesson.titel }}">')
    code, _, err, out = run_build("--theme", "typo", "--themes-dir", str(themes))
    assert code == 2
    assert f"{themes / 'typo' / 'partials' / 'extend_head.html'}:2: template error:" in err
    assert "titel" in err and "Traceback" not in err
    assert not out.exists()


def test_verbose_names_content_theme_path_and_cache(make_lesson, run_build, tmp_path):
    make_lesson()
    code, out_text, err, _ = run_build("-v", "--no-cache")
    assert code == 0, err
    assert f"content: {tmp_path / 'content'}" in out_text
    assert "themes searched: " in out_text and "default" in out_text
    assert "cache: off (--no-cache)" in out_text
    code, quiet_text, _, _ = run_build("-q")
    assert code == 0 and quiet_text == ""
