#!/usr/bin/env python3
"""Benchmark (not a test): seconds from saving a file to the open page showing the change, under `serve`.

    .venv/bin/python benchmarks/preview_reload.py [--edits 5] [--real]

Without --real, a lesson from `new` is edited (its lesson.md, then its lesson.py); with --real, a copy of content/
(the first lesson's lesson.md). Chromium must be at /usr/bin/chromium.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent  # this repository: its content/ and themes/
sys.path.insert(0, str(PROJECT))

from lessonkit.cli import main  # noqa: E402
from lessonkit.commands.preview import Preview  # noqa: E402
from lessonkit.site import Options  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main_(edits: int, real: bool) -> None:
    from playwright.sync_api import sync_playwright

    root = Path(tempfile.mkdtemp(prefix="lessonkit-bench-"))
    content = root / "content"
    if real:
        shutil.copytree(PROJECT / "content", content)
        slug = sorted(p.name for p in content.iterdir())[0]
    else:
        slug = "bench"
        main(["new", slug, "--quiet", "--content", str(content)])
    server = Preview(Options(content=content, out=root / "unused", themes=PROJECT / "themes"), quiet=True).start(
        "127.0.0.1", 0)
    md = content / slug / "lesson.md"
    py = content / slug / "lesson.py"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page()
            page.goto(server.url + slug + "/")
            for i in range(edits):
                marker = f"基准标记{i}"
                text = md.read_text(encoding="utf-8")
                started = time.perf_counter()
                md.write_text(text.rstrip("\n") + f"\n\n{marker}\n", encoding="utf-8")
                page.get_by_text(marker).wait_for(timeout=30_000)
                print(f"lesson.md edit {i + 1}: {time.perf_counter() - started:.2f} s to the page showing it")
            if not real:
                started = time.perf_counter()
                py.write_text(py.read_text(encoding="utf-8").replace("return 0.9", "return 0.8"), encoding="utf-8")
                page.get_by_text("每层把信号乘 0.8").first.wait_for(timeout=30_000)
                print(f"lesson.py edit (value + figure redrawn): {time.perf_counter() - started:.2f} s")
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    cli = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_argument("--edits", type=int, default=5)
    cli.add_argument("--real", action="store_true", help="edit a copy of the real content/ instead of a new lesson")
    options = cli.parse_args()
    main_(options.edits, options.real)
