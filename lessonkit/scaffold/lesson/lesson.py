"""The sample lesson's computations: every number the page shows is a value here.

`@lesson.value` functions take other values as parameters, by name; figures and widgets do the same.
"""
import numpy as np

from lessonkit import Lesson, explorer, param

lesson = Lesson()


@lesson.value
def factor():
    return 0.9


@lesson.value
def grow_factor():
    return 1.1


@lesson.value
def depth():
    return 10


@lesson.value
def shrunk(factor, depth):
    return factor ** depth


@lesson.value
def grown(grow_factor, depth):
    return grow_factor ** depth


@lesson.figure(caption="每层乘 {{ factor:g }}：第 $L$ 层之后还剩 ${{ factor:g }}^L$。",
               alt="折线图：横轴是层数 0 到 {{ depth }}，纵轴是剩下的比例，从 1 逐层下降到 {{ shrunk }}。")  # literal: 1 = factor⁰
def decay(plt, factor, depth):
    layers = np.arange(depth + 1)
    fig, ax = plt.subplots(figsize=(5.6, 2.8))
    ax.plot(layers, factor ** layers, marker="o")
    ax.set(xlabel="层数 L", ylabel="剩下的比例", xlim=(0, depth), ylim=(0, 1.05))
    return fig


@lesson.widget   # an explorer (a component of the default theme): a stepper over the depth, values as bars
def stack(factor, grow_factor, depth):
    def state(n):
        return {"values": [(f"每层 ×{factor:g}", factor ** n), (f"每层 ×{grow_factor:g}", grow_factor ** n)]}

    return explorer(params=[param("n", "层数", list(range(depth + 1)), control="stepper", initial=1)],
                    state=state, key=[0, depth], bars="log",
                    caption="信号大小（第 0 层 = 1）")  # literal: 1 (every signal starts whole)
