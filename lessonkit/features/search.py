"""Offline full-text search: what the `search` component (lessonkit/themes/default/components/search/) searches,
made here.

No server, no fetch. Chinese has no spaces between words, so there are no words to index: a query matches wherever
its characters occur, like `in` on a string («置编» finds «位置编码»). A linear scan of the section texts is fast
enough (see benchmarks/search_bench.py), so the index is just the plain text of each section.

Each rule is written once:
- **What counts as text** (RULES: skipped tags, classes and attributes, the tags that break words, what is a space:
  a regular expression character class, the one syntax Python and JS share; and which characters are Chinese,
  support/cjk.py's) is defined here. plain_text() applies it to rendered HTML for the index; the same dict travels in the
  component's data (`rules`) to widget.js, whose reader of a lesson page's own sections applies it to the page.
- **Folding, ranking, snippets** exist only in widget.js. Folding (one UTF-16 unit at a time so positions never
  move: NFKC, then lower case, a unit whose fold would not be one unit kept as it is, a space of RULES → " ") has
  to run in the browser anyway — the query is typed there and a lesson page's text is read there — and nothing in
  Python compares text, so Python ships the original text and never folds: there is no second copy to drift.
  Tests and the benchmark drive the shipped widget.js in Chromium.

Where the index lives:
- **The course** (the index page's search): one script at the site root, INDEX_FILE, setting
  `lessonkit.searchIndex`. The index page carries only a few hundred bytes (where the file is, its integrity
  hash); the component adds `<script src>` for the file the first time someone types (or arrives with `?q=`), so
  the page weighs the same at 2 lessons or 200 and a reader who never searches never loads it. A script, not JSON
  fetched, because file:// allows a relative script but no fetch. Under the page's policy the script is allowed by
  its hash, which a browser matches against the `integrity` the component gives it, over http(s); from disk a
  browser cannot check integrity (Subresource Integrity needs CORS, which file:// lacks), so the component leaves
  it off there and the policy also allows `file:` (which matches nothing on a page served over http).
  course_index() returns the file and the component's data; csp_sources() what that page's policy must add.
- **A lesson page** searches its own sections, whose text it already shows: its data lists their ids and titles
  with text null, and the component reads each one's text from the element with that id (minus the heading that
  labels it, `aria-labelledby`: that is the section's title) by RULES. The lesson's head (summary, intro,
  objectives, question), its challenges' questions (the page shows answers and self-checks there too) and its
  sources are shipped as text (short). It links «在全部课程中搜索» to `../index.html?q=…`.

    entries = [lesson_entry(context, ui) for context in contexts]
    course = course_index(entries)            # index page: data course.box, file INDEX_FILE = course.script,
    sources = csp_sources(course.box)         #   its policy's script-src + sources
    data = search_index([entries[i]], here=entries[i]["slug"], root="../")     # that lesson's page
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import re
from html import unescape
from html.parser import HTMLParser
from typing import Any, Iterable, Mapping

from ..support.cjk import HAN
from ..support.paths import SitePaths
from ..support.records import Record

VERSION = 2
INDEX_FILE = SitePaths.SEARCH_INDEX  # the course's index, at the site root
SNIPPET_BEFORE = 24              # characters of context before the first match …
SNIPPET_LENGTH = 90              # … and the whole snippet's length (the JS reads them from the data)
MAX_RESULTS = 30

# ── what counts as text: the rules plain_text applies here and widget.js applies to a lesson page ─────────────────
SKIPPED_TAGS = ("annotation", "button", "noscript", "script", "style", "svg", "template")
SKIPPED_CLASSES = ("answer", "figure-data", "print-only", "sec-num", "vh")  # figure-data: plotted numbers and their
                                                                          # CSV links, not prose
SKIPPED_ATTRIBUTES = {"aria-hidden": "true", "hidden": None}             # name → value (None: any value)
BREAKS = ("article", "blockquote", "br", "dd", "div", "dt", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5",
          "h6", "header", "li", "ol", "p", "pre", "section", "summary", "table", "td", "th", "tr", "ul")
SPACES = (r"\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000")  # what
# str.isspace() calls a space, as the inside of a regular expression's [character class] both Python and JS read
# and the Chinese characters (support/cjk.py), which folding leaves as they are: widget.js folds only other characters
RULES = {"skip_tags": list(SKIPPED_TAGS), "skip_classes": list(SKIPPED_CLASSES),
         "skip_attributes": dict(SKIPPED_ATTRIBUTES), "breaks": list(BREAKS), "spaces": SPACES, "han": HAN}

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SPACE_RUN = re.compile(f"[{SPACES}]+")


class _Text(HTMLParser):
    """What a reader sees: no code, no SVG drawings, nothing print-only or screen-reader-only, no hidden answers."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0            # depth inside a skipped element, counting only tags of its name: end tags of
        self.skip_tag = ""       # cells and rows may be omitted inside it (figure data tables omit them)

    @staticmethod
    def _skipped(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        return tag in SKIPPED_TAGS or any(c in SKIPPED_CLASSES for c in classes) or any(
            name in a and (value is None or a[name] == value) for name, value in SKIPPED_ATTRIBUTES.items())

    def handle_starttag(self, tag, attrs):
        if self.skip:
            self.skip += tag == self.skip_tag and tag not in VOID
        elif self._skipped(tag, attrs):
            if tag not in VOID:
                self.skip, self.skip_tag = 1, tag
        elif tag in BREAKS:
            self.parts.append(" ")

    def handle_startendtag(self, tag, attrs):
        """`<br/>`: a break; `<x/>` otherwise an empty element (as SVG and MathML write them)."""
        if not self.skip and tag in BREAKS and not self._skipped(tag, attrs):
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if self.skip:
            self.skip -= tag == self.skip_tag
        elif tag in BREAKS and tag not in VOID:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


# Well-formed markup, as Markdown and the theme write it, read the way HTMLParser reads it (names in lower case,
# attribute values unquoted and unescaped, comments dropped, script and style bodies as raw text): _well_formed hands
# the tags to the reader's own handlers, ≈3× faster than HTMLParser's general tokenizer; anything else (a declaration,
# a lone `<`) is HTMLParser's to read.
TAG = re.compile(r"""<(?:/(?P<end>[a-zA-Z][-.a-zA-Z0-9:_]*)\s*>|!--.*?--\s*>"""
                 r"""|(?P<start>[a-zA-Z][-.a-zA-Z0-9:_]*)(?P<attributes>(?:\s+[a-zA-Z_:][-.a-zA-Z0-9_:]*"""
                 r"""(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(?P<empty>/?)>)""", re.S)
ATTRIBUTE = re.compile(r"""([a-zA-Z_:][-.a-zA-Z0-9_:]*)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
RAW_END = {"script": re.compile(r"</\s*script\s*>", re.I), "style": re.compile(r"</\s*style\s*>", re.I)}


def plain_text(html: str) -> str:
    """The visible text of rendered HTML on one line (runs of SPACES → one space)."""
    if "<" not in html and "&" not in html:  # no tags, no character references: the text is the HTML
        return collapse(html)
    reader = _Text()
    if not _well_formed(html, reader):
        reader = _Text()
        reader.feed(html)
        reader.close()
    return collapse("".join(reader.parts))


def _well_formed(html: str, reader: _Text) -> bool:
    """Feed `reader` the tags and text of `html`; False (the reader half fed) at anything but well-formed tags."""
    i = 0
    while (tag := TAG.search(html, i)) is not None:
        text = html[i:tag.start()]
        if "<" in text:
            return False
        if text:
            reader.handle_data(unescape(text))
        i = tag.end()
        if tag.group("end"):
            reader.handle_endtag(tag.group("end").lower())
        elif tag.group("start"):
            name, written = tag.group("start").lower(), tag.group("attributes")
            # (the reader looks only at SKIPPED_CLASSES and SKIPPED_ATTRIBUTES: a tag without those names has none
            # it reads)
            attributes = _attributes(written) if "class" in written.lower() or "hidden" in written.lower() else []
            if tag.group("empty"):
                reader.handle_startendtag(name, attributes)
                continue
            reader.handle_starttag(name, attributes)
            if name in RAW_END:  # its body is text, up to its end tag
                raw_end = RAW_END[name].search(html, i)
                if raw_end is None:
                    return False
                if i < raw_end.start():
                    reader.handle_data(html[i:raw_end.start()])
                reader.handle_endtag(name)
                i = raw_end.end()
    if "<" in html[i:]:
        return False
    if i < len(html):
        reader.handle_data(unescape(html[i:]))
    return True


def _attributes(text: str) -> list[tuple[str, str | None]]:
    found = []
    for m in ATTRIBUTE.finditer(text):
        value = m.group(2)
        if value is not None and value[:1] in "\"'" and value[:1] == value[-1:] and len(value) > 1:
            value = value[1:-1]
        found.append((m.group(1).lower(), unescape(value) if value else value))
    return found


def collapse(text: str) -> str:
    return SPACE_RUN.sub(" ", text).strip(" ")


# ── the index ───────────────────────────────────────────────────────────────────────────────────────────────────────
def lesson_entry(context: Mapping[str, Any], ui=None) -> dict:
    """{slug, title, sections} for search_index from the context lesson.html renders (render/lesson.py render_lesson):
    the lesson's head (summary, intro, objectives, question) as a section without id (linking to the page's top),
    each section (`page`: its element on the lesson page holds its heading and exactly this text, so that page
    reads its text there), each challenge's question (not its answer), the sources. `ui`: the UI strings naming
    challenges and sources (default: the default theme's, in the default language)."""
    if ui is None:
        from ..support.i18n import DEFAULT, load_ui
        from ..support.paths import BUILTIN_THEMES
        ui = load_ui([BUILTIN_THEMES / "default"], DEFAULT)
    head = " ".join([context.get("summary") or "", context.get("intro") or "",
                     *[f"<li>{o}</li>" for o in context.get("objectives") or []], context.get("question") or ""])
    sections = [("", context.get("title") or "", head, False)]
    sections += [(s["id"], s["title"], s, True) for s in context.get("sections") or []]
    sections += [(c["id"], f"{ui.challenge} {c['number']} · {c.get('title') or ''}", c.get("question"), False)
                 for c in context.get("challenges") or []]
    if context.get("sources"):
        sections.append(("sources", ui.sources, "".join(f"<li>{s}</li>" for s in context["sources"]), False))
    # bodies read as text once: here, or a lesson.md section's when it was rendered (its `text`, which the section
    # memo keeps: render/sectionmemo.py); the course's index and the page's own take it (a kept lesson's too)
    return {"slug": context["slug"], "title": context.get("title") or context["slug"],
            "sections": [{"id": i, "title": title, "text": _text_of(body), **({"page": True} if page else {})}
                         for i, title, body, page in sections]}


def _text_of(body: str | Mapping[str, Any] | None) -> str:
    """The plain text of rendered HTML, or of a lesson.md section (its `text` when it has one, else its body)."""
    if isinstance(body, Mapping):
        return body["text"] if isinstance(body.get("text"), str) else plain_text(body.get("body") or "")
    return plain_text(body or "")


def search_index(lessons: Iterable[Mapping[str, Any]], here: str | None = None, root: str = "",
                 all_url: str | None = None, from_page: bool | None = None) -> dict:
    """The data of a `search` component that carries its sections.

    lessons: [{slug, title, url? (default "SLUG/index.html"), sections: [{id, title, text | html, page?}]}] —
    title and html are rendered HTML (tags dropped), text is plain; a section with id "" stands for the page's top
    (added, titled with the lesson's title, when there is none).
    here: the slug of the lesson whose page this is (its links become "#id"; the component then searches this
    page and offers the whole course at all_url, default ROOT + "index.html"). root: the way from this page to
    the site's root ("" on the index page, "../" on a lesson page). from_page (default: when `here` is given): the
    text of this page's own sections marked `page` is not copied into the index (null instead): the component
    reads it from the element with that id, which already carries it — a lesson page's index then weighs a few
    hundred bytes instead of its whole text again.

    Result (JSON-able): {"v", "scope": "site"|"lesson", "all"?, "before", "length", "max", "rules",
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
            title = plain_text(s.get("title") or "")
            if from_page and slug == here and s.get("id") and s.get("page"):
                out_sections.append([n, s["id"], title, None])
                continue
            body = collapse(s["text"]) if s.get("text") is not None else plain_text(s.get("html") or "")
            if body or title:
                out_sections.append([n, s.get("id") or "", title, body])
    data = {"v": VERSION, "scope": "lesson" if here else "site", "before": SNIPPET_BEFORE,
            "length": SNIPPET_LENGTH, "max": MAX_RESULTS, "rules": RULES, "lessons": out_lessons,
            "sections": out_sections}
    if here:
        data["all"] = all_url or root + "index.html"
    return data


# ── the course's index, in its own file ─────────────────────────────────────────────────────────────────────────────
class CourseIndex(Record):
    script: str          # the text of INDEX_FILE
    box: dict            # the data of the component on the page that loads it


def course_index(lessons: Iterable[Mapping[str, Any]], root: str = "") -> CourseIndex:
    """The whole course's index as INDEX_FILE, and the data of a search component that loads it when someone
    searches: search_index's data without lessons and sections, plus `load` {src, integrity} (src: ROOT +
    INDEX_FILE + `?v=` part of its hash, so a browser never pairs a page with a cached older file)."""
    data = search_index(lessons)
    script = index_script({"v": data["v"], "lessons": data.pop("lessons"), "sections": data.pop("sections")})
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    version = base64.urlsafe_b64encode(digest[:6]).decode("ascii")
    data["load"] = {"src": f"{root}{INDEX_FILE}?v={version}",
                    "integrity": "sha256-" + base64.b64encode(digest).decode("ascii")}
    return CourseIndex(script, data)


def csp_sources(data: Mapping[str, Any]) -> list[str]:
    """What the script-src of the page carrying a component with `data` adds: for the index it loads, its hash
    (matched with the integrity the component sets over http) and `file:` (from disk, where integrity cannot be
    checked); nothing for a component that carries its sections."""
    load = data.get("load")
    return [f"'{load['integrity']}'", "file:"] if load else []


def index_json(data: Mapping[str, Any]) -> str:
    """The JSON text for `<script type="application/json">`, as the engine writes widget data (compact, UTF-8,
    `<`, `>`, `&` escaped so no lesson text can close the script element)."""
    from ..support.jsondata import json_for_script
    return json_for_script(data)


def index_script(index: Mapping[str, Any]) -> str:
    """INDEX_FILE's text: a script setting lessonkit.searchIndex to `index` (JSON is a JavaScript expression; the
    line and paragraph separators escaped for engines older than ES2019)."""
    body = index_json(index).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"lessonkit.searchIndex={body};\n"


def sizes(text: str) -> tuple[int, int]:
    """(raw bytes, gzip -9 bytes) of a text as a server would send it."""
    raw = text.encode("utf-8")
    return len(raw), len(gzip.compress(raw, 9))
