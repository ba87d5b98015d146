"""A lesson's notebook (features/notebook.py): the page's words as Markdown cells, the lesson's code as code cells.

The notebook reads like the page: title, introduction, objectives, the classroom question, every section (values
formatted as on the page, `$math$` as it is, figure references and citations with the page's numbers), each figure
drawn by a code cell where the page places it, the challenges with their answers, the bibliography. Before the
sections come the setup (lessonkit's stand-in) and lesson.py itself, cell by cell. Speaker notes stay out (they are
the teacher's); a widget, which only a web page can show, is named where it stands.
"""
from __future__ import annotations

import base64
import hashlib
import re
import sys
from pathlib import Path
from typing import Any

from ..compute.run import ComputedLesson
from ..features import citations, code as listings, notebook
from ..features.bibstyle import runs_markdown
from ..features.bibtex import Bibliography
from ..features.notebook import Cell
from ..load.document import Block, walk
from ..load.plan import wants_output
from ..load.lessons import LessonPathError, resolve_in_lesson
from ..support.paths import SitePaths
from ..support.store import NOTEBOOKS
from ..support.values import reference
from . import markup
from .notebookparts import InlineMemo, NotebookParts


def lesson_notebook(lesson: ComputedLesson, context: dict[str, Any], ui, course, cache=None,
                    bibliography: Bibliography | None = None) -> tuple[tuple[str, str], tuple[str, ...]]:
    """((output path, .ipynb text), the cache entries it is made from) of the lesson's notebook; `context` is its
    page's (render/lesson.py). From the cache when nothing it is made of changed; else its parts made of lesson.py
    and the engine alone (the setup, lesson.py's cells) and the texts converted before from there (NotebookParts)."""
    path = SitePaths.notebook(lesson.slug)
    store = cache if cache is not None and cache.enabled else None
    parts = NotebookParts(store, lesson, ui)
    key = None
    if store is not None and lesson.files_digest:
        src = lesson.source
        key = notebook.notebook_key(lesson.files_digest, numbers_version(), _bytes(src.meta_path),
                                    _bytes(src.body_path),
                                    _bytes(src.code_path) if src.code_path else "",  # (its comments too)
                                    bibliography.digest if bibliography else "",
                                    course.lessons, ui.lang, {k: ui[k] for k in ui.keys()},
                                    context.get("answers", True))  # (hidden answers leave it without them)
        saved = store.get_text(NOTEBOOKS, key)
        if saved is not None:   # its parts: what the next edit of its text reads, kept as long as it is
            return (path, saved), (NOTEBOOKS.entry(key), *parts.kept_with(key))
    text = notebook.notebook_text(NotebookWriter(lesson, context, ui, course, parts).cells(), ui.lang)
    if key is None:
        return (path, text), parts.entries()
    store.put_text(NOTEBOOKS, key, text)
    return (path, text), (NOTEBOOKS.entry(key), *parts.keep_with(key))


def numbers_version() -> str:
    from ..support.cachekeys import package_version

    return f"numpy {package_version('numpy')} matplotlib {package_version('matplotlib')}"


