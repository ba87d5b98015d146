"""Values as expressions wherever values work (support/values.py over support/expressions.py): prose, maths,
captions, alt texts, challenge titles and answers, self-check keys; a mistake is reported at its file and line with
the expression. Expected texts are worked by hand from the values below."""
import json
import re

import numpy as np
import pandas as pd
import pytest

from lessonkit.support.expressions import ExpressionError, evaluate
from lessonkit.support.values import shown, value_of

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def results():
    return [0.5, 0.25, 0.125]


@lesson.value
def trace():
    return (3, 1, 4, 1, 5)


@lesson.value
def ln():
    return {"xhat": [1.5, -0.5], "mu": 2.5}


@lesson.figure(caption="末值 {{ results[-1]:.3f }}", alt="{{ len(trace) }} 个点，最高 {{ max(trace) }}")
def curve(plt, trace):
    fig, ax = plt.subplots()
    ax.plot(trace)
    return fig
"""
YAML = """\
title: 小课
summary: 一节用来测试的小课
objectives:
  - 看懂一个数
challenges:
  - title: 第 {{ trace[2] * 2 }} 题
    question: 两个加起来是多少？
    answer: 是 {{ results[0] + results[1] }}。
    check:
      fields:
        - label: 和
          answer: results[0] + results[1]
          tolerance: {absolute: 0.01}
"""
MD = """\
## 第一节 {#first}

最后一步是 {{ results[-1]:.4f }}，一共 {{ len(trace) }} 步；老的写法 {{ ln.xhat.0 }} 照旧，
$x_{\\max} = {{ max(trace) - min(trace) }}$。

{{< figure curve >}}
"""


def test_expressions_fill_prose_maths_captions_alt_titles_answers_and_keys(make_lesson, run_build):
    make_lesson(yaml=YAML, md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "最后一步是 0.1250，一共 5 步；老的写法 1.50 照旧" in page      # .4f; a count whole; 3 figures
    assert "<mn>4</mn>" in re.search(r"<math>.*?</math>", page, re.S).group(0)   # 5 − 1 inside the formula
    assert "末值 0.125" in page                                            # the figure's caption
    assert 'role="img" aria-label="5 个点，最高 5"' in page                  # its alt text
    assert "第 8 题" in page                                               # 4 × 2 in the challenge's title
    assert "是 0.750。" in page                                            # 0.5 + 0.25, three figures
    data = json.loads(re.search(r'id="check-1-data">(.*?)</script>', page, re.S).group(1))
    assert data["fields"][0]["accept"] == pytest.approx([0.74, 0.76], abs=1e-9)   # 0.75 ± 0.01


@pytest.mark.parametrize("where, text, message", [
    ("md", "一共 {{ len(traces) }} 步。", "lesson.md:8: `len(traces)`: `traces` is no value of this lesson; did you "
                                        "mean `trace`?"),
    ("md", "第 {{ trace[9] }} 个。", "lesson.md:8: `trace[9]`: index 9 is out of range: `trace` has 5 item(s)"),
    ("md", "{{ results[0].__class__ }}", "lesson.md:8: `results[0].__class__`: `.__class__` is not allowed here"),
    ("md", "{{ open('x') }}", "lesson.md:8: `open('x')`: `open(…)` cannot be called here"),
    ("yaml", "results[-1] * unknown", "lesson.yaml:12: `challenges.0.check.fields.0.answer`: `results[-1] * unknown`: "
                                      "`unknown` is no value of this lesson"),
])
def test_a_wrong_expression_names_its_file_line_and_what_went_wrong(make_lesson, run_build, where, text, message):
    if where == "md":
        make_lesson(yaml=YAML, md=MD + "\n" + text + "\n", py=PY)
    else:
        make_lesson(yaml=YAML.replace("answer: results[0] + results[1]", f"answer: {text}"), md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 1 and message in err, err
    assert not out.exists()


@pytest.mark.parametrize("text, spec, math_mode, expected", [
    ("(a - b) / c", None, False, "0.500"),          # (3 − 2) / 2, three figures
    ("-a", None, False, "\u22123"),                 # an int, with a real minus sign
    ("-a", None, True, "-3"),                       # LaTeX's own minus inside maths
    ("2", None, False, "2"),
    ("-1 + a", None, False, "2"),
    ("a * 0.9", None, False, "2.70"),               # the number 0.9, not `0[9]`
    ("1e-4 * b", None, False, "2.00 × 10⁻⁴"),
    (".5 * c", ".1f", False, "1.0"),
    ("2.5e3 * a", None, False, "7500"),             # whole-number digits kept
])
def test_an_expression_may_start_with_a_bracket_a_number_or_a_minus(text, spec, math_mode, expected):
    values = {"a": 3, "b": 2, "c": 2}
    assert value_of(text, values) == eval(text, {"__builtins__": {}}, values)   # Python is the oracle
    assert shown(text, spec, values, math_mode=math_mode) == expected


ARRAYS = {"arr": np.arange(12).reshape(3, 4), "theta": np.zeros(5), "d": {"shape": "a key", "size": [1, 2]},
          "ln": {"xhat": [1.5, -0.5]}, "trace": (3, 1, 4, 1, 5)}


@pytest.mark.parametrize("text, expected", [
    ("arr.shape", (3, 4)),                # 3 rows of 4
    ("theta.shape", (5,)),
    ("arr.ndim", 2),
    ("arr.size", 12),
    ("arr.T.shape", (4, 3)),
    ("arr.T.1", [1, 5, 9]),               # the second column: 1, 1 + 4, 1 + 8
    ("arr.shape.0", 3),
    ("d.shape", "a key"),                 # a mapping's key wins over the attribute
    ("d.size.1", 2),
    ("ln.xhat.0", 1.5),
])
def test_a_dotted_name_reads_an_arrays_shape_as_an_expression_does(text, expected):
    assert plain(value_of(text, ARRAYS)) == expected
    assert plain(evaluate(text, ARRAYS)) == expected      # the plain lookup and the expression agree


@pytest.mark.parametrize("text, expected", [("arr.shape[0]", 3), ("len(trace)", 5), ("arr.T.shape[1] * 2", 6)])
def test_a_shape_indexed_or_a_length_is_an_expression(text, expected):
    assert value_of(text, ARRAYS) == expected


def plain(value):
    """An array as Python's nested lists, to compare with a hand-written expectation."""
    return value.tolist() if isinstance(value, np.ndarray) else value


