"""A small lesson written by the tests (never one from content/) that places the interactive widgets the
widget-specific browser tests drive: `mask_table` and `block_stack`, with its own data, plus a figure with Chinese
labels, two challenges, a self-check placed in the text with its own answer and speaker notes (`::: notes`, each
with a word no other text has: NOTES_WORDS), so every generic check (axe, focus, PDF, fonts) has something real to
look at even when content/ holds no lesson at all.

Its numbers are deliberately not the real lesson's: the tests compare the page with numpy results computed here,
independently of the lesson code.
"""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import numpy as np

from lesson_folders import PROJECT, real_lessons
from lessonkit.support.paths import BUILTIN_THEMES

SLUG = "test-fixture-widgets"
KINDS = ("mask_table", "explorer")
TOKENS = ["小猫", "追", "蝴蝶", "跑", "远"]          # five tokens: 10 masked cells above the diagonal
LAYERS = list(range(0, 9))                              # 0 … 8 blocks
INITIAL = 2
NOTES_WORDS = ("蓝鲸", "海豚")                         # only in the notes: never on the student's page


def expected_series() -> dict[str, np.ndarray]:
    """‖x‖/√d after n blocks for the three made-up variants, by numpy (the lesson.py below computes its own)."""
    n = np.array(LAYERS, dtype=float)
    return {"grow": 1.35 ** n, "flat": np.ones_like(n), "slow": np.sqrt(1 + n / 2)}


LABELS = {"grow": "一直变大", "flat": "保持不变", "slow": "慢慢变大"}
# a display formula wider than a phone (it scrolls in its box), whose TeX the slides describe its picture by
FORMULA = (r"\mathrm{PE}(pos, 2i) = \sin\left(\frac{pos}{b^{2i/d}}\right), \qquad \mathrm{PE}(pos, 2i+1) = "
           r"\cos\left(\frac{pos}{b^{2i/d}}\right), \qquad x_{l+1} = x_l + F(x_l)")

YAML = """\
title: 测试用的小课（组件）
summary: 测试自己写的一节小课，放着两个可以点的组件
order: 999
objectives:
  - 点一点掩码表
  - 加减几块看数值
question: 点一下按钮，表格会怎么变？
checks:
  - id: masked
    question: 五个词的解码器掩码表里，第一行能看见几个词？
    check:
      fields:
        - label: 能看见的词数
          answer: first_row_seen
          tolerance: {absolute: 0.5}
    answer: |
      第一行只能看见它自己：一共 {{ first_row_seen }} 个词，后面的词都被遮住了。
challenges:
  - title: 数一数遮住的格子
    question: 五个词的解码器掩码表里，有几个格子被遮住？
    answer: |
      对角线上面的格子都被遮住：一共 {{ masked_count }} 个，也就是五乘四再除以二。
  - title: 一直变大的那一行
    question: 八块之后，一直变大的那一行是多少？
    answer: |
      每块乘一点三五，八块之后大约是 {{ grow_last }}，比开始时大了好几倍。
"""

MD = """\
## 掩码表 {#mask}

下面的表可以切换编码器与解码器。

::: notes
先让学生猜：解码器遮住几个格子？答案是 {{ masked_count }} 个。讲稿暗号：蓝鲸。
:::

{{< widget mask_table >}}

{{< check masked >}}

## 块数 {#blocks}

加一块、减一块，看三种数值怎么变。

::: tip 先看一眼
一直变大的那一行涨得最快。

::: notes
提示框里的讲稿：问学生为什么是对数刻度。讲稿暗号：海豚。
:::
:::

{{< widget block_stack >}}

{{< figure growth >}}

## 公式 {#formula}

{{< table squares >}}

导数写作 $f'(x)$，它的平方写作 $f'^2$，二阶导数写作 $f''(x)$。下面这个公式在手机上比屏幕宽：

$$
{FORMULA}
$$
"""

PY = '''\
import numpy as np

from lessonkit import Lesson, explorer, param, table

lesson = Lesson()


@lesson.value
def tokens():
    return ["小猫", "追", "蝴蝶", "跑", "远"]


@lesson.value
def masked_count(tokens):
    n = len(tokens)
    return int(n * (n - 1) // 2)


@lesson.value
def first_row_seen():
    return 1


@lesson.value
def layers():
    return list(range(0, 9))


@lesson.value
def grow_last(layers):
    return float(1.35 ** layers[-1])


@lesson.value
def squares(layers):
    return table({"块数": layers[:3], "平方": [n * n for n in layers[:3]]},
                 caption="前三个块数和它们的平方：只有两列的窄表，标题比表宽得多，按正文的宽度排，不挤成窄窄的一条")


@lesson.widget
def mask_table(tokens):
    n = len(tokens)
    return {"rows": tokens, "cols": tokens, "context": "续写「" + " ".join(tokens) + "」",
            "initial_mode": "encoder",
            "modes": [{"key": "encoder", "label": "编码器", "visible": np.ones((n, n), dtype=bool).tolist()},
                      {"key": "decoder", "label": "解码器",
                       "visible": np.tril(np.ones((n, n), dtype=bool)).tolist()}]}


@lesson.widget
def block_stack(layers):
    x = np.array(layers, dtype=float)
    series = [("一直变大", 1.35 ** x), ("保持不变", np.ones_like(x)), ("慢慢变大", np.sqrt(1 + x / 2))]

    def state(blocks):
        return {"values": [(label, float(v[layers.index(blocks)])) for label, v in series]}

    return explorer(params=[param("blocks", "块数", layers, control="stepper", initial=2)], state=state,
                    key=[0, 8], bars="log", caption="‖x‖ / √d")


@lesson.figure(caption="三种数值随块数的变化，纵轴是对数刻度。",
               alt="折线图：横轴是块数，从零到八；一直变大的那条线往上走，保持不变的那条是水平线，慢慢变大的在中间。")
def growth(plt, layers):
    x = np.array(layers, dtype=float)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.plot(x, 1.35 ** x, label="一直变大")
    ax.plot(x, np.ones_like(x), label="保持不变")
    ax.plot(x, np.sqrt(1 + x / 2), label="慢慢变大")
    ax.set_yscale("log")
    ax.set_xlabel("块数")
    ax.set_ylabel("数值大小")
    ax.legend()
    return fig
'''


def write_fixture_lesson(content: Path) -> Path:
    """Write the lesson into content/SLUG. A widget kind that no theme provides but a real lesson does (as its own
    component under content/<slug>/widgets/<kind>/) is copied in; without any provider the widget tests cannot run."""
    folder = content / SLUG
    if folder.exists():
        raise FileExistsError(f"{folder} exists: a real lesson may not use the fixture's name {SLUG}")
    folder.mkdir(parents=True)
    (folder / "lesson.yaml").write_text(textwrap.dedent(YAML), encoding="utf-8")
    (folder / "lesson.md").write_text(MD.replace("{FORMULA}", FORMULA), encoding="utf-8")
    (folder / "lesson.py").write_text(PY, encoding="utf-8")
    for kind in KINDS:
        if any((BUILTIN_THEMES / "default" / "widgets").glob(f"{kind}*")):
            continue
        owners = [PROJECT / "content" / slug / "widgets" / kind for slug in real_lessons()]
        owner = next((o for o in owners if o.is_dir()), None)
        if owner is not None:
            shutil.copytree(owner, folder / "widgets" / kind)
    return folder
