"""The stand-in for lessonkit in a lesson's notebook (features/notebook.py copies this file's source, after
support/numbers.py's, into the notebook's setup cell): a registry with lessonkit's decorators whose values are
computed when asked for, the `plt` a figure function gets, and placeholders for the widget builders. It needs
numpy and matplotlib only; the engine itself never imports it.

Lesson code runs unchanged: `lesson = Lesson()`, `@lesson.value`, `@lesson.figure(caption=…, alt=…, name=…,
data=…)`, `@lesson.widget`, `lesson.read_text(…)`, `lesson.path(…)`: every public method of the engine's registry
(compute/registry.py) with the same parameters, which tests/test_notebook_standin.py compares. `lesson.get(NAME)` computes a value (its inputs first,
each once, like the engine); `lesson.draw(NAME)` draws a figure from the values it asks for.
"""
import base64
import inspect
import tempfile
from pathlib import Path

LESSON_FILES = {}     # the lesson folder's data files, name → base64, filled in by the notebook's setup cell


class Lesson:
    def __init__(self):
        self.values, self.figures, self.widgets, self.computed = {}, {}, {}, {}

    def value(self, func):
        self.values[func.__name__] = func
        return func

    def figure(self, *, caption, alt, name=None, data=None):
        """`data` names the value the page shows as the figure's data table: nothing to do here."""
        def register(func):
            self.figures[name or func.__name__] = func
            return func
        return register

    def widget(self, func=None, *, kind=None):
        def register(f):
            self.widgets[f.__name__] = f
            return f
        return register(func) if func is not None else register

    def get(self, name):
        """The value NAME, computed once (the values it depends on first)."""
        if name not in self.computed:
            func = self.values[name]
            self.computed[name] = func(*[self.get(p) for p in inspect.signature(func).parameters])
        return self.computed[name]

    def draw(self, name):
        """The figure NAME: its function run on the values it asks for, as the lesson's page drew it."""
        func = self.figures[name]
        inputs = list(inspect.signature(func).parameters)[1:]
        return func(FigureMaker(), *[self.get(p) for p in inputs])

    def read_text(self, name):
        return base64.b64decode(LESSON_FILES[name]).decode("utf-8")

    def path(self, name):
        folder = Path(tempfile.gettempdir()) / "lesson-files"
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(LESSON_FILES[name]))
        return target


def unpack_lesson_files():
    """The lesson's data files beside the notebook, where its code reads them, as in the lesson's folder (a file
    already there is the student's own: never overwritten)."""
    for name, data in LESSON_FILES.items():
        target = Path(name)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(base64.b64decode(data))


def widget_builder(*args, **kwargs):
    """explorer(…), bars(…), param(…), table(…): a widget of the lesson's web page; here only its arguments."""
    return {"args": args, "kwargs": kwargs}


explorer = bars = param = table = widget_builder


def use_figure_style(rc, fonts, missing):
    """The figures' style, with the first of `fonts` (CJK fonts) installed here; `missing` is said when none is."""
    import matplotlib
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    found = [f for f in fonts if f in installed]
    if not found:
        print(missing)
    matplotlib.rcParams.update({**rc, "font.sans-serif": found[:1] + ["DejaVu Sans"]})
