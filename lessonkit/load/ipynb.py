"""A Jupyter notebook turned into a lesson folder (`lessonkit import NOTEBOOK.ipynb [SLUG]`): its Markdown cells
become lesson.md, its code cells a percent-format lesson.py (compute/cells.py) whose cells keep their order, each
shown where the notebook showed it with `{{< code NAME >}}` (source, then what it printed or drew), and lesson.yaml
with the title and the keys the author must fill in. The notebook is read with nbformat (validated against its
schema), never parsed by hand; what cannot come along (widgets, HTML outputs, magics) is said in the report.

What the notebook reads or shows from its folder comes along: the data files its code opens (a string in its code
naming a file there, `open("ex1data1.txt")`), its images (`![…](img/a.png)`, `<img src>`), each at the same path
in the lesson's folder (where lesson code runs: compute/registry.py in_lesson_folder), or — a path leading up and
out of the notebook's folder — under `data/` (`img/`) with the code or the link rewritten. Only files inside the
notebook's repository (the git work tree it is in; outside one, its own folder) are copied: a path reaching
outside it, an absolute path or a symbolic link out is said in the report and never copied."""
from __future__ import annotations

import ast
import base64
import json
import re
from pathlib import Path, PurePosixPath

from ..support.errors import Problem
from ..support.messages import Message, msg
from .requires import imported_packages
from ..support.records import Mutable, fresh

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
COMMENT = re.compile(r"<!--.*?-->", re.S)
IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
MAGIC = re.compile(r"^\s*(%|!)|^\s*\?{1,2}[\w.]+\s*$|^\s*[\w.]+\?{1,2}\s*$")   # magics, shell, `?name`, `name??`
# LaTeX's numbering environments, which Jupyter's MathJax shows unnumbered, as the display maths lessonkit shows
# (lessonkit numbers an equation with `{#eq:NAME}`): `equation` is the formula itself, `align` its rows `aligned`,
# `eqnarray` three columns as LaTeX sets them (right, centre, left)
NUMBERED_ENVIRONMENT = re.compile(r"\\(begin|end)\{(equation|align|eqnarray|gather)\*?\}")
ENVIRONMENT_AS = {"equation": ("", ""), "align": (r"\begin{aligned}", r"\end{aligned}"),
                  "eqnarray": (r"\begin{array}{rcl}", r"\end{array}"), "gather": (r"\begin{array}{c}", r"\end{array}")}
