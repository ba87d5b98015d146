"""Figure data handed explicitly: `@lesson.figure(…, data="VALUE")` shows that value as the figure's data table
and CSV, in place of what drawing records (features/figdata.py `explicit`, compute/run.py `explicit_data`)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from lessonkit.features.figdata import explicit
from lessonkit.features.widgets import table

YAML = "title: 小课\nsummary: 一节\nobjectives:\n  - 看\n"
MD = "## 一 {#one}\n\n{{< figure strip >}}\n\n{{< figure pair >}}\n"
PY = """\
import numpy as np
from lessonkit import Lesson, table

lesson = Lesson()


@lesson.value
def offsets():
    return np.array([1, 2, 3])


@lesson.value
def bias(offsets):
    return -0.5 * offsets


@lesson.value
def cells(offsets, bias):
    return {"$i - j$": offsets, "$-\\\\frac{1}{2}(i - j)$": bias}


@lesson.value
def two_tables(offsets):
    return [table({"k": offsets, "平方": offsets ** 2}, caption="平方表"),
            table([{"k": 1, "立方": 1}, {"k": 2, "立方": 8}], caption="立方表")]


@lesson.figure(caption="偏置", alt="一排色块", data="cells")
def strip(plt, offsets, bias):
    fig, ax = plt.subplots(figsize=(3, 1))
    ax.bar(offsets, np.full(len(bias), 0.92), color=["#1f77b4", "#aec7e8", "#ffffff"])  # cells: heights say nothing
    ax.set_xticks(offsets, ["甲", "乙", "丙"])
    return fig


@lesson.figure(caption="两张表", alt="两条线", data="two_tables")
def pair(plt, offsets):
    fig, ax = plt.subplots(figsize=(3, 1))
    ax.plot(offsets, offsets ** 2)
    return fig
"""


def csv_of(figure_html: str, name: str, page_folder) -> list[str]:
    """The lines of the CSV file the figure links as `name`, beside its page."""
    href = re.search(rf'href="([^"]+)"[^>]*download="{name}"', figure_html).group(1)
    return (page_folder / href).read_text(encoding="utf-8").lstrip("\ufeff").splitlines()


def test_the_named_value_is_the_figures_data_table_and_csv(make_lesson, run_build):
    make_lesson(yaml=YAML, md=MD, py=PY)
    pages = []
    for _ in range(2):  # drawn, then from the cache
        code, _, err, out = run_build("--jobs", "1", "--lang", "zh-CN")
        assert code == 0, err
        pages.append((out / "demo" / "index.html").read_text(encoding="utf-8"))
    assert pages[0] == pages[1]
    figure = re.search(r'<figure id="fig-strip".*?</figure>', pages[0], re.S).group(0)
    # the headers' maths as text: i − j and −½(i − j) written as −1/2(i − j); the cells −0.5·(i − j) by hand
    assert "<th>i − j<th>−1/2(i − j)</thead>" in figure
    for offset, value in (("1", "−0.5"), ("2", "−1"), ("3", "−1.5")):
        assert f"<tr><th>{offset}<td>{value}" in figure
    data = re.search(r'<details class="figure-data">.*?</details>', figure, re.S).group(0)
    assert "0.92" not in data and "甲" not in data  # nothing of the bars drawn as cells
    assert csv_of(figure, "fig-strip.csv", out / "demo") == ["i − j,−1/2(i − j)", "1,-0.5", "2,-1", "3,-1.5"]
    pair = re.search(r'<figure id="fig-pair".*?</figure>', pages[0], re.S).group(0)
    assert "平方表" in pair and "立方表" in pair
    assert csv_of(pair, "fig-pair-1.csv", out / "demo") == ["k,平方", "1,1", "2,4", "3,9"]
    assert csv_of(pair, "fig-pair-2.csv", out / "demo") == ["k,立方", "1,1", "2,8"]


def test_explicit_tables_in_every_shape():
    expected = {"title": "", "columns": ["a", "b"], "rows": [[1, 2.5], [2, 3.5]]}
    assert explicit({"a": np.array([1, 2]), "b": [2.5, 3.5]}) == {"tables": [expected]}
    assert explicit([{"a": 1, "b": 2.5}, {"a": 2, "b": 3.5}]) == {"tables": [expected]}
    assert explicit([["a", "b"], [1, 2.5], [2, 3.5]]) == {"tables": [expected]}
    titled = explicit(table([[1, 2.5], [2, 3.5]], columns=["a", "b"], caption="表 $\\mu$"))
    assert titled == {"tables": [{**expected, "title": "表 μ"}]}
    assert explicit({"$\\sum_i \\cos(k\\omega_i)$": [1.0]})["tables"][0]["columns"] == ["∑ᵢ cos(kωᵢ)"]


@pytest.mark.parametrize("value", [42, "文字", {"a": [1, 2], "b": [1]}, [[1, 2], [3]], [{"a": object()}], []])
def test_what_is_not_a_table_is_refused(value):
    with pytest.raises(ValueError):
        explicit(value)
