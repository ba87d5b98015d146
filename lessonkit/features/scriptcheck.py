"""Component scripts checked at build time, with a real JavaScript parser (tree-sitter's JavaScript grammar).

Each `widget.js` a page uses is parsed before anything is written: a syntax error is a problem at that file's line
(a lesson's own component: exit 1, listed with the lesson's other problems; a theme's: exit 2), and so is a script
that registers its component under another name than its folder's (`lessonkit.widget('jacobian-grid', …)` in
`widgets/jacobian_grid/`) or registers nothing — in the browser either would leave the component inert without a word.

A verdict depends only on the script's bytes, its folder's name, this checker and the grammar: it is kept in the
store (support/store.py SCRIPTS), so a warm build neither imports the parser nor parses anything.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable

from ..support.cachekeys import engine_source_digest, package_version
from ..support.errors import Problem, UsageError
from ..support.messages import Message, from_data, msg, to_data
from ..support.records import Record
from ..support.store import SCRIPTS, Store
from .components import Component

CHECK_FORMAT = "lessonkit-script-check-2"   # 2: messages kept as template and parameters
SYNTAX_EXPECTED = msg("valid JavaScript (check brackets, braces and quotes)")
REGISTRY = "lessonkit"          # the registry lesson.js defines: `lessonkit.widget(kind, init)`
FUNCTIONS = {"function_declaration", "function_expression", "function", "arrow_function", "method_definition",
             "generator_function", "generator_function_declaration"}
BRACKETS = {"{": "}", "(": ")", "[": "]"}
QUOTES = ("'", '"', "`")
SNIPPET = 24                    # characters of the unexpected text shown in a message


class Fault(Record):
    line: int | None
    message: Message | str
    expected: Message | str | None = None


def check_scripts(components: Iterable[Component], cache: Store, base: Iterable[Path] = ()) -> list[Problem]:
    """The problems of the lesson's own component scripts; a theme's faulty script (a component's, or one of
    `base`, the theme's own scripts — assets/head.js, assets/lesson.js — checked for their syntax only) is the
    theme's error (exit 2)."""
    problems = []
    scripts = [(path, None, False) for path in base]
    scripts += [(c.folder / "widget.js", c.kind, c.in_lesson)
                for c in sorted(set(components), key=lambda c: (c.in_lesson, str(c.folder)))]
    for script, kind, in_lesson in scripts:
        faults = script_faults(script, kind, cache)
        if faults and not in_lesson:
            first = faults[0]
            where = f"{script}:{first.line}" if first.line else str(script)
            raise UsageError(msg("{where}: the theme's component script: {reason}", where=where, reason=first.message))
        problems += [Problem(script, f.line, f.message, f.expected) for f in faults]
    return problems


def script_faults(script: Path, kind: str | None, cache: Store) -> list[Fault]:
    """What is wrong with a component's widget.js in folder `kind` (None: a script that registers nothing, the
    theme's base code); nothing when there is no script. From the cache when it can be."""
    try:
        source = script.read_bytes()
    except OSError:
        return []
    if not source.strip():
        return []
    try:
        source.decode("utf-8")
    except UnicodeDecodeError:  # the page could not carry it either
        return [Fault(None, "file is not UTF-8", "UTF-8 text")]
    key = verdict_key(kind, source)
    saved = cache.get_json(SCRIPTS, key)
    if isinstance(saved, list):
        return [Fault(line, from_data(message), from_data(expected)) for line, message, expected in saved]
    faults = faults_of(source, kind)
    cache.put_json(SCRIPTS, key, [[f.line, to_data(f.message), to_data(f.expected)] for f in faults])
    return faults


def verdict_key(kind: str | None, source: bytes) -> str:
    h = hashlib.sha256(f"{CHECK_FORMAT}\0{engine_source_digest()}\0"
                       f"tree-sitter-javascript {package_version('tree_sitter_javascript')}\0{kind or ''}\0".encode())
    h.update(source)
    return h.hexdigest()


def faults_of(source: bytes, kind: str | None) -> list[Fault]:
    """Parse `source` (a component's widget.js in folder `kind`): its first syntax error, else its registrations."""
    root = _parser().parse(source).root_node
    syntax = syntax_fault(root, source)
    if syntax is not None:
        return [syntax]
    return registration_faults(root, kind) if kind is not None else []


def _parser():
    import tree_sitter
    import tree_sitter_javascript

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


# ── syntax ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def syntax_fault(root, source: bytes) -> Fault | None:
    """The first thing in document order a browser would refuse to run: what the grammar could not parse, and what
    it parses but a classic script may not hold (JSX, `import`/`export`, `return` outside a function)."""
    stack = [(root, False)]
    while stack:
        node, in_function = stack.pop()
        nested = node.type == "ERROR" and any(c.has_error for c in node.children)  # the inner one is more precise
        found = None if nested else _refused(node, in_function, source)
        if found is not None:
            return _syntax(found[0], source, found[1])
        inside = in_function or node.type in FUNCTIONS
        stack += [(child, inside) for child in reversed(node.children)]
    return None


def _refused(node, in_function: bool, source: bytes) -> tuple[int, Message] | None:
    """(byte offset, reason) when `node` is something a browser refuses."""
    if node.is_missing:  # the parser's guess sits after the last good token: name what follows, where it stopped
        at = _next_text(source, node.start_byte)
        if at == len(source):
            return at, msg("missing `{token}` at the end of the file", token=node.type)
        return at, msg("missing `{token}` before `{text}`", token=node.type, text=_snippet_at(source, at))
    if node.type == "ERROR":
        return _error(node, source)
    if node.type.startswith("jsx_"):
        return node.start_byte, msg("HTML inside JavaScript (JSX): browsers do not run it")
    if node.type in ("import_statement", "export_statement"):
        return node.start_byte, msg("`{keyword}` needs a JavaScript module, but a component is a plain script",
                                    keyword=node.type.split("_")[0])
    if node.type == "return_statement" and not in_function:
        return node.start_byte, msg("`return` outside a function")
    return None


def _error(node, source: bytes) -> tuple[int, Message]:
    """What the parser could not place: a bracket it holds open to the end, a string without its closing quote, or
    else the text it could not read."""
    opened = []
    for child in node.children:
        if child.type in BRACKETS:
            opened.append(child)
        elif opened and child.type == BRACKETS[opened[-1].type]:
            opened.pop()
    if opened and node.end_byte >= len(source.rstrip()):
        return opened[-1].start_byte, msg("`{bracket}` is never closed", bracket=opened[-1].type)
    quotes = [child for child in node.children if child.type in QUOTES]
    if len(quotes) % 2:  # a quote the parser never saw closed, usually at the end of its line
        return quotes[-1].start_byte, msg("a string that is never closed: `{text}`",
                                          text=_snippet_at(source, quotes[-1].start_byte))
    before = source[node.start_byte - 1:node.start_byte].decode("ascii", "replace")
    text = _snippet(node, source)
    if text[:1] in QUOTES or before in QUOTES:
        start = node.start_byte - (before in QUOTES)
        return start, msg("a string that is never closed: `{text}`", text=_snippet_at(source, start))
    return node.start_byte, msg("unexpected `{text}`", text=text)


def _syntax(at: int, source: bytes, reason: Message) -> Fault:
    """The fault at byte `at`: its line, and its column in characters (as an editor counts)."""
    at = min(at, max(len(source.rstrip()) - 1, 0))
    line_start = source.rfind(b"\n", 0, at) + 1
    column = len(source[line_start:at].decode("utf-8", "replace")) + 1
    return Fault(source.count(b"\n", 0, at) + 1, msg("JavaScript syntax error, column {n}: {reason}", n=column,
                                                     reason=reason), SYNTAX_EXPECTED)


def _next_text(source: bytes, at: int) -> int:
    """The first byte at or after `at` that is not white space (len(source) at the end)."""
    return len(source) - len(source[at:].lstrip())


def _snippet(node, source: bytes) -> str:
    return _shortened(source[node.start_byte:node.end_byte].decode("utf-8", "replace").strip())


def _snippet_at(source: bytes, at: int) -> str:
    words = source[at:at + 4 * SNIPPET].decode("utf-8", "replace").split()
    return _shortened(words[0] if words else "")


def _shortened(text: str) -> str:
    first = text.splitlines()[0] if text else ""
    return first if len(first) <= SNIPPET else first[:SNIPPET] + "…"


# ── registration ───────────────────────────────────────────────────────────────────────────────────────────────────
def registration_faults(root, kind: str) -> list[Fault]:
    """A component registers its folder's name, `lessonkit.widget('KIND', …)`: lesson.js starts exactly the elements
    `[data-widget=KIND]` of a registered kind, so any other name (or none) leaves the component inert."""
    expected = msg("`lessonkit.widget('{kind}', function (root, data) { … })`: a component registers under its "
                   "folder's name", kind=kind)
    calls = list(_registrations(root))
    faults = []
    for call, name in calls:
        line = call.start_point[0] + 1
        if name is None:
            faults.append(Fault(line, msg("`lessonkit.widget(…)` needs the kind as a quoted string"), expected))
        elif name != kind:
            faults.append(Fault(line, msg("registers kind `{name}`, but its folder is `{kind}`", name=name, kind=kind),
                                expected))
    if not calls:
        faults.append(Fault(None, msg("registers no kind: nothing on the page would start this component"), expected))
    return faults


def _registrations(root):
    """(call node, the kind it registers or None when not a plain string) of every `lessonkit.widget(…)` call."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack += reversed(node.children)
        if node.type == "call_expression" and _is_registry_widget(node.child_by_field_name("function")):
            arguments = node.child_by_field_name("arguments")
            given = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
            yield node, _plain_string(given[0] if given else None)


def _is_registry_widget(function) -> bool:
    """`lessonkit.widget` or `window.lessonkit.widget`."""
    if function is None or function.type != "member_expression":
        return False
    obj, prop = function.child_by_field_name("object"), function.child_by_field_name("property")
    if prop is None or prop.text != b"widget" or obj is None:
        return False
    if obj.type == "member_expression":
        outer, inner = obj.child_by_field_name("object"), obj.child_by_field_name("property")
        return outer is not None and outer.text == b"window" and inner is not None and inner.text == REGISTRY.encode()
    return obj.type == "identifier" and obj.text == REGISTRY.encode()


def _plain_string(node) -> str | None:
    """The text of a string literal without escapes or substitutions (kinds are ASCII words), else None."""
    if node is None or node.type not in ("string", "template_string"):
        return None
    parts = node.named_children
    if any(p.type != "string_fragment" for p in parts):
        return None
    return "".join(p.text.decode("utf-8") for p in parts)
