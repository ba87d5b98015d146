import math

import numpy as np
import pytest

from lessonkit.support.numbers import FormatError, format_answer, format_value


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


@pytest.mark.parametrize("value", [(3, 4), (3,), (), (1, (2, 3), ()), (0, 12)])
def test_tuples_of_ints_read_as_python_writes_them(value):
    assert format_value(value) == repr(value)
    assert format_value(value, math_mode=True) == repr(value)


@pytest.mark.parametrize("value, math_mode, expected", [
    ((-1, 0.5), False, "(−1, 0.500)"),                  # numbers inside as everywhere: a real minus, 3 figures
    ((-1, 0.5), True, "(-1, 0.500)"),                   # LaTeX's minus inside maths
    ((np.int64(3), np.int64(4)), False, "(3, 4)"),      # numpy's ints as ints, not `np.int64(3)`
    ((np.float64(0.25),), False, "(0.250,)"),
    (np.zeros((2, 3)).shape, False, "(2, 3)"),
    ([(1, 2), [3]], False, "[(1, 2), [3]]"),            # a list stays a list, a tuple inside it a tuple
    (np.array([3, 4]), False, "[3, 4]"),
])
def test_tuples_format_their_numbers_like_any_other(value, math_mode, expected):
    assert format_value(value, math_mode=math_mode) == expected


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


@pytest.mark.parametrize("value, spec, expected", [
    (179636, "sig1", "2 × 10⁵"),        # the first lesson's stepper: 1.79636 × 10⁵ to one figure
    (179636.4, "sig1", "2 × 10⁵"),      # a float alike
    (-179636, "sig1", "−2 × 10⁵"),
    (179636, "sig3", "1.80 × 10⁵"),     # 1.79636 → 1.80
    (9412.3, "sig2", "9.4 × 10³"),      # 1.1⁹⁶ to two figures
    (123, "sig2", "1.2 × 10²"),
    (99.96, "sig2", "1.0 × 10²"),       # rounds up to 100: three whole digits, so scientific
    (950, "sig1", "1 × 10³"),           # 9.5 × 10² rounds (half to even) to 1 × 10³
    (28.6, "sig2", "29"),               # as many whole digits as figures: no exponent needed
    (9.96, "sig2", "10"),
    (5.4, "sig1", "5"),
    (0.5, "pct1", "50 %"),              # percentages keep their whole digits, as before
])
def test_sig_rounds_whole_number_digits_too(value, spec, expected):
    assert format_value(value, spec) == expected


def test_sig_rounds_whole_digits_in_math_mode_and_the_default_keeps_them():
    assert format_value(179636, "sig1", math_mode=True) == r"2 \times 10^{5}"
    assert format_value(9412.34) == "9412"          # no spec: 3 significant figures, whole-number digits kept
    assert format_value(179636) == "179636"         # an integer with no spec prints exactly


@pytest.mark.parametrize("x, spec, shown", [
    (22, None, "22"), (22.0, None, "22"), (0.22 * 100, None, "22"), (-3.0, None, "\u22123"),
    (21.996, None, "22.0"), (0.5, None, "0.500"), (22.0, ".1f", "22.0"), (1e6, None, "1000000"),
])
def test_an_answer_key_prints_a_whole_number_whole(x, spec, shown):
    """Worked by hand: a whole number (up to floating-point error: 0.22 × 100 = 22.000000000000004) has no
    significant figures to show; 21.996 is not whole and keeps three; a spec is obeyed."""
    assert format_answer(x, spec) == shown
