"""Citations: `content/references.bib` (BibTeX, read with bibtexparser) and a lesson's own
`content/<slug>/references.bib`, `[@key]` / `[@key1; @key2]` / `[@key, 第 2.3 节]` in lesson.md and in the Markdown
of lesson.yaml, a narrative `@key` (the authors and the entry's year, then its number: 「Press 等（2022）[3]」,
"Press et al. (2022) [3]"; in the glossary's definitions without a number), and each lesson's numbered 参考文献.

    syntax   CITATION: both forms, the one pattern render/markup.py's inline syntax and this module's scan use.

    load     load_references(content, problems, cache): the course's .bib file as plain `Reference`s, each with its
             line; its mistakes (an entry that does not parse, a key twice, an entry without a title) at
             references.bib:LINE. Parsed once per version of the file: the result is kept in the build's cache
             (the store's REFERENCES), so a warm build never imports the parser. lesson_references(course, folder,
             …): the course's entries and those of the lesson's own references.bib, a key in both an error naming
             both files and lines.
    model    numbering(texts): the keys in the order a reader meets them (GB/T 7714's 顺序编码制: numbered by first
             citation), from the lesson's texts in page order, code never searched.
    place    Citer.cite(body) → the links `[1, 3–5]` (or a Miss: an unknown key with did-you-mean, a citation that
             cannot be read); Citer.narrative(key) → 「Press 等（2022）[3]」; Citer.entries() → the lesson's
             bibliography, each entry as runs of text.
    format   entry_runs(reference, ui): the entry in the style the site's language names (`ui.reference_style`):
             `gb7714` (GB/T 7714-2015, numeric) or `numbered` (the common numbered style of English papers), in the
             theme's words (et al., 等, vol., pp. …); runs are (text, kind) pairs: "" plain, "i" italic, "a URL" a link,
             which the page (HTML) and the notebook (Markdown) each write in their own syntax.
"""
from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..support.errors import Miss, Problem
from ..support.messages import msg, reason
from ..support.store import REFERENCES
from ..support.suggest import did_you_mean

BIB_FILE = "references.bib"
# `[@key]`, `[@a; @b]`, `[@key, locator]`; and a key alone, `@key` (Pandoc's author-in-text form), with a locator
# `@key [第 2.3 节]`: a letter, digit or _, then those and inner punctuation (`@Boyd.Vandenberghe.2004。` ends at the
# 4), not after a Latin letter or digit (an e-mail address), never `@fig:` / `@eq:` / `@lesson:` (references of
# their own)
KEY = r"[A-Za-z0-9_](?:[A-Za-z0-9_]|[:.#$%&+?~/-](?=[A-Za-z0-9_]))*"
CITATION = re.compile(r"(?P<cite>\[(?P<cite_body>@(?!fig:|lesson:|eq:)[^\[\]\n]*)\](?!\())"
                      rf"|(?P<narrative>(?<![A-Za-z0-9_@.\[\\])@(?!fig:|lesson:|eq:)(?P<cite_key>{KEY})"
                      r"(?: ?\[(?P<cite_locator>[^\[\]@\n]+)\](?!\())?)")
ITEM = re.compile(r"^\s*@(?P<key>[^\s;,@\[\]{}]+)\s*(?:,\s*(?P<locator>[^;]*?))?\s*$")
CODE_SPAN = re.compile(r"(`+).+?\1", re.S)
FORMAT = "citations-2"          # the cached form of a parsed file; bump when Reference changes
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Name:
    first: str          # given names as written ("Ming-Wei", "Jimmy Lei")
    last: str           # family name with its particle ("Le Scao", "van der Maaten")
    jr: str = ""
    corporate: bool = False  # `{BigScience Workshop}`: a body's name, written as it is


@dataclass(frozen=True)
class Reference:
    key: str
    kind: str                         # the entry type in lower case: article, inproceedings, misc …
    fields: dict[str, str]            # LaTeX decoded to text; names are in `authors`/`editors`
    authors: tuple[Name, ...]
    editors: tuple[Name, ...]
    more_authors: bool                # the list ended with `and others`
    line: int


