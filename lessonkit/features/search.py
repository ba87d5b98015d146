"""Offline full-text search: the index the `search` component (themes/default/components/search/) reads in the page.

No server, no fetch: the build writes the index into the page as JSON (`<script type="application/json">`), and the
component's widget.js scans it as one types. Chinese has no spaces between words, so there are no words to index:
a query matches wherever its characters occur, like `in` on a string («置编» finds «位置编码»). A linear scan of the
section texts is fast enough (a 50-lesson course is well under a megabyte of text; see benchmarks/search_bench.py),
so the index is just the plain text of each section — no n-gram table to ship.

Folding (the same in Python and JS, one UTF-16 unit / BMP character at a time so positions never move): NFKC
(full-width Ｒｏｐｅ → Rope, ﬁ stays when it would grow) then lower case. A character whose folded form would not be
exactly one character is kept as it is. Whitespace runs become one space. The text shipped is the original (folded
only for comparison), so snippets show what the page shows.

Where the index lives (measured by benchmarks/search_bench.py): the whole course only on the index page; a lesson
page searches its own sections, whose text it already shows (the index there lists their ids and titles; the
component reads the text from the page with the same rules as plain_text), and links «在全部课程中搜索» to
`../index.html?q=…`. A course's text costs ~2.3 bytes per character raw, so the whole text fits the default page
budget (150 KiB raw, 40 KiB gzip) only for a handful of lessons: search_index_within() falls back to lesson and
section titles (the page says so) when the text does not fit the room the budget leaves.

    entries = [lesson_entry(context) for context in contexts]
    data = search_index_within(entries, raw_room, gzip_room)                        # index page
    data = search_index([lesson_entry(context)], here=context["slug"], root="../")    # that lesson's page
"""
from __future__ import annotations

import gzip
import re
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any, Iterable, Mapping

VERSION = 1
SNIPPET_BEFORE = 24          # characters of context before the first match …
SNIPPET_LENGTH = 90          # … and the whole snippet's length (the JS uses the same numbers, from the data)
MAX_RESULTS = 30

# ── plain text from rendered HTML ───────────────────────────────────────────────────────────────────────────────────
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SKIPPED_TAGS = {"script", "style", "svg", "template", "noscript", "button", "annotation"}
SKIPPED_CLASSES = {"print-only", "vh", "sec-num", "answer", "figure-data"}  # figure-data: the plotted numbers, not prose
BREAKS = {"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "td", "th", "table",
          "figcaption", "figure", "section", "article", "blockquote", "pre", "dt", "dd", "summary", "header"}
SPACE = re.compile(r"\s+")


