"""A bibliography entry as the page and the notebook write it: in the style the site's language names
(`ui.reference_style`): `gb7714` (GB/T 7714-2015, numeric) or `numbered` (the common numbered style of English
papers), in the theme's words (et al., 等, vol., pp. …); the authors and year of a narrative `@key`. Runs are
(text, kind) pairs: "" plain, "i" italic, "a URL" a link, which the page (HTML) and the notebook (Markdown) each write
in their own syntax."""
from __future__ import annotations

import html
import re

from ..support.errors import Miss
from ..support.messages import msg
from ..support.suggest import did_you_mean
from ..support.cjk import has_chinese, join_chinese_words
from .bibtex import Bibliography, Name, Reference



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
    return join_chinese_words(text)  # 李航和张三: no space between Chinese words


def _family_name(name: Name) -> str:
    """How a narrative citation names a person: the family name with its particle (van der Maaten); a body's name
    or a Chinese name whole (李航)."""
    if name.corporate:
        return name.last.strip("{}")
    if has_chinese(name.last + name.first):
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
        chinese = any(has_chinese(n.last + n.first) for n in names)
        shown.append(ui.ref_et_al_cjk if chinese else ui.ref_et_al)
    return ", ".join(shown)


def _gb_name(name: Name) -> str:
    if name.corporate:
        return name.last.strip("{}")
    if has_chinese(name.last + name.first):
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
    if has_chinese(name.last + name.first):
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
