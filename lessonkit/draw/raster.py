"""A figure as a PNG picture, for the slides (`build.py slides`): the same matplotlib Figure the SVG came from, drawn
once with it (figures.draw_figure_files) and cached beside it, so slides and page show the same numbers.

The whole figure is one picture (the page may cut a figure of several axes into panels that wrap; a slide does not
wrap), with at least twice the pixels of the largest it can be shown at on a slide, and at least PNG_DPI. Its
background stays transparent, like the SVG's: the slide shows through.
"""
from __future__ import annotations

import io

SLIDE_WIDTH, SLIDE_HEIGHT = 1280, 720   # CSS px: a 16:9 slide (a 720p projector), 96 px an inch, as deck/ makes them
PNG_DPI = 220


def figure_png(fig, pad: float) -> bytes:
    """The figure as PNG bytes, cropped to what it draws (labels included) with `pad` inches of margin (the SVG's),
    without metadata that changes."""
    box = fig.get_tightbbox(fig._get_renderer()).padded(pad)   # inches
    dpi = max(PNG_DPI, 2.02 * min(SLIDE_WIDTH / box.width, SLIDE_HEIGHT / box.height))   # 1 %: the crop rounds
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight", pad_inches=pad, transparent=True,
                metadata={"Software": None})
    return buffer.getvalue()
