"""The site-wide bilingual glossary, content/glossary.yaml, and the marking of its terms in a lesson.

    terms:
      - id: layer-norm                 # ASCII: the anchor `#term-layer-norm`
        zh: 层归一化                    # the Chinese term, shown first
        en: layer normalization        # the exact English term
        aliases: [LayerNorm, LN]       # other strings meaning this term in the lessons (optional)
        definition: 对每个词向量……       # Markdown, $math$ allowed; one or two sentences

In a lesson a term is marked at its first use in the text of lesson.md's sections (its Chinese name or an alias,
the longest name first), and wherever the author writes `[[术语]]` or `[[术语|显示的文字]]` (the term by its id, Chinese
or English name or an alias). Every mark is a link to the lesson's 术语表 entry `#term-<id>`; the `term` component
(lessonkit/themes/default/components/term/) turns it into a toggletip.

Loading reports problems as values (like lesson.yaml): unknown keys with "did you mean", missing names or
definition, ids that are not ASCII slugs, the same id twice, one name or alias belonging to two terms.
"""
from __future__ import annotations

import html
import re
import string
from bisect import bisect_left
from typing import Any
from pathlib import Path

from ..support.errors import Miss, Problem
from ..support.messages import NOTHING, msg
from ..support.records import Mutable, Record, fresh
from ..support.store import Store
from ..support.suggest import closest
from ..load.schema import Key, check_mapping

GLOSSARY_FILE = "glossary.yaml"
TERM_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")

TERM = {
    "id": Key(str, True, "an ASCII id made of lowercase letters, digits and hyphens, e.g. layer-norm"),
    "zh": Key(str, True, "the Chinese term, e.g. 层归一化"),
    "en": Key(str, True, "the English term, e.g. layer normalization"),
    "aliases": Key(list, False, "other names used in the lessons, e.g. [LayerNorm, LN]", items=str),
    "definition": Key(str, True, "a short definition in Markdown ($math$ allowed)"),
}
GLOSSARY = {"terms": Key(list, True, "a list of terms, each with id, zh, en, aliases and definition", items=TERM)}



class Term(Record):
    id: str
    zh: str
    en: str
    aliases: tuple[str, ...]
    definition: str                  # Markdown
    line: int                        # where the term starts in glossary.yaml
    definition_line: int             # where its definition's text starts

    @property
    def names(self) -> tuple[str, ...]:
        """What marks the term automatically in a lesson's text: the Chinese name and the aliases."""
        return (self.zh, *self.aliases)


class Glossary(Mutable):
    path: Path
    terms: list[Term] = fresh(list)
    unread: bool = False          # glossary.yaml could not be read (reported there): its marks are not checked

    def __post_init__(self) -> None:
        self.by_id = {t.id: t for t in self.terms}
        self._lookup: dict[str, Term] = {}
        for term in self.terms:
            for name in (term.id, term.zh, term.en, *term.aliases):
                self._lookup.setdefault(_fold(name), term)
        names = sorted({(n, t.id) for t in self.terms for n in t.names if n.strip()},
                       key=lambda item: (-len(item[0]), item[0]))
        self._owner = {n: self.by_id[i] for n, i in names}
        self._names = [n for n, _ in names]

    def find(self, name: str) -> Term | None:
        """A term by its id, Chinese or English name, or an alias (case and surrounding spaces ignored)."""
        return self._lookup.get(_fold(name))

    def reference(self, name: str) -> Term | Miss:
        term = self.find(name)
        if term is not None:
            return term
        close = self._lookup.get(closest(_fold(name), self._lookup) or "")
        hint = msg("; did you mean `{name}` ({id})?", name=close.zh, id=close.id) if close else NOTHING
        return Miss(msg("unknown glossary term `[[{name}]]`{hint}", name=name, hint=hint),
                    msg("a term in {file} by its id, zh, en or an alias", file=self.path.name) if self.terms
                    else msg("a term in {file} (there is none)", file=self.path.name))

    def owner(self, text: str) -> Term:
        return self._owner[text]


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


WORD = frozenset(string.ascii_letters + string.digits + "_")
LATIN = frozenset(string.ascii_letters + string.digits)