@dataclass
class Bibliography:
    path: Path
    entries: dict[str, Reference] = field(default_factory=dict)
    unread: bool = False              # a file could not be read at all (reported there)
    digest: str = ""                  # of the files' bytes and their reading (what a notebook's cache key names)


# ── load ────────────────────────────────────────────────────────────────────────────────────────────────────────────
def load_references(content_dir: Path, problems: list[Problem], cache=None) -> Bibliography | None:
    """content/references.bib, or None when the course has none. Problems go to `problems`."""
    return _load_bib(content_dir / BIB_FILE, problems, cache)


def lesson_references(course: Bibliography | None, folder: Path, problems: list[Problem],
                      cache=None) -> Bibliography | None:
    """What a lesson cites from: the course's references.bib and the lesson's own (`content/<slug>/references.bib`)
    together; a key in both is a problem at the lesson's entry that names the course's (each key means one work)."""
    own = _load_bib(folder / BIB_FILE, problems, cache)
    if own is None:
        return course
    if course is None:
        return own
    for key in sorted(own.entries.keys() & course.entries.keys(), key=lambda k: own.entries[k].line):
        problems.append(Problem(own.path, own.entries[key].line,
                                msg("entry key `{key}` is also in {file} (line {line})", key=key,
                                    file=f"{course.path.parent.name}/{BIB_FILE}", line=course.entries[key].line),
                                msg("each key in one file: the lesson's {file} adds entries to the course's, it "
                                    "does not replace them", file=BIB_FILE)))
    return Bibliography(own.path, {**course.entries, **own.entries}, course.unread or own.unread,
                        hashlib.sha256(f"{course.digest}\0{own.digest}".encode()).hexdigest())


def _load_bib(path: Path, problems: list[Problem], cache=None) -> Bibliography | None:
    if not path.is_file():
        return None
    try:
        data = path.read_bytes()
        text = data.decode("utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(path, None, msg("cannot read the bibliography: {reason}", reason=reason(exc)),
                                "a UTF-8 BibTeX file"))
        return Bibliography(path, unread=True)
    key = _cache_key(data)
    saved = cache.get_json(REFERENCES, key) if cache is not None else None
    if not (isinstance(saved, dict) and saved.get("format") == FORMAT):
        saved = {"format": FORMAT, **parse_bibtex(text)}
        if cache is not None:
            cache.put_json(REFERENCES, key, saved)
    problems += _problems(path, saved)
    entries = {e["key"]: _reference(e) for e in saved["entries"]}
    return Bibliography(path, entries, digest=key)


def _cache_key(data: bytes) -> str:
    from ..support.cachekeys import engine_source_digest, package_version

    h = hashlib.sha256(f"{FORMAT}\0bibtexparser {package_version('bibtexparser')}\0".encode())
    h.update(engine_source_digest().encode())
    h.update(data)
    return h.hexdigest()


def _reference(saved: dict) -> Reference:
    return Reference(saved["key"], saved["kind"], dict(saved["fields"]),
                     tuple(Name(*n) for n in saved["authors"]), tuple(Name(*n) for n in saved["editors"]),
                     saved["more_authors"], saved["line"])


def parse_bibtex(text: str) -> dict[str, Any]:
    """{"entries": [plain entry], "problems": [(line, message, expected)]}: plain data, so it can be cached."""
    import logging

    import bibtexparser
    from bibtexparser import middlewares

    logger = logging.getLogger("bibtexparser")
    quiet = logger.disabled
    logger.disabled = True  # its warnings repeat what the problems below say, at its own lines
    try:
        library = bibtexparser.parse_string(text, append_middleware=[
            middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()])
    finally:
        logger.disabled = quiet
    entries = [_plain_entry(entry, entry.start_line + 1) for entry in library.entries]
    failed = [(block.start_line + 1, getattr(block, "key", None) if type(block).__name__ == "DuplicateBlockKeyBlock"
               else None) for block in library.failed_blocks]
    return {"entries": entries, "failed": failed}


