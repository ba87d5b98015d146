"""Hand-typed numbers: every digit an author typed into what a student reads that does not come from a computed
value. A lesson promises that its numbers are computed (lesson.py, `{{ name }}`); a number typed by hand drifts the
day the code changes. The report reads the lesson's text as load parsed it — lesson.md's syntax tree and lesson.yaml's
Markdown fields (load/syntax/), which say what is code, maths, a value or a citation — and its other files' text (no
Jinja, no lesson code run), so a build that takes every page from the cache still reports it. Its rules (what is a
year, an ordinal, an identifier) read the words of the tree's text nodes.

Where it looks: lesson.md (not a heading that repeats the lesson's title); lesson.yaml's prose (summary, intro,
objectives, question, challenges, checks, sources — not the title, which names the lesson, nor a summary repeating
it, nor a self-check's value names, units or known wrong answers); the `caption=` and `alt=` of every
`@lesson.figure` and of every figure cell's header (`# %% figure: …`), and the `caption=` of every `explorer(…)`,
`bars(…)` and `table(…)` in lesson.py (read with `ast`);
the text between the tags of the lesson's own components (`widgets/<kind>/widget.html`, Jinja tags and comments
left out). Numbers in digits, and counts in Chinese numerals: a numeral followed by a counter of what a lesson
computes or sets (「十步」「三层」「十六个头」, CN_COUNT); 「一个」「一起」「一些」「一般」「十分」「万一」「三种」 are words.

What is not a measured number, and left alone:
  - `{{ value }}` placeholders (with their format), `{{< directive >}}`, code spans and code blocks, HTML comments
    and tags, `{#id}` / `{: …}` attributes, links' targets, URLs and file names;
  - maths that is notation: inside `$…$` / `$$…$$` an integer of one or two digits is notation (indices, exponents,
    the constants of a formula: `x_1`, `x^2`, `\\sum_{i=1}^{n}`, `2\\pi`, `d/2`); a decimal number (`1.5`) or an
    integer of three or more digits (`10000`, `\\mathbb{R}^{512}`) is reported;
  - years: 1900–2099 before 年, `)`, `）` or a citation `[@`, or after `(` / `（`; any 1900–2099 in `sources`;
  - citations `[@key, 第 2.3 节]` and references: `@fig:`, `@eq:`, `@lesson:`, `§2`, 第 3 节/章/课, 图 2, 表 1,
    式 (3), 挑战 3, 引理 2, 定理 1 (and Figure 2, Lemma 2 …);
  - ordinals: a list marker `1.` and 「第 N」 with one digit (the first layer, the third word: an index, like $x_3$);
  - identifiers: digits joined to Latin letters, `fp16`, `GPT-2`, `IWSLT14`, `T5`, `arXiv:1706.03762`; a
    dimension, `1D`, `2-D`, `2d`;
  - labels: Step 9, steps 9 and 10, Part 2, Exercise 3 (and 步骤 9、练习 3、例 2), a reference's number `[1]`,
    also as a link's whole text, and a number's number (`#1149784`); an English ordinal, `2nd`, `21st`.

A number typed on purpose (a measurement quoted from a paper) is marked on its line by a comment saying `literal`
in the file's own comment syntax: `<!-- literal -->` in Markdown (also inside lesson.yaml's Markdown),
`# literal` after a YAML value, a caption's Python string or a figure cell's header, `{# literal #}` in a template. `literal: 8.45 34` lets
only those numbers pass on that line.

    check    report(source): the findings as warnings (Problems at file:line), errors under --strict
    years    citation_years(source, bibliography): a year typed beside a citation (「Press 等，2021）[@press2022alibi]」)
             that is not its entry's year — the one check that reads references.bib too, so it is not kept by file
    pieces   tree_pieces(blocks): the prose of a syntax tree as the scan reads it, piece by piece, each at its line
"""
from __future__ import annotations

import ast
import io
import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

if TYPE_CHECKING:
    import tokenize

from ..load.syntax import nodes as n
from ..support.errors import Problem
from ..support import pysource
from ..support.messages import Message, msg
from ..support.records import Record

