"""The notebook to take home: every lesson page links `<slug>.ipynb`, which runs top to bottom in a plain Python
with numpy and matplotlib only (tests/plain_python.py says how that Python is made and why it proves lessonkit is
not there) and recomputes every value and figure of the lesson: the values equal the engine's, exactly, and each
figure plots the same numbers with the same labels. Run over the lessons in content/ (whatever it holds) and the
book fixture (tests/book_lesson.py)."""
from __future__ import annotations

import inspect
import json
import pickle
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from lessonkit.cli import main
from lessonkit.support.paths import SitePaths

import book_lesson
import notebook_runs
import plain_python
from lesson_folders import PROJECT, real_lessons

LESSONS = [*real_lessons(), book_lesson.SLUG]


def plain(value):
    """A value as plain, comparable data (runs in the plain Python too: numpy only)."""
    import dataclasses

    import numpy

    if isinstance(value, numpy.ndarray):
        return ("ndarray", value.dtype.str, value.shape, plain(value.tolist()))
    if isinstance(value, numpy.generic):
        return ("numpy", type(value).__name__, value.item())
    if isinstance(value, dict):
        return ("dict", [(plain(k), plain(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(v) for v in value])
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return ("dataclass", type(value).__name__, plain(dataclasses.asdict(value)))
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return value
    return ("object", repr(value))


def figure_facts(fig) -> list:
    """What a figure shows, axes by axes: texts, plotted lines, bars and patches, colour meshes and scatters."""
    import numpy

    def array(a):
        return None if a is None else numpy.ma.filled(numpy.ma.asarray(a, dtype=float), numpy.nan).tolist()

    facts = []
    for ax in fig.axes:
        facts.append({
            "title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
            "xticks": [t.get_text() for t in ax.get_xticklabels()],
            "lines": [array(line.get_xydata()) for line in ax.get_lines()],
            "patches": [(type(p).__name__, list(p.get_xy()) + [p.get_width(), p.get_height()])
                        if hasattr(p, "get_width") and hasattr(p, "get_xy") else type(p).__name__
                        for p in ax.patches],
            "collections": [(type(c).__name__, array(c.get_array()), array(c.get_offsets())) for c in ax.collections],
            "texts": [t.get_text() for t in ax.texts],
        })
    return facts


HARNESS_HEAD = """\
import importlib.util, sys
assert importlib.util.find_spec("lessonkit") is None, "lessonkit is importable: " + repr(sys.path)
"""
HARNESS_TAIL = """
import pickle
{plain}
{figure_facts}
result = {{"values": {{name: plain(lesson.get(name)) for name in lesson.values}},
          "figures": {{name: figure_facts(lesson.draw(name)) for name in lesson.figures}},
          "modules": sorted({{name.split(".")[0] for name, module in list(sys.modules.items())
                              if "site-packages" in (getattr(module, "__file__", None) or "")}}),
          "elsewhere": sorted({{module.__file__ for name, module in list(sys.modules.items())
                                if name != "__main__" and getattr(module, "__file__", None)
                                and not module.__file__.startswith((sys.prefix, sys.base_prefix))}})}}
with open({out!r}, "wb") as f:
    pickle.dump(result, f)
"""


@dataclass(frozen=True)
class Built:
    content: Path   # the course folder the lesson was read from
    out: Path       # the site it was built into


@pytest.fixture(scope="module")
def built(real_site, fixture_course) -> dict[str, Built]:
    """Where each lesson of LESSONS was built: the lessons of content/ in the real site, the book fixture in the
    fixture course (tests/conftest.py: both built once per run)."""
    real = Built(PROJECT / "content", real_site)
    return {**{slug: real for slug in real_lessons()},
            book_lesson.SLUG: Built(fixture_course / "content", fixture_course / "out")}


@pytest.fixture(scope="module")
def book_site(built) -> Path:
    return built[book_lesson.SLUG].out


@pytest.fixture(scope="module")
def python(tmp_path_factory) -> Path:
    return notebook_runs.plain_python_for_run(tmp_path_factory)


@pytest.fixture(scope="module")
def engine(built):
    """Each lesson as the engine computed it (values) and drew it (the figures' facts)."""
    import matplotlib

    from lessonkit.compute.run import compute_lesson
    from lessonkit.draw.figures import FigureMaker, find_cjk_font, style
    from lessonkit.load.lessons import read_lesson

    found = {}
    for slug in LESSONS:
        problems = []
        lesson = compute_lesson(read_lesson(built[slug].content / slug), problems)
        assert problems == []
        with matplotlib.rc_context(style(find_cjk_font())):
            figures = {job.name: figure_facts(job.func(FigureMaker(), *job.args)) for job in lesson.figure_jobs
                       if "--" not in job.name}
        found[slug] = {"values": {n: plain(v) for n, v in lesson.values.items()}, "figures": figures}
    return found


def run_notebook(python: Path, notebook: Path, tmp_path: Path) -> dict:
    """Every code cell of the notebook, top to bottom, as one script in the plain Python; what it computed."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    code = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    out = tmp_path / "result.pickle"
    script = tmp_path / "notebook.py"
    script.write_text(HARNESS_HEAD + code + HARNESS_TAIL.format(
        plain=textwrap.dedent(inspect.getsource(plain)), figure_facts=textwrap.dedent(inspect.getsource(figure_facts)),
        out=str(out)), encoding="utf-8")
    run = subprocess.run([str(python), "-I", str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=600,
                         env={"MPLBACKEND": "Agg", "HOME": str(Path.home()), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-4000:]
    assert "Glyph" not in run.stderr and "missing from" not in run.stderr, run.stderr[-2000:]
    with open(out, "rb") as f:
        return pickle.load(f)


@pytest.mark.parametrize("slug", LESSONS)
def test_the_notebook_recomputes_every_value_and_figure_without_lessonkit(slug, built, python, engine, tmp_path):
    site = built[slug].out
    page = (site / SitePaths.lesson(slug)).read_text(encoding="utf-8")
    link = re.search(r'<a class="notebook-link" href="([^"]+)" download>', page)
    assert link and (site / SitePaths.lesson(slug)).parent.joinpath(link.group(1)).resolve() \
        == (site / SitePaths.notebook(slug)).resolve()
    result = run_notebook(python, site / SitePaths.notebook(slug), tmp_path)
    assert set(result["modules"]) <= plain_python.importable_tops(), result["modules"]
    assert result["elsewhere"] == []  # nothing from the project, nor from anywhere but Python and the plain venv
    assert {"numpy", "matplotlib"} <= set(result["modules"])
    expected = engine[slug]
    assert result["values"].keys() == expected["values"].keys()
    for name in expected["values"]:
        assert same(result["values"][name], expected["values"][name]), name
    assert result["figures"].keys() == expected["figures"].keys()
    for name in expected["figures"]:
        assert same(result["figures"][name], expected["figures"][name]), name


def same(a, b) -> bool:
    """Equal, with NaN equal to NaN (masked cells of a heatmap)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (np.isnan(a) and np.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def test_a_lessonkit_import_would_fail_in_the_plain_python(python, tmp_path):
    """The isolation the test above relies on: the plain Python finds numpy and matplotlib, not lessonkit."""
    probe = tmp_path / "probe.py"
    probe.write_text("import numpy, matplotlib\nimport lessonkit\n", encoding="utf-8")
    run = subprocess.run([str(python), "-I", str(probe)], capture_output=True, text=True, cwd=PROJECT, timeout=120)
    assert run.returncode == 1 and "No module named 'lessonkit'" in run.stderr, run.stderr
    assert subprocess.run([sys.executable, "-c", "import lessonkit"], cwd=PROJECT).returncode == 0  # it exists here


def test_the_notebook_reads_like_the_page(book_site):
    """Prose as Markdown cells: sections numbered as on the page, values formatted as on the page, figures drawn
    where the page places them with the page's numbers and captions, citations with the page's numbers, the
    answers and the bibliography; the teacher's notes stay out."""
    notebook = json.loads((book_site / SitePaths.notebook(book_lesson.SLUG)).read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4 and notebook["metadata"]["kernelspec"]["name"] == "python3"
    cells = [(c["cell_type"], "".join(c["source"])) for c in notebook["cells"]]
    markdown = "\n".join(text for kind, text in cells if kind == "markdown")
    assert "# 测试用的小课（书的写法）" in markdown
    assert "## 1 权重从哪里来" in markdown and "## 2 三篇一起" in markdown
    assert "核回归最早由两篇论文同时提出\\[1, 2\\]" in markdown
    assert "三篇放在一起引用\\[1–3\\]，再引一次第一篇\\[1\\]，还有注意力\\[5\\]" in markdown
    assert "它有 3 个数：`width = 3`，而 `{{ width }}` 原样保留。" in markdown
    assert "weights = [0.250, 0.500, 0.250]   # 从 lesson.py 算出" in markdown
    assert 'literal = "{{ kernel }}"' in markdown
    assert "**图 1** 三个权重" in markdown and "**图 2** 答案里的图：权重之和 1.00" in markdown
    assert "\\[3, 第 10.2 节\\]" in markdown
    assert "权重之和写成 式 (1)，逐项展开" in markdown and "\\end{aligned} \\tag{1}\n$$" in markdown  # as numbered
    assert "{#eq:" not in markdown and "**framework**" not in markdown   # no label, no tab group's name
    assert "**NumPy**\n\n`np.sum(w)`\n\n**PyTorch**\n\n`torch.sum(w)`" in markdown     # every tab, labelled
    assert "- \\[4\\] 李航. 统计学习方法\\[M\\]. 北京: 清华大学出版社, 2019." in markdown
    draws = [text for kind, text in cells if kind == "code" and text.startswith("lesson.draw(")]
    assert draws == ["lesson.draw('weights_plot')", "lesson.draw('answer_bars')"]
    # the figures are drawn after the sections that place them, in the page's order
    order = [text for _, text in cells]
    assert order.index("lesson.draw('answer_bars')") > next(i for i, t in enumerate(order) if "### 挑战 1" in t)
    setup = [c for c in notebook["cells"] if c["metadata"].get("jupyter", {}).get("source_hidden")]
    assert len(setup) == 1 and "def format_value" in "".join(setup[0]["source"])
    assert "from lessonkit" not in "\n".join(text for kind, text in cells if kind == "code")


def test_the_notebook_is_valid_nbformat_as_nbformat_writes_it(built):
    """The engine writes the JSON itself (importing nbformat costs a build 0.1 s): nbformat's own validator accepts
    it, and nbformat's writer gives back the same bytes (its layout: sorted keys, one-space indents, lines as lists)."""
    nbformat = pytest.importorskip("nbformat")
    for path in sorted(built[slug].out / SitePaths.notebook(slug) for slug in LESSONS):
        text = path.read_text(encoding="utf-8")
        notebook = nbformat.reads(text, as_version=4)
        nbformat.validate(notebook)
        assert nbformat.writes(notebook) + "\n" == text, path.name


def test_the_same_lesson_gives_the_same_notebook_bytes(book_site, fixture_course, tmp_path):
    """Cell ids are numbered, not random: a rebuild (from the cache, or afresh) writes the same file."""
    content = fixture_course / "content"
    again = tmp_path / "again"
    assert main(["build", "--quiet", "--no-cache", "--lesson", book_lesson.SLUG, "--content", str(content),
                 "--out", str(again)]) == 0
    path = SitePaths.notebook(book_lesson.SLUG)
    assert (again / path).read_bytes() == (book_site / path).read_bytes()


def jupyter_heading_ids(markdown_cells: list[str]) -> list[str]:
    """The ids Jupyter gives the headings of Markdown cells, found independently of the engine: each cell rendered
    by mistune (nbconvert's Markdown renderer), each heading's text content with spaces as `-` (JupyterLab's
    renderMarkdown.createHeaderId, nbconvert's _convert_header_id)."""
    import html as html_module

    import mistune

    ids = []
    for cell in markdown_cells:
        rendered = mistune.html(cell)
        for m in re.finditer(r"<h[1-6]>(.*?)</h[1-6]>", rendered, re.S):
            text = html_module.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
            ids.append(text.replace(" ", "-"))
    return ids


def test_headings_keep_no_attribute_and_links_to_them_lead_there(make_lesson, tmp_path):
    """`### 小标题 {#id}` shows without its `{#id}`, and a `[…](#id)` to a section or a heading leads to the heading
    in Jupyter, which gives headings ids of its own (their text) and keeps none of the author's."""
    make_lesson(md="""\
        ## 从哪里来 {#origin}

        先看 [后面的小标题](#deep)，再回到 [本节开头](#origin)。

        ### 再深 **一** 层 {#deep}

        {{ two_pow }} 个数。外面的链接 [别处](https://example.org/#deep) 不变。

        ## 第二节 {#second}

        #### 又一个小标题 {: #more }

        回到 [第二节](#second)，看 [又一个](#more)，[不存在的](#nowhere) 原样。
        """)
    assert main(["build", "--quiet", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    notebook = json.loads((tmp_path / "out" / SitePaths.notebook("demo")).read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"]
    text = "\n".join(cells)
    assert "{#" not in text and "{:" not in text
    assert "### 再深 **一** 层\n" in text and "#### 又一个小标题\n" in text
    # written by hand: the headings as Jupyter shows them, spaces as -
    assert "[后面的小标题](#再深-一-层)" in text and "[本节开头](#1-从哪里来)" in text
    assert "[第二节](#2-第二节)" in text and "[又一个](#又一个小标题)" in text
    assert "[不存在的](#nowhere)" in text and "(https://example.org/#deep)" in text
    ids = jupyter_heading_ids(cells)
    targets = re.findall(r"\]\(#([^)]+)\)", text)
    assert set(targets) - set(ids) == {"nowhere"}, (targets, ids)
