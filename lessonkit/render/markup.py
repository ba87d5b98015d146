"""Lesson Markdown → HTML: computed values, LaTeX → MathML, figures, widgets, callouts and figure references.

Everything our extensions produce is swapped for an opaque token before Python-Markdown runs and put back after,
so Markdown never mangles MathML, SVG or a formatted number.
"""
from __future__ import annotations

import base64
import html
import re
from pathlib import Path
from typing import Any, Callable

import markdown

from ..features import citations, code, equations
from ..load.lessons import LessonFileMissing, LessonPathError, resolve_in_lesson
from ..load import syntax
from ..load.document import SHOWS_ONLY, Block, parse_blocks
from ..support.errors import Miss, Notice, Problem
from ..support.messages import Message, msg
from ..support.records import Mutable, fresh
from ..support.values import VALUE, reference, shown
from .mathmarkup import equation_ref, math_html, numbered, slim_mathml

INLINE = re.compile(
    r"(?P<code>(?P<ticks>`+)(?P<code_body>.+?)(?P=ticks)(?P<code_values>\{values\})?)"  # syntax.CODE_SPAN, and
    + "|" + syntax.DOLLAR                                                # `…`{values} (features.code)
    + r"|(?P<termref>\[\[(?P<term>[^\[\]|\n]*)(?:\|(?P<term_text>[^\[\]\n]*))?\]\])"
    + "|" + citations.CITATION.pattern                                     # [@key], @key (features.citations)
    + r"|(?P<image>!\[(?P<img_alt>[^\]\n]*)\]\((?P<img_src>[^)\s]*)(?:\s+\"(?P<img_title>[^\"\n]*)\")?\))"
    + "|" + syntax.DISPLAY_MATH + "|" + syntax.INLINE_MATH
    + rf"|(?P<value>{VALUE.pattern})"
    r"|@fig:(?P<figref>[\w-]*[\w])"
    rf"|@eq:(?P<eqref>{syntax.NAME})"
    r"|@lesson:(?P<lesson>[a-z0-9][a-z0-9-]*[a-z0-9]|[a-z0-9])"
    rf"(?:#(?P<lesson_section>eq:{syntax.NAME}|fig:[\w-]*[\w]|[A-Za-z][\w-]*[\w]|[A-Za-z]))?",
    re.DOTALL,
)
# raw HTML the page's Content-Security-Policy would block, or that would fetch something
RAW_BLOCKED = re.compile(r"<(?P<tag>script|style|iframe|object|embed|link|img|video|audio|source)\b"
                         r"|(?:<[a-zA-Z][^>]*?\s|\{:?[^}\n]*?(?<![\w-]))(?P<attr>style|on[a-z]+)\s*=",  # HTML or {: attr }
                         re.IGNORECASE)
IMAGE_TYPES = {".png": ("image/png", (b"\x89PNG",)), ".jpg": ("image/jpeg", (b"\xff\xd8\xff",)),
               ".jpeg": ("image/jpeg", (b"\xff\xd8\xff",)), ".gif": ("image/gif", (b"GIF87a", b"GIF89a")),
               ".webp": ("image/webp", (b"RIFF",)), ".svg": ("image/svg+xml", (b"<",))}
TOKEN = "\x1a{}\x1a"  # SUB control character: never in authored text, passed through by Markdown
TOKEN_RE = re.compile("\x1a(\\d+)\x1a")


