#!/usr/bin/env python3
"""Build-speed benchmark: lessonkit against MkDocs, Hugo and Jupyter Book on the same lesson text.

    .venv/bin/python benchmarks/bench.py            # ≈ 5–10 minutes; writes BENCHMARKS.md

Every scenario runs --runs times (default 5), interleaved round-robin so that load from other programs hits all of
them alike; the table shows medians. Scenarios:
  a  lessonkit cold build (--no-cache: every value computed, every figure drawn, every template compiled)
  b  lessonkit warm rebuild, nothing changed
  c  lessonkit rebuild after editing one paragraph of lesson.md (in a temporary copy of the content)
  b2 lessonkit warm rebuild of the whole site (every lesson, index, glossary), nothing changed
  c2 the whole site after editing one paragraph of one lesson
  c3 a lesson written as cells whose first cell takes 2 s (a data set loaded, a model trained), after editing one
     paragraph of its lesson.md: its run is kept (CELL_RUNS), so no cell runs
  d  the floor: python -c "import jinja2, markdown_it, yaml, numpy"
  e  MkDocs 1.6 on the same Markdown, the figures as ready SVG files
  f  a plain matplotlib script drawing the same figures, then MkDocs
  g  Hugo (Debian package) on the same Markdown, the figures as ready files
  h  Jupyter Book 1 building the lesson as a notebook that draws the figures
  i  lessonkit `build.py slides` on a warm cache (the lesson's slides PDF and PPTX; nothing drawn; --no-slides skips)
and the growth of cold and warm builds with the number of lessons in a generated course (--scale 1,10,50).

Peers live in their own venv, .cache/bench-venv (pip install mkdocs "jupyter-book<2" numpy matplotlib, made on the
first run); Hugo comes from apt (installed when running as root, else `sudo apt-get install hugo` beforehand).
A peer that cannot be installed is skipped with a note in the table. Child processes run with Python's bytecode
cache on (PYTHONDONTWRITEBYTECODE removed), as in a normal installation.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LESSON = "transformer-stability"
BENCH_VENV = ROOT / ".cache" / "bench-venv"
PEER_PACKAGES = ["mkdocs>=1.6,<1.7", "jupyter-book<2", "numpy", "matplotlib"]
TARGETS = [("b", "d", 1.2), ("c", "d", 1.3), ("b2", "d", 1.2), ("c2", "d", 1.3), ("c3", "d", 1.3),
           ("a", "f", 0.8)]  # x ≤ r × y
SLOW_CELLS = """\
# %% load
import time
import numpy as np

start = time.perf_counter()
while time.perf_counter() - start < 2.0:   # a cell that takes 2 s
    pass
xs = np.linspace(0, 1, 50)

# %% fit
slope = float(np.polyfit(xs, 2 * xs + 1, 1)[0])
print(f"slope {slope:.3f}")

