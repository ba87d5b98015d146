"""pyplot in a lesson written as cells (compute/cellrun.py): a figure cell draws the way a notebook does —
`plt.plot(…)`, `plt.figure(figsize=…)`, `fig, ax = plt.subplots()`, or a Figure of its own — and the figure it
drew is the one the pipeline turns into the page's SVG, data table and dark-mode colours.

    routed(style)    while a figure cell runs: pyplot on the non-interactive Agg backend, the figures' style (the
                     rcParams the draw stage hands down: the same fonts and colours as every figure, a new figure's
                     size and constrained layout as FigureMaker makes them: draw/drawing.py cell_figure_style),
                     `plt.show()` ending the figures open (as Jupyter's inline backend does: a cell that shows
                     twice drew two figures), `plt.savefig()` doing nothing; the figures it made are then taken out
                     of pyplot (no global state is left behind).
    drawn_figure     the one figure a cell drew: pyplot's, else a matplotlib Figure it bound or ended with.
    stray_figures    after a code cell: how many figures with something drawn it left in pyplot (closed).

matplotlib is imported here only when a cell lesson uses it.
"""
from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator


def _pyplot():
    return sys.modules.get("matplotlib.pyplot")


def use_agg() -> None:
    """pyplot, once a cell imported it, on Agg: a build opens no window."""
    plt = _pyplot()
    if plt is None:
        return
    import matplotlib

    unresolved = getattr(matplotlib.rcParams, "_get_backend_or_none", None)  # (asking get_backend() would choose)
    chosen = unresolved() if unresolved is not None else matplotlib.get_backend()
    if chosen is None or chosen.lower() != "agg":
        plt.switch_backend("agg")


@contextlib.contextmanager
def routed(style: dict[str, Any]) -> Iterator[list]:
    """Yields a list that holds, once the block is done, every figure pyplot made in it (in the order made)."""
    import matplotlib
    from matplotlib import pyplot as plt

    from ..features.figdata import keep_grid_data

    use_agg()
    keep_grid_data()
    plt.close("all")
    made: list = []
    show, savefig = plt.show, plt.savefig

    def shown(*args: Any, **kwargs: Any) -> None:   # as in Jupyter: what is open is shown and closed, so what the
        made.extend(plt.figure(number) for number in plt.get_fignums())   # cell draws next is another figure
        plt.close("all")

    plt.show, plt.savefig = shown, _nothing
    try:
        with matplotlib.rc_context(style):
            yield made
            made.extend(plt.figure(number) for number in plt.get_fignums())
    finally:
        plt.show, plt.savefig = show, savefig
        plt.close("all")  # out of pyplot's hands; the Figure objects stay as they are


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def has_drawing(fig) -> bool:
    """Whether a figure shows anything: data, text or an image in some axes, or text on the figure itself."""
    return bool(fig.texts or fig.images or any(ax.has_data() or ax.texts or ax.images for ax in fig.axes))


def drawn_figures(made: list, bound: list[Any]) -> list:
    """The figures a cell drew: pyplot's with something on them; else the Figures it bound to a name or ended with
    (an explicit `Figure()`), each once; else, the same with only empty axes (`plt.axes()`: Jupyter shows their
    frame and ticks, a figure too)."""
    from matplotlib.figure import Figure

    for shows in (has_drawing, has_axes):
        drawn = [fig for fig in made if shows(fig)]
        if drawn:
            return drawn
        own = [value for value in bound if isinstance(value, Figure) and shows(value)]
        if own:
            return list({id(fig): fig for fig in own}.values())
    return []


def has_axes(fig) -> bool:
    return any(ax.get_visible() and ax.axison for ax in fig.axes)


def stray_figures() -> int:
    """Figures with something drawn that a code cell left in pyplot, all closed."""
    plt = _pyplot()
    if plt is None or not plt.get_fignums():
        return 0
    count = sum(has_drawing(plt.figure(number)) for number in plt.get_fignums())
    plt.close("all")
    return count