PROSE_KEYS = ("summary", "intro", "objectives", "question", "challenges", "checks", "sources")  # (a title names
#            the lesson: its numbers are a name's, "12 steps to Navier–Stokes", and so is a summary that repeats it)
NOT_PROSE = ("id", "unit", "format", "value")   # a self-check's names and a known wrong answer, typed as students do
COMPONENTS = "widgets"
CAPTIONED_BUILDERS = ("explorer", "bars", "table")   # widget builders whose `caption=` a student reads

MARKER = re.compile(r"<!--\s*literal\b(?P<a>[^>]*?)-->|\{#\s*literal\b(?P<b>[^#]*?)#\}|(?:^|\s)#\s*literal\b(?P<c>.*)$")
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)*")
DECIMAL_OR_LONG = re.compile(r"\d*\.\d+|\d{3,}")

# spans that hold no measured number, blanked in this order (a year is recognised before citations are blanked)
BEFORE_YEARS = [
    re.compile(r"<!--.*?-->", re.S),                                   # HTML comments (a `literal` marker)
    re.compile(r"(`+).+?(?<!`)\1(?!`)", re.S),                        # code spans
    re.compile(r"\{\{<.*?>\}\}|\{\{.*?\}\}", re.S),                    # directives and {{ value }} placeholders
    re.compile(r"\{[#:.][^{}\n]*\}"),                                  # {#id} and {: attribute lists}
]
ANY_YEAR = re.compile(r"(?<![\d.])(?:19|20)\d\d(?!\d|\.\d)")             # in a bibliography entry (`sources`)
YEAR = re.compile(r"(?<=[(（])\s*(?:19|20)\d\d(?!\d)|(?<![\d.])(?:19|20)\d\d(?=\s*(?:年|\)|）|\[@))")
# English prose's years: after a word that dates (`in 2009`, `since 2013`, `March 2013`); only the year is blanked
DATING_WORDS = ("in", "since", "from", "until", "till", "by", "around", "circa", "before", "after", "during",
                "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December", "Jan.", "Feb.", "Mar.", "Apr.", "Aug.", "Sep.", "Sept.", "Oct.", "Nov.", "Dec.")
PROSE_YEAR = re.compile(r"\b(?i:" + "|".join(re.escape(w) for w in DATING_WORDS) +
                        r") (?P<year>(?:19|20)\d\d)(?!\d|\.\d|\s*%)")