class Converters:
    """What one build's Markdown shares: the LaTeX → MathML memo ("inline|block NUL latex" → MathML: conversions are
    pure, and a build that finds them all there — the session fills it from the cache — never imports latex2mathml,
    a tenth of a warm build's time) and one Markdown converter (building one per call, and looking extension names
    up among installed packages' entry points, cost more than converting the text)."""

    def __init__(self, mathml: dict[str, str] | None = None, highlights: dict[str, str | None] | None = None):
        self.mathml = {} if mathml is None else mathml
        self.highlighter = code.Highlighter(highlights)  # code blocks and listings, Pygments' classes (features.code)
        self._markdown: markdown.Markdown | None = None

    def markdown(self, source: str) -> markdown.Markdown:
        """The converter, ready for `source`. Its attribute lists (`{#id}`, `{: .class}`) are added when a text first
        has a `{`: without one they change nothing, and loading them costs more than converting a section (a
        regular expression of a large character class)."""
        if self._markdown is None:
            from markdown.extensions.sane_lists import SaneListExtension
            from markdown.extensions.tables import TableExtension

            self._markdown = markdown.Markdown(extensions=[TableExtension(), SaneListExtension()],
                                               output_format="html")
        if "{" in source and "attr_list" not in self._markdown.treeprocessors:
            from markdown.extensions.attr_list import AttrListExtension

            self._markdown.registerExtensions([AttrListExtension()], {})
        return self._markdown.reset()

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
    cite: Callable[[str], "str | Miss"] = lambda body: Miss(
        msg("citation `{citation}` outside a lesson's text", citation=f"[{body}]"),
        "`[@key]` only in lesson.md and lesson.yaml")
    # `@key`: the authors and year (and the number), or a Miss (features.citations.Citer.narrative)
    cite_narrative: Callable[[str, "str | None"], "str | Miss"] = lambda key, locator=None: Miss(
        msg("citation `{citation}` outside a lesson's text", citation=f"@{key}"),
        msg("`@key` only in lesson.md, lesson.yaml and the glossary's definitions"))
    figure_label: str = "Figure"  # the theme's `ui.figure` on every page (render/lesson.py passes it)
    equation_numbers: dict[str, int] = fresh(dict)  # the lesson's labels → numbers (equation_numbers)
    equation_words: tuple[str, str] = ("({n})", "Eq. ({n})")  # the theme's `ui.equation_number`, `ui.equation_ref`
    number_equations: bool = False  # lesson.md's sections: a label numbers its equation (anywhere else: a problem)
    labelled: dict[str, int] = fresh(dict)  # labels rendered so far → their line (twice: a problem)
    problems: list[Problem] = fresh(list)
    warnings: list[Problem] = fresh(list)   # what renders but the author should know (Notice)
    converters: Converters = fresh(Converters)
    # maths and images for a page (MathML, data: URIs), or for a learning platform's question bank: "tex" keeps
    # the LaTeX (values filled in) for the platform's TeX filter, and `picture(mime, data, alt)` places an image
    math: str = "mathml"
    picture: Callable[[str, bytes, str], str] | None = None
    # `{{ expression }}` at (file, line): a warning when the text shows a value before the reader meets the cell that
    # gives it (compute/cellrun.py read_too_early), else None
    read_value: Callable[[str, Path, int], "Problem | None"] = lambda expression, path, line: None


class _Stash:
    def __init__(self) -> None:
        self.items: list[str] = []
        self.blocks: set[int] = set()  # tokens standing for block HTML: Markdown's <p> around them must go

    def add(self, html_text: str, block: bool = False) -> str:
        self.items.append(html_text)
        if block:
            self.blocks.add(len(self.items) - 1)
        return TOKEN.format(len(self.items) - 1)

    def restore(self, text: str) -> str:
        """One pass: stashed items are finished HTML and are never searched for tokens again."""
        def unwrap(m: re.Match) -> str:
            index = int(m.group(1))
            return self.items[index] if index in self.blocks else m.group(0)

        text = re.sub("<p>\x1a(\\d+)\x1a</p>", unwrap, text)
        return TOKEN_RE.sub(lambda m: self.items[int(m.group(1))], text)


def render_block(text: str, ctx: MarkupContext, path: Path, first_line: int = 1) -> str:
    """Render Markdown with our extensions to HTML (parsed by lessonkit.document, like lesson.md)."""
    return render_blocks(parse_blocks(text.splitlines(), first_line, path, ctx.problems), ctx, path)


