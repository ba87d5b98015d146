#!/usr/bin/env python3
"""Search benchmark: index sizes and query time for generated courses of 1, 10 and 50 lessons.

    PYTHONPATH=. .venv/bin/python benchmarks/search_bench.py [--sizes 1,10,50] [--runs 21] [--site DIR]

The lessons are made from the text of a real built lesson (the largest page `build.py` makes from content/): lesson 1
is that text, lesson k > 1 the same sentences shuffled with its CJK characters permuted (a fixed random map per
lesson), so each lesson has the size and character statistics of a real one but gzip finds nothing to share between
lessons — a pessimistic course for compression. Reported, medians only, no assertions:

  * the course's index file (search-index.js, which the index page loads when someone searches) raw and gzip; the
    index page's own search data (where that file is: the same at any course size); a lesson page's own index
    (its sections' ids and titles, the text it reads from the page) and what it adds to that page's gzip size
    (gzip(page with it) − gzip(page)) / gzip(page); the component's JS + CSS alone;
  * query time in headless Chromium (tests/searchpage.py pages around the shipped widget.js) on the index page and
    on a lesson page: the search alone (median of --runs), the update as one types (search + results list), the
    style and layout of the list after it, the first search after loading (on the index page: loading and running
    search-index.js, then folding every section's text once; on a lesson page: reading its text from the page and
    folding it) and the init (the DOMContentLoaded handlers).
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from lessonkit.features import search  # noqa: E402
from lessonkit.load.siteconfig import DEFAULT_GZIP_KB, DEFAULT_PAGE_KB  # noqa: E402
from lessonkit.cli import main as lessonkit_main  # noqa: E402

QUERIES = ["置编", "残差", "RoPE", "梯度 消失", "的", "没有这个词"]
SECTION = re.compile(r'<section id="([^"]+)" class="lesson-section".*?<h2[^>]*>(.*?)</h2>(.*?)</section>\n', re.S)
CJK = re.compile(r"[\u4e00-\u9fff]")


def gz(data: bytes | str) -> int:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return len(gzip.compress(data, 9))


def real_lesson(out: Path, built: Path | None = None) -> tuple[dict, str, str]:
    """(lesson entry, its built page, the built index page) from the largest lesson the content makes (or the
    already built site `built` holds)."""
    if built is None:
        assert lessonkit_main(["build", "--quiet", "--out", str(out), "--no-cache"]) == 0  # never the project's cache
    else:
        out = built
    pages = sorted(out.glob("*/index.html"), key=lambda p: p.stat().st_size)
    if not pages:
        raise SystemExit("content/ builds no lesson: nothing to measure")
    html = pages[-1].read_text(encoding="utf-8")
    title = search.plain_text(re.search(r'<h1 class="lesson-title">(.*?)</h1>', html, re.S).group(1))
    head = re.search(r'<header class="lesson-header">(.*?)</header>', html, re.S)
    sections = [{"id": "", "title": title, "html": head.group(1) if head else ""}]
    sections += [{"id": i, "title": t, "html": b} for i, t, b in SECTION.findall(html)]
    entry = {"slug": pages[-1].parent.name, "title": title, "sections": sections}
    return entry, html, (out / "index.html").read_text(encoding="utf-8")


def variant(entry: dict, k: int) -> dict:
    """Lesson k: sentences shuffled, CJK characters permuted by a fixed map (k = 1: the lesson itself)."""
    if k == 1:
        return {**entry, "slug": "lesson-001"}
    rng = random.Random(k)
    texts = [(s["id"], search.plain_text(s["title"]), search.plain_text(s.get("html") or ""))
             for s in entry["sections"]]
    chars = sorted(set(CJK.findall("".join(t + x for _, t, x in texts))))
    shuffled = chars[:]
    rng.shuffle(shuffled)
    table = str.maketrans(dict(zip(chars, shuffled)))
    sections = []
    for sid, title, text in texts:
        sentences = re.split(r"(?<=[。；！？])", text)
        rng.shuffle(sentences)
        sections.append({"id": sid, "title": title.translate(table), "text": "".join(sentences).translate(table)})
    return {"slug": f"lesson-{k:03d}", "title": sections[0]["title"], "sections": sections}


def with_box(page: str, data: dict) -> str:
    import searchpage
    return page.replace("</main>", searchpage.search_box(data) + "\n</main>", 1)


def sizes_row(n: int, lessons: list[dict], lesson_page: str, index_page: str) -> dict:
    import searchpage
    course = search.course_index(lessons)
    own = search.search_index([searchpage.on_page(lessons[0])], here=lessons[0]["slug"], root="../")
    box_json, own_json = search.index_json(course.box), search.index_json(own)
    items = "".join(f'<li class="lesson-item"><h2 class="lesson-item-title"><a href="{l["slug"]}/index.html">'
                    f'{l["title"]}</a></h2><p class="lesson-item-summary">一节课</p></li>' for l in lessons[1:])
    index_n = with_box(index_page.replace("</ol>", items + "</ol>", 1), course.box)
    page_gz = gz(lesson_page)
    return {"n": n, "file": search.sizes(course.script), "box_raw": len(box_json.encode()),
            "own_raw": len(own_json.encode()), "own_gz": gz(own_json), "page_gz": page_gz,
            "own_in_lesson": (gz(with_box(lesson_page, own)) - page_gz) / page_gz,
            "index": (len(index_n.encode()), gz(index_n))}


TIMING = """async ([q, runs]) => {
  const root = document.getElementById('search'), input = document.getElementById('search-input');
  await root.lessonkitSearch.load();
  const med = xs => xs.sort((x, y) => x - y)[xs.length >> 1];
  const t = [], u = [], BATCH = 10;                               // timer steps are 0.1 ms: time batches
  for (let i = 0; i < runs; i++) {
    const a = performance.now();
    for (let j = 0; j < BATCH; j++) root.lessonkitSearch.hits(q);
    t.push((performance.now() - a) / BATCH);
  }
  const l = [];
  for (let i = 0; i < runs; i++) {
    input.value = ''; input.dispatchEvent(new Event('input'));
    document.body.offsetHeight;
    const a = performance.now();
    input.value = q; input.dispatchEvent(new Event('input'));     // search + building the results list
    const b = performance.now();
    document.body.offsetHeight;                                   // style and layout of the new list
    u.push(b - a);
    l.push(performance.now() - b);
  }
  return [med(t), med(u), med(l), document.querySelectorAll('#search-results a').length];
}"""
FIRST = """async q => { const s = document.getElementById('search').lessonkitSearch, a = performance.now();
  await s.load(); s.hits(q);
  const nav = performance.getEntriesByType('navigation')[0];
  return [performance.now() - a, nav.domContentLoadedEventEnd - nav.domContentLoadedEventStart]; }"""


def query_times(url: str, runs: int) -> tuple[list[tuple[str, float, float, int]], float, float]:
    """[(query, search ms, search + list ms, layout ms, results shown)], first search ms (with loading the index
    file on the index page), init ms (DOMContentLoaded handlers), medians."""
    from playwright.sync_api import sync_playwright

    from lessonkit.support import chromium
    with sync_playwright() as p:
        browser = chromium.launch(p)
        page = browser.new_page()
        page.set_default_timeout(60_000)
        firsts, inits = [], []
        for _ in range(5):
            page.goto(url, wait_until="load")
            page.wait_for_function(chromium.STARTED)  # the components start after the first paint
            first, init = page.evaluate(FIRST, QUERIES[0])
            firsts.append(first)
            inits.append(init)
        rows = [(q, *page.evaluate(TIMING, [q, runs])) for q in QUERIES]
        browser.close()
    return rows, statistics.median(firsts), statistics.median(inits)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="1,10,50", help="course sizes in lessons (default 1,10,50)")
    p.add_argument("--runs", type=int, default=21, help="runs per query; medians are shown (default 21)")
    p.add_argument("--site", type=Path, help="a site already built (its largest lesson is the model) instead of "
                                             "building content/ (the tests pass the one they built)")
    args = p.parse_args()
    import searchpage

    component = gz((searchpage.COMPONENT / "widget.js").read_text(encoding="utf-8")
                   + (searchpage.COMPONENT / "widget.css").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="search-bench-") as tmp:
        entry, lesson_page, index_page = real_lesson(Path(tmp) / "site", args.site)
        text = sum(len(search.plain_text(s["html"])) for s in entry["sections"])
        print(f"model lesson: {entry['slug']}, {len(entry['sections'])} sections, {text} characters of text; "
              f"its page {len(lesson_page.encode())} B raw, {gz(lesson_page)} B gzip; "
              f"search component JS+CSS {component} B gzip\n")
        print("Sizes (KiB; share = growth of the page's gzip size):")
        print(f"lessons | {search.INDEX_FILE} raw / gzip | the index page's search data raw | index page raw / gzip | "
              "on a lesson page: own index raw / gzip, share")
        timing = []
        for n in [int(x) for x in args.sizes.split(",") if x]:
            lessons = [variant(entry, k) for k in range(1, n + 1)]
            r = sizes_row(n, lessons, lesson_page, index_page)
            print(f"{n:7d} | {r['file'][0] / 1024:8.1f} / {r['file'][1] / 1024:6.1f} | {r['box_raw'] / 1024:5.2f} | "
                  f"{r['index'][0] / 1024:6.1f} / {r['index'][1] / 1024:5.1f} | "
                  f"{r['own_raw'] / 1024:6.2f} / {r['own_gz'] / 1024:5.2f}, {100 * r['own_in_lesson']:5.1f} %",
                  flush=True)
            folder = searchpage.write_site(Path(tmp) / f"course-{n}", lessons)
            timing.append((n, "index page (whole course)", *query_times((folder / "index.html").as_uri(), args.runs)))
            timing.append((n, "lesson page (its own text)",
                           *query_times((folder / lessons[0]["slug"] / "index.html").as_uri(), args.runs)))
        print(f"\n(the default page budget: {DEFAULT_PAGE_KB} KiB raw, {DEFAULT_GZIP_KB} KiB gzip; the index page "
              "above carries one entry per lesson and the search data, not the index)")
        print(f"\n(the component's JS + CSS alone: {component} B gzip, "
              f"{100 * component / gz(lesson_page):.1f} % of the lesson page's gzip size)")
        print(f"\nQuery time in headless Chromium, ms, medians of {args.runs} (search alone / search + building "
              "the results list / + style and layout of the list; results shown):")
        for n, where, rows, first, init in timing:
            print(f"{n:3d} lessons, {where}: init {init:.1f}, first search {first:.1f}; "
                  + "; ".join(f"「{q}」 {a:.2f} / {b:.1f} / +{c:.1f} ({k})" for q, a, b, c, k in rows), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
