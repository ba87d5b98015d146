"""Computations for「编码器、解码器与深度的稳定器」.

Every number the lesson shows is a value below; the text only inserts it with {{ name }}.
"""
import numpy as np

from lessonkit import Lesson, explorer, param, format_value

lesson = Lesson()

# Okabe–Ito colours (safe for colour-blind readers); every series also gets its own line style and marker.
BLUE, ORANGE, GREEN, VERMILION, SKY, GREY = (
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#555555")

CHINESE_DIGITS = "零一二三四五六七八九"
CHINESE_FRACTIONS = {1: "十分之一", 2: "百分之一", 3: "千分之一", 4: "万分之一", 5: "十万分之一", 6: "百万分之一"}
CHINESE_UNITS = {1: "十", 2: "百", 3: "千", 4: "万"}


# ---------------------------------------------------------------- helpers (plain functions, not values)

def moments(x):
    """Mean and biased variance (divide by n) over the last axis, as LayerNorm uses them."""
    x = np.asarray(x, dtype=float)
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return mu, var


def layer_norm(x, eps=0.0):
    """LayerNorm with γ = 1, β = 0, applied to each row (token vector) on its own; ε goes under the square root as in
    PyTorch (which uses 1e-5). A constant row has σ = 0: zeros with ε > 0, an error with ε = 0 (0/0), never NaN."""
    x, scale = _finite_scaled(x, "LayerNorm")
    centered = x - x.mean(axis=-1, keepdims=True)
    centered -= centered.mean(axis=-1, keepdims=True)  # second pass: the rounding of μ, for nearly constant rows
    centered = np.where(np.ptp(x, axis=-1, keepdims=True) == 0, 0.0, centered)
    var = (centered ** 2).mean(axis=-1, keepdims=True)
    if eps == 0 and (var == 0).any():
        raise ValueError("LayerNorm of a constant vector is 0/0: use eps > 0 (PyTorch: 1e-5)")
    return _divide(centered, var, eps, scale)


def rms_norm(x, eps=0.0):
    """RMSNorm with g = 1: divide by the root mean square, no mean subtracted; ε under the root as for LayerNorm."""
    x, scale = _finite_scaled(x, "RMSNorm")
    mean_sq = (x ** 2).mean(axis=-1, keepdims=True)
    if eps == 0 and (mean_sq == 0).any():
        raise ValueError("RMSNorm of a zero vector is 0/0: use eps > 0")
    return _divide(x, mean_sq, eps, scale)


def _divide(x, mean_sq, eps, scale):
    """x / √(mean_sq + ε/scale²) without overflow; rows that are all zero stay zero."""
    with np.errstate(over="ignore", under="ignore"):  # ε rescaled with x may over- or underflow, harmlessly
        denominator = np.hypot(np.sqrt(mean_sq), np.sqrt(eps) / scale)
    return np.divide(x, denominator, out=np.zeros_like(x), where=x != 0)


def _finite_scaled(x, name):
    """Rows divided by their largest |x| (both norms ignore scale, up to ε), so 1e200 does not overflow when squared;
    NaN or ∞ in the input is an error rather than NaN on the page."""
    x = np.asarray(x, dtype=float)
    if not np.isfinite(x).all():
        raise ValueError(f"{name} input contains NaN or ∞: {x.ravel()[~np.isfinite(x.ravel())][:3].tolist()}")
    scale = np.abs(x).max(axis=-1, keepdims=True)
    scale = np.where(scale == 0, 1.0, scale)
    return x / scale, scale


def layer_norm_steps(x, eps=0.0):
    """The worked example's numbers: μ, σ², σ and x̂ = LN(x), as plain floats."""
    mu, var = moments(x)
    centered = np.asarray(x, dtype=float) - mu
    return {"x": list(x), "mu": float(mu[0]), "centered": centered.tolist(), "sq_dev": (centered ** 2).tolist(),
            "var": float(var[0]), "sigma": float(np.sqrt(var[0])), "xhat": layer_norm(x, eps).tolist()}


def noise(v, below=1e-12):
    """A floating-point rounding error shown as what it is, its order of magnitude (2.2 × 10⁻¹⁶ →「≈ 10⁻¹⁶」), not
    three digits that mean nothing; a value too large to be rounding noise is refused."""
    v = abs(float(v))
    if v >= below:
        raise ValueError(f"{v:g} is not rounding noise (≥ {below:g}): show it as a number")
    if v == 0:
        return "0"
    return "≈ 10" + str(round(np.log10(v))).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def sci(v, spec=None):
    """A number for a figure label, written like the text's numbers (4.05 × 10⁻⁵, 9412), as mathtext without $."""
    return format_value(v, spec, math_mode=True)


# ---------------------------------------------------------------- §1 masks

@lesson.value
def tokens():
    return ["它", "最", "爱", "晒太阳"]


@lesson.value
def decoder_tokens():
    """The target sentence a translation decoder writes while reading the Chinese source."""
    return ["It", "loves", "sunbathing"]


@lesson.value
def encoder_mask(tokens):
    n = len(tokens)
    return np.ones((n, n), dtype=bool)


@lesson.value
def causal_mask(tokens):
    """Query i may look at key j only when j ≤ i."""
    n = len(tokens)
    return np.tril(np.ones((n, n), dtype=bool))


@lesson.value
def cross_mask(decoder_tokens, tokens):
    """Cross-attention: every decoder position (row) sees every encoder position (column)."""
    return np.ones((len(decoder_tokens), len(tokens)), dtype=bool)


@lesson.value
def perm_check():
    """Self-attention without positions on「猫追狗」and「狗追猫」: same outputs per word, only reordered."""
    rng = np.random.default_rng(0)
    d = 8
    embed = {w: rng.standard_normal(d) for w in ["猫", "追", "狗"]}
    wq, wk, wv = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))

    def attend(words):
        x = np.stack([embed[w] for w in words])
        scores = (x @ wq) @ (x @ wk).T / np.sqrt(d)
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
        return dict(zip(words, weights @ (x @ wv)))

    a, b = attend(["猫", "追", "狗"]), attend(["狗", "追", "猫"])
    max_diff = float(max(np.abs(a[w] - b[w]).max() for w in a))
    return {"d": d, "max_diff": max_diff, "max_diff_noise": noise(max_diff)}