def _bytes(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


class NotebookWriter:
    def __init__(self, lesson: ComputedLesson, context: dict[str, Any], ui, course,
                 parts: NotebookParts | None = None):
        self.lesson, self.context, self.ui, self.course = lesson, context, ui, course
        self.parts = parts or NotebookParts(None, lesson, ui)
        self.figure_numbers = lesson.source.plan.figures
        self.citer: citations.Citer = context["cited"]
        self.ctx = markup.MarkupContext(values=lesson.values, figure_numbers=self.figure_numbers, placers={},
                                        render_callout=lambda block: "")  # its problems: the page reported them
        self.equation_numbers = lesson.source.plan.equations
        self.anchors: dict[str, str] = {}
        self.memo: InlineMemo | None = None
        self.anchors = self.heading_anchors()
        self.memo = self.parts.inline_memo(self.inline_state())
        self.out: list[Cell] = []
        self.text: list[str] = []
        self.attachments: list[tuple[str, str, str]] = []
        # a lesson.py written as cells: the author's cells not yet in the notebook, each put where the page first
        # shows it (or shows what it defines), with the cells before it (compute/cells.py); None: a plain lesson.py
        self.pending = list(lesson.cells.cells) if lesson.cells is not None else None

    # ── the notebook, top to bottom ─────────────────────────────────────────────────────────────────────────────────
    def cells(self) -> list[Cell]:
        src, meta, ui = self.lesson.source, self.lesson.source.meta, self.ui
        self.markdown(f"# {self.inline(_str(meta.get('title')))}")
        if _str(meta.get("summary")):
            self.markdown(self.inline(_str(meta["summary"]), src.meta_path))
        self.field("intro")
        self.markdown(f"*{ui.notebook_about}*")
        if isinstance(meta.get("objectives"), list):
            self.markdown(f"**{ui.objectives}**\n\n" + "\n".join(f"- {self.inline(o)}" for o in meta["objectives"]
                                                                 if isinstance(o, str)))
        if _str(meta.get("question")):
            self.markdown(f"**{ui.question}**")
            self.field("question")
        self.flush()
        self.out += [Cell("markdown", f"## {ui.notebook_setup}\n\n{ui.notebook_setup_about}"), self.setup()]
        if self.pending is None:  # lesson.py up front, in cells of its own
            self.out.append(Cell("markdown", f"## {ui.notebook_code}\n\n{ui.notebook_code_about}"))
        if src.code_path is not None and self.pending is None:
            self.out += self.parts.code_cells()
        for n, section in enumerate(src.sections, start=1):
            self.markdown(self.section_heading(n, section))
            self.walk(section.blocks, src.body_path)
        self.author_cells_through(None)   # the cells no section showed: the notebook runs them all
        self.challenges()
        self.references()
        self.flush()
        if self.memo is not None:
            self.memo.save()
        return self.out

    def section_heading(self, n: int, section) -> str:
        return f"## {n} {self.inline(section.title)}"

    def heading_anchors(self) -> dict[str, str]:
        """Each heading id of lesson.md (a section's, a `### 小标题 {#id}`'s) → the anchor Jupyter gives that heading
        in the notebook: its text with spaces as `-` (JupyterLab, Notebook 7 and nbconvert alike; they keep no `id`
        of the author's, and an `<a id>` does not survive JupyterLab's sanitizer), so `[…](#id)` still leads there."""
        anchors: dict[str, str] = {}
        for n, section in enumerate(self.lesson.source.sections, start=1):
            anchors[section.id] = jupyter_anchor(self.section_heading(n, section))
            for block in walk(section.blocks):
                for line in block.lines if block.kind == "text" else ():
                    heading = HEADING_ID.match(line)
                    if heading:
                        anchors.setdefault(heading.group("id"), jupyter_anchor(self.inline(heading.group("heading"))))
        return anchors

    def setup(self) -> Cell:
        return notebook.setup_cell(self.parts.setup_code(), notebook.data_files(self.lesson.source.folder))

    def challenges(self) -> None:
        meta, ui = self.lesson.source.meta, self.ui
        items = meta.get("challenges") if isinstance(meta.get("challenges"), list) else []
        if not items:
            return
        self.markdown(f"## {ui.challenges}")
        for n, challenge in enumerate(items, start=1):
            challenge = challenge if isinstance(challenge, dict) else {}
            self.markdown(f"### {ui.challenge} {n} · {self.inline(_str(challenge.get('title')))}")
            self.field(f"challenges.{n - 1}.question")
            hints = [h for h in challenge.get("hints") or [] if isinstance(h, str)]
            if hints:
                self.markdown(f"**{ui.notebook_hints}**\n\n" + "\n".join(f"{i}. {self.inline(h)}"
                                                                       for i, h in enumerate(hints, start=1)))
            if self.context.get("answers", True):  # hidden answers are in no file of the students' site
                self.markdown(f"**{ui.notebook_answer}**")
                self.field(f"challenges.{n - 1}.answer")

    def references(self) -> None:
        ui = self.ui
        if self.context.get("references"):
            self.markdown(f"## {ui.references}\n\n" + "\n".join(
                f"- \\[{e['number']}\\] {runs_markdown(e['runs'])}" for e in self.context["references"]))
        sources = [s for s in self.lesson.source.meta.get("sources") or [] if isinstance(s, str)] \
            if isinstance(self.lesson.source.meta.get("sources"), list) else []
        if sources:
            self.markdown(f"## {ui.sources}\n\n" + "\n".join(f"- {self.inline(s)}" for s in sources))

    # ── blocks ──────────────────────────────────────────────────────────────────────────────────────────────────────
    def field(self, key: str) -> None:
        """A lesson.yaml field's Markdown, as the plan parsed it at load (load/plan.py)."""
        self.walk(self.lesson.source.plan.blocks(key), self.lesson.source.meta_path)

    def walk(self, blocks: list[Block], path: Path) -> None:
        for block in blocks:
            if block.kind == "text":
                self.markdown(self.inline("\n".join(block.lines), path))
            elif block.kind == "fence":
                language, values = markup.fence_info(block.name)
                body = "\n".join(block.lines)
                if values:
                    body = markup.values_in_code(body, self.ctx, path, block.line + 1)
                self.markdown(f"```{language}\n{body}\n```")
            elif block.kind == "directive":
                self.directive(block, path)
            elif block.name != "notes":  # a callout, cards, a toggle, a tab: their title, then their blocks
                if block.arg and block.name != "tabs":  # (a tab set's group name is no title)
                    self.markdown(f"**{self.inline(block.arg, path)}**")
                self.walk(block.children, path)

    def directive(self, block: Block, path: Path) -> None:
        registry, name = self.lesson.registry, block.arg
        if block.name == "figure":
            self.figure(name)
        elif block.name == "code" and self.lesson.cells is not None and self.lesson.cells.cell(name) is not None:
            self.author_cells_through(name)     # the cell itself, in its place (its figure: with its caption)
            if name in registry.figures and wants_output(block.args):
                self.caption(name)
        elif block.name == "code":
            self.author_cells_through(name)     # (a function of a lesson written as cells: the cell defining it)
            shown = listings.listing(self.lesson.source.code_path, name)
            if shown is not None:
                self.markdown(f"`{name}` · {self.ui.code_lines.format(first=shown.first, last=shown.last)}")
            figure = next((f.name for f in registry.figures.values() if f.code_name == name), None)
            if not wants_output(block.args):
                return
            if name in registry.values:
                self.code(f"lesson.get({name!r})")
            elif figure:
                self.figure(figure)
            elif name in registry.widgets:
                self.markdown(self.ui.notebook_widget.format(name=name))
        elif block.name == "widget":
            self.markdown(self.ui.notebook_widget.format(name=name))
        elif block.name == "table":
            head, *rest = name.split(".")
            self.code(f"lesson.get({head!r})" + "".join(f"[{int(k)}]" if k.isdigit() else f"[{k!r}]" for k in rest))
        elif block.name == "check":
            entries = self.lesson.source.meta.get("checks")
            found = next((i for i, e in enumerate(entries if isinstance(entries, list) else [])
                          if isinstance(e, dict) and e.get("id") == name), None)
            if found is not None:
                self.markdown(f"**{self.ui.selfcheck}**")
                self.field(f"checks.{found}.question")
                if _str(entries[found].get("answer")) and self.context.get("answers", True):
                    self.markdown(f"**{self.ui.notebook_answer}**")
                    self.field(f"checks.{found}.answer")

    def figure(self, name: str) -> None:
        spec = self.lesson.registry.figures.get(name)
        if spec is None:
            return
        if spec.cell is not None:  # a figure cell draws where it stands, as in the author's notebook
            self.author_cells_through(name)
        else:
            self.author_cells_through(spec.func.__name__)
            self.code(f"lesson.draw({name!r})")
        self.caption(name)

    def caption(self, name: str) -> None:
        number = self.figure_numbers.get(name, "?")
        caption = self.lesson.registry.figures[name].caption
        self.markdown(f"**{self.ui.figure} {number}** {self.inline(caption, self.lesson.source.code_path)}")

    def author_cells_through(self, name: str | None) -> None:
        """The author's cells up to the one named `name` (or defining the function `name`), those not yet in the
        notebook; with None, all that are left. Nothing for a plain lesson.py."""
        if not self.pending:
            return
        until = len(self.pending) if name is None else next(
            (i + 1 for i, cell in enumerate(self.pending) if cell.name == name or _defines(cell, name)), 0)
        for cell in self.pending[:until]:
            made = notebook.author_cell(cell)
            if made.kind == "markdown":
                self.markdown(made.source)
            else:
                self.flush()
                self.out.append(made)
        del self.pending[:until]

    # ── cells ───────────────────────────────────────────────────────────────────────────────────────────────────────
    def markdown(self, text: str) -> None:
        if text.strip():
            self.text.append(text)

    def code(self, source: str) -> None:
        self.flush()
        self.out.append(Cell("code", source))

    def flush(self) -> None:
        if self.text:
            self.out.append(Cell("markdown", "\n\n".join(self.text), attachments=tuple(self.attachments)))
        self.text, self.attachments = [], []

    # ── inline Markdown ─────────────────────────────────────────────────────────────────────────────────────────────
    def inline_state(self) -> list | None:
        """Everything `inline` reads but its text and path — the lesson's values (its files' digest, and what they
        are computed and formatted with), the figure, equation and citation numbers, the references, the headings'
        anchors, the lessons' titles, the theme's words: the key of its memo (InlineMemo). None: not known well
        enough to keep anything by."""
        lesson, bibliography = self.lesson, self.citer.bibliography
        if not lesson.files_digest or bibliography is not None and not bibliography.digest:
            return None
        return [lesson.files_digest, numbers_version(), sys.version, str(lesson.source.body_path),
                sorted(self.figure_numbers.items()), sorted(self.equation_numbers.items()),
                sorted(self.anchors.items()), sorted(self.citer.numbers.items()),
                None if bibliography is None else [bibliography.digest, bibliography.unread],
                [[entry["slug"], entry["title"]] for entry in self.course.lessons],
                self.ui.lang, {k: self.ui[k] for k in self.ui.keys()}]

    def inline(self, text: str, path: Path | None = None) -> str:
        """lessonkit's inline syntax as Jupyter's Markdown: values formatted, references as the page numbers them.
        From the memo when a build converted the same text with the same inline_state (an image is attached to its
        cell: converted each time)."""
        path = path or self.lesson.source.body_path
        if self.memo is None or "![" in text:
            return self._converted(text, path)
        return self.memo.get(f"{path}\0{text}", lambda: self._converted(text, path))

    def _converted(self, text: str, path: Path) -> str:
        text = HEADING_ID.sub(lambda m: m.group("heading"), text)  # Jupyter shows a `{#id}` as it is
        text = markup.INLINE.sub(lambda m: self._inline(m, path), text)
        return LOCAL_LINK.sub(lambda m: f"](#{self.anchors[m.group('id')]})" if m.group("id") in self.anchors
                              else m.group(0), text)

    def _inline(self, m: re.Match, path: Path) -> str:
        ctx = self.ctx
        if m.group("code"):
            body = m.group("code_body")
            return f"`{markup.values_in_code(body, ctx, path, 1)}`" if m.group("code_values") else m.group(0)
        if m.group("termref"):
            return (m.group("term_text") or m.group("term")).strip()
        if m.group("cite"):
            return self._citation(m.group("cite_body"))
        if m.group("narrative"):
            return self.citer.narrative_shown(m.group("cite_key"), str, str, m.group("cite_locator")) \
                .replace("[", "\\[").replace("]", "\\]")
        if m.group("image"):
            return self._image(m.group("img_alt"), m.group("img_src"))
        if m.group("display") is not None or m.group("inline") is not None:
            label = m.groupdict().get("eq_attr")
            formula = m.group(0)[:m.end("display") - m.start(0)] + "$$" if label else m.group(0)
            number = self.equation_numbers.get(label.removeprefix("eq:")) if label else None
            if number is not None:  # the page's number, as Jupyter's MathJax writes one
                formula = formula[:-2].rstrip() + f" \\tag{{{number}}}\n$$"
            return re.sub(markup.VALUE_IN_CODE.pattern, lambda v: markup._value_text(
                *reference(v), ctx, path, 1, math_mode=True), formula)
        if m.groupdict().get("eqref"):
            return self.ui.equation_ref.format(n=self.equation_numbers.get(m.group("eqref"), "?"))
        if m.group("value"):
            return markup._value_text(*reference(m), ctx, path, 1, math_mode=False)
        if m.group("lesson"):
            target = self.course.find(m.group("lesson"))
            return target["title"] if target else m.group(0)
        if m.groupdict().get("figref"):
            return f"{self.ui.figure} {self.figure_numbers.get(m.group('figref'), '?')}"
        return m.group(0)

    def _citation(self, body: str) -> str:
        return self.citer.shown(body, str).replace("[", "\\[").replace("]", "\\]")

    def _image(self, alt: str, src: str) -> str:
        try:
            file = resolve_in_lesson(self.lesson.source.folder, src)
        except LessonPathError:
            return alt
        kind = markup.IMAGE_TYPES.get(file.suffix.lower())
        name = re.sub(r"[^\w.-]", "-", src)
        if kind is None:
            return alt
        self.attachments.append((name, kind[0], base64.b64encode(file.read_bytes()).decode("ascii")))
        return f"![{alt}](attachment:{name})"


HEADING_ID = re.compile(r"(?m)^(?P<heading>#{1,6}[ \t].*?)[ \t]*\{:?[ \t]*#(?P<id>[A-Za-z][\w-]*)[^}\n]*\}[ \t]*$")
LOCAL_LINK = re.compile(r"\]\(#(?P<id>[A-Za-z][\w-]*)\)")


def jupyter_anchor(heading: str) -> str:
    """The id Jupyter gives a Markdown heading: its text as shown (no `#`, no emphasis or code marks), spaces as
    `-`; parentheses escaped for a link's target."""
    text = re.sub(r"^#+[ \t]+", "", heading.strip())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)          # a link: its text
    text = re.sub(r"(`+)(.+?)\1", r"\2", text)                       # code: its text
    text = re.sub(r"(\*{1,2})(?=\S)(.+?)(?<=\S)\1", r"\2", text)                # emphasis: its text
    text = re.sub(r"\\([\\`*_{}\[\]()#+.!-])", r"\1", text)                  # an escaped character: itself
    return re.sub(r"([()])", r"\\\1", text.replace(" ", "-"))


def _defines(cell, name: str) -> bool:
    """Whether a code cell defines the function or class `name` at its top level."""
    if cell.kind == "markdown" or f"def {name}" not in cell.body and f"class {name}" not in cell.body:
        return False
    import ast

    try:
        tree = ast.parse(cell.body)
    except SyntaxError:
        return False
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name
               for n in tree.body)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