def render_inline(text: str, ctx: MarkupContext, path: Path, first_line: int = 1) -> str:
    """Render a one-paragraph Markdown string without its <p> wrapper."""
    out = render_block(text, ctx, path, first_line).strip()
    if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
        out = out[3:-4]
    return out


def render_blocks(blocks: list[Block], ctx: MarkupContext, path: Path) -> str:
    """Render parsed blocks (see lessonkit.document) to HTML."""
    stash = _Stash()
    lines, origins = _flatten(blocks, ctx, path, stash)
    source = _inline("\n".join(lines), ctx, path, origins, stash)
    return stash.restore(ctx.converters.markdown(source).convert(source))


def _flatten(blocks: list[Block], ctx: MarkupContext, path: Path, stash: _Stash) -> tuple[list[str], list[int]]:
    """Text lines as they are; every other block becomes a token on a line of its own, already rendered.
    Returns the lines and, for each, the source line it came from (for messages after this pass)."""
    out: list[str] = []
    origins: list[int] = []
    for block in blocks:
        if block.kind == "text":
            out.extend(block.lines)
            origins.extend(range(block.line, block.line + len(block.lines)))
            continue
        if block.kind == "fence":
            rendered = _fence(block, ctx, path)
        elif block.kind == "directive":
            rendered = _directive(block, ctx, path)
        else:
            rendered = _container(block, ctx, path)
        out.extend(["", stash.add(rendered, block=True), ""])
        origins.extend([block.line] * 3)
    return out, origins


def fence_info(info: str) -> tuple[str, bool]:
    """A fence's language and whether it asks for values (```` ```python {values} ````)."""
    words = info.split()
    return next((w for w in words if w != VALUES_FLAG), ""), VALUES_FLAG in words


VALUES_FLAG = "{values}"


def _fence(block: Block, ctx: MarkupContext, path: Path) -> str:
    """A code block: its `{{ values }}` filled in only when the fence asks (`{values}`), highlighted when Pygments
    knows its language (then it mounts the `code` component, whose CSS colours it)."""
    language, values = fence_info(block.name)
    text = "\n".join(block.lines)
    if values:
        text = values_in_code(text, ctx, path, block.line + 1)
    cls = f' class="language-{html.escape(language)}"' if language else ""
    shown = ctx.converters.highlighter.html(text, language) if language else None
    if shown is None:
        return f"<pre><code{cls}>{html.escape(text)}</code></pre>"
    return f'<pre class="highlight" data-widget="{code.KIND}" tabindex="0"><code{cls}>{shown}</code></pre>'


VALUE_IN_CODE = VALUE


def values_in_code(text: str, ctx: MarkupContext, path: Path, first_line: int) -> str:
    """`{{ name }}` in code that asked for values, formatted as in the text (never in code that did not ask)."""
    def replace(m: re.Match) -> str:
        line = first_line + text.count("\n", 0, m.start())
        return _value_text(*reference(m), ctx, path, line, math_mode=False)
    return VALUE_IN_CODE.sub(replace, text)


def _container(block: Block, ctx: MarkupContext, path: Path) -> str:
    """A `::: kind title` block: its contents rendered once, then its partial (callout, cards, toggle …), which gets
    the nested containers (cards, toggle states) also one by one as `parts`."""
    _misplaced_part(block, None, ctx, path)
    return ctx.render_callout(_container_part(block, ctx, path))


def _misplaced_part(block: Block, parent: str | None, ctx: MarkupContext, path: Path) -> None:
    """A `::: state` outside a toggle, a `::: tab` outside tabs."""
    for container, part in SHOWS_ONLY.items():
        if block.name == part and parent != container:
            ctx.problems.append(Problem(path, block.line, msg("`::: {part}` outside a `::: {container}` block",
                                                              part=part, container=container),
                                        msg("{part}s inside `::: {container}` … `:::`", part=part,
                                            container=container)))


