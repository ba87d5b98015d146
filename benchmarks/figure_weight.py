#!/usr/bin/env python3
"""What each figure and widget of a lesson page weighs, before and after: byte counts, not timings.

    PYTHONPATH=. .venv/bin/python benchmarks/figure_weight.py [--before 32a80e5] [--no-before] [--cache-dir DIR]

Builds, into a temporary folder and with `--no-cache`, the lessons of content/ and the chapter fixture of
tests/chapter_lesson.py (d2l's gradient descent: nine figures of 2 001-point curves, an explorer with a figure per
learning rate, …) twice: with the --before commit's engine (its tree taken with `git archive` into the temporary
folder and built with its own build.py, PYTHONPATH pointing at it) and with this checkout's (its work tree as it is).
Both builds get the same content (this checkout's content/ and fixture) and a site.yaml with a budget no page
reaches, so the old engine writes the pages it would have refused.

For each lesson page it prints the page's bytes (raw, gzip -9) and, the heaviest first, each figure's (its
`<figure>`: SVG, data table and caption) and each widget's (its root element: markup, state figures, data), raw and
gzip each alone — as the over-budget error lists them (lessonkit.assemble.budget.items) —, and the CSV files
written beside the page (files the page links and a reader fetches only when clicking). Byte counts do not depend on
the machine or its load: one run is the result.
"""
from __future__ import annotations

import argparse
import gzip
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from lessonkit.assemble.budget import items  # noqa: E402

import chapter_lesson  # noqa: E402

BEFORE = "32a80e5"
NO_LIMIT = "budget: {page_kb: 100000, gzip_kb: 100000}\n"


def content_folder(folder: Path) -> Path:
    """content/ as it is, the chapter fixture beside its lessons, and a budget no page reaches."""
    content = folder / "content"
    if (ROOT / "content").is_dir():
        shutil.copytree(ROOT / "content", content, ignore=shutil.ignore_patterns("__pycache__", "site.yaml"))
    chapter_lesson.write_chapter_lesson(content)
    site = ROOT / "content" / "site.yaml"
    kept = [line for line in (site.read_text(encoding="utf-8").splitlines() if site.exists() else [])
            if not line.startswith("budget:")]
    (content / "site.yaml").write_text("\n".join(kept + [NO_LIMIT]), encoding="utf-8")
    return content


def engine_at(commit: str, folder: Path) -> Path:
    """The repository's tree at `commit`, unpacked into `folder` (no checkout, no worktree: nothing in .git changes)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True,
                             capture_output=True, timeout=120).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def build(engine: Path, content: Path, out: Path, cache: Path | None = None) -> Path:
    env = {**os.environ, "PYTHONPATH": str(engine), "LESSONKIT_LANG": "en"}
    caching = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    done = subprocess.run([sys.executable, str(engine / "build.py"), "--quiet", *caching, "--content", str(content),
                           "--out", str(out)], env=env, capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        raise SystemExit(f"the build with {engine} failed:\n{done.stdout}\n{done.stderr}")
    return out


def measure(site: Path) -> dict[str, dict]:
    """slug → {page: (raw, gzip), items: {(kind, name): (raw, gzip)}, csv: (files, bytes)} for every lesson page."""
    found = {}
    for page in sorted(site.glob("*/index.html")):
        data = page.read_bytes()
        csv = list((page.parent / "data").glob("*.csv")) if (page.parent / "data").is_dir() else []
        found[page.parent.name] = {
            "page": (len(data), len(gzip.compress(data, 9))),
            "items": {(kind, name): (raw, gz) for kind, name, raw, gz in items(data)},
            "csv": (len(csv), sum(f.stat().st_size for f in csv)),
        }
    return found


def kb(n: int | None) -> str:
    return "—" if n is None else f"{n / 1024:.1f}"


def table(before: dict | None, after: dict) -> str:
    rows = ["| lesson | figure or widget | before raw KB | before gzip KB | after raw KB | after gzip KB |",
            "|---|---|---:|---:|---:|---:|"]
    for slug, now in after.items():
        then = (before or {}).get(slug)
        old_items = then["items"] if then else {}
        order = sorted(set(now["items"]) | set(old_items),
                       key=lambda k: (-now["items"].get(k, old_items.get(k, (0, 0)))[0], k))
        for key in order:
            b, a = old_items.get(key, (None, None)), now["items"].get(key, (None, None))
            rows.append(f"| {slug} | {key[0]} `{key[1]}` | {kb(b[0])} | {kb(b[1])} | {kb(a[0])} | {kb(a[1])} |")
        b = then["page"] if then else (None, None)
        rows.append(f"| {slug} | **the page** | **{kb(b[0])}** | **{kb(b[1])}** | **{kb(now['page'][0])}** | "
                    f"**{kb(now['page'][1])}** |")
        files, size = now["csv"]
        if files:
            rows.append(f"| {slug} | CSV files beside the page (not in it) | | | {kb(size)} in {files} | |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE, help=f"the commit to compare with (default {BEFORE})")
    parser.add_argument("--no-before", action="store_true", help="measure this checkout only")
    parser.add_argument("--cache-dir", type=Path, help="this checkout's build uses this figure cache instead of "
                        "--no-cache (the same bytes, drawn or not; the tests pass theirs)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="figure-weight-") as tmp:
        tmp = Path(tmp)
        content = content_folder(tmp)
        before = None
        if not args.no_before:
            old = engine_at(args.before, tmp / "before-engine")
            before = measure(build(old, content, tmp / "before"))
        after = measure(build(ROOT, content, tmp / "after", args.cache_dir))
    print(f"Page weight by figure and widget: before = {'—' if args.no_before else args.before}, after = this "
          "checkout (byte counts: the machine and its load do not change them)\n")
    print(table(before, after))


if __name__ == "__main__":
    main()
