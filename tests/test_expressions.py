"""Values as expressions (lessonkit/support/expressions.py): what may be written inside `{{ … }}`, worked by hand."""
import numpy as np
import pytest

from lessonkit.support.expressions import ExpressionError, evaluate, mentions_a_value, names_in, split_spec

VALUES = {"results": [0.5, 0.25, 0.125], "w": np.zeros((3, 4)), "x0": 1.5, "ln": {"xhat": [1.0, -2.0], "mu": 0.5},
          "trace": (3, 1, 4, 1, 5), "n": 10}


@pytest.mark.parametrize("text, expected", [
    ("results[-1]", 0.125),
    ("results[1:]", [0.25, 0.125]),
    ("w.shape[0]", 3),
    ("w.T.shape", (4, 3)),
    ("len(trace)", 5),
    ("max(trace) - min(trace)", 4),
    ("x0 * 2", 3.0),
    ("-x0 ** 2", -2.25),                 # Python's precedence: -(x0 ** 2)
    ("n // 3 + n % 3", 4),
    ("ln.xhat.1", -2.0),                  # the older dotted form
    ("ln.mu", 0.5),
    ("ln['xhat'][0]", 1.0),
    ("round(sum(results), 2)", 0.88),     # 0.875 rounds to even: 0.88
    ("abs(ln.xhat[1]) / 4", 0.5),
    ("results[0] > results[1]", True),
])
def test_expressions_evaluate_as_python_would(text, expected):
    assert evaluate(text, VALUES) == expected


@pytest.mark.parametrize("text, message", [
    ("resuls[0]", "`resuls[0]`: `resuls` is no value of this lesson"),
    ("results[5]", "`results[5]`: index 5 is out of range: `results` has 3 item(s)"),
    ("ln.sigma", "`ln.sigma`: `ln` has no key `sigma` (keys: xhat, mu)"),
    ("x0[0]", "`x0[0]`: `x0` is a number (1.5): it has no items"),
    ("open('x')", "`open('x')`: `open(…)` cannot be called here"),
    ("w.__class__", "`w.__class__`: `.__class__` is not allowed here"),
    ("w.fill(0)", "`w.fill(0)`: `w.fill(…)` cannot be called here"),
    ("[v for v in results]", "`[v for v in results]`: `[v for v in results]` is not allowed here"),
    ("lambda: 1", "`lambda: 1`: `lambda: 1` is not allowed here"),
    ("n / 0", "`n / 0`: division by zero"),
    ("2 ** 100000", "`2 ** 100000`: an exponent above 10000"),
    ("results[", "`results[` is not an expression"),
    ("__import__('os')", "cannot be called here"),
])
def test_what_is_not_allowed_is_said_with_the_expression(text, message):
    with pytest.raises(ExpressionError) as caught:
        evaluate(text, VALUES)
    assert message in str(caught.value.message)


@pytest.mark.parametrize("text, expected", [
    ("results[-1]:.4f", ("results[-1]", ".4f")),
    ("results[1:3]", ("results[1:3]", None)),
    ("results[1:3]:g", ("results[1:3]", "g")),
    ("ln['a:b']", ("ln['a:b']", None)),
    ("x0 * 2 : pct2", ("x0 * 2", "pct2")),
])
def test_the_format_spec_follows_the_last_colon_outside_brackets(text, expected):
    assert split_spec(text) == expected


def test_names_read_by_an_expression_leave_out_the_functions_called():
    assert names_in("len(trace) + max(results) * ln.mu") == ["trace", "results", "ln"]


@pytest.mark.parametrize("text", [
    "x0 * 0.9", "1e-4", "-1", "n - 1", "2.5e3 * x0", ".5 * x0", "x0*.5", "0.9", "-x0 + 1.25", "(n - 1) / 4",
    "results[0] * 1e3", "n * 1_000", "3.0 ** -2",
])
def test_number_literals_are_pythons(text):
    """Python is the oracle: the same text evaluated by Python itself over the same values."""
    plain = {"x0": 1.5, "n": 10, "results": [0.5, 0.25, 0.125]}
    assert evaluate(text, VALUES) == eval(text, {"__builtins__": {}}, plain)


@pytest.mark.parametrize("text, expected", [
    ("results.0", 0.5),
    ("results.2", 0.125),
    ("ln.xhat.0", 1.0),
    ("nested.b.1.2", 5),                  # nested["b"][1][2]
    ("results.0 * 2", 1.0),
    ("ln.xhat.1 + 0.5", -1.5),
    ("trace[1:].0", 1),                   # after `]`
    ("ln['a.0']", "kept"),                # a string's `.0` is text
])
def test_the_older_dotted_index_still_reads_as_an_item(text, expected):
    values = {**VALUES, "nested": {"b": [[1, 2], [3, 4, 5]]}, "ln": {**VALUES["ln"], "a.0": "kept"}}
    assert evaluate(text, values) == expected


@pytest.mark.parametrize("text, message", [
    ("results .0", "`results .0`: `.0` after `results` is ambiguous: write `results[0]` for an item"),
    ("results.1e3", "`results.1e3`: `.1e3` after `results` is ambiguous: write `results[…]` for an item"),
    ("results.0 .1", "`.1` after `results.0` is ambiguous: write `results.0[1]` for an item"),
])
def test_a_dotted_number_that_could_be_either_is_refused_with_the_bracketed_spelling(text, message):
    with pytest.raises(ExpressionError) as caught:
        evaluate(text, VALUES)
    assert message in str(caught.value.message)


@pytest.mark.parametrize("text, expected", [
    ("(a - b) / c", True),
    ("x", True),
    ("len(x)", True),
    ("-x0 * 0.9", True),
    ("probs.0:pct1", True),              # the spec is left out
    ("w.shape[0]", True),
    ("probs .0", True),                  # ambiguous, but a value: evaluating it says how to write it
    ("2", False),                        # TeX's x^{{2}}
    ("1 + 2", False),
    ("len(3)", False),                   # a function called is no value read
    ("x y", False),                      # no expression
    ("\\alpha", False),
    ("n+1}", False),
    ("", False),
])
def test_mentions_a_value_tells_a_value_from_double_braces(text, expected):
    assert mentions_a_value(text) is expected