# %% figure: line caption="一条线" alt="一条上升的直线"
import matplotlib.pyplot as plt
plt.plot(xs, 2 * xs + 1)
plt.xlabel("x")
"""
SLOW_MD = "## 拟合 {#fit}\n\n斜率是 {{ slope:.2f }}。\n\n{{< code fit >}}\n\n{{< figure line >}}\n"


@dataclass
class Scenario:
    key: str
    label: str
    commands: list[list[str]]
    prepare: Callable[[int], None] | None = None  # untimed, before run i
    times: list[float] = field(default_factory=list)
    note: str = ""

    def run(self, i: int, env: dict) -> None:
        if self.prepare:
            self.prepare(i)
        started = time.perf_counter()
        for command in self.commands:
            done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{self.key}: {' '.join(command)} failed:\n{done.stderr[-3000:]}")
        self.times.append(time.perf_counter() - started)

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5, help="runs per scenario; the table shows medians (default 5)")
    p.add_argument("--scale", default="1,10,50", help="course sizes (number of lessons) for the growth table")
    p.add_argument("--no-peers", action="store_true", help="skip MkDocs, Hugo and Jupyter Book (no installs)")
    p.add_argument("--no-slides", action="store_true", help="skip (i), the slides (needs Chromium and python-pptx)")
    p.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md", help="report file (default BENCHMARKS.md)")
    p.add_argument("--warm-from", type=Path, help="a figure cache the warm scenarios' and the preview's caches start "
                   "as a copy of, instead of being filled by untimed cold builds (the tests pass theirs)")
    p.add_argument("--keep", action="store_true", help="keep the temporary work folder (to look at the peers' sites)")
    args = p.parse_args()

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONHASHSEED"] = "0"
    work = Path(tempfile.mkdtemp(prefix="lessonkit-bench-"))
    try:
        peers = {} if args.no_peers else install_peers()
        print(f"work folder {work}", flush=True)
        scenarios = lesson_scenarios(work, peers, env, args.warm_from)
        scenarios.append(slides_scenario(work, env, "skipped: --no-slides" if args.no_slides else ""))
        load_before = os.getloadavg()
        for i in range(args.runs):
            for s in scenarios:
                if not s.note:
                    s.run(i, env)
            print(f"run {i + 1}/{args.runs}: " + "  ".join(f"{s.key} {s.times[-1]:.2f}s" for s in scenarios
                                                         if s.times), flush=True)
        scale = scale_table(work, [int(n) for n in args.scale.split(",") if n], args.runs, env)
        preview = preview_table(work, [n for n, *_ in scale], args.runs, args.warm_from)
        load_after = os.getloadavg()
        report = render_report(scenarios, scale, machine(peers), args.runs, load_before, load_after, preview)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(report)
    # the sections other benchmarks fill (search_bench.py, paint_bench.py) follow OTHERS in the file: kept as they are
    previous = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    kept = previous[previous.index(OTHERS):] if OTHERS in previous else ""
    args.out.write_text(report.rstrip("\n") + "\n\n" + kept if kept else report, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


# ── peers ───────────────────────────────────────────────────────────────────────────────────────────────────────────
def install_peers() -> dict[str, str]:
    """name → executable, or name → "skipped: why"."""
    peers: dict[str, str] = {}
    bin_dir = BENCH_VENV / "bin"
    if not (bin_dir / "mkdocs").exists() or not (bin_dir / "jupyter-book").exists():
        print(f"installing {', '.join(PEER_PACKAGES)} into {BENCH_VENV} …", flush=True)
        try:
            if not (bin_dir / "python").exists():
                subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
            subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", *PEER_PACKAGES], check=True)
        except subprocess.CalledProcessError as exc:
            print(f"  pip failed: {exc}", flush=True)
    for name, exe in (("mkdocs", "mkdocs"), ("jupyter-book", "jupyter-book")):
        path = bin_dir / exe
        peers[name] = str(path) if path.exists() else f"skipped: `pip install {name}` failed"
    peers["hugo"] = shutil.which("hugo") or _apt_install_hugo()
    return peers


def _apt_install_hugo() -> str:
    if not shutil.which("apt-get"):
        return "skipped: hugo not installed and no apt-get"
    if os.geteuid() != 0:
        return "skipped: hugo not installed (run `sudo apt-get install --no-install-recommends hugo` first)"
    print("installing hugo with apt-get …", flush=True)
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "hugo"]
    if subprocess.run(install, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], capture_output=True)
        subprocess.run(install, capture_output=True)
    return shutil.which("hugo") or "skipped: `apt-get install hugo` failed"


def _version(command: list[str]) -> str:
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return re.sub(r" from /\S+", "", out.splitlines()[0]) if out else "?"  # no local paths in the report


# ── the lesson as plain Markdown for the peers ─────────────────────────────────────────────────────────────────────
def lesson_markdown(content: Path, image_dir: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    """(Markdown of the whole lesson with computed values filled in, figure names in order, [(kind, text)] blocks
    where kind is "md" or a figure name) — the same text lessonkit renders, minus its widgets."""
    import yaml

    from lessonkit.compute.registry import load_lesson_module
    from lessonkit.compute.run import compute_values
    from lessonkit.support.values import filled

    folder = content / LESSON
    meta = yaml.safe_load((folder / "lesson.yaml").read_text(encoding="utf-8"))
    registry = load_lesson_module(folder / "lesson.py")
    values = compute_values(registry, folder / "lesson.py")
    order = re.findall(r"^\{\{<\s*figure\s+([\w-]+)\s*>\}\}", (folder / "lesson.md").read_text(encoding="utf-8"), re.M)

    def fill(text: str) -> str:
        text = re.sub(r"@fig:([\w-]*\w)", lambda m: f"图 {order.index(m.group(1)) + 1}", text)
        shown, misses = filled(text, values)
        assert not misses, misses
        return shown

    head = [f"# {meta['title']}", meta["summary"], "## 实验目标", *[f"- {o}" for o in meta["objectives"]],
            "## 课堂问题", meta.get("question", ""), meta.get("intro", "")]
    blocks: list[tuple[str, str]] = []
    current = ["\n\n".join(fill(h) for h in head)]
    for line in (folder / "lesson.md").read_text(encoding="utf-8").splitlines():
        fig = re.match(r"^\{\{<\s*figure\s+([\w-]+)\s*>\}\}", line)
        if fig:
            blocks.append(("md", "\n".join(current)))
            blocks.append((fig.group(1), registry.figures[fig.group(1)].caption))
            current = []
        elif re.match(r"^\{\{<\s*widget", line):
            continue
        elif line.startswith(":::"):
            title = line[3:].strip().partition(" ")[2]
            current.append(f"**{title}**" if title else "")
        else:
            current.append(fill(line))
    tail = ["## 挑战"] + [f"### {c['title']}\n\n{fill(c['question'])}\n\n{fill(c['answer'])}"
                          for c in meta.get("challenges") or []]
    current += tail
    blocks.append(("md", "\n".join(current)))
    markdown = "\n\n".join(text if kind == "md" else f"![图 {order.index(kind) + 1} {text}]({image_dir}/{kind}.svg)"
                           for kind, text in blocks)
    return markdown, order, blocks


DRAW_HELPERS = """\
import importlib.util, inspect, sys
sys.path.insert(0, {root!r})  # lesson.py says `from lessonkit import Lesson` (the registry only)
import matplotlib.pyplot as plt
plt.rcParams.update({{"font.sans-serif": [{font!r}, "DejaVu Sans"], "svg.fonttype": "none"}})
spec = importlib.util.spec_from_file_location("lesson_code", {lesson_py!r})
module = importlib.util.module_from_spec(spec)
sys.modules["lesson_code"] = module
spec.loader.exec_module(module)
registry, values = module.lesson, {{}}

