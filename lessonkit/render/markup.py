"""A lesson's syntax tree (load/syntax/) as the page's HTML: computed values, LaTeX → MathML, figures, widgets,
callouts, references and citations. One handler per node class, in BLOCK_HTML and INLINE_HTML; a class neither
table names is our bug (nodes.dispatch raises). Mistakes only the render stage can see (an unknown value, a figure
never defined, LaTeX the converter refuses) are problems at their node's line.

    render_blocks(blocks, ctx, path)    block nodes → HTML
    render_inline(nodes, ctx, path)     inline nodes (or blocks of one paragraph) → HTML without a <p>
    render_text(nodes, ctx, path)       a plain text's words and values (load/syntax parse_plain) → text
    markdown / inline_markdown / plain  the same for a text no plan holds (lesson.py's captions): parsed, then rendered
"""
from __future__ import annotations

import base64
import html
import re
import unicodedata
from pathlib import Path
from typing import Any, Callable

from ..draw import pictures
from ..features import code, equations
from ..load.document import SHOWS_ONLY
from ..load.lessons import LessonFileMissing, LessonPathError, resolve_in_lesson
from ..load.syntax import nodes as n
from ..load.syntax import parse_markdown, parse_plain
from ..support.errors import Miss, Notice, Problem
from ..support.messages import Message, msg
from ..support.records import Mutable, fresh
from ..support.values import shown
from .mathmarkup import equation_ref, math_html, numbered, slim_mathml

IMAGE_TYPES = {".png": ("image/png", (b"\x89PNG",)), ".jpg": ("image/jpeg", (b"\xff\xd8\xff",)),
               ".jpeg": ("image/jpeg", (b"\xff\xd8\xff",)), ".gif": ("image/gif", (b"GIF87a", b"GIF89a")),
               ".webp": ("image/webp", (b"RIFF",)), ".svg": ("image/svg+xml", (b"<",))}


class Converters:
    """What one build's pages share: the LaTeX → MathML memo ("inline|block NUL latex" → MathML: conversions are
    pure, and a build that finds them all there — the session fills it from the cache — never imports latex2mathml,
    a tenth of a warm build's time) and the code highlighter."""

    def __init__(self, mathml: dict[str, str] | None = None, highlights: dict[str, str | None] | None = None,
                 coloured: frozenset[str] | None = None):
        self.mathml = {} if mathml is None else mathml
        # code blocks and listings, Pygments' classes of the tokens the theme colours (features.code)
        self.highlighter = code.Highlighter(highlights, coloured)

    def mathml_of(self, latex: str, display: str) -> str:
        key = f"{display}\0{latex}"
        if key not in self.mathml:
            from latex2mathml.converter import convert

            self.mathml[key] = convert(latex, display=display)
        return equations.primes_beside_the_base(slim_mathml(self.mathml[key]))


