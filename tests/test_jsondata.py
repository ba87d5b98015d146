"""numpy values as plain data: the one conversion behind widget data (compute), builders' inputs (features.widgets)
and figure data (features.figdata); and the JSON a page's script reads."""
from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from lessonkit.support.jsondata import json_for_script, plain


def exact(value):
    """`value` with the type of every part spelt out, so `==` cannot hide a numpy scalar, a tuple or 1 == 1.0."""
    if isinstance(value, dict):
        return ("dict", [(exact(k), exact(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [exact(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def test_arrays_become_nested_lists_of_python_numbers():
    value = plain(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert exact(value) == exact([[0, 1, 2], [3, 4, 5]])
    assert exact(plain(np.array([0.5, 2.0]))) == exact([0.5, 2.0])
    assert exact(plain(np.array([True, False]))) == exact([True, False])


def test_numpy_scalars_become_python_numbers_and_true_false_stays_true_false():
    assert exact(plain(np.int64(7))) == ("int", 7)
    assert exact(plain(np.float32(0.25))) == ("float", 0.25)
    assert exact(plain(np.bool_(True))) == ("bool", True)
    assert exact(plain(True)) == ("bool", True)                 # a bool is an Integral: never turned into 1
    assert exact(plain(Fraction(1, 4))) == ("float", 0.25)      # any real number: a float
    assert exact(plain(np.str_("头"))) == ("str", "头")


def test_numpy_inside_dicts_lists_and_tuples_at_any_depth():
    value = plain({"rows": [(np.int64(1), {"x": np.array([1.5])})], "n": np.float64(2.0)})
    assert exact(value) == exact({"rows": [[1, {"x": [1.5]}]], "n": 2.0})


def test_tuples_become_lists_unless_kept():
    assert exact(plain((1, (2, 3)))) == exact([1, [2, 3]])
    kept = plain([(np.int64(1), "a"), ((2, 3), 4)], keep_tuples=True)
    assert exact(kept) == exact([(1, "a"), ((2, 3), 4)])
    assert hash(kept[1])  # a point of two parameters stays a dict key
    assert exact(plain(np.array([[1, 2]]), keep_tuples=True)) == exact([[1, 2]])  # an array's rows are lists


def test_keys_are_kept_or_written_as_text():
    assert exact(plain({1: np.int64(2), "a": 3})) == exact({1: 2, "a": 3})
    assert exact(plain({1: {2: "x"}}, text_keys=True)) == exact({"1": {"2": "x"}})
    assert json.loads(json_for_script(plain({3: 1, "b": 2}, text_keys=True))) == {"3": 1, "b": 2}


def test_nan_and_infinity_stay_for_the_caller_or_become_gaps():
    value = plain([np.nan, np.inf, -np.inf, 1.0])
    assert math.isnan(value[0]) and value[1:] == [math.inf, -math.inf, 1.0]
    assert plain(np.array([np.nan, np.inf, -np.inf, 1.0]), gaps=True) == [None, None, None, 1.0]
    assert plain({"a": [float("nan")]}, gaps=True) == {"a": [None]}
    with pytest.raises(ValueError):  # what the page's script could not read is refused, not written
        json_for_script(plain(np.array([np.nan])))


def test_masked_values_are_gaps():
    assert plain(np.ma.masked_array([1.0, 2.0, 3.0], mask=[False, True, False])) == [1.0, None, 3.0]


def test_anything_else_is_returned_as_it_is():
    thing = object()
    assert plain([thing, "text", None])[0] is thing
    assert plain(["text", None]) == ["text", None]


def test_json_for_script_cannot_end_the_script_element():
    text = json_for_script({"a": "</script><!-- & >"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- & >"}
