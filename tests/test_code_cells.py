"""`{{< code … >}}` of a lesson written as cells (features/code.py): a cell's source and what it showed, as Jupyter
shows it — what it printed, then its last line's value (not after a `;`), or the figure it drew; `echo=false` and
`output=false` (the cell's or the directive's) hide either; several functions in one listing."""
import html
import re

PY = '''\
# %% setup
xs = [10.0]


def f(x):
    return x * x


def f_grad(x):
    return 2 * x


# %% descent
for _ in range(10):
    xs.append(xs[-1] - 0.2 * f_grad(xs[-1]))
print(f"epoch 10, x: {xs[-1]:f}")
len(xs)

# %% quiet echo=false
print("只有输出")
xs[0];

# %% figure: trace caption="x 一步步走向原点" alt="十一个点往下走"
import matplotlib.pyplot as plt
plt.plot(xs)
'''
MD = """\
## 下降 {#descent}

{{< code f f_grad >}}

{{< code descent >}}

{{< code quiet >}}

{{< code setup output=false >}}

{{< code trace >}}
"""


def listing(page: str, cid: str) -> str:
    """The listing's <div>, to its own closing tag."""
    start = page.index(f'<div class="code-listing" id="{cid}"')
    depth = 0
    for m in re.finditer(r"<(/?)div\b[^>]*>", page[start:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return page[start:start + m.end()]
    raise AssertionError(cid)


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_cells_are_shown_as_jupyter_shows_them(make_lesson, run_build):
    make_lesson(md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    # x ← x − 0.2·2x = 0.6x, ten times: 10 · 0.6¹⁰ = 0.060466176
    descent = listing(page, "code-descent")
    assert "lesson.py 第 14–17 行" in text(descent)
    source = text(re.search(r'<pre class="highlight".*?</pre>', descent, re.S).group(0))
    assert source.splitlines()[0] == "for _ in range(10):" and source.splitlines()[-1] == "len(xs)"
    assert text(re.search(r"<samp>.*?</samp>", descent, re.S).group(0)) == "epoch 10, x: 0.060466\n11"
    quiet = listing(page, "code-quiet")                       # echo=false: no source; `;`: no value after it
    assert '<pre class="highlight"' not in quiet and text(re.search(r"<samp>.*?</samp>", quiet).group(0)) == "只有输出"
    setup = listing(page, "code-setup")                      # output=false: the source alone
    assert "code-output" not in setup and "xs = [10.0]" in text(setup)
    trace = listing(page, "code-trace")                      # a figure cell: its source, then its figure
    assert "plt.plot(xs)" in text(trace) and '<figure id="fig-trace"' in trace and "图 1" in text(trace)


def test_several_functions_are_one_listing(make_lesson, run_build):
    make_lesson(md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    both = listing((out / "demo" / "index.html").read_text(encoding="utf-8"), "code-f")
    assert "f, f_grad · lesson.py 第 5–10 行" in text(both) and "code-output" not in both
    source = text(re.search(r'<pre class="highlight".*?</pre>', both, re.S).group(0))
    assert source == "def f(x):\n    return x * x\n\n\ndef f_grad(x):\n    return 2 * x"


def test_a_cell_listed_with_others_or_unknown_is_an_error(make_lesson, run_build):
    make_lesson(md=MD.replace("{{< code quiet >}}", "{{< code quiet f >}}\n\n{{< code desent >}}"), py=PY)
    code, _, err, out = run_build()
    assert code == 1 and not out.exists()
    assert "lesson.md:7: `quiet` is a cell: a listing shows one cell, or functions" in err
    assert "lesson.md:9: unknown function `desent` in lesson.py; did you mean `descent`?" in err, err


def test_a_figure_cell_whose_header_hides_its_output_is_placed_as_a_figure(make_lesson, run_build):
    py = PY.replace('# %% figure: trace caption', '# %% figure: trace output=false caption')
    make_lesson(md=MD, py=py)                                # its listing shows the code alone: the figure is unplaced
    code, _, err, out = run_build()
    assert code == 1 and "figure `trace` is defined in lesson.py but never placed" in err, err
    make_lesson(md=MD.replace("{{< code trace >}}", "{{< code trace output=true >}}"), py=py)
    code, _, err, out = run_build()
    assert code == 1 and "lesson.md:11: `{{< code trace >}}` shows figure cell `trace`, whose header says " \
                         "`output=false`" in err, err
    make_lesson(md=MD.replace("{{< code trace >}}", "{{< code trace >}}\n\n{{< figure trace >}}"), py=py)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert page.count('<figure id="fig-trace"') == 1 and "code-output" not in listing(page, "code-trace")


def test_a_value_shown_before_the_cell_that_changes_it_is_met_is_a_warning(make_lesson, run_build):
    """`xs` is set by `setup` and changed by `descent`: the text shows its value once every cell ran, which between
    the two listings is not the value the reader has seen computed."""
    md = ("## 下降 {#descent}\n\n{{< code setup output=false >}}\n\n一开始 x 是 {{ xs[-1]:g }}。\n\n"
          "{{< code descent >}}\n\n最后是 {{ xs[-1]:.4f }}，一共 {{ len(xs) }} 个点。\n\n{{< code trace >}}\n")
    make_lesson(md=md, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    assert [line.strip() for line in err.splitlines()[1:]] == [
        "content/demo/lesson.md:5: `xs` is shown with the value cell `descent` gives it at line 7, further down; "
        "here the reader has seen it computed as it was before (expected a name of its own for each value the text "
        "shows, or the sentence after that cell)"]
    assert "一开始 x 是 0.0604662。" in (out / "demo" / "index.html").read_text(encoding="utf-8")  # (what it warns of)
    make_lesson(md=md.replace("一开始 x 是 {{ xs[-1]:g }}。", "一开始 x 是 {{ start:g }}。"),
                py=PY.replace("xs = [10.0]\n", "xs = [10.0]\nstart = xs[0]\n"))
    code, _, err, _ = run_build("--strict")
    assert code == 0, err