class MarkupContext(Mutable):
    """What the Markdown of one lesson may refer to. Each placer (`figure`, `widget`, `table` …) and `link_lesson`
    return HTML, or a Miss that says what is wrong; markup adds the file and line."""
    values: dict[str, Any]
    figure_numbers: dict[str, int]
    placers: dict[str, Callable[[str, tuple[str, ...]], "str | Miss"]]
    render_callout: Callable[[dict[str, Any]], str]
    link_lesson: Callable[[str, str | None], "str | Miss"] = lambda slug, section: Miss(
        msg("link to lesson `{slug}` outside a site build", slug=slug), None)
    # `[[术语]]` / `[[术语|显示的文字]]`: the term's mark, or a Miss (see lessonkit.glossary)
    mark_term: Callable[[str, str | None], "str | Miss"] = lambda name, shown: Miss(
        msg("glossary term `[[{name}]]` outside a lesson's text", name=name), "`[[term]]` only in lesson.md and lesson.yaml")
    # `[@key]`, `[@a; @b]`: the numbered links, or a Miss (features.citations.Citer.cite)
    cite: Callable[[n.Citation], "str | Miss"] = lambda citation: Miss(
        msg("citation `{citation}` outside a lesson's text", citation=f"[{citation.body}]"),
        "`[@key]` only in lesson.md and lesson.yaml")
    # `@key`: the authors and year (and the number), or a Miss (features.citations.Citer.narrative)
    cite_narrative: Callable[[str, "str | None"], "str | Miss"] = lambda key, locator=None: Miss(
        msg("citation `{citation}` outside a lesson's text", citation=f"@{key}"),
        msg("`@key` only in lesson.md, lesson.yaml and the glossary's definitions"))
    figure_label: str = "Figure"  # the theme's `ui.figure` on every page (render/lesson.py passes it)
    equation_numbers: dict[str, int] = fresh(dict)  # the lesson's labels → numbers (load/plan.py)
    equation_lines: dict[str, int] = fresh(dict)    # … and the line each is first used on
    equation_words: tuple[str, str] = ("({n})", "Eq. ({n})")  # the theme's `ui.equation_number`, `ui.equation_ref`
    number_equations: bool = False  # lesson.md's sections: a label numbers its equation (anywhere else: a problem)
    problems: list[Problem] = fresh(list)
    warnings: list[Problem] = fresh(list)   # what renders but the author should know (Notice)
    converters: Converters = fresh(Converters)
    # maths and images for a page (MathML, data: URIs), or for a learning platform's question bank: "tex" keeps
    # the LaTeX (values filled in) for the platform's TeX filter, and `picture(mime, data, alt)` places an image
    math: str = "mathml"
    picture: Callable[[str, bytes, str], str] | None = None
    copy: str = ""          # the copy of a text rendered twice (`print`: the answers printed at the end): its ids
    # `{{ expression }}` at (file, line): a warning when the text shows a value before the reader meets the cell that
    # gives it (compute/cellrun.py read_too_early), else None
    read_value: Callable[[str, Path, int], "Problem | None"] = lambda expression, path, line: None


