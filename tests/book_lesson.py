"""A small lesson written by the tests (never one from content/) that uses what a course book needs: code from
lesson.py shown with its output (`{{< code NAME >}}`, also `output=false`, and a figure function whose output is its
figure), a code block that asks for values (```` ```python {values} ````) and one that does not, inline code with
values, citations in lesson.md and in lesson.yaml (one entry cited twice, a range, a locator) with a bibliography
of its own (content/references.bib), a figure placed in a challenge's answer, a numbered `aligned` equation with a
reference to it and a set of synced tabs — so every per-lesson test (axe, Nu, fonts, print, notebook) sees them.

Its numbers are chosen so a person can check them: the tests compare the page with what is written here.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

SLUG = "test-book-features"
KERNEL = [0.25, 0.5, 0.25]          # `kernel`; the page prints it to 3 significant figures: [0.250, 0.500, 0.250]
WIDTH = 3                           # `width`: len(KERNEL)

BIB = """\
@article{nadaraya1964,
  author  = {Nadaraya, Elizbar A.},
  title   = {On Estimating Regression},
  journal = {Theory of Probability and Its Applications},
  year    = {1964},
  volume  = {9},
  number  = {1},
  pages   = {141--142},
  doi     = {10.1137/1109020},
}

@article{watson1964,
  author  = {Watson, Geoffrey S.},
  title   = {Smooth Regression Analysis},
  journal = {Sankhy{\\=a}: The Indian Journal of Statistics, Series A},
  year    = {1964},
  volume  = {26},
  number  = {4},
  pages   = {359--372},
}

@book{zhang2023d2l,
  author    = {Zhang, Aston and Lipton, Zachary C. and Li, Mu and Smola, Alexander J.},
  title     = {Dive into Deep Learning},
  publisher = {Cambridge University Press},
  address   = {Cambridge},
  year      = {2023},
}

@misc{vaswani2017,
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob and Jones, Llion and
            Gomez, Aidan N. and Kaiser, {\\L}ukasz and Polosukhin, Illia},
  title  = {Attention Is All You Need},
  year   = {2017},
  eprint = {1706.03762},
  archiveprefix = {arXiv},
}

@book{li2019,
  author    = {李航},
  title     = {统计学习方法},
  publisher = {清华大学出版社},
  address   = {北京},
  year      = {2019},
}

@misc{unused2020,
  author = {Nobody, Ann},
  title  = {Never Cited},
  year   = {2020},
}
"""

# the bibliography the page must print, by hand from BIB (GB/T 7714-2015 for zh-CN, the numbered style for en), in
# the order a reader first meets each citation: the intro (Nadaraya, Watson), section 1 (the textbook, 李航),
# section 2 (Vaswani); `unused2020` is never cited
GB_T = [
    "[1] NADARAYA E A. On Estimating Regression[J]. Theory of Probability and Its Applications, 1964, 9(1): "
    "141-142. DOI:10.1137/1109020.",
    "[2] WATSON G S. Smooth Regression Analysis[J]. Sankhyā: The Indian Journal of Statistics, Series A, 1964, "
    "26(4): 359-372.",
    "[3] ZHANG A, LIPTON Z C, LI M, et al. Dive into Deep Learning[M]. Cambridge: Cambridge University Press, 2023.",
    "[4] 李航. 统计学习方法[M]. 北京: 清华大学出版社, 2019.",
    "[5] VASWANI A, SHAZEER N, PARMAR N, et al. Attention Is All You Need[EB/OL]. (2017). "
    "https://arxiv.org/abs/1706.03762.",
]
NUMBERED = [
    "[1] E. A. Nadaraya, “On Estimating Regression,” Theory of Probability and Its Applications, vol. 9, no. 1, "
    "pp. 141–142, 1964, DOI:10.1137/1109020.",
    "[2] G. S. Watson, “Smooth Regression Analysis,” Sankhyā: The Indian Journal of Statistics, Series A, vol. 26, "
    "no. 4, pp. 359–372, 1964.",
    "[3] A. Zhang, Z. C. Lipton, M. Li, and A. J. Smola, Dive into Deep Learning. Cambridge: Cambridge University "
    "Press, 2023.",
    "[4] 李航, 统计学习方法. 北京: 清华大学出版社, 2019.",
    "[5] A. Vaswani et al., “Attention Is All You Need,” 2017, arXiv:1706.03762.",
]

YAML = """\
title: 测试用的小课（书的写法）
summary: 代码和它的输出、引用与参考文献、答案里的图
order: 998
objectives:
  - 读懂核回归的权重
