"""Numeric edge cases and invariants: the lesson's norms never put NaN on a page, the causal mask is lower-triangular,
and the number formatting reads back as the number it shows.

The lesson's own helpers (content/transformer-stability/lesson.py) are tested, as they compute what students see.
"""
from __future__ import annotations

import importlib.util
import math
import re
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from lessonkit.support.numbers import FormatError, format_value
from lesson_folders import PROJECT

TORCH_EPS = 1e-5  # torch.nn.LayerNorm's default, added under the square root


LESSON_PY = PROJECT / "content" / "transformer-stability" / "lesson.py"


def load_lesson_code():
    if not LESSON_PY.is_file():
        return None
    path = LESSON_PY
    spec = importlib.util.spec_from_file_location("_lesson_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


L = load_lesson_code()
needs_lesson = pytest.mark.skipif(L is None, reason="content/transformer-stability is not in this checkout")

finite = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)
rows = st.lists(finite, min_size=2, max_size=16)


# ── LayerNorm and RMSNorm ─────────────────────────────────────────────────────────────────────────────────────────
@needs_lesson
@settings(max_examples=300, deadline=None)
@given(rows)
def test_layer_norm_gives_mean_0_and_std_1(x):
    x = np.array(x)
    assume(np.ptp(x) > 1e-6 * np.abs(x).max())  # not constant, and not constant up to float rounding
    y = L.layer_norm(x)
    assert np.isfinite(y).all()
    assert abs(y.mean()) < 1e-6
    assert abs(np.sqrt((y ** 2).mean() - y.mean() ** 2) - 1) < 1e-6


@needs_lesson
@settings(max_examples=300, deadline=None)
@given(rows, st.sampled_from([TORCH_EPS, 1e-12, 1.0]))
def test_layer_norm_with_eps_is_always_finite(x, eps):
    y = L.layer_norm(np.array(x), eps)
    assert np.isfinite(y).all()
    assert (np.abs(y) <= np.sqrt(len(x) - 1) + 1e-9).all()  # |x̂ᵢ| ≤ √(n − 1) for any vector


@needs_lesson
@settings(max_examples=300, deadline=None)
@given(rows)
def test_rms_norm_gives_rms_1(x):
    x = np.array(x)
    assume(np.abs(x).max() > 0)
    y = L.rms_norm(x)
    assert abs(np.sqrt((y ** 2).mean()) - 1) < 1e-9


@needs_lesson
@pytest.mark.parametrize("x", [[3.0] * 4, [0.0] * 4, [0.1] * 3, [1e300] * 5, [-7e-310] * 2])
def test_constant_vectors_normalise_to_zeros_with_eps(x):
    assert L.layer_norm(x, TORCH_EPS).tolist() == [0.0] * len(x)  # (x − μ) = 0 exactly, σ² + ε > 0


@needs_lesson
def test_worked_values_by_hand():
    # [8, 2, 2, 4]: μ = 4, σ² = (16 + 4 + 4 + 0)/4 = 6; x̂ = [4, −2, −2, 0]/√6
    assert np.allclose(L.layer_norm([8, 2, 2, 4]), np.array([4, -2, -2, 0]) / math.sqrt(6))
    # with ε: divide by √(6 + 1e-5) instead
    assert np.allclose(L.layer_norm([8, 2, 2, 4], TORCH_EPS), np.array([4, -2, -2, 0]) / math.sqrt(6 + 1e-5),
                       rtol=1e-12)
    # huge values: [1e200, −1e200] is [1, −1] after LayerNorm (σ = 1e200) though 1e200² overflows a float
    assert L.layer_norm([1e200, -1e200]).tolist() == [1.0, -1.0]
    # RMSNorm of [3, 4]·1e200: RMS = √((9 + 16)/2)·1e200 = 3.5355…e200
    assert np.allclose(L.rms_norm([3e200, 4e200]), np.array([3, 4]) / math.sqrt(12.5))
    assert L.rms_norm([0.0, 0.0], TORCH_EPS).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("norm, x, message", [
    ("layer_norm", [2.0, 2.0, 2.0], "LayerNorm of a constant vector is 0/0"),
    ("layer_norm", [0.0, 0.0], "LayerNorm of a constant vector is 0/0"),
    ("rms_norm", [0.0, 0.0], "RMSNorm of a zero vector is 0/0"),
    ("layer_norm", [1.0, float("nan")], "LayerNorm input contains NaN or ∞: [nan]"),
    ("layer_norm", [float("inf"), 1.0], "LayerNorm input contains NaN or ∞: [inf]"),
    ("rms_norm", [1.0, float("-inf")], "RMSNorm input contains NaN or ∞: [-inf]"),
])
@needs_lesson
def test_undefined_inputs_are_clear_errors_not_nan(norm, x, message):
    with pytest.raises(ValueError) as info:
        getattr(L, norm)(x)
    assert str(info.value).startswith(message)


