"""A real notebook with 3-D surfaces — CFD Python's step 9, the 2-D Laplace equation (tests/fixtures/cfdpython,
CC BY text, BSD-3 code: see its README) — imported and built on the first try: only the notebook's own call that
matplotlib removed is mended. Its setext title is the lesson's, its licence cell the lesson's source, both surfaces
are on the page as light pictures with their data, its maths is MathML, the page fits the default budget, and
`--strict` names nothing but the placeholders the import left."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

from lessonkit.cli import main
from pagetext import visible_text

FIXTURE = Path(__file__).parent / "fixtures" / "cfdpython"
STALE, MENDED = "fig.gca(projection='3d')", "fig.add_subplot(projection='3d')"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    root = tmp_path_factory.mktemp("cfd")
    shutil.copytree(FIXTURE, root / "notebook")
    content = root / "content"
    assert main(["import", str(root / "notebook" / "12_Step_9.ipynb"), "laplace", "--content", str(content),
                 "--quiet"]) == 0
    code = content / "laplace" / "lesson.py"
    assert code.read_text(encoding="utf-8").count(STALE) == 1
    code.write_text(code.read_text(encoding="utf-8").replace(STALE, MENDED), encoding="utf-8")
    return root, content


def build(root: Path, content: Path, *extra: str) -> int:
    return main(["build", "--quiet", "--content", str(content), "--out", str(root / "out"), "--cache-dir",
                 str(root / "cache"), *extra])


def test_it_builds_on_the_first_build_within_the_default_budget(imported, capsys):
    root, content = imported
    assert build(root, content) == 0, capsys.readouterr().err
    yaml = (content / "laplace" / "lesson.yaml").read_text(encoding="utf-8")
    assert yaml.startswith('title: "12 steps to Navier–Stokes"\n')           # its setext heading
    assert "sources:\n  - \"Text provided under a Creative Commons Attribution license, CC-BY." in yaml
    page = (root / "out" / "laplace" / "index.html").read_text(encoding="utf-8")
    notebook = nbformat.read(str(FIXTURE / "12_Step_9.ipynb"), as_version=4)
    drew = sum(any("image/png" in (o.get("data") or {}) for o in c.get("outputs", [])) for c in notebook.cells
               if c.cell_type == "code")
    figures = re.findall(r'<figure id="fig-(figure\d)"', page)
    assert drew == 2 and figures == ["figure1", "figure2"]
    for name in figures:                       # each a picture inside its SVG, its data a CSV of x, y, z
        csv = (root / "out" / "laplace" / "data" / f"fig-{name}.csv").read_text(encoding="utf-8-sig")
        assert csv.splitlines()[0] == "x,y,z" and len(csv.splitlines()) > 100
    for name in figures:                       # drawn as a picture inside the SVG, axes and text vector: light
        svg = re.search(rf'<figure id="fig-{name}".*?</svg>', page, re.S).group(0)
        assert "<image" in svg and "<text" in svg and len(svg) < 70 * 1024, len(svg)
    text = visible_text(page)
    assert "\\frac" not in text and "$$" not in text and "\\partial" not in text    # its maths: MathML
    assert page.count("<math") > 5


def test_strict_names_only_the_placeholders(imported, capsys):
    root, content = imported
    capsys.readouterr()
    assert build(root, content, "--strict") == 1
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("  ")]
    assert len(said) == 6 and all("lessonkit import" in line for line in said), said


def test_step_11_cavity_flow_contours_and_arrows_build_first_time_every_figure_with_its_data(tmp_path, capsys):
    """Step 11, cavity flow (the same repository and licence): filled contours with arrows over them and a
    streamline plot, imported unchanged and built on the first try within the default budget, each figure with its
    data as CSV — the pressure grid as x, y, z, the arrows as x, y, u, v — and nothing said to be left out."""
    shutil.copytree(FIXTURE, tmp_path / "notebook")
    content = tmp_path / "content"
    assert main(["import", str(tmp_path / "notebook" / "14_Step_11.ipynb"), "cavity", "--content", str(content),
                 "--quiet"]) == 0
    capsys.readouterr()
    assert build(tmp_path, content) == 0, capsys.readouterr().err
    said = capsys.readouterr()
    assert "no data table" not in said.out + said.err and "数据表" not in said.out + said.err
    notebook = nbformat.read(str(FIXTURE / "14_Step_11.ipynb"), as_version=4)
    drew = sum(any("image/png" in (o.get("data") or {}) for o in c.get("outputs", [])) for c in notebook.cells
               if c.cell_type == "code")
    page = (tmp_path / "out" / "cavity" / "index.html").read_text(encoding="utf-8")
    figures = re.findall(r'<figure id="fig-(figure\d)"', page)
    assert drew == 3 and figures == ["figure1", "figure2", "figure3"]
    headers = {path.name: path.read_text(encoding="utf-8-sig").splitlines()[0]
               for path in (tmp_path / "out" / "cavity" / "data").glob("fig-*.csv")}
    for name in figures:
        assert any(file.startswith(f"fig-{name}") for file in headers), (name, sorted(headers))
    assert headers["fig-figure1-1.csv"] == "X,Y,z" and headers["fig-figure1-2.csv"] == "X,Y,u,v", headers
