"""draw/pictures.py: rasters a page carries inline, made light — a chart or diagram as a lossless WebP (the same
pixels), a photograph or shaded surface as a lossy one only when that halves it, other types as they are."""
import io

import numpy as np
from PIL import Image

from lessonkit.draw.pictures import lighter


def png_of(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


def pixels_of(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def test_a_diagram_is_a_lossless_webp_of_the_same_pixels():
    diagram = np.full((120, 200, 3), 255, np.uint8)
    diagram[20:60, 30:90] = (0, 114, 178)       # two boxes and a line, as a drawn diagram has
    diagram[70:100, 120:180] = (213, 94, 0)
    diagram[64, 10:190] = 0
    png = png_of(diagram)
    mime, data = lighter("image/png", png)
    assert mime == "image/webp" and len(data) < len(png)
    assert np.array_equal(pixels_of(data), diagram)


def test_a_photograph_is_a_lossy_webp_at_most_half_its_png():
    rng = np.random.default_rng(3)
    smooth = np.cumsum(np.cumsum(rng.normal(size=(300, 400, 3)), axis=0), axis=1)   # a smooth, many-coloured image
    photo = (255 * (smooth - smooth.min()) / np.ptp(smooth)).astype(np.uint8)
    png = png_of(photo)
    mime, data = lighter("image/png", png)
    assert mime == "image/webp" and 2 * len(data) <= len(png)
    assert np.abs(pixels_of(data).astype(int) - photo).mean() < 8   # lossy, but the same picture


def test_other_types_are_left_as_they_are():
    jpeg = io.BytesIO()
    Image.fromarray(np.zeros((8, 8, 3), np.uint8)).save(jpeg, format="JPEG")
    assert lighter("image/jpeg", jpeg.getvalue()) == ("image/jpeg", jpeg.getvalue())
    assert lighter("image/svg+xml", b"<svg/>") == ("image/svg+xml", b"<svg/>")


def test_a_png_pillow_cannot_read_is_left_as_it_is():
    broken = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
    assert lighter("image/png", broken) == ("image/png", broken)
