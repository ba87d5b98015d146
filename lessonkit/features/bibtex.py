"""A course's bibliography: `content/references.bib` (BibTeX, read with bibtexparser) and a lesson's own
`content/<slug>/references.bib`, as plain `Reference`s, each with its line.

    load_references(content, problems, cache): the course's file; its mistakes (an entry that does not parse, a key
    twice, an entry without a title) at references.bib:LINE. Parsed once per version of the file: the result is kept
    in the build's store (kind REFERENCES), so a warm build never imports the parser.
    lesson_references(course, folder, …): the course's entries and those of the lesson's own references.bib, a key
    in both an error naming both files and lines.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from ..support.errors import Problem
from ..support.messages import msg, reason
from ..support.records import Record
from ..support.store import REFERENCES

BIB_FILE = "references.bib"
FORMAT = "citations-2"          # the cached form of a parsed file; bump when Reference changes


class Name(Record):
    first: str          # given names as written ("Ming-Wei", "Jimmy Lei")
    last: str           # family name with its particle ("Le Scao", "van der Maaten")
    jr: str = ""
    corporate: bool = False  # `{BigScience Workshop}`: a body's name, written as it is


class Reference(Record):
    key: str
    kind: str                         # the entry type in lower case: article, inproceedings, misc …
    fields: dict[str, str]            # LaTeX decoded to text; names are in `authors`/`editors`
    authors: tuple[Name, ...]
    editors: tuple[Name, ...]
    more_authors: bool                # the list ended with `and others`
    line: int


class Bibliography(Record):
    path: Path
    entries: dict[str, Reference]
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
        return Bibliography(path, {}, unread=True)
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