# ---------------------------------------------------------------- §3 gradients through depth

@lesson.value
def depth():
    return 96


@lesson.value
def shrink_factor():
    """Per-layer derivative in the vanishing case."""
    return 0.9


@lesson.value
def grow_factor():
    """Per-layer derivative in the exploding case."""
    return 1.1


@lesson.value
def branch_slope():
    """A small ∂f/∂x on the residual branch."""
    return 0.01


@lesson.value
def res_factor(branch_slope):
    """∂y/∂x = ∂f/∂x + 1 for y = f(x) + x."""
    return 1 + branch_slope


@lesson.value
def no_res_09(shrink_factor, depth):
    return shrink_factor ** depth


@lesson.value
def no_res_11(grow_factor, depth):
    return grow_factor ** depth


@lesson.value
def res_101(res_factor, depth):
    return res_factor ** depth


@lesson.value
def overflow_depth(grow_factor):
    """The first L at which grow_factor^L exceeds the largest finite fp16 / fp32 number (np.finfo), i.e. overflows."""
    result = {}
    for name, dtype in (("fp16", np.float16), ("fp32", np.float32)):
        largest = float(np.finfo(dtype).max)
        layers = int(np.floor(np.log(largest) / np.log(grow_factor)))
        while grow_factor ** layers <= largest:    # the log estimate is only a start: settle it by the power itself
            layers += 1
        while grow_factor ** (layers - 1) > largest:
            layers -= 1
        result[name], result[name + "_max"] = layers, largest
    return result


@lesson.value
def no_res_09_per_100k(no_res_09):
    """0.9⁹⁶ counted in units of 1/100 000 (about 4)."""
    return no_res_09 * 1e5


@lesson.value
def no_res_09_phrase(no_res_09):
    """'不到万分之一': the smallest 'one in 10^k' the value stays below."""
    k = int(np.floor(-np.log10(no_res_09)))
    return "不到" + CHINESE_FRACTIONS[k]