AFTER_YEARS = [
    re.compile(r"@(?:fig|eq|tab|sec|lesson):[\w#:.-]+"),               # cross-references
    re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://[^\s)>\]]+|www\.[^\s)>\]]+"),  # link targets and URLs
    re.compile(r"</?[A-Za-z][^>]*>", re.S),                            # HTML tags (their attributes)
    re.compile(r"[\w./-]+\.(?:py|md|ya?ml|csv|json|txt|png|jpe?g|gif|svg|webp|html|js|css|bib|ipynb|pdf|npy|npz)\b"),
]
MATH = re.compile(r"(?<!\\)\$\$.*?(?<!\\)\$\$|(?<![\\$])\$(?!\$)[^$\n]+?(?<!\\)\$", re.S)
NOTATION = [
    re.compile(r"§\s*\d+(?:\.\d+)*"),
    re.compile(r"第\s*\d+(?:\.\d+)*\s*(?:节|章|课|部分|单元|讲|篇)"),
    re.compile(r"(?:图|表|式|挑战|引理|定理|推论|命题|定义|习题)\s*[(（]?\s*\d+(?:\.\d+)*\s*[)）]?"),
    re.compile(r"\b(?:Section|Sec\.|Figure|Fig\.|Table|Eq\.|Equation|Lemma|Theorem|Challenge|Chapter)\s*\(?\d+(?:\.\d+)*\)?",
               re.I),
    re.compile(r"第\s*\d(?!\d)"),                                      # 「第 3 个词」: an index
    re.compile(r"(?<![\d.])[01]\s*(?=到|至|–|—|~)"),                      # where counting starts: 0 到 {{ n }}
    re.compile(r"(?<![\d.])1\s*/"),                                      # a reciprocal: 1/{{ n }}
    re.compile(r"(?m)^[ \t>]*\d+[.)](?=\s)"),                          # a list marker
    re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]*:[\w./-]*\w"),   # prefixed identifiers: arXiv:1706.03762
    re.compile(r"(?<![\w.])[1-4]-?[Dd]\b"),                              # dimensions: 1D, 2-D, 3D, 2d
    re.compile(r"\b(?:Step|Part|Lesson|Lecture|Week|Unit|Module|Exercise|Example|Problem|Question|Task|Lab|"
               r"Homework|Assignment|Phase|Stage)s?\s*#?\d+(?:\.\d+)*(?:\s*(?:,|and|&|to|–|-)\s*\d+(?:\.\d+)*)*",
               re.I),                                                       # labels: Step 9, steps 9 and 10
    re.compile(r"#\d+\b"),                                                   # a number's number: award #1149784
    re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b"),                               # an ordinal: the 2nd derivative
    re.compile(r"(?:步骤|练习|例题|例|作业|实验|阶段|任务|课时)\s*\d+(?:\.\d+)*"),   # 步骤 9, 练习 3
    re.compile(r"\[\d+(?:\s*[,，–-]\s*\d+)*\]"),                              # a reference's number: [1], [2, 3]
    re.compile(r"\b(?:CC[- ]?BY(?:[- ](?:SA|NC|ND))*|CC0|GPL|LGPL|AGPL|MPL|Apache|EUPL)(?:[- ]?v?|\s+License\s+)"
               r"\d+(?:\.\d+)*", re.I),                                        # a licence's version: CC-BY 4.0
    re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*"),  # identifiers: fp16, GPT-2, IWSLT14
]
# a Chinese numeral counting what a lesson computes or sets — steps, layers, rounds, passes, batches, times,
# iterations, heads (「十步」「三层」「十六个头」, 个 before such a noun) — but not a bare 一 or 两, the words for
# "a" and "both / a pair" (「一个」「一步一步」「两者」「两次」「前两步」), not an ordinal (「第三层」), not an estimate
# (「上百层」「数十步」「十几步」), not a word that merely holds a numeral (「一起」「一些」「一般」「十分」「万一」
# 「三种」「三角」: none is followed by such a counter), nor 「二次函数」「三次方」 (the degree of a polynomial).
CN_NUMERAL = "〇零一二两三四五六七八九十百千万亿"
CN_COUNT = re.compile(
    rf"(?<![第上数几成近好{CN_NUMERAL}])(?P<n>[{CN_NUMERAL}]+)"
    r"(?P<counter>步|层|轮|遍|批|倍|头|次(?!方|幂|函数|型|项|多项式|曲线|根)"
    r"|个(?:头|层|样本|参数|元素|神经元|通道|批次|周期|词元|token))")
CN_WORDS = ("一", "两")   # the article and the pair: words, not counts
NUMBER_LABEL = re.compile(r"\s*\[?\s*\d+\s*\]?\s*")   # a link whose text is a number: a reference's label, [1]
TEMPLATE_CODE = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}|<!--.*?-->|<[^>]*>", re.S)


class Finding(Record):
    line: int
    number: str
    in_math: bool


def report(source, memo: Callable | None = None) -> list[Problem]:
    """The hand-typed numbers of one lesson (load.lessons.LessonSource), in file order: lesson.md, lesson.yaml,
    lesson.py's figure texts, the lesson's component templates. Each file's findings are a function of that file
    alone: `memo(path, find)` may return what `find()` returned for the same bytes before; lesson.md's of each
    section a function of that section alone: `memo.part(path, data, find)` (incremental.FileMemo), when the memo
    has it, may return what `find()` returned for the same `data` (the section's text) before."""
    part = getattr(memo, "part", None)
    memo = memo or (lambda path, find: find())
    folder = source.folder / COMPONENTS
    parts = [(source.body_path, lambda: _markdown_file(source, part)),
             (source.meta_path, lambda: _yaml_fields(source)),
             (source.code_path, lambda: _figure_texts(source.code_path)),
             *((t, lambda t=t: _template(t)) for t in sorted(folder.glob("*/widget.html")))]
    return [problem for path, find in parts for problem in (memo(path, find) if path is not None else find())]