@pytest.mark.parametrize("text, math_mode, expected", [
    ("arr.shape", False, "(3, 4)"), ("arr.shape", True, "(3, 4)"), ("theta.shape", False, "(5,)"),
    ("arr.T.shape", False, "(4, 3)"), ("arr.shape[0] * arr.shape[1]", False, "12"), ("arr.0", False, "[0, 1, 2, 3]"),
])
def test_a_shape_is_shown_as_python_writes_a_tuple(text, math_mode, expected):
    assert shown(text, None, ARRAYS, math_mode=math_mode) == expected


TABLES = {"df": pd.DataFrame({"loss": [0.9, 0.5, 0.25], "step": [1, 2, 3]}), "t": pd.Series([7, 8, 9]),
          "s": pd.Series([4.0, 5.0], index=["p", "q"])}


@pytest.mark.parametrize("text, expected", [
    ('df["loss"][2]', "0.250"),           # the third loss, three figures
    ('df["step"][0]', "1"),               # numpy's int64 shown as an int
    ('df["loss"][0] * 2', "1.80"),
    ("t[0]", "7"),
    ("t[1] - t[2]", "\u22121"),            # 8 − 9
    ('s["q"]', "5.00"),                   # by its label
    ('df["loss"]', "[0.900, 0.500, 0.250]"),
    ("df.shape", "(3, 2)"),
])
def test_a_pandas_item_is_shown_as_a_number(text, expected):
    assert shown(text, None, TABLES) == expected


@pytest.mark.parametrize("text, message", [
    ('df["loss"].iloc[0]', '`df["loss"].iloc[0]`: `.iloc` is not allowed here'),    # behaviour, not data
    ('df["los"][0]', "`df` has no key 'los' (keys: loss, step)"),
    ('s["z"]', "`s` has no key 'z' (keys: p, q)"),
    ("t[3]", "`t` has no key 3 (keys: 0, 1, 2)"),
])
def test_a_pandas_item_that_is_not_there_names_the_keys(text, message):
    with pytest.raises(ExpressionError) as caught:
        evaluate(text, TABLES)
    assert message in str(caught.value.message)
