import math

import numpy as np
import pytest

from lessonkit.support.numbers import FormatError, format_value


@pytest.mark.parametrize("value, spec, expected", [
    (2.5992, None, "2.60"),            # 1.01**96 to three significant figures
    (9412.34, None, "9412"),           # whole-number digits are never rounded away
    (4.0480e-5, None, "4.05 × 10⁻⁵"),  # small numbers in scientific notation
    (4.0480e-5, "pct2", "0.0040 %"),
    (0.5, "pct2", "50 %"),
    (-0.8165, "sig3", "−0.817"),       # a real minus sign
    (2.449, "sig2", "2.4"),
    (4.0, None, "4.00"),
    (12345678.0, None, "1.23 × 10⁷"),
    (9.9996e-5, None, "1.00 × 10⁻⁴"),  # rounding carries into the exponent
    (1.63299, ".2f", "1.63"),
    (-1e-9, ".1e", "−1.0 × 10⁻⁹"),
    (0.0, None, "0"),
    (-0.0001, ".2f", "0.00"),          # never "−0.00"
])
def test_format_number(value, spec, expected):
    assert format_value(value, spec) == expected


def test_integers_print_exactly():
    assert format_value(1024) == "1024"
    assert format_value(np.int64(-3)) == "−3"


def test_lists_and_arrays_format_elementwise():
    xhat = (np.array([8, 2, 2, 4]) - 4) / math.sqrt(6)
    assert format_value(xhat) == "[1.63, −0.816, −0.816, 0]"


def test_math_mode_uses_latex():
    assert format_value(4.048e-5, math_mode=True) == r"4.05 \times 10^{-5}"
    assert format_value(-0.5, math_mode=True) == "-0.500"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), True, object()])
def test_unshowable_values_raise(bad):
    with pytest.raises(FormatError):
        format_value(bad)


def test_bad_spec_raises():
    with pytest.raises(FormatError, match="bad format spec"):
        format_value(1.0, "zz")


@pytest.mark.parametrize("value, spec, expected", [
    (1234567, ",", "1,234,567"),      # thousands separator on an integer stays an integer
    (7, "03d", "007"),
    (5, ".2f", "5.00"),               # a float spec on an integer still works
    (10 ** 20 + 1, None, "100000000000000000001"),  # exact, no float rounding
])
def test_integers_with_a_spec(value, spec, expected):
    assert format_value(value, spec) == expected
