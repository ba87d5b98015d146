"""Read lessons from content/<slug>/: lesson.yaml (metadata), lesson.md (body), lesson.py (computations)."""
from __future__ import annotations

import functools
import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:  # (PyYAML is imported where a text is read afresh)
    import yaml

from ..support.records import Record
from .document import SectionSource, parse_lesson_body
from .syntax import nodes as n
from ..support.errors import ContentError, Problem
from ..support.messages import NOTHING, msg
from ..support.readings import Parts, kept
from ..support.store import Store
from . import lms, release, requires
from .plan import LessonPlan, make_plan
from .schema import check_lesson_meta
from .budget import Budget, budget_from
from .yamltext import misread_text, syntax_problem

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _dates_as_text(loader):
    """`loader` reading `2027-03-01` as the text it is: the field that wants a date parses it (and names the line
    of `2027-02-30`, which YAML's own date reading would turn into a traceback)."""
    reader = type(f"TextDates{loader.__name__}", (loader,), {})
    reader.add_constructor("tag:yaml.org,2002:timestamp", loader.construct_scalar)
    return reader


@functools.cache
def loaders() -> tuple[type, type]:
    """(libyaml's loader when present — 10× faster — else PyYAML's, PyYAML's own): PyYAML is imported only when a
    YAML text is read afresh (support/readings.py keeps what a reading gave)."""
    import yaml

    return _dates_as_text(getattr(yaml, "CSafeLoader", yaml.SafeLoader)), _dates_as_text(yaml.SafeLoader)


class LessonSource(Record):
    slug: str
    folder: Path
    meta: dict[str, Any]
    meta_lines: dict[str, int]
    sections: list[SectionSource]
    body_path: Path
    code_path: Path | None
    problems: list[Problem]
    code_readable: bool         # False: lesson.py exists but is not text we may run (or needs a package this
    #                             Python lacks: load/requires.py)
    plan: LessonPlan            # its text read once (load/plan.py)

    @property
    def meta_path(self) -> Path:
        return self.folder / "lesson.yaml"

    def trees(self) -> Iterator[tuple[Path, tuple]]:
        """Its texts as load parsed them, (file, block nodes): each section of lesson.md, its heading as a paragraph
        first, then lesson.yaml's Markdown fields (what the reports read: features/handnumbers.py, foreignsyntax.py)."""
        for section in self.sections:
            yield self.body_path, (n.Paragraph(section.line, section.heading), *section.blocks)
        for blocks in self.plan.fields.values():
            yield self.meta_path, blocks


def find_lessons(content_dir: Path) -> list[Path]:
    return sorted(p for p in content_dir.iterdir() if p.is_dir() and (p / "lesson.yaml").exists())


def read_lesson(folder: Path, store: Store | None = None) -> LessonSource:
    """Read one lesson folder as far as it can be read; its problems are in `.problems`, for the caller to collect
    with those of later stages (the body is still split even when lesson.yaml is broken, and so on). lesson.yaml's
    reading is kept in `store`."""
    problems: list[Problem] = []
    slug = folder.name
    if not SLUG.match(slug):
        problems.append(Problem(folder, None, msg("lesson folder name `{slug}` is not a URL-safe slug", slug=slug),
                                "lowercase ASCII letters, digits and hyphens, e.g. `transformer-basics`"))
    meta_path = folder / "lesson.yaml"
    meta, meta_lines = {}, {}
    if _inside(meta_path, folder, problems):
        meta, meta_lines = read_yaml(meta_path, problems, store=store)
        problems += check_lesson_meta(meta, meta_lines, meta_path)
        problems += release.check_lesson(meta, meta_lines, meta_path)
        problems += lms.check_lesson(meta, meta_lines, meta_path)
        problems += _budget_problems(meta, meta_lines, meta_path)
        if meta.get("requires"):
            problems += requires.check(meta, meta_lines, meta_path)

    body_path = folder / "lesson.md"
    sections: list[SectionSource] = []
    if not body_path.exists():
        problems.append(Problem(body_path, None, "file is missing", "the lesson body in Markdown"))
    elif _inside(body_path, folder, problems):
        sections, found = kept(store, body_reading, body_path, given=(store,))
        problems += found

    code_path = folder / "lesson.py"
    readable = True
    if code_path.exists():
        readable = _inside(code_path, folder, problems) and read_text(code_path, problems) is not None
    code_path = code_path if code_path.exists() else None
    plan = make_plan(meta, meta_lines, sections, meta_path, body_path, code_path if readable else None, problems,
                     store)
    return LessonSource(slug, folder, meta, meta_lines, sections, body_path, code_path, problems, readable, plan)


