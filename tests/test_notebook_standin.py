"""The notebook's stand-in for lessonkit (features/notebook_standin.py) accepts whatever the engine's registry
(compute/registry.py) accepts: every public method with the same parameters (names, kinds, defaults), and every
name a lesson.py may import. A keyword the engine learns and the stand-in does not would crash every notebook of a
lesson that uses it (`@lesson.figure(…, data=…)` once did)."""
from __future__ import annotations

import inspect

import lessonkit
from lessonkit.compute.registry import Lesson
from lessonkit.features import notebook_standin
from lessonkit.support import numbers


def public_methods(cls) -> dict[str, object]:
    found = {name: getattr(cls, name) for name in dir(cls) if not name.startswith("_") and callable(getattr(cls, name))}
    return {**found, "__init__": cls.__init__}


def parameters(func) -> list[tuple[str, object, object]]:
    """(name, kind, default) of each parameter: what a caller may pass (annotations are the engine's business)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(func).parameters.values()]


def test_the_stand_in_has_every_public_method_of_the_registry_with_the_same_parameters():
    real, standin = public_methods(Lesson), public_methods(notebook_standin.Lesson)
    assert {"value", "figure", "widget", "path", "read_text"} <= real.keys()   # the comparison compares something
    missing = sorted(real.keys() - standin.keys())
    assert missing == [], f"the notebook's Lesson lacks {missing}"
    for name, method in real.items():
        assert parameters(standin[name]) == parameters(method), name


def test_the_figure_decorator_takes_data_in_both():
    """The keyword that once drifted, written as the guide writes it."""
    for registry in (Lesson(), notebook_standin.Lesson()):
        @registry.figure(caption="c", alt="a", name="shown", data="table")
        def drawn(plt):
            return None
        assert drawn.__name__ == "drawn"


def test_every_name_a_lesson_may_import_is_defined_by_the_setup_cell():
    """The setup cell is numbers.py and the stand-in: together they define lessonkit's public names, and a widget
    builder there takes any arguments the engine's builder takes."""
    defined = {**vars(numbers), **vars(notebook_standin)}
    assert set(lessonkit.__all__) <= defined.keys()
    for name in lessonkit.__all__:
        if name in ("Lesson", "format_value"):
            continue
        kinds = {p.kind for p in inspect.signature(defined[name]).parameters.values()}
        assert kinds >= {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}, name
