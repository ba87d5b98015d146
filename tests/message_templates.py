"""The message templates the engine's code uses, found statically (an AST walk over lessonkit/**/*.py), so every one
is checked against the catalogs without running the code that says it: the first argument of `msg(…)` and of a
command's `say(…)`, and the plain strings given as a Problem's, Miss's, Issue's or UsageError's message or
expected text, or as a schema Key's help (the expected text of its key)."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "lessonkit"

TEMPLATE_CALLS = {"msg", "say", "speak"}                         # (template, **params)
MESSAGE_ARGS = {"Problem": (2, 3), "Miss": (0, 1), "Issue": (0, 1), "LessonPathError": (0, 1),
                "LessonFileMissing": (0, 1), "UsageError": (0,), "FormatError": (0,), "Key": (2,)}
MESSAGE_KEYWORDS = {"message", "expected", "help"}


@dataclass(frozen=True)
class Use:
    template: str
    where: str                     # lessonkit/…/file.py:LINE
    params: frozenset[str] | None  # the keywords given at a msg/say call; None for a plain string


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _strings(node: ast.expr) -> list[ast.Constant]:
    """String literals a message argument is made of (both sides of a conditional)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    return []


def calls(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and _name(node.func):
            yield node


def uses() -> list[Use]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        where = str(path.relative_to(ENGINE.parent))
        for call in calls(path):
            name = _name(call.func)
            if name in TEMPLATE_CALLS and call.args and isinstance(call.args[0], ast.Constant) \
                    and isinstance(call.args[0].value, str):
                params = frozenset(k.arg for k in call.keywords if k.arg)
                found.append(Use(call.args[0].value, f"{where}:{call.lineno}", params))
                continue
            args = [call.args[i] for i in MESSAGE_ARGS.get(name, ()) if i < len(call.args)]
            args += [k.value for k in call.keywords if name in MESSAGE_ARGS and k.arg in MESSAGE_KEYWORDS]
            found += [Use(c.value, f"{where}:{c.lineno}", None) for arg in args for c in _strings(arg)]
    return found


def finished_texts() -> list[str]:
    """Where a message is built as a finished text instead of a template and parameters: an f-string, `+` or
    `.format` as a message argument, or a template that is not a literal."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        where = str(path.relative_to(ENGINE.parent))
        for call in calls(path):
            name = _name(call.func)
            if name == "msg" and not (call.args and isinstance(call.args[0], ast.Constant)):
                found.append(f"{where}:{call.lineno}: msg() without a literal template")
            args = [call.args[i] for i in MESSAGE_ARGS.get(name, ()) if i < len(call.args)] if name != "Key" else []
            args += [call.args[0]] if name == "msg" and call.args else []
            for arg in args:
                built = isinstance(arg, (ast.JoinedStr, ast.BinOp)) or (
                    isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format")
                if built:
                    found.append(f"{where}:{arg.lineno}: {ast.unparse(arg)[:80]}")
    return found
