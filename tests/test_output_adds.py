"""A build adds to the site, never clobbers it (write/output.py): what `pdf` and `slides` made of a lesson page
stays while the page is the same, and `build --lesson X` into a site of other lessons too writes X's pages and
leaves the rest as it was."""
from __future__ import annotations

from pathlib import Path

from lessonkit.cli import main
from lessonkit.support.paths import SitePaths


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def build(tmp_path: Path, *extra: str) -> int:
    return main(["build", "-q", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
                 "--cache-dir", str(tmp_path / "cache"), *extra])


def two_lessons(make_lesson):
    make_lesson("alpha", md="## 一 {#one}\n\n第一课的正文。\n", py=None)
    make_lesson("beta", md="## 一 {#one}\n\n第二课的正文。\n", py=None)


def edit(folder: Path, old: str, new: str) -> None:
    path = folder / "lesson.md"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_handouts_and_decks_stay_while_their_page_is_the_same(make_lesson, tmp_path):
    two_lessons(make_lesson)
    out = tmp_path / "out"
    assert build(tmp_path) == 0
    made = {name: f"made by pdf or slides: {name}".encode() for slug in ("alpha", "beta")
            for name in SitePaths.made_from_page(slug)}   # (what `pdf` and `slides` write beside the site)
    for name, data in made.items():
        (out / name).write_bytes(data)
    assert build(tmp_path) == 0
    assert {name: (out / name).read_bytes() for name in made} == made          # nothing changed: all kept
    edit(tmp_path / "content" / "alpha", "第一课的正文", "第一课改过的正文")
    assert build(tmp_path) == 0
    present = {name for name in made if (out / name).exists()}
    assert present == set(SitePaths.made_from_page("beta"))                      # alpha's page changed: its went


def test_one_lesson_built_into_the_site_leaves_the_others(make_lesson, tmp_path):
    two_lessons(make_lesson)
    out = tmp_path / "out"
    assert build(tmp_path) == 0
    before = snapshot(out)
    edit(tmp_path / "content" / "alpha", "第一课的正文", "第一课改过的正文")
    edit(tmp_path / "content" / "beta", "第二课的正文", "第二课改过的正文")      # not built now: left as it was
    assert build(tmp_path, "--lesson", "alpha") == 0
    after = snapshot(out)
    changed = {name for name in after if before.get(name) != after[name]}
    assert changed and all(name.startswith("alpha/") for name in changed), changed
    assert set(after) == set(before)                                             # nothing lost
    assert "第一课改过的正文" in after["alpha/index.html"].decode()
    assert "第二课的正文" in after["beta/index.html"].decode()


def test_one_lesson_built_into_an_empty_folder_is_a_site_of_its_own(make_lesson, tmp_path):
    two_lessons(make_lesson)
    assert build(tmp_path, "--lesson", "alpha") == 0
    site = snapshot(tmp_path / "out")
    assert "alpha/index.html" in site and "index.html" in site and not any(n.startswith("beta/") for n in site)
