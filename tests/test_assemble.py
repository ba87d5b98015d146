"""assemble/assemble.py: what assembly fills into a draft — each figure's SVG (a second placement with its ids
renamed), the figure's data tables and their CSV files, the page's code (the theme's base code and exactly the
components the page mounts, the dark palette of its figures' colours) and a Content-Security-Policy listing the hash
of every inline script and style — and the page refused when the policy would break it. Drafts made here from small
hand-written texts with the built-in theme; the hashes are recomputed here with hashlib."""
import base64
import csv
import hashlib
import io
import re

import pytest

from lessonkit.assemble.assemble import Assembler
from lessonkit.draw.drawing import DrawnFigure
from lessonkit.features.components import Components
from lessonkit.render.draft import HEAD, POLICY, SCRIPTS, STYLE, FigureDataHole, FigureHole, Holes
from lessonkit.support.errors import UsageError
from lessonkit.support.paths import SitePaths
from page_setting import DIRS, ENV, UI

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" id="s1"><defs><clipPath id="c1"><rect width="1" height="1"/>'
       '</clipPath></defs><g clip-path="url(#c1)"><path d="M0 0H1" stroke="#1f77b4"/><use href="#c1"/></g></svg>')
TABLE = {"tables": [{"title": "curve", "columns": ["x", "y"], "rows": [[0, 1], [1, 2.5]]}]}
CURVE = DrawnFigure(SVG, TABLE, {"#1f77b4": "#8ab4f8"})


def page_of(body: str, figures=None, preview: str | None = None, path: str = "alpha/index.html",
            template: str = "lesson.html") -> tuple[str, Assembler]:
    holes = Holes(nonce="x")
    text = (f'<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="{holes.mark(POLICY)}">'
            f"<style>{holes.mark(STYLE)}</style>{holes.mark(HEAD)}</head><body>{body(holes)}"
            f"{holes.mark(SCRIPTS)}</body></html>")
    assembler = Assembler(ENV, UI, Components(DIRS), DIRS, figures or {}, preview)
    return assembler.page(holes.draft(text, path, template)).decode("utf-8"), assembler


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def policy_of(page: str) -> str:
    return re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)[1]


def inline_scripts(page: str) -> list[str]:
    return re.findall(r"<script>(.*?)</script>", page, re.S)


def test_a_figure_is_filled_in_and_a_second_placement_gets_its_ids_renamed():
    figure = FigureHole("alpha", "curve")
    page, _ = page_of(lambda h: f"<p>{h.mark(figure)}</p><p>{h.mark(figure)}</p>", {("alpha", "curve"): CURVE})
    first, second = re.findall(r"<p>(<svg.*?</svg>)</p>", page)
    assert first == SVG
    assert second == SVG.replace('id="s1"', 'id="s1-2"').replace('id="c1"', 'id="c1-2"') \
        .replace("url(#c1)", "url(#c1-2)").replace('href="#c1"', 'href="#c1-2"')


def test_a_figure_that_could_not_be_drawn_leaves_its_hole_empty():
    page, _ = page_of(lambda h: f"<p>{h.mark(FigureHole('alpha', 'lost'))}</p>")
    assert "<p></p>" in page


def test_the_policy_lists_exactly_the_page_s_inline_code():
    page, _ = page_of(lambda h: "<p>text</p>")
    policy = policy_of(page)
    scripts, (style,) = inline_scripts(page), re.findall(r"<style>(.*?)</style>", page, re.S)
    assert len(scripts) == 2                        # head.js and the base lesson.js: no component mounted
    script_src = re.search(r"script-src ([^;]*)", policy)[1].split()
    style_src = re.search(r"style-src ([^;]*)", policy)[1].split()
    assert sorted(script_src) == sorted(sha256(s) for s in scripts)
    assert style_src == [sha256(style)]
    assert "connect-src" not in policy


