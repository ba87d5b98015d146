"""Computations for「位置编码：让模型分清「猫追狗」和「狗追猫」」.

Every number the lesson shows is a value below; the text only inserts it with {{ name }}.
"""
import numpy as np

from fractions import Fraction

from lessonkit import Lesson, format_value

lesson = Lesson()

# Okabe–Ito colours (safe for colour-blind readers), as in the first lesson.
BLUE, ORANGE, GREEN, VERMILION, SKY, PURPLE, GREY = (
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7", "#555555")

BASE = 10000  # the 10000 in Vaswani et al.'s and Su et al.'s formulas


# ---------------------------------------------------------------- helpers (plain functions, not values)

def frequencies(d, base=BASE):
    """ω_i = base^(−2i/d), i = 0 … d/2 − 1: the angle per position of the i-th (sin, cos) pair."""
    return base ** (-2.0 * np.arange(d // 2) / d)


def sinusoidal(positions, d):
    """PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i); one row per position."""
    angles = np.outer(np.asarray(positions, dtype=float), frequencies(d))
    pe = np.empty((len(angles), d))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def rotate(x, pos, d=None):
    """RoPE: rotate every pair (x_{2i}, x_{2i+1}) of x by the angle pos·θ_i, θ_i = 10000^(−2i/d)."""
    x = np.asarray(x, dtype=float)
    angles = pos * frequencies(len(x) if d is None else d)
    c, s = np.cos(angles), np.sin(angles)
    out = np.empty_like(x)
    out[0::2] = c * x[0::2] - s * x[1::2]
    out[1::2] = s * x[0::2] + c * x[1::2]
    return out


def rotate2(v, angle):
    """A 2-D vector turned by `angle` radians, counter-clockwise."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def attention(x, wq, wk, wv, causal=False):
    """Single-head scaled dot-product self-attention; with `causal`, query i sees only keys j ≤ i."""
    d = x.shape[1]
    scores = (x @ wq) @ (x @ wk).T / np.sqrt(d)
    if causal:
        scores = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ (x @ wv)


def fmt(v, spec=None):
    """A number as the page writes it (real minus, 3 significant figures), for figure labels and widget data."""
    return format_value(v, spec)


NOISE = 1e-12   # a difference below this, between results that are equal in exact arithmetic, is rounding noise


def noise(v):
    """A floating-point rounding error shown as what it is: its order of magnitude (2.2 × 10⁻¹⁶ → 「≈ 10⁻¹⁶」),
    not three digits that carry no meaning. Refuses a value too large to be rounding noise."""
    v = abs(float(v))
    if v >= NOISE:
        raise ValueError(f"{v:g} is not rounding noise (≥ {NOISE:g}): show it as a number")
    if v == 0:
        return "0"
    return "≈ 10" + str(round(np.log10(v))).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


@lesson.value
def pe_base():
    """The base of the sinusoidal frequencies ω_i = base^(−2i/d) (and of RoPE's θ_i), as the text writes it."""
    return BASE


# ---------------------------------------------------------------- §1 the classroom question, computed

@lesson.value
def sentences():
    return {"a": ["猫", "追", "狗"], "b": ["狗", "追", "猫"]}


@lesson.value
def toy():
    """The first lesson's setting: seed 0, 8-dimensional random word vectors, random W^Q, W^K, W^V / √d."""
    seed, d = 0, 8
    rng = np.random.default_rng(seed)
    embed = {w: rng.standard_normal(d) for w in ["猫", "追", "狗"]}
    wq, wk, wv = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))   # entries N(0, 1/d)
    return {"seed": seed, "d": d, "w_var": 1 / d, "embed": embed, "wq": wq, "wk": wk, "wv": wv}


def _outputs(toy, words, positional=False, causal=False):
    """Each word's attention output in one sentence, keyed by word (the three words are distinct)."""
    x = np.stack([toy["embed"][w] for w in words])
    if positional:
        x = x + sinusoidal(range(len(words)), toy["d"])
    out = attention(x, toy["wq"], toy["wk"], toy["wv"], causal=causal)
    return dict(zip(words, out))


def _word_diffs(toy, sentences, **kw):
    a, b = _outputs(toy, sentences["a"], **kw), _outputs(toy, sentences["b"], **kw)
    return {w: float(np.abs(a[w] - b[w]).max()) for w in sentences["a"]}


@lesson.value
def order_check(toy, sentences):
    """Largest |difference| between the same word's outputs in「猫追狗」and「狗追猫」, in three settings."""
    settings = {"plain": {}, "sinusoidal": {"positional": True}, "causal": {"causal": True}}
    result = {"d": toy["d"]}
    for key, kw in settings.items():
        diffs = _word_diffs(toy, sentences, **kw)
        result[key] = diffs                               # per word: 猫, 追, 狗
        result[key + "_max"] = max(diffs.values())
    result["plain_noise"] = {w: noise(v) for w, v in result["plain"].items()}   # equal in exact arithmetic
    result["plain_max_noise"] = noise(result["plain_max"])
    return result


@lesson.value
def perm_rows(order_check, sentences):
    """The table in §1: one row per word, one column per setting (numbers formatted on the page)."""
    return [[w, order_check["plain_noise"][w], order_check["sinusoidal"][w], order_check["causal"][w]]
            for w in sentences["a"]]


@lesson.value
def causal_first(toy, sentences):
    """With a causal mask the first word sees only itself: its output is exactly its own value vector x·W^V."""
    w = sentences["a"][0]
    out = _outputs(toy, sentences["a"], causal=True)[w]
    diff = float(np.abs(out - toy["embed"][w] @ toy["wv"]).max())
    return {"word": w, "diff": diff, "diff_noise": noise(diff),
            "visible": "、".join(str(i + 1) for i in range(len(sentences["a"])))}


# ---------------------------------------------------------------- §2 sinusoidal encodings

@lesson.value
def pe_d():
    """Model width for the pictures of the sinusoidal encoding."""
    return 16


@lesson.value
def pe_positions():
    return 24


@lesson.value
def pe_last(pe_d, pe_positions):
    """The last position and the last dimension shown (both counted from 0)."""
    return {"pos": pe_positions - 1, "dim": pe_d - 1}


@lesson.value
def pe_table(pe_d, pe_positions):
    return sinusoidal(range(pe_positions), pe_d)


@lesson.value
def pe_waves(pe_d):
    """Wavelengths 2π/ω_i in positions: a geometric progression from 2π toward 10000·2π."""
    lam = 2 * np.pi / frequencies(pe_d)
    omega = frequencies(pe_d)
    return {"first": float(lam[0]), "last": float(lam[-1]), "ratio": float(lam[1] / lam[0]),
            "pairs": pe_d // 2, "omega0": float(omega[0]), "omega1": float(omega[1])}


@lesson.value
def pe_dot(pe_d):
    """PE(pos)·PE(pos+k) for pos = 0 … 99 and k = 0 … 40: depends on k only, equal to Σ_i cos(k·ω_i)."""
    positions, offsets = np.arange(100), np.arange(41)
    pe = sinusoidal(np.arange(len(positions) + len(offsets)), pe_d)
    dots = np.array([[pe[p] @ pe[p + k] for k in offsets] for p in positions])
    formula = np.cos(np.outer(offsets, frequencies(pe_d))).sum(axis=1)
    spread = dots.max(axis=0) - dots.min(axis=0)
    examples = [1, 5, 20]
    return {"positions": len(positions), "offsets": offsets.tolist(), "formula": formula.tolist(),
            "curves": {p: dots[p].tolist() for p in (0, 17, 60)},
            "max_spread": float(spread.max()), "max_formula_gap": float(np.abs(dots - formula).max()),
            "max_spread_noise": noise(spread.max()), "max_formula_gap_noise": noise(np.abs(dots - formula).max()),
            "max_k": int(offsets[-1]),
            "examples": [{"k": k, "dot": float(formula[k])} for k in examples],
            "self": float(formula[0])}


@lesson.value
def pe_hand():
    """Challenge 1: d = 4, so ω_0 = 1 and ω_1 = 10000^(−1/2) = 0.01; PE(pos)·PE(pos+1) = cos 1 + cos 0.01."""
    d, k = 4, 1
    omega = frequencies(d)
    terms = np.cos(k * omega)
    checks = [3, 7]                                  # two starting positions, to see that pos drops out
    pe = sinusoidal([p + step for p in checks for step in (0, k)], d)
    return {"d": d, "k": k, "omega": omega.tolist(), "terms": terms.tolist(), "dot": float(terms.sum()),
            "exponent_1": f"-{2 * 1}/{d}",           # ω_1 = 10000^(−2i/d) with i = 1
            "check_pos": checks, "check_3": float(pe[0] @ pe[1]), "check_7": float(pe[2] @ pe[3])}


@lesson.value
def wave_512():
    """Challenge 2: d = 512 as in Vaswani et al.: shortest and longest wavelength (in positions)."""
    d = 512
    lam = 2 * np.pi / frequencies(d)
    decades = float(np.log10(lam[-1] / lam[0]))
    return {"d": d, "pairs": d // 2, "last_i": d // 2 - 1, "shortest": float(lam[0]), "longest": float(lam[-1]),
            "limit": float(2 * np.pi * BASE), "exponent": f"{d - 2}/{d}", "decades": decades,
            "decades_words": "零一二三四五六七八九"[int(np.ceil(decades))]}   # 「将近四个」: the next whole number


@lesson.value
def pe_colour_levels():
    """Figure 1's colour steps: the encoding (in [−1, 1]) is shown in 9 colours centred on −1, −0.75, …, 1, i.e. each
    value takes the colour of the nearest multiple of 0.25; the bins' edges lie half a step either side of a centre,
    and the colour bar shows exactly these bins."""
    centres = np.linspace(-1, 1, 9)
    half = (centres[1] - centres[0]) / 2
    return {"centres": centres.tolist(), "count": len(centres), "step": float(2 * half),
            "edges": np.concatenate([centres - half, [centres[-1] + half]]).tolist(), "ticks": [-1.0, 0.0, 1.0]}


# ---------------------------------------------------------------- §3 RoPE

@lesson.value
def rope_d():
    return 16


@lesson.value
def rope_pair(rope_d):
    """The 2-D picture: pair i = 1 of a 16-wide head, θ_1 = 10000^(−2/16); q = (1, 0), k = (0, 1)."""
    theta = float(frequencies(rope_d)[1])
    cases = [[2, 0], [5, 3]]                     # the two (m, n) drawn: same offset, both shifted by 3
    return {"i": 1, "theta": theta, "theta_deg": float(np.degrees(theta)),
            "q": [1.0, 0.0], "k": [0.0, 1.0],
            "cases": cases, "case_text": [f"({m}, {n})" for m, n in cases], "shift": cases[1][0] - cases[0][0]}



@lesson.value
def rope_check(rope_d):
    """Full 16-dimensional RoPE on random q, k (seed 1): q_m·k_n for pairs (m, n) sharing an offset m − n."""
    seed = 1
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal(rope_d), rng.standard_normal(rope_d)
    groups = {2: [(2, 0), (5, 3), (7, 5), (40, 38)], 0: [(0, 0), (3, 3), (7, 7)], -2: [(0, 2), (3, 5), (6, 8)]}
    rows, spreads = [], []
    for offset, pairs in groups.items():
        dots = [float(rotate(q, m) @ rotate(k, n)) for m, n in pairs]
        spreads.append(max(dots) - min(dots))
        rows.append({"offset": offset, "pairs": [f"({m}, {n})" for m, n in pairs], "dots": dots})
    grid = np.array([[rotate(q, m) @ rotate(k, n) for n in range(8)] for m in range(8)])
    return {"rows": rows, "max_spread": float(max(spreads)), "max_spread_noise": noise(max(spreads)),
            "grid": grid.tolist(), "plain": float(q @ k), "positions": 8, "seed": seed}


@lesson.value
def rope_table(rope_check):
    """The text's table: offset, the (m, n) pairs, their dot products (the same number, written once per pair)."""
    return [[r["offset"], "、".join(r["pairs"]), r["dots"][0], r["dots"][-1]] for r in rope_check["rows"]]


@lesson.value
def rope_decay():
    """RoFormer's long-term decay (Su et al., §3.4.3): |Σ_i h_i e^{i(m−n)θ_i}| ≤ (max_i |h_{i+1} − h_i|) Σ_j |S_j|
    with S_j = Σ_{k<j} e^{i(m−n)θ_k}. Their figure 2 plots the relative upper bound (1/(d/2)) Σ_j |S_j| against the
    relative distance for d = 128. It falls in trend but not at every step: count the steps at which it rises."""
    d, distances = 128, np.arange(257)
    theta = frequencies(d)
    partial = np.cumsum(np.exp(1j * np.outer(distances, theta)), axis=1)    # S_1 … S_{d/2}, one row per distance
    bound = np.abs(partial).mean(axis=1)
    rises = int((np.diff(bound) > 0).sum())
    return {"d": d, "max_distance": int(distances[-1]), "steps": len(distances) - 1, "rises": rises,
            "start": float(bound[0]), "end": float(bound[-1])}

ROPE_KEYS = [(2, 0), (5, 3), (7, 5)]          # printed side by side: one offset, three places
ROPE_TABLE = ROPE_KEYS + [(0, 2), (3, 5)]     # the table adds the opposite offset
ROPE_STATUS = "m = {m}，n = {n}，相隔 {offset}：夹角 {between}，q·k = {dot}"   # the script fills it in likewise


def dial_arrow(v):
    """An arrow from the origin to v on the dial, in SVG coordinates (y grows downwards): the shaft ends where
    the head begins; the label sits beyond the tip."""
    u = np.asarray(v, dtype=float) / np.linalg.norm(v)
    base, side = u * 0.82, np.array([-u[1], u[0]]) * 0.08

    def svg(p):
        return round(float(p[0]), 3) + 0.0, round(float(-p[1]), 3) + 0.0

    x, y = svg(base)
    tx, ty = svg(u * 1.2)
    head = " ".join(f"{a:g},{b:g}" for a, b in map(svg, (u, base + side, base - side)))
    return [x, y, head, tx, ty]


@lesson.value
def dial_step():
    """How far the dial's buttons move m and n (the text names the「同时 +1」button by it)."""
    return 1


@lesson.widget
def rope_dial(rope_pair, dial_step):
    """The 2-D RoPE dial: q turned by mθ, k by nθ, for m, n = 0 … 7. Every coordinate and every text is computed
    here, from the rotated vectors themselves (equal offsets are not assumed to give equal numbers); the page's
    script only moves the arrows and swaps these strings."""
    theta, q, k = rope_pair["theta"], np.array(rope_pair["q"]), np.array(rope_pair["k"])
    positions = list(range(8))
    qs = [rotate2(q, m * theta) for m in positions]
    ks = [rotate2(k, n * theta) for n in positions]

    def angle(v):
        return f"{fmt(float(np.degrees(np.arctan2(v[1], v[0])) % 360), '.1f')}°"

    def pair(m, n):
        qm, kn = qs[m], ks[n]
        dot = float(qm @ kn)
        dot = 0.0 if abs(dot) < 1e-12 else dot                     # sin(0) computed as 1e-17 is 0
        cos = dot / (np.linalg.norm(qm) * np.linalg.norm(kn))
        between = f"{fmt(float(np.degrees(np.arccos(np.clip(cos, -1, 1)))), '.1f')}°"
        return {"m": m, "n": n, "offset": fmt(m - n), "between": between, "dot": fmt(dot), "value": dot,
                "q_angle": angle(qm), "k_angle": angle(kn),
                "status": ROPE_STATUS.format(m=m, n=n, offset=fmt(m - n), between=between, dot=fmt(dot))}

    def picture(m, n):
        p = pair(m, n)
        return {**p, "q": dial_arrow(qs[m]), "k": dial_arrow(ks[n]),
                "alt": f"单位圆上两支箭头：q 在第 {m} 位，转到 {p['q_angle']}；k 在第 {n} 位，转到 {p['k_angle']}；"
                       f"夹角 {p['between']}，点积 {p['dot']}。"}

    grid = [[pair(m, n) for n in positions] for m in positions]
    return {
        "theta": f"{fmt(rope_pair['theta_deg'], '.1f')}°",
        "step": fmt(dial_step), "k_start": angle(ks[0]),          # k's direction before it turns: 90°
        "status": ROPE_STATUS,
        "positions": [fmt(p) for p in positions],
        "initial": list(ROPE_KEYS[0]),
        "live": picture(*ROPE_KEYS[0]),
        "keys": [picture(m, n) for m, n in ROPE_KEYS],
        "table": [grid[m][n] for m, n in ROPE_TABLE],
        # what the script swaps in: arrows per position, texts per (m, n)
        "q": [dial_arrow(v) for v in qs], "k": [dial_arrow(v) for v in ks],
        "q_angle": [angle(v) for v in qs], "k_angle": [angle(v) for v in ks],
        "pairs": [[[c["offset"], c["between"], c["dot"]] for c in row] for row in grid],
    }


@lesson.value
def rope_hand():
    """Challenge 3: θ = 0.5, q = (1, 0), k = (0, 1): q_m·k_n = sin((m − n)θ)."""
    theta, q, k = 0.5, np.array([1.0, 0.0]), np.array([0.0, 1.0])
    cases = [(3, 1), (5, 3), (1, 3)]
    dots = [float(rotate2(q, m * theta) @ rotate2(k, n * theta)) for m, n in cases]
    return {"theta": theta, "cases": [f"({m}, {n})" for m, n in cases], "dots": dots,
            "q_text": "({:g}, {:g})".format(*q), "k_text": "({:g}, {:g})".format(*k),
            "offsets": [m - n for m, n in cases],
            "angle": 2 * theta, "sin": float(np.sin(2 * theta))}


# ---------------------------------------------------------------- §4 learned absolute embeddings and ALiBi

@lesson.value
def learned():
    """Learned absolute position tables: one trainable row per position up to a fixed maximum."""
    bert = {"name": "BERT-base", "max_len": 512, "width": 768}
    gpt2 = {"name": "GPT-2（最小版）", "max_len": 1024, "width": 768}
    for m in (bert, gpt2):
        m["params"] = m["max_len"] * m["width"]
    return {"bert": bert, "gpt2": gpt2}


ALIBI_EXPONENT = 8   # Press et al.'s slopes: powers of 2^(−8/n) for n heads


def alibi_slopes(n_heads):
    """Press et al.: a geometric sequence starting at 2^(−8/n) with ratio 2^(−8/n)."""
    start = 2.0 ** (-ALIBI_EXPONENT / n_heads)
    return start ** np.arange(1, n_heads + 1)


@lesson.value
def alibi():
    heads = 8
    slopes = alibi_slopes(heads)
    n = 6
    i, j = np.indices((n, n))
    bias = -slopes[0] * (i - j) + 0.0   # + 0.0: no "−0" on the diagonal
    return {"heads": heads, "slopes": slopes.tolist(), "inverse": (1 / slopes).tolist(),
            "ratio": float(slopes[1] / slopes[0]), "n": n, "bias": np.where(j <= i, bias, 0.0).tolist(),
            "first": float(slopes[0]), "last": float(slopes[-1]),
            "row_last": bias[n - 1].tolist(), "far": float(-slopes[-1] * (n - 1))}


@lesson.value
def alibi16():
    """Challenge 4: 16 heads."""
    slopes = alibi_slopes(16)
    heads, dist = 16, 10
    slopes = alibi_slopes(heads)
    power = Fraction(-ALIBI_EXPONENT, heads)         # the first slope and the ratio: 2^(−8/n)
    bias_first, weight = float(-slopes[0] * dist), float(np.exp(-slopes[0] * dist))
    # the exponent written with as many digits as it takes for e^(what is written) to round to the weight written
    digits = next(n for n in range(3, 17) if fmt(np.exp(float(fmt(bias_first, f".{n}g").replace("−", "-"))))
                  == fmt(weight))
    return {"heads": heads, "first": float(slopes[0]), "second": float(slopes[1]), "last": float(slopes[-1]),
            "ratio": float(slopes[1] / slopes[0]), "dist": dist, "bias_first": bias_first,
            "bias_first_shown": float(f"{bias_first:.{digits}g}"),   # −7.071: e^−7.071 ≈ 8.49 × 10⁻⁴ (e^−7.07: 8.50)
            "bias_last": float(-slopes[-1] * dist), "eighth": float(slopes[7]), "last_inv": float(1 / slopes[-1]),
            "weight_first": weight,
            # the exponents of 2, as fractions: 2^(−8/16) = 2^(−1/2); head h has 2^(−h/2); the last 2^(−8)
            "power": f"{-ALIBI_EXPONENT}/{heads}", "power_reduced": str(power),
            "power_general": f"{'-' if power.numerator == -1 else power.numerator}h/{power.denominator}",
            "power_last": str(power * heads)}


# ---------------------------------------------------------------- figures

@lesson.figure(
    caption="正弦位置编码 $\\mathrm{PE}$ 的数值：每一行是一个位置（0 到 {{ pe_last.pos }}），每一列是一维"
            "（$d = {{ pe_d }}$）。左边的维度频率高、几个位置就转一圈；越往右频率越低，"
            "最后一对的波长约 {{ pe_waves.last:.0f }} 个位置。",
    alt="热图，纵轴是位置 0 到 {{ pe_last.pos }}，横轴是维度 0 到 {{ pe_last.dim }}，颜色从 {{ pe_colour_levels.centres.0:g }}（蓝）"
        "到 {{ pe_colour_levels.centres.8:g }}（橙），分 {{ pe_colour_levels.count }} 档。"
        "第 0、1 列的颜色每隔几行就变一次，像细条纹；往右条纹越来越宽；最右边几列几乎整列同色："  # literal: 1
        "偶数列接近 0，奇数列接近 1。")  # literal: sin and cos of ~0
def pe_heatmap(plt, pe_table, pe_colour_levels):
    from matplotlib.colors import BoundaryNorm, LinearSegmentedColormap

    table = np.asarray(pe_table)
    levels = pe_colour_levels
    cmap = LinearSegmentedColormap.from_list("pe", [BLUE, "#f7f7f7", ORANGE], N=len(levels["centres"]))
    norm = BoundaryNorm(levels["edges"], cmap.N)      # the cells and the colour bar share these bins
    n_pos, d = table.shape
    fig, ax = plt.subplots(figsize=(5.6, 3.5))
    # a real heatmap: the mesh holds the encoding itself (the figure's data table is this matrix)
    # unclipped: no clip-path per cell (the engine draws a mesh without anti-aliasing, so no seams show between cells)
    mesh = ax.pcolormesh(table, cmap=cmap, norm=norm, clip_on=False)
    ax.set(xlim=(0, d), ylim=(n_pos, 0))
    ax.set_xticks(np.arange(0, d, 2) + 0.5, [str(v) for v in range(0, d, 2)])
    ax.set_yticks(np.arange(0, n_pos, 4) + 0.5, [str(v) for v in range(0, n_pos, 4)])
    ax.tick_params(length=0)
    ax.set_xlabel("维度（0 起；偶数列 sin，奇数列 cos）")
    ax.set_ylabel("位置 pos")
    for spine in ax.spines.values():
        spine.set_visible(False)
    bar = fig.colorbar(mesh, ax=ax, ticks=levels["ticks"], shrink=0.7, pad=0.03)
    bar.outline.set_visible(False)
    bar.ax.set_yticklabels([fmt(v, "g") for v in levels["ticks"]])
    return fig


@lesson.figure(
    caption="位置 pos 与 pos + k 的编码点积，$d = {{ pe_d }}$。从三个不同的起点 pos 出发画的三条线完全重合，"
            "都落在 $\\sum_i \\cos(k\\,\\omega_i)$ 上：点积只取决于相隔多远 $k$，和从哪里出发无关。",
    alt="折线图，横轴是相隔的位置数 k 从 0 到 {{ pe_dot.max_k }}，纵轴是点积。三条从不同起点算出的曲线和一条公式曲线完全重合："
        "k = 0 时等于 {{ pe_dot.self:g }}，随后先快速下降，再在较低的水平上起伏。")  # literal: 0
def pe_offset(plt, pe_dot):
    k = np.array(pe_dot["offsets"])
    fig, ax = plt.subplots(figsize=(6.2, 2.8))
    styles = [(BLUE, "-", 4.5), (ORANGE, "--", 3.0), (GREEN, ":", 2.0)]
    for (pos, curve), (color, ls, lw) in zip(pe_dot["curves"].items(), styles):
        ax.plot(k, curve, color=color, linestyle=ls, linewidth=lw, label=f"从 pos = {pos} 出发")
    ax.plot(k, pe_dot["formula"], linestyle="none", marker="o", markersize=3, color=GREY,
            label="公式 $\\sum_i \\cos(k\\omega_i)$")
    ax.axhline(0, color=GREY, linewidth=0.6)
    ax.set(xlabel="相隔的位置数 k", ylabel="PE(pos) · PE(pos + k)", xlim=(0, k[-1]))
    ax.legend(fontsize=8, loc="lower left")
    return fig


@lesson.figure(
    caption="RoPE 把查询 $q$ 和键 $k$ 按各自的位置转一个角度（这里画一对维度，每个位置转 "
            "$\\theta = {{ rope_pair.theta_deg:.1f }}°$）。左、中：$(m, n) = $ {{ rope_pair.case_text.0 }} 和 {{ rope_pair.case_text.1 }}，两支箭头都转了，"
            "但夹角一样，点积也一样。右：{{ rope_d }} 维 RoPE 下 $q_m \\cdot k_n$ 的全表，"
            "每条左上—右下的斜线上数值相同。",
    alt="三幅图。左图和中图是平面上的两支箭头：橙色查询 q 和蓝色键 k。左图 q 在第 {{ rope_pair.cases.0.0 }} 位、"
        "k 在第 {{ rope_pair.cases.0.1 }} 位；中图 q 在第 {{ rope_pair.cases.1.0 }} 位、k 在第 {{ rope_pair.cases.1.1 }} 位，"
        "两支箭头都多转了一些，但它们之间的夹角和左图相同。"
        "右图是 {{ rope_check.positions }} 乘 {{ rope_check.positions }} 的数字表，行是查询位置 m，列是键位置 n，同一条对角斜线上的数字完全相同。")
def rope_rotation(plt, rope_pair, rope_check, rope_d):
    from matplotlib.colors import Normalize

    theta, q, k = rope_pair["theta"], np.array(rope_pair["q"]), np.array(rope_pair["k"])
    fig, axs = plt.subplots(1, 3, figsize=(7.6, 3.0), gridspec_kw={"width_ratios": [1, 1, 1.15]})
    for ax in axs:
        ax.set_anchor("N")      # tops aligned: the page lays the panels out left to right, in the caption's order
    for ax, (m, n) in zip(axs[:2], rope_pair["cases"]):
        qm, kn = rotate2(q, m * theta), rotate2(k, n * theta)
        ax.add_patch(plt_circle(ax))
        for v, color, label in ((qm, ORANGE, f"q 在第 {m} 位"), (kn, BLUE, f"k 在第 {n} 位")):
            ax.annotate("", xy=v, xytext=(0, 0),
                        arrowprops={"arrowstyle": "-|>", "color": color, "linewidth": 1.8})
            ax.text(v[0] * 1.08, v[1] * 1.08 + 0.06, label, color=color, fontsize=9.5,
                    ha="left" if v[0] >= 0.2 else ("right" if v[0] < -0.2 else "center"), va="bottom")
        a0, a1 = sorted([np.degrees(np.arctan2(qm[1], qm[0])), np.degrees(np.arctan2(kn[1], kn[0]))])
        ax.add_patch(plt_arc(a0, a1))              # a mark for the angle, not data: a patch, not a plotted line
        ax.text(0, -0.08, f"夹角 {fmt(np.degrees(np.arccos(qm @ kn)), '.1f')}°", fontsize=8.5, color=GREY,
                ha="center", va="top")
        ax.set_title(f"m = {m}，n = {n}\nq·k = {fmt(qm @ kn)}", fontsize=10)
        ax.set(xlim=(-1.3, 1.3), ylim=(-0.3, 1.45), aspect="equal", xticks=[], yticks=[])
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.axhline(0, color="#cccccc", linewidth=0.6, zorder=0)
        ax.axvline(0, color="#cccccc", linewidth=0.6, zorder=0)
    grid = np.array(rope_check["grid"])
    ax = axs[2]
    lim = np.abs(grid).max()
    # pale colours (the map's middle 5/8) keep the numbers on the cells readable
    heatmap(ax, grid, plt_colormap("PuOr_r"), Normalize(-1.6 * lim, 1.6 * lim))
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            ax.text(j + 0.5, i + 0.5, f"{grid[i, j]:.1f}".replace("-", "−"), ha="center", va="center", fontsize=7.5)
    ax.set(xlim=(0, grid.shape[1]), ylim=(grid.shape[0], 0))
    ax.set_xticks(np.arange(8) + 0.5, [str(v) for v in range(8)], fontsize=8)
    ax.set_yticks(np.arange(8) + 0.5, [str(v) for v in range(8)], fontsize=8)
    ax.tick_params(length=0)
    ax.xaxis.tick_top()
    ax.set_aspect("equal")
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("键的位置 n", fontsize=9)
    ax.set_ylabel("查询的位置 m", fontsize=9)
    ax.set_title(f"{rope_d} 维 RoPE：$q_m \\cdot k_n$", fontsize=10)
    return fig


def heatmap(ax, matrix, cmap, norm):
    """A matrix as coloured squares, row 0 at the top, white gaps between them (the page's background in dark mode):
    a colour mesh, so the figure's data table is the matrix itself. Unclipped: no clip-path in the SVG."""
    ax.pcolormesh(matrix, cmap=cmap, norm=norm, edgecolors="#ffffff", linewidth=1.5, clip_on=False)


def plt_colormap(name):
    from matplotlib import colormaps

    return colormaps[name]


def plt_arc(a0, a1):
    """The arc marking the angle between the two arrows, from a0° to a1°, radius 0.35."""
    from matplotlib.patches import Arc

    return Arc((0, 0), 0.7, 0.7, theta1=a0, theta2=a1, color=GREY, linewidth=1)


def plt_circle(ax):
    """The unit circle the 2-D vectors turn on (a patch, so no pyplot state is needed)."""
    from matplotlib.patches import Circle

    return Circle((0, 0), 1.0, fill=False, edgecolor="#bbbbbb", linewidth=0.8, linestyle="--")


@lesson.figure(
    caption="ALiBi 不给词加任何位置向量，只在注意力分数上减去「斜率 × 距离」。左：第 1 个头（斜率 "
            "{{ alibi.first:g }}）的偏置表，行是查询 $i$，列是键 $j$，右上角被因果掩码遮住。"
            "右：{{ alibi.heads }} 个头的斜率从 {{ alibi.first:g }} 到 1/{{ alibi.inverse.7:g }}，"
            "有的头只看近处，有的头几乎一视同仁。",
    alt="两幅图。左图是 {{ alibi.n }} 乘 {{ alibi.n }} 的下三角数字表：对角线是 0，每往左一格减 {{ alibi.first:g }}，"  # literal: 0
        "最后一行是 {{ alibi.row_last:g }}；右上三角标着遮住。右图是 {{ alibi.heads }} 条从 0 出发向下的直线，"  # literal: 0
        "横轴是距离 i − j，纵轴是加到分数上的偏置，斜率从 {{ alibi.first:g }} 到 {{ alibi.last }} 依次变缓。")
def alibi_bias(plt, alibi):
    from matplotlib.colors import LinearSegmentedColormap, Normalize

    bias = np.array(alibi["bias"])
    n = alibi["n"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.4, 3.0), gridspec_kw={"width_ratios": [1, 1.25]})
    cmap = LinearSegmentedColormap.from_list("alibi", ["#b2182b", "#fddbc7", "#ffffff"], N=8).with_extremes(
        bad="#eeeeee")                             # the masked cells: no score, no bias
    shown = np.where(np.tril(np.ones((n, n), dtype=bool)), bias, np.nan)
    heatmap(left, np.ma.masked_invalid(shown), cmap, Normalize(bias.min(), 0))
    for i in range(n):
        for j in range(n):
            text = fmt(bias[i, j], "g") if j <= i else "×"
            left.text(j + 0.5, i + 0.5, text, ha="center", va="center", fontsize=9,
                      color=("#ffffff" if bias[i, j] <= 0.7 * bias.min() else "#222222") if j <= i else "#aaaaaa")
    left.set_ylim(n, 0)
    left.set_xlim(0, n)
    left.set_xticks(np.arange(n) + 0.5, [str(v) for v in range(n)], fontsize=8)
    left.set_yticks(np.arange(n) + 0.5, [str(v) for v in range(n)], fontsize=8)
    left.tick_params(length=0)
    left.xaxis.tick_top()
    left.set_aspect("equal")
    for spine in left.spines.values():
        spine.set_visible(False)
    left.set_xlabel("键 j", fontsize=8.5)
    left.set_ylabel("查询 i", fontsize=8.5)
    left.set_title(f"第 1 个头：偏置 = −{fmt(alibi['first'], 'g')} × (i − j)", fontsize=9)

    dist = np.arange(0, 17)
    colors = [VERMILION, ORANGE, PURPLE, SKY, BLUE, GREEN, GREY, "#000000"]
    for h, (slope, inv, color) in enumerate(zip(alibi["slopes"], alibi["inverse"], colors)):
        right.plot(dist, -slope * dist, color=color, linewidth=1.5, linestyle="-" if h % 2 == 0 else "--",
                   label=f"第 {h + 1} 个头（斜率 1/{inv:g}）")           # names the column in the figure's data
        if h in (0, 1, 2, 7):
            right.annotate(f"1/{inv:g}", xy=(dist[-1], -slope * dist[-1]), xytext=(3, 0),
                           textcoords="offset points", va="center", fontsize=9, color=color)
    right.set(xlabel="距离 i − j", ylabel="加到分数上的偏置", xlim=(0, dist[-1]))
    right.set_title(f"{alibi['heads']} 个头的斜率（几何级数）", fontsize=9)
    return fig


# ---------------------------------------------------------------- widgets

@lesson.widget(kind="mask_table")
def cat_mask(sentences):
    words = sentences["a"]
    n = len(words)
    return {"rows": words, "cols": words, "context": "「" + "".join(words) + "」",
            "initial_mode": "decoder",
            "modes": [{"key": "encoder", "label": "双向", "visible": np.ones((n, n), dtype=bool).tolist()},
                      {"key": "decoder", "label": "因果", "visible": np.tril(np.ones((n, n), dtype=bool)).tolist()}]}
