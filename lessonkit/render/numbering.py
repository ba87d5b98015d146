"""A lesson page's numbers and ids, from one pass over its syntax trees in reading order, before anything is
rendered: the citations' numbers (GB/T 7714's 顺序编码制: by first citation), and the ids of its `{{< table >}}`
tables, `::: toggle` blocks and `::: tabs` sets (`table-3`, `toggle-1`, `tabs-2`), each by where it stands. So a part
of the page rendered alone (render/sectionmemo.py) gets the numbers a full rendering gives it: rendering counts
nothing. (Figure and equation numbers are the plan's, load/plan.py: links from other lessons need them first.)

What rendering still notes — what was placed (each widget, self-check and listing once), the glossary terms met,
the citations placed — is the page's Ledger (features/placing.py), one object the memo copies whole.
"""
from __future__ import annotations

from pathlib import Path

from ..features import citations
from ..load.syntax import nodes as n
from ..support.records import Record

NUMBERED = {n.Directive: {"table"}, n.Container: {"toggle", "tabs"}}   # what the pass gives an id to


class PageNumbers(Record):
    citations: dict[str, int]                 # key → its number on the page
    ids: dict[tuple[str, Path, int], int]     # (kind, file, line) → its number among its kind on the page

    def id(self, kind: str, path: Path, line: int, copy: str = "") -> str:
        """The element id of the table, toggle or tab set at (path, line): `table-3`; its copy (the answers printed
        at the end of the page) `table-3-print`."""
        return f"{kind}-{self.ids[(kind, path, line)]}" + (f"-{copy}" if copy else "")


def page_numbers(texts) -> PageNumbers:
    """One pass over a lesson's texts in the order the page shows them (`texts`: render/reading.py reading_texts,
    (file, nodes) pairs)."""
    counts: dict[str, int] = {}
    ids: dict[tuple[str, Path, int], int] = {}
    read = []
    for path, nodes in texts:
        read.append(nodes)
        for node in n.walk(nodes):
            kind = node.kind if type(node) in NUMBERED and node.kind in NUMBERED[type(node)] else None
            if kind is not None and (kind, path, node.line) not in ids:
                counts[kind] = counts.get(kind, 0) + 1
                ids[(kind, path, node.line)] = counts[kind]
    return PageNumbers(citations.numbering(read), ids)