def _container_part(block: Block, ctx: MarkupContext, path: Path) -> dict[str, Any]:
    parts, pieces, run = [], [], []
    for child in [*block.children, None]:
        if child is not None and child.kind != "container":
            run.append(child)
            continue
        if run:
            rendered = render_blocks(run, ctx, path)
            if rendered.strip():
                pieces.append(rendered)
            run = []
        if child is None:
            break
        _misplaced_part(child, block.name, ctx, path)
        part = _container_part(child, ctx, path)
        parts.append(part)
        if SHOWS_ONLY.get(block.name) != child.name:  # a toggle shows its states from `parts`, tabs their tabs
            pieces.append(ctx.render_callout(part))
    title = render_inline(block.arg, ctx, path, block.line) if block.arg and block.name != "tabs" else ""
    return {"kind": block.name, "title": title, "body": "\n".join(pieces), "parts": parts, "line": block.line,
            "arg": block.arg}


def _directive(block: Block, ctx: MarkupContext, path: Path) -> str:
    place = ctx.placers.get(block.name)
    if place is None:
        ctx.problems.append(Problem(path, block.line, msg("unknown directive `{name}`", name=block.name),
                                    msg("one of: {items}", items=", ".join(sorted(ctx.placers)))))
        return ""
    result = place(block.arg, block.args)
    if isinstance(result, Miss):
        ctx.problems.append(Problem(path, block.line, result.message, result.expected))
        return ""
    return result


def _inline(text: str, ctx: MarkupContext, path: Path, origins: list[int], stash: _Stash) -> str:
    """Swap code spans, math, values and figure references for tokens, in one pass over the source."""

    def line_at(offset: int) -> int:
        return origins[text.count("\n", 0, offset)] if origins else 1

    # what is left once our syntax is blanked out (same offsets, same lines): only here can raw HTML or a
    # malformed `{{` hide
    rest = INLINE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)

    def replace(m: re.Match) -> str:
        line = line_at(m.start())
        if m.group("code"):
            body = m.group("code_body").strip()
            if m.group("code_values"):
                body = values_in_code(body, ctx, path, line)
            return stash.add(f"<code>{html.escape(body)}</code>")
        if m.group("dollar"):
            return "$"
        if m.group("termref"):
            mark = ctx.mark_term(m.group("term").strip(), m.group("term_text"))
            if isinstance(mark, Miss):
                ctx.problems.append(Problem(path, line, mark.message, mark.expected))
                return stash.add(html.escape(m.group("term_text") or m.group("term")))
            return stash.add(mark)
        if m.group("cite") or m.group("narrative"):
            cited = ctx.cite(m.group("cite_body")) if m.group("cite") else \
                ctx.cite_narrative(m.group("cite_key"), m.group("cite_locator"))
            if isinstance(cited, Miss):
                ctx.problems.append(Problem(path, line, cited.message, cited.expected))
                return stash.add(html.escape(m.group(0)))
            return stash.add(cited)
        if m.group("image"):
            return stash.add(_image(m.group("img_alt"), m.group("img_src"), m.group("img_title"), ctx, path, line))
        if m.group("display") is not None:
            block = _math(m.group("display"), "block", ctx, path, line)
            if m.group("eq_attr") is None:
                return stash.add(block)
            return stash.add(numbered(block, m.group("eq_attr"), ctx, path, line_at(m.start("eq_attr"))))
        if m.group("inline") is not None:
            return stash.add(_math(m.group("inline"), "inline", ctx, path, line))
        if m.group("value"):
            shown = _value_text(*reference(m), ctx, path, line, math_mode=False)
            return stash.add(html.escape(shown))
        if m.group("eqref"):
            return stash.add(equation_ref(m.group("eqref"), ctx, path, line))
        if m.group("lesson"):
            link = ctx.link_lesson(m.group("lesson"), m.group("lesson_section"))
            if isinstance(link, Miss):
                ctx.problems.append(Problem(path, line, link.message, link.expected))
                return stash.add(html.escape(m.group(0)))
            if isinstance(link, Notice):
                ctx.warnings.append(Problem(path, line, link.message, link.expected))
                return stash.add(link.html)
            return stash.add(link)
        return stash.add(_figure_ref(m.group("figref"), ctx, path, line))

    out = INLINE.sub(replace, text)
    _check_rest(rest, ctx, path, line_at)
    return out


