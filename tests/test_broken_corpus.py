"""A corpus of broken lessons, one defect each, built through the real command line.

Each folder in tests/broken/ is a small valid lesson with one mistake; a few cases (text in GBK, binary junk,
symbolic links leading out of the lesson) are made here instead of being committed. EXPECTED holds the exact lines
an author sees for each, without the `content/` every path starts with (paths are shown from the project, the content
folder's parent: here the temporary folder). Lines are
checked by hand: e.g. `summary: [没有关上的括号` leaves a flow list open (YAML gives up at line 3, the `:` after
`objectives`), so the message points at line 2, column 10, the `[` that opened it.
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
        "`![diagram](diagram.svg)`)",
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
        "md-bad-latex/lesson.md:5: `{` that is never closed (expected each `{` closed by its own `}`)"],
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
    "md-toggle-stray-text": [  # a toggle shows only its states: this line would never be seen
        "md-toggle-stray-text/lesson.md:6: `::: toggle` shows only its `::: state` blocks: this is outside any of "
        "them (expected the content inside a `::: state TITLE` … `:::` block, or after the closing `:::` of the "
        "`::: toggle` block)",
    ],
    "md-unclosed-callout": [
        "md-unclosed-callout/lesson.md:5: `::: note` block is never closed (expected a line with only `:::`)",
    ],
    "md-unclosed-fence": [
        "md-unclosed-fence/lesson.md:5: code block is never closed (expected a closing ```)",
    ],
    "md-unknown-callout": [
        "md-unknown-callout/lesson.md:5: unknown block kind `::: danger` (expected one of note, tip, warning, "
        "info, cards, card, toggle, state, tabs, tab, notes)",
    ],
    "md-unknown-figure": [
        "md-unknown-figure/lesson.md:5: unknown figure `curve` (expected a figure defined with @lesson.figure"
        " in lesson.py: none)",
    ],
    "md-unknown-figure-ref": [
        "md-unknown-figure-ref/lesson.md:5: reference to unknown figure `@fig:curve` (expected a figure "
        "placed in the lesson: none)",
    ],
    "md-unknown-equation-ref": [  # the equation is labelled `power`
        "md-unknown-equation-ref/lesson.md:7: reference to unknown equation `@eq:powr`; did you mean `power`? "
        "(expected an equation labelled `$$ … $$ {#eq:NAME}` in the lesson: power)",
    ],
    "md-latex-unknown-environment": [  # latex2mathml would drop both `\\begin`s and show their contents unaligned
        "md-latex-unknown-environment/lesson.md:6: LaTeX environment `align`: lessonkit numbers equations itself "
        "(expected `$$ … $$ {#eq:NAME}` to number an equation (its rows aligned by `aligned` inside it) and "
        "`@eq:NAME` to refer to it)",
        "md-latex-unknown-environment/lesson.md:11: LaTeX environment `foo` cannot be shown (expected one of: "
        "aligned, split, cases, array, matrix, pmatrix, bmatrix, Bmatrix, vmatrix, Vmatrix, smallmatrix)",
    ],
    "md-latex-stray-ampersand": [  # the formula starts at line 5: its `\\` is on line 6, its `&` on line 7
        "md-latex-stray-ampersand/lesson.md:6: line break `\\\\` outside an alignment: MathML in a browser does "
        "not break lines (expected the rows inside an `aligned` environment (or `cases`, a matrix), or two formulas)",
        "md-latex-stray-ampersand/lesson.md:7: `&` outside an alignment: it would show as a literal `&` (expected "
        "`&` only inside `aligned`, `split`, `cases` or a matrix; `\\&` for the sign)",
    ],
    "md-latex-label": [
        "md-latex-label/lesson.md:3: `\\label` in a formula: equations are numbered by lessonkit (expected "
        "`$$ … $$ {#eq:NAME}` to number an equation and `@eq:NAME` to refer to it)",
        "md-latex-label/lesson.md:5: `\\eqref` in a formula: equations are numbered by lessonkit (expected "
        "`$$ … $$ {#eq:NAME}` to number an equation and `@eq:NAME` to refer to it)",
    ],
    "md-unknown-code": [
        "md-unknown-code/lesson.md:5: unknown function `two_pwo` in lesson.py; did you mean `two_pow`? (expected a "
        "function defined in lesson.py: two_pow)",
    ],
    "md-citation-without-bibliography": [
        "md-citation-without-bibliography/lesson.md:3: citation `[@knuth1984]` but there is no content/references.bib "
        "(expected a BibTeX file content/references.bib next to the lesson folders, or references.bib in the lesson's "
        "folder)",
    ],
    "yaml-answer-unknown-figure": [
        "yaml-answer-unknown-figure/lesson.yaml:11: unknown figure `powers` (expected a figure defined with "
        "@lesson.figure in lesson.py: none)",
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
    "py-figure-data-unknown": [
        "py-figure-data-unknown/lesson.py:16: figure `curve`: `data=` names no value `curve_pionts`; did you mean "
        "`curve_points`? (expected the name of a `@lesson.value` holding a table)",
    ],
    "py-figure-data-not-a-table": [
        "py-figure-data-not-a-table/lesson.py:16: figure `curve`: the value `curve_points` is not figure data: the "
        "columns have different lengths (2, 3) (expected a table: `table(…)`, a dict of columns, a list of dicts "
        "or a list of rows)",
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
        "py-widget-object/lesson.py:11: widget `shelf` returned data that is not plain JSON: Object of type set "
        "is not JSON serializable (expected lists, dicts, strings and finite numbers)",
    ],
    "py-widget-nan": [  # a kind of the lesson's own: the key path is all the engine can say
        "py-widget-nan/lesson.py:11: widget `shelf` returned NaN or ∞ at `weights[1]` (expected finite numbers (or "
        "None for a gap))",
    ],
    "py-explorer-value-key": [  # `value` for `values`: the page would show no rows, silently
        "py-explorer-value-key/lesson.py:13: `explorer(…)`: unknown key `states[0].value`; did you mean `values`? "
        "(the state at n = 1) (expected one of: values, text)",
    ],
    "py-explorer-nan": [  # the second point, n = 2: its second row `(label, number)`, item 1
        "py-explorer-nan/lesson.py:16: `explorer(…)`: `states[1].values[1][1]` is NaN, not a finite number (the "
        "state at n = 2) (expected a finite number (or None for a gap))",
    ],
    "py-explorer-rows": [  # the table's columns and the script's rows come from the first state
        "py-explorer-rows/lesson.py:13: `explorer(…)`: `states[1].values` has the labels n, n², but `states[0]."
        "values` n (the state at n = 2) (expected the same rows, with the same labels, in every state (each label "
        "is a column of the table))",
    ],
    "py-mask-table-keys": [
        "py-mask-table-keys/lesson.py:11: widget `mask_table` (kind `mask_table`): unknown key `intial_mode`; did "
        "you mean `initial_mode`? (expected one of: rows, cols, context, initial_mode, modes)",
        "py-mask-table-keys/lesson.py:11: widget `mask_table` (kind `mask_table`): missing required key "
        "`initial_mode` (expected the `key` of the mode shown first)",
    ],
    "py-mask-table-mode": [  # no mode is `casual`: the live table would not be drawn at all
        "py-mask-table-mode/lesson.py:11: widget `mask_table` (kind `mask_table`): `initial_mode` 'casual' is not "
        "the key of a mode; did you mean `causal`? (expected the key of one of the modes: causal)",
    ],
    "py-bars-highlight": [  # no bar would be highlighted
        "py-bars-highlight/lesson.py:13: `bars(…)`: `highlight[0]` '解码' is not one of the labels; did you mean "
        "`解码器`? (expected labels from `labels`: 编码器, 解码器)",
    ],
    "py-table-nan": [  # the second row of the dict of columns, its second column
        "py-table-nan/lesson.py:13: `table(…)`: cell `rows[1][1]` (column `1 / n`): cannot show nan: the value is "
        "nan, not a finite number (expected a list of dicts, a dict of lists or a list of rows, of finite numbers "
        "and texts)",
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
        "yaml-syntax/lesson.yaml:2: YAML syntax error, column 10: text that starts with `[` or `{` is read as a YAML "
        "list or mapping (so is `{{ value }}` at the start) (expected the whole text in quotes, e.g. "
        "`- \"{{ n }} numbers\"`)",
    ],
    "yaml-syntax-no-follow-on": [  # lesson.md places the self-check the broken lesson.yaml defines: no second error
        "yaml-syntax-no-follow-on/lesson.yaml:8: YAML syntax error, column 1: a tab character: YAML indents with "
        "spaces only (expected spaces instead of the tab)",
    ],
    "yaml-swallowed-item": [  # YAML reads the over-indented line as more of item 2: 4 objectives would become 3
        "yaml-swallowed-item/lesson.yaml:6: this line starts with `- `, but YAML reads it as more of the text on "
        "line 5 (it is indented deeper than a list item would be) (expected each list item `- ` at the same "
        "indentation as the others (or the text in quotes, if the `- ` belongs to it))",
    ],
    "yaml-latex-escape": [  # "\frac" would become a form feed and "rac", "\theta" a tab and "heta"
        "yaml-latex-escape/lesson.yaml:4: `\\frac` inside \"double quotes\" starts with the YAML escape `\\f` (a "
        "control character), not LaTeX (expected 'single quotes' (or a `|` block) around text with LaTeX)",
        "yaml-latex-escape/lesson.yaml:4: `\\theta` inside \"double quotes\" starts with the YAML escape `\\t` (a "
        "control character), not LaTeX (expected 'single quotes' (or a `|` block) around text with LaTeX)",
    ],
    "yaml-colon-in-item": [
        "yaml-colon-in-item/lesson.yaml:5: `objectives` item 2 is read as `key: value`: its text has a `: ` in it "
        "(expected the text in quotes, e.g. `- \"Note: here\"`)",
    ],
    "yaml-indentation": [
        "yaml-indentation/lesson.yaml:7: YAML syntax error, column 6: this line is indented more than the key before "
        "it, so YAML reads it as more text of that key (expected keys (and list items `- `) of one level starting at "
        "the same column, indented with spaces)",
    ],
    "yaml-unknown-key": [
        "yaml-unknown-key/lesson.yaml:5: unknown key `objective`; did you mean `objectives`? (expected one "
        "of: title, summary, order, objectives, question, intro, challenges, checks, sources, draft, release, "
        "answers, mastery, budget, requires)",
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
    # a lesson's own component script (widgets/<kind>/widget.js), parsed at build time
    "js-syntax-error": [  # the click handler's `}` is missing: the parser stops at line 11's `);`
        "js-syntax-error/widgets/shelf/widget.js:11: JavaScript syntax error, column 3: missing `}` before `);` "
        "(expected valid JavaScript (check brackets, braces and quotes))",
    ],
    "js-registers-another-name": [
        "js-registers-another-name/widgets/jacobian_grid/widget.js:2: registers kind `jacobian-grid`, but its folder "
        "is `jacobian_grid` (expected `lessonkit.widget('jacobian_grid', function (root, data) { … })`: a component "
        "registers under its folder's name)",
    ],
    "js-registers-nothing": [
        "js-registers-nothing/widgets/shelf/widget.js: registers no kind: nothing on the page would start this "
        "component (expected `lessonkit.widget('shelf', function (root, data) { … })`: a component registers under "
        "its folder's name)",
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
        "md-symlink-outside/lesson.md: is a symbolic link to outside/outside.md, outside the lesson folder (expected a "
        "real file inside the lesson folder)",
    ],
    "yaml-symlink-outside": [
        "yaml-symlink-outside/lesson.yaml: is a symbolic link to outside/outside.yaml, outside the lesson folder "
        "(expected a real file inside the lesson folder)",
    ],
    "image-symlink-outside": [
        "image-symlink-outside/lesson.md:5: image `diagram.svg` is a symbolic link to outside/outside.svg, outside the "
        "lesson folder (expected a real file inside the lesson folder (copy it in instead of linking))",
    ],
    "py-data-symlink-outside": [
        "py-data-symlink-outside/lesson.py:13: data file `data.csv` is a symbolic link to outside/outside.csv, outside "
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
    assert str(tmp_path.resolve()) not in err  # files are named from the project: content/<slug>/…
    return code, err.replace("  content/", "  ").splitlines(), err, out


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


def tied_course(content: Path) -> None:
    """Three copies of a valid lesson, two of them with `order: 2` (line 3 of their lesson.yaml)."""
    for slug, order in (("alpha", 2), ("beta", 1), ("gamma", 2)):
        shutil.copytree(BROKEN / "yaml-syntax", content / slug)
        (content / slug / "lesson.yaml").write_text(f"title: 小课\nsummary: 一节\norder: {order}\nobjectives:\n  - 看懂\n",
                                                    encoding="utf-8")


TIE = ("gamma/lesson.yaml:3: `order: 2` is also the order of content/alpha/lesson.yaml:3: the index lists the two by "
       "folder name (expected a different `order` for each lesson)")


def test_two_lessons_with_one_order_build_with_a_warning_naming_both(tmp_path, capsys):
    tied_course(tmp_path / "content")
    code = main(["build", "-q", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
                 "--cache-dir", str(tmp_path / "cache")])
    lines = capsys.readouterr().err.replace("  content/", "  ").splitlines()
    assert code == 0 and (tmp_path / "out" / "index.html").is_file()
    assert lines == ["warning: 1 thing(s) to check (the site was built; --strict makes them errors):", f"  {TIE}"]


def test_under_strict_the_tie_is_an_error(tmp_path, capsys):
    tied_course(tmp_path / "content")
    code = main(["build", "--strict", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
                 "--cache-dir", str(tmp_path / "cache")])
    lines = capsys.readouterr().err.replace("  content/", "  ").splitlines()
    assert code == 1 and not (tmp_path / "out").exists()
    assert lines == [HEADER.format(n=1), f"  {TIE}"]


def test_ci_install_and_publishing_build_strictly():
    from lesson_folders import PROJECT

    install = (PROJECT / "install.sh").read_text(encoding="utf-8")
    assert ".venv/bin/python build.py --strict" in install
    assert "./install.sh" in (PROJECT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python build.py --strict --out output" in (PROJECT / ".github" / "workflows" / "pages.yml").read_text(
        encoding="utf-8")


def test_a_glossary_that_does_not_parse_adds_no_follow_on_errors(tmp_path, capsys):
    """The lesson marks 「[[注意力]]」; glossary.yaml's definition opens a `[` that YAML never sees closed (line 5,
    column 17): that is the one problem, not also an unknown term in lesson.md."""
    content = tmp_path / "content"
    shutil.copytree(BROKEN / "yaml-syntax", content / "marks")
    shutil.copy(BROKEN / "md-empty" / "lesson.yaml", content / "marks" / "lesson.yaml")
    (content / "marks" / "lesson.md").write_text("## 第一节 {#first}\n\n[[注意力]] 是 {{ two_pow }}。\n", encoding="utf-8")
    (content / "glossary.yaml").write_text("terms:\n  - id: attention\n    zh: 注意力\n    en: attention\n"
                                           "    definition: [没有关上\n", encoding="utf-8")
    code, lines, err, _ = build(tmp_path, capsys)
    assert code == 1
    assert lines == [HEADER.format(n=1), "  glossary.yaml:5: YAML syntax error, column 17: text that starts with `[` or "
                     "`{` is read as a YAML list or mapping (so is `{{ value }}` at the start) (expected the whole text "
                     "in quotes, e.g. `- \"{{ n }} numbers\"`)"]