NUMBERING = re.compile(r"\\(nonumber|notag)\b|\\label\{[^{}]*\}")
JUPYTER_DISPLAY = re.compile(r"\\\\\[(.+?)\\\\\]", re.S)   # `\\[ … \\]` in a notebook's Markdown
JUPYTER_INLINE = re.compile(r"\\\\\((.+?)\\\\\)", re.S)    # `\\( … \\)`
MATHS_SPAN = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^$\n]+?\$", re.S)
IPYTHON = re.compile(r"^\s*(from\s+IPython[\s.]|import\s+IPython\b)", re.M)
FIGURE_MIMES = ("image/png", "image/svg+xml", "image/jpeg")
CARRIED = {"text/plain", "text/markdown", *FIGURE_MIMES}
ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
IMAGES_KB = 40   # images the page inlines beyond this weight: the import says the page's budget will not hold them
HTML_IMAGE = re.compile(r"<img\b[^>]*?\bsrc\s*=\s*([\"'])(?P<src>[^\"']+)\1[^>]*>", re.I)
HTML_ALT = re.compile(r"\balt\s*=\s*([\"'])(?P<alt>[^\"']*)\1", re.I)
LINK = re.compile(r"(?<![!\]])\[(?P<text>[^\]]*)\]\((?P<src>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
WEB = re.compile(r"^[a-z][a-z0-9+.-]+:", re.I)       # http:, https:, mailto:, data: … (not a file here; `C:` is one)
DRIVE = re.compile(r"^[A-Za-z]:")                    # a Windows path's drive: an absolute path
DATA_FILE = re.compile(r"\.(csv|tsv|txt|dat|json|npy|npz|xlsx?|h5|hdf5|mat|pkl|pickle|parquet|feather|png|jpe?g|"
                       r"gif|svg|pdf|zip|gz)$", re.I)   # a string in code that names one, when it is missing, is said
LESSON_FILES = {"lesson.md", "lesson.yaml", "lesson.py"}
# a cell that credits the notebook's authors or states its licence (CFD Python's and numerical-mooc's first cell):
# lesson.yaml's `sources:`, where a lesson credits what it is made from
ATTRIBUTION = re.compile(r"Creative Commons|\bCC[- ]?BY\b|\blicen[cs]ed?\b|copyright|\(c\)\s*\d{4}|©|版权|许可证|署名",
                         re.I)


# what the import writes for the author to replace (features/placeholders.py finds any left, in either language)
PLACEHOLDER_OBJECTIVE = msg("what a student can do after this lesson")
INTRODUCTION = msg("Introduction")   # the heading of the text before a notebook's first section
RULES_ONLY = re.compile(r"(?:\s*(?:\*{3,}|-{3,}|_{3,})\s*)*")


def caption_placeholder(n: int | str) -> Message:
    return msg("Figure {n}", n=n)


def alt_placeholder(n: int | str) -> Message:
    return msg("describe what figure {n} shows", n=n)


class Imported(Mutable):
    """The lesson's files (name → text or bytes) and what the author should know."""
    files: dict[str, str | bytes] = fresh(dict)
    notes: list[Message] = fresh(list)       # what did not come along
    brought: dict[str, int] = fresh(dict)    # the files copied from the notebook's folder: lesson path → bytes
    next_steps: list[Message] = fresh(list)
    counts: dict[str, int] = fresh(dict)
    chinese: bool = False                    # its text is Chinese (what the site's language should be)


def read_notebook(path: Path, problems: list[Problem]):
    """The notebook as nbformat reads it (version 4), or None with the problem said."""
    try:
        import nbformat
    except ImportError:
        from ..support.errors import UsageError
        raise UsageError(msg("importing a notebook needs nbformat: `pip install \"lessonkit[notebook]\"`")) from None
    try:
        notebook = nbformat.read(str(path), as_version=4)
        nbformat.validate(notebook)
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(path, None, msg("cannot read the notebook: {reason}", reason=str(exc)),
                                msg("a Jupyter notebook (.ipynb) saved by Jupyter, VS Code or Colab")))
        return None
    except (nbformat.ValidationError, ValueError, KeyError, AttributeError) as exc:  # its reader and validator
        reason = exc.message if hasattr(exc, "message") else str(exc)
        problems.append(Problem(path, getattr(exc, "lineno", None),
                                msg("not a valid Jupyter notebook: {reason}", reason=reason.splitlines()[0][:200]),
                                msg("a Jupyter notebook (.ipynb) saved by Jupyter, VS Code or Colab")))
        return None
    language = (notebook.metadata.get("kernelspec", {}).get("language")
                or notebook.metadata.get("language_info", {}).get("name") or "python")
    if language.lower() != "python":
        problems.append(Problem(path, None, msg("the notebook's code is {language}, not Python", language=language),
                                msg("a Python notebook: lesson code runs as Python at build time")))
        return None
    return notebook


def import_notebook(path: Path, slug: str, problems: list[Problem], say=str) -> Imported | None:
    """The lesson folder's files; `say` words the placeholders the author replaces (the messages' language)."""
    notebook = read_notebook(path, problems)
    if notebook is None:
        return None
    converter = _Converter(path, say)
    converter.section_level = section_level(notebook)
    for index, cell in enumerate(notebook.cells, start=1):
        converter.cell(index, cell)
    return converter.finish(slug)


def setext_as_atx(text: str) -> str:
    """A Markdown cell with each setext heading (`Title` over `===` or `---`, as CFD Python writes its titles) as the
    ATX heading it is (`# Title`), found by a CommonMark parser: a `---` under a paragraph is a heading, one after
    a blank line a rule."""
    if "\n=" not in text and "\n-" not in text:
        return text
    from markdown_it import MarkdownIt

    lines = text.split("\n")
    tokens = MarkdownIt("commonmark").parse(text)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.markup in ("=", "-") and token.map:
            start, end = token.map
            heading = " ".join(line.strip() for line in tokens[i + 1].content.splitlines())
            lines[start:end] = [f"{'#' * int(token.tag[1])} {heading}"] + [None] * (end - start - 1)
    return "\n".join(line for line in lines if line is not None)


def section_level(notebook) -> int | None:
    """The highest heading level after the title (the first `# …`): the notebook's sections. A small heading
    before them (a licence line in `######`) stays a heading inside the first section."""
    levels, title = [], False
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for line in setext_as_atx(COMMENT.sub("", cell.source)).splitlines():
            heading = HEADING.match(line)
            if heading and len(heading.group(1)) == 1 and not title:
                title = True
            elif heading:
                levels.append(len(heading.group(1)))
    return min(levels) if levels else None


