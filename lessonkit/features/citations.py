"""Citations: `content/references.bib` (BibTeX, read with bibtexparser) and a lesson's own
`content/<slug>/references.bib`, `[@key]` / `[@key1; @key2]` / `[@key, 第 2.3 节]` in lesson.md and in the Markdown
of lesson.yaml, a narrative `@key` (the authors and the entry's year, then its number: 「Press 等（2022）[3]」,
"Press et al. (2022) [3]"; in the glossary's definitions without a number), and each lesson's numbered 参考文献.

    syntax   the parser's rules (load/syntax/rules.py): a Citation node holds its (key, locator) items, a
             Narrative node its key and locator.

    load     features/bibtex.py: the course's and the lesson's references.bib as plain `Reference`s.
    model    numbering(texts): the keys in the order a reader meets them (GB/T 7714's 顺序编码制: numbered by first
             citation), from the lesson's texts in page order, code never searched.
    place    Citer.cite(citation) → the links `[1, 3–5]` (or a Miss: an unknown key with did-you-mean, a citation that
             cannot be read); Citer.narrative(key) → 「Press 等（2022）[3]」; Citer.entries() → the lesson's
             bibliography, each entry as runs of text.
    format   features/bibstyle.py: an entry as runs of text in the site's language's style (GB/T 7714, numbered).
"""
from __future__ import annotations

import html
from typing import Any, Iterable

from ..load.syntax import nodes as n
from ..support.errors import Miss
from ..support.messages import msg
from ..support.suggest import did_you_mean
from .bibstyle import author_year, entry_runs
from .bibtex import Bibliography


# ── model: the order a reader meets the citations ───────────────────────────────────────────────────────────────────
def numbering(texts: Iterable) -> dict[str, int]:
    """key → its number: 1 for the first key a reader meets, and so on (`texts`: the lesson's texts as syntax trees,
    in the page's reading order)."""
    numbers: dict[str, int] = {}
    for nodes in texts:
        for key in cited_keys(nodes):
            numbers.setdefault(key, len(numbers) + 1)
    return numbers


def cited_keys(nodes) -> list[str]:
    """The keys cited in a text's syntax tree, in order (code is never a citation)."""
    keys: list[str] = []
    for node in n.walk(nodes):
        if type(node) is n.Citation:
            keys += [key for key, _ in node.items]
        elif type(node) is n.Narrative:
            keys.append(node.key)
    return keys


# ── place ───────────────────────────────────────────────────────────────────────────────────────────────────────────
class Citer:
    """One lesson's citations: numbers in reading order (a key met only where the scan did not look gets the next
    number when it is placed), links to its bibliography, and the bibliography itself."""

    def __init__(self, bibliography: Bibliography | None, numbers: dict[str, int], ui=None,
                 cited: dict[str, None] | None = None):
        """`numbers`: the keys in reading order (render/numbering.py); `cited`: where the keys placed are noted (the
        page's Ledger)."""
        self.bibliography, self.ui = bibliography, ui
        known = {k: n for k, n in numbers.items() if bibliography and k in bibliography.entries}
        self.base = {k: i for i, k in enumerate(sorted(known, key=known.get), start=1)}
        self.cited: dict[str, None] = {} if cited is None else cited

    @property
    def numbers(self) -> dict[str, int]:
        """Each key's number: its place in reading order, or after all of those, in the order placed (a key the
        reading order does not meet: in a widget's caption)."""
        late = [key for key in self.cited if key not in self.base]
        return {**self.base, **{key: len(self.base) + k for k, key in enumerate(late, start=1)}}

    def cite(self, citation: n.Citation) -> str | Miss:
        """The HTML of one `[@…]` (its items as the parser read them): numbered links, consecutive runs of three or
        more as a range."""
        if not citation.items:
            return Miss(msg("cannot read the citation `{citation}`", citation=f"[{citation.body}]"),
                        "`[@key]`, `[@key1; @key2]` or `[@key, locator]` with keys from content/references.bib")
        missing = self._unknown([key for key, _ in citation.items], f"[@{citation.items[0][0]}]")
        if missing is not None:
            return missing
        if self.bibliography.unread:
            return "[?]"
        for key, _ in citation.items:
            self._count(key)
        return self.shown(citation, lambda number: f'<a class="cite" href="#ref-{number}">{number}</a>', html.escape)

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

    def shown(self, citation: n.Citation, number, text=str) -> str:
        """A citation the page placed, written with `number(n)` for each number and `text(…)` for its locators
        (the page: links; the notebook: plain numbers): `[1, 3]`, `[2–4]`, `[5, 第 2.3 节]`."""
        items, numbers = citation.items, self.numbers
        if not items or any(key not in numbers for key, _ in items):
            return text(f"[{citation.body}]")
        if any(locator for _, locator in items):  # each with its own page or section, in the order written
            parts = [number(numbers[key]) + (f", {text(locator)}" if locator else "") for key, locator in items]
        else:
            parts = []
            for run in _runs(sorted({numbers[key] for key, _ in items})):
                parts += [f"{number(run[0])}–{number(run[-1])}"] if len(run) >= 3 else [number(k) for k in run]
        return "[" + ", ".join(parts) + "]"

    def entries(self, ui) -> list[dict[str, Any]]:
        """The bibliography: each cited entry with its number and its runs, in number order."""
        numbers = self.numbers
        cited = sorted(self.cited, key=numbers.get)
        return [{"number": numbers[k], "id": f"ref-{numbers[k]}", "key": k,
                 "runs": entry_runs(self.bibliography.entries[k], ui)} for k in cited]


def _runs(numbers: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs
