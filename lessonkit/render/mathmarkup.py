"""A formula in lesson Markdown as the page shows it: LaTeX (values already filled in) checked and converted to
slim MathML — a display formula in a scrolling block with its TeX as the text alternative, a table's cells laid out
by the equation component —, numbered equations (`{#eq:NAME}`) and references to them (`@eq:NAME`). Mistakes are
problems at the formula's line (render/markup.py's context)."""
from __future__ import annotations

import html
import re
from pathlib import Path

from ..features import equations
from ..load.syntax.maths import LABEL_NAME
from ..support.errors import Problem
from ..support.messages import msg
from ..support.suggest import did_you_mean


def math_html(latex: str, display: str, ctx, path: Path, line: int) -> str:
    """The formula as MathML (`ctx.math == "tex"`: as TeX, for a question bank); its mistakes as problems."""
    # as the author wrote it, values filled in (`0.9^{ {{ n }} }` → `0.9^{96}`): what a picture of it is described by
    source = re.sub(r"\{\s+|\s+\}", lambda m: m.group().strip(), " ".join(latex.split()))
    latex = _paired_delimiters(latex)
    wrong = equations.latex_problems(latex)
    for problem in wrong:  # at the formula's line where the mistake is (a display formula may span lines)
        ctx.problems.append(Problem(path, line + latex.count("\n", 0, problem.offset), problem.message,
                                    problem.expected))
    if wrong:
        return html.escape(latex)
    if ctx.math == "tex":  # as Moodle's TeX filters read it (MathJax: \( … \) inline, $$ … $$ displayed)
        return html.escape(f"$${latex.strip()}$$" if display == "block" else f"\\({latex.strip()}\\)")
    try:
        mathml = ctx.converters.mathml_of(equations.prepare(latex.strip()), display)
    except Exception as exc:  # latex2mathml raises many types for bad LaTeX, often without a message
        reason = str(exc) or LATEX_ERRORS.get(type(exc).__name__, type(exc).__name__)
        ctx.problems.append(Problem(path, line, msg("cannot convert math `{latex}`: {reason}", latex=latex.strip(),
                                                    reason=reason), "valid LaTeX"))
        return html.escape(latex)
    unknown = equations.unknown_commands(mathml)
    for command in unknown:
        at = re.search(rf"\\{command}(?![A-Za-z])", latex)
        ctx.problems.append(Problem(path, line + latex.count("\n", 0, at.start() if at else 0),
                                    msg("unknown LaTeX command `\\{command}`", command=command),
                                    msg("a command the converter knows, e.g. `\\frac`, `\\sum`, `\\mathrm`, "
                                        "`\\operatorname`")))
    if unknown:
        return html.escape(latex)
    # a table's cells are aligned by the equation component's CSS, which only pages with one carry
    mounts = f' data-widget="{equations.KIND}"' if equations.lays_out_a_table(mathml) else ""
    if display == "block":  # display math scrolls sideways on a phone: a block wrapper, valid wherever it stands
        # its TeX as the formula's text alternative: the slides, which show a display formula as a picture, describe
        # the picture by it (its MathML's text would read 0.9⁹⁶ as 0.996)
        mathml = mathml.replace('<math display="block">', f'<math display="block" alttext="{html.escape(source)}">', 1)
        return f'<span class="math-block"{mounts}>{mathml}</span>'
    return f'<span class="math-table"{mounts}>{mathml}</span>' if mounts else mathml


def numbered(block: str, attribute: str, ctx, path: Path, line: int) -> str:
    """A display equation followed by `{#eq:NAME}`: numbered in lesson.md, a problem anywhere else."""
    label = LABEL_NAME.fullmatch(attribute.strip())
    if label is None:
        ctx.problems.append(Problem(path, line, msg("cannot read the equation label `{#{label}}`", label=attribute),
                                    msg("`{#eq:NAME}` right after the closing `$$`, NAME made of ASCII letters, "
                                        "digits, - and _")))
        return block
    name = label.group("name")
    if not ctx.number_equations:
        ctx.problems.append(Problem(path, line, msg("numbered equation `{#eq:{name}}` outside lesson.md's sections",
                                                    name=name),
                                    msg("equations numbered in lesson.md only (in reading order); refer to one from "
                                        "anywhere with `@eq:NAME`")))
        return block
    if ctx.equation_lines.get(name, line) != line:   # a label's second use (load/plan.py reported it)
        return block
    number = ctx.equation_numbers[name]
    return equations.equation_html(block, name, ctx.equation_words[0].format(n=number))