def repository_of(folder: Path) -> Path:
    """The git work tree `folder` is in (the folder holding `.git`), or `folder` itself outside one: what an import
    may copy files from."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return folder


class _Converter:
    def __init__(self, path: Path, say):
        self.path, self.imported, self.say = path, Imported(), say
        self.folder = path.parent
        self.root = repository_of(self.folder).resolve()
        self.images: set[str] = set()      # the lesson's files the page shows as images (inlined: they weigh)
        self.packages: list[str] = []      # what its code imports, as pip names it: lesson.yaml's `requires:`
        self.sources: list[str] = []       # its licence and attribution cells: lesson.yaml's `sources:`
        self.title: str | None = None
        self.markdown: list[str] = []      # lesson.md, in notebook order
        self.code: list[str] = []          # lesson.py, one percent-format cell after another
        self.code_cells = self.figures = self.plain = self.environments = self.markdown_cells = 0
        self.section_level: int | None = None
        self.ids: set[str] = set()

    # ── cells ─────────────────────────────────────────────────────────────────────────────────────────────────────
    def cell(self, index: int, cell) -> None:
        if cell.cell_type == "markdown":
            self.markdown_cell(index, cell)
        elif cell.cell_type == "code":
            self.code_cell(index, cell)
        elif not self.attribution(index, cell.source):  # raw cells: nothing a page shows (a licence: its sources)
            self.note(msg("cell {n}: a raw cell, left out", n=index))

    def markdown_cell(self, index: int, cell) -> None:
        self.markdown_cells += 1
        if self.attribution(index, COMMENT.sub("", cell.source)):
            return
        text = self.maths(setext_as_atx(COMMENT.sub("", cell.source)))
        text = IMAGE.sub(lambda m: self.image(index, cell, m.group("src"), m.group("alt")), text)
        text = HTML_IMAGE.sub(lambda m: self.image(index, cell, m.group("src"), _html_alt(m.group(0))), text)
        text = LINK.sub(lambda m: self.link(index, m), text)
        lines = []
        for line in text.splitlines():
            heading = HEADING.match(line)
            if heading and self.title is None and len(heading.group(1)) == 1:
                self.title = heading.group(2)
                continue
            lines.append(self.heading(heading) if heading else line)
        if "\n".join(lines).strip():
            self.markdown.append("\n".join(lines).strip("\n"))

    def attribution(self, index: int, text: str) -> bool:
        """A short cell crediting the notebook's authors or stating its licence becomes a `sources:` entry, one line
        (a heading's `#` marks dropped): True when it did."""
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if not lines or len(lines) > 3 or len(text) > 600 or not ATTRIBUTION.search(text) or \
                any(re.match(r"#{1,5}\s", line) for line in lines):   # (a title or a section's heading: text)
            return False
        self.sources.append(" ".join(re.sub(r"^#+\s*", "", line) for line in lines))
        self.note(msg("cell {n}: the notebook's licence and attribution, moved to lesson.yaml's `sources:` (the page "
                      "shows them with the lesson's sources)", n=index))
        return True

    def maths(self, text: str) -> str:
        r"""The notebook's maths as lessonkit reads it: LaTeX's numbering environments as display maths (counted
        for the report); `\\[…\\]` and `\\(…\\)` — what Jupyter's Markdown turns into MathJax's `\[…\]` and
        `\(…\)` — as `$$…$$` and `$…$`; and TeX's doubled braces (`{{h}_{\theta}}`) apart, `{ {h}_{\theta} }`,
        the same TeX, where lessonkit would read a value. Code blocks are left as they are."""
        def environment(m: re.Match) -> str:
            self.environments += m.group(1) == "begin"
            return ENVIRONMENT_AS[m.group(2)][m.group(1) == "end"]

        def prose(part: str) -> str:
            part = JUPYTER_DISPLAY.sub(lambda m: f"$${m.group(1)}$$", part)
            part = JUPYTER_INLINE.sub(lambda m: f"${m.group(1)}$", part)
            return MATHS_SPAN.sub(lambda m: re.sub(r"\{\{|\}\}", lambda b: " ".join(b.group(0)), m.group(0)), part)
        text = NUMBERING.sub("", NUMBERED_ENVIRONMENT.sub(environment, text))
        pieces = re.split(r"(^(?:```|~~~).*?^(?:```|~~~)[ \t]*$)", text, flags=re.M | re.S)
        return "".join(piece if i % 2 else prose(piece) for i, piece in enumerate(pieces))

    def heading(self, heading: re.Match) -> str:
        """The notebook's highest heading level after the title becomes a lesson section (`## … {#id}`), deeper
        ones keep their place below it."""
        level, text = len(heading.group(1)), heading.group(2)
        if self.section_level is None:
            self.section_level = level
        depth = max(2, min(6, level - self.section_level + 2))
        return f"{'#' * depth} {text} {{#{self.section_id(text)}}}" if depth == 2 else f"{'#' * depth} {text}"

    def section_id(self, text: str, fallback: str | None = None) -> str:
        words = ASCII_WORD.findall(text.lower())
        base = "-".join(words[:6]) if words and words[0][0].isalpha() else fallback or f"sec-{len(self.ids) + 1}"
        found, n = base, 2
        while found in self.ids:
            found, n = f"{base}-{n}", n + 1
        self.ids.add(found)
        return found

    def image(self, index: int, cell, src: str, alt: str) -> str:
        """An image kept: an attachment, or a file of the notebook's repository copied into the lesson's folder."""
        if not alt.strip():
            self.step(msg("cell {n}: the image {src} has no alt text: write what it shows between ![ and ]",
                          n=index, src=src))
        if src.startswith("attachment:"):
            name = src.split(":", 1)[1]
            data = (cell.get("attachments") or {}).get(name, {})
            payload = next((v for k, v in data.items() if k.startswith("image/")), None)
            if payload is None:
                self.note(msg("cell {n}: the attachment {name} is missing, left out", n=index, name=name))
                return alt
            target = f"img/{_safe_name(name)}"
            self.imported.files[target] = base64.b64decode(payload)
            self.images.add(target)
            return f"![{alt}]({target})"
        if re.match(r"^[a-z]+://", src):
            self.note(msg("cell {n}: the image {src} is on the web: a page makes no network requests; download it "
                          "into the lesson folder", n=index, src=src))
            return alt
        target = self.bring(index, src, "img")
        if target is None:
            return alt
        self.images.add(target)
        return f"![{alt}]({target})"

    def link(self, index: int, m: re.Match) -> str:
        """A link to a file beside the notebook (a PDF, another notebook) would be dead on the page: its text stays,
        and the report says what it linked to."""
        src, text = m.group("src"), m.group("text")
        if WEB.match(src) or src.startswith("#"):
            return m.group(0)
        if src.lower().endswith(".ipynb"):
            self.note(msg("cell {n}: a link to the notebook {src}, left as its text: import that notebook as a "
                          "lesson of its own and link to it with `@lesson:SLUG`", n=index, src=src))
        else:
            self.note(msg("cell {n}: a link to the file {src}, left as its text: a page links to the web (put the "
                          "file online and link there)", n=index, src=src))
        return text

    # ── files the notebook reads or shows ─────────────────────────────────────────────────────────────────────────
    def bring(self, index: int, name: str, folder: str, missing: bool = True) -> str | None:
        """The path in the lesson's folder of the file `name` (relative to the notebook) once copied there: the same
        path, or — one leading up and out of the notebook's folder, or named like a lesson's own file — `folder`/its
        name. None (and said, if `missing`) when it is not a file of the notebook's repository."""
        posix = PurePosixPath(name.replace("\\", "/"))
        source = self.folder / posix
        if posix.is_absolute() or DRIVE.match(name):
            self.note(msg("cell {n}: `{name}` is an absolute path, not copied: put the file beside the notebook",
                          n=index, name=name))
            return None
        if not source.is_file():
            if missing:
                self.note(msg("cell {n}: `{name}` was not found beside the notebook, not copied", n=index,
                              name=name))
            return None
        real = source.resolve()
        if real != self.root and self.root not in real.parents:
            self.note(msg("cell {n}: `{name}` is outside the notebook's repository ({root}), not copied", n=index,
                          name=name, root=self.root))
            return None
        target = posix.as_posix()
        if ".." in posix.parts or target in LESSON_FILES or posix.parts[0] == ".":
            target = f"{folder}/{_safe_name(posix.name)}"
        if target not in self.imported.files:
            data = real.read_bytes()
            self.imported.files[target] = data
            self.imported.brought[target] = len(data)
        return target

    def data_files(self, index: int, code: str) -> str:
        """The code with each string that names a file of the notebook's repository pointing to its copy in the
        lesson's folder; a string that looks like a data file's name but names none is said."""
        try:
            tree = ast.parse(code)
        except SyntaxError:   # (the build reports it, at its line)
            return code
        lines = code.splitlines(keepends=True)
        edits = []
        strings = (node for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str))
        for node in strings:
            if not node.value.strip() or "\n" in node.value or len(node.value) > 255 or WEB.match(node.value):
                continue   # (not a file's name: a word, a text, an address)
            target = self.bring(index, node.value, "data", missing=bool(DATA_FILE.search(node.value)))
            if target is not None and target != node.value and node.lineno == node.end_lineno:
                edits.append((node.lineno, node.col_offset, node.end_col_offset, json.dumps(target)))
        for line, start, end, literal in sorted(edits, reverse=True):   # (offsets count UTF-8 bytes)
            raw = lines[line - 1].encode("utf-8")
            lines[line - 1] = (raw[:start] + literal.encode("utf-8") + raw[end:]).decode("utf-8")
        return "".join(lines)

    def code_cell(self, index: int, cell) -> None:
        if IPYTHON.search(cell.source):  # Jupyter's own display (HTML, a video, the notebook's style sheet)
            self.note(msg("cell {n}: uses IPython (what Jupyter displays), left out: a page shows what lesson.py "
                          "prints and draws", n=index))
            return
        kept, magics = [], []
        for line in cell.source.splitlines():
            (magics if MAGIC.match(line) else kept).append(line)
        for magic in magics:
            self.note(msg("cell {n}: `{magic}` removed (a notebook magic or shell command, not Python)", n=index,
                          magic=magic.strip()))
        body = self.data_files(index, "\n".join(kept).strip("\n"))
        if not body.strip() or magics and all(line.lstrip().startswith("#") for line in body.splitlines()
                                              if line.strip()):
            return   # (nothing left but what said what the magic did)
        self.packages += imported_packages(body)
        outputs = list(cell.get("outputs") or [])
        for output in outputs:
            mimes = set((output.get("data") or {}))
            if "text/html" in mimes and _shown_again(output["data"].get("text/plain", "")):
                mimes.discard("text/html")   # (a table, a DataFrame: lessonkit shows the value again, as a table)
            left = sorted(mimes - CARRIED)
            if left:
                self.note(msg("cell {n}: an output of type {types} cannot come along (drawn or printed outputs "
                              "do)", n=index, types=", ".join(left)))
        drawn = sum(bool(set(o.get("data") or {}) & set(FIGURE_MIMES)) for o in outputs)
        self.code_cells += 1
        if drawn > 1:
            pieces = split_at_shows(body)
            if len(pieces) != drawn:
                self.step(msg("cell {n} drew {count} figures: a figure cell draws one, so split it into {count} "
                              "figure cells", n=index, count=drawn))
            else:   # each `plt.show()` ended one of its figures: a figure cell each
                for piece in pieces:
                    self.lesson_cell(piece, draws=True)
                return
        self.lesson_cell(body, draws=drawn > 0)

    def lesson_cell(self, body: str, draws: bool) -> None:
        if draws:
            self.figures += 1
            name = f"figure{self.figures}"
            header = f'# %% figure: {name} caption="{self.placeholder_caption()}" alt="{self.placeholder_alt()}"'
        else:
            self.plain += 1
            name = f"cell{self.plain}"
            header = f"# %% {name}"
        self.code.append(f"{header}\n{body}\n")
        self.markdown.append(f"{{{{< code {name} >}}}}")

    def credits(self) -> list[str]:
        return ["sources:", *(f"  - {json.dumps(text, ensure_ascii=False)}" for text in self.sources)] \
            if self.sources else []

    def requires(self) -> list[str]:
        """lesson.yaml's `requires:`: every package the notebook's code imports (load/requires.py)."""
        packages = list(dict.fromkeys(self.packages))
        return ["requires:", *(f"  - {json.dumps(p)}" for p in packages)] if packages else []

    def placeholder_caption(self) -> str:
        return self.say(caption_placeholder(self.figures)).replace('"', "'")

    def placeholder_alt(self) -> str:
        return self.say(alt_placeholder(self.figures)).replace('"', "'")

    def note(self, message: Message) -> None:
        self.imported.notes.append(message)

    def step(self, message: Message) -> None:
        self.imported.next_steps.append(message)

    # ── the lesson ────────────────────────────────────────────────────────────────────────────────────────────────
    def sections(self, body: str, title: str) -> str:
        """Text before the notebook's first section a section of its own: 「Introduction」 (the title is the page's
        heading already), or the title when the notebook has no other; only rules (a title's underline): left out."""
        before, sep, after = ("\n" + body).partition("\n## ")
        intro = before.strip()
        if not sep:
            return f"## {title} {{#{self.section_id(title, 'intro')}}}\n\n{body}"
        if RULES_ONLY.fullmatch(intro):
            return f"## {after}"
        word = self.say(INTRODUCTION)
        return f"## {word} {{#{self.section_id(word, 'intro')}}}\n\n{intro}\n\n## {after}"

    def finish(self, slug: str) -> Imported:
        title = self.title or self.path.stem
        body = self.sections("\n\n".join(self.markdown), title)
        self.imported.files["lesson.md"] = body.rstrip("\n") + "\n"
        self.imported.chinese = written_in_chinese(body)
        self.imported.files["lesson.py"] = "\n".join(self.code) if self.code else "# %%\n"
        objective = self.say(PLACEHOLDER_OBJECTIVE)
        self.imported.files["lesson.yaml"] = (f"title: {json.dumps(title, ensure_ascii=False)}\n"
                                              f"summary: {json.dumps(title, ensure_ascii=False)}\n"
                                              f"objectives:\n  - {json.dumps(objective, ensure_ascii=False)}\n"
                                              + "".join(f"{line}\n" for line in self.requires() + self.credits()))
        self.imported.counts = {"markdown": self.markdown_cells, "code": self.code_cells, "figures": self.figures}
        if self.environments:
            self.note(msg("{n} LaTeX numbering environment(s) (`equation`, `align`, `eqnarray`) written as display "
                          "maths: number an equation with `$$ … $$ {#eq:NAME}`", n=self.environments))
        self.step(msg("lesson.yaml: write the lesson's `objectives` (what a student can do after it) and a one-line "
                      "`summary`"))
        if self.figures:
            self.step(msg("lesson.py: give each of the {n} figure cell(s) its `caption` and an `alt` text saying "
                          "what it shows", n=self.figures))
        images = sum(len(self.imported.files[name]) for name in self.images)
        if images > IMAGES_KB * 1024:
            self.step(msg("images: {kb} KB, which the page holds: more than a page's weight budget allows "
                          "(60 KB gzip, unless site.yaml sets another); make them smaller, or give the lesson a "
                          "`budget:` of its own in lesson.yaml", kb=round(images / 1024)))
        self.step(msg("add `challenges` with self-checks whose answers lesson.py computes"))
        self.step(msg("build with `--strict`: it names every number typed by hand that lesson.py computes"))
        return self.imported


