#!/usr/bin/env python3
"""First-paint benchmark: DOMContentLoaded and first contentful paint of every lesson page, against a blank page.

    PYTHONPATH=. .venv/bin/python benchmarks/paint_bench.py [--runs 9] [--before f682c0f] [--variants]

Builds, into a temporary folder and with `--no-cache`, the site of each --before commit (default f682c0f: checked out
with `git worktree add` into the temporary folder, built with that checkout's own build.py, PYTHONPATH pointing at it,
the worktree removed afterwards) and the site of this checkout (its work tree as it is). Then opens, from file://, in
the system's headless Chromium (lessonkit.support.chromium's flags), every lesson page of these sites, a blank page
(`<!DOCTYPE html><title>x</title>`) and a one-letter page (the blank page plus `<p>x`: the blank page paints no
content, so it has no first contentful paint), --runs times, interleaved (each round visits every page once, in an
order rotated by one each round; a first round warms up and is not counted), each load in a fresh browser context.
After the load event it reads the navigation timing entry (domContentLoadedEventEnd, loadEventEnd) and the paint entry
'first-contentful-paint' (through a buffered PerformanceObserver when it is not there yet). Reported: medians (ms
from navigation start) and their ratios to the floors' medians of the same run. No assertions: the numbers depend on
the machine and its load (the load average is printed), so a second, traced pass (--cpu-runs) also reports the
renderer main thread's CPU time up to the first contentful paint, which load hardly changes.

The traced pass also splits that CPU time by kind (HTML parsing, style, layout, paint, script, other) and reports the
HTML parsed before the first contentful paint: the parser yields, so the first frame shows what it has parsed, and
it parses on while that frame is rasterised.

--variants also measures copies of each page of this checkout with its inline SVG emptied, its MathML emptied, both,
its figure-data disclosures taken out, or its content-visibility rules taken out (the style's CSP hash recomputed),
to see what costs.
"""
from __future__ import annotations

import argparse
import hashlib
import base64
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lessonkit.support import chromium  # noqa: E402

BLANK = "<!DOCTYPE html><title>x</title>"
TEXT = BLANK + "<p>x"  # the blank page paints no content, so it has no first contentful paint: this one does
MEASURE = """() => new Promise(resolve => {
  const nav = performance.getEntriesByType('navigation')[0];
  const done = fcp => resolve({dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, fcp: fcp,
                               nodes: document.getElementsByTagName('*').length});
  const entry = performance.getEntriesByName('first-contentful-paint')[0];
  if (entry) return done(entry.startTime);
  new PerformanceObserver(list => {
    const e = list.getEntriesByName('first-contentful-paint')[0];
    if (e) done(e.startTime);
  }).observe({type: 'paint', buffered: true});
  setTimeout(() => done(null), 5000);
})"""


def build(source: Path, out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(source)}
    result = subprocess.run([sys.executable, "build.py", "--quiet", "--out", str(out), "--no-cache"], cwd=source,
                            env=env, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise SystemExit(f"build in {source} failed:\n{result.stdout}{result.stderr}")


def build_before(commit: str, work: Path) -> Path:
    checkout = work / "src"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout), commit], check=True,
                   capture_output=True, timeout=120)
    try:
        build(checkout, work / "site")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)], capture_output=True,
                       timeout=120)
    return work / "site"


def lesson_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("*/index.html"))


def _rehash_csp(html: str) -> str:
    """Keep the page's CSP true to an edited <style>: replace the style hash by the new body's."""
    m = re.search(r"<style>(.*?)</style>", html, re.S)
    if not m:
        return html
    digest = base64.b64encode(hashlib.sha256(m.group(1).encode("utf-8")).digest()).decode()
    return re.sub(r"(style-src[^;\"]*?)'sha256-[^']+'", lambda mm: f"{mm.group(1)}'sha256-{digest}'", html, count=1)


def strip_svg(html: str) -> str:
    return re.sub(r"<svg\b.*?</svg>", "<svg></svg>", html, flags=re.S)


def strip_math(html: str) -> str:
    return re.sub(r"<math\b.*?</math>", "<math></math>", html, flags=re.S)


def strip_figure_data(html: str) -> str:
    return re.sub(r'<details class="figure-data">.*?</details>', "", html, flags=re.S)


def strip_cv(html: str) -> str:
    """The page without its content-visibility rules (the style rehashed in its CSP)."""
    def edit(m):
        return "<style>" + re.sub(r"content-visibility:\s*auto;?|contain-intrinsic-size:[^;}]*;?", "", m.group(1)) \
            + "</style>"
    return _rehash_csp(re.sub(r"<style>(.*?)</style>", edit, html, count=1, flags=re.S))