def citation_years(source, bibliography) -> list[Problem]:
    """A year typed beside a citation that is not its entry's year (「Press 等，2021）[@press2022alibi]」 when the
    entry says 2022): the text says one year, the bibliography another. `bibliography`: what the lesson cites from
    (features.bibtex.lesson_references), or None."""
    if bibliography is None:
        return []
    problems = []
    for path, blocks in source.trees():
        for node in n.walk(blocks):
            children = n.inline_children(node)
            for k, cited in enumerate(children):
                if type(cited) not in (n.Citation, n.Narrative):
                    continue
                before = children[k - 1].text[-12:] if k and type(children[k - 1]) is n.Text else ""
                after = children[k + 1].text if k + 1 < len(children) and type(children[k + 1]) is n.Text else ""
                problems += _wrong_years(path, cited, YEAR_BEFORE.search(before), YEAR_AFTER.match(after),
                                         bibliography)
    return problems


YEAR_BEFORE = re.compile(r"(?<![\d.])((?:19|20)\d\d)[a-z]?\s*[)）]?\s*$")
YEAR_AFTER = re.compile(r"\s*[(（]\s*((?:19|20)\d\d)(?!\d)")


def _wrong_years(path: Path, cited, before, after, bibliography) -> list[Problem]:
    """A citation (`[@…]` or `@key`) with a year typed before or after it that no entry of it has."""
    items = cited.items if type(cited) is n.Citation else ((cited.key, cited.locator),)
    written = f"[{cited.body}]" if type(cited) is n.Citation else f"@{cited.key}"
    keys = [key for key, _ in items if key in bibliography.entries]
    years = sorted({bibliography.entries[k].fields.get("year", "")[:4] for k in keys} - {""})
    return [Problem(path, cited.line, msg("year {year} beside `{citation}`, but its entry says {entry}",
                                          year=typed.group(1), citation=written, entry=" / ".join(years)),
                    msg("the entry's year, or `@{key}`: the authors and year from the references.bib entry",
                        key=keys[0]))
            for typed in (before, after) if typed and years and typed.group(1) not in years]


# ── where the text is ───────────────────────────────────────────────────────────────────────────────────────────────
def _markdown_pieces(source) -> Iterator[tuple[int, str]]:
    """(first line, text) of what a reader reads of lesson.md, as load parsed it: each section's heading, its text
    blocks and its containers' titles."""
    for section in source.sections:
        yield from _section_pieces(section)


def _section_pieces(section, heading: bool = True) -> Iterator[tuple[int, str]]:
    """The section's prose, piece by piece; `heading=False`: without its heading (the lesson's title repeated)."""
    if heading:
        yield section.line, _scanned(section.heading)
    yield from tree_pieces(section.blocks)


def tree_pieces(blocks) -> Iterator[tuple[int, str]]:
    """(first line, text) of each piece of prose of a syntax tree, as the scan reads it: its words, and in place of
    the rest what the scan knows to leave alone (maths as `$…$`, a citation as `[@…]`, a reference as `@fig:…`); a
    value, code and a directive are never read."""
    for node in n.walk(blocks):
        kind = type(node)
        if kind in (n.Paragraph, n.Heading, n.Cell):
            yield node.line, _scanned(node.children)
        elif kind is n.Container and node.title:
            yield node.line, _scanned(node.title)
        elif kind is n.Maths and node.block:
            yield node.line, _scanned((node,))
        elif kind is n.Html:
            yield node.line, node.text


