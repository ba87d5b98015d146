"""Numbered equations, and the LaTeX a page can show correctly.

    syntax    `$$ … $$ {#eq:NAME}` numbers a display equation, per lesson in reading order: (1), (2) …; `@eq:NAME`
              links to one of the lesson (「式 (1)」), `@lesson:SLUG#eq:NAME` to one of another lesson. Names are ASCII
              (letters, digits, `-`, `_`), so a reference ends where the Chinese text after it begins.
    check     latex_problems(latex): what latex2mathml would show wrongly without a word — an environment it does
              not lay out (it drops `\\begin{foo}` and keeps the contents), `&` outside an alignment (shown as a
              literal `&`), `\\\\` outside one (MathML in browsers breaks no line), `\\label`, `\\tag`, `\\eqref`,
              `\\ref` (the numbering is ours) —, each at its offset in the formula, so the author reads its line;
              unknown_commands(mathml): commands the converter does not know (it shows them as `\\foo`).
    prepare   prepare(latex): `aligned` as `split` (latex2mathml lays `split` out as the right/left column pairs
              `aligned` means, but leaves `aligned`'s `&` as text); a matrix in braces (so `^T` binds to all of it).
              primes_beside_the_base(mathml): `f'` as f′, the prime beside f as a math font draws it (Chromium
              draws a prime in a superscript small and floating above f).
    place     equation_html / reference_html: the numbered block and the links to it.
    component lessonkit/themes/default/components/equation/ (CSS only): the number beside its equation, and table cells
              aligned as `columnalign` says (Chromium's MathML ignores the attribute); mounted by a numbered equation
              and by math that lays out a table, so other pages carry none of it.
"""
from __future__ import annotations

import html
import re

from ..support.messages import Message, msg
from ..support.records import Record

KIND = "equation"                     # the CSS-only component a numbered or aligned formula mounts
ALIGNING = ("aligned", "split", "cases", "array", "matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix",
            "smallmatrix")
MATRICES = ("matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix")
NUMBERING_COMMANDS = ("label", "tag", "eqref", "ref", "notag", "nonumber")
_TOKEN = re.compile(r"\\(?P<env>begin|end)\s*\{(?P<name>[^{}]*)\}|\\(?P<command>[A-Za-z]+)|(?P<newline>\\\\)"
                    r"|\\.|(?P<amp>&)", re.S)  # `\.`: an escaped sign (`\&`, `\{`) is no token of ours
_UNKNOWN_COMMAND = re.compile(r"<m[io](?:\s[^>]*)?>\\([A-Za-z]+)</m[io]>")   # (a sized `\bigr\foo` has attributes)
_SIZED_BAR = re.compile(r"(\\[bB]igg?[lrm]?)\s*\\([lr])(vert|Vert)(?![A-Za-z])")
_TABLE = re.compile(r"\scolumnalign=")
USE_NUMBERS = msg("`$$ … $$ {#eq:NAME}` to number an equation and `@eq:NAME` to refer to it")
NUMBER_ROWS = msg("`$$ … $$ {#eq:NAME}` to number an equation (its rows aligned by `aligned` inside it) and "
                  "`@eq:NAME` to refer to it")


class LatexProblem(Record):
    offset: int          # where in the formula (its line is the author's)
    message: Message
    expected: Message


def latex_problems(latex: str) -> list[LatexProblem]:
    """What in the formula the page would show wrongly, in order."""
    problems, open_envs = [], []
    for m in _TOKEN.finditer(latex):
        if m.group("newline") is not None:
            if not open_envs:
                problems.append(LatexProblem(m.start(), msg("line break `\\\\` outside an alignment: MathML in a "
                                                            "browser does not break lines"),
                                             msg("the rows inside an `aligned` environment (or `cases`, a matrix), "
                                                 "or two formulas")))
        elif m.group("env"):
            name = m.group("name").strip()
            if m.group("env") == "begin":
                if name.rstrip("*") in ("equation", "align", "eqnarray", "gather", "multline"):
                    problems.append(LatexProblem(m.start(), msg("LaTeX environment `{name}`: lessonkit numbers "
                                                                "equations itself", name=name), NUMBER_ROWS))
                elif name not in ALIGNING:
                    problems.append(LatexProblem(m.start(), msg("LaTeX environment `{name}` cannot be shown",
                                                                name=name),
                                                 msg("one of: {items}", items=", ".join(ALIGNING))))
                open_envs.append(name)
            elif open_envs and open_envs[-1] == name:
                open_envs.pop()
            else:
                problems.append(LatexProblem(m.start(), msg("`\\end{{name}}` without a `\\begin` before it",
                                                            name=name),
                                             msg("each `\\begin{…}` closed by its own `\\end{…}`")))
        elif m.group("amp") and not open_envs:
            problems.append(LatexProblem(m.start(), msg("`&` outside an alignment: it would show as a literal `&`"),
                                         msg("`&` only inside `aligned`, `split`, `cases` or a matrix; `\\&` for "
                                             "the sign")))
        elif m.group("command") in NUMBERING_COMMANDS:
            problems.append(LatexProblem(m.start(), msg("`\\{command}` in a formula: equations are numbered by "
                                                        "lessonkit", command=m.group("command")), USE_NUMBERS))
    for name in reversed(open_envs):
        problems.append(LatexProblem(len(latex), msg("`\\begin{{name}}` is never closed", name=name),
                                     msg("`\\end{{name}}`", name=name)))
    return problems + _unbalanced_braces(latex)