def body_reading(path: Path, store: Store | None = None) -> tuple[list[SectionSource], list[Problem]]:
    """lesson.md's sections (load/document.py) and its problems: a function of its bytes, kept across builds; when
    they changed, each section unchanged is taken from `store` (support/readings.py Parts)."""
    problems: list[Problem] = []
    text = read_text(path, problems)
    if text is not None and not text.strip():
        problems.append(Problem(path, 1, "file is empty", "sections starting with `## Section title {#id}`"))
    parts = Parts(store, body_reading, path) if store is not None and store.enabled else None
    return (parse_lesson_body(text, path, problems, parts) if text and text.strip() else []), problems


def _budget_problems(meta: dict[str, Any], lines: dict[str, int], path: Path) -> list[Problem]:
    """What is wrong with the lesson's own `budget:` (its page's weight limits), read like site.yaml's."""
    if not isinstance(meta.get("budget"), dict):  # absent, or not a mapping: check_lesson_meta says so
        return []
    try:
        budget_from(meta["budget"], path, lines.get("budget"))
    except ContentError as err:
        return err.problems
    return []


def lesson_budget(source: LessonSource, site: Budget) -> Budget | None:
    """The lesson page's weight limits from its lesson.yaml (a limit left out is the site's), None without any."""
    value = source.meta.get("budget")
    return budget_from(value, source.meta_path, source.meta_lines.get("budget"), site) if value else None


class LessonPathError(ValueError):
    """A file reference that does not lead to a file inside the lesson folder: (message, expected)."""


class LessonFileMissing(LessonPathError):
    """The reference is fine but no such file exists (the caller says which kind of file it looked for)."""


def resolve_in_lesson(folder: Path, name: str) -> Path:
    """The file `name` refers to, relative to the lesson folder; never anything outside it (no `..`, no absolute
    path, no symbolic link leading out), so a lesson cannot read or publish the author's other files."""
    expected = msg("a path relative to the lesson folder, e.g. `data.csv` or `img/diagram.svg`")
    posix = PurePosixPath(name.replace("\\", "/"))
    if not name.strip():
        raise LessonPathError("`` is an empty file name", expected)
    if posix.is_absolute() or re.match(r"^[A-Za-z]:", name) or Path(name).is_absolute():
        raise LessonPathError(msg("`{name}` is an absolute path: content may only use files in its lesson folder",
                                  name=name), expected)
    if ".." in posix.parts:
        raise LessonPathError(msg("`{name}` leaves the lesson folder (`..`)", name=name), expected)
    root = folder.resolve()
    real = (folder / posix).resolve()
    if real != root and root not in real.parents:
        raise LessonPathError(msg("`{name}` is a symbolic link to {real}, outside the lesson folder", name=name,
                                  real=real),
                              "a real file inside the lesson folder (copy it in instead of linking)")
    if not real.is_file():
        raise LessonFileMissing(msg("`{name}` not found in the lesson folder", name=name),
                              "an existing file in the lesson folder (names are case-sensitive)")
    return real


def _inside(path: Path, folder: Path, problems: list[Problem]) -> bool:
    """False (and a problem) when a lesson file is a symbolic link to something outside its folder."""
    if path.is_symlink() or path.exists():
        real, root = path.resolve(), folder.resolve()
        if root not in real.parents:
            problems.append(Problem(path, None, msg("is a symbolic link to {real}, outside the lesson folder", real=real),
                                    "a real file inside the lesson folder"))
            return False
    return True