def written_in_chinese(text: str) -> bool:
    """Whether a text is Chinese: a tenth of its letters Han characters (one of them says what an English word
    does; code, maths and names are in Latin letters)."""
    han = len(re.findall(r"[\u3400-\u9fff]", text))
    return han > 0 and 10 * han >= han + len(re.findall(r"[A-Za-z]", text)) // 5


def split_at_shows(code: str) -> list[str]:
    """The cell's code cut after each of its top-level `….show()` calls, where Jupyter showed a figure (code after
    the last one a piece of its own); [code] when it cannot be read."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return [code]
    lines = code.splitlines()
    cuts = [node.end_lineno for node in tree.body if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "show"]
    pieces = ["\n".join(lines[start:end]) for start, end in zip([0] + cuts, cuts + [len(lines)])]
    return [piece.strip("\n") for piece in pieces if piece.strip()]


def _shown_again(plain: str | list) -> bool:
    """Whether an HTML output's text form is a value the page shows again when the cell runs (a DataFrame's rows),
    not an object that only displays itself (`<IPython.core.display.HTML object>`)."""
    text = "".join(plain) if isinstance(plain, list) else plain
    return bool(text.strip()) and not re.fullmatch(r"\s*<[^<>]*object[^<>]*>\s*", text)


def _html_alt(tag: str) -> str:
    found = HTML_ALT.search(tag)
    return found.group("alt") if found else ""


def _safe_name(name: str) -> str:
    """A file name the lesson may use: ASCII letters, digits, `-`, `_` and `.`."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return cleaned or "image"