def _problems(path: Path, saved: dict[str, Any]) -> list[Problem]:
    """What is wrong in the file, from its reading (plain data, as cached): entries without a title, duplicate keys,
    entries that could not be read."""
    problems, firsts = [], {}
    for entry in saved["entries"]:
        firsts.setdefault(entry["key"], entry["line"])
        if not entry["fields"].get("title"):
            problems.append(Problem(path, entry["line"], msg("entry `{key}` has no title", key=entry["key"]),
                                    "a `title = {…}` field"))
    for line, duplicate in saved["failed"]:
        if duplicate is not None:
            first = firsts.get(duplicate)
            problems.append(Problem(path, line, msg("duplicate entry key `{key}` (first at line {line})", key=duplicate,
                                                    line=first) if first else
                                    msg("duplicate entry key `{key}`", key=duplicate), "each key once"))
        else:
            problems.append(Problem(path, line, msg("cannot read this BibTeX entry"),
                                    "`@type{key, field = {value}, …}` with its braces balanced and fields separated "
                                    "by commas"))
    return sorted(problems, key=lambda p: p.line or 0)


def _plain_entry(entry, line: int) -> dict[str, Any]:
    fields, names = {}, {"author": [], "editor": []}
    more = False
    for f in entry.fields:
        name = f.key.lower()
        if name in names and isinstance(f.value, list):
            people = [n for n in f.value if not (n.last == ["others"] and not n.first)]
            more = more or (name == "author" and len(people) < len(f.value))
            names[name] = [_name(n) for n in people]
        else:
            fields[name] = latex_text(str(f.value))
    return {"key": entry.key, "kind": entry.entry_type.lower(), "fields": fields, "authors": names["author"],
            "editors": names["editor"], "more_authors": more, "line": line}


def _name(parts) -> list:
    last = " ".join([*parts.von, *parts.last])
    corporate = not parts.first and last.startswith("{") and last.endswith("}")
    return [latex_text(" ".join(parts.first)), latex_text(last), latex_text(" ".join(parts.jr)), corporate]


def latex_text(value: str) -> str:
    """BibTeX's LaTeX as plain text: accents (`{\\L}ukasz` → Łukasz), protective braces (`{BERT}` → BERT), `--`."""
    if not re.search(r"[\\{}~$]", value):
        return re.sub(r"\s+", " ", value).strip()
    from pylatexenc.latex2text import LatexNodes2Text

    return re.sub(r"\s+", " ", LatexNodes2Text().latex_to_text(value)).strip()


# ── model: the order a reader meets the citations ───────────────────────────────────────────────────────────────────
def keys_in(text: str) -> list[str]:
    """The keys cited in a text block of lesson Markdown (as load/plan.py parsed it: code blocks are blocks of
    their own), in order; code spans are never searched."""
    return [key for m in CITATION.finditer(CODE_SPAN.sub("", text)) for key in keys_of(m)]


def keys_of(m: re.Match) -> list[str]:
    """The keys of one CITATION match, in order."""
    if m.group("narrative"):
        return [m.group("cite_key")]
    return [item.group("key") for item in map(ITEM.match, m.group("cite_body").split(";")) if item]


def numbering(texts: Iterable[str]) -> dict[str, int]:
    """key → its number: 1 for the first key a reader meets, and so on."""
    numbers: dict[str, int] = {}
    for text in texts:
        for key in keys_in(text):
            numbers.setdefault(key, len(numbers) + 1)
    return numbers