def test_nan_in_lesson_data_is_a_clear_error_through_the_cli(make_lesson, run_build):
    """Lesson data with NaN reaching LayerNorm: the author gets the line and the reason, the page gets no NaN."""
    py = "import numpy as np\nfrom lessonkit import Lesson\n\nlesson = Lesson()\n\n\n" \
         "def layer_norm(x):\n    return (x - x.mean()) / x.std()\n\n\n" \
         "@lesson.value\ndef two_pow():\n    return 2 ** 10\n\n\n" \
         "@lesson.value\ndef normalised():\n    return layer_norm(np.array([1.0, np.nan, 3.0]))\n"
    make_lesson(py=py, md="## 一 {#one}\n\n结果 {{ two_pow }}，{{ normalised }}。\n")
    code, _, err, out = run_build()
    assert code == 1 and not out.exists()
    assert "lesson.md:3: cannot show value `normalised`: the value is nan, not a finite number" in err


# ── causal mask ───────────────────────────────────────────────────────────────────────────────────────────────────
@needs_lesson
@given(st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=40))
def test_causal_mask_is_lower_triangular(tokens):
    mask = np.asarray(L.causal_mask(tokens))
    n = len(tokens)
    assert mask.shape == (n, n) and mask.dtype == bool
    assert all(mask[i, j] == (j <= i) for i in range(n) for j in range(n))  # query i sees key j iff j ≤ i


# ── number formatting ─────────────────────────────────────────────────────────────────────────────────────────────
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def read_back(text: str) -> Decimal:
    """'−4.05 × 10⁻⁵' → Decimal('-0.0000405'): how a reader reads the page (exact, even near 1.8 × 10³⁰⁸)."""
    text = text.replace("\u2212", "-")
    m = re.fullmatch(r"(-?[\d.]+) × 10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)", text)
    return Decimal(f"{m.group(1)}e{m.group(2).translate(SUPERSCRIPTS)}") if m else Decimal(text)


@settings(max_examples=500)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_sig3_reads_back_within_half_a_unit_of_the_third_digit(x):
    text = format_value(x)
    assert "-" not in text and "nan" not in text.lower() and "inf" not in text.lower()
    assert abs(read_back(text) - Decimal(x)) <= Decimal("0.5e-2") * abs(Decimal(x))


@given(st.lists(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False), max_size=6),
       st.sampled_from([None, "sig2", "sig4", "pct1", ".2f", ".3e", "g"]))
def test_formatted_lists_never_show_hyphen_or_nan(values, spec):
    text = format_value(values, spec)
    assert "-" not in text and "nan" not in text.lower()


@given(st.integers(min_value=-10**30, max_value=10**30))
def test_integers_print_exactly(n):
    assert format_value(n).replace("\u2212", "-") == str(n)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), [1.0, float("nan")],
                                 np.array([0.0, np.inf])])
def test_non_finite_values_are_refused(bad):
    with pytest.raises(FormatError):
        format_value(bad)
    with pytest.raises(FormatError):
        format_value(bad, math_mode=True)


def test_huge_percentage_is_refused_not_inf():
    with pytest.raises(FormatError, match="too large to show as a percentage"):
        format_value(1e307, "pct2")
