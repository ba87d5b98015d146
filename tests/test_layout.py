"""The engine's shape (docs/design.md): stage packages whose imports point down only, no import cycles, no
module-level mutable state, lessons that import only the public API."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lesson_folders import PROJECT

ENGINE = PROJECT / "lessonkit"
# top to bottom; a module may import from its own level or any level below
LEVELS = ["__main__", "cli", "commands", "deck", "export", "site", "stages", "incremental", "write", "assemble", "render", "draw", "compute", "features", "load", "support"]
PUBLIC = {"Lesson", "bars", "explorer", "format_value", "param", "table"}


def level_of(module: str) -> str:
    """`lessonkit.render.pages` → render; `lessonkit.site` → site; `lessonkit` (the public face) → its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def engine_modules() -> dict[str, Path]:
    found = {}
    for path in ENGINE.rglob("*.py"):
        rel = path.relative_to(PROJECT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        if "scaffold" in parts:
            continue  # a lesson's template, not engine code
        found[".".join(parts)] = path
    return found


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """Engine modules this module imports (relative imports resolved), at any depth of the file."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("lessonkit"):  # `from pkg import module` imports the module; else the names' module
                subs = {f"{target}.{a.name}" for a in node.names} & known
                found.update(subs if subs else {target})
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("lessonkit"))
    return found


def test_imports_point_down_only():
    modules = engine_modules()
    rank = {name: i for i, name in enumerate(LEVELS)}
    upward = []
    for module, path in modules.items():
        here = level_of(module)
        if here == "__init__":
            continue
        for target in imports_of(module, path, set(modules)):
            if target not in modules or target == "lessonkit":
                continue
            there = level_of(target)
            if there != "__init__" and rank[there] < rank[here]:
                upward.append(f"{module} → {target}")
    assert not upward, "imports pointing up the stages:\n" + "\n".join(sorted(upward))


def test_no_import_cycles():
    modules = engine_modules()
    graph = {m: {t for t in imports_of(m, p, set(modules)) if t in modules and t != m} for m, p in modules.items()}
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, trail: list[str]) -> bool:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1 and nxt != "lessonkit":
                cycle.extend(trail[trail.index(nxt):] + [node, nxt] if nxt in trail else [node, nxt])
                return True
            if state.get(nxt) is None and visit(nxt, trail + [node]):
                return True
        state[node] = 2
        return False

    for m in sorted(graph):
        if m != "lessonkit" and state.get(m) is None and visit(m, []):
            break
    assert not cycle, " → ".join(cycle)


MUTABLE = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def test_no_module_level_mutable_state():
    """No module-level list, dict or set (constants are tuples, frozensets or strings) and no `global`."""
    found = []
    for module, path in engine_modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            call = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                value.func.id in ("dict", "list", "set", "defaultdict")
            if isinstance(value, MUTABLE) or call:
                names = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if
                         isinstance(t, ast.Name)]
                if not all(n.isupper() or n == "__all__" for n in names):  # UPPER_CASE tables: read-only
                    found.append(f"{module}: {', '.join(names)}")
        found += [f"{module}: global {', '.join(n.names)}" for n in ast.walk(tree) if isinstance(n, ast.Global)]
    assert not found, "module-level mutable state:\n" + "\n".join(found)


def test_records_are_support_records_classes():
    """A class with declared fields is a support.records Record or Mutable (docs/design.md: defining a NamedTuple
    or a dataclass costs every build's process ≈0.35–0.6 ms), so no module defines either."""
    found = []
    for module, path in engine_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                named = [ast.unparse(b) for b in node.bases] + [ast.unparse(d) for d in node.decorator_list]
                if any("NamedTuple" in n or "dataclass" in n for n in named):
                    found.append(f"{module}.{node.name}")
    assert not found, "a NamedTuple or dataclass in the engine: " + ", ".join(found)


@pytest.mark.parametrize("lesson_py", sorted((PROJECT / "content").glob("*/lesson.py")) +
                         [PROJECT / "lessonkit" / "scaffold" / "lesson" / "lesson.py"], ids=lambda p: p.parent.name)
def test_lessons_import_only_the_public_api(lesson_py):
    tree = ast.parse(lesson_py.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lessonkit"):
            assert node.module == "lessonkit", f"{lesson_py}: imports {node.module}"
            assert {a.name for a in node.names} <= PUBLIC
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("lessonkit") for a in node.names)


def test_the_public_api_is_what_lessons_may_import():
    import lessonkit

    assert set(lessonkit.__all__) == PUBLIC
    assert all(hasattr(lessonkit, name) for name in PUBLIC)