def value(name):
    if name not in values:
        func = registry.values[name]
        values[name] = func(*[value(arg) for arg in inspect.signature(func).parameters])
    return values[name]

class Plt:  # the `plt` lesson figure functions receive
    @staticmethod
    def subplots(nrows=1, ncols=1, *, figsize=(6.4, 3.0), **kwargs):
        return plt.subplots(nrows, ncols, figsize=figsize, layout="constrained", **kwargs)

def draw(name):
    figure = registry.figures[name]
    return figure.func(Plt, *[value(arg) for arg in figure.inputs])
"""


def draw_script(content: Path, font: str, figures: list[str], target: Path) -> str:
    helpers = DRAW_HELPERS.format(root=str(ROOT), font=font, lesson_py=str(content / LESSON / "lesson.py"))
    return "import matplotlib\nmatplotlib.use('Agg')\n" + helpers + textwrap.dedent(f"""
        for name in {figures!r}:
            fig = draw(name)
            fig.savefig({str(target)!r} + "/" + name + ".svg", format="svg")
            plt.close(fig)
        """)


def notebook(content: Path, font: str, blocks: list[tuple[str, str]]) -> dict:
    helpers = DRAW_HELPERS.format(root=str(ROOT), font=font, lesson_py=str(content / LESSON / "lesson.py"))
    cells = [{"cell_type": "code", "metadata": {"tags": ["remove-input"]}, "execution_count": None, "outputs": [],
              "source": helpers}]
    for kind, text in blocks:
        if kind == "md":
            cells.append({"cell_type": "markdown", "metadata": {}, "source": text})
        else:
            cells.append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                          "source": f"draw({kind!r});  # {text}"})
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                        "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


OTHERS = "<!-- other benchmarks: bench.py keeps what follows -->"


# ── scenarios ───────────────────────────────────────────────────────────────────────────────────────────────────────
def lesson_scenarios(work: Path, peers: dict[str, str], env: dict, warm_from: Path | None = None) -> list[Scenario]:
    py = sys.executable
    content = work / "content"
    content.mkdir()
    for path in (ROOT / "content").iterdir():  # the other lessons too (LESSON links to them), and the course's
        if (path / "lesson.yaml").exists():   # own files (glossary, site.yaml, references.bib)
            shutil.copytree(path, content / path.name)
        elif path.is_file():
            shutil.copy2(path, content / path.name)
    site = [py, str(ROOT / "build.py"), "-q", "--content", str(content)]
    build = site + ["--lesson", LESSON]
    cache = work / "cache"
    if warm_from:
        shutil.copytree(warm_from, cache)
    subprocess.run(build + ["--out", str(work / "out-b"), "--cache-dir", str(cache)], env=env, check=True)
    subprocess.run(site + ["--out", str(work / "out-b2"), "--cache-dir", str(cache)], env=env, check=True)
    font = json.loads((cache / "font.json").read_text(encoding="utf-8"))["family"]
    svgs = ready_figures(work / "out-b" / LESSON / "index.html")
    md_path = content / LESSON / "lesson.md"
    original = md_path.read_text(encoding="utf-8")

    def edit_paragraph(i: int) -> None:
        md_path.write_text(edited_paragraph(original, i), encoding="utf-8")

    def restore(_: int) -> None:
        md_path.write_text(original, encoding="utf-8")

    scenarios = [
        Scenario("a", "lessonkit cold build (--no-cache)", [build + ["--no-cache", "--out", str(work / "out-a")]],
                 prepare=restore),
        Scenario("b", "lessonkit warm rebuild, nothing changed",
                 [build + ["--out", str(work / "out-b"), "--cache-dir", str(cache)]], prepare=restore),
        Scenario("c", "lessonkit rebuild after editing one paragraph",
                 [build + ["--out", str(work / "out-c"), "--cache-dir", str(cache)]], prepare=edit_paragraph),
        Scenario("b2", "lessonkit warm rebuild of the whole site, nothing changed",
                 [site + ["--out", str(work / "out-b2"), "--cache-dir", str(cache)]], prepare=restore),
        Scenario("c2", "the whole site after editing one paragraph",
                 [site + ["--out", str(work / "out-c2"), "--cache-dir", str(cache)]], prepare=edit_paragraph),
        cell_lesson_scenario(work, env),
        Scenario("d", "floor: python -c \"import jinja2, markdown_it, yaml, numpy\"",
                 [[py, "-c", "import jinja2, markdown_it, yaml, numpy"]], prepare=restore),
    ]
    markdown, order, blocks = lesson_markdown(content, "figures")

    mkdocs = peers.get("mkdocs", "skipped: --no-peers")
    for key, label, draws in (("e", "MkDocs 1.6, figures as ready files", False),
                              ("f", "plain matplotlib script + MkDocs", True)):
        site = work / f"mkdocs-{key}"
        (site / "docs" / "figures").mkdir(parents=True)
        (site / "docs" / "index.md").write_text(markdown, encoding="utf-8")
        (site / "mkdocs.yml").write_text(f"site_name: bench\ndocs_dir: docs\nsite_dir: site\n", encoding="utf-8")
        commands = [[mkdocs, "build", "-q", "-f", str(site / "mkdocs.yml")]]
        if draws:
            script = site / "draw.py"
            script.write_text(draw_script(content, font, order, site / "docs" / "figures"), encoding="utf-8")
            commands.insert(0, [py, str(script)])
        else:
            for name, svg in svgs.items():
                (site / "docs" / "figures" / f"{name}.svg").write_text(svg, encoding="utf-8")
        scenario = Scenario(key, label, commands)
        scenario.note = mkdocs if mkdocs.startswith("skipped") else ""
        scenarios.append(scenario)

    hugo = peers.get("hugo", "skipped: --no-peers")
    site = work / "hugo"
    for sub in ("content", "static/figures", "layouts/_default"):
        (site / sub).mkdir(parents=True)
    (site / "hugo.toml").write_text('baseURL = "http://example.org/"\ntitle = "bench"\n'
                                    'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "404"]\n', encoding="utf-8")
    page = '<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>{{ .Content }}</body></html>\n'
    for layout in ("layouts/_default/single.html", "layouts/_default/list.html", "layouts/index.html"):
        (site / layout).write_text(page, encoding="utf-8")
    (site / "content" / "lesson.md").write_text(f"---\ntitle: bench\n---\n\n{markdown.replace('](figures/', '](/figures/')}",
                                                encoding="utf-8")
    for name, svg in svgs.items():
        (site / "static" / "figures" / f"{name}.svg").write_text(svg, encoding="utf-8")
    scenario = Scenario("g", "Hugo (apt), figures as ready files",
                        [[hugo, "--quiet", "-s", str(site), "-d", str(site / "public")]])
    scenario.note = hugo if hugo.startswith("skipped") else ""
    scenarios.append(scenario)

    jb = peers.get("jupyter-book", "skipped: --no-peers")
    book = work / "book"
    book.mkdir()
    (book / "_config.yml").write_text("title: bench\nexecute:\n  execute_notebooks: force\n  timeout: 600\n",
                                      encoding="utf-8")
    (book / "_toc.yml").write_text("format: jb-book\nroot: lesson\n", encoding="utf-8")
    (book / "lesson.ipynb").write_text(json.dumps(notebook(content, font, blocks), ensure_ascii=False),
                                       encoding="utf-8")
    scenario = Scenario("h", "Jupyter Book 1, notebook drawing the figures", [[jb, "build", str(book)]],
                        prepare=lambda i: shutil.rmtree(book / "_build", ignore_errors=True))
    scenario.note = jb if jb.startswith("skipped") else ""
    scenarios.append(scenario)
    return scenarios


def cell_lesson_scenario(work: Path, env: dict) -> Scenario:
    """(c3): a course of one lesson written as cells, its first cell 2 s, built once; each run edits a paragraph."""
    folder = work / "cells" / "content" / "slow"
    folder.mkdir(parents=True)
    (folder / "lesson.py").write_text(SLOW_CELLS, encoding="utf-8")
    (folder / "lesson.md").write_text(SLOW_MD, encoding="utf-8")
    (folder / "lesson.yaml").write_text("title: 慢的一课\nsummary: 第一个单元格要两秒\nobjectives:\n  - 看懂斜率\n",
                                        encoding="utf-8")
    build = [sys.executable, str(ROOT / "build.py"), "-q", "--content", str(folder.parent), "--out",
             str(work / "cells" / "out"), "--cache-dir", str(work / "cells" / "cache")]
    subprocess.run(build, env=env, check=True)

    def edit(i: int) -> None:
        (folder / "lesson.md").write_text(edited_paragraph(SLOW_MD, i), encoding="utf-8")
    return Scenario("c3", "a cell lesson (first cell 2 s) after editing one paragraph", [build], prepare=edit)


def slides_scenario(work: Path, env: dict, skipped: str) -> Scenario:
    """(i): `build.py slides` for LESSON on a warm cache; one untimed run first draws the figures' pictures."""
    slides = [sys.executable, str(ROOT / "build.py"), "slides", "-q", "--content", str(work / "content"),
              "--lesson", LESSON, "--out", str(work / "out-i"), "--cache-dir", str(work / "cache")]
    scenario = Scenario("i", "lessonkit `build.py slides`, warm (slides PDF + PPTX)", [slides])
    if skipped:
        scenario.note = skipped
        return scenario
    warm_up = subprocess.run(slides, env=env, capture_output=True, text=True)
    if warm_up.returncode != 0:
        scenario.note = "skipped: " + (warm_up.stderr.strip().splitlines() or ["`build.py slides` failed"])[-1]
    return scenario


