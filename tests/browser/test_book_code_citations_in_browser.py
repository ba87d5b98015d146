"""The book fixture (tests/book_lesson.py) in Chromium: the code from lesson.py with its output, highlighted in light
and dark; values only in the code that asked; citations that lead to their entry; the bibliography in GB/T 7714;
a challenge's figure on screen and on paper; the notebook the page offers. axe runs over it with every other lesson
(test_accessibility.py), the Nu checker in tests/test_page_integrity.py."""
from __future__ import annotations

import json
import re

import pytest

import book_lesson
from conftest import BOOK, page_url
from conftest import axe_violations
from test_accessibility import open_answers

SOURCE_OF_KERNEL = '''def kernel():
    """A triangular kernel of width 3, normalised to sum to 1."""
    raw = np.array([1.0, 2.0, 1.0])
    return raw / raw.sum()'''


def book_page(open_page, site, width=1280, **kw):
    return open_page((site / BOOK / "index.html").as_uri(), width=width, **kw)


def test_the_code_and_its_output_read_as_in_lesson_py(open_page, site):
    visit = book_page(open_page, site)
    page = visit.page
    listing = page.locator("#code-kernel")
    assert listing.locator("pre.highlight").inner_text() == SOURCE_OF_KERNEL
    assert listing.locator(".code-output samp").inner_text() == "[0.250, 0.500, 0.250]"  # [1, 2, 1] / 4
    assert re.fullmatch(r"kernel · lesson\.py 第 \d+–\d+ 行", listing.locator(".code-caption").inner_text())
    assert page.locator("#code-half .code-output").count() == 0                            # output=false
    figure = page.locator("#code-weights_plot .code-output figure#fig-weights_plot")
    assert figure.is_visible() and figure.locator("figcaption").inner_text().startswith("图 1")
    blocks = page.locator("pre.highlight:not(.code-listing pre)").all_inner_texts()
    assert blocks == ["weights = [0.250, 0.500, 0.250]   # 从 lesson.py 算出", 'literal = "{{ kernel }}"']
    visit.assert_clean()


COLOURS = """() => {
    const color = sel => getComputedStyle(document.querySelector(sel)).color;
    return {keyword: color('#code-kernel .k'), name: color('#code-kernel .nf'), number: color('#code-kernel .mf'),
            text: color('#code-kernel pre.highlight code'), string: color('#code-kernel .sd')};
}"""


def test_code_is_coloured_by_class_in_light_and_dark(open_page, site, artifacts, axe_source):
    visit = book_page(open_page, site, init_script=axe_source)
    page = visit.page
    light = page.evaluate(COLOURS)
    assert len({light["keyword"], light["name"], light["number"], light["text"], light["string"]}) == 5
    page.locator("#code-kernel").screenshot(path=str(artifacts / "book-code-light.png"))
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate(COLOURS)
    page.locator("#code-kernel").screenshot(path=str(artifacts / "book-code-dark.png"))
    assert all(dark[k] != light[k] for k in light)  # every token has its dark colour
    assert axe_violations(page, within="#weights") == []    # contrast of every token on the dark background
    visit.assert_clean()


def test_a_citation_leads_to_its_entry_and_the_bibliography_is_gb_t_7714(open_page, site, server):
    visit = open_page(page_url(site, server, BOOK, "http"))
    page = visit.page
    entries = page.locator("#references li").all_inner_texts()
    assert [re.sub(r"\s+", " ", e).strip() for e in entries] == book_lesson.GB_T
    page.locator("#together a.cite", has_text="5").click()
    assert page.evaluate("location.hash") == "#ref-5"
    assert page.locator("#ref-5").evaluate("el => { const r = el.getBoundingClientRect(); "
                                           "return r.top >= 0 && r.top < innerHeight; }")
    assert page.locator("#ref-1 a").get_attribute("href") == "https://doi.org/10.1137/1109020"
    visit.assert_clean()


def test_a_figure_in_an_answer_shows_when_opened_and_prints_with_the_answers(open_page, site):
    visit = book_page(open_page, site)
    page = visit.page
    assert not page.locator("#fig-answer_bars").is_visible()        # inside the closed answer
    page.locator("#challenge-1 details.answer > summary").click()
    assert page.locator("#fig-answer_bars svg").first.is_visible()
    assert not page.locator("#fig-answer_bars-print").is_visible()  # the printed answers are not on screen
    page.emulate_media(media="print")
    assert page.locator("#fig-answer_bars-print svg").first.is_visible()
    assert not page.locator("#fig-answer_bars").is_visible()        # an inline answer never prints
    visit.assert_clean()


def test_the_page_offers_its_notebook(open_page, site, server):
    visit = open_page(page_url(site, server, BOOK, "http"))
    page = visit.page
    with page.expect_download() as download:
        page.locator("a.notebook-link").click()
    assert download.value.suggested_filename == f"{BOOK}.ipynb"
    notebook = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert notebook["nbformat"] == 4 and any("lesson.draw('answer_bars')" in "".join(c["source"])
                                             for c in notebook["cells"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots_for_a_person_to_look_at(open_page, site, artifacts, width, scheme):
    visit = book_page(open_page, site, width=width)
    page = visit.page
    page.emulate_media(color_scheme=scheme)
    open_answers(page)
    for part in ("#weights", "#references"):
        page.locator(part).screenshot(path=str(artifacts / f"book-{part[1:]}-{width}-{scheme}.png"))
    visit.assert_clean()
