"""End to end: the lesson content/transformer-stability as the real site (every lesson of content/, built once per
run: tests/conftest.py real_site) shows it, and what a student gets.

These checks are about that lesson's content (its sentences, numbers and widget data): they skip when it is not in
content/ and assert nothing about the other lessons, so those come and go without touching them. (`build --lesson`
itself is checked on fixture courses: test_incremental, test_course, test_book_structure.)"""
import json
import re
from pathlib import Path

import numpy as np
import pytest

from pagetext import visible_text

PROJECT = Path(__file__).resolve().parent.parent
SLUG = "transformer-stability"

if not (PROJECT / "content" / SLUG / "lesson.yaml").is_file():
    pytest.skip(f"content/{SLUG} is not in this checkout", allow_module_level=True)


@pytest.fixture(scope="module")
def site(real_site):
    return real_site                # every lesson of content/, built once per run (tests/conftest.py)


@pytest.fixture(scope="module")
def page(site):
    return (site / SLUG / "index.html").read_text(encoding="utf-8")


def text_of(html: str) -> str:
    return visible_text(html)


def widget_data(page: str, name: str):
    m = re.search(rf'<script type="application/json" id="widget-{name}-data">(.*?)</script>', page, re.S)
    assert m, f"widget {name} has no embedded data"
    return json.loads(m.group(1))


def test_site_layout(site):
    assert (site / "index.html").exists() and (site / ".nojekyll").exists()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f'href="{SLUG}/index.html"' in index
    assert "编码器、解码器与深度的稳定器" in index


def test_header_sections_and_challenges(page):
    text = text_of(page)
    assert '<html lang="zh-CN"' in page
    for words in ("实验目标", "课堂问题", "猫追狗", "狗追猫"):
        assert words in text
    for section_id in ("masks", "families", "depth", "layernorm", "pre-post"):
        assert f'<section id="{section_id}"' in page
    for heading in ("双向 vs 单向", "三种结构", "96 层网络", "LayerNorm 怎么救", "Norm 放前还是放后"):
        assert heading in text
    for card in ("仅编码器", "仅解码器", "编码器 + 解码器", "代表模型", "训练方式", "擅长", "为什么今天偏爱解码器", "还能更省"):
        assert card in text
    assert len(re.findall(r'<article class="challenge"', page)) == 4
    assert len(re.findall(r'<details class="answer"', page)) == 4


def test_figures_have_captions_and_text_alternatives(page):
    figures = re.findall(r'<figure id="fig-([\w-]+)".*?</figure>', page, re.S)
    assert set(figures) >= {"mask_heatmaps", "gradient_decay", "norm_growth", "layernorm_example"}
    for block in re.findall(r"<figure .*?</figure>", page, re.S):
        label = re.search(r'role="img" aria-label="([^"]{20,})"', block)
        assert label, block[:200]
        assert "<svg" in block and "<figcaption" in block
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "ids must be unique across inlined figures"


def test_computed_numbers_present_and_seed_slips_absent(page):
    text = text_of(page)
    # worked by hand / science.md: 0.9^96 = 4.048e-5, 1.1^96 = 9412.3, 1.01^96 = 2.599
    assert "4.05 × 10⁻⁵" in text and "9412" in text and "2.60" in text
    assert "0.004 %" in text
    for wrong in ("0.00006", "万分之零点六", "12000", "12,000", "1.2 万"):
        assert wrong not in text
    # LayerNorm [8, 2, 2, 4]: μ = 4, σ² = 6, σ = √6 ≈ 2.449, x̂ = [1.633, −0.816, −0.816, 0]
    assert "[1.63, −0.816, −0.816, 0]" in text and "2.45" in text
    # challenge 3, [10, 0, 0, 0]: μ = 2.5, σ = 4.330, x̂ = [√3, −1/√3, −1/√3, −1/√3]
    answer_3 = text_of(re.search(r'<article class="challenge" id="challenge-3".*?</article>', page, re.S).group(0))
    assert "4.33" in answer_3 and "1.73" in answer_3 and answer_3.count("0.577") >= 3
    # RMSNorm [8, 2, 2, 4]: RMS = √22 ≈ 4.690
    assert "4.69" in text
    assert "nan" not in text.lower().replace("nanc", "")


def test_mask_widget_data_is_the_causal_mask(page):
    data = widget_data(page, "mask_table")
    tokens = ["它", "最", "爱", "晒太阳"]
    assert data["rows"] == tokens and data["cols"] == tokens
    modes = {m["key"]: np.array(m["visible"], dtype=bool) for m in data["modes"]}
    n = len(tokens)
    rows, cols = np.indices((n, n))
    assert (modes["decoder"] == (cols <= rows)).all()
    assert modes["encoder"].all()


