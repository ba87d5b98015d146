"""Raster images made light for a page that carries them inline: a figure's rasters (draw/svg.py) and the images a
lesson's Markdown shows (render/markup.py). Every browser reads WebP.

    lossless(png)     the same pixels as a lossless WebP, when lighter (a heatmap, a diagram, a screenshot)
    as_picture(png)   a lossy WebP of a heavy raster or one of more colours than a chart has (a shaded surface, a
                      photograph), when that halves it: its colours are kept in dark mode (no twin is made)
    lighter(mime, data)  the lightest of these for a PNG (JPEG, GIF, WebP and SVG as they are: re-encoding a JPEG
                      loses twice, a GIF may move)
"""
from __future__ import annotations

import io

from ..features.palette import RASTER_MAX_COLORS

PICTURE_BYTES = 24 * 1024   # a raster this heavy as PNG is a picture (a surface, a photograph) …
PICTURE_QUALITY = (75, 40)  # … kept as a lossy WebP (colour, transparency quality) when that halves it: a smooth
#                             surface's seams and edges cost most


def as_picture(png: bytes) -> bytes | None:
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    if len(png) < PICTURE_BYTES and image.getcolors(RASTER_MAX_COLORS) is not None:
        return None
    buffer = io.BytesIO()
    image.save(buffer, format="WEBP", quality=PICTURE_QUALITY[0], alpha_quality=PICTURE_QUALITY[1], method=6)
    return buffer.getvalue() if 2 * buffer.tell() <= len(png) else None


def lossless(png: bytes) -> bytes | None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.open(io.BytesIO(png)).save(buffer, format="WEBP", lossless=True, quality=100, method=6)
    return buffer.getvalue() if buffer.tell() < len(png) else None


def lighter(mime: str, data: bytes) -> tuple[str, bytes]:
    if mime != "image/png":
        return mime, data
    try:
        found = as_picture(data) or lossless(data)
    except (OSError, SyntaxError, ValueError):   # (a PNG Pillow cannot read: inlined as it is, as a browser may)
        return mime, data
    return ("image/webp", found) if found is not None else (mime, data)
