"""The first lesson (encoders, decoders and the stabilisers of depth): the numbers issue 19 added or reworded, against
computations written here, independently of lesson.py (its values are only compared with them).

Skipped when the lesson is not in content/ (the engine and its tests never require a particular lesson).
"""
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from lessonkit.compute.registry import load_lesson_module
from lessonkit.compute.run import compute_values

PROJECT = Path(__file__).resolve().parents[2]
SLUG = "transformer-stability"
LESSON = PROJECT / "content" / SLUG

pytestmark = pytest.mark.skipif(not (LESSON / "lesson.py").exists(), reason=f"content/{SLUG} is not in this checkout")


@pytest.fixture(scope="module")
def values():
    path = LESSON / "lesson.py"
    return compute_values(load_lesson_module(path), path)


@pytest.fixture(scope="module")
def page(real_site):
    return (real_site / SLUG / "index.html").read_text(encoding="utf-8")   # built once per run (tests/conftest.py)


def text_of(html):
    sys.path.insert(0, str(PROJECT / "tests"))
    from pagetext import visible_text
    return visible_text(html)


# ---------------------------------------------------------------- our own plain implementation of Xiong et al.'s setting

def normalise(rows):
    """LayerNorm without γ, β, ε, row by row, written out: (x − mean) / sqrt(mean of squared deviations)."""
    out = []
    for row in rows:
        mean = sum(row) / len(row)
        sd = (sum((v - mean) ** 2 for v in row) / len(row)) ** 0.5
        out.append([(v - mean) / sd for v in row])
    return np.array(out)


def pre_ln_shrinks():
    """d = 128, 16 tokens, 24 blocks, seeds 0–3, weights N(0, 1/d) drawn in the lesson's documented order (input,
    then W^V, W1, W2 for each block). A Pre-LN block: x + mean-attention(LN x)·W^V, then + W2·ReLU(W1·LN x).
    For every seed, block and token: did the block make that token's ‖x‖² smaller?"""
    d, n, blocks = 128, 16, 24
    shrunk = []
    for seed in range(4):
        rng = np.random.default_rng(seed)
        x = normalise(rng.standard_normal((n, d)))
        weights = [[rng.normal(0.0, 1 / np.sqrt(d), (d, d)) for _ in range(3)] for _ in range(blocks)]
        for wv, w1, w2 in weights:
            before = np.einsum("ij,ij->i", x, x)
            mean = normalise(x).mean(axis=0)
            x = x + np.tile(mean @ wv, (n, 1))
            x = x + np.maximum(normalise(x) @ w1, 0) @ w2
            shrunk += list(np.einsum("ij,ij->i", x, x) < before)
    return shrunk


def test_some_pre_ln_blocks_shrink_a_token(values, page):
    """The residual path adds, but not always outward: the page counts how often ‖x‖² fell, from the same run."""
    shrunk = pre_ln_shrinks()
    count, total = sum(shrunk), len(shrunk)
    assert total == 4 * 24 * 16 and 0 < count < total / 10
    final = values["norm_final"]
    assert (final["pre_shrink_count"], final["pre_shrink_total"]) == (count, total)
    assert final["pre_shrink_fraction"] == pytest.approx(count / total)
    text = text_of(page)
    assert f"共有 {total} 次" in text and f"其中 {count} 次（{100 * count / total:.1f} %）" in text
    assert "只进不减" not in text and "不会被层层乘没" not in text


def test_noise_is_an_order_of_magnitude_and_headings_hold_values(values, page):
    text = text_of(page)
    digits = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
    assert not [e for e in re.findall(r"\d × 10⁻([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", text) if int(e.translate(digits)) >= 12]
    assert re.search(r"最大只差 ≈ 10⁻(¹⁵|¹⁶|¹⁷)——纯属浮点舍入误差", text)
    # the section heading takes its depth from lesson.py: in the heading, the contents and the search index alike
    heading = f"{values['depth']} 层网络，梯度能传回第一层吗"
    assert re.search(rf'<h2[^>]*><span class="sec-num">\d+</span> {heading}</h2>', page) and page.count(heading) >= 3
    assert "{{" not in page


def test_challenge_3_vector_comes_from_the_value(page):
    answer = text_of(re.search(r'<article class="challenge" id="challenge-3".*?</article>', page, re.S).group(0))
    assert "[10,0,0,0]" in answer.replace(" ", "")
    assert "均值就是 4 个数加起来除以 4" in answer


def test_models_named_are_cited(page):
    text = text_of(page)
    assert "arxiv.org/abs/2302.13971" in text and "GPT-2" in text   # LLaMA, in the bibliography
    assert "GPT-2 以来的大模型大多这样搭" not in text
