"""render/numbering.py: a page's tables, toggles, tab sets and citations numbered in one pass over its syntax trees,
in the order the page shows them, before anything is rendered — so rendering counts nothing, and a section rendered
alone gets the ids a full rendering gives it. Lessons read by the load stage; lesson.py loaded, never run."""
from pathlib import Path

from lessonkit.compute.registry import load_lesson_module
from lessonkit.compute.run import ComputedLesson
from lessonkit.load.lessons import read_lesson
from lessonkit.render.numbering import page_numbers
from lessonkit.render.reading import reading_texts

MD = """\
## 一 {#one}

见 [@b] 与 [@a]。

{{< table rows >}}

::: toggle 外层
::: state 甲
{{< table rows >}}

::: toggle 里层
::: state 子甲
子
:::
::: state 子乙
子
:::
:::
:::
::: state 乙
乙
:::
:::

## 二 {#two}

{{< check quiz >}}

::: tabs framework
::: tab PyTorch
一
:::
:::
"""

YAML = """\
title: 小课
summary: 测试
intro: |
  开场 [@c]

  {{< table rows >}}
objectives:
  - 看懂
checks:
  - id: quiz
    question: |
      问 [@a]

      {{< table rows >}}
    check: {choices: [{text: 甲, correct: true}, {text: 乙}]}
"""

PY = "from lessonkit import Lesson\n\nlesson = Lesson()\n"


def numbers(tmp_path: Path):
    folder = tmp_path / "demo"
    folder.mkdir()
    for name, text in (("lesson.md", MD), ("lesson.yaml", YAML), ("lesson.py", PY)):
        (folder / name).write_text(text, encoding="utf-8")
    source = read_lesson(folder)
    assert source.problems == []
    lesson = ComputedLesson(source, {}, {}, load_lesson_module(source.code_path))
    return source, page_numbers(reading_texts(lesson))


def test_ids_in_the_order_the_page_shows_them(tmp_path):
    source, numbered = numbers(tmp_path)
    md, yaml = source.body_path, source.meta_path
    # the intro comes first on the page; a self-check's question where the check is placed; an outer toggle before
    # the toggle inside it
    assert numbered.ids == {("table", yaml, 6): 1, ("table", md, 5): 2, ("toggle", md, 7): 1, ("table", md, 9): 3,
                            ("toggle", md, 11): 2, ("table", yaml, 14): 4, ("tabs", md, 29): 1}
    assert numbered.id("table", md, 9) == "table-3" and numbered.id("toggle", md, 7, "print") == "toggle-1-print"


def test_citations_by_first_use_in_the_same_order(tmp_path):
    _, numbered = numbers(tmp_path)
    assert numbered.citations == {"c": 1, "b": 2, "a": 3}   # the intro's first, then lesson.md's, the check's again