# ── place ───────────────────────────────────────────────────────────────────────────────────────────────────────────
class Citer:
    """One lesson's citations: numbers in reading order (a key met only where the scan did not look gets the next
    number when it is placed), links to its bibliography, and the bibliography itself."""

    def __init__(self, bibliography: Bibliography | None, numbers: dict[str, int], ui=None):
        self.bibliography, self.ui = bibliography, ui
        self.numbers = {k: n for k, n in numbers.items() if bibliography and k in bibliography.entries}
        self.numbers = {k: i for i, k in enumerate(sorted(self.numbers, key=self.numbers.get), start=1)}
        self.cited: dict[str, None] = {}

    def cite(self, body: str) -> str | Miss:
        """The HTML of one `[@…]`: numbered links, consecutive runs of three or more as a range."""
        items = [ITEM.match(part) for part in body.split(";")]
        if not body.strip() or not all(items):
            return Miss(msg("cannot read the citation `{citation}`", citation=f"[{body}]"),
                        "`[@key]`, `[@key1; @key2]` or `[@key, locator]` with keys from content/references.bib")
        missing = self._unknown([item.group("key") for item in items], f"[@{items[0].group('key')}]")
        if missing is not None:
            return missing
        if self.bibliography.unread:
            return "[?]"
        for item in items:
            self._count(item.group("key"))
        return self.shown(body, lambda n: f'<a class="cite" href="#ref-{n}">{n}</a>', html.escape)

    def narrative(self, key: str, locator: str | None = None) -> str | Miss:
        """The HTML of one `@key`: the authors and year, then the entry's numbered link (「Press 等（2022）[3]」),
        with its locator (`@key [第 2 节]`: 「[3, 第 2 节]」)."""
        missing = self._unknown([key], f"@{key}")
        if missing is not None:
            return missing
        if self.bibliography.unread:
            return html.escape(f"@{key}")
        found = author_year(self.bibliography.entries[key], self.ui)
        if isinstance(found, Miss):
            return found
        self._count(key)
        return self.narrative_shown(key, lambda n: f'<a class="cite" href="#ref-{n}">{n}</a>', html.escape, locator)

    def narrative_shown(self, key: str, number, text=str, locator: str | None = None) -> str:
        """A narrative citation the page placed, written with `number(n)` and `text(…)` (the notebook: plain)."""
        found = author_year(self.bibliography.entries[key], self.ui) \
            if self.bibliography is not None and key in self.bibliography.entries and key in self.numbers else None
        if not isinstance(found, str):
            return text(f"@{key}")
        where = f", {text(locator.strip())}" if locator else ""
        return self.ui.cite_narrative.format(author_year=text(found), number=f"[{number(self.numbers[key])}{where}]")

    def _unknown(self, keys: list[str], citation: str) -> Miss | None:
        """Why these keys cannot be cited here, or None."""
        if self.bibliography is None:
            return Miss(msg("citation `{citation}` but there is no content/references.bib", citation=citation),
                        msg("a BibTeX file content/references.bib next to the lesson folders, or references.bib in "
                            "the lesson's folder"))
        known = self.bibliography.entries
        for key in keys:
            if key not in known and not self.bibliography.unread:
                shown = ", ".join(sorted(known)[:12]) + (", …" if len(known) > 12 else "")
                return Miss(msg("unknown citation key `@{key}`{hint}", key=key, hint=did_you_mean(key, known)),
                            msg("a key of content/references.bib or the lesson's references.bib: {keys}",
                                keys=shown or msg("none")))
        return None

    def _count(self, key: str) -> None:
        self.cited.setdefault(key, None)
        self.numbers.setdefault(key, len(self.numbers) + 1)

    def shown(self, body: str, number, text=str) -> str:
        """A citation the page placed, written with `number(n)` for each number and `text(…)` for its locators
        (the page: links; the notebook: plain numbers): `[1, 3]`, `[2–4]`, `[5, 第 2.3 节]`."""
        items = [ITEM.match(part) for part in body.split(";")]
        if any(item is None or item.group("key") not in self.numbers for item in items):
            return text(f"[{body}]")
        if any(item.group("locator") for item in items):  # each with its own page or section, in the order written
            parts = [number(self.numbers[i.group("key")]) + (f", {text(i.group('locator'))}" if i.group("locator")
                                                             else "") for i in items]
        else:
            parts = []
            for run in _runs(sorted({self.numbers[i.group("key")] for i in items})):
                parts += [f"{number(run[0])}–{number(run[-1])}"] if len(run) >= 3 else [number(n) for n in run]
        return "[" + ", ".join(parts) + "]"

    def entries(self, ui) -> list[dict[str, Any]]:
        """The bibliography: each cited entry with its number and its runs, in number order."""
        cited = sorted(self.cited, key=self.numbers.get)
        return [{"number": self.numbers[k], "id": f"ref-{self.numbers[k]}", "key": k,
                 "runs": entry_runs(self.bibliography.entries[k], ui)} for k in cited]