def _unbalanced_braces(latex: str) -> list[LatexProblem]:
    """A `{` never closed or a `}` that closes nothing (latex2mathml draws `\\frac{a}{b` as if it were closed);
    `\\{` and `\\}` are braces drawn, not groups."""
    opened: list[int] = []
    for m in re.finditer(r"\\.|[{}]", latex, re.S):
        if m.group() == "{":
            opened.append(m.start())
        elif m.group() == "}" and opened:
            opened.pop()
        elif m.group() == "}":
            return [LatexProblem(m.start(), msg("`}` that closes no `{`"), msg("each `{` closed by its own `}`"))]
    return [LatexProblem(opened[0], msg("`{` that is never closed"), msg("each `{` closed by its own `}`"))] \
        if opened else []


def prepare(latex: str) -> str:
    """The formula as latex2mathml lays it out right (see the module's doc)."""
    latex = _SIZED_BAR.sub(lambda m: m.group(1) + ("|" if m.group(3) == "vert" else "\\|"), latex)
    latex = re.sub(r"\\(begin|end)\s*\{aligned\}", r"\\\1{split}", latex)
    names = "|".join(MATRICES)
    latex = re.sub(rf"\\begin\s*\{{({names})\}}", r"{\\begin{\1}", latex)
    return re.sub(rf"\\end\s*\{{({names})\}}", r"\\end{\1}}", latex)


PRIMES = {"′": 1, "″": 2, "‴": 3, "⁗": 4}   # U+2032 … U+2057, each as many primes as it draws


def primes_beside_the_base(mathml: str) -> str:
    """`f'` reads f′ (the prime beside f, as TeX draws f^\\prime), not f with a small prime floating above it.
    latex2mathml writes `f'` as `<msup><mi>f</mi><mi>′</mi></msup>`; but a math font's ′ (U+2032) is already drawn
    raised at superscript size, and its variant for use inside a superscript is reached only through the font's `ssty`
    feature, which Chromium does not apply to scripts (nor lets CSS apply: fonts list it under the `math` script
    only). So a prime leading a superscript moves beside its base, as an operator: `f'(x)` →
    `<mi>f</mi><mo>′</mo>(x)`, `f'^2` → `<msup><mrow><mi>f</mi><mo>′</mo></mrow><mn>2</mn></msup>` (′ and 2
    both up and right of f), `f'_i` → f′ with subscript i, `f''` and `f^{\\prime\\prime}` → f″."""
    if not any(p in mathml for p in PRIMES):
        return mathml
    import xml.etree.ElementTree as ET  # (only a formula with a prime is rewritten)

    root = ET.fromstring(mathml)
    _move_primes(root)
    return ET.tostring(root, encoding="unicode")


def _is_prime(element) -> bool:
    return element.tag in ("mi", "mo") and len(element) == 0 and bool(element.text) and all(
        c in PRIMES for c in element.text)


def _move_primes(element) -> None:
    """Children first, then each of element's children that is a superscript led by primes (see above)."""
    children = []
    for child in element:
        _move_primes(child)
        moved = _primes_moved(child)
        # beside a row's other children, f′ needs no row of its own; anywhere else (a base, a numerator) it does
        children.extend(list(moved) if moved is not child and moved.tag == "mrow" and element.tag == "mrow"
                        else [moved])
    element[:] = children


def _primes_moved(script):
    """`script` (an msup or msubsup whose superscript starts with primes) with the primes beside its base, or
    `script` itself when it has none."""
    if script.tag not in ("msup", "msubsup") or len(script) != (2 if script.tag == "msup" else 3):
        return script
    tokens = list(script[-1]) if script[-1].tag == "mrow" else [script[-1]]
    count = next((n for n, t in enumerate(tokens) if not _is_prime(t)), len(tokens))
    if count == 0:
        return script
    import xml.etree.ElementTree as ET

    strokes = sum(PRIMES[c] for t in tokens[:count] for c in t.text)
    base = ET.Element("mrow")
    base.append(script[0])
    for n in (4,) * (strokes // 4) + ((strokes % 4,) if strokes % 4 else ()):
        ET.SubElement(base, "mo").text = next(c for c, v in PRIMES.items() if v == n)
    rest = tokens[count:]
    if len(rest) > 1:
        rest = [ET.Element("mrow")]
        rest[0].extend(tokens[count:])
    sub = [script[1]] if script.tag == "msubsup" else []
    if not sub and not rest:
        moved = base  # only primes in the superscript: f′
    else:
        moved = ET.Element(("msubsup" if rest else "msub") if sub else "msup", script.attrib)
        moved.extend([base, *sub, *rest])
    moved.tail = script.tail
    return moved


def unknown_commands(mathml: str) -> list[str]:
    """Commands the converter wrote as text (`<mi>\\foo</mi>`): it does not know them."""
    return list(dict.fromkeys(_UNKNOWN_COMMAND.findall(mathml)))


def lays_out_a_table(mathml: str) -> bool:
    """True for math whose table cells need the component's alignment rules."""
    return bool(_TABLE.search(mathml))


def equation_html(math_block: str, name: str, number_text: str) -> str:
    """A numbered display equation: its formula (which scrolls sideways on a phone) and its number beside it, the
    element `@eq:NAME` links to."""
    return (f'<span class="equation" id="eq-{name}" data-widget="{KIND}">{math_block}'
            f'<span class="eq-number">{html.escape(number_text)}</span></span>')


def reference_html(url: str, name: str, text: str) -> str:
    """A link to equation `name` on the page at `url` ("" for this page)."""
    return f'<a class="eq-ref" href="{url}#eq-{name}">{html.escape(text)}</a>'
