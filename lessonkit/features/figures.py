"""A figure on the page: `{{< figure NAME >}}` places lesson.py's figure NAME, numbered in reading order (the plan's
figure places: load/plan.py); its drawing and its data table are holes in the draft (render/draft.py), filled when
drawn. The theme's partials/figure.html shows it."""
from __future__ import annotations

from pathlib import Path

from ..load.plan import Place
from ..support.errors import Miss, Problem
from ..support.messages import msg
from ..support.suggest import did_you_mean
from .placing import Page


def place(page: Page, name: str, args: tuple[str, ...], copy: str = "", at=None) -> str | Miss:
    """The figure; `copy` names a second copy of it on the page (a challenge answer's figure printed again with the
    answers), whose ids differ."""
    lesson = page.lesson
    if name not in lesson.registry.figures:
        return unknown("figure", name, lesson.registry.figures)
    spec = lesson.registry.figures[name]
    path, line = lesson.source.code_path, spec.line
    alt = page.inline(spec.alt, path, line, plain=True)
    if not alt.strip():
        return Miss(msg("figure `{name}` has an empty alt text", name=name),
                    "alt=\"…\" in @lesson.figure saying what the figure shows, for readers who cannot see it")
    figure_id, number = f"fig-{name}" + (f"-{copy}" if copy else ""), page.figure_order.index(name) + 1
    figure = {"id": figure_id, "name": name, "number": number, "caption": page.inline(spec.caption, path, line),
              "alt": alt, "svg": page.figure_mark(name),
              "data_html": page.figure_data_mark(name, figure_id, number)}
    return page.template("partials/figure.html", figure=figure)


def unplaced(page: Page) -> list[Problem]:
    """Every figure of lesson.py stands somewhere on the page (placed_twice: and only once)."""
    lesson = page.lesson
    src, problems = lesson.source, []
    never = set(lesson.registry.figures) - set(page.figure_order)
    for name in sorted(never if src.meta or not src.meta_path.exists() else ()):  # lesson.yaml unread: its
        problems.append(Problem(src.body_path, None,                                   # answers may place them
                                msg("figure `{name}` is defined in lesson.py but never placed", name=name),
                                msg("a line `{{< figure {name} >}}` in lesson.md", name=name)))
    return problems


def placed_twice(places: list[Place]) -> list[Problem]:
    """A figure placed twice would be two figures with one id and one number."""
    first: dict[str, tuple[Path, int]] = {}
    problems = []
    for name, path, line in ((p.name, p.path, p.line) for p in places):
        if name in first:
            (at, at_line), file = first[name], first[name][0].name
            problems.append(Problem(path, line, msg("figure `{name}` is placed twice (first at line {line})",
                                                    name=name, line=at_line) if at == path else
                                    msg("figure `{name}` is placed twice (first at {file}:{line})", name=name,
                                        file=file, line=at_line), "each figure placed once"))
        first.setdefault(name, (path, line))
    return problems


def unknown(kind: str, name: str, known) -> Miss:
    """A figure or widget name lesson.py does not define."""
    hint, names = did_you_mean(name, known), ", ".join(sorted(known)) or msg("none")
    if kind == "figure":
        return Miss(msg("unknown figure `{name}`{hint}", name=name, hint=hint),
                    msg("a figure defined with @lesson.figure in lesson.py: {names}", names=names))
    return Miss(msg("unknown widget `{name}`{hint}", name=name, hint=hint),
                msg("a widget defined with @lesson.widget in lesson.py: {names}", names=names))