def variants(pages: list[tuple[str, Path]], work: Path) -> list[tuple[str, Path]]:
    made = []
    for label, page in pages:
        html = page.read_text(encoding="utf-8")
        for name, edit in (("no SVG", strip_svg), ("no MathML", strip_math),
                           ("no SVG, no MathML", lambda h: strip_math(strip_svg(h))),
                           ("no figure data", strip_figure_data),
                           ("no content-visibility", strip_cv)):
            edited = edit(html)
            if edited == html:
                continue
            target = page.parent / f"variant-{re.sub(r'[^a-z]+', '-', name.lower())}.html"
            target.write_text(edited, encoding="utf-8")
            made.append((f"{label} ({name})", target))
    return made


def measure(targets: list[tuple[str, Path]], runs: int) -> dict[str, list[dict]]:
    from playwright.sync_api import sync_playwright

    results: dict[str, list[dict]] = {label: [] for label, _ in targets}
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        try:
            for r in range(runs + 1):  # round 0 warms the file cache and Chromium, and is not counted
                shift = r % len(targets)
                for label, path in targets[shift:] + targets[:shift]:
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(path.as_uri(), wait_until="load")
                    sample = page.evaluate(MEASURE)
                    context.close()
                    if r:
                        results[label].append(sample)
        finally:
            browser.close()
    return results


TRACE_CATEGORIES = ["devtools.timeline", "blink", "loading", "disabled-by-default-devtools.timeline"]


# the main thread's work before the first contentful paint, by kind: the outermost trace event of each kind counts
# (its thread time, nested events included), the rest of the tasks' time is "other" (navigation, commit, V8 setup)
PHASES = {"ParseHTML": "parse", "Document::recalcStyle": "style", "Document::rebuildLayoutTree": "style",
          "LocalFrameView::performLayout": "layout", "PrePaint": "paint", "LocalFrameView::RunPaintLifecyclePhase":
          "paint", "EvaluateScript": "script", "FunctionCall": "script", "EventDispatch": "script"}
PHASE_NAMES = ("parse", "style", "layout", "paint", "script", "other")


def main_thread_work(trace: dict | list) -> dict | None:
    """The renderer main thread's CPU time (ms) from the start of the trace to the first contentful paint — the
    sum of its top-level tasks' thread durations, which the machine's load hardly changes (wall time does) —, that
    time by kind (PHASES) and the HTML bytes parsed by then (the parser yields: the first frame shows what it has)."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    # the loaded page's frame and thread: the trace may also hold a page of an earlier context, still closing
    parsed_here = [e for e in events if e.get("name") == "ParseHTML"
                   and e.get("args", {}).get("beginData", {}).get("url", "").startswith("file:")]
    if not parsed_here:
        return None
    frame = parsed_here[0]["args"]["beginData"]["frame"]
    main = (parsed_here[0]["pid"], parsed_here[0]["tid"])
    fcp = [e["ts"] for e in events if e.get("name") == "firstContentfulPaint"
           and e.get("args", {}).get("frame") == frame]
    if not fcp:
        return None
    before = sorted((e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"
                     and e["ts"] < fcp[0]), key=lambda e: (e["ts"], -e.get("dur", 0)))
    total = sum(e.get("tdur", 0) for e in before if e["name"] == "RunTask") / 1000
    phases = dict.fromkeys(PHASE_NAMES, 0.0)
    open_ends: list[tuple[int, bool]] = []  # (end, inside a counted event) of the events enclosing this one
    for e in before:
        while open_ends and open_ends[-1][0] <= e["ts"]:
            open_ends.pop()
        inside = any(counted for _, counted in open_ends)
        phase = PHASES.get(e["name"])
        if phase and not inside:
            phases[phase] += e.get("tdur", 0) / 1000
        open_ends.append((e["ts"] + e.get("dur", 0), inside or bool(phase)))
    phases["other"] = max(0.0, total - sum(phases.values()))
    parsed = sum(e.get("args", {}).get("parsed_bytes", 0) for e in before if e["name"] == "ParseHTML")
    return {"cpu": total, "phases": phases, "parsed": parsed}


def main_thread_cpu(trace: dict | list) -> float | None:
    """CPU time (ms) of the renderer's main thread from the start of the trace to the first contentful paint."""
    work = main_thread_work(trace)
    return work["cpu"] if work else None


def measure_cpu(targets: list[tuple[str, Path]], runs: int) -> dict[str, list[dict]]:
    """Main-thread work to first contentful paint (main_thread_work), from a Chromium trace of each load (a
    separate, interleaved pass: tracing slows the loads it records)."""
    import json

    from playwright.sync_api import sync_playwright

    results: dict[str, list[dict]] = {label: [] for label, _ in targets}
    with sync_playwright() as pw:
        browser = chromium.launch(pw)
        try:
            for r in range(runs + 1):
                shift = r % len(targets)
                for label, path in targets[shift:] + targets[:shift]:
                    context = browser.new_context()
                    page = context.new_page()
                    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
                    page.goto(path.as_uri(), wait_until="load")
                    page.evaluate(MEASURE)
                    work = main_thread_work(json.loads(browser.stop_tracing()))
                    context.close()
                    if r and work is not None:
                        results[label].append(work)
        finally:
            browser.close()
    return results