def ready_figures(page: Path) -> dict[str, str]:
    """The SVG of every figure in a built page, as standalone files."""
    html = page.read_text(encoding="utf-8")
    out = {}
    for name, svg in re.findall(r'<figure id="fig-([\w-]+)".*?(<svg.*?</svg>)', html, re.S):
        out[name] = svg if "xmlns=" in svg else svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return out


def scale_table(work: Path, sizes: list[int], runs: int, env: dict) -> list[tuple[int, float, float, int]]:
    """(lessons, median cold s, median warm s, figures) for generated courses of small lessons."""
    rows = []
    for n in sizes:
        content = work / f"course-{n}" / "content"
        for k in range(1, n + 1):
            write_small_lesson(content / f"lesson-{k:03d}", k)
        build = [sys.executable, str(ROOT / "build.py"), "-q", "--content", str(content)]
        cache = work / f"course-{n}" / "cache"
        cold = Scenario("cold", f"{n} lessons cold", [build + ["--no-cache", "--out", str(work / f"course-{n}" / "a")]])
        warm = Scenario("warm", f"{n} lessons warm", [build + ["--cache-dir", str(cache), "--out",
                                                               str(work / f"course-{n}" / "b")]])
        warm.run(-1, env)  # fill the cache
        warm.times.clear()
        for i in range(runs):
            cold.run(i, env)
            warm.run(i, env)
        rows.append((n, cold.median, warm.median, n))
        print(f"course of {n}: cold {cold.median:.2f}s warm {warm.median:.2f}s", flush=True)
    return rows