@lesson.value
def no_res_11_phrase(no_res_11):
    """9412 → '九千多': leading digit and its place, in words."""
    exponent = int(np.floor(np.log10(no_res_11)))
    lead = int(no_res_11 // 10 ** exponent)
    return CHINESE_DIGITS[lead] + CHINESE_UNITS[exponent] + "多"


@lesson.value
def decay_curves(shrink_factor, res_factor, grow_factor, depth):
    """factor^L for L = 0 … depth, in steps of 8 (each curve is a straight line on a log axis)."""
    layers = np.arange(0, depth + 1, 8)
    factors = [shrink_factor, 1.0, res_factor, grow_factor]
    return {"layers": layers.tolist(), "factors": factors,
            "curves": [(f ** layers.astype(float)).tolist() for f in factors]}


# ---------------------------------------------------------------- §4 LayerNorm and RMSNorm by hand

@lesson.value
def ln_example():
    return layer_norm_steps([8, 2, 2, 4])


@lesson.value
def ln_challenge():
    steps = layer_norm_steps([10, 0, 0, 0])
    steps["n"] = len(steps["x"])
    steps["rest"] = steps["n"] - 1                                   # the components equal to each other
    xhat = np.array(steps["xhat"])
    steps["xhat_mean"] = round(float(xhat.mean()), 12) + 0.0       # check: 0 (rounding noise removed, no "−0")
    steps["xhat_std"] = round(float(np.sqrt(((xhat - xhat.mean()) ** 2).mean())), 12)   # check: 1
    return steps


@lesson.value
def ln_challenge_exact(ln_challenge):
    """Why x̂ = [√3, −1/√3, …]: x − μ = μ·[3, −1, −1, −1], so σ² = μ²·mean([9, 1, 1, 1]) = 3μ² and σ = μ·√3."""
    mu = ln_challenge["mu"]
    pattern = [round(v / mu) for v in ln_challenge["centered"]]
    return {"pattern": pattern, "pattern_mean_sq": float(np.mean(np.square(pattern))),
            "sigma_over_mu": ln_challenge["sigma"] / mu,
            "sqrt3": float(np.sqrt(3)), "inv_sqrt3": float(1 / np.sqrt(3))}


@lesson.value
def torch_eps():
    """PyTorch's default ε for nn.LayerNorm (added under the square root)."""
    return 1e-5


@lesson.value
def ln_constant(torch_eps):
    """A constant vector has σ = 0; with ε under the root LayerNorm returns zeros instead of 0/0."""
    x = [3, 3, 3, 3]
    mu, var = moments(x)
    return {"x": x, "var": float(var[0]), "xhat": layer_norm(x, torch_eps).tolist()}


@lesson.value
def rms_example():
    x = [8, 2, 2, 4]
    mean_sq = float(np.mean(np.square(x)))
    y = rms_norm(x)
    return {"x": x, "mean_sq": mean_sq, "rms": float(np.sqrt(mean_sq)), "y": y.tolist(),
            "y_mean_sq": round(float(np.mean(y ** 2)), 12)}


# ---------------------------------------------------------------- §4–5 the norm at initialisation

@lesson.value
def norm_sim():
    """‖x_l‖²/d at initialisation, in Xiong et al. (2020)'s setting.

    d = 128, 16 tokens, 24 layers; each layer = attention sublayer (W^Q = W^K = 0, so attention is the mean over
    positions times W^V) + FFN sublayer W2·ReLU(W1·h) with d_ff = d; weights N(0, 1/d), zero biases, γ = 1, β = 0.
    Input: LN of a random matrix, so every token starts with ‖x_0‖² = d. The three variants share the weights.

    Besides the curves (means over seeds) it keeps each seed's value at the last layer, for the spread, and what each
    Pre-LN block adds to ‖x‖²/d in expectation over that block's own random weights, given its input: the FFN sublayer
    adds d/2 (ReLU keeps half of a unit-variance Gaussian's square) and the mean-attention sublayer adds ‖h̄‖², h̄ = the
    mean over positions of LN(x); cross terms have mean 0. So between d/2 and 3d/2 — Lemma 2's bounds, block by block.
    """
    d, n, n_layers, seeds = 128, 16, 24, [0, 1, 2, 3]

    def attention(h, wv):
        return np.repeat(h.mean(axis=0, keepdims=True), len(h), axis=0) @ wv

    def ffn(h, w1, w2):
        return np.maximum(h @ w1, 0) @ w2

    def sq_norm(x):
        return (x ** 2).sum(axis=1).mean() / d          # mean over tokens of ‖x‖²/d

    runs = {"none": [], "post": [], "pre": [], "post_before_ln": [], "pre_block_add": []}
    shrunk = []                  # per seed, block and token: did this Pre-LN block make the token's ‖x‖² smaller?
    for seed in seeds:
        rng = np.random.default_rng(seed)
        x0 = layer_norm(rng.standard_normal((n, d)))
        weights = [[rng.normal(0.0, 1 / np.sqrt(d), (d, d)) for _ in range(3)] for _ in range(n_layers)]
        x_none, x_post, x_pre = x0, x0, x0
        curves = {"none": [sq_norm(x0)], "post": [sq_norm(x0)], "pre": [sq_norm(x0)], "post_before_ln": [],
                  "pre_block_add": []}
        for wv, w1, w2 in weights:
            x_none = x_none + attention(x_none, wv)
            x_none = x_none + ffn(x_none, w1, w2)

            x_post = layer_norm(x_post + attention(x_post, wv))
            summed = x_post + ffn(x_post, w1, w2)                 # Xiong et al.'s x^{post,5}: E‖·‖² = 1.5 d
            x_post = layer_norm(summed)

            h = layer_norm(x_pre)
            curves["pre_block_add"].append(0.5 + (h.mean(axis=0) ** 2).sum() / d)   # E[Δ‖x‖²]/d, see above
            before = (x_pre ** 2).sum(axis=1)
            x_pre = x_pre + attention(h, wv)
            x_pre = x_pre + ffn(layer_norm(x_pre), w1, w2)
            shrunk += ((x_pre ** 2).sum(axis=1) < before).tolist()

            for key, x in (("none", x_none), ("post", x_post), ("pre", x_pre)):
                curves[key].append(sq_norm(x))
            curves["post_before_ln"].append(sq_norm(summed))
        for key in runs:
            runs[key].append(curves[key])

    layers = list(range(n_layers + 1))
    result = {"layers": layers, "d": d, "n_tokens": n, "seeds": len(seeds),
              "pre_lower": [1 + l / 2 for l in layers], "pre_upper": [1 + 3 * l / 2 for l in layers]}
    for key, values in runs.items():
        result[key] = np.mean(values, axis=0).tolist()
    result["last_by_seed"] = {key: [curve[-1] for curve in runs[key]] for key in ("none", "pre")}
    result["post_before_ln_by_seed"] = np.mean(runs["post_before_ln"], axis=1).tolist()
    # the residual path only adds, but what it adds can point partly against x: some blocks shrink a token's ‖x‖²
    result["pre_shrink"] = {"count": int(sum(shrunk)), "total": len(shrunk), "fraction": float(np.mean(shrunk))}
    if not all(0.5 <= v <= 1.5 for curve in runs["pre_block_add"] for v in curve):
        raise ValueError("a Pre-LN block added less than d/2 or more than 3d/2 in expectation")

    # Lemma 2 (Xiong et al. 2020): (1 + l/2) d ≤ E‖x_l‖² ≤ (1 + 3l/2) d for Pre-LN. The text relies on it: check it.
    for l, v, lo, hi in zip(layers, result["pre"], result["pre_lower"], result["pre_upper"]):
        if not lo - 1e-9 <= v <= hi + 1e-9:
            raise ValueError(f"Pre-LN ‖x_{l}‖²/d = {v:.3f} left Lemma 2's band [{lo}, {hi}]")
    return result


@lesson.value
def norm_final(norm_sim):
    """The last layer's numbers, named for the text."""
    return {"layers": norm_sim["layers"][-1], "d": norm_sim["d"], "seeds": norm_sim["seeds"],
            "n_tokens": norm_sim["n_tokens"],
            "none": norm_sim["none"][-1], "post": norm_sim["post"][-1], "pre": norm_sim["pre"][-1],
            "pre_lower": norm_sim["pre_lower"][-1], "pre_upper": norm_sim["pre_upper"][-1],
            "post_before_ln": float(np.mean(norm_sim["post_before_ln"])),
            "none_rms": float(np.sqrt(norm_sim["none"][-1])), "pre_rms": float(np.sqrt(norm_sim["pre"][-1])),
            # the spread over seeds at the last layer: the text rounds to what it supports
            "none_min": float(min(norm_sim["last_by_seed"]["none"])),
            "none_max": float(max(norm_sim["last_by_seed"]["none"])),
            "pre_min": float(min(norm_sim["last_by_seed"]["pre"])),
            "pre_max": float(max(norm_sim["last_by_seed"]["pre"])),
            "post_before_ln_min": min(norm_sim["post_before_ln_by_seed"]),
            "post_before_ln_max": max(norm_sim["post_before_ln_by_seed"]),
            # what a Pre-LN block adds to ‖x‖²/d (expected over its weights), first and last block
            "pre_add_first": float(norm_sim["pre_block_add"][0]),
            "pre_add_last": float(norm_sim["pre_block_add"][-1]),
            # how often one Pre-LN block made one token's ‖x‖² smaller (seeds × blocks × tokens)
            "pre_shrink_count": norm_sim["pre_shrink"]["count"], "pre_shrink_total": norm_sim["pre_shrink"]["total"],
            "pre_shrink_fraction": norm_sim["pre_shrink"]["fraction"]}


# ---------------------------------------------------------------- figures

@lesson.figure(
    caption="三种注意力掩码。行是当前正在处理的词（查询），列是它能看的词（键）；"
            "✓ = 可看，× = 遮住。编码器人人互看；解码器只能看自己和左边；"
            "交叉注意力里，解码器的每个位置都能看编码器的全部输入。",
    alt="三个并排的方格图，行是当前词，列是能看的词。左：编码器自注意力，行列都是 {{ tokens }}，格子全部可看。"
        "中：解码器自注意力，只有对角线及其左下方可看（下三角），右上方全部遮住。"
        "右：交叉注意力，行是英文译文 {{ decoder_tokens }}，列是中文原文 {{ tokens }}，全部可看。")
def mask_heatmaps(plt, tokens, decoder_tokens, encoder_mask, causal_mask, cross_mask):
    from matplotlib.colors import ListedColormap

    cmap = ListedColormap(["#eeeeee", SKY])
    panels = [("编码器：自注意力", tokens, tokens, encoder_mask),
              ("解码器：自注意力（因果）", tokens, tokens, causal_mask),
              ("交叉注意力（译文看原文）", decoder_tokens, tokens, cross_mask)]
    fig, axs = plt.subplots(1, 3, figsize=(7.4, 2.5))
    for ax, (title, rows, cols, mask) in zip(axs, panels):
        ax.set_anchor("N")
        mask = np.asarray(mask)
        ax.pcolormesh(mask.astype(float), cmap=cmap, vmin=0, vmax=1, edgecolors="white", linewidth=1.5)
        for i in range(mask.shape[0]):
            for j in range(mask.shape[1]):
                ax.text(j + 0.5, i + 0.5, "✓" if mask[i, j] else "×", ha="center", va="center",
                        color="#08306b" if mask[i, j] else "#888888", fontsize=11 if mask[i, j] else 9)
        ax.set_xticks(np.arange(mask.shape[1]) + 0.5, cols, fontsize=8.5)
        ax.set_yticks(np.arange(mask.shape[0]) + 0.5, rows, fontsize=8.5)
        ax.tick_params(length=0)
        ax.set_xlim(0, mask.shape[1])
        ax.set_ylim(mask.shape[0], 0)
        ax.set_aspect("equal")
        ax.xaxis.tick_top()
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title(title, fontsize=9.5, pad=4)
    axs[0].set_ylabel("当前词（查询）", fontsize=8.5)
    for ax in axs:
        ax.set_xlabel("能看的词（键）", fontsize=8.5)
    return fig


@lesson.figure(
    caption="每层把梯度乘一个固定的因子，连乘 $L$ 层后剩下多少（纵轴是对数刻度）。"
            "第 {{ depth }} 层时：{{ shrink_factor:g }} → {{ no_res_09 }}，{{ grow_factor:g }} → {{ no_res_11 }}，"
            "而残差给出的 {{ res_factor:g }} 只到 {{ res_101 }}。",
    alt="对数纵轴的折线图，横轴是层数 L 从 0 到 {{ depth }}，纵轴是因子的 L 次方。"
        "四条直线：因子 {{ shrink_factor:g }} 一路下降到 {{ no_res_09 }}；因子 1 保持水平在 1；"  # literal: 1
        "因子 {{ res_factor:g }} 缓慢上升到 {{ res_101 }}；因子 {{ grow_factor:g }} 急剧上升到 {{ no_res_11 }}。")
def gradient_decay(plt, decay_curves):
    layers = np.array(decay_curves["layers"])
    styles = [
        (VERMILION, "-", "v", "无残差，每层 ×{}（消失）"),
        (GREY, ":", None, "每层 ×{}（基准）"),
        (GREEN, "-", "o", "有残差，每层 ×{}"),
        (BLUE, "--", "^", "无残差，每层 ×{}（爆炸）"),
    ]
    fig, ax = plt.subplots(figsize=(6.4, 3.1))
    for factor, curve, (color, ls, marker, label) in zip(decay_curves["factors"], decay_curves["curves"], styles):
        ax.semilogy(layers, curve, color=color, linestyle=ls, marker=marker, markersize=4, linewidth=1.6,
                    label=label.format(f"{factor:g}"))
        if factor != 1.0:
            ax.annotate(f"${factor:g}^{{{layers[-1]}}} \\approx {sci(curve[-1])}$", xy=(layers[-1], curve[-1]),
                        xytext=(6, 0), textcoords="offset points", va="center", fontsize=8.5, color=color)
    ax.set(xlabel="层数 L（从最后一层往回数）", ylabel="梯度保留的倍数", xlim=(0, layers[-1]),
           ylim=(1e-5, 1e5))
    ax.set_xticks(layers[::2])
    ax.legend(fontsize=8, loc="upper left", ncols=2)
    return fig


@lesson.figure(
    caption="初始化时（随机权重，还没训练），残差流的量级 $\\lVert x_l\\rVert^2/d$ 随层数的变化；"
            "$d = {{ norm_final.d }}$，{{ norm_final.n_tokens }} 个词，{{ norm_final.seeds }} 组随机种子取平均，"
            "设定同 Xiong 等（2020）。没有 LayerNorm 时第 {{ norm_final.layers }} 层涨到约 {{ norm_final.none:sig1 }}；"
            "Post-LN 每次都被压回 {{ norm_final.post:g }}；Pre-LN 大致线性地增长到约 {{ norm_final.pre:sig2 }}"
            "（各组种子在 {{ norm_final.pre_min:sig2 }} 到 {{ norm_final.pre_max:sig2 }} 之间），落在引理 2 给出的范围"
            " [{{ norm_final.pre_lower:g }}, {{ norm_final.pre_upper:g }}] 之内（阴影）。",
    alt="对数纵轴的折线图，横轴是层号 0 到 {{ norm_final.layers }}，纵轴是 ‖x‖²/d，标明是初始化时。"
        "无 LayerNorm 的曲线几乎按指数上升，到第 {{ norm_final.layers }} 层约 {{ norm_final.none:sig1 }}；"
        "Post-LN 是一条平线，始终等于 {{ norm_final.post:g }}；Pre-LN 缓慢地大致线性上升，到第 {{ norm_final.layers }} 层约 "
        "{{ norm_final.pre:sig2 }}，落在阴影带 1 + l/2 到 1 + 3l/2 之间。")  # literal: Lemma 2's bounds, spoken
def norm_growth(plt, norm_sim):
    layers = np.array(norm_sim["layers"])
    # end labels rounded to what the seeds support, as in the text (norm_final has the spread over seeds)
    series = {"none": ("无 LayerNorm", VERMILION, "-", "v", "sig1"),
              "pre": ("Pre-LN", BLUE, "-", "o", "sig2"),
              "post": ("Post-LN", GREEN, "--", "s", "g")}
    fig, (ax_log, ax_lin) = plt.subplots(1, 2, figsize=(7.4, 3.1))
    for ax, keys in ((ax_log, ["none", "pre", "post"]), (ax_lin, ["pre", "post"])):
        ax.fill_between(layers, norm_sim["pre_lower"], norm_sim["pre_upper"], color=ORANGE, alpha=0.2, linewidth=0,
                        label="引理 2：Pre-LN 的范围")
        for key in keys:
            label, color, ls, marker, spec = series[key]
            values = norm_sim[key]
            ax.plot(layers, values, color=color, linestyle=ls, marker=marker, markersize=3.5, markevery=4,
                    linewidth=1.6, label=label)
            about = "" if key == "post" else "\\approx "        # LN's output has ‖x‖² = d exactly
            ax.annotate(f"${about}{sci(values[-1], spec)}$", xy=(layers[-1], values[-1]), xytext=(4, 0),
                        textcoords="offset points", va="center", fontsize=8.5, color=color)
        ax.set(xlabel="层号 $l$", xlim=(0, layers[-1]), xticks=layers[::4])
    ax_log.set_yscale("log")
    ax_log.set(ylabel="$\\Vert x_l\\Vert^2 / d$", title="对数纵轴：三种做法")
    ax_lin.set(ylim=(0, norm_sim["pre_upper"][-1] * 1.08), title="线性纵轴：Pre-LN 与 Post-LN")
    ax_log.legend(fontsize=8, loc="upper left")
    fig.suptitle(f"初始化时（随机权重，未训练）残差流的量级，d = {norm_sim['d']}", fontsize=10)
    return fig


@lesson.figure(
    caption="LayerNorm 前后的同一条向量：$x = {{ ln_example.x }}$ 变成 $\\hat x = {{ ln_example.xhat }}$。"
            "先减去均值 $\\mu = {{ ln_example.mu }}$，再除以标准差 $\\sigma \\approx {{ ln_example.sigma }}$。",
    alt="分组柱状图，四个分量各有两根柱子。原向量 x 是 {{ ln_example.x }}，"
        "归一化后 x̂ 是 {{ ln_example.xhat }}：比均值大的变正，比均值小的变负，等于均值的变成 0。")  # literal: 0
def layernorm_example(plt, ln_example):
    x, xhat = np.array(ln_example["x"]), np.array(ln_example["xhat"])
    idx = np.arange(len(x))
    width = 0.38
    fig, ax = plt.subplots(figsize=(5.6, 2.9))
    bars_x = ax.bar(idx - width / 2, x, width, color=SKY, edgecolor=BLUE, label="原向量 $x$")
    bars_h = ax.bar(idx + width / 2, xhat, width, color=ORANGE, edgecolor=VERMILION, hatch="///",
                    label="归一化后 $\\hat{x}$")
    for bars, values in ((bars_x, x), (bars_h, xhat)):
        for bar, v in zip(bars, values):
            ax.annotate(f"{v:.3g}".replace("-", "−"), xy=(bar.get_x() + bar.get_width() / 2, v),
                        xytext=(0, 3 if v >= 0 else -3), textcoords="offset points",
                        ha="center", va="bottom" if v >= 0 else "top", fontsize=8.5)
    ax.axhline(0, color=GREY, linewidth=0.8)
    ax.axhline(ln_example["mu"], color=BLUE, linestyle=":", linewidth=1.2)
    ax.annotate(f"$\\mu = {ln_example['mu']:g}$", xy=(idx[-1] + 0.5, ln_example["mu"]), xytext=(0, 3),
                textcoords="offset points", ha="right", va="bottom", fontsize=8.5, color=BLUE)
    ax.set_xticks(idx, [f"第 {i + 1} 维" for i in idx])
    ax.set_ylim(min(xhat.min(), 0) - 1.2, x.max() + 1.3)
    ax.set_ylabel("数值")
    ax.legend(fontsize=8, loc="upper right")
    return fig


# ---------------------------------------------------------------- widgets

@lesson.widget
def mask_table(tokens, encoder_mask, causal_mask):
    return {"rows": tokens, "cols": tokens, "context": "续写「" + " ".join(tokens) + "」",
            "initial_mode": "encoder",
            "modes": [{"key": "encoder", "label": "编码器", "visible": np.asarray(encoder_mask).tolist()},
                      {"key": "decoder", "label": "解码器", "visible": np.asarray(causal_mask).tolist()}]}


@lesson.widget
def block_stack(norm_sim):
    """‖x‖/√d after L blocks, for each way of placing LayerNorm: one stepper over the simulated depths."""
    layers = list(norm_sim["layers"])
    # shown to the precision the seeds support: no norm varies ×/÷1.5 between seeds, Pre-LN by about ±5 %
    series = [("无 LayerNorm", "none", "sig1"), ("Post-LN", "post", "sig2"), ("Pre-LN", "pre", "sig2")]

    def state(blocks):
        i = layers.index(blocks)
        return {"values": [(label, float(np.sqrt(norm_sim[key][i])), spec) for label, key, spec in series]}

    return explorer(
        params=[param("blocks", "块数", layers, control="stepper", initial=1)],
        state=state,
        key=[0, 1, 4, 12, 24],
        bars="log",
        caption="‖x‖ / √d 随块数的变化（初始化时，多个随机种子的平均）",
    )
