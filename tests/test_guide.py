"""docs/authoring.md cannot go stale: its example lesson is built and the output it promises is checked.

Fenced blocks carry a title in their info string (```yaml title="lesson.yaml"```):
- lesson.yaml / lesson.md / lesson.py: parts of one example lesson, joined in order;
- widgets/<kind>/widget.html|js|css: a component of the example lesson's own, written into its folder;
- themes/…: theme files; the example is then also built with that theme;
- site.yaml: the example course's content/site.yaml (its parts);
- 页面上显示: every line is visible text of the lesson page; 页面源码包含: every line is in its HTML;
- 终端输出 with when="FILE: OLD → NEW": that edit makes the build fail with these lines on stderr (… = anything).
"""
from __future__ import annotations

import contextlib
import functools
import io
import os
import re
from pathlib import Path

import pytest

from lessonkit.cli import main, parser as cli_parser
from lessonkit.support.i18n import Speaker
from lessonkit.commands import COMMANDS
from lesson_folders import PROJECT
from lessonkit.load.schema import CHALLENGE, LESSON

from pagetext import visible_text
from lessonkit.support.paths import BUILTIN_THEMES

GUIDE = PROJECT / "docs" / "authoring.md"
SLUG = "softmax-basics"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```\s*$", re.M | re.S)
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
LESSON_FILES = ("lesson.yaml", "lesson.md", "lesson.py")
WIDGET_FILE = re.compile(r"^widgets/[a-z][a-z0-9_]*/widget\.(html|js|css)$")


SITE_FILE = "site.yaml"
COURSE_FILES = ("content/references.bib",)   # files beside the lesson folders that the example uses


def in_lesson(title: str) -> bool:
    """A file of the example lesson's folder (as opposed to a theme file), or of its content folder."""
    return title in LESSON_FILES or bool(WIDGET_FILE.match(title)) or title == SITE_FILE


def in_content(title: str) -> bool:
    """A file the example's content needs: its lesson's own, or one of the course's (the bibliography)."""
    return in_lesson(title) or title in COURSE_FILES


def blocks() -> list[tuple[str, dict[str, str], str]]:
    return [(m.group(1), dict(ATTRIBUTE.findall(m.group(2))), m.group(3))
            for m in FENCE.finditer(GUIDE.read_text(encoding="utf-8"))]


def example_files() -> dict[str, str]:
    files: dict[str, str] = {}
    for _, attrs, body in blocks():
        title = attrs.get("title", "")
        if in_content(title) or title.startswith("themes/"):
            files[title] = files.get(title, "") + ("\n" if title in files else "") + body
    return files


def expected(title: str) -> list[str]:
    return [line.strip() for _, attrs, body in blocks() if attrs.get("title") == title
            for line in body.splitlines() if line.strip()]


def write_example(root: Path, files: dict[str, str]) -> None:
    for title, text in files.items():
        target = root / "content" / (title if title == SITE_FILE else f"{SLUG}/{title}") if in_lesson(title) \
            else root / title
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def build(root: Path, *extra: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["build", "--lang", "zh-CN", "--content", str(root / "content"), "--out", str(root / "out"),
                     "--cache-dir", str(root / "cache"), *extra])  # the guide shows the messages in Chinese, the default
    return code, err.getvalue()


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    root = tmp_path_factory.mktemp("guide")
    files = example_files()
    assert set(LESSON_FILES) <= set(files), "the guide should show all three files of its example lesson"
    write_example(root, {k: v for k, v in files.items() if in_content(k)})
    code, err = build(root)
    assert code == 0, err
    return root


def test_the_example_page_shows_what_the_guide_says(example):
    html = (example / "out" / SLUG / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", visible_text(html, sep=" "))
    lines = expected("页面上显示")
    assert len(lines) >= 10
    for line in lines:
        assert line in text, f"the guide promises「{line}」on the page"


def test_the_theme_example_overrides_one_file(example):
    themes = {k: v for k, v in example_files().items() if k.startswith("themes/")}
    assert themes, "the guide should show a theme override"
    names = {Path(k).parts[1] for k in themes}
    assert len(names) == 1
    write_example(example, themes)
    os.symlink(BUILTIN_THEMES / "default", example / "themes" / "default")
    code, err = build(example, "--theme", names.pop(), "--themes-dir", str(example / "themes"))
    assert code == 0, err
    html = (example / "out" / SLUG / "index.html").read_text(encoding="utf-8")
    for line in expected("页面源码包含"):
        assert line in html
    assert "最大的一个是 0.659" in html  # everything else still comes from the default theme


def test_the_error_examples_are_what_the_build_prints(tmp_path):
    cases = [(attrs["when"], body) for _, attrs, body in blocks() if attrs.get("title") == "终端输出"]
    assert cases
    for when, body in cases:
        name, edit = (part.strip() for part in when.split(":", 1))
        old, new = (part.strip() for part in edit.split("→"))
        files = example_files()
        assert old in files[name], f"{when}: `{old}` is not in the example's {name}"
        files[name] = files[name].replace(old, new, 1)
        root = tmp_path / f"case-{cases.index((when, body))}"
        write_example(root, {k: v for k, v in files.items() if in_content(k)})
        code, err = build(root)
        assert code == 1
        for line in filter(None, (line.strip() for line in body.splitlines())):
            pattern = ".*?".join(re.escape(part) for part in line.split("…"))
            assert re.search(pattern, err), f"the guide shows「{line}」but the build printed:\n{err}"


def test_every_lesson_yaml_key_is_documented():
    text = GUIDE.read_text(encoding="utf-8")
    for key in [*LESSON, *CHALLENGE]:
        assert f"`{key}`" in text, f"lesson.yaml key `{key}` is missing from the guide"


def test_the_guides_command_lines_are_accepted():
    """Each `lessonkit …` line parses with the real parser; a synopsis line's options exist."""
    checked = 0
    parser = functools.partial(cli_parser, "lessonkit", Speaker("en"))
    for language, _, body in blocks():
        if language != "sh":
            continue
        for line in body.splitlines():
            line = line.split("#")[0].strip()
            if not line.startswith(("lessonkit ", "python build.py")):
                continue
            argv = line.split()[1 if line.startswith("lessonkit") else 2:]
            command = argv[0].strip("[]") if argv and not argv[0].startswith("-") else "build"
            if command not in COMMANDS:
                continue  # a command another part of the project provides
            if "[" in line:
                help_text = parser()._subparsers._group_actions[0].choices[command].format_help()
                for option in re.findall(r"--[\w-]+", line):
                    assert option in help_text, f"`{line}`: {command} has no {option}"
            elif argv[:1] != ["--version"]:
                if argv and argv[0].startswith("-"):
                    argv = ["build", *argv]
                with pytest.raises(SystemExit) if "--help" in argv else contextlib.nullcontext():
                    parser().parse_args(argv)
            checked += 1
    assert checked >= 8



def test_the_guide_writes_a_whole_component_of_the_lessons_own(example):
    """Chapter 11's component: all three files, in the example lesson's folder only, placed and inlined."""
    kinds: dict[str, set[str]] = {}
    for title in example_files():
        if WIDGET_FILE.match(title):
            kinds.setdefault(Path(title).parts[1], set()).add(Path(title).name)
    assert kinds, "the guide should write a component of its own"
    for kind, names in kinds.items():
        assert names == {"widget.html", "widget.js", "widget.css"}, kind
        assert not (BUILTIN_THEMES / "default" / "widgets" / kind).exists(), \
            f"`{kind}` should be new, not one of the default theme's"
        page = (example / "out" / SLUG / "index.html").read_text(encoding="utf-8")
        assert f'data-widget="{kind}"' in page and f"lessonkit.widget('{kind}'" in page