def test_each_mounted_component_adds_its_own_script_and_style():
    plain, _ = page_of(lambda h: "<p>text</p>")
    toggled, _ = page_of(lambda h: '<div class="widget widget-toggle" id="toggle-1" data-widget="toggle"></div>')
    extra = [s for s in inline_scripts(toggled) if s not in inline_scripts(plain)]
    assert len(extra) == 1 and "toggle" in extra[0]
    assert sha256(extra[0]) in policy_of(toggled)
    toggle_css = (DIRS[0] / "components" / "toggle" / "widget.css").read_text(encoding="utf-8")
    selector = re.search(r"^\s*([.#][\w-]+)", toggle_css, re.M)[1]
    assert selector in toggled and selector not in plain


def test_the_dark_palette_of_the_figures_on_the_page():
    figure = FigureHole("alpha", "curve")
    with_figure, _ = page_of(lambda h: h.mark(figure), {("alpha", "curve"): CURVE})
    without, _ = page_of(lambda h: "<p>text</p>", {("alpha", "curve"): CURVE})
    assert "--fig-1f77b4:#8ab4f8" in with_figure and "#8ab4f8" not in without


def test_a_figure_s_data_tables_and_their_csv_file():
    hole = FigureDataHole("alpha", "curve", "fig-curve", 1)
    page, assembler = page_of(lambda h: h.mark(hole), {("alpha", "curve"): CURVE})
    assert 'href="data/fig-curve.csv"' in page                 # beside the page: alpha/data/fig-curve.csv
    data = assembler.data_files[SitePaths.figure_data("alpha", "fig-curve.csv")].decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(data))) == [["x", "y"], ["0", "1"], ["1", "2.5"]]
    # on the page as the page writes numbers (three significant figures; end tags omitted), in the file as they are
    assert re.findall(r"<tr><th>([^<]*)<td>([^<\n]*)", page) == [("0", "1"), ("1", "2.50")]


def test_no_data_no_disclosure():
    hole = FigureDataHole("alpha", "curve", "fig-curve", 1)
    page, assembler = page_of(lambda h: f"<p>{h.mark(hole)}</p>", {("alpha", "curve"): DrawnFigure(SVG, {}, {})})
    assert "<p></p>" in page and assembler.data_files == {}


def test_the_preview_s_script_is_on_the_page_and_may_connect_back():
    page, _ = page_of(lambda h: "<p>text</p>", preview="reloadWhenChanged();")
    assert "<script>reloadWhenChanged();</script>" in page
    assert sha256("reloadWhenChanged();") in policy_of(page) and "connect-src 'self'" in policy_of(page)


@pytest.mark.parametrize("markup, found", [
    ('<p style="color:red">x</p>', "a `style=` attribute (blocked without 'unsafe-inline')"),
    ('<button onclick="go()">x</button>', "a `onclick=` attribute (blocked without 'unsafe-inline')"),
    ("<script>alert(1)</script>", "inline <script> whose hash"),
])
def test_a_page_its_policy_would_break_is_the_theme_s_mistake(markup, found):
    with pytest.raises(UsageError) as info:
        page_of(lambda h: markup, template="lesson.html")
    message = str(info.value)
    assert message.startswith("the theme's lesson.html makes a page its Content-Security-Policy would break: ")
    assert found in message


def test_words_that_look_like_an_attribute_inside_a_quoted_value_are_text():
    """A figure's alt text (the author's) in its aria-label: the theme made nothing the policy blocks."""
    page, _ = page_of(lambda h: '<div class="figure-svg" role="img" aria-label="bold: style=bold; onset=3">x</div>')
    assert 'aria-label="bold: style=bold; onset=3"' in page


def test_the_site_is_every_page_the_files_written_with_them_and_nojekyll():
    holes = Holes(nonce="y")
    hole = FigureDataHole("alpha", "curve", "fig-curve", 1)
    drafts = [holes.draft(f"<p>{holes.mark(hole)}</p>", "alpha/index.html", "lesson.html",
                          files=(("alpha/alpha.ipynb", "{}"),)),
              holes.draft("<p>index</p>", "index.html", "index.html")]
    site = Assembler(ENV, UI, Components(DIRS), DIRS, {("alpha", "curve"): CURVE}).site(drafts)
    assert sorted(site) == [".nojekyll", "alpha/alpha.ipynb", "alpha/data/fig-curve.csv", "alpha/index.html",
                            "index.html"]
    assert site[".nojekyll"] == b"" and site["index.html"] == b"<p>index</p>"