def _check_rest(rest: str, ctx: MarkupContext, path: Path, line_at: Callable[[int], int]) -> None:
    """What is left of a text once our syntax is blanked out: a `{{` no value reference reads, a label after no
    equation, raw HTML the page's policy would block."""
    for m in re.finditer(r"\{\{(?!<)", rest):
        ctx.problems.append(Problem(path, line_at(m.start()), "cannot read value reference `{{`…",
                                    msg("`{{ name }}`, `{{ name:spec }}` or `{{ expression:spec }}` starting with a "
                                        "name, on one line")))
    for m in re.finditer(r"\{#eq:", rest):
        ctx.problems.append(Problem(path, line_at(m.start()), msg("an equation label `{#eq:…}` that follows no "
                                                                  "display equation"),
                                    msg("`$$ … $$ {#eq:NAME}`: the label right after the closing `$$`")))
    for m in RAW_BLOCKED.finditer(rest):
        what = f"`<{m.group('tag').lower()}>`" if m.group("tag") else \
            msg("attribute `{name}`", name=f"{m.group('attr').lower()}=")
        ctx.problems.append(Problem(path, line_at(m.start()), msg("raw HTML {what}: the page's Content-Security-Policy "
                                                                  "blocks it (pages run only lessonkit's own script "
                                                                  "and style, and load nothing)", what=what),
                                    "Markdown, `![alt](file.png)` for images, or a widget"))


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
    uri = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    title_attr = f' title="{html.escape(title)}"' if title else ""
    return f'<img src="{uri}" alt="{html.escape(alt)}"{title_attr}>'


def _math(latex: str, display: str, ctx: MarkupContext, path: Path, line: int) -> str:
    """A formula with its `{{ values }}` filled in, as MathML (render/mathmarkup.py)."""
    def value_in_math(m: re.Match) -> str:
        return _value_text(*reference(m), ctx, path, line, math_mode=True)

    latex = INLINE.sub(lambda m: value_in_math(m) if m.group("value") else m.group(0), latex)
    return math_html(latex, display, ctx, path, line)


def _value_text(name: str, spec: str | None, ctx: MarkupContext, path: Path, line: int, math_mode: bool) -> str:
    result = shown(name, spec, ctx.values, math_mode=math_mode)
    if isinstance(result, Miss):
        ctx.problems.append(Problem(path, line, result.message, result.expected))
        return "?"
    early = ctx.read_value(name, path, line)
    if early is not None:
        ctx.warnings.append(early)
    return result


def _figure_ref(name: str, ctx: MarkupContext, path: Path, line: int) -> str:
    if name not in ctx.figure_numbers:
        ctx.problems.append(Problem(path, line, msg("reference to unknown figure `@fig:{name}`", name=name),
                                    msg("a figure placed in the lesson: {names}",
                                        names=", ".join(sorted(ctx.figure_numbers)) or msg("none"))))
        return f"{ctx.figure_label} ?"
    return f'<a class="fig-ref" href="#fig-{name}">{ctx.figure_label} {ctx.figure_numbers[name]}</a>'


def render_text(text: str, ctx: MarkupContext, path: Path, first_line: int = 1) -> str:
    """Plain text (for alt texts): values substituted, nothing else interpreted."""
    def replace(m: re.Match) -> str:
        if not m.group("value"):
            return m.group(0)
        return _value_text(*reference(m), ctx, path, first_line + text.count("\n", 0, m.start()), math_mode=False)

    return INLINE.sub(replace, text)
