"""`new SLUG`: a sample lesson that builds at once and shows every feature; unsafe or taken names are refused."""
import re

import pytest

from lessonkit.cli import main


def test_new_lesson_builds_and_shows_every_feature(tmp_path, run_build, capsys):
    assert main(["new", "first-steps", "--content", str(tmp_path / "content")]) == 0
    assert "created" in capsys.readouterr().out
    folder = tmp_path / "content" / "first-steps"
    assert sorted(p.name for p in folder.iterdir()) == ["lesson.md", "lesson.py", "lesson.yaml"]
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "first-steps" / "index.html").read_text(encoding="utf-8")
    assert "新课：first-steps" in page                                   # the slug replaced the placeholder
    assert "0.349" in page                                               # 0.9**10 = 0.3487 (3 significant figures)
    assert "只剩 35 %" in page                                           # 0.9**10 = 34.9 % → 2 significant figures
    assert re.search(r'<figure id="fig-decay".*?<svg.*?图 1', page, re.S)  # a figure, numbered
    assert '<a class="fig-ref" href="#fig-decay">图 1</a>' in page          # and referred to
    assert "<math" in page                                                # a formula
    assert 'class="callout callout-tip"' in page                          # a callout
    assert 'data-widget="explorer"' in page                               # a widget
    assert "大约是原来的 2.6 倍" in page                                    # 1.1**10 = 2.594 → .1f
    assert 'class="challenge"' in page
    assert re.search(r'<aside class="speaker-notes"[^>]* hidden>\s*<p>讲稿只给老师看', page)  # speaker notes


@pytest.mark.parametrize("slug", ["注意力", "Attention", "two words", "../escape", "-dash", "dash-", "a" * 65, ""])
def test_unsafe_names_are_refused(tmp_path, capsys, slug):
    content = tmp_path / "content"
    assert main(["new", "--content", str(content), "--", slug]) == 2
    err = capsys.readouterr().err
    assert ("cannot be a lesson name" in err) if len(slug) <= 64 else ("longer than 64 characters" in err)
    assert not content.exists() or not any(content.iterdir())


def test_existing_lesson_is_never_overwritten(make_lesson, tmp_path, capsys):
    folder = make_lesson("taken")
    before = (folder / "lesson.md").read_bytes()
    assert main(["new", "taken", "--content", str(tmp_path / "content")]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (folder / "lesson.md").read_bytes() == before
