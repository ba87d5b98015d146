"""The positional-encoding lesson: its key numbers against computations written here, independently of lesson.py.

Skipped when the lesson is not in content/ (the engine and its tests never require a particular lesson).
"""
import cmath
import csv
import io
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from lessonkit.compute.registry import load_lesson_module
from lessonkit.compute.run import compute_values

PROJECT = Path(__file__).resolve().parents[2]
SLUG = "positional-encoding"
LESSON = PROJECT / "content" / SLUG

pytestmark = pytest.mark.skipif(not (LESSON / "lesson.py").exists(), reason=f"content/{SLUG} is not in this checkout")


@pytest.fixture(scope="module")
def registry():
    return load_lesson_module(LESSON / "lesson.py")


@pytest.fixture(scope="module")
def values(registry):
    return compute_values(registry, LESSON / "lesson.py")


@pytest.fixture(scope="module")
def folder(real_site) -> Path:
    return real_site / SLUG   # every lesson of content/, built once per run (tests/conftest.py)


@pytest.fixture(scope="module")
def page(folder):
    return (folder / "index.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- our own, deliberately plain implementations

def pe_vector(pos, d):
    """PE(pos) element by element, straight from Vaswani et al.'s formula."""
    out = []
    for j in range(d):
        angle = pos / 10000 ** (2 * (j // 2) / d)
        out.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))
    return out


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def rope_complex(x, pos):
    """RoPE as complex multiplication: pair (x_2i, x_2i+1) is the number x_2i + i·x_2i+1, turned by e^{i·pos·θ_i}."""
    d = len(x)
    out = []
    for i in range(d // 2):
        z = complex(x[2 * i], x[2 * i + 1]) * cmath.exp(1j * pos * 10000 ** (-2 * i / d))
        out += [z.real, z.imag]
    return out


def attention_loops(rows, wq, wk, wv, causal=False):
    """Self-attention one query at a time, with Python loops over keys."""
    d = len(rows[0])
    q, k, v = rows @ wq, rows @ wk, rows @ wv
    result = []
    for i in range(len(rows)):
        keys = range(i + 1) if causal else range(len(rows))
        scores = [float(q[i] @ k[j]) / math.sqrt(d) for j in keys]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        result.append(sum(w / total * v[j] for w, j in zip(weights, keys)))
    return np.array(result)


def first_lesson_setting():
    """Seed 0, 8 dimensions: embeddings for 猫 追 狗, then W^Q, W^K, W^V / √8 (the first lesson's draw order)."""
    rng = np.random.default_rng(0)
    embed = {w: rng.standard_normal(8) for w in ["猫", "追", "狗"]}
    wq, wk, wv = (rng.standard_normal((8, 8)) / math.sqrt(8) for _ in range(3))
    return embed, wq, wk, wv


def same_word_diffs(positional=False, causal=False):
    embed, wq, wk, wv = first_lesson_setting()
    outs = []
    for words in (["猫", "追", "狗"], ["狗", "追", "猫"]):
        rows = np.array([embed[w] for w in words])
        if positional:
            rows = rows + np.array([pe_vector(p, 8) for p in range(3)])
        outs.append(dict(zip(words, attention_loops(rows, wq, wk, wv, causal))))
    return {w: float(np.abs(outs[0][w] - outs[1][w]).max()) for w in ["猫", "追", "狗"]}


# ---------------------------------------------------------------- the classroom question

def test_without_positions_attention_only_permutes(values):
    embed, wq, wk, wv = first_lesson_setting()
    x = np.array([embed[w] for w in ["猫", "追", "狗"]])
    perm = [2, 1, 0]
    assert np.allclose(attention_loops(x[perm], wq, wk, wv), attention_loops(x, wq, wk, wv)[perm], atol=1e-12)
    assert values["order_check"]["plain_max"] < 1e-12


def test_sinusoidal_and_causal_break_the_symmetry(values):
    for key, kwargs in (("sinusoidal", {"positional": True}), ("causal", {"causal": True})):
        ours = same_word_diffs(**kwargs)
        for word, diff in ours.items():
            assert values["order_check"][key][word] == pytest.approx(diff, rel=1e-9)
        assert values["order_check"][key + "_max"] == pytest.approx(max(ours.values()), rel=1e-9)
        assert max(ours.values()) > 0.1        # a real difference, not rounding
    assert values["causal_first"]["diff"] < 1e-12  # the first word sees only itself: output = its value vector


# ---------------------------------------------------------------- sinusoidal encodings

def test_pe_dot_depends_only_on_offset(values):
    d = values["pe_d"]
    for example in values["pe_dot"]["examples"]:
        k = example["k"]
        expected = sum(math.cos(k * 10000 ** (-2 * i / d)) for i in range(d // 2))
        assert example["dot"] == pytest.approx(expected, abs=1e-12)
        for pos in (0, 3, 41, 99):
            assert dot(pe_vector(pos, d), pe_vector(pos + k, d)) == pytest.approx(expected, abs=1e-12)
    assert values["pe_dot"]["self"] == pytest.approx(d / 2)
    assert values["pe_dot"]["max_spread"] < 1e-12
    table = np.asarray(values["pe_table"])
    assert table.shape == (values["pe_positions"], d)
    assert np.allclose(table[7], pe_vector(7, d))


def test_hand_worked_pe_and_wavelengths(values):
    hand = values["pe_hand"]
    assert hand["omega"] == pytest.approx([1.0, 0.01])
    assert hand["dot"] == pytest.approx(math.cos(1) + math.cos(0.01), abs=1e-12)   # 0.540302 + 0.999950
    assert hand["check_3"] == pytest.approx(dot(pe_vector(3, 4), pe_vector(4, 4)), abs=1e-12)
    waves = values["wave_512"]
    assert waves["shortest"] == pytest.approx(2 * math.pi)
    assert waves["longest"] == pytest.approx(2 * math.pi * 10000 ** (510 / 512))
    assert waves["longest"] < waves["limit"] == pytest.approx(2 * math.pi * 10000)
    assert values["pe_waves"]["ratio"] == pytest.approx(math.sqrt(10))     # 10000^(2/16)
    assert values["pe_base"] == 10000  # the base the text's formulas write: Vaswani et al. (2017), §3.5


# ---------------------------------------------------------------- RoPE

def test_rope_dot_depends_only_on_offset(values):
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    check = values["rope_check"]
    for row in check["rows"]:
        pairs = [tuple(int(v) for v in re.findall(r"\d+", p)) for p in row["pairs"]]
        ours = [dot(rope_complex(q, m), rope_complex(k, n)) for m, n in pairs]
        assert all(m - n == row["offset"] for m, n in pairs)
        assert max(ours) - min(ours) < 1e-12
        assert row["dots"] == pytest.approx(ours, abs=1e-12)
    assert check["plain"] == pytest.approx(dot(q, k))
    grid = np.asarray(check["grid"])
    for m in range(8):
        for n in range(8):
            assert grid[m, n] == pytest.approx(grid[max(m - n, 0), max(n - m, 0)], abs=1e-12)


def test_rope_hand(values):
    hand = values["rope_hand"]
    assert hand["dots"] == pytest.approx([math.sin(1), math.sin(1), -math.sin(1)], abs=1e-12)


ROPE_THETA = 10000 ** (-2 * 1 / 16)      # the dial's pair: i = 1 of d = 16, as the lesson's text says


def dial_dot(m, n):
    """q = (1, 0) and k = (0, 1) as complex numbers 1 and i, turned by e^{i·mθ} and e^{i·nθ}; their dot product."""
    q, k = cmath.exp(1j * m * ROPE_THETA), 1j * cmath.exp(1j * n * ROPE_THETA)
    return (q * k.conjugate()).real


def dial_between(m, n):
    return math.degrees(abs(cmath.phase(1j * cmath.exp(1j * (n - m) * ROPE_THETA))))


def shown_number(text):
    text = text.replace("\u2212", "-").rstrip("°")
    m = re.fullmatch(r"(-?[\d.]+)(?: × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?", text)
    assert m, text
    exponent = (m.group(2) or "0").translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789"))
    return float(m.group(1)) * 10 ** int(exponent)


def close(shown, truth):
    """A number written to 3 significant figures against the truth."""
    assert shown == pytest.approx(truth, rel=5e-3, abs=5e-4), (shown, truth)


def close_degrees(shown, truth):
    """An angle written to one decimal."""
    assert shown == pytest.approx(truth, abs=0.051), (shown, truth)


def test_rope_dial_script_data_equal_offsets_equal_dots(page):
    data = json.loads(re.search(r'<script type="application/json" id="widget-rope_dial-data">(.*?)</script>',
                                page, re.S).group(1))
    pairs, size = data["pairs"], len(data["pairs"])
    assert size >= 6
    by_offset = {}
    for m in range(size):
        for n in range(size):
            offset, between, dot = pairs[m][n]
            assert shown_number(offset) == m - n
            close(shown_number(dot), dial_dot(m, n))
            close_degrees(shown_number(between), dial_between(m, n))
            by_offset.setdefault(m - n, set()).add((between, dot))
        # the arrows the script draws: q at angle mθ, k at 90° + mθ, on the dial (SVG y points down)
        for which, start in (("q", 0.0), ("k", math.pi / 2)):
            x, y = data[which][m][:2]
            a = start + m * ROPE_THETA
            assert math.hypot(x, y) == pytest.approx(0.82, abs=2e-3)
            assert (x, -y) == pytest.approx((0.82 * math.cos(a), 0.82 * math.sin(a)), abs=2e-3)
    for offset, seen in by_offset.items():
        assert len(seen) == 1, f"offset {offset}: the page shows {seen}"
    assert len({dot for (_, dot), in by_offset.values()}) > 5   # and different offsets differ


def test_rope_dial_printed_form_equal_offsets_equal_dots(page):
    root = page[page.index('id="widget-rope_dial"'):]
    root = root[:root.index('id="widget-rope_dial-data"')]
    table = root[root.index('<table class="rope-table">'):root.index("</table>")]
    rows = re.findall(r"<tr><th scope=\"row\">\((\d+), (\d+)\)</th>((?:<td>[^<]*</td>)+)</tr>", table)
    assert len(rows) >= 4
    by_offset = {}
    for m, n, cells in rows:
        m, n = int(m), int(n)
        offset, q_angle, k_angle, between, dot = re.findall(r"<td>([^<]*)</td>", cells)
        assert shown_number(offset) == m - n
        close_degrees(shown_number(q_angle), math.degrees(m * ROPE_THETA))
        close_degrees(shown_number(k_angle), 90 + math.degrees(n * ROPE_THETA))
        close_degrees(shown_number(between), dial_between(m, n))
        close(shown_number(dot), dial_dot(m, n))
        by_offset.setdefault(m - n, set()).add(dot)
    assert any(len([r for r in rows if int(r[0]) - int(r[1]) == o]) >= 3 for o in by_offset)
    assert all(len(dots) == 1 for dots in by_offset.values()), by_offset
    # the dials printed side by side share one offset and show one dot product
    keys = re.findall(r'<p class="rope-key-caption">m = (\d+)，n = (\d+)（相隔 ([^）]+)）<br>q·k = ([^<]+)</p>', root)
    assert len(keys) >= 3 and len({int(m) - int(n) for m, n, _, _ in keys}) == 1 and len({k[3] for k in keys}) == 1
    close(shown_number(keys[0][3]), dial_dot(int(keys[0][0]), int(keys[0][1])))


# ---------------------------------------------------------------- learned tables and ALiBi

def test_learned_tables_and_alibi(values):
    assert values["learned"]["bert"]["params"] == 393216       # 512 × 768
    assert values["learned"]["gpt2"]["params"] == 786432       # 1024 × 768
    alibi = values["alibi"]
    assert alibi["slopes"] == [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]
    bias = np.asarray(alibi["bias"])
    for i in range(alibi["n"]):
        for j in range(i + 1):
            assert bias[i, j] == -0.5 * (i - j)
    sixteen = values["alibi16"]
    assert sixteen["first"] == pytest.approx(1 / math.sqrt(2))
    assert sixteen["last"] == pytest.approx(1 / 256)
    assert sixteen["bias_first"] == pytest.approx(-10 / math.sqrt(2))


# ---------------------------------------------------------------- the page

def test_page_shows_the_computed_numbers(page):
    text = re.sub(r"<[^>]+>", " ", page)
    sinus, causal = same_word_diffs(positional=True), same_word_diffs(causal=True)
    for number in (f"{max(sinus.values()):.3g}", f"{max(causal.values()):.3g}", "393,216", "786,432", "60611"):
        assert number in text, number
    assert len(re.findall(r'<article class="challenge"', page)) == 4
    figures = set(re.findall(r'<figure id="fig-([\w-]+)"', page))
    assert figures == {"pe_heatmap", "pe_offset", "rope_rotation", "alibi_bias"}
    for section in ("order", "sinusoidal", "rope", "learned-alibi", "causal"):
        assert f'<section id="{section}"' in page


# ---------------------------------------------------------------- the figures' data: the matrices the heatmaps show

def figure_csvs(page, name, folder):
    """The CSV files linked under figure `name` on the built page (written beside it, in `folder`), by file name:
    header row, then rows of cells."""
    block = re.search(rf'<figure id="fig-{name}".*?</figure>', page, re.S).group(0)
    tables = {}
    for href, file in re.findall(r'<a href="([^"]+\.csv)" download="([^"]+)"', block):
        text = (folder / href).read_bytes().decode("utf-8")
        tables[file] = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    return tables


def matrix_of(rows):
    """Data rows → (row names, matrix); empty cells (masked) as NaN."""
    return [r[0] for r in rows], np.array([[float(v) if v else np.nan for v in r[1:]] for r in rows])


def test_pe_heatmap_data_is_the_encoding(page, folder):
    (rows,) = figure_csvs(page, "pe_heatmap", folder).values()
    assert rows[0] == ["位置 pos", *[str(j) for j in range(16)]]        # columns: dimensions 0 … 15, as drawn
    names, matrix = matrix_of(rows[1:])
    assert names == [str(p) for p in range(24)]                          # rows: positions 0 … 23
    expected = np.array([pe_vector(p, 16) for p in range(24)])
    assert np.allclose(matrix, expected, rtol=5e-6, atol=1e-6)           # the CSV keeps 6 significant figures


def test_rope_heatmap_data_is_the_dot_product_table(page, folder):
    tables = figure_csvs(page, "rope_rotation", folder)
    assert len(tables) == 1                                              # the angle arcs are marks, not data
    (rows,) = tables.values()
    assert rows[0] == ["查询的位置 m", *[str(n) for n in range(8)]]
    names, matrix = matrix_of(rows[1:])
    assert names == [str(m) for m in range(8)]
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    expected = np.array([[dot(rope_complex(q, m), rope_complex(k, n)) for n in range(8)] for m in range(8)])
    assert np.allclose(matrix, expected, rtol=5e-6, atol=1e-6)
    assert "16 维 RoPE：qₘ · kₙ" in page                                 # the table's title: maths, not 「qm · k_n」


def test_alibi_heatmap_data_is_the_bias_and_the_mask(page, folder):
    tables = figure_csvs(page, "alibi_bias", folder)
    rows = tables["fig-alibi_bias-1.csv"]
    assert rows[0] == ["查询 i", *[str(j) for j in range(6)]]
    names, matrix = matrix_of(rows[1:])
    assert names == [str(i) for i in range(6)]
    for i in range(6):
        for j in range(6):
            if j <= i:
                assert matrix[i, j] == -0.5 * (i - j)                    # first head: slope 2^(−8/8) = 1/2
            else:
                assert np.isnan(matrix[i, j])                            # masked: no bias, no value
    lines = tables["fig-alibi_bias-2.csv"]
    assert lines[0][1:] == [f"第 {h} 个头（斜率 1/{2 ** h}）" for h in range(1, 9)]


def test_pe_offset_header_shows_the_formula(page, folder):
    (rows,) = figure_csvs(page, "pe_offset", folder).values()
    assert rows[0][-1] == "公式 ∑ᵢ cos(kωᵢ)"


def draw(registry, values, name):
    import matplotlib

    from lessonkit.draw.figures import FigureMaker, find_cjk_font, style

    spec = registry.figures[name]
    with matplotlib.rc_context(style(find_cjk_font())):
        fig = spec.func(FigureMaker(), *[values[v] for v in spec.inputs])
        fig.draw_without_rendering()
    return fig


def test_pe_heatmap_colour_bar_bins_are_the_cells_quantisation(registry, values):
    """Cells take the colour of the nearest multiple of 0.25 (−1, −0.75, …, 1): 9 bins whose edges lie half a step
    either side, −1.125 … 1.125; the colour bar draws exactly those bins, in the cells' colours."""
    fig = draw(registry, values, "pe_heatmap")
    heat, key = fig.axes
    bar = key._colorbar
    edges = np.unique(bar.solids.get_coordinates()[:, :, 1])
    assert np.allclose(edges, [-1.125 + 0.25 * b for b in range(10)])
    bin_colours = bar.solids.get_facecolor()
    assert len(bin_colours) == 9
    (mesh,) = heat.collections
    cell_colours = mesh.get_facecolor().reshape(24, 16, 4)
    for p in range(24):
        for j, v in enumerate(pe_vector(p, 16)):
            nearest = round((v + 1) / 0.25)                              # 0 … 8: −1, −0.75, …, 1
            assert np.allclose(cell_colours[p, j], bin_colours[nearest]), (p, j, v)


# ---------------------------------------------------------------- claims and numbers the page makes (issue 19)

def page_text(page):
    import sys
    sys.path.insert(0, str(PROJECT / "tests"))
    from pagetext import visible_text
    return visible_text(page)


def test_rope_long_term_decay_rises_at_some_steps(values, page):
    """RoFormer §3.4.3: the relative upper bound (1/(d/2)) Σ_{j=1}^{d/2} |S_j|, S_j = Σ_{k<j} e^{i·r·θ_k}, for d = 128
    and relative distances r = 0 … 256, summed here term by term with cmath. It falls overall, but not monotonically."""
    d = 128
    thetas = [10000 ** (-2 * k / d) for k in range(d // 2)]

    def bound(r):
        total, partial = 0.0, 0
        for theta in thetas:
            partial += cmath.exp(1j * r * theta)
            total += abs(partial)
        return total / (d // 2)

    b = [bound(r) for r in range(257)]
    rises = sum(b[r + 1] > b[r] for r in range(256))
    assert rises == 115                                  # as the independent check of the lesson found
    assert b[0] == pytest.approx(32.5) and b[-1] < b[0] / 4
    decay = values["rope_decay"]
    assert (decay["rises"], decay["steps"], decay["d"]) == (rises, 256, d)
    assert decay["start"] == pytest.approx(b[0]) and decay["end"] == pytest.approx(b[-1])
    text = page_text(page)
    assert f"有 {rises} 步是回升的" in text and "总体上" in text


def test_challenge_4_exponent_and_weight_agree_at_the_shown_precision(values, page):
    """e^−7.07 = 8.50 × 10⁻⁴ but e^−7.0711 = 8.49 × 10⁻⁴: the exponent the page writes must give the weight it
    writes. Distance 10, first of 16 heads: slope 2^(−1/2)."""
    exact = -10 / math.sqrt(2)
    weight = f"{math.exp(exact):.2e}"                    # 8.49e-04
    shown = values["alibi16"]["bias_first_shown"]
    assert f"{math.exp(shown):.2e}" == weight
    assert abs(shown - exact) < 1e-3 and f"{math.exp(round(exact, 2)):.2e}" != weight   # 2 decimals would not do
    challenge = re.search(r'<article class="challenge" id="challenge-4".*?</article>', page, re.S).group(0)
    text = page_text(challenge)
    assert f"e{format(shown, 'g').replace('-', '−')}≈8.49×10−4" in text.replace(" ", ""), text


def test_rounding_noise_is_shown_as_an_order_of_magnitude(page):
    """Differences that are 0 in exact arithmetic (~10⁻¹⁶) appear as 「≈ 10⁻ⁿ」, never with three digits."""
    text = page_text(page)
    digits = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
    with_digits = [int(e.translate(digits)) for e in re.findall(r"\d × 10⁻([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", text)]
    assert with_digits and max(with_digits) < 12          # real small numbers (10⁻⁴ …) keep their digits
    marks = [int(e.translate(digits)) for e in re.findall(r"≈ 10⁻([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", text)]
    # §1's table (3 words) and sentence, §2's two spreads, §3's spread, §5's causal check: all noise, 10⁻¹⁴ … 10⁻¹⁷
    assert len(marks) >= 8 and all(14 <= e <= 17 for e in marks), marks
    assert text.count("浮点舍入误差") >= 4


def test_sources_back_the_models_named(page):
    text = page_text(page)
    assert "arxiv.org/abs/2302.13971" in text and "arxiv.org/abs/2211.05100" in text  # LLaMA (RoPE), BLOOM (ALiBi)
    assert "今天的大模型" not in text and "读出每个词的绝对位置" not in text
    assert "隐式的" in text                                               # Haviv et al.: an implicit notion of position