def shown_number(text: str) -> float:
    """A number as the page shows it: real minus sign, "1.80 × 10⁵"."""
    sup = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
    text = text.replace("\u2212", "-")
    m = re.fullmatch(r"(-?[\d.]+) × 10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)", text)
    return float(m.group(1)) * 10 ** int(m.group(2).translate(sup)) if m else float(text)


def test_block_stack_follows_lemma_2(page):
    """The explorer's states, as the page shows them (Pre-LN to 2 significant figures), obey Xiong et al.'s Lemma 2."""
    data = widget_data(page, "block_stack")
    layers = np.array([float(o) for o in data["params"][0]["options"]])
    rows = [data["states"][str(i)][2] for i in range(len(layers))]
    none, post, pre = (np.array([shown_number(r[k][0]) for r in rows]) for k in range(3))
    tol = 0.1  # squares of numbers shown to 2 significant figures
    assert (pre ** 2 >= (1 + layers / 2) * (1 - tol)).all()  # values are ‖x‖/√d; Lemma 2 bounds ‖x_l‖²/d
    assert (pre ** 2 <= (1 + 3 * layers / 2) * (1 + tol)).all()
    assert np.allclose(post, 1.0, atol=0.05)  # LN output has ‖x‖² = d exactly
    assert (np.diff(none) >= 0).all() and none[-1] > 1e3  # shown to 1 significant figure: neighbours may tie


def test_page_is_self_contained(page):
    # links go to other pages of the site (lessons, index, glossary), the lesson's notebook and its figures' CSV files
    # (every row of a figure's data, beside the page) by relative paths; nothing is loaded. The only
    # links elsewhere are the bibliography's (arXiv, DOI): a reader may follow them, the page never fetches them
    cited = re.findall(r'<li id="ref-\d+">.*?</li>', page, re.S)
    assert all(re.fullmatch(r"https://(arxiv\.org/abs|doi\.org)/\S+", url)
               for li in cited for url in re.findall(r'<a href="([^"]+)"', li))
    page = re.sub(r'<li id="ref-\d+">.*?</li>', "", page, flags=re.S)
    assert not re.search(r'\s(src|action|poster|data)="', page)
    assert not re.search(r'\shref="(?!#|\.\./(?:[a-z0-9-]+/)?[a-z0-9-]+\.html(?:#[\w-]*)?"|data/fig-[\w-]+\.csv"'
                         r'|[a-z0-9-]+\.ipynb")', page)
    assert not re.search(r"https?://(?!www\.w3\.org/(1999/xlink|2000/svg|1998/Math/MathML))", page)
    assert "@import" not in page and "<link" not in page and "<iframe" not in page
    assert not re.search(r"url\((?!#)", page)
    assert "<math" in page and "mathjax" not in page.lower() and "katex" not in page.lower()


def test_self_checks_of_challenges_2_and_3(page):
    """Challenge 2 accepts 0.004 % and 0.00405 %; the handout's slip 0.006 % has its own hint, 0.04 % is neither
    accepted nor a known mistake (what the script then says is tested in Chromium, where grading lives); challenge 3
    checks μ, σ and the four x̂ independently. Expected values worked out here, not read from the page."""
    def data(cid):
        return json.loads(re.search(rf'<script type="application/json" id="{cid}-data">(.*?)</script>', page).group(1))

    def within(x, interval):
        return interval[0] <= x <= interval[1]

    field = data("check-2")["fields"][0]
    assert within(0.004, field["accept"]) and within(0.00405, field["accept"])
    slips = [hint for lo, hi, hint in field["mistakes"] if within(0.006, (lo, hi))]
    assert len(slips) == 1 and "笔误" in slips[0] and not within(0.006, field["accept"])
    assert not within(0.04, field["accept"]) and not any(within(0.04, (lo, hi)) for lo, hi, _ in field["mistakes"])
    three = data("check-3")
    x = np.array([10.0, 0, 0, 0])
    expected = [x.mean(), x.std(), *((x - x.mean()) / x.std())]
    assert [f["label"] for f in three["fields"]] == ["μ", "σ"] + [f"x̂ 的第 {i} 个值" for i in range(1, 5)]
    for f, value in zip(three["fields"], expected):
        assert within(round(value, 2), f["accept"]), f["label"]
        assert not within(value + 0.5, f["accept"]), f["label"]
