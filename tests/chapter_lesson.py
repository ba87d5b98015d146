"""A lesson of a real book chapter's shape, written by the tests: d2l-zh's 「梯度下降」 (gradient descent) as a course
port makes it — nine line figures whose curves are 2 001 points each (three of them two panels side by side), an
explorer that draws a figure for each of its five learning rates, thirteen code listings with their output, eleven
numbered equations and three challenges with self-checks. Its first port weighed 320 KB (69 KB gzip) against the
default budget of 250 KB / 60 KB; this fixture is the yardstick that pages of this shape fit the default budget
with every curve, every figure's data table and a figure per explorer state (tests/test_chapter_weight.py,
benchmarks/figure_weight.py).

The numbers are the chapter's own: f(x) = x² from x = 10 with η = 0.2, 0.05 and 1.1; f(x) = x·cos(cx) with
c = 0.15π and η = 2; f(x₁, x₂) = x₁² + 2x₂² from (−5, −2) with η = 0.1; Newton's method on cosh(cx) with c = 0.5,
on x·cos(cx), and damped with η = 0.5.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

SLUG = "gradient-descent"
FIGURES = ("trace_basic", "trace_small", "trace_large", "trace_local", "trace_2d", "newton_cosh",
           "newton_uphill", "newton_slow", "flow_vs_steps")
TWO_PANEL = ("trace_basic", "trace_2d", "flow_vs_steps")
RATES = (0.05, 0.2, 0.5, 0.9, 1.1)   # the explorer's five states
CURVE_POINTS = 2001
LISTINGS = 13
EQUATIONS = 11

YAML = """\
title: 梯度下降
summary: 沿着负梯度一小步一小步往下走：学习率、局部极小、多元情形和牛顿法
order: 11
objectives:
  - 用泰勒展开说明为什么沿负梯度走函数值会下降
  - 看出学习率太小、太大时各会发生什么
  - 知道牛顿法怎样用二阶导数选步长，以及它在非凸函数上为什么会出问题
question: 学习率翻一倍，收敛就快一倍吗？
intro: 梯度下降很少直接用在深度学习里，但它是理解随机梯度下降和各种优化算法的起点。
challenges:
  - title: 十步以后
    question: 从 $x = {{ x0:g }}$ 出发，学习率 $\\eta = {{ eta_basic:g }}$，在 $f(x) = x^2$ 上走 {{ steps }} 步，$x$ 变成多少？
    answer: 每一步把 $x$ 乘以 $1 - 2\\eta = {{ shrink_basic:g }}$，所以是 {{ final_basic }}。
    hints:
      - 写出 $x - \\eta f'(x)$，把 $f'(x) = 2x$ 代进去。
    check:
      fields:
        - label: 第十步的 x
          answer: final_basic
          tolerance: {relative: 0.02}
  - title: 学习率太大
    question: 学习率 $\\eta = {{ eta_large:g }}$ 时，走 {{ steps }} 步后 $|x|$ 是出发时的多少倍？
    answer: 每一步乘以 $|1 - 2\\eta| = {{ shrink_large:g }}$，{{ steps }} 步后是 {{ growth_large }} 倍。
    check:
      fields:
        - label: 放大的倍数
          answer: growth_large
          tolerance: {relative: 0.02}
          mistakes:
            - {value: shrink_large, hint: 这只是一步的倍数}
  - title: 牛顿法的第一步
    question: 在 $f(x) = \\cosh(cx)$（$c = {{ c_newton:g }}$）上从 $x = {{ x0:g }}$ 出发，牛顿法第一步到了哪里？
    answer: 第一步是 $x - f'(x)/f''(x) = x - \\tanh(cx)/c$，到了 {{ newton_first }}。
    check:
      fields:
        - label: 第一步之后的 x
          answer: newton_first
          tolerance: {relative: 0.01}
"""

MD = """\
## 一维梯度下降 {#one-dim}

为什么沿着负梯度走会让目标函数变小？对连续可微的 $f$，用泰勒展开：

$$f(x + \\epsilon) = f(x) + \\epsilon f'(x) + O(\\epsilon^2)$$ {#eq:taylor}

取一个小的正数 $\\eta$ 当学习率，令 $\\epsilon = -\\eta f'(x)$：