SCANNED = {
    n.Text: lambda node: node.text, n.SoftBreak: lambda node: "\n", n.HardBreak: lambda node: "\n",
    n.InlineHtml: lambda node: node.text, n.Value: lambda node: " ", n.CodeSpan: lambda node: " ",
    n.Maths: lambda node: ("$$" if node.display else "$")
    + "".join(p if type(p) is str else " " for p in node.tex) + ("$$" if node.display else "$"),
    n.Citation: lambda node: "[@]",                   # (a year before it is a year: YEAR)
    n.Narrative: lambda node: " ",
    n.FigureRef: lambda node: " ", n.EquationRef: lambda node: " ", n.LessonRef: lambda node: " ",
    n.Term: lambda node: node.shown or node.name,
    n.Link: lambda node: " " if NUMBER_LABEL.fullmatch(_scanned(node.children)) else _scanned(node.children) + " ",
    n.Image: lambda node: node.alt,
    n.Emphasis: lambda node: _scanned(node.children), n.Strong: lambda node: _scanned(node.children),
    n.Strike: lambda node: _scanned(node.children),
}


def _scanned(nodes) -> str:
    return "".join(n.dispatch(SCANNED, node)(node) for node in nodes)


def _markdown_file(source, part: Callable | None = None) -> list[Problem]:
    """lesson.md's findings, section by section; `part(path, data, find)`: what `find()` returned before for the
    same `data` (the section: its place, its parsed text and its lines in the file)."""
    text = _read(source.body_path)  # its lines: the place a number stands, and a `literal` comment on its line
    if text is None:
        return []
    lines = text.splitlines()
    ends = [s.line for s in source.sections[1:]] + [len(lines) + 1]
    problems: list[Problem] = []
    title = source.meta.get("title") if isinstance(source.meta, dict) else None
    for section, end in zip(source.sections, ends):
        named = section.title.strip() == title   # the lesson's title as its first heading (what import writes)

        def find(section=section, named=named) -> list[Problem]:
            found = [f for first, piece in _section_pieces(section, heading=not named) for f in findings(piece, first)]
            return [_problem(source.body_path, f, _markdown_place(f, lines)) for f in _unmarked(found, lines)]
        if part is None:
            problems += find()
        else:
            data = repr((section.line, section.title, named, section.digest,
                         lines[max(section.line - 1, 0):end - 1]))
            problems += part(source.body_path, data.encode("utf-8"), find)
    return problems


def _markdown_place(finding: Finding, lines: list[str]) -> Message:
    if finding.in_math:
        return msg("the maths")
    return msg("a heading") if lines[finding.line - 1].lstrip().startswith("#") else msg("the text")


def _yaml_fields(source) -> list[Problem]:
    raw = _read(source.meta_path)
    if raw is None or not isinstance(source.meta, dict):
        return []
    lines = raw.splitlines()
    found: list[tuple[str, Finding]] = []
    for key in PROSE_KEYS:
        if key == "summary" and source.meta.get("summary") == source.meta.get("title"):
            continue
        for path, text in prose_texts(source.meta.get(key), key):
            start = source.meta_lines.get(path) or source.meta_lines.get(key) or 1
            found += [(path, f if _in_file(f, text, start, lines) else Finding(start, f.number, f.in_math))
                      for first, piece in _field_pieces(source.plan.fields.get(path), text, start)
                      for f in findings(piece, first, bibliography=key == "sources")]
    kept = set(_unmarked([f for _, f in found], lines))
    return [_problem(source.meta_path, f, msg("maths in `{key}`", key=key) if f.in_math else msg("`{key}`", key=key))
            for key, f in found if f in kept]


def _field_pieces(nodes: tuple | None, text: str, start: int) -> list[tuple[int, str]]:
    """What the scan reads of a lesson.yaml text: its Markdown as load parsed it (tree_pieces), a plain text's words
    (its values left out), or a text that is no Markdown (a title) as it is."""
    if nodes is None:
        return [(start, text)]
    if nodes and type(nodes[0]) in n.INLINE_ONLY:
        return [(start, _scanned(nodes))]
    return list(tree_pieces(nodes))


def _in_file(finding: Finding, text: str, start: int, lines: list[str]) -> bool:
    """Whether a value's line is the file's line `finding.line` (a `|` block keeps its lines; a folded or quoted
    string does not, and its findings are shown at the key)."""
    k = finding.line - start
    shown = text.splitlines()[k].strip() if k < len(text.splitlines()) else ""
    return finding.line <= len(lines) and shown in lines[finding.line - 1]


