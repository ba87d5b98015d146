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
from pathlib import Path
from typing import Any

from ..compute.run import ComputedLesson
from ..features import citations, code as listings, notebook, notes
from ..features.bibstyle import runs_markdown
from ..features.bibtex import Bibliography
from ..features.notebook import Cell
from ..load import requires
from ..load.lessons import LessonPathError, resolve_in_lesson
from ..load.plan import wants_output
from ..load.syntax import nodes as n
from ..load.syntax import parse_markdown
from ..support.paths import SitePaths
from ..support.store import NOTEBOOKS
from . import markup
from .notebookparts import NotebookParts
from .notebooktext import Markdown, Says, escape


def lesson_notebook(lesson: ComputedLesson, rendered, ui, course, cache=None,
                    bibliography: Bibliography | None = None) -> tuple[tuple[str, str], tuple[str, ...]]:
    """((output path, .ipynb text), the cache entries it is made from) of the lesson's notebook; `rendered`: the
    lesson as rendered once (render/lesson.py RenderedLesson: its citations' numbers, its answers shown or not).
    From the cache when nothing it is made of changed; else with its parts made of lesson.py and the engine alone
    (the setup, lesson.py's cells: NotebookParts)."""
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
                                    rendered.answers)  # (hidden answers leave it without them)
        saved = store.get_text(NOTEBOOKS, key)
        if saved is not None:   # its parts: what the next edit of its text reads, kept as long as it is
            return (path, saved), (NOTEBOOKS.entry(key), *parts.kept_with(key))
    text = notebook.notebook_text(NotebookWriter(lesson, rendered, ui, course, parts).cells(), ui.lang)
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
    def __init__(self, lesson: ComputedLesson, rendered, ui, course, parts: NotebookParts | None = None):
        self.lesson, self.ui, self.course = lesson, ui, course
        self.answers = rendered.answers
        self.parts = parts or NotebookParts(None, lesson, ui)
        self.figure_numbers = lesson.source.plan.figures
        self.citer: citations.Citer = rendered.citations
        self.ctx = markup.MarkupContext(values=lesson.values, figure_numbers=self.figure_numbers, placers={},
                                        render_callout=lambda block: "")  # its problems: the page reported them
        self.equation_numbers = lesson.source.plan.equations
        self.path = lesson.source.body_path
        self.md = Markdown(Says(value=self.value, figure=self.figure_ref, equation=self.equation_ref,
                                equation_tag=self.equation_tag, lesson=self.lesson_ref, citation=self.citation,
                                narrative=self.narrative, image=self.image, link=self.link,
                                directive=self.nested_directive))
        self.anchors: dict[str, str] = {}
        self.anchors = self.heading_anchors()
        self.out: list[Cell] = []
        self.text: list[str] = []
        self.attachments: list[tuple[str, str, str]] = []
        self.nested: list[n.Directive] = []    # directives met inside a list or a quote, placed after it
        # a lesson.py written as cells: the author's cells not yet in the notebook, each put where the page first
        # shows it (or shows what it defines), with the cells before it (compute/cells.py); None: a plain lesson.py
        self.pending = list(lesson.cells.cells) if lesson.cells is not None else None

    # ── the notebook, top to bottom ─────────────────────────────────────────────────────────────────────────────────
    def cells(self) -> list[Cell]:
        src, meta, ui = self.lesson.source, self.lesson.source.meta, self.ui
        self.markdown(f"# {escape(_str(meta.get('title')))}")
        if _str(meta.get("summary")):
            self.markdown(escape(_str(meta["summary"]), at_line_start=True))
        self.field("intro")
        self.markdown(f"*{ui.notebook_about}*")
        extra = requires.beyond(meta, ("numpy", "matplotlib"))   # (what the notebook needs besides its own two)
        if extra:
            self.markdown(ui.notebook_requires.format(install=requires.pip_install(extra)))
        if isinstance(meta.get("objectives"), list):
            self.markdown(f"**{ui.objectives}**\n\n" + "\n".join(
                f"- {self.inline_field(f'objectives.{i}')}" for i, o in enumerate(meta["objectives"])
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
        for number, section in enumerate(src.sections, start=1):
            self.markdown(self.section_heading(number, section))
            self.walk(section.blocks, src.body_path)
        self.author_cells_through(None)   # the cells no section showed: the notebook runs them all
        self.challenges()
        self.references()
        self.flush()
        return self.out

    def section_heading(self, number: int, section) -> str:
        return f"## {number} {self.inline(section.heading, self.path)}"

    def heading_anchors(self) -> dict[str, str]:
        """Each heading id of lesson.md (a section's, a `### 小标题 {#id}`'s) → the anchor Jupyter gives that heading
        in the notebook: its text with spaces as `-` (JupyterLab, Notebook 7 and nbconvert alike; they keep no `id`
        of the author's, and an `<a id>` does not survive JupyterLab's sanitizer), so `[…](#id)` still leads there."""
        anchors: dict[str, str] = {}
        for number, section in enumerate(self.lesson.source.sections, start=1):
            anchors[section.id] = jupyter_anchor(self.section_heading(number, section))
            for node in n.walk(section.blocks):
                if type(node) is n.Heading and node.id:
                    anchors.setdefault(node.id, jupyter_anchor(self.md.heading(node)))
        return anchors

    def setup(self) -> Cell:
        return notebook.setup_cell(self.parts.setup_code(), notebook.data_files(self.lesson.source.folder))

    def challenges(self) -> None:
        meta, ui = self.lesson.source.meta, self.ui
        items = meta.get("challenges") if isinstance(meta.get("challenges"), list) else []
        if not items:
            return
        self.markdown(f"## {ui.challenges}")
        plan = self.lesson.source.plan
        for number, challenge in enumerate(items, start=1):
            challenge = challenge if isinstance(challenge, dict) else {}
            title = markup.render_text(plan.blocks(f"challenges.{number - 1}.title"), self.ctx,
                                       self.lesson.source.meta_path)
            self.markdown(f"### {ui.challenge} {number} · {escape(title)}")
            self.field(f"challenges.{number - 1}.question")
            hints = [i for i, h in enumerate(challenge.get("hints") or []) if isinstance(h, str)]
            if hints:
                self.markdown(f"**{ui.notebook_hints}**\n\n" + "\n".join(
                    f"{k}. {self.inline_field(f'challenges.{number - 1}.hints.{i}')}"
                    for k, i in enumerate(hints, start=1)))
            if self.answers:  # hidden answers are in no file of the students' site
                self.markdown(f"**{ui.notebook_answer}**")
                self.field(f"challenges.{number - 1}.answer")

    def references(self) -> None:
        ui = self.ui
        references = self.citer.entries(ui) if self.citer.bibliography is not None else []
        if references:
            self.markdown(f"## {ui.references}\n\n" + "\n".join(
                f"- \\[{e['number']}\\] {runs_markdown(e['runs'])}" for e in references))
        sources = self.lesson.source.meta.get("sources")
        sources = [i for i, s in enumerate(sources) if isinstance(s, str)] if isinstance(sources, list) else []
        if sources:
            self.markdown(f"## {ui.sources}\n\n" + "\n".join(f"- {self.inline_field(f'sources.{i}')}"
                                                                for i in sources))

    # ── blocks ──────────────────────────────────────────────────────────────────────────────────────────────────────
    def field(self, key: str) -> None:
        """A lesson.yaml field's Markdown, as the plan parsed it at load (load/plan.py)."""
        self.walk(self.lesson.source.plan.blocks(key), self.lesson.source.meta_path)

    def inline_field(self, key: str) -> str:
        """A one-line field of lesson.yaml (an objective, a hint, a source) as one line of Markdown."""
        return self.md.blocks(self.lesson.source.plan.blocks(key)).replace("\n\n", " ")

    def walk(self, blocks, path: Path) -> None:
        self.path = path
        for block in blocks:
            if type(block) is n.Directive:
                self.directive(block)
            elif type(block) is n.Container and block.kind != notes.KIND:
                if block.title and block.kind != "tabs":  # (a tab set's group name is no title)
                    self.markdown(f"**{self.inline(block.title, path)}**")
                self.walk(block.children, path)
            else:
                self.markdown(self.md.blocks((block,)))
                nested, self.nested = self.nested, []
                for directive in nested:
                    self.directive(directive)

    def directive(self, block: n.Directive) -> None:
        """Where the page places something: a figure is drawn by a code cell here, a value shown by one, a widget
        named (only a web page can show it), a self-check asked; every kind the page knows is said here."""
        registry, name = self.lesson.registry, block.name
        if block.kind == "figure":
            self.figure(name)
        elif block.kind == "code" and self.lesson.cells is not None and self.lesson.cells.cell(name) is not None:
            self.author_cells_through(name)     # the cell itself, in its place (its figure: with its caption)
            if name in registry.figures and wants_output(block.args):
                self.caption(name)
        elif block.kind == "code":
            self.listing(block)
        elif block.kind == "widget":
            self.markdown(self.ui.notebook_widget.format(name=name))
        elif block.kind == "table":
            head, *rest = name.split(".")
            self.code(f"lesson.get({head!r})" + "".join(f"[{int(k)}]" if k.isdigit() else f"[{k!r}]" for k in rest))
        elif block.kind == "check":
            self.check(name)
        else:
            raise TypeError(f"the notebook has no form for `{{{{< {block.kind} >}}}}`")

    def nested_directive(self, block: n.Directive) -> str:
        """A directive inside a list or a quote: placed after the Markdown around it."""
        self.nested.append(block)
        return ""

    def listing(self, block: n.Directive) -> None:
        registry, name = self.lesson.registry, block.name
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

    def check(self, name: str) -> None:
        entries = self.lesson.source.meta.get("checks")
        found = next((i for i, e in enumerate(entries if isinstance(entries, list) else [])
                      if isinstance(e, dict) and e.get("id") == name), None)
        if found is not None:
            self.markdown(f"**{self.ui.selfcheck}**")
            self.field(f"checks.{found}.question")
            if _str(entries[found].get("answer")) and self.answers:
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
        spec = self.lesson.registry.figures[name]
        path = self.lesson.source.code_path or self.lesson.source.body_path
        caption = self.md.blocks(parse_markdown(spec.caption, path, spec.line or 1, [])).replace("\n\n", " ")
        self.markdown(f"**{self.ui.figure} {number}** {caption}")

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

    # ── what the Markdown says in words (notebooktext.Says) ─────────────────────────────────────────────────────────
    def inline(self, nodes, path: Path) -> str:
        self.path = path
        return self.md.inline(nodes)

    def value(self, node: n.Value, math_mode: bool) -> str:
        return markup.Render(self.ctx, self.path).value_text(node, math_mode)

    def figure_ref(self, name: str) -> str:
        return f"{self.ui.figure} {self.figure_numbers.get(name, '?')}"

    def equation_ref(self, name: str) -> str:
        return escape(self.ui.equation_ref.format(n=self.equation_numbers.get(name, "?")))

    def equation_tag(self, label: str) -> int | None:
        """The page's number of a labelled equation, as Jupyter's MathJax writes one (`\\tag{1}`)."""
        return self.equation_numbers.get(label.strip().removeprefix("eq:"))

    def lesson_ref(self, node: n.LessonRef) -> str:
        target = self.course.find(node.slug)
        return target["title"] if target else f"@lesson:{node.slug}"

    def citation(self, node: n.Citation) -> str:
        return escape(self.citer.shown(node, str), brackets=True)

    def narrative(self, node: n.Narrative) -> str:
        return escape(self.citer.narrative_shown(node.key, str, str, node.locator), brackets=True)

    def link(self, href: str) -> str:
        return f"#{self.anchors[href[1:]]}" if href.startswith("#") and href[1:] in self.anchors else href

    def image(self, node: n.Image) -> str:
        try:
            file = resolve_in_lesson(self.lesson.source.folder, node.src)
        except LessonPathError:
            return escape(node.alt)
        kind = markup.IMAGE_TYPES.get(file.suffix.lower())
        if kind is None:
            return escape(node.alt)
        name = "".join(c if c.isalnum() or c in "._-" else "-" for c in node.src)
        self.attachments.append((name, kind[0], base64.b64encode(file.read_bytes()).decode("ascii")))
        return f"![{escape(node.alt)}](attachment:{name})"


def jupyter_anchor(heading: str) -> str:
    """The id Jupyter gives a Markdown heading (written by this module: `## 2 标题`): its text as shown (no `#`, no
    emphasis or code marks, an escaped character as itself, a link as its text), spaces as `-`; parentheses escaped
    for a link's target."""
    text = heading.lstrip("#").strip()
    shown = ""
    k = 0
    while k < len(text):
        c = text[k]
        if c == "\\" and k + 1 < len(text):
            shown += text[k + 1]
            k += 2
            continue
        if c not in "*`":
            shown += c
        k += 1
    return "".join(f"\\{c}" if c in "()" else c for c in shown.replace(" ", "-"))


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
