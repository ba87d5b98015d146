"""render/reading.py: a lesson's text blocks in the order its page shows them (what numbers the citations), and its
reading time — about 400 Chinese characters or 200 Latin words a minute, plus half a minute a figure — counted here
by hand on lessons written for it. Lessons read by the load stage; lesson.py loaded, never computed or drawn."""
from pathlib import Path
from types import SimpleNamespace

import pytest

from lessonkit.compute.registry import load_lesson_module
from lessonkit.compute.run import ComputedLesson
from lessonkit.load.lessons import read_lesson
from lessonkit.load.syntax.nodes import plain
from lessonkit.render.reading import challenges_of, reading_minutes, reading_texts

META = "title: 小课\nsummary: 测试\nobjectives:\n  - 看懂\n"   # 6 Chinese characters, no Latin word
META_EN = "title: Tiny\nsummary: Test\nobjectives:\n  - Read\n"   # 3 words


def lesson(tmp_path: Path, md: str, yaml: str = META, py: str | None = None):
    folder = tmp_path / "demo"
    folder.mkdir(exist_ok=True)
    (folder / "lesson.md").write_text(md, encoding="utf-8")
    (folder / "lesson.yaml").write_text(yaml, encoding="utf-8")
    if py is not None:
        (folder / "lesson.py").write_text(py, encoding="utf-8")
    source = read_lesson(folder)
    assert source.problems == []
    return source


@pytest.mark.parametrize("characters, figures, minutes", [
    (394, 0, 1),    # 394 + 6 in lesson.yaml = 400: one minute exactly
    (395, 0, 2),    # 401: a little over
    (394, 1, 2),    # 1 + ½
    (394, 2, 2),    # 1 + 1
    (394, 3, 3),    # 1 + 1½
    (1194, 0, 3),   # 1200 / 400
])
def test_chinese_is_read_at_about_400_characters_a_minute(tmp_path, characters, figures, minutes):
    source = lesson(tmp_path, "## 一 {#one}\n\n" + "字" * characters + "。\n")   # `。` is punctuation: not counted
    assert reading_minutes(source, figures) == minutes


@pytest.mark.parametrize("words, minutes", [(197, 1), (198, 2), (397, 2)])
def test_latin_words_at_about_200_a_minute(tmp_path, words, minutes):
    source = lesson(tmp_path, "## One {#one}\n\n" + "word " * words + "\n", yaml=META_EN)   # the heading is no body
    assert reading_minutes(source, 0) == minutes


def test_chinese_and_latin_add_up(tmp_path):
    # 194 + 6 characters (½ minute) and 100 words (½ minute): one minute; one more word tips it over
    source = lesson(tmp_path, "## 一 {#one}\n\n" + "字" * 194 + "\n\n" + "word " * 100 + "\n")
    assert reading_minutes(source, 0) == 1
    source = lesson(tmp_path, "## 一 {#one}\n\n" + "字" * 194 + "\n\n" + "word " * 101 + "\n")
    assert reading_minutes(source, 0) == 2


RICH_META = META + """\
checks:
  - id: quiz-one
    question: 选一个
    check:
      fields:
        - label: 数
          answer: no_res_09
          unit: "%"
challenges:
  - title: 为什么
    question: 算 $\\frac{a}{b}$ 和 {{ n }}
    answer: 是的
"""   # prose: 6 + 选一个 3 + 数 1 + 为什么 3 + 算和 2 + 是的 2 = 17 characters; keys, the id, the value's name, the
#       unit, the formula and the value are not read as words


@pytest.mark.parametrize("characters, minutes", [(383, 1), (384, 2)])   # 383 + 17 = 400: one minute exactly
def test_lesson_yaml_counts_its_prose_not_its_keys_names_or_formulas(tmp_path, characters, minutes):
    md = "## 一 {#one}\n\n" + "字" * characters + " $$\\sum_{i} x_i$$ [@vaswani2017]\n\n{{< figure plot >}}\n"
    source = lesson(tmp_path, md, yaml=RICH_META)
    assert reading_minutes(source, 0) == minutes


def test_an_empty_lesson_still_takes_a_minute():   # (no text: 0 / 400 would round to 0)
    assert reading_minutes(SimpleNamespace(sections=[], meta={}), 0) == 1


def test_challenges_of_a_lesson_yaml_that_got_them_wrong():
    assert challenges_of({}) == [] and challenges_of({"challenges": "一道题"}) == []
    assert challenges_of({"challenges": [{"title": "a"}, "b", None]}) == [{"title": "a"}, {}, {}]


PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def n():
    return 3


@lesson.figure(caption="柱的图注", alt="柱", name="bars")
def draw_bars(plt):
    pass


@lesson.figure(caption="曲线的图注", alt="曲线")
def curve(plt):
    pass


@lesson.figure(caption="答案的图注", alt="答案")
def answer_fig(plt):
    pass
"""

MD = """\
## 一 {#one}

第一段。

{{< figure curve >}}

::: note 注意
框里的话。
:::

## 二 {#two}

{{< code draw_bars >}}
{{< code n >}}
{{< widget w >}}
"""

YAML = """\
title: 小课
summary: 测试
intro: 开场白。
objectives:
  - 目标一
  - 目标二
question: 课堂问题？
challenges:
  - title: 题一
    question: 题一的问题
    hints:
      - 提示一
    answer: |
      答案的话。

      {{< figure answer_fig >}}
sources:
  - 文献一
"""


def test_reading_texts_in_the_page_order(tmp_path):
    source = lesson(tmp_path, MD, YAML, PY)
    computed = ComputedLesson(source, {}, {}, load_lesson_module(source.code_path))
    assert [plain(nodes) for _, nodes in reading_texts(computed) if plain(nodes)] == [
        "开场白。",
        "目标一", "目标二",
        "课堂问题？",
        # a section: its title, its blocks, a placed figure's caption where it stands, a container's title and the
        # blocks inside it …
        "一", "第一段。", "曲线的图注", "注意", "框里的话。",
        # … a figure function's code: its figure's caption; a value's code and a widget: nothing to read
        "二", "柱的图注",
        "题一的问题", "提示一", "答案的话。", "答案的图注",    # a challenge: question, hints, answer
        "文献一",
    ]
    kinds = [type(nodes[0]).__name__ for _, nodes in reading_texts(computed) if nodes]
    assert kinds.count("Directive") == 5 and kinds.count("Container") == 1   # each placed where it stands