def _runs(numbers: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def runs_html(runs: list[tuple[str, str]]) -> str:
    out = []
    for text, kind in runs:
        text = html.escape(text)
        if kind == "i":
            out.append(f"<i>{text}</i>")
        elif kind.startswith("a "):
            out.append(f'<a href="{html.escape(kind[2:])}">{text}</a>')
        else:
            out.append(text)
    return "".join(out)


def runs_markdown(runs: list[tuple[str, str]]) -> str:
    out = []
    for text, kind in runs:
        text = re.sub(r"([\\`*_\[\]<>])", r"\\\1", text)
        out.append(f"*{text}*" if kind == "i" else f"[{text}]({kind[2:]})" if kind.startswith("a ") else text)
    return "".join(out)


def author_year_only(bibliography: Bibliography | None, ui):
    """`@key` where no bibliography is printed (the glossary's definitions): the authors and year alone."""
    def shown(key: str, locator: str | None = None) -> str | Miss:
        if bibliography is None or key not in bibliography.entries:
            known = bibliography.entries if bibliography else {}
            return Miss(msg("unknown citation key `@{key}`{hint}", key=key, hint=did_you_mean(key, known)),
                        msg("a key of content/references.bib: {keys}", keys=", ".join(sorted(known)) or msg("none")))
        found = author_year(bibliography.entries[key], ui)
        return found if isinstance(found, Miss) else html.escape(found + (f" [{locator.strip()}]" if locator else ""))
    return shown


# ── format ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def author_year(ref: Reference, ui) -> str | Miss:
    """「Press 等（2022）」, "Press et al. (2022)": the family names (one; two joined; the first and «et al.» for three
    or more, or a list ending `and others`) and the entry's year, in the site's words."""
    names = ref.authors or ref.editors
    if not names:
        return Miss(msg("entry `{key}` has no author, which `@{key}` shows", key=ref.key),
                    msg("an `author = {…}` field, or the citation `[@{key}]`", key=ref.key))
    if not ref.fields.get("year"):
        return Miss(msg("entry `{key}` has no year, which `@{key}` shows", key=ref.key),
                    msg("a `year = {…}` field, or the citation `[@{key}]`", key=ref.key))
    family = [_family_name(n) for n in names]
    if len(family) == 1 and not ref.more_authors:
        authors = family[0]
    elif len(family) == 2 and not ref.more_authors:
        authors = ui.cite_two_authors.format(first=family[0], second=family[1])
    else:
        authors = ui.cite_many_authors.format(first=family[0])
    text = ui.cite_author_year.format(authors=authors, year=ref.fields["year"])
    return re.sub(rf"(?<={CJK.pattern}) (?={CJK.pattern})", "", text)  # 李航和张三: no space between Chinese words


def _family_name(name: Name) -> str:
    """How a narrative citation names a person: the family name with its particle (van der Maaten); a body's name
    or a Chinese name whole (李航)."""
    if name.corporate:
        return name.last.strip("{}")
    if CJK.search(name.last + name.first):
        return name.last + name.first
    return name.last


def entry_runs(ref: Reference, ui) -> list[tuple[str, str]]:
    style = ui.reference_style
    return gb7714(ref, ui) if style == "gb7714" else numbered(ref, ui)


GB_TYPES = (("article", "J"), ("inproceedings", "C"), ("conference", "C"), ("proceedings", "C"), ("book", "M"),
            ("inbook", "M"), ("incollection", "M"), ("techreport", "R"), ("phdthesis", "D"), ("mastersthesis", "D"),
            ("online", "EB/OL"), ("misc", "Z"), ("unpublished", "Z"))  # GB/T 7714-2015's codes of document types


def gb7714(ref: Reference, ui) -> list[tuple[str, str]]:
    """GB/T 7714-2015, 顺序编码制: `VASWANI A, SHAZEER N, PARMAR N, et al. 题名[C]//会议录. 2017: 1-10.`"""
    f, kind = ref.fields, ref.kind
    code = dict(GB_TYPES).get(kind, "Z")
    url = _url(ref)
    if code == "Z" and url:
        code = "EB/OL"
    runs: list[tuple[str, str]] = []
    names = _gb_names(ref.authors, ref.more_authors, ui)
    if names:
        runs.append((names.rstrip(".") + ". ", ""))  # «et al.» ends with its own full stop
    runs.append((f"{f.get('title', '')}[{code}]", ""))
    pages = f.get("pages", "").replace("--", "-").replace("–", "-")
    place = ": ".join(filter(None, [f.get("address", ""), f.get("publisher", "") or f.get("institution", "")
                                    or f.get("school", "")]))
    year = f.get("year", "")
    if code == "J":
        volume = f.get("volume", "") + (f"({f['number']})" if f.get("number") else "")
        tail = ", ".join(filter(None, [f.get("journal", ""), year, volume]))
        runs.append((". " + tail + (f": {pages}" if pages else ""), ""))
    elif code == "C" or kind == "incollection":
        if f.get("booktitle"):
            runs.append(("//" + f["booktitle"], ""))
        runs.append((". " + ", ".join(filter(None, [place, year])) + (f": {pages}" if pages else ""), ""))
    elif code == "EB/OL":
        runs.append((". " + (f"({year})" if year else "") + (f"[{f['urldate']}]" if f.get("urldate") else ""), ""))
        runs += [(". " if year or f.get("urldate") else " ", ""), (url, f"a {url}")]
        return runs + [(".", "")]
    else:
        runs.append((". " + ", ".join(filter(None, [place, year])), ""))
    runs.append((".", ""))
    return runs + _identifiers(ref, " ", ".")


def _gb_names(names: tuple[Name, ...], more: bool, ui) -> str:
    """At most three, then 「, 等」 (a Chinese work) or 「, et al.」; family names in capitals, initials without dots."""
    shown = [_gb_name(n) for n in names[:3]]
    if (len(names) > 3 or more) and shown:
        chinese = any(CJK.search(n.last + n.first) for n in names)
        shown.append(ui.ref_et_al_cjk if chinese else ui.ref_et_al)
    return ", ".join(shown)


def _gb_name(name: Name) -> str:
    if name.corporate:
        return name.last.strip("{}")
    if CJK.search(name.last + name.first):
        return name.last + name.first
    initials = " ".join(_initials(name.first, dots=False))
    return " ".join(filter(None, [name.last.upper(), initials, name.jr]))


def numbered(ref: Reference, ui) -> list[tuple[str, str]]:
    """The numbered style of English papers: `A. Vaswani, N. Shazeer, and I. Polosukhin, “Title,” in <i>Venue</i>,
    2017, pp. 1–10.`"""
    f, kind = ref.fields, ref.kind
    names = _names(ref.authors, ref.more_authors, ui)
    pages = f.get("pages", "").replace("--", "–")
    pp = f"{ui.ref_pages} {pages}" if pages else ""
    year, title = f.get("year", ""), f.get("title", "")
    if kind in ("book", "inbook"):
        where = ": ".join(filter(None, [f.get("address", ""), f.get("publisher", "")]))
        rest = ", ".join(filter(None, [where, year]))
        runs = [(names + ", " if names else "", ""), (title, "i"), (". " + rest if rest else "", ""), (".", "")]
        return runs + _identifiers(ref, " ", ".")
    plain = lambda *texts: [[(t, "")] for t in texts if t]  # noqa: E731 (one element per text)
    if kind == "article":
        after = [[(f.get("journal", ""), "i")]] if f.get("journal") else []
        after += plain(f"{ui.ref_volume} {f['volume']}" if f.get("volume") else "",
                       f"{ui.ref_number} {f['number']}" if f.get("number") else "", pp, year)
    elif kind in ("inproceedings", "conference", "incollection") and f.get("booktitle"):
        after = [[(ui.ref_in + " ", ""), (f["booktitle"], "i")]] + plain(year, pp)
    elif kind == "techreport":
        after = plain(f.get("institution", ""), f.get("address", ""), ui.ref_tech_report, year)
    elif kind in ("phdthesis", "mastersthesis"):
        word = ui.ref_phd_thesis if kind == "phdthesis" else ui.ref_masters_thesis
        after = plain(word, f.get("school", ""), year)
    else:
        after = plain(f.get("howpublished", "") or f.get("publisher", ""), year)
    after += [[run] for run in _identifier_runs(ref)]
    if not after:  # “Title,” with nothing after it ends as “Title.”
        return [((names + ", " if names else "") + f"“{title}.”", "")]
    runs = [((names + ", " if names else "") + f"“{title},” ", "")]
    for i, element in enumerate(after):
        runs += ([(", ", "")] if i else []) + element
    return runs + [(".", "")]


def _names(names: tuple[Name, ...], more: bool, ui) -> str:
    """All of them up to six (`A, B, and C`), else the first and «et al.»."""
    if len(names) > 6 or (more and names):
        shown = [_name_initials(n) for n in (names[:1] if len(names) > 6 else names)]
        return ", ".join(shown) + " " + ui.ref_et_al
    shown = [_name_initials(n) for n in names]
    if len(shown) <= 2:
        return f" {ui.ref_and} ".join(shown)
    return ", ".join(shown[:-1]) + f", {ui.ref_and} " + shown[-1]


def _name_initials(name: Name) -> str:
    if name.corporate:
        return name.last.strip("{}")
    if CJK.search(name.last + name.first):
        return name.last + name.first
    return " ".join(filter(None, [" ".join(_initials(name.first, dots=True)), name.last, name.jr]))


def _initials(first: str, dots: bool) -> list[str]:
    """`Ming-Wei` → M.-W. (with dots) or M W; `Jimmy Lei` → J. L.; an initial written `A.` stays one letter."""
    out = []
    for word in first.replace(".", " ").split():
        pieces = [p[:1] for p in word.split("-") if p]
        out.append(("-".join(p + "." for p in pieces)) if dots else " ".join(pieces))
    return out


def _url(ref: Reference) -> str:
    f = ref.fields
    if f.get("url"):
        return f["url"]
    if f.get("eprint") and f.get("archiveprefix", "arxiv").lower() == "arxiv":
        return f"https://arxiv.org/abs/{f['eprint']}"
    return ""


def _identifier_runs(ref: Reference) -> list[tuple[str, str]]:
    """arXiv and DOI, linked."""
    f, runs = ref.fields, []
    if f.get("eprint") and f.get("archiveprefix", "arxiv").lower() == "arxiv":
        runs.append((f"arXiv:{f['eprint']}", f"a https://arxiv.org/abs/{f['eprint']}"))
    if f.get("doi"):
        runs.append((f"DOI:{f['doi']}", f"a https://doi.org/{f['doi']}"))
    return runs


def _identifiers(ref: Reference, before: str, after: str) -> list[tuple[str, str]]:
    """The identifiers at the end of an entry: `before` each, `after` the last."""
    out: list[tuple[str, str]] = []
    for run in _identifier_runs(ref):
        out += [(before, ""), run]
    return out + ([(after, "")] if out else [])