class Render:
    """One rendering of nodes: the context and the file their lines are in."""

    def __init__(self, ctx: MarkupContext, path: Path):
        self.ctx, self.path = ctx, path

    def problem(self, line: int, message: Message | str, expected: Message | str | None = None) -> None:
        self.ctx.problems.append(Problem(self.path, line, message, expected))

    def missed(self, line: int, result: Any, fallback: str) -> str:
        """A placement's HTML, or `fallback` and a problem when it is a Miss (a warning and its HTML for a Notice)."""
        if isinstance(result, Miss):
            self.problem(line, result.message, result.expected)
            return fallback
        if isinstance(result, Notice):
            self.ctx.warnings.append(Problem(self.path, line, result.message, result.expected))
            return result.html
        return result

    def blocks(self, blocks) -> str:
        return "\n".join(out for out in (n.dispatch(BLOCK_HTML, b)(self, b) for b in blocks) if out)

    def inline(self, nodes) -> str:
        out: list[str] = []
        for k, node in enumerate(nodes):
            shown_html = n.dispatch(INLINE_HTML, node)(self, node)
            if k and type(nodes[k - 1]) is n.Narrative and type(node) is n.Text and _ends_wide(out[-1]) \
                    and _space_then_wide(shown_html):
                shown_html = shown_html[1:]  # `@key 分析`: the space ended the key; after 「（2020）」 it is a gap
            out.append(shown_html)
        return "".join(out)

    # ── blocks ──
    def paragraph(self, node: n.Paragraph) -> str:
        return f"<p{_classes(node.classes)}>{self.inline(node.children)}</p>"

    def heading(self, node: n.Heading) -> str:
        ident = f' id="{node.id}"' if node.id else ""
        return f"<h{node.level}{ident}{_classes(node.classes)}>{self.inline(node.children)}</h{node.level}>"

    def quote(self, node: n.Quote) -> str:
        return f"<blockquote>\n{self.blocks(node.children)}\n</blockquote>"

    def list(self, node: n.List) -> str:
        tag = "ol" if node.ordered else "ul"
        start = f' start="{node.start}"' if node.ordered and node.start != 1 else ""
        items = "\n".join(self.item(item, node.tight) for item in node.children)
        return f"<{tag}{start}>\n{items}\n</{tag}>"

    def item(self, node: n.Item, tight: bool) -> str:
        if not tight:
            return f"<li>\n{self.blocks(node.children)}\n</li>" if node.children else "<li></li>"
        parts = [self.inline(b.children) if type(b) is n.Paragraph else n.dispatch(BLOCK_HTML, b)(self, b)
                 for b in node.children]
        inner = "\n".join(p for p in parts if p)
        return f"<li>{inner}\n</li>" if node.children and type(node.children[-1]) is not n.Paragraph \
            else f"<li>{inner}</li>"

    def code(self, node: n.Code) -> str:
        """A code block: its `{{ values }}` filled in only when the fence asks (`{values}`), highlighted when Pygments
        knows its language (then it mounts the `code` component, whose CSS colours it)."""
        language = node.language
        text = self.filled(node.parts) if node.parts else node.text
        cls = f' class="language-{html.escape(language)}"' if language else ""
        highlighted = self.ctx.converters.highlighter.html(text, language) if language else None
        if highlighted is None:
            return f"<pre><code{cls}>{html.escape(_pre_text(text))}</code></pre>"
        return f'<pre class="highlight" data-widget="{code.KIND}" tabindex="0"><code{cls}>{highlighted}</code></pre>'

    def html_block(self, node: n.Html) -> str:
        return node.text

    def rule(self, node: n.Rule) -> str:
        return "<hr>"

    def table(self, node: n.Table) -> str:
        head = [r for r in node.children if r.header]
        body = [r for r in node.children if not r.header]
        out = ["<table>"]
        if head:
            out += ["<thead>", *(self.row(r, node.aligns, "th") for r in head), "</thead>"]
        if body:
            out += ["<tbody>", *(self.row(r, node.aligns, "td") for r in body), "</tbody>"]
        return "\n".join(out + ["</table>"])

    def row(self, node: n.Row, aligns: tuple[str, ...], tag: str) -> str:
        cells = [f"<{tag}{_align(aligns, k)}>{self.inline(cell.children)}</{tag}>"
                 for k, cell in enumerate(node.children)]
        return "\n".join(["<tr>", *cells, "</tr>"])

    def display(self, node: n.Maths) -> str:
        return f"<p>{self.maths(node)}</p>"

    def container(self, node: n.Container) -> str:
        return self.ctx.render_callout(self.container_part(node))

    def container_part(self, node: n.Container) -> dict[str, Any]:
        """A `::: kind title` block: its contents rendered once, then its partial (callout, cards, toggle …), which
        gets the nested containers (cards, toggle states) also one by one as `parts`."""
        parts, pieces, run = [], [], []
        for child in [*node.children, None]:
            if child is not None and type(child) is not n.Container:
                run.append(child)
                continue
            if run:
                rendered = self.blocks(run)
                if rendered.strip():
                    pieces.append(rendered)
                run = []
            if child is None:
                break
            part = self.container_part(child)
            parts.append(part)
            if SHOWS_ONLY.get(node.kind) != child.kind:  # a toggle shows its states from `parts`, tabs their tabs
                pieces.append(self.ctx.render_callout(part))
        title = self.inline(node.title) if node.title and node.kind != "tabs" else ""
        return {"kind": node.kind, "title": title, "body": "\n".join(pieces), "parts": parts, "line": node.line,
                "arg": node.title_text, "path": self.path, "copy": self.ctx.copy}

    def directive(self, node: n.Directive) -> str:
        place = self.ctx.placers.get(node.kind)
        if place is None:
            self.problem(node.line, msg("unknown directive `{name}`", name=node.kind),
                         msg("one of: {items}", items=", ".join(sorted(self.ctx.placers))))
            return ""
        return self.missed(node.line, place(node.name, node.args, at=(self.path, node.line)), "")

    # ── inline ──
    def text(self, node: n.Text) -> str:
        return html.escape(node.text, quote=False)

    def code_span(self, node: n.CodeSpan) -> str:
        return f"<code>{html.escape(self.filled(node.parts) if node.parts else node.text, quote=False)}</code>"

    def link(self, node: n.Link) -> str:
        title = f' title="{html.escape(node.title)}"' if node.title else ""
        return f'<a href="{html.escape(node.href)}"{title}>{self.inline(node.children)}</a>'

    def image(self, node: n.Image) -> str:
        return _image(node.alt, node.src, node.title or None, self.ctx, self.path, node.line)

    def maths(self, node: n.Maths) -> str:
        """A formula with its `{{ values }}` filled in, as MathML (render/mathmarkup.py); a labelled display formula
        numbered."""
        latex = "".join(p if type(p) is str else self.value_text(p, math_mode=True) for p in node.tex)
        shown_html = math_html(latex, "block" if node.display else "inline", self.ctx, self.path, node.line)
        if node.label is None:
            return shown_html
        return numbered(shown_html, node.label, self.ctx, self.path, node.label_line)

    def value(self, node: n.Value) -> str:
        return html.escape(self.value_text(node, math_mode=False), quote=False)

    def value_text(self, node: n.Value, math_mode: bool) -> str:
        result = shown(node.expression, node.spec, self.ctx.values, math_mode=math_mode)
        if isinstance(result, Miss):
            self.problem(node.line, result.message, result.expected)
            return "?"
        early = self.ctx.read_value(node.expression, self.path, node.line)
        if early is not None:
            self.ctx.warnings.append(early)
        return result

    def filled(self, parts) -> str:
        """Code that asked for values (```` ```python {values} ````, `` `…`{values} ``): its values as the text shows
        them."""
        return "".join(p if type(p) is str else self.value_text(p, math_mode=False) for p in parts)

    def figure_ref(self, node: n.FigureRef) -> str:
        ctx = self.ctx
        if node.name not in ctx.figure_numbers:
            self.problem(node.line, msg("reference to unknown figure `@fig:{name}`", name=node.name),
                         msg("a figure placed in the lesson: {names}",
                             names=", ".join(sorted(ctx.figure_numbers)) or msg("none")))
            return f"{ctx.figure_label} ?"
        return f'<a class="fig-ref" href="#fig-{node.name}">{ctx.figure_label} {ctx.figure_numbers[node.name]}</a>'

    def equation_ref(self, node: n.EquationRef) -> str:
        return equation_ref(node.name, self.ctx, self.path, node.line)

    def lesson_ref(self, node: n.LessonRef) -> str:
        written = f"@lesson:{node.slug}" + (f"#{node.target}" if node.target else "")
        return self.missed(node.line, self.ctx.link_lesson(node.slug, node.target), html.escape(written))

    def citation(self, node: n.Citation) -> str:
        return self.missed(node.line, self.ctx.cite(node), html.escape(f"[{node.body}]"))

    def narrative(self, node: n.Narrative) -> str:
        written = f"@{node.key}" + (f" [{node.locator}]" if node.locator else "")
        return self.missed(node.line, self.ctx.cite_narrative(node.key, node.locator), html.escape(written))

    def term(self, node: n.Term) -> str:
        return self.missed(node.line, self.ctx.mark_term(node.name.strip(), node.shown),
                           html.escape(node.shown or node.name))