def equation_ref(name: str, ctx, path: Path, line: int) -> str:
    if name not in ctx.equation_numbers:
        known = ctx.equation_numbers
        ctx.problems.append(Problem(path, line, msg("reference to unknown equation `@eq:{name}`{hint}", name=name,
                                                    hint=did_you_mean(name, known)),
                                    msg("an equation labelled `$$ … $$ {#eq:NAME}` in the lesson: {names}",
                                        names=", ".join(sorted(known)) or msg("none"))))
        return html.escape(ctx.equation_words[1].format(n="?"))
    return equations.reference_html("", name, ctx.equation_words[1].format(n=ctx.equation_numbers[name]))


def _paired_delimiters(latex: str) -> str:
    r"""`\lVert x \rVert` → `\left\lVert x \right\rVert`: latex2mathml treats the bare pair as two loose operators,
    spaced apart and with `^2` bound to the closing bar; as a \left…\right pair they fence x, as LaTeX draws them."""
    for left, right in ((r"\lVert", r"\rVert"), (r"\lvert", r"\rvert")):
        bare_left = re.compile(r"(?<!\\left)" + re.escape(left) + r"(?![a-zA-Z])")
        bare_right = re.compile(r"(?<!\\right)" + re.escape(right) + r"(?![a-zA-Z])")
        if 0 < len(bare_left.findall(latex)) == len(bare_right.findall(latex)):
            latex = bare_left.sub(lambda m: rf"\left{left} ", latex)
            latex = bare_right.sub(lambda m: rf"\right{right} ", latex)
    return latex


LATEX_ERRORS = {
    "NoAvailableTokensError": msg("the formula ends too early (an unclosed `{` or a command missing its argument)"),
    "MissingSuperScriptOrSubscriptError": msg("`^` or `_` with nothing after it"),
    "DoubleSuperscriptsError": msg("two superscripts in a row (use braces: `x^{ab}`)"),
    "DoubleSubscriptsError": msg("two subscripts in a row (use braces: `x_{ab}`)"),
    "ExtraLeftOrMissingRightError": msg("a `\\left` without its `\\right`"),
    "MissingEndError": msg("a `\\begin{…}` without its `\\end{…}`"),
    "NumeratorNotFoundError": msg("`\\frac` without its numerator"),
    "DenominatorNotFoundError": msg("`\\frac` without its denominator"),
    "LimitsMustFollowMathOperatorError": msg("`\\limits` after something that is no operator"),
}


_MATH_ENTITY = re.compile(r"&#x([0-9A-Fa-f]+);")
_LONE_MROW = re.compile(r"<mrow>(<(m[a-z]+)\b[^<>]*>[^<>]*</\2>)</mrow>")


def slim_mathml(mathml: str) -> str:
    """The same formula in about half the bytes: HTML needs no MathML namespace nor `display="inline"` (the
    default), characters need no numeric references (but < & > keep theirs), and an <mrow> around a single token
    groups nothing."""
    mathml = mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)
    mathml = mathml.replace('<math display="inline">', "<math>", 1)
    mathml = _MATH_ENTITY.sub(lambda m: _char(int(m.group(1), 16), m.group(0)), mathml)
    previous = None
    while previous != mathml:
        previous, mathml = mathml, _LONE_MROW.sub(r"\1", mathml)
    return mathml  # the <mrow> right inside <math> stays: on a phone <math> is an inline-block (see style.css)


def _char(code: int, reference: str) -> str:
    char = chr(code)
    return reference if char in "<>&\"'" or code < 0x20 or 0xD800 <= code <= 0xDFFF else char