intro: 核回归最早由两篇论文同时提出[@nadaraya1964; @watson1964]。
question: 按第一篇论文[@nadaraya1964]的写法，三个权重应该怎么取？
challenges:
  - title: 权重之和
    question: 三个权重加起来是多少？
    answer: |
      加起来是 {{ kernel_sum }}，画出来是这样（@fig:answer_bars）：

      {{< figure answer_bars >}}

      这和教材[@zhang2023d2l, 第 10.2 节]里的一样。
sources:
  - 一份课堂笔记（不是论文）
"""

MD = """\
## 权重从哪里来 {#weights}

核回归给每个邻居一个权重[@watson1964]，公式见教材[@zhang2023d2l; @li2019]。

{{< code kernel >}}

它有 {{ width }} 个数：`width = {{ width }}`{values}，而 `{{ width }}` 原样保留。

{{< code half output=false >}}

```python {values}
weights = {{ kernel }}   # 从 lesson.py 算出
```

```python
literal = "{{ kernel }}"
```

{{< code weights_plot >}}

## 三篇一起 {#together}

三篇放在一起引用[@nadaraya1964; @watson1964; @zhang2023d2l]，再引一次第一篇[@nadaraya1964]，还有注意力[@vaswani2017]。

## 公式与框架 {#formulas}

权重之和写成 @eq:total，逐项展开：

$$
\\begin{aligned}
s &= w_1 + w_2 + w_3 \\\\
  &= \\sum_{i} w_i
\\end{aligned}
$$ {#eq:total}

::: tabs framework
::: tab NumPy
`np.sum(w)`
:::
::: tab PyTorch
`torch.sum(w)`
:::
:::
"""

PY = '''\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()


def half(x):
    """A helper: not a value, so only its source can be shown."""
    return x / 2


@lesson.value
def kernel():
    """A triangular kernel of width 3, normalised to sum to 1."""
    raw = np.array([1.0, 2.0, 1.0])
    return raw / raw.sum()


@lesson.value
def width(kernel):
    return len(kernel)


@lesson.value
def kernel_sum(kernel):
    return float(np.sum(kernel))


@lesson.figure(caption="三个权重", alt="三根柱子，中间最高")
def weights_plot(plt, kernel):
    fig, ax = plt.subplots(figsize=(3.2, 2.0))
    ax.bar(["左", "中", "右"], kernel, color="#0072b2")
    ax.set_ylabel("权重")
    return fig


@lesson.figure(caption="答案里的图：权重之和 {{ kernel_sum }}", alt="一根柱子，高度 {{ kernel_sum }}")
def answer_bars(plt, kernel_sum):
    fig, ax = plt.subplots(figsize=(2.4, 2.0))
    ax.bar(["总和"], [kernel_sum], color="#d55e00")
    ax.set_ylim(0, 1.2)
    return fig
'''


def write_book_lesson(content: Path, bib: bool = True) -> Path:
    """The lesson's folder under `content`, and content/references.bib (unless `bib` is False or one exists)."""
    folder = content / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lesson.yaml").write_text(YAML, encoding="utf-8")
    (folder / "lesson.md").write_text(MD, encoding="utf-8")
    (folder / "lesson.py").write_text(textwrap.dedent(PY), encoding="utf-8")
    bib_file = content / "references.bib"
    if bib:
        existing = bib_file.read_text(encoding="utf-8") if bib_file.exists() else ""
        bib_file.write_text(existing + ("\n" if existing else "") + BIB, encoding="utf-8")
    return folder