def edited_paragraph(markdown: str, i: int) -> str:
    """The Markdown with a sentence appended to its first paragraph (not a heading, directive, container or table
    line), different for every `i`."""
    lines = markdown.splitlines(keepends=True)
    n = next(n for n, line in enumerate(lines) if line.strip() and not line.startswith(("#", "{{", ":::", "|")))
    return "".join(lines[:n] + [lines[n].rstrip("\n") + f"这是第 {i + 1} 次修改。\n"] + lines[n + 1:])


def preview_table(work: Path, sizes: list[int], runs: int, warm_from: Path | None = None
                  ) -> list[tuple[str, float, float]]:
    """`serve`'s rebuilds, in this process as the preview runs them (imports warm): (site, median s with nothing
    changed, median s after editing one paragraph of one lesson), for the real site and the largest generated
    course up to 50 lessons."""
    from lessonkit.commands.preview import Preview
    from lessonkit.site import Options

    sites = [("the real site", work / "content", LESSON)]
    courses = [n for n in sizes if n <= 50]
    if courses:
        n = max(courses)
        sites.append((f"the {n}-lesson course", work / f"course-{n}" / "content", f"lesson-{n // 2:03d}"))
    rows = []
    for label, content, slug in sites:
        cache = work / f"preview-cache-{content.parent.name}"
        if warm_from and label == "the real site":
            shutil.copytree(warm_from, cache)
        preview = Preview(Options(content=content, out=work / "unused", themes=ROOT / "themes", cache=cache),
                          quiet=True)
        md_path = content / slug / "lesson.md"
        original = md_path.read_text(encoding="utf-8")
        still, edited = [], []
        try:
            preview.rebuild()
            for i in range(runs + 1):  # the first round fills the cache
                started = time.perf_counter()
                preview.rebuild()
                still.append(time.perf_counter() - started)
                md_path.write_text(edited_paragraph(original, i), encoding="utf-8")
                started = time.perf_counter()
                preview.rebuild()
                edited.append(time.perf_counter() - started)
                if preview.state.problems is not None:
                    raise RuntimeError(f"preview of {content}: {preview.state.problems}")
        finally:
            md_path.write_text(original, encoding="utf-8")
            preview.close()
        rows.append((label, statistics.median(still[1:]), statistics.median(edited[1:])))
        print(f"preview of {label}: nothing changed {rows[-1][1]:.3f}s, one paragraph {rows[-1][2]:.3f}s", flush=True)
    return rows


