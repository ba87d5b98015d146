"""The default theme's general widgets, as lesson code builds them: every number formatted here, in Python."""
import math

import pytest



from lessonkit.features.widgets import bars, explorer, param, table_data
from lessonkit.support.i18n import load_ui
from lessonkit.support.words import spoken
from lessonkit.support.paths import BUILTIN_THEMES

THEME = [BUILTIN_THEMES / "default"]
ZH, EN = load_ui(THEME, "zh-CN"), load_ui(THEME, "en")


def test_explorer_states_cover_the_grid_with_formatted_values_and_log_bars():
    result = explorer(params=[param("n", "层数", [0, 1, 2, 3], control="stepper", initial=1)],
                      state=lambda n: {"values": [("缩小", 0.5 ** n), ("放大", 2.0 ** n, "sig2")]},
                      key=[0, 3], bars="log", caption="信号大小")
    assert result.kind == "explorer"
    states = result.data["states"]
    assert [s["id"] for s in states] == ["0", "1", "2", "3"]
    assert [v["text"] for v in states[3]["values"]] == ["0.125", "8.0"]
    assert [s["key"] for s in states] == [True, False, False, True]
    assert [s["initial"] for s in states] == [False, True, False, False]
    # log bars over the whole grid: 0.125 … 8 spans 6 octaves; 2⁰ = 1 sits half way, 2 + 98·3/6 = 51
    assert states[0]["values"][1]["bar"] == pytest.approx(51.0)
    assert states[3]["values"][0]["bar"] == pytest.approx(2.0) and states[3]["values"][1]["bar"] == 100.0
    assert result.script["states"]["2"][2] == [["0.250", pytest.approx(2 + 98 * 1 / 6, abs=0.05)],
                                              ["4.0", pytest.approx(2 + 98 * 5 / 6, abs=0.05)]]
    # the builder runs in lesson.py, before the site's language is known: the words around the values are the theme's
    assert spoken(states[1]["summary"], ZH) == "层数 1：缩小 0.500；放大 2.0"
    assert spoken(states[1]["summary"], EN) == "层数 1: 缩小 0.500; 放大 2.0"
    assert spoken(result.script["states"]["1"][0], EN) == "层数 1: 缩小 0.500; 放大 2.0"


def test_true_and_false_are_the_themes_words_in_explorers_and_tables():
    result = explorer(params=[param("d", "width", [4, 16]), param("s", "scaled", [False, True], control="buttons")],
                      state=lambda d, s: {"values": [("size", d), ("even", d % 8 == 0)]})
    said = spoken(result.data, EN)
    assert said["params"][1]["options"] == ["no", "yes"]
    assert said["states"][3]["point"] == "width 16 · scaled yes"
    assert said["states"][3]["summary"] == "width 16 · scaled yes: size 16; even yes"
    assert spoken(result.data, ZH)["states"][0]["summary"] == "width 4 · scaled 否：size 4；even 否"
    assert spoken(result.script, EN)["params"][1]["options"] == ["no", "yes"]
    flags = table_data({"n": [1, 2], "even": [False, True]})
    assert spoken(flags, EN)["rows"] == [["1", "no"], ["2", "yes"]]
    assert spoken(flags, ZH)["rows"] == [["1", "否"], ["2", "是"]]


def test_explorer_with_two_parameters_and_figures_asks_the_engine_to_draw_each_point():
    result = explorer(params=[param("d", "维度", [4, 16]), param("s", "缩放", [False, True], labels=["否", "是"],
                                                                   control="buttons")],
                      state=lambda d, s: {"values": [("x", d / (math.sqrt(d) if s else 1))]},
                      figure=lambda plt, d, s: None, alt="d = {d}", key=[(16, True)])
    assert [s["id"] for s in result.data["states"]] == ["0.0", "0.1", "1.0", "1.1"]
    assert [f.point for f in result.figures] == [{"d": 4, "s": False}, {"d": 4, "s": True},
                                                 {"d": 16, "s": False}, {"d": 16, "s": True}]
    assert [f.alt for f in result.figures][-1] == "d = 16"
    assert [s["key"] for s in result.data["states"]] == [False, False, False, True]
    assert result.data["states"][3]["values"][0]["text"] == "4.00"


@pytest.mark.parametrize("build, message", [
    (lambda: param("d", "维度", []), "`values` of `d` is empty"),
    (lambda: param("d", "维度", [1, 2], control="dial"), "`control` 'dial' of `d` is not one of slider, stepper, "
                                                          "buttons"),
    (lambda: param("d", "维度", [1, 2], initial=3), "`initial` 3 of `d` is not one of its values"),
    (lambda: explorer([param("d", "d", [1])], state=lambda d: {}, key=[5]), "5 is not a value of `d`"),
    (lambda: explorer([param("d", "d", [1])], state=lambda d: {}, figure=lambda plt, d: None),
     "a `figure` without `alt`"),
])
def test_explorer_mistakes_say_what_is_wrong(build, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build()


def test_bars_write_every_value_as_text_with_its_unit():
    result = bars(["甲", "乙", "丙"], [0.5, 2.0, 1.0], unit="倍", highlight=["乙"])
    rows = result.data["rows"]
    assert [r["text"] for r in rows] == ["0.500 倍", "2.00 倍", "1.00 倍"]
    assert [r["bar"] for r in rows] == [25.0, 100.0, 50.0]
    assert [r["highlight"] for r in rows] == [False, True, False]


def test_tables_from_records_columns_and_rows():
    records = table_data([{"层": 1, "值": 0.5}, {"层": 2, "值": -0.25}])
    assert records["columns"] == ["层", "值"] and records["rows"] == [["1", "0.500"], ["2", "\u22120.250"]]
    columns = table_data({"x": [1, 2], "y": [1e-5, 3.0]})
    assert columns["rows"] == [["1", "1.00 × 10⁻⁵"], ["2", "3.00"]]
    with pytest.raises(ValueError, match="different lengths"):
        table_data({"x": [1, 2], "y": [1]})