class _Text(HTMLParser):
    """What a reader sees: no code, no SVG drawings, nothing print-only or screen-reader-only, no hidden answers."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0            # depth inside a skipped element, counting only tags of its name: end tags of
        self.skip_tag = ""       # cells and rows may be omitted inside it (figure data tables omit them)

    def _skipped(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        return tag in SKIPPED_TAGS or bool(classes & SKIPPED_CLASSES) or a.get("aria-hidden") == "true" \
            or "hidden" in a

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if tag == "br" and not self.skip:
                self.parts.append(" ")
            return
        if self.skip:
            self.skip += tag == self.skip_tag
        elif self._skipped(tag, attrs):
            self.skip, self.skip_tag = 1, tag
        elif tag in BREAKS:
            self.parts.append(" ")

    def handle_startendtag(self, tag, attrs):
        if tag == "br" and not self.skip:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.skip:
            self.skip -= tag == self.skip_tag
        elif tag in BREAKS:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def plain_text(html: str) -> str:
    """The visible text of rendered HTML on one line (whitespace runs → one space)."""
    reader = _Text()
    reader.feed(html)
    reader.close()
    return SPACE.sub(" ", "".join(reader.parts)).strip()


# ── folding ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def _fold_char(c: str) -> str:
    if ord(c) > 0xFFFF:                      # JS sees two surrogates and leaves them alone: so do we
        return c
    k = unicodedata.normalize("NFKC", c).lower()
    return k if len(k) == 1 and ord(k) <= 0xFFFF else c


_FOLD = {}


def fold(text: str) -> str:
    """Text for comparison, exactly as long as `text` (position i folds character i)."""
    out = []
    for c in text:
        k = _FOLD.get(c)
        if k is None:
            k = _FOLD[c] = SPACE.sub(" ", _fold_char(c))
        out.append(k)
    return "".join(out)


def terms(query: str) -> list[str]:
    """The folded query split at whitespace, longest first, duplicates and terms inside others dropped."""
    words = sorted(set(fold(SPACE.sub(" ", query)).split()), key=lambda w: (-len(w), w))
    kept: list[str] = []
    for w in words:
        if not any(w in k for k in kept):
            kept.append(w)
    return kept


# ── the index ───────────────────────────────────────────────────────────────────────────────────────────────────────
def lesson_entry(context: Mapping[str, Any], ui=None) -> dict:
    """{slug, title, sections} for search_index from the context lesson.html renders (site.lesson_context): the
    lesson's head (summary, intro, objectives, question) as a section without id (linking to the page's top), each
    section, each challenge's question (not its answer), the sources. `ui`: the UI strings naming challenges and
    sources (default: the default theme's, in the default language)."""
    if ui is None:
        from ..support.i18n import DEFAULT, load_ui
        from ..support.paths import PROJECT
        ui = load_ui([PROJECT / "themes" / "default"], DEFAULT)
    head = " ".join([context.get("summary") or "", context.get("intro") or "",
                     *[f"<li>{o}</li>" for o in context.get("objectives") or []], context.get("question") or ""])
    sections = [{"id": "", "title": context.get("title") or "", "html": head}]
    sections += [{"id": s["id"], "title": s["title"], "html": s["body"]} for s in context.get("sections") or []]
    sections += [{"id": c["id"], "title": f"{ui.challenge} {c['number']} · {c.get('title') or ''}", "html": c.get("question")}
                 for c in context.get("challenges") or []]
    if context.get("sources"):
        sections.append({"id": "sources", "title": ui.sources,
                         "html": "".join(f"<li>{s}</li>" for s in context["sources"])})
    return {"slug": context["slug"], "title": context.get("title") or context["slug"], "sections": sections}


def search_index(lessons: Iterable[Mapping[str, Any]], here: str | None = None, root: str = "",
                 all_url: str | None = None, from_page: bool | None = None, text: bool = True) -> dict:
    """The data of a `search` component.

    lessons: [{slug, title, url? (default "SLUG/index.html"), sections: [{id, title, text | html}]}] — title and
    html are rendered HTML (tags dropped), text is plain; a section with id "" stands for the page's top (added,
    titled with the lesson's title, when there is none).
    here: the slug of the lesson whose page this is (its links become "#id"; the component then searches this
    page and offers the whole course at all_url, default ROOT + "index.html"). root: the way from this page to
    the site's root ("" on the index page, "../" on a lesson page). from_page (default: when `here` is given): the
    text of this page's own sections that have an id is not copied into the index (null instead): the component
    reads it from the element with that id in the page, which already carries it — a lesson page's index then
    weighs a few hundred bytes instead of its whole text again. text=False: titles only (lesson and section
    titles, no section text: "titles_only": true), for a course whose text does not fit the page budget.

    Result (JSON-able): {"v", "scope": "site"|"lesson", "all"?, "before", "length", "max",
    "lessons": [[title, url]], "sections": [[lesson index, id, title, text | null]]}, urls relative to this page.
    """
    if from_page is None:
        from_page = here is not None
    out_lessons: list[list[str]] = []
    out_sections: list[list[Any]] = []
    for lesson in lessons:
        slug = lesson["slug"]
        url = "" if slug == here else root + (lesson.get("url") or f"{slug}/index.html")
        out_lessons.append([plain_text(lesson.get("title") or slug), url])
        n = len(out_lessons) - 1
        sections = list(lesson.get("sections") or [])
        if not any(not s.get("id") for s in sections):      # the lesson's title leads to its top
            sections.insert(0, {"id": "", "title": lesson.get("title") or slug, "text": ""})
        for s in sections:
            body = s["text"] if s.get("text") is not None else plain_text(s.get("html") or "")
            body = SPACE.sub(" ", body).strip() if text else ""
            title = plain_text(s.get("title") or "")
            if from_page and slug == here and s.get("id"):
                out_sections.append([n, s["id"], title, None])
            elif body or title:
                out_sections.append([n, s.get("id") or "", title, body])
    data = {"v": VERSION, "scope": "lesson" if here else "site", "before": SNIPPET_BEFORE,
            "length": SNIPPET_LENGTH, "max": MAX_RESULTS, "lessons": out_lessons, "sections": out_sections}
    if here:
        data["all"] = all_url or root + "index.html"
    if not text:
        data["titles_only"] = True
    return data


def index_json(data: Mapping[str, Any]) -> str:
    """The JSON text for `<script type="application/json">`, as the engine writes widget data (compact, UTF-8,
    `<`, `>`, `&` escaped so no lesson text can close the script element)."""
    from ..support.jsondata import json_for_script
    return json_for_script(data)


def index_sizes(data: Mapping[str, Any]) -> tuple[int, int]:
    """(raw bytes, gzip -9 bytes) of index_json(data): what it adds to a page, near enough (gzip is not additive
    to the byte, but the text of other lessons shares little with the page around it)."""
    raw = index_json(data).encode("utf-8")
    return len(raw), len(gzip.compress(raw, 9))


def search_index_within(lessons: Iterable[Mapping[str, Any]], raw_room: int, gzip_room: int, **kw) -> dict:
    """The whole course's index with text if it fits raw_room and gzip_room bytes (what the page budget leaves
    on the page that carries it), else titles only (see README of the component / the report)."""
    lessons = list(lessons)
    full = search_index(lessons, **kw)
    raw, gz = index_sizes(full)
    if raw <= raw_room and gz <= gzip_room:
        return full
    return search_index(lessons, text=False, **kw)


# ── the search itself (the reference the JS follows; used by tests and the benchmark) ─────────────────────────────
@dataclass
class Hit:
    lesson: str                         # lesson title
    section: str                        # section title
    url: str                            # url + "#" + id (or url alone for the top)
    title_marks: list[tuple[int, int]]  # (start, end) of matches in the section title
    snippet: str                        # a window of the text, "…" added where cut
    marks: list[tuple[int, int]]        # (start, end) of matches in snippet (… not counted)
    cut_before: bool
    cut_after: bool
    score: int


def _find_all(hay: str, needle: str) -> list[int]:
    found, i = [], hay.find(needle)
    while i >= 0:
        found.append(i)
        i = hay.find(needle, i + len(needle))
    return found


def _ranges(hay: str, words: list[str]) -> list[tuple[int, int]]:
    """Matches of every word, sorted, overlapping ones merged."""
    spans = sorted((i, i + len(w)) for w in words for i in _find_all(hay, w))
    merged: list[list[int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def link(data: Mapping[str, Any], lesson: int, section_id: str) -> str:
    url = data["lessons"][lesson][1]
    if section_id:
        return f"{url}#{section_id}"
    return url or "#"


def search(data: Mapping[str, Any], query: str) -> list[Hit]:
    """Every section where each query term occurs (in its text or its title; a lesson's title is the title of its
    top), best first: more terms in the section title, then more matches, then reading order."""
    words = terms(query)
    if not words:
        return []
    hits = []
    for order, (li, sid, title, text) in enumerate(data["sections"]):
        text = text or ""                     # null: the page's own text, which only the browser has
        lesson_title = data["lessons"][li][0]
        ft, fx = fold(title), fold(text)
        if not all(w in ft or w in fx for w in words):
            continue
        in_title = sum(w in ft for w in words)
        marks = _ranges(fx, words)
        start = 0
        if marks:
            first = marks[0][0]
            start = max(0, first - data["before"])
            end = min(len(text), start + data["length"])
            start = max(0, min(start, end - data["length"]))
        end = min(len(text), start + data["length"])
        inside = [(max(a, start) - start, min(b, end) - start) for a, b in marks if a < end and b > start]
        count = len(marks) + sum(len(_find_all(ft, w)) for w in words)
        hits.append((-in_title, -count, order, Hit(lesson_title, title, link(data, li, sid), _ranges(ft, words),
                                                     text[start:end], inside, start > 0, end < len(text), count)))
    hits.sort(key=lambda h: h[:3])
    return [h[3] for h in hits]