def read_text(path: Path, problems: list[Problem]) -> str | None:
    try:
        data = path.read_bytes()
    except OSError as exc:  # a folder in its place, no permission…
        why = msg("Is a directory") if isinstance(exc, IsADirectoryError) else exc.strerror or str(exc)
        problems.append(Problem(path, None, msg("cannot read the file: {reason}", reason=why),
                                "a readable text file"))
        return None
    if b"\x00" in data:
        problems.append(Problem(path, None, "file contains binary data (NUL bytes)", "a UTF-8 text file"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        hint = NOTHING
        try:
            data.decode("gb18030")
            hint = msg("; it looks like GBK/GB18030 (common on Chinese Windows): re-save it as UTF-8")
        except UnicodeDecodeError:
            pass
        problems.append(Problem(path, line, msg("file is not UTF-8{hint}", hint=hint), "UTF-8 text"))
        return None
    if "\x1a" in text:  # the old DOS end-of-file byte; also our Markdown placeholder marker
        line = text.count("\n", 0, text.index("\x1a")) + 1
        problems.append(Problem(path, line, "file contains the control character U+001A (DOS end-of-file)",
                                "plain text: delete the character"))
        return None
    return text.removeprefix("\ufeff")


def read_yaml(path: Path, problems: list[Problem], empty_ok: bool = False, store: Store | None = None,
              keep: bool = True) -> tuple[dict[str, Any], dict[str, int]]:
    """Parse YAML into a mapping plus the line of every key; duplicate keys are errors. The reading is kept in
    `store` (support/readings.py; `keep` as there)."""
    data, lines, found = kept(store, yaml_reading, path, empty_ok, keep=keep)
    problems += found
    return data, lines


def yaml_reading(path: Path, empty_ok: bool) -> tuple[dict[str, Any], dict[str, int], list[Problem]]:
    """One YAML file's mapping, the line of every key (`challenges.1.check`) and its problems."""
    problems: list[Problem] = []
    data, lines = _read_mapping(path, problems, empty_ok)
    return data, lines, problems


def _read_mapping(path: Path, problems: list[Problem], empty_ok: bool) -> tuple[dict[str, Any], dict[str, int]]:
    import yaml

    if not path.exists():
        problems.append(Problem(path, None, "file is missing", "lesson metadata in YAML"))
        return {}, {}
    text = read_text(path, problems)
    if text is None:
        return {}, {}
    try:
        node, data = _parse_yaml(text)
    except yaml.YAMLError as exc:
        problems.append(syntax_problem(path, text, exc))
        return {}, {}
    if node is None:  # nothing but blank lines and comments
        if not empty_ok:
            problems.append(Problem(path, 1, "file is empty", "a mapping with at least `title` and `summary`"))
        return {}, {}
    if not isinstance(node, yaml.MappingNode):
        problems.append(Problem(path, node.start_mark.line + 1, "top level is not a mapping",
                                "`key: value` lines such as `title: …`"))
        return {}, {}
    _check_keys(node, path, problems)
    problems += misread_text(node, text, path)
    lines = {k.value: _line(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    _collect_item_lines(node, lines)
    return data, lines


def _parse_yaml(text: str) -> tuple[yaml.Node | None, Any]:
    """The node tree (for lines and duplicate keys) and the data built from that same tree: one parse.
    libyaml when present; on an error, PyYAML's own parser says what is wrong in more words."""
    import yaml

    fast, own = loaders()
    try:
        return _compose_and_construct(text, fast)
    except yaml.YAMLError as exc:
        if fast.__mro__[1] is yaml.SafeLoader:
            raise
        try:
            _compose_and_construct(text, own)
        except yaml.YAMLError as clearer:
            raise clearer from None
        raise exc


def _compose_and_construct(text: str, loader_class) -> tuple[yaml.Node | None, Any]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def _line(key: yaml.Node, value: yaml.Node) -> int:
    """Where a key's text starts: for a `|` or `>` block, the line after the key."""
    import yaml

    block = isinstance(value, yaml.ScalarNode) and value.style in ("|", ">")
    return key.start_mark.line + 1 + block


def _check_keys(node: yaml.Node, path: Path, problems: list[Problem]) -> None:
    """Each key once per mapping: PyYAML would silently keep the last. (A list as a key fails to load earlier.)"""
    import yaml

    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key, value in node.value:
            line = key.start_mark.line + 1
            if key.value in seen:
                problems.append(Problem(path, line, msg("duplicate key `{key}` (first at line {line})", key=key.value,
                                                            line=seen[key.value]),
                                        "each key once"))
            seen.setdefault(key.value, line)
            _check_keys(value, path, problems)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_keys(item, path, problems)


def _collect_item_lines(node: yaml.Node, lines: dict[str, int], prefix: str = "") -> None:
    """Record the line of every nested key and list item (`challenges.1`, `challenges.1.check.fields.0.answer`),
    for precise messages."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            if prefix:
                lines[prefix + key.value] = _line(key, value)
            _collect_item_lines(value, lines, f"{prefix}{key.value}.")
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[f"{prefix}{i}"] = item.start_mark.line + 1
            _collect_item_lines(item, lines, f"{prefix}{i}.")


def order_ties(lessons: list[LessonSource]) -> list[Problem]:
    """Lessons given the same `order`: the index would list them by folder name, which nobody chose. A warning
    (an error under --strict), at the later lesson's `order:`, naming the first lesson's."""
    by_order: dict[int, list[LessonSource]] = {}
    for lesson in sorted(lessons, key=lambda s: s.slug):
        order = lesson.meta.get("order")
        if isinstance(order, int) and not isinstance(order, bool):
            by_order.setdefault(order, []).append(lesson)
    ties = []
    for order, (first, *others) in sorted(by_order.items()):
        where = f"{first.meta_path}:{first.meta_lines.get('order')}"
        ties += [Problem(other.meta_path, other.meta_lines.get("order"),
                         msg("`order: {order}` is also the order of {where}: the index lists the two by folder name",
                             order=order, where=where),
                         "a different `order` for each lesson") for other in others]
    return ties