def prose_texts(value, path: str) -> Iterator[tuple[str, str]]:
    """(key path, text) of every string under a prose key: `challenges.1.check.fields.0.label` …"""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from prose_texts(item, f"{path}.{i}")
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in NOT_PROSE or (key == "answer" and ".check." in f"{path}."):
                continue
            yield from prose_texts(item, f"{path}.{key}")


def _figure_texts(code_path: Path | None) -> list[Problem]:
    """The `caption=` and `alt=` strings of lesson.py's `@lesson.figure(…)` decorators, read without running it."""
    source = _read(code_path) if code_path is not None else None
    try:
        tree = pysource.parse(source) if source is not None else None
    except (SyntaxError, ValueError):
        return []  # the compute stage reports it
    lines = source.splitlines() if source is not None else []
    strings = _string_tokens(source) if source is not None else []
    problems = []
    for node in tree.body if tree is not None else ():
        for deco in getattr(node, "decorator_list", ()):
            if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "figure"):
                continue
            named = [k.value.value for k in deco.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)]
            name = named[0] if named else node.name
            for keyword in deco.keywords:
                if keyword.arg in ("caption", "alt") and isinstance(keyword.value, ast.Constant) \
                        and isinstance(keyword.value.value, str):
                    place = msg("the caption of figure `{name}`", name=name) if keyword.arg == "caption" \
                        else msg("the alt text of figure `{name}`", name=name)
                    found = _string_findings(keyword.value, strings)
                    problems += [_problem(code_path, f, place) for f in _unmarked(found, lines)]
    problems += _figure_cell_texts(code_path, source, lines) if source is not None else []
    for call in ast.walk(tree) if tree is not None else ():  # explorer(…, caption="…"), bars(…), table(…)
        builder = getattr(call, "func", None)
        builder = getattr(builder, "id", None) or getattr(builder, "attr", None)
        if isinstance(call, ast.Call) and builder in CAPTIONED_BUILDERS:
            for keyword in call.keywords:
                if keyword.arg == "caption" and isinstance(keyword.value, ast.Constant) \
                        and isinstance(keyword.value.value, str):
                    found = _string_findings(keyword.value, strings)
                    problems += [_problem(code_path, f, msg("the caption of `{builder}(…)`", builder=builder))
                                 for f in _unmarked(found, lines)]
    return problems


def _figure_cell_texts(code_path: Path, source: str, lines: list[str]) -> list[Problem]:
    """The `caption="…"` and `alt="…"` of a figure cell's header (compute/cells.py), at its line."""
    from ..load.cells import is_cell_file, split_cells

    if not is_cell_file(source):
        return []
    problems = []
    for cell in split_cells(source, code_path)[0]:
        for key in ("caption", "alt") if cell.kind == "figure" else ():
            place = msg("the caption of figure `{name}`", name=cell.name) if key == "caption" \
                else msg("the alt text of figure `{name}`", name=cell.name)
            found = findings(str(cell.option(key, "")), cell.line)
            problems += [_problem(code_path, f, place) for f in _unmarked(found, lines)]
    return problems


def _string_findings(node: ast.Constant, strings: list[tokenize.TokenInfo]) -> list[Finding]:
    """The findings of a Python string, each at the line of the piece it is in (`"…" "…"` on several lines is one
    Constant to `ast`; `strings`: the file's string tokens, which keep each piece's line)."""
    pieces: list[tuple[int, int]] = []  # (offset in the text, line) where each piece starts
    text = ""
    for token in strings:
        if (node.lineno, node.col_offset) <= token.start and token.end <= (node.end_lineno, node.end_col_offset):
            pieces.append((len(text), token.start[0]))
            try:
                text += ast.literal_eval(token.string)
            except (SyntaxError, ValueError):
                break
    if not pieces or text != node.value:  # a string written some other way: every finding at its first line
        return findings(node.value, node.lineno)
    found = []
    for offset, number, in_math in scan(text):
        start, line = max(p for p in pieces if p[0] <= offset)
        found.append(Finding(line + text.count("\n", start, offset), number, in_math))
    return found