def median(samples: list[dict], key: str) -> float | None:
    values = [s[key] for s in samples if s[key] is not None]
    return statistics.median(values) if values else None


def report_cpu(cpu: dict[str, list[dict]], runs: int) -> str:
    floors = [w["cpu"] for w in cpu.get("one-letter page", [])]
    floor = statistics.median(floors) if floors else None
    lines = [f"Renderer main-thread CPU time from navigation to first contentful paint (Chromium trace, {runs} loads "
             "per page, interleaved, medians; × = ratio to the one-letter page's), the median of each kind of work "
             "in it (ms; other: navigation, commit, script context) and the HTML parsed by then:", "",
             "| page | CPU ms to FCP | × one-letter | " + " | ".join(PHASE_NAMES) + " | KB parsed |",
             "|---|---:|---:|" + "---:|" * (len(PHASE_NAMES) + 1)]
    for label, works in cpu.items():
        if works:
            m = statistics.median(w["cpu"] for w in works)
            ratio = f"{m / floor:.2f}" if floor else "—"
            phases = " | ".join(f"{statistics.median(w['phases'][k] for w in works):.1f}" for k in PHASE_NAMES)
            parsed = statistics.median(w["parsed"] for w in works) / 1024
            lines.append(f"| {label} | {m:.1f} | {ratio} | {phases} | {parsed:.0f} |")
    return "\n".join(lines)


def report(results: dict[str, list[dict]], runs: int, loadavg: tuple) -> str:
    b_dcl, b_load = median(results["blank page"], "dcl"), median(results["blank page"], "load")
    t_fcp = median(results["one-letter page"], "fcp")
    lines = [f"{runs} loads per page, interleaved; medians in ms from navigation start; × = ratio to the floor's median "
             "in the same run: DOMContentLoaded and load to the blank page's, first contentful paint (FCP) to the "
             "one-letter page's FCP (the blank page paints no content, so it has none) and to the blank page's "
             "load event.", "",
             "| page | DOM elements | DOMContentLoaded | × blank | load | × blank | FCP | × one-letter FCP | "
             "× blank load |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, samples in results.items():
        dcl, load, fcp = median(samples, "dcl"), median(samples, "load"), median(samples, "fcp")
        fcp_cells = (f"{fcp:.0f} | {fcp / t_fcp:.2f} | {fcp / b_load:.2f}" if fcp is not None and t_fcp
                     else "— | — | —")
        lines.append(f"| {label} | {samples[0]['nodes']} | {dcl:.0f} | {dcl / b_dcl:.2f} | {load:.0f} | "
                     f"{load / b_load:.2f} | {fcp_cells} |")
    lines.append("")
    lines.append(f"Load average (1, 5, 15 min): before {', '.join(f'{x:.2f}' for x in loadavg[0])}, "
                 f"after {', '.join(f'{x:.2f}' for x in loadavg[1])}.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=9, help="loads per page; medians are shown (default 9)")
    p.add_argument("--before", action="append", help="git commit of a 'before' site (default f682c0f; repeatable)")
    p.add_argument("--no-before", action="store_true", help="measure this checkout only")
    p.add_argument("--cpu-runs", type=int, default=5,
                   help="traced loads per page for the main-thread CPU table (default 5; 0: no table)")
    p.add_argument("--variants", action="store_true", help="also pages without SVG / MathML / content-visibility")
    args = p.parse_args(argv)
    why = chromium.missing()
    if why:
        raise SystemExit(why)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="paint-bench-") as tmp:
        work = Path(tmp)
        (work / "blank.html").write_text(BLANK, encoding="utf-8")
        (work / "text.html").write_text(TEXT, encoding="utf-8")
        targets: list[tuple[str, Path]] = [("blank page", work / "blank.html"), ("one-letter page", work / "text.html")]
        for commit in ([] if args.no_before else args.before or ["f682c0f"]):
            before = build_before(commit, work / commit)
            targets += [(f"{page.parent.name} — {commit}", page) for page in lesson_pages(before)]
        after = work / "after"
        build(ROOT, after)
        current = [(f"{page.parent.name} — this checkout", page) for page in lesson_pages(after)]
        targets += current
        if args.variants:
            targets += variants(current, work)
        results = measure(targets, args.runs)
        load_after = os.getloadavg()
        cpu = measure_cpu(targets, args.cpu_runs) if args.cpu_runs > 0 else {}
    print(report(results, args.runs, (load_before, load_after)))
    if cpu:
        print()
        print(report_cpu(cpu, args.cpu_runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