def write_small_lesson(folder: Path, k: int) -> None:
    folder.mkdir(parents=True)
    (folder / "lesson.yaml").write_text(f"title: 第 {k} 课\nsummary: 一节生成的小课\nobjectives:\n  - 看懂第 {k} 条直线\n",
                                        encoding="utf-8")
    (folder / "lesson.md").write_text(
        "## 直线 {#line}\n\n斜率是 {{ slope }}，$y = kx$ 在 $x = 2$ 处等于 {{ at_two }}。\n\n{{< figure line >}}\n\n"
        "## 小结 {#summary}\n\n见 @fig:line。\n", encoding="utf-8")
    (folder / "lesson.py").write_text(textwrap.dedent(f"""\
        import numpy as np
        from lessonkit import Lesson

        lesson = Lesson()


        @lesson.value
        def slope():
            return {k} / 10


        @lesson.value
        def at_two(slope):
            return 2 * slope


        @lesson.figure(caption="一条直线", alt="斜率为 {{{{ slope }}}} 的直线")
        def line(plt, slope):
            x = np.linspace(0, 4, 9)
            fig, ax = plt.subplots(figsize=(3, 2))
            ax.plot(x, slope * x, marker="o")
            ax.set(xlabel="x 轴", ylabel="y 轴")
            return fig
        """), encoding="utf-8")