$$\\epsilon = -\\eta f'(x)$$ {#eq:step}

代回 @eq:taylor 得到

$$f(x - \\eta f'(x)) = f(x) - \\eta f'^2(x) + O(\\eta^2 f'^2(x))$$ {#eq:decrease}

只要导数不为零，$\\eta f'^2(x) > 0$，函数值就会下降。于是我们反复做

$$x \\leftarrow x - \\eta f'(x)$$ {#eq:update}

目标函数和它的导数：

{{< code quadratic output=false >}}

从 $x = {{ x0:g }}$ 出发、学习率 $\\eta = {{ eta_basic:g }}$ 走 {{ steps }} 步：

{{< code gd_steps >}}

最后 $x$ 到了 {{ final_basic }}。@fig:trace_basic 画出每一步的位置，右边是 $|x|$ 随步数的变化。

{{< figure trace_basic >}}

## 学习率 {#learning-rate}

学习率太小，$x$ 挪得很慢：$\\eta = {{ eta_small:g }}$ 时 {{ steps }} 步后还在 {{ final_small }}。

{{< code gd_small >}}

{{< figure trace_small >}}

学习率太大，$|\\eta f'(x)|$ 对一阶泰勒展开来说太大了，@eq:decrease 里的 $O(\\eta^2 f'^2(x))$ 不再能忽略，
$x$ 反而越走越远：

{{< code gd_large >}}

{{< figure trace_large >}}

拖动滑块换学习率，看 {{ steps }} 步走到了哪里：

{{< widget lr_explorer >}}

{{< code lr_sweep >}}

## 局部极小值 {#local-minima}

非凸函数 $f(x) = x \\cos(cx)$ 有无穷多个局部极小值。学习率 $\\eta = {{ eta_local:g }}$ 时，
梯度下降落进了一个很差的局部极小值：

{{< code local_steps >}}

{{< figure trace_local >}}

## 多元梯度下降 {#multivariate}

$\\mathbf{x} = [x_1, x_2, \\ldots, x_d]^\\top$ 时，梯度是偏导数组成的向量：

$$\\nabla f(\\mathbf{x}) = \\bigg[\\frac{\\partial f(\\mathbf{x})}{\\partial x_1}, \\frac{\\partial f(\\mathbf{x})}{\\partial x_2}, \\ldots, \\frac{\\partial f(\\mathbf{x})}{\\partial x_d}\\bigg]^\\top$$ {#eq:gradient}

多元的泰勒展开：

$$f(\\mathbf{x} + \\boldsymbol{\\epsilon}) = f(\\mathbf{x}) + \\boldsymbol{\\epsilon}^\\top \\nabla f(\\mathbf{x}) + O(\\|\\boldsymbol{\\epsilon}\\|^2)$$ {#eq:taylor-multi}

于是更新变成

$$\\mathbf{x} \\leftarrow \\mathbf{x} - \\eta \\nabla f(\\mathbf{x})$$ {#eq:update-multi}

在 $f(\\mathbf{x}) = x_1^2 + 2 x_2^2$ 上从 $({{ start_2d.0:g }}, {{ start_2d.1:g }})$ 出发：

{{< code gd_2d >}}

{{< figure trace_2d >}}

这个函数的海森矩阵的条件数是 {{ condition }}：

{{< code condition >}}

## 牛顿法 {#newton}

把泰勒展开多写一项：

$$f(\\mathbf{x} + \\boldsymbol{\\epsilon}) = f(\\mathbf{x}) + \\boldsymbol{\\epsilon}^\\top \\nabla f(\\mathbf{x}) + \\frac{1}{2} \\boldsymbol{\\epsilon}^\\top \\mathbf{H} \\boldsymbol{\\epsilon} + O(\\|\\boldsymbol{\\epsilon}\\|^3)$$ {#eq:taylor-second}

对 $\\boldsymbol{\\epsilon}$ 求导并令它为零：

$$\\boldsymbol{\\epsilon} = -\\mathbf{H}^{-1} \\nabla f(\\mathbf{x})$$ {#eq:newton}

在凸函数 $f(x) = \\cosh(cx)$ 上，几步就到了：

{{< code newton_convex >}}

{{< figure newton_cosh >}}

非凸函数 $f(x) = x \\cos(cx)$ 的二阶导数可能是负的，牛顿法就会往上走：

{{< code newton_nonconvex >}}

{{< figure newton_uphill >}}

乘上学习率 $\\eta = {{ eta_damped:g }}$，它又能收敛了：

{{< code newton_damped >}}

{{< figure newton_slow >}}

### 收敛性分析 {#convergence}

记 $e^{(k)} = x^{(k)} - x^*$，在 $x^*$ 附近展开可得

$$e^{(k+1)} \\approx \\frac{1}{2} \\frac{f'''(\\xi^{(k)})}{f''(x^{(k)})} \\big(e^{(k)}\\big)^2$$ {#eq:quadratic-convergence}

误差平方地减小，这就是二次收敛。

{{< code newton_errors >}}

### 预处理 {#preconditioning}

只取海森矩阵的对角线：

$$\\mathbf{x} \\leftarrow \\mathbf{x} - \\eta \\, \\mathrm{diag}(\\mathbf{H})^{-1} \\nabla f(\\mathbf{x})$$ {#eq:precondition}

连续时间的梯度流 $x(t) = x_0 e^{-2t}$ 和离散的一步一步比一比：

{{< code flow_gap >}}

{{< figure flow_vs_steps >}}
"""

PY = '''\
import numpy as np
from lessonkit import Lesson, explorer, param

lesson = Lesson()

CURVE = 2001          # points of every drawn function: smooth at any size
RATES = [0.05, 0.2, 0.5, 0.9, 1.1]


def quadratic(x):
    """f(x) = x² and its derivative f'(x) = 2x."""
    return x ** 2, 2 * x


def descend(grad, x, eta, steps):
    """Every position of gradient descent, the start included."""
    xs = [float(x)]
    for _ in range(steps):
        x = x - eta * grad(x)
        xs.append(float(x))
    return xs


def local(x, c):
    return x * np.cos(c * x), np.cos(c * x) - c * x * np.sin(c * x)


def trace(ax, f, xs, lim, color="#d55e00"):
    """The function as a smooth curve, and the steps on it."""
    grid = np.linspace(-lim, lim, CURVE)
    ax.plot(grid, f(grid), color="#0072b2", label="f(x)")
    ax.plot(xs, f(np.array(xs)), "-o", color=color, markersize=3.5, label="x 的位置")
    ax.set_xlabel("x")
    ax.set_ylabel("f(x)")


@lesson.value
def x0():
    return 10.0


@lesson.value
def steps():
    return 10


@lesson.value
def eta_basic():
    return 0.2


@lesson.value
def eta_small():
    return 0.05


@lesson.value
def eta_large():
    return 1.1


@lesson.value
def eta_local():
    return 2.0


@lesson.value
def eta_damped():
    return 0.5


@lesson.value
def c_local():
    return 0.15 * np.pi


@lesson.value
def c_newton():
    return 0.5


@lesson.value
def gd_steps(x0, eta_basic, steps):
    return descend(lambda x: 2 * x, x0, eta_basic, steps)


@lesson.value
def final_basic(gd_steps):
    return gd_steps[-1]


@lesson.value
def shrink_basic(eta_basic):
    return 1 - 2 * eta_basic


@lesson.value
def gd_small(x0, eta_small, steps):
    return descend(lambda x: 2 * x, x0, eta_small, steps)


@lesson.value
def final_small(gd_small):
    return gd_small[-1]


@lesson.value
def gd_large(x0, eta_large, steps):
    return descend(lambda x: 2 * x, x0, eta_large, steps)


@lesson.value
def shrink_large(eta_large):
    return abs(1 - 2 * eta_large)


@lesson.value
def growth_large(gd_large, x0):
    return abs(gd_large[-1]) / x0


@lesson.value
def lr_sweep(x0, steps):
    """|x| after the steps, for each learning rate of the explorer."""
    return {f"η = {eta:g}": abs(descend(lambda x: 2 * x, x0, eta, steps)[-1]) for eta in RATES}


@lesson.value
def local_steps(x0, eta_local, c_local, steps):
    return descend(lambda x: local(x, c_local)[1], x0, eta_local, steps)


@lesson.value
def start_2d():
    return [-5.0, -2.0]


@lesson.value
def gd_2d(start_2d):
    """20 steps on f(x1, x2) = x1² + 2 x2² with η = 0.1."""
    x, path = np.array(start_2d), [list(start_2d)]
    for _ in range(20):
        x = x - 0.1 * np.array([2 * x[0], 4 * x[1]])
        path.append([float(v) for v in x])
    return path


@lesson.value
def condition():
    hessian = np.array([[2.0, 0.0], [0.0, 4.0]])
    values = np.linalg.eigvalsh(hessian)
    return float(values.max() / values.min())


def newton(x, c, eta, steps, f_grad, f_hess):
    xs = [float(x)]
    for _ in range(steps):
        x = x - eta * f_grad(x, c) / f_hess(x, c)
        xs.append(float(x))
    return xs


@lesson.value
def newton_convex(x0, c_newton, steps):
    return newton(x0, c_newton, 1.0, steps, lambda x, c: c * np.sinh(c * x), lambda x, c: c ** 2 * np.cosh(c * x))


@lesson.value
def newton_first(newton_convex):
    return newton_convex[1]


def local_hess(x, c):
    return -2 * c * np.sin(c * x) - c ** 2 * x * np.cos(c * x)


@lesson.value
def newton_nonconvex(x0, c_local, steps):
    return newton(x0, c_local, 1.0, steps, lambda x, c: local(x, c)[1], local_hess)


@lesson.value
def newton_damped(x0, c_local, eta_damped, steps):
    return newton(x0, c_local, eta_damped, steps, lambda x, c: local(x, c)[1], local_hess)


@lesson.value
def newton_errors(newton_convex):
    """|x| of the first Newton steps on cosh: each about the square of the one before, scaled."""
    return [abs(v) for v in newton_convex[:5]]


@lesson.value
def flow_gap(x0, gd_small):
    """How far the steps with η = 0.05 are from the gradient flow x(t) = x0·exp(−2t) at t = 10 η."""
    return abs(gd_small[-1] - x0 * np.exp(-2 * 0.05 * 10))


def state(eta, x0=10.0, n=10):
    xs = descend(lambda x: 2 * x, x0, eta, n)
    return {"values": [("第十步的 x", xs[-1]), ("f(x)", xs[-1] ** 2)]}


def state_figure(plt, eta):
    fig, ax = plt.subplots(figsize=(3.6, 2.6))
    xs = descend(lambda x: 2 * x, 10.0, eta, 10)
    lim = max(10.0, max(abs(v) for v in xs))
    trace(ax, lambda x: x ** 2, xs, lim)
    ax.set_title(f"η = {eta:g}")
    return fig


@lesson.widget
def lr_explorer():
    return explorer([param("eta", "学习率 η", RATES, spec="g", initial=0.2)], state=state, figure=state_figure,
                    alt="f(x) = x² 的曲线和学习率 {eta} 时十步的位置", key=[0.05, 0.2, 1.1],
                    caption="学习率和十步以后的位置")


@lesson.figure(caption="学习率 η = {{ eta_basic:g }}：每一步都更接近最小值",
               alt="左：抛物线 f(x) = x² 上十一个点从 x = {{ x0:g }} 向最低点靠拢；右：|x| 随步数按对数刻度直线下降")
def trace_basic(plt, gd_steps):
    fig, (ax, right) = plt.subplots(1, 2, figsize=(7.0, 2.6))
    trace(ax, lambda x: x ** 2, gd_steps, 10)
    right.semilogy(np.arange(len(gd_steps)), np.abs(gd_steps), "-o", markersize=3.5)
    right.set_xlabel("步数")
    right.set_ylabel("|x|")
    return fig


@lesson.figure(caption="学习率太小：η = {{ eta_small:g }}", alt="抛物线上的点挪得很慢，十步后还离最小值很远")
def trace_small(plt, gd_small):
    fig, ax = plt.subplots(figsize=(3.6, 2.6))
    trace(ax, lambda x: x ** 2, gd_small, 10)
    return fig


@lesson.figure(caption="学习率太大：η = {{ eta_large:g }}", alt="抛物线上的点左右跳动，越跳越远")
def trace_large(plt, gd_large):
    fig, ax = plt.subplots(figsize=(3.6, 2.6))
    trace(ax, lambda x: x ** 2, gd_large, max(abs(v) for v in gd_large))
    return fig


@lesson.figure(caption="非凸函数：学习率 η = {{ eta_local:g }} 落进一个差的局部极小值",
               alt="振荡的曲线 x cos(cx) 上，点跳到了一个较高的谷底")
def trace_local(plt, local_steps, c_local):
    fig, ax = plt.subplots(figsize=(3.6, 2.6))
    trace(ax, lambda x: local(x, c_local)[0], local_steps, 10)
    return fig


@lesson.figure(caption="二维：$f(\\\\mathbf{x}) = x_1^2 + 2 x_2^2$ 的等高线和二十步的轨迹",
               alt="左：椭圆等高线上一条折线从左下角走向原点；右：函数值随步数下降")
def trace_2d(plt, gd_2d):
    fig, (ax, right) = plt.subplots(1, 2, figsize=(7.0, 2.8))
    x1, x2 = np.meshgrid(np.arange(-5.5, 1.0, 0.1), np.arange(-3.0, 1.0, 0.1))
    ax.contour(x1, x2, x1 ** 2 + 2 * x2 ** 2, colors="#0072b2", linewidths=0.8)
    path = np.array(gd_2d)
    ax.plot(path[:, 0], path[:, 1], "-o", color="#d55e00", markersize=3)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    values = path[:, 0] ** 2 + 2 * path[:, 1] ** 2
    right.plot(np.arange(len(values)), values, "-o", markersize=3)
    right.set_xlabel("步数")
    right.set_ylabel("$f(x_1, x_2)$")
    return fig


@lesson.figure(caption="牛顿法在凸函数 cosh(cx) 上", alt="点从 x = {{ x0:g }} 几步就落到曲线最低点")
def newton_cosh(plt, newton_convex, c_newton):
    fig, ax = plt.subplots(figsize=(3.6, 2.6))
    trace(ax, lambda x: np.cosh(c_newton * x), newton_convex, 10)
    return fig


@lesson.figure(caption="牛顿法在非凸函数上往上走", alt="点沿着曲线爬向一个局部极大值")
def newton_uphill(plt, newton_nonconvex, c_local):
    fig, ax = plt.subplots(figsize=(3.6, 2.6))
    trace(ax, lambda x: local(x, c_local)[0], newton_nonconvex, 20)
    return fig


@lesson.figure(caption="乘上学习率 η = {{ eta_damped:g }} 的牛顿法", alt="点慢慢落进最近的谷底")
def newton_slow(plt, newton_damped, c_local):
    fig, ax = plt.subplots(figsize=(3.6, 2.6))
    trace(ax, lambda x: local(x, c_local)[0], newton_damped, 10)
    return fig


@lesson.figure(caption="梯度流和梯度下降：步子越小，越贴近连续的曲线",
               alt="左：光滑的指数曲线和两列台阶状的点；右：两者的差随时间变化")
def flow_vs_steps(plt, x0):
    fig, (ax, right) = plt.subplots(1, 2, figsize=(7.0, 2.6))
    t = np.linspace(0, 2, CURVE)
    ax.plot(t, x0 * np.exp(-2 * t), label="梯度流")
    right_gap = []
    for eta in (0.05, 0.2):
        n = int(round(2 / eta))
        xs = descend(lambda x: 2 * x, x0, eta, n)
        ax.plot(eta * np.arange(n + 1), xs, "o", markersize=3, label=f"η = {eta:g}")
        right_gap.append((eta, xs))
    ax.set_xlabel("时间 t")
    ax.set_ylabel("x")
    ax.legend()
    right.plot(t, x0 * np.exp(-2 * t) - x0 * (1 - 2 * 0.05) ** (t / 0.05), label="η = 0.05")
    right.plot(t, x0 * np.exp(-2 * t) - x0 * (1 - 2 * 0.2) ** (t / 0.2), label="η = 0.2")
    right.set_xlabel("时间 t")
    right.set_ylabel("差")
    right.legend()
    return fig
'''


def write_chapter_lesson(content: Path) -> Path:
    """The lesson's folder under `content`."""
    folder = content / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lesson.yaml").write_text(YAML, encoding="utf-8")
    (folder / "lesson.md").write_text(MD, encoding="utf-8")
    (folder / "lesson.py").write_text(textwrap.dedent(PY), encoding="utf-8")
    return folder