BLOCK_HTML: dict[type, Callable] = {
    n.Paragraph: Render.paragraph, n.Heading: Render.heading, n.Quote: Render.quote, n.List: Render.list,
    n.Code: Render.code, n.Html: Render.html_block, n.Rule: Render.rule, n.Table: Render.table,
    n.Maths: Render.display, n.Container: Render.container, n.Directive: Render.directive,
}
INLINE_HTML: dict[type, Callable] = {
    n.Text: Render.text, n.SoftBreak: lambda r, node: "\n", n.HardBreak: lambda r, node: "<br>\n",
    n.Emphasis: lambda r, node: f"<em>{r.inline(node.children)}</em>",
    n.Strong: lambda r, node: f"<strong>{r.inline(node.children)}</strong>",
    n.Strike: lambda r, node: f"<del>{r.inline(node.children)}</del>",
    n.CodeSpan: Render.code_span, n.Link: Render.link, n.Image: Render.image,
    n.InlineHtml: lambda r, node: node.text, n.Maths: Render.maths, n.Value: Render.value,
    n.FigureRef: Render.figure_ref, n.EquationRef: Render.equation_ref, n.LessonRef: Render.lesson_ref,
    n.Citation: Render.citation, n.Narrative: Render.narrative, n.Term: Render.term,
}


def _ends_wide(shown_html: str) -> bool:
    """Whether HTML ends with a full-width character (「Xiong 等（2020）」 without its number)."""
    return bool(shown_html) and unicodedata.east_asian_width(shown_html[-1]) in "WF"


def _space_then_wide(text: str) -> bool:
    return text[:1] == " " and bool(text[1:2].strip()) and unicodedata.east_asian_width(text[1]) in "WF"


def _classes(classes: tuple[str, ...]) -> str:
    return f' class="{html.escape(" ".join(classes))}"' if classes else ""


def _align(aligns: tuple[str, ...], k: int) -> str:
    """A column's alignment as a class the theme styles (a `style=` attribute would break the page's policy)."""
    align = aligns[k] if k < len(aligns) else ""
    return f' class="align-{align}"' if align else ""


