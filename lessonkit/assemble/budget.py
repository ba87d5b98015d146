"""Page weight budget: every HTML page (everything inline) must stay under a raw and a gzip size.

The defaults suit a phone on a slow connection; a site may set its own in `content/site.yaml`, and a lesson its
page's in its lesson.yaml (a limit it leaves out is the site's):

    budget: {page_kb: 250, gzip_kb: 60}      # KB = 1024 bytes

A page over budget is a content error naming the page, its size and the budget, what the bytes are made of, each
figure and widget with its bytes (raw and gzip), the biggest first, and where budgets are set; nothing is written.
Each page is weighed as it is; the course's search index is a file of its own (features/search.py INDEX_FILE) that
the index page loads only when someone searches: no page carries it, the build summary reports its size.
"""
from __future__ import annotations

import functools
import html
import re
import threading
from collections import deque
import zlib
from pathlib import Path

from ..load.siteconfig import Budget
from ..support.errors import ContentError, Problem
from ..support.messages import Message, joined, msg


class GzipSizes:
    """The gzip -9 size of each HTML page (as a web server would send it, within a few bytes), compressed in one
    thread beside the build from the moment the page is made (`add`): zlib lets go of the interpreter while it
    compresses, so the pages after it are assembled meanwhile. `result()` waits for them all; used as a context
    manager, the thread also ends when the build stops on an error. (One thread for all pages: a thread started while
    another compresses waits for the interpreter.)"""

    def __init__(self) -> None:
        self._pages: deque[tuple[str, bytes] | None] = deque()   # (a deque and a count: `queue` costs an import)
        self._waiting = threading.Semaphore(0)
        self._names: list[str] = []
        self._sizes: dict[str, int] = {}
        self._failed: list[BaseException] = []
        self._thread: threading.Thread | None = None

    def add(self, name: str, data: bytes) -> None:
        if not name.endswith(".html"):
            return
        self._names.append(name)
        self._pages.append((name, data))
        self._waiting.release()
        if self._thread is None:
            self._thread = threading.Thread(target=self._measure, daemon=True)
            self._thread.start()

    def _next(self) -> tuple[str, bytes] | None:
        self._waiting.acquire()
        return self._pages.popleft()

    def _measure(self) -> None:
        for name, data in iter(self._next, None):
            try:
                self._sizes[name] = len(_gzip(data))
            except BaseException as exc:  # (MemoryError …): raised by result(), in the build's own thread
                self._failed.append(exc)

    def __enter__(self) -> GzipSizes:
        return self

    def __exit__(self, *exc_info) -> None:
        self._finish()

    def _finish(self) -> None:
        """Tell the thread there is nothing more, and wait for it."""
        if self._thread is not None:
            self._pages.append(None)
            self._waiting.release()
            self._thread.join()
            self._thread = None

    def result(self) -> dict[str, int]:
        """Every page's size, in the order the pages were added."""
        self._finish()
        if self._failed:
            raise self._failed[0]
        return {name: self._sizes[name] for name in self._names}


