"""docs/authoring.md's chapter 16 (「从 Jupyter 笔记本开始」) cannot go stale: its lesson written as cells — the blocks
titled `gradient-descent/…` — is built, the lines it promises are on the page, and its error example is what the
build prints (as tests/test_guide.py does for the guide's main example)."""
from __future__ import annotations

import re
from pathlib import Path

from test_guide import blocks, build
from pagetext import visible_text

SLUG = "gradient-descent"
YAML = "title: 梯度下降\nsummary: 沿着负梯度走\nobjectives:\n  - 说出学习率怎样决定每一步\n"


def files() -> dict[str, str]:
    found = {"lesson.yaml": YAML}
    for _, attrs, body in blocks():
        title = attrs.get("title", "")
        if title in (f"{SLUG}/lesson.py", f"{SLUG}/lesson.md"):
            found[title.split("/", 1)[1]] = body
    return found


def write(root: Path, lesson: dict[str, str]) -> None:
    folder = root / "content" / SLUG
    folder.mkdir(parents=True)
    for name, text in lesson.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_the_chapters_lesson_shows_what_it_promises(tmp_path):
    lesson = files()
    assert set(lesson) == {"lesson.yaml", "lesson.py", "lesson.md"} and lesson["lesson.py"].startswith("# %%")
    write(tmp_path, lesson)
    code, err = build(tmp_path)
    assert code == 0, err
    page = (tmp_path / "out" / SLUG / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", visible_text(page, sep=" "))
    promised = [line.strip() for _, attrs, body in blocks() if attrs.get("title") == f"{SLUG}/页面上显示"
                for line in body.splitlines() if line.strip()]
    assert len(promised) >= 5
    for line in promised:
        assert line in text, f"the guide promises「{line}」on the page"


def test_the_chapters_error_example_is_what_the_build_prints(tmp_path):
    cases = [(attrs["when"], body) for _, attrs, body in blocks() if attrs.get("title") == f"{SLUG}/终端输出"]
    assert cases
    for n, (when, body) in enumerate(cases):
        name, edit = (part.strip() for part in when.split(":", 1))
        old, new = (part.strip() for part in edit.split("→"))
        lesson = files()
        assert old in lesson[name], f"{when}: `{old}` is not in the chapter's {name}"
        lesson[name] = lesson[name].replace(old, new, 1)
        write(tmp_path / f"case-{n}", lesson)
        code, err = build(tmp_path / f"case-{n}")
        assert code == 1
        for line in filter(None, (line.strip() for line in body.splitlines())):
            assert line in err, f"the guide shows「{line}」but the build printed:\n{err}"
