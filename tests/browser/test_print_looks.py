"""What paper shows, in Chromium's print media (as `build.py pdf` prints): a figure at the size it was drawn, and a
figure's data disclosure never as a dead control. Every lesson in content/ plus the fixture lesson (one figure with
its data)."""
from __future__ import annotations

import pytest

from conftest import FIXTURE

PT = 4 / 3     # CSS px per pt
A4_TEXT = 688  # CSS px: the width Chromium lays out an A4 page at (210 mm less the theme's 14 mm margins)

# each row of a figure's drawings (one picture, or panels side by side): their widths as printed and as drawn (pt)
FIGURE_ROWS = """() => [...document.querySelectorAll('figure.figure .figure-svg')].flatMap(art => {
    const rows = new Map();
    for (const svg of art.querySelectorAll('svg')) {
        if (!svg.getClientRects().length || svg.parentElement.closest('svg')) continue;
        const row = svg.parentElement;
        if (!rows.has(row)) rows.set(row, {figure: art.closest('figure').id, room: row.clientWidth,
                                          gaps: 0, widths: [], drawn: []});
        const r = rows.get(row);
        if (r.widths.length) r.gaps += parseFloat(getComputedStyle(row).columnGap) || 0;
        r.widths.push(svg.getBoundingClientRect().width);
        r.drawn.push(svg.viewBox.baseVal.width);
    }
    return [...rows.values()];
})"""

# (of the figures on paper: not one in an answer, which the student edition leaves out)
DISCLOSURES = """() => [...document.querySelectorAll('details.figure-data')]
    .filter(d => d.closest('figure').querySelector('.figure-svg').checkVisibility()).map(d => ({
    summary: d.querySelector('summary').checkVisibility(),
    tables: [...d.querySelectorAll('table')].map(t => t.checkVisibility()),
    links: [...d.querySelectorAll('.data-csv')].map(l => l.checkVisibility())}))"""


def printed(open_page, site, slug):
    page = open_page((site / slug / "index.html").as_uri(), width=A4_TEXT).page
    page.evaluate("document.documentElement.classList.add('print-student')")   # as `build.py pdf` prints
    page.emulate_media(media="print")
    return page


def test_a_figure_prints_at_the_size_it_was_drawn(open_page, site, slug):
    """matplotlib's SVG measures in pt (its viewBox): on paper a figure is that size, its labels at the size they were
    drawn (a little smaller than the text, as on screen); never stretched, and shrunk only to fit the page's width
    (panels side by side all by one factor)."""
    rows = printed(open_page, site, slug).evaluate(FIGURE_ROWS)
    if slug == FIXTURE:
        assert len(rows) == 1
    for row in rows:
        drawn = [d * PT for d in row["drawn"]]
        scale = min(1.0, (row["room"] - row["gaps"]) / sum(drawn))
        assert row["widths"] == pytest.approx([d * scale for d in drawn], rel=0.02), row


def test_a_figure_data_disclosure_prints_no_control(open_page, site, slug):
    """On paper the data disclosure is no control: closed (as `build.py pdf` prints it) it prints nothing; opened by
    the reader before printing, its tables, without the download links."""
    page = printed(open_page, site, slug)
    closed = page.evaluate(DISCLOSURES)
    if slug == FIXTURE:
        assert len(closed) == 1
    for d in closed:
        assert d == {"summary": False, "tables": [False] * len(d["tables"]), "links": [False] * len(d["links"])}, d
    page.eval_on_selector_all("details.figure-data", "ds => ds.forEach(d => { d.open = true; })")
    for d in page.evaluate(DISCLOSURES):
        assert d["tables"] and d == {"summary": False, "tables": [True] * len(d["tables"]),
                                     "links": [False] * len(d["links"])}, d
