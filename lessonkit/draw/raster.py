"""A figure as a PNG picture, for the slides (`build.py slides`): the same matplotlib Figure the SVG came from, drawn
once with it (figures.draw_figure_files) and cached beside it, so slides and page show the same numbers.

The whole figure is one picture (the page may cut a figure of several axes into panels that wrap; a slide does not
wrap). Its background stays transparent, like the SVG's: the slide shows through.
"""
from __future__ import annotations

import io

PNG_DPI = 220   # figures are ~6–7 inches wide: ~1500 px, more than twice the width they take on a 1280 px slide


def figure_png(fig) -> bytes:
    """The figure as PNG bytes at PNG_DPI, cropped to what it draws (labels included), without metadata that
    would change from run to run."""
    from .figures import PANEL_PAD

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=PNG_DPI, bbox_inches="tight", pad_inches=PANEL_PAD, transparent=True,
                metadata={"Software": None})
    return buffer.getvalue()
