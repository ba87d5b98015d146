"""A lesson of a real chapter's shape fits the default page budget without cutting anything: d2l-zh's gradient
descent as tests/chapter_lesson.py writes it — nine line figures of 2 001-point curves (three of two panels), an
explorer with a figure for each of its five learning rates, thirteen code listings, eleven numbered equations and
three challenges with self-checks — builds within 250 KB raw and 60 KB gzip, every figure with its data table and
the CSV of every row, and its notebook runs without lessonkit and draws every figure."""
from __future__ import annotations

import gzip
import re

import pytest

import chapter_lesson
import notebook_runs
from test_notebook import run_notebook

SLUG = chapter_lesson.SLUG


@pytest.fixture(scope="module")
def built(fixture_course):
    """The fixture course (tests/conftest.py): the chapter beside the other fixture lessons, no site.yaml (the default
    budget), built once per run; a page over its budget is a build error."""
    return fixture_course


def test_the_chapter_fits_the_default_budget(built):
    page = (built / "out" / SLUG / "index.html").read_bytes()
    assert len(page) <= 250 * 1024 and len(gzip.compress(page, 9)) <= 60 * 1024, (len(page), len(gzip.compress(page)))


def test_nothing_was_cut(built):
    page = (built / "out" / SLUG / "index.html").read_text(encoding="utf-8")
    figures = dict(re.findall(r'<figure id="fig-(\w+)" class="figure">(.*?)</figure>', page, re.S))
    assert set(figures) == set(chapter_lesson.FIGURES)
    for name, figure in figures.items():
        panels = len(re.findall(r"<svg\b", figure))
        assert panels == (2 if name in chapter_lesson.TWO_PANEL else 1), name
        assert '<details class="figure-data">' in figure, name  # every figure's data table
    explorer = re.search(r'<div class="widget widget-explorer" id="widget-lr_explorer".*?</script>\n</div>', page, re.S)
    states = re.findall(r'<div class="figure-svg ex-figure[^"]*" data-state="(\d)" role="img"[^>]*>\s*<svg', explorer.group(0))
    assert sorted(states) == [str(i) for i in range(len(chapter_lesson.RATES))]  # a figure for every state, once
    assert len(re.findall(r'<div class="code-listing" id="code-\w+"', page)) == chapter_lesson.LISTINGS
    assert len(re.findall(r'<span class="equation" id="eq-[\w-]+"', page)) == chapter_lesson.EQUATIONS
    assert len(re.findall(r'<div class="selfcheck" data-widget="selfcheck"', page)) == 3


def test_every_curve_keeps_its_2001_points_in_its_csv(built):
    """The curves are drawn from every point (their data records them all) and each CSV holds every row."""
    folder = built / "out" / SLUG
    page = (folder / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="(data/fig-\w+(?:-\d+)?\.csv)" download="fig-\w+(?:-\d+)?\.csv">', page)
    rows = {link: (folder / link).read_bytes().count(b"\r\n") - 1 for link in links}
    curves = [link for link, n in rows.items() if n == chapter_lesson.CURVE_POINTS]
    # the function under each of the seven one-dimensional traces; in flow_vs_steps the gradient flow (left) and its
    # two gaps (right), which share their time axis and so one table
    assert len(curves) == 7 + 2, rows
    assert {re.match(r"data/fig-(\w+?)(?:-\d+)?\.csv", link).group(1) for link in links} == set(chapter_lesson.FIGURES)


def test_its_notebook_runs_without_lessonkit_and_draws_every_figure(built, tmp_path, tmp_path_factory):
    python = notebook_runs.plain_python_for_run(tmp_path_factory)   # made once per run
    result = run_notebook(python, built / "out" / SLUG / f"{SLUG}.ipynb", tmp_path)
    assert set(chapter_lesson.FIGURES) <= set(result["figures"])
    lines = result["figures"]["trace_small"][0]["lines"]
    assert len(lines[0]) == chapter_lesson.CURVE_POINTS   # the parabola, every point
    assert result["values"]["final_basic"] == pytest.approx(10 * 0.6 ** 10)  # x ← x − 0.2·2x = 0.6x, ten times
