"""The sample lesson's computations: every number the page shows is a value here.

`@lesson.value` functions take other values as parameters, by name; figures and widgets do the same.
"""
import numpy as np

from lessonkit import Lesson

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
               alt="折线图：横轴是层数 0 到 {{ depth }}，纵轴是剩下的比例，从 1 逐层下降到 {{ shrunk }}。")
def decay(plt, factor, depth):
    layers = np.arange(depth + 1)
    fig, ax = plt.subplots(figsize=(5.6, 2.8))
    ax.plot(layers, factor ** layers, marker="o")
    ax.set(xlabel="层数 L", ylabel="剩下的比例", xlim=(0, depth), ylim=(0, 1.05))
    return fig


@lesson.widget(template="block_stack")   # reuses themes/default/widgets/block_stack.html
def stack(factor, grow_factor, depth):
    layers = list(range(depth + 1))
    return {"layers": layers, "initial": 1, "quantity_label": "信号大小（第 0 层 = 1）", "table_layers": layers,
            "series": [{"key": "shrink", "label": f"每层 ×{factor:g}", "values": [factor ** n for n in layers]},
                       {"key": "grow", "label": f"每层 ×{grow_factor:g}", "values": [grow_factor ** n for n in layers]}]}