def _gzip(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip container
    return compressor.compress(data) + compressor.flush()


PART_NAMES = ("figures", "images", "maths", "code", "data", "text")


def _part_word(name: str) -> Message:
    return {"figures": msg("figures"), "images": msg("images"), "maths": msg("maths"), "code": msg("code"),
            "data": msg("data"), "text": msg("text")}[name]


@functools.cache  # (compiled only for a page over its budget)
def _parts() -> re.Pattern:
    """What a page's bytes are made of, in one pass: the engine's code (inline scripts and styles), figures (their
    SVG and 「数据」 tables), the images the lesson's Markdown shows (inlined), maths (MathML), component data
    (JSON), and the rest: the lesson's text and the theme's markup."""
    return re.compile(r'(?P<data><script type="application/json".*?</script>)|(?P<code><script>.*?</script>|'
                      r'<style>.*?</style>)|(?P<figures><svg\b.*?</svg>|<details class="figure-data">.*?</details>)|'
                      r'(?P<images>' + INLINE_IMAGE + r')|(?P<maths><math\b.*?</math>)', re.S)


def weigh(page: bytes) -> dict[str, int]:
    """Bytes of the page by part (PART_NAMES): what to trim when a page is too heavy."""
    text = page.decode("utf-8")
    found = dict.fromkeys(PART_NAMES, 0)
    for m in _parts().finditer(text):
        found[m.lastgroup] += len(m.group(0).encode("utf-8"))
    found["text"] = len(page) - sum(found.values())
    return found


INLINE_IMAGE = r'<img\s[^>]*?src="data:[^"]*"[^>]*>'
# a figure (`<figure id="fig-NAME">`, a second placement `fig-NAME-2`) or a widget's root element
ITEM = re.compile(r'<figure id="fig-(?P<figure>[A-Za-z0-9_]+)(?:-\d+)?"|<div class="widget widget-[\w-]+" id="widget-(?P<widget>[\w-]+)"')
IMAGE_ALT = re.compile(r'\salt="([^"]*)"')
ALT_SHOWN = 24   # characters of an image's alt text that name it in a message
TAG = re.compile(r"<(/?)(figure|div)\b")


def items(page: bytes) -> list[tuple[str, str, int, int]]:
    """(kind, name, raw bytes, gzip bytes) of every figure (its SVG, data table and caption; both placements of one
    placed twice), widget (its markup, figures and data) and inlined image (named by its alt text) on the page, the
    heaviest first. A figure inside a widget (an answer's) counts with the widget too. gzip is of each alone: what
    it adds to the page is a little less."""
    text = page.decode("utf-8")
    found: dict[tuple[str, str], bytes] = {}
    for m in ITEM.finditer(text):
        kind = "figure" if m.group("figure") else "widget"
        key = (kind, m.group(kind))
        found[key] = found.get(key, b"") + text[m.start():_element_end(text, m.start())].encode("utf-8")
    for m in re.finditer(INLINE_IMAGE, text):
        alt = IMAGE_ALT.search(m.group(0))
        name = html.unescape(alt.group(1)) if alt else ""
        key = ("image", name if len(name) <= ALT_SHOWN else name[:ALT_SHOWN] + "…")
        found[key] = found.get(key, b"") + m.group(0).encode("utf-8")
    weighed = [(kind, name, len(data), len(_gzip(data))) for (kind, name), data in found.items()]
    return sorted(weighed, key=lambda item: (-item[2], item[0], item[1]))


def _element_end(text: str, start: int) -> int:
    """The end of the `<figure>` or `<div>` element that starts at `start` (elements of its own name nest)."""
    name, depth = TAG.match(text, start).group(2), 0
    for m in TAG.finditer(text, start):
        if m.group(2) != name:
            continue
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return text.index(">", m.end()) + 1
    return len(text)


def item_list(weighed: list[tuple[str, str, int, int]]) -> Message:
    """`figure `trace_2d` 13.2 KB (gzip 3.1 KB), widget `lr_explorer` …`, in the message language."""
    def one(kind: str, name: str, raw: int, gz: int) -> Message:
        size = {"name": name, "kb": f"{raw / 1024:.1f}", "gz": f"{gz / 1024:.1f}"}
        return {"figure": msg("figure `{name}` {kb} KB (gzip {gz} KB)", **size),
                "widget": msg("widget `{name}` {kb} KB (gzip {gz} KB)", **size),
                "image": msg("image 「{name}」 {kb} KB (gzip {gz} KB)", **size)}[kind]

    *rest, text = [one(*item) for item in weighed]
    for item in reversed(rest):
        text = msg("{first}, {rest}", first=item, rest=text)
    return text


def breakdown(parts: dict[str, int]) -> Message:
    """`figures 81.0 KB, maths 26.8 KB, …`, in the message language."""
    return joined([msg("{part} {kb} KB", part=_part_word(name), kb=f"{parts[name] / 1024:.1f}") for name in PART_NAMES])


def check_budget(raw: dict[str, int], gz: dict[str, int], budget: Budget, pages: dict[str, bytes] | None = None,
                 budgets: dict[str, Budget] | None = None) -> None:
    """Every page within its budget (`budgets`: a lesson's own, by page; else the site's); a page over it is named
    with its sizes, what they are made of and its figures and widgets, the heaviest first."""
    problems = []
    site_budget = budget
    for name in sorted(gz):
        budget = (budgets or {}).get(name, site_budget)
        over = []
        if raw[name] > budget.page_kb * 1024:
            over.append(msg("{size} KB raw > budget {limit} KB", size=f"{raw[name] / 1024:.1f}",
                            limit=f"{budget.page_kb:g}"))
        if gz[name] > budget.gzip_kb * 1024:
            over.append(msg("{size} KB gzip > budget {limit} KB", size=f"{gz[name] / 1024:.1f}",
                            limit=f"{budget.gzip_kb:g}"))
        if over and pages is not None and name in pages:
            over.append(msg("of which {parts}", parts=breakdown(weigh(pages[name]))))
            weighed = items(pages[name])
            if weighed:
                over.append(msg("figures, images and widgets, the heaviest first: {items}",
                                items=item_list(weighed)))
        if over:
            problems.append(Problem(Path(name), None, msg("page is over its weight budget: {over}", over=joined(over)),
                                    msg("at most {raw} KB raw and {gz} KB gzip ({source}); a budget is set by "
                                        "`budget:` with `page_kb` and `gzip_kb` in content/site.yaml for every page, "
                                        "or in a lesson's lesson.yaml for its page alone", raw=f"{budget.page_kb:g}",
                                        gz=f"{budget.gzip_kb:g}", source=budget.source)))
    if problems:
        raise ContentError(problems)