def _whole_word_at(text: str, start: int, name: str, begin: int, end: int) -> bool:
    """Whether `name` (found at `start`) fits in text[begin:end] and, where it begins or ends with a Latin letter or
    digit, is not part of a longer word there (`LN` not inside `LNs` or `KLN`); Chinese has no word boundaries."""
    stop = start + len(name)
    if stop > end:
        return False
    if name[0] in LATIN and start > begin and text[start - 1] in WORD:
        return False
    return not (name[-1] in LATIN and stop < end and text[stop] in WORD)


def _occurrences(text: str, names: list[str]) -> dict[int, list[str]]:
    """Where each name occurs in `text` (overlapping ones too): start → the names found there, in `names`' order."""
    found: dict[int, list[str]] = {}
    for name in names:
        start = text.find(name)
        while start >= 0:
            found.setdefault(start, []).append(name)
            start = text.find(name, start + 1)
    return found


# ── loading ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def load_glossary(content_dir: Path, problems: list[Problem], store: Store | None = None) -> Glossary:
    """The glossary, empty when content/glossary.yaml is missing; its problems are added to `problems` (and the
    terms with problems are left out, so lessons are still checked against the rest)."""
    path = content_dir / GLOSSARY_FILE
    if not path.exists():
        return Glossary(path)
    from ..load.lessons import read_yaml

    found: list[Problem] = []
    data, lines = read_yaml(path, found, empty_ok=True, store=store)
    if not data:
        problems += found
        return Glossary(path, unread=bool(found))
    found += check_mapping(data, GLOSSARY, lines, path)
    raw = data.get("terms") if isinstance(data.get("terms"), list) else []
    terms: list[Term] = []
    bad = {i for i, item in enumerate(raw)
           if not isinstance(item, dict) or check_mapping(item, TERM, lines, path, prefix=f"terms.{i}.")}
    first_id: dict[str, int] = {}
    first_name: dict[str, tuple[str, str, int]] = {}
    for i, item in enumerate(raw):
        line = lines.get(f"terms.{i}", lines.get("terms", 1))
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"].strip():
            continue
        term_id, id_line = item["id"].strip(), lines.get(f"terms.{i}.id", line)
        ok = i not in bad
        if not TERM_ID.match(term_id):
            found.append(Problem(path, id_line, msg("term id `{id}` is not an ASCII slug", id=term_id),
                                 "lowercase ASCII letters, digits and hyphens, e.g. `layer-norm`"))
            ok = False
        if term_id in first_id:
            found.append(Problem(path, id_line, msg("duplicate term id `{id}` (first at line {line})", id=term_id,
                                                    line=first_id[term_id]),
                                 "each id once"))
            continue
        first_id[term_id] = id_line
        aliases = item.get("aliases") if isinstance(item.get("aliases"), list) else []
        names = [(key, item.get(key)) for key in ("zh", "en")] + [("aliases", a) for a in aliases]
        for key, name in names:
            if not isinstance(name, str) or not name.strip():
                continue
            name = name.strip()
            name_line = lines.get(f"terms.{i}.{key}", line)
            other = first_name.get(_fold(name))
            if other is not None and other[0] != term_id:
                found.append(Problem(path, name_line, msg("`{name}` of term `{id}` is already a name of term "
                                                          "`{other}` (line {line})", name=name, id=term_id,
                                                          other=other[0], line=other[2]),
                                     "each Chinese name, English name and alias belonging to one term"))
                ok = False
            first_name.setdefault(_fold(name), (term_id, name, name_line))
        if ok:
            terms.append(Term(term_id, item["zh"].strip(), item["en"].strip(),
                              tuple(a.strip() for a in aliases if a.strip()), item["definition"],
                              line, lines.get(f"terms.{i}.definition", line)))
    problems += found
    return Glossary(path, terms)


# ── marking ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def mark_html(term: Term, text_html: str) -> str:
    """One mark: without JavaScript a link to the lesson's 术语表 entry; the `term` component (whose root is that
    术语表, partials/glossary.html) makes every mark on the page a toggletip."""
    return (f'<a class="term-ref" href="#term-{term.id}" data-term="{term.id}">'
            f'{text_html}</a>')


# elements whose text is never marked automatically: headings, code, math, links (and marks), figures and drawings,
# widgets, form controls and what is already a definition
SKIP_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "code", "pre", "kbd", "samp", "math", "a", "figure", "svg", "img",
             "script", "style", "button", "label", "select", "textarea", "dfn", "abbr", "template", "summary"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# a tag, or a comment or a whole formula taken at once (MathML is most of a section's tags and is never marked)
