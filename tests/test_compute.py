"""Values resolved by parameter name; the author's exceptions become messages at their line."""
import pytest

from lessonkit.compute.registry import load_lesson_module
from lessonkit.compute.run import compute_values
from lessonkit.support.errors import ContentError


def registry_from(tmp_path, code):
    path = tmp_path / "lesson.py"
    path.write_text(code, encoding="utf-8")
    return load_lesson_module(path), path


HEADER = "from lessonkit import Lesson\nlesson = Lesson()\n"


def test_values_resolve_dependencies_in_any_order(tmp_path):
    code = HEADER + (
        "@lesson.value\ndef total(a, b):\n    return a + b\n"
        "@lesson.value\ndef a():\n    return 2\n"
        "@lesson.value\ndef b(a):\n    return a * 10\n")
    registry, path = registry_from(tmp_path, code)
    assert compute_values(registry, path) == {"total": 22, "a": 2, "b": 20}


def test_each_value_is_computed_once(tmp_path):
    code = HEADER + (
        "calls = []\n"
        "@lesson.value\ndef base():\n    calls.append(1)\n    return len(calls)\n"
        "@lesson.value\ndef x(base):\n    return base\n"
        "@lesson.value\ndef y(base):\n    return base\n")
    registry, path = registry_from(tmp_path, code)
    assert compute_values(registry, path) == {"base": 1, "x": 1, "y": 1}


def test_unknown_dependency_names_the_value(tmp_path):
    registry, path = registry_from(tmp_path, HEADER + "@lesson.value\ndef x(nope):\n    return nope\n")
    with pytest.raises(ContentError) as info:
        compute_values(registry, path)
    assert str(info.value) == f"{path}:3: `x` asks for unknown value `nope` (expected one of: x)"


def test_cycle_is_reported(tmp_path):
    code = HEADER + "@lesson.value\ndef a(b):\n    return b\n@lesson.value\ndef b(a):\n    return a\n"
    registry, path = registry_from(tmp_path, code)
    with pytest.raises(ContentError, match="values depend on each other in a cycle: a → b → a"):
        compute_values(registry, path)


def test_exception_in_value_points_at_its_line(tmp_path):
    code = HEADER + "@lesson.value\ndef broken():\n    x = 1\n    return x / 0\n"
    registry, path = registry_from(tmp_path, code)
    with pytest.raises(ContentError) as info:
        compute_values(registry, path)
    assert str(info.value) == (f"{path}:6: the lesson code raised ZeroDivisionError: division by zero "
                               "(expected lesson code that runs without error)")


def test_syntax_error_in_lesson_module(tmp_path):
    with pytest.raises(ContentError) as info:
        registry_from(tmp_path, HEADER + "def broken(:\n")
    [problem] = info.value.problems
    assert problem.line == 3 and "SyntaxError" in str(problem.message)


def test_module_without_registry(tmp_path):
    with pytest.raises(ContentError, match="defines no `lesson = Lesson\\(\\)` registry"):
        registry_from(tmp_path, "x = 1\n")