def _string_tokens(source: str) -> list[tokenize.TokenInfo]:
    import tokenize  # (lesson.py's strings are read again only when it changed)

    try:
        return [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.STRING]
    except (tokenize.TokenError, SyntaxError):
        return []


def _template(path: Path) -> list[Problem]:
    """The text a component's template writes between its tags."""
    text = _read(path)
    if text is None:
        return []
    prose = TEMPLATE_CODE.sub(lambda m: _blank(m.group()), text)
    lines = text.splitlines()
    return [_problem(path, f, msg("the component's template")) for f in _unmarked(findings(prose, 1), lines)]


# ── the rule ────────────────────────────────────────────────────────────────────────────────────────────────────────
def findings(text: str, first_line: int, bibliography: bool = False) -> list[Finding]:
    """The hand-typed numbers of a text (Markdown or plain) whose first line is `first_line`, as the module's
    docstring says which are left alone; in a `bibliography` entry every 1900–2099 is a year."""
    return [Finding(_line_at(text, offset, first_line), number, in_math)
            for offset, number, in_math in scan(text, bibliography)]


def scan(text: str, bibliography: bool = False) -> list[tuple[int, str, bool]]:
    """(offset, number, inside maths) of each hand-typed number of `text`, in order."""
    for pattern in BEFORE_YEARS:
        text = pattern.sub(lambda m: _blank(m.group()), text)
    text = (ANY_YEAR if bibliography else YEAR).sub(lambda m: _blank(m.group()), text)
    text = PROSE_YEAR.sub(lambda m: m.group()[:m.start("year") - m.start()] + _blank(m.group("year")), text)
    for pattern in AFTER_YEARS:
        text = pattern.sub(lambda m: _blank(m.group()), text)
    found = []
    for math in MATH.finditer(text):
        found += [(math.start() + n.start(), n.group(), True)
                  for n in NUMBER.finditer(math.group()) if DECIMAL_OR_LONG.fullmatch(n.group())]
    text = MATH.sub(lambda m: _blank(m.group()), text)
    for pattern in NOTATION:
        text = pattern.sub(lambda m: _blank(m.group()), text)
    found += [(n.start(), n.group(), False) for n in NUMBER.finditer(text)]
    found += [(n.start(), n.group(), False) for n in CN_COUNT.finditer(text) if n.group("n") not in CN_WORDS]
    return sorted(found)


def _unmarked(found: list[Finding], lines: list[str]) -> list[Finding]:
    """The findings whose line carries no `literal` comment letting them pass."""
    kept = []
    for finding in found:
        line = lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
        marker = MARKER.search(line)
        if marker is None:
            kept.append(finding)
            continue
        words = (marker.group("a") or marker.group("b") or marker.group("c") or "").strip().lstrip(":").split()
        listed = [w for w in words if NUMBER.fullmatch(w) or CN_COUNT.fullmatch(w)
                  or re.fullmatch(f"[{CN_NUMERAL}]+", w)]  # other words say why
        if listed and finding.number not in listed and _numeral(finding.number) not in listed:
            kept.append(finding)
    return kept


def _numeral(number: str) -> str:
    """A count's numeral without its counter (「十步」 → 十); a number in digits as it is."""
    count = CN_COUNT.fullmatch(number)
    return count.group("n") if count else number


def _problem(path: Path, finding: Finding, place: Message) -> Problem:
    return Problem(path, finding.line,
                   msg("hand-typed number `{number}` in {place}: compute it in lesson.py and write {{ name }}",
                       number=finding.number, place=place),
                   "a value computed in lesson.py written as {{ name }}, or a comment `literal` on the line for a "
                   "number typed on purpose (`<!-- literal -->`, `# literal`, `{# literal #}`)")


def _blank(text: str) -> str:
    """The same length and lines, nothing in them: offsets and line numbers stay where they were."""
    return re.sub(r"[^\n]", " ", text)


def _line_at(text: str, offset: int, first_line: int) -> int:
    return first_line + text.count("\n", 0, offset)


def _read(path: Path | None) -> str | None:
    try:
        return path.read_text(encoding="utf-8").removeprefix("\ufeff") if path is not None and path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None  # loading reports it