TAG = re.compile(r"<!--.*?-->|<math\b.*?</math>|<(/?)([A-Za-z][\w:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S)
TERM_ATTRIBUTE = re.compile(r'\sdata-term="([^"]*)"')


def mark_first_uses(body: str, glossary: Glossary, used: dict[str, None]) -> str:
    """Mark the first use of each term in rendered section HTML, in reading order. `used` holds the terms met so
    far in the lesson (marked automatically or by `[[…]]`) and is extended; text inside SKIP_TAGS and widgets
    (any element carrying `data-widget`) is left alone, but an explicit mark found there still counts as a use."""
    marker = _Marker(body, glossary, used)
    stack: list[str] = []
    skip_from: int | None = None        # stack depth at which the skipped element was opened
    pos = 0
    for m in TAG.finditer(body):
        if skip_from is None:
            marker.text(pos, m.start())
        marker.keep(m.end())
        pos = m.end()
        closing, name, attrs = m.group(1), (m.group(2) or "").lower(), m.group(3) or ""
        if not name:                   # a comment or a formula
            continue
        if closing:
            if name in stack:
                while stack:
                    if stack.pop() == name:
                        break
            if skip_from is not None and len(stack) < skip_from:
                skip_from = None
            continue
        marked = TERM_ATTRIBUTE.search(attrs)
        if marked:
            used.setdefault(html.unescape(marked.group(1)), None)
        if name in VOID or attrs.rstrip().endswith("/"):
            continue
        stack.append(name)
        if skip_from is None and (name in SKIP_TAGS or " data-widget=" in attrs):
            skip_from = len(stack)
    if skip_from is None:
        marker.text(pos, len(body))
    marker.keep(len(body))
    return "".join(marker.out)


class _Marker:
    """The marked copy of a section's HTML, written from left to right: what is kept as it is, and text in which
    each term's first use is marked (the names are looked for once in the whole body, then taken in order)."""

    def __init__(self, body: str, glossary: Glossary, used: dict[str, None]) -> None:
        self.body, self.glossary, self.used = body, glossary, used
        self.found = _occurrences(body, glossary._names)
        self.starts = sorted(self.found)
        self.out: list[str] = []
        self.pos = 0                   # body[:pos] is in out

    def keep(self, end: int) -> None:
        """body[pos:end] as it is."""
        if end > self.pos:
            self.out.append(self.body[self.pos:end])
            self.pos = end

    def text(self, begin: int, end: int) -> None:
        """Mark the names in body[begin:end] (text between tags): at each place the first name that fits there as
        a whole word; after a name, the search goes on behind it."""
        body, k = self.body, bisect_left(self.starts, begin)
        while k < len(self.starts) and self.starts[k] < end:
            start, k = self.starts[k], k + 1
            if start < self.pos:
                continue
            name = next((n for n in self.found[start] if _whole_word_at(body, start, n, begin, end)), None)
            if name is None:
                continue
            term = self.glossary.owner(name)
            self.keep(start)
            self.out.append(name if term.id in self.used else mark_html(term, name))
            self.used.setdefault(term.id, None)
            self.pos = start + len(name)
        self.keep(end)


def glossary_entry(term: Term, definitions: dict[str, str]) -> dict[str, Any]:
    """A term as the lesson's 术语表 and the glossary page list it (definition rendered once per build)."""
    return {"id": term.id, "anchor": f"term-{term.id}", "zh": term.zh, "en": term.en, "aliases": list(term.aliases),
            "definition": definitions.get(term.id, "")}


def mark(page, name: str, shown: str | None) -> str | Miss:
    """`[[术语]]` / `[[术语|显示的文字]]` on the page (features/placing.py Page): the term by its id, zh, en or an
    alias, marked and noted in the page's ledger."""
    glossary = page.setting.course.glossary
    if glossary is None:
        return Miss(msg("glossary term `[[{name}]]` but there is no content/glossary.yaml", name=name),
                    "a glossary.yaml next to the lesson folders with a `terms:` list")
    if glossary.unread:  # glossary.yaml did not parse: reported there, not once per mark
        return html.escape((shown or name).strip() or name)
    term = glossary.reference(name)
    if isinstance(term, Miss):
        return term
    page.ledger.terms_marked.setdefault(term.id, None)
    return mark_html(term, html.escape((shown or name).strip() or name))