def _pre_text(text: str) -> str:
    """A code block's text in its <pre>. The tree leaves off the newline that ends the last line (parser.py `_code`),
    which a browser does not show; code that ends in blank lines gets it back, or its last blank line would go."""
    return f"{text}\n" if text.endswith("\n") else text


# ── entry points ────────────────────────────────────────────────────────────────────────────────────────────────────
def render_blocks(blocks, ctx: MarkupContext, path: Path) -> str:
    """Block nodes (load/syntax/) → HTML."""
    return Render(ctx, path).blocks(blocks)


def render_inline(nodes, ctx: MarkupContext, path: Path) -> str:
    """Inline nodes → HTML; block nodes that are one paragraph → that paragraph's HTML without its <p> (a one-line
    field, an objective); any other blocks as they are."""
    if nodes and type(nodes[0]) not in n.INLINE_ONLY:
        if len(nodes) == 1 and type(nodes[0]) is n.Paragraph and not nodes[0].classes:
            nodes = nodes[0].children
        else:
            return render_blocks(nodes, ctx, path)
    return Render(ctx, path).inline(nodes)


def render_text(nodes, ctx: MarkupContext, path: Path) -> str:
    """A plain text (load/syntax parse_plain: its words and values) with its values shown: nothing else is read."""
    render = Render(ctx, path)
    return "".join(node.text if type(node) is n.Text else render.value_text(node, math_mode=False) for node in nodes)


def markdown(text: str, ctx: MarkupContext, path: Path, first_line: int = 1) -> str:
    """A Markdown text no plan holds, parsed (its mistakes in ctx.problems) and rendered."""
    return render_blocks(parse_markdown(text, path, first_line, ctx.problems), ctx, path)


def inline_markdown(text: str, ctx: MarkupContext, path: Path, line: int = 1) -> str:
    """A line of Markdown no plan holds (lesson.py's captions, a table's column names), parsed and rendered."""
    return render_inline(parse_markdown(text, path, line, ctx.problems), ctx, path)


def plain(text: str, ctx: MarkupContext, path: Path, line: int = 1) -> str:
    """A plain text no plan holds (a figure's alt text): its values shown, nothing else read."""
    return render_text(parse_plain(text, path, line, ctx.problems), ctx, path)


# ── images ──────────────────────────────────────────────────────────────────────────────────────────────────────────
def _image(alt: str, src: str, title: str | None, ctx: MarkupContext, path: Path, line: int) -> str:
    """A local image inlined as a data: URI, so the page stays one self-contained file."""
    def problem(message: Message, expected: Message | str) -> str:
        ctx.problems.append(Problem(path, line, message, expected))
        return ""

    local = msg("an image file in the lesson folder, e.g. `![diagram](diagram.svg)`")
    if re.match(r"^([a-zA-Z][\w+.-]*:|//)", src):
        return problem(msg("image `{src}` is not a file in the lesson folder: pages make no network requests",
                           src=src), local)
    kind = IMAGE_TYPES.get(Path(src).suffix.lower())
    if kind is None:
        return problem(msg("image `{src}` has an unsupported type", src=src),
                       msg("one of {items}", items=", ".join(IMAGE_TYPES)))
    if not alt.strip():
        return problem(msg("image `{src}` has no alt text", src=src), msg("`![what the image shows]({src})`", src=src))
    try:
        file = resolve_in_lesson(path.parent, src)
    except LessonFileMissing as exc:
        return problem(msg("image `{name}` not found in the lesson folder", name=src), exc.args[1])
    except LessonPathError as exc:
        return problem(msg("image {what}", what=exc.args[0]), exc.args[1])
    data = file.read_bytes()
    mime, magics = kind
    if not data.lstrip().startswith(magics) or (mime == "image/svg+xml" and b"<svg" not in data):
        kind_name = Path(src).suffix.lstrip(".").upper()
        return problem(msg("image `{src}` is not a {kind} image", src=src, kind=kind_name),
                       msg("a real {kind} file, or the right extension", kind=kind_name))
    if ctx.picture is not None:
        return ctx.picture(mime, data, alt)
    mime, data = pictures.lighter(mime, data)   # (a PNG as WebP where lighter: the page carries it inline)
    uri = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    title_attr = f' title="{html.escape(title)}"' if title else ""
    return f'<img src="{uri}" alt="{html.escape(alt)}"{title_attr}>'
