"""A small course written by the tests for the learning-platform exports (`lessonkit export scorm|moodle`): one
lesson with a self-check of each kind — a percentage with a known mistake (one box), a mean and a list (three
boxes), several correct options, one correct option placed in the text — hints, a figure in a worked answer, an
image and maths in a question and Chinese everywhere; and one lesson without any self-check.

Its numbers are simple enough to work out by hand; the tests compute what the platforms must receive from the
numbers written here, never from the lesson's code.
"""
from __future__ import annotations

import base64
import math
import textwrap
from pathlib import Path

SLUG, READING = "quiz", "reading"
FACTOR, DEPTH = 0.9, 96                          # what remains after DEPTH layers: FACTOR ** DEPTH
DATA = [10.0, 0.0, 0.0, 0.0]                     # normalised: μ = 2.5, σ = √(75/4), x̂ = [√3, −1/√3, …]
MU, XHAT = 2.5, [math.sqrt(3), -1 / math.sqrt(3)]
TYPO = 0.006                                     # a known slip in percent (the old handout's)
MASTERY = 75
SECRET = "凤凰飞过山岗"                           # words of a worked answer, found nowhere else
DOT = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
# the page's self-checks, in reading order: the one placed in the text, then the challenges
CHECKS = ["check-pick", "check-1", "check-2", "check-3"]

PY = f"""\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def factor():
    return {FACTOR}


@lesson.value
def depth():
    return {DEPTH}


@lesson.value
def remain(factor, depth):
    return factor ** depth


@lesson.value
def norm():
    x = np.array({DATA})
    mu, sigma = x.mean(), x.std()
    return {{"mu": mu, "xhat": ((x - mu) / sigma)[:2].tolist()}}


@lesson.value
def power():
    return 2 ** 10


@lesson.value
def near():
    return 10 ** 3


@lesson.figure(caption="梯度随层数衰减", alt="{{{{ factor }}}} 的 L 次方随层数 L 下降")
def decay(plt, factor, depth):
    fig, ax = plt.subplots(figsize=(3, 2))
    layers = np.arange(depth + 1)
    ax.semilogy(layers, factor ** layers)
    ax.set(xlabel="层数 L", ylabel="梯度倍数")
    return fig
"""

YAML = f"""\
title: 连乘与归一化
summary: 自测题在学习平台里
order: 1
objectives:
  - 会算 ${{{{ factor }}}}^{{ {{{{ depth }}}} }}$
  - 会把一组数归一化
mastery: {MASTERY}
challenges:
  - title: 剩多少
    question: 每层乘 $a = {{{{ factor }}}}$，共 {{{{ depth }}}} 层，还剩百分之几？
    answer: |
      约 {{{{ remain:pct3 }}}}，{SECRET}，见 @fig:decay：

      {{{{< figure decay >}}}}
    hints:
      - 连乘 {{{{ depth }}}} 次。
      - 换成百分数。
    check:
      fields:
        - label: 剩下的百分比
          answer: remain
          scale: 100
          unit: "%"
          tolerance: {{relative: 0.05}}
          mistakes:
            - {{value: {TYPO}, hint: 这是讲义里的笔误。}}
  - title: 归一化
    question: 写出 μ 和 x̂ 的前两项。
    answer: μ 是 {{{{ norm.mu }}}}。
    check:
      fields:
        - {{label: μ, answer: norm.mu, tolerance: {{absolute: 0.01}}}}
        - {{label: x̂, answer: norm.xhat, tolerance: {{sig: 2}}}}
  - title: 选一选
    question: 哪些说法对？
    answer: 甲和丙。
    check:
      multiple: true
      choices:
        - {{text: 残差让梯度直达浅层, correct: true}}
        - {{text: 层数越多梯度越大, feedback: 恰好反了。}}
        - {{text: 归一化让尺度稳定, correct: true}}
checks:
  - id: pick
    question: 哪个是二的十次方？![一个点](dot.png)
    check:
      choices:
        - {{text: "{{{{ near }}}}", feedback: 差一点。}}
        - {{text: "{{{{ power }}}}", correct: true}}
"""

MD = """\
## 连乘 {#chain}

每穿过一层就乘一次，见 @fig:decay。

{{< check pick >}}
"""

READING_YAML = """\
title: 只读的一课
summary: 没有自测题
order: 2
objectives:
  - 读懂连乘
"""
READING_MD = "## 读一读 {#read}\n\n这一课没有自测题。\n"


def write_course(content: Path) -> Path:
    """The two lessons under `content` (created); returns it."""
    for slug, files in ((SLUG, {"lesson.py": PY, "lesson.yaml": YAML, "lesson.md": MD}),
                        (READING, {"lesson.yaml": READING_YAML, "lesson.md": READING_MD})):
        folder = content / slug
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    (content / SLUG / "dot.png").write_bytes(DOT)  # an image in a question (a 1 × 1 PNG)
    return content
