"""A corpus of broken lessons, one defect each, built through the real command line.

Each folder in tests/broken/ is a small valid lesson with one mistake; a few cases (text in GBK, binary junk,
symbolic links leading out of the lesson) are made here instead of being committed. EXPECTED holds the exact lines
an author sees for each, with the content folder's path removed and the temporary folder written as TMP. Lines are
checked by hand: e.g. `summary: [没有关上的括号` leaves the flow list open, so YAML fails at line 3, column 11,
the `:` after `objectives`.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lessonkit.cli import main

BROKEN = Path(__file__).parent / "broken"
HEADER = "error: the content has {n} problem(s); nothing was written:"

EXPECTED = {
    "Bad_Slug": [
        "Bad_Slug: lesson folder name `Bad_Slug` is not a URL-safe slug (expected lowercase ASCII letters, "
        "digits and hyphens, e.g. `transformer-basics`)",
    ],
    "image-absolute": [
        "image-absolute/lesson.md:5: image `/etc/diagram.svg` is an absolute path: content may only use files"
        " in its lesson folder (expected a path relative to the lesson folder, e.g. `data.csv` or "
        "`img/diagram.svg`)",
    ],
    "image-external": [
        "image-external/lesson.md:5: image `https://example.com/diagram.png` is not a file in the lesson "
        "folder: pages make no network requests (expected an image file in the lesson folder, e.g. "
        "`![示意图](diagram.svg)`)",
    ],
    "image-missing": [
        "image-missing/lesson.md:5: image `diagram.svg` not found in the lesson folder (expected an existing "
        "file in the lesson folder (names are case-sensitive))",
    ],
    "image-no-alt": [
        "image-no-alt/lesson.md:5: image `diagram.svg` has no alt text (expected `![what the image "
        "shows](diagram.svg)`)",
    ],
    "image-not-an-image": [
        "image-not-an-image/lesson.md:5: image `photo.png` is not a PNG image (expected a real PNG file, or "
        "the right extension)",
    ],
    "image-parent": [
        "image-parent/lesson.md:5: image `../image-ok/diagram.svg` leaves the lesson folder (`..`) (expected "
        "a path relative to the lesson folder, e.g. `data.csv` or `img/diagram.svg`)",
    ],
    "image-wrong-type": [
        "image-wrong-type/lesson.md:5: image `diagram.bmp` has an unsupported type (expected one of .png, "
        ".jpg, .jpeg, .gif, .webp, .svg)",
    ],
    "md-bad-directive": [
        "md-bad-directive/lesson.md:5: cannot read directive `{{< figure >}}` (expected `{{< figure NAME >}}`"
        " or `{{< widget NAME >}}` alone on a line)",
    ],
    "md-bad-latex": [
        "md-bad-latex/lesson.md:5: cannot convert math `\\frac{1}{`: the formula ends too early (an unclosed "
        "`{` or a command missing its argument) (expected valid LaTeX)",
    ],
    "md-duplicate-section-id": [
        "md-duplicate-section-id/lesson.md:5: duplicate section id `first` (first at line 1) (expected a "
        "unique `{#id}` per section)",
    ],
    "md-empty": [
        "md-empty/lesson.md:1: file is empty (expected sections starting with `## Section title {#id}`)",
    ],
    "md-inf-in-list": [
        "md-inf-in-list/lesson.md:5: cannot show value `grows`: the value is inf, not a finite number "
        "(expected a finite number, list or string)",
    ],
    "md-missing": [
        "md-missing/lesson.md: file is missing (expected the lesson body in Markdown)",
    ],
    "md-nan-value": [
        "md-nan-value/lesson.md:5: cannot show value `zero_by_zero`: the value is nan, not a finite number "
        "(expected a finite number, list or string)",
    ],
    "md-raw-html": [
        "md-raw-html/lesson.md:5: raw HTML attribute `style=`: the page's Content-Security-Policy blocks it "
        "(pages run only lessonkit's own script and style, and load nothing) (expected Markdown, "
        "`![alt](file.png)` for images, or a widget)",
        "md-raw-html/lesson.md:7: raw HTML `<script>`: the page's Content-Security-Policy blocks it (pages "
        "run only lessonkit's own script and style, and load nothing) (expected Markdown, `![alt](file.png)` "
        "for images, or a widget)",
    ],
    "md-text-before-section": [
        "md-text-before-section/lesson.md:1: text before the first `## ` section heading (expected the body "
        "to start with `## Section title {#id}`; put the intro in lesson.yaml)",
    ],
    "md-unclosed-callout": [
        "md-unclosed-callout/lesson.md:5: `::: note` block is never closed (expected a line with only `:::`)",
    ],
    "md-unclosed-fence": [
        "md-unclosed-fence/lesson.md:5: code block is never closed (expected a closing ```)",
    ],
    "md-unknown-callout": [
        "md-unknown-callout/lesson.md:5: unknown block kind `::: danger` (expected one of note, tip, warning, "
        "info, cards, card, toggle, state, notes)",
    ],
    "md-unknown-figure": [
        "md-unknown-figure/lesson.md:5: unknown figure `curve` (expected a figure defined with @lesson.figure"
        " in lesson.py: none)",
    ],
    "md-unknown-figure-ref": [
        "md-unknown-figure-ref/lesson.md:5: reference to unknown figure `@fig:curve` (expected a figure "
        "placed in the lesson: none)",
    ],
    "md-unknown-value": [
        "md-unknown-value/lesson.md:3: unknown value `two_pwo`; did you mean `two_pow`? (expected a value "
        "defined in lesson.py: two_pow)",
    ],
    "md-unknown-widget": [
        "md-unknown-widget/lesson.md:5: unknown widget `slider` (expected a widget defined with "
        "@lesson.widget in lesson.py: none)",
    ],
    "py-cycle": [
        "py-cycle/lesson.py:11: values depend on each other in a cycle: a → b → a (expected a value may not "
        "depend on itself)",
    ],
    "py-data-absolute": [
        "py-data-absolute/lesson.py:13: data file `/etc/passwd` is an absolute path: content may only use "
        "files in its lesson folder (expected a path relative to the lesson folder, e.g. `data.csv` or "
        "`img/diagram.svg`)",
    ],
    "py-data-missing": [
        "py-data-missing/lesson.py:13: data file `data.csv` not found in the lesson folder (expected an "
        "existing file in the lesson folder (names are case-sensitive))",
    ],
    "py-data-parent": [
        "py-data-parent/lesson.py:13: data file `../py-data-parent/../../secret.txt` leaves the lesson folder"
        " (`..`) (expected a path relative to the lesson folder, e.g. `data.csv` or `img/diagram.svg`)",
    ],
    "py-figure-not-placed": [
        "py-figure-not-placed/lesson.md: figure `curve` is defined in lesson.py but never placed (expected a "
        "line `{{< figure curve >}}` in lesson.md)",
    ],
    "py-figure-raises": [
        "py-figure-raises/lesson.py:14: the lesson code raised ValueError: x and y must have same first "
        "dimension, but have shapes (2,) and (3,) (expected lesson code that runs without error)",
    ],
    "py-no-registry": [
        "py-no-registry/lesson.py: defines no `lesson = Lesson()` registry (expected a module-level `lesson ="
        " Lesson()` from lessonkit)",
    ],
    "py-raises": [
        "py-raises/lesson.py:13: the lesson code raised ZeroDivisionError: division by zero (expected lesson "
        "code that runs without error)",
    ],
    "py-syntax-error": [
        "py-syntax-error/lesson.py:12: the lesson code raised SyntaxError: invalid syntax (lesson.py, line "
        "12) (expected lesson code that runs without error)",
    ],
    "py-unknown-dependency": [
        "py-unknown-dependency/lesson.py:11: `doubled` asks for unknown value `two_pwo` (expected one of: "
        "doubled, two_pow)",
    ],
    "py-widget-object": [
        "py-widget-object/lesson.py:11: widget `mask_table` returned data that is not plain JSON: Object of type set "
        "is not JSON serializable (expected lists, dicts, strings and finite numbers)",
    ],
    "py-widget-nan": [
        "py-widget-nan/lesson.py:11: widget `mask_table` returned data containing NaN or ∞ (expected finite numbers "
        "(or None for a gap))",
    ],
    "yaml-challenge-item": [
        "yaml-challenge-item/lesson.yaml:6: missing required key `challenges.0.answer` (expected the answer, "
        "in Markdown; may use {{ values }} and $math$)",
    ],
    "yaml-duplicate-key": [
        "yaml-duplicate-key/lesson.yaml:5: duplicate key `title` (first at line 1) (expected each key once)",
    ],
    "yaml-empty": [
        "yaml-empty/lesson.yaml:1: file is empty (expected a mapping with at least `title` and `summary`)",
    ],
    "yaml-missing-key": [
        "yaml-missing-key/lesson.yaml: missing required key `summary` (expected one line for the index page)",
    ],
    "yaml-not-mapping": [
        "yaml-not-mapping/lesson.yaml:1: top level is not a mapping (expected `key: value` lines such as "
        "`title: …`)",
    ],
    "yaml-syntax": [
        "yaml-syntax/lesson.yaml:3: YAML syntax error, column 11: expected ',' or ']', but got ':' (expected "
        "valid YAML (check indentation and quotes))",
    ],
    "yaml-unknown-key": [
        "yaml-unknown-key/lesson.yaml:5: unknown key `objective`; did you mean `objectives`? (expected one "
        "of: title, summary, order, objectives, question, intro, challenges, checks, sources)",
    ],
    "yaml-unknown-value": [
        "yaml-unknown-value/lesson.yaml:5: unknown value `two_pwo`; did you mean `two_pow`? (expected a value"
        " defined in lesson.py: two_pow)",
    ],
    "yaml-wrong-type": [
        "yaml-wrong-type/lesson.yaml:3: `order` is text ('第一') (expected position on the index page)",
        "yaml-wrong-type/lesson.yaml:4: `objectives` is text ('不是列表') (expected a list of learning objectives"
        " (Markdown))",
    ],
    # made by make_generated(): bytes and links git should not carry
    "md-gbk": [
        "md-gbk/lesson.md:1: file is not UTF-8; it looks like GBK/GB18030 (common on Chinese Windows): re-save it "
        "as UTF-8 (expected UTF-8 text)",
    ],
    "yaml-gbk": [
        "yaml-gbk/lesson.yaml:1: file is not UTF-8; it looks like GBK/GB18030 (common on Chinese Windows): re-save "
        "it as UTF-8 (expected UTF-8 text)",
    ],
    "py-gbk": [
        "py-gbk/lesson.py:2: file is not UTF-8; it looks like GBK/GB18030 (common on Chinese Windows): re-save it "
        "as UTF-8 (expected UTF-8 text)",
    ],
    "md-binary": ["md-binary/lesson.md: file contains binary data (NUL bytes) (expected a UTF-8 text file)"],
    "py-binary": ["py-binary/lesson.py: file contains binary data (NUL bytes) (expected a UTF-8 text file)"],
    "md-symlink-outside": [
        "md-symlink-outside/lesson.md: is a symbolic link to TMP/outside.md, outside the lesson folder (expected a "
        "real file inside the lesson folder)",
    ],
    "yaml-symlink-outside": [
        "yaml-symlink-outside/lesson.yaml: is a symbolic link to TMP/outside.yaml, outside the lesson folder "
        "(expected a real file inside the lesson folder)",
    ],
    "image-symlink-outside": [
        "image-symlink-outside/lesson.md:5: image `diagram.svg` is a symbolic link to TMP/outside.svg, outside the "
        "lesson folder (expected a real file inside the lesson folder (copy it in instead of linking))",
    ],
    "py-data-symlink-outside": [
        "py-data-symlink-outside/lesson.py:13: data file `data.csv` is a symbolic link to TMP/outside.csv, outside "
        "the lesson folder (expected a real file inside the lesson folder (copy it in instead of linking))",
    ],
    "md-is-a-folder": [
        "md-is-a-folder/lesson.md: cannot read the file: Is a directory (expected a readable text file)",
    ],
    "py-data-gbk": [
        "py-data-gbk/data.csv:1: file is not UTF-8; it looks like GBK/GB18030 (common on Chinese Windows): re-save "
        "it as UTF-8 (expected UTF-8 text)",
    ],
}

READ_DATA = "\n\n@lesson.value\ndef table():\n    return lesson.read_text(\"data.csv\")\n"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>\n'


def make_generated(case: str, folder: Path, outside: Path) -> None:
    """Turn a copy of the valid base lesson into one of the cases that are not committed as files."""
    md, yaml, py = (folder / "lesson.md"), (folder / "lesson.yaml"), (folder / "lesson.py")
    if case == "md-gbk":
        md.write_bytes(md.read_text(encoding="utf-8").encode("gbk"))
    elif case == "yaml-gbk":
        yaml.write_bytes(yaml.read_text(encoding="utf-8").encode("gbk"))
    elif case == "py-gbk":
        py.write_bytes(("# coding: gbk\n# 中文注释\n" + py.read_text(encoding="utf-8")).encode("gbk"))
    elif case == "md-binary":
        md.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    elif case == "py-binary":
        py.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    elif case in ("md-symlink-outside", "yaml-symlink-outside"):
        target = yaml if case.startswith("yaml") else md
        linked = outside / f"outside{target.suffix}"
        linked.write_bytes(target.read_bytes())
        target.unlink()
        target.symlink_to(linked)
    elif case == "image-symlink-outside":
        (outside / "outside.svg").write_bytes(SVG)
        (folder / "diagram.svg").symlink_to(outside / "outside.svg")
        md.write_text(md.read_text(encoding="utf-8") + "\n![示意图](diagram.svg)\n", encoding="utf-8")
    elif case == "py-data-symlink-outside":
        (outside / "outside.csv").write_text("a,b\n1,2\n", encoding="utf-8")
        (folder / "data.csv").symlink_to(outside / "outside.csv")
        py.write_text(py.read_text(encoding="utf-8") + READ_DATA, encoding="utf-8")
    elif case == "md-is-a-folder":
        md.unlink()
        md.mkdir()
    elif case == "py-data-gbk":
        (folder / "data.csv").write_bytes("名称,数值\n甲,1\n".encode("gbk"))
        py.write_text(py.read_text(encoding="utf-8") + READ_DATA, encoding="utf-8")
    else:
        raise AssertionError(case)


COMMITTED = sorted(p.name for p in BROKEN.iterdir() if p.is_dir())
GENERATED = sorted(set(EXPECTED) - set(COMMITTED))


def write_case(case: str, content: Path, outside: Path) -> None:
    if case in COMMITTED:
        shutil.copytree(BROKEN / case, content / case, symlinks=True)
    else:
        shutil.copytree(BROKEN / "yaml-syntax", content / case)  # any committed case, then its valid parts
        shutil.copy(BROKEN / "md-empty" / "lesson.yaml", content / case / "lesson.yaml")
        make_generated(case, content / case, outside)


def build(tmp_path: Path, capsys) -> tuple[int, list[str], str, Path]:
    content, out = (tmp_path / "content").resolve(), tmp_path / "out"
    code = main(["build", "--content", str(content), "--out", str(out), "--cache-dir", str(tmp_path / "cache")])
    err = capsys.readouterr().err
    text = err.replace(f"{content}/", "").replace(str(tmp_path.resolve() / "outside"), "TMP")
    return code, text.splitlines(), err, out


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def test_every_committed_case_has_expected_lines():
    assert set(COMMITTED) <= set(EXPECTED)
    assert len(EXPECTED) >= 50


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_broken_lesson_is_reported_exactly(case, tmp_path, capsys, outside):
    write_case(case, tmp_path / "content", outside)
    code, lines, err, out = build(tmp_path, capsys)
    assert code == 1, err
    assert lines == [HEADER.format(n=len(EXPECTED[case]))] + [f"  {line}" for line in EXPECTED[case]]
    assert "Traceback" not in err
    assert not out.exists()


def test_all_broken_lessons_are_reported_in_one_run(tmp_path, capsys, outside):
    """Problems of every lesson and every stage (reading, lesson code, Markdown) come out together."""
    for case in EXPECTED:
        write_case(case, tmp_path / "content", outside)
    code, lines, err, out = build(tmp_path, capsys)
    expected = [line for case in sorted(EXPECTED) for line in EXPECTED[case]]
    assert code == 1
    assert lines == [HEADER.format(n=len(expected))] + [f"  {line}" for line in expected]
    assert not out.exists()


def test_a_lesson_with_yaml_and_markdown_mistakes_reports_both(tmp_path, capsys, outside):
    """A broken lesson.yaml does not hide the body's mistakes: one run, one list."""
    folder = tmp_path / "content" / "two-stages"
    shutil.copytree(BROKEN / "yaml-unknown-key", folder)
    shutil.copy(BROKEN / "md-unknown-value" / "lesson.md", folder / "lesson.md")
    code, lines, _, _ = build(tmp_path, capsys)
    assert code == 1
    assert [line.split(":")[0:2] for line in lines[1:]] == [["  two-stages/lesson.yaml", "5"],
                                                            ["  two-stages/lesson.md", "3"]]