# ── report ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def machine(peers: dict[str, str]) -> list[tuple[str, str]]:
    cpu = "?"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor() or "?"
    ram = "?"
    try:
        kb = int(next(line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")))
        ram = f"{kb / 1024 ** 2:.1f} GiB"
    except (OSError, StopIteration):
        pass
    import jinja2
    import markdown_it
    import matplotlib
    import numpy

    import lessonkit

    def peer_version(name: str, command: list[str]) -> str:
        exe = peers.get(name, "skipped: --no-peers")
        return exe if exe.startswith("skipped") else _version([exe, *command])

    return [
        ("CPU", f"{cpu}, {os.cpu_count()} logical cores"),
        ("RAM", ram),
        ("OS", platform.platform()),
        ("Python", platform.python_version()),
        ("lessonkit", lessonkit.__version__),
        ("numpy / matplotlib / jinja2 / markdown-it-py",
         f"{numpy.__version__} / {matplotlib.__version__} / {jinja2.__version__} / {markdown_it.__version__}"),
        ("MkDocs", peer_version("mkdocs", ["--version"])),
        ("Hugo", peer_version("hugo", ["version"])),
        ("Jupyter Book", peer_version("jupyter-book", ["--version"])),
    ]


def render_report(scenarios: list[Scenario], scale, facts, runs: int, load_before, load_after, preview=()) -> str:
    by_key = {s.key: s for s in scenarios}
    floor = by_key["d"].median
    lines = ["# Benchmarks", "",
             f"Generated by `.venv/bin/python benchmarks/bench.py` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
             f" — {runs} runs per scenario, interleaved; medians of wall-clock seconds. Lesson: `content/{LESSON}` "
             f"({len(ready_figures_count(scenarios))} figures).", "",
             "| | scenario | median s | min s | max s | × floor (d) |", "|---|---|---:|---:|---:|---:|"]
    for s in scenarios:
        if s.note:
            lines.append(f"| {s.key} | {s.label} | {s.note} | | | |")
        else:
            lines.append(f"| {s.key} | {s.label} | {s.median:.3f} | {min(s.times):.3f} | {max(s.times):.3f} | "
                         f"{s.median / floor:.2f} |")
    lines += ["", "## Targets (ratios of medians in the same run)", "", "| target | measured | met? |", "|---|---:|---|"]
    for x, y, limit in TARGETS:
        if by_key[x].median is None or by_key[y].median is None:
            lines.append(f"| ({x}) ≤ {limit} × ({y}) | not measured | — |")
            continue
        ratio = by_key[x].median / by_key[y].median
        lines.append(f"| ({x}) ≤ {limit} × ({y}) | {ratio:.2f} × | {'yes' if ratio <= limit else 'NO'} |")
    if scale:
        lines += ["", "## Growth with the number of lessons", "",
                  "Generated course: small lessons with two values, one formula and one figure each.", "",
                  "| lessons | cold s (--no-cache) | warm s | cold s per lesson | warm s per lesson |",
                  "|---:|---:|---:|---:|---:|"]
        for n, cold, warm, _ in scale:
            lines.append(f"| {n} | {cold:.2f} | {warm:.2f} | {cold / n:.3f} | {warm / n:.3f} |")
    if preview:
        lines += ["", "## The preview (`serve`)", "",
                  "Its rebuild after a save, in the preview's own process (imports warm, as a teacher editing "
                  "sees it); pages whose inputs did not change are kept.", "",
                  "| site | nothing changed s | one paragraph edited s |", "|---|---:|---:|"]
        lines += [f"| {label} | {still:.3f} | {edited:.3f} |" for label, still, edited in preview]
    lines += ["", "## Machine", "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in facts]
    lines.append(f"| load average (1, 5, 15 min) | before {_load(load_before)}, after {_load(load_after)} |")
    lines += ["", "Notes: (e), (g) use the SVG files lessonkit drew; (f) draws them with pyplot, one process; "
              "(h) executes the notebook every run (`execute_notebooks: force`) and its `_build` is removed before "
              "each run. Peers render the same lesson text with values filled in, without lessonkit's widgets. "
              "lessonkit draws figures in parallel (one process per core). A warm build imports neither matplotlib "
              "nor latex2mathml: values, figures, MathML and compiled templates come from `.cache/lessonkit/`. "
              "The timings are wall-clock and sensitive to other load on the machine (see the load average).", ""]
    return "\n".join(lines)


def ready_figures_count(scenarios: list[Scenario]) -> list[str]:
    md = (ROOT / "content" / LESSON / "lesson.md").read_text(encoding="utf-8")
    return re.findall(r"^\{\{<\s*figure\s+([\w-]+)", md, re.M)


def _load(values) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    sys.exit(main())
