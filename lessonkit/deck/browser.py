"""A built lesson page read in headless Chromium as a deck: its projector screens at the slides' size, each as the
shapes the browser laid out (extract.js), with pictures of what is drawn rather than written (formulas, images, a
widget's drawings); and the page printed, one screen per page, as the slides PDF.

Both come from the page itself in projector mode (components/projector: lessonkit.projector), at one window size,
so the PDF's pages, the PPTX's slides and the screens a teacher sees on a 16:9 projector are the same screens.
"""
from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

from ..draw.raster import SLIDE_HEIGHT as HEIGHT
from ..draw.raster import SLIDE_WIDTH as WIDTH   # the projector window: a slide is 13.333 × 7.5 in at 96 px an inch
from ..support.records import Mutable, fresh

FOOTER = 36            # px at the bottom of each PDF page for its slide number (the projector's bar is taller) …
TOP = 16               # … and above its screen (the page's own padding is on the first page only); both together
                       # are less than the bar and the room the projector leaves, so a screen always fits its page
PICTURE_SCALE = 2      # pictures taken of the page (formulas, images, widget drawings) at twice the CSS px
PAGE_READY_MS = 10_000


class Screen(Mutable):
    """One projector screen: its title, its shapes (extract.js), its notes (paragraphs of runs), the answers on it
    (read only for the teacher's edition) and the pictures taken of it (shot number → PNG)."""
    title: str
    part: str
    shapes: list[dict[str, Any]]
    notes: list[dict[str, Any]]
    answers: list[dict[str, Any]]
    background: str
    foreground: str | None
    heading_size: float | None
    pictures: dict[int, bytes] = fresh(dict)


class LessonDeck(Mutable):
    slug: str
    title: str
    language: str
    screens: list[Screen]


@functools.cache
def extractor() -> str:
    return (Path(__file__).with_name("extract.js")).read_text(encoding="utf-8")


def open_lesson(browser, url: str, scale: int = 1):
    """A page of the lesson at the projector's size, loaded and idle, light colours (the slides are printed light)."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=scale,
                                  color_scheme="light")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.wait_for_function("() => document.documentElement.hasAttribute('data-lk-checked')", timeout=PAGE_READY_MS)
    return context, page


def read_deck(browser, url: str, slug: str, answers: bool = False) -> LessonDeck:
    """Every projector screen of the page at `url` as shapes; widgets as they print (their key states, the boxes
    of a self-check empty), laid out at the width they take on the screen."""
    context, page = open_lesson(browser, url, PICTURE_SCALE)
    try:
        page.evaluate(f"({extractor()})()")
        count = page.evaluate("lessonkitDeck.count()")
        screens, placed = [], []
        for i in range(count):
            data = page.evaluate("([i, a]) => lessonkitDeck.screen(i, a)", [i, answers])
            pictures = take_pictures(page, data["shapes"])
            screens.append(Screen(data["title"], data["part"], data["shapes"], data["notes"], data["answers"],
                                  data["background"], data["fg"], data["headingSize"], pictures))
            placed += [(screens[-1], w) for w in data["widgets"]]
        if placed:
            read_printed_widgets(page, placed)
        title, language = page.evaluate("[document.querySelector('h1.lesson-title, h1').textContent.trim(), "
                                        "document.documentElement.lang]")
        return LessonDeck(slug, title, language or "zh-CN", screens)
    finally:
        context.close()


def take_pictures(page, shapes: list[dict[str, Any]]) -> dict[int, bytes]:
    """The pictures the shapes ask for (their `clip`: page px), cut from one screenshot of the area they cover."""
    wanted = [s for s in shapes if s["kind"] == "picture" and s.get("shot")]
    if not wanted:
        return {}
    from PIL import Image

    x0, y0 = min(s["clip"]["x"] for s in wanted), min(s["clip"]["y"] for s in wanted)
    x1 = max(s["clip"]["x"] + s["clip"]["width"] for s in wanted)
    y1 = max(s["clip"]["y"] + s["clip"]["height"] for s in wanted)
    area = {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}
    top = page.evaluate("scrollY")
    inside = top <= y0 and y1 <= top + HEIGHT      # in the window: no full-page capture (that lays out again)
    clip = dict(area, y=y0 - top) if inside else area
    shot = Image.open(io.BytesIO(page.screenshot(type="png", clip=clip, full_page=not inside)))
    k = shot.width / area["width"]
    pictures = {}
    for s in wanted:
        c = s["clip"]
        box = [round((c["x"] - area["x"]) * k), round((c["y"] - area["y"]) * k),
               round((c["x"] - area["x"] + c["width"]) * k), round((c["y"] - area["y"] + c["height"]) * k)]
        out = io.BytesIO()
        shot.crop(box).save(out, format="PNG", compress_level=1)
        pictures[s["shot"]] = out.getvalue()
    return pictures


def read_printed_widgets(page, placed: list[tuple[Screen, dict[str, Any]]]) -> None:
    """Each widget as the page prints it (key states side by side, every state of a toggle, a self-check's empty
    boxes without its key), put in its screen in place of its placeholder. It is laid out in the handout's type at
    the width that makes it as wide as on the screen once its type is the projector's (`grow`)."""
    screen_type = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    page.evaluate("lessonkit.projector.leave(); document.documentElement.classList.add('print-student')")
    page.emulate_media(media="print")
    grow = screen_type / page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    for screen, widget in placed:
        printed = page.evaluate("([id, w]) => lessonkitDeck.widget(id, w)", [widget["id"], widget["box"]["w"] / grow])
        if printed is None:
            continue
        screen.pictures.update(take_pictures(page, printed["shapes"]))
        at = next(i for i, s in enumerate(screen.shapes) if s["kind"] == "widget" and s["id"] == widget["id"])
        screen.shapes[at] = {"kind": "group", "box": widget["box"], "w": printed["w"], "h": printed["h"],
                             "grow": grow, "shapes": printed["shapes"], "last": at == len(screen.shapes) - 1}
    page.emulate_media(media="screen")


def print_slides(browser, url: str, target: Path, answers: bool = False) -> int:
    """The page printed in projector mode, one 16:9 page per screen with its number (`answers`: the teacher's
    edition, answers open and each screen's notes on a page after it); returns the number of screens."""
    context, page = open_lesson(browser, url)
    try:
        screens = page.evaluate("(a) => lessonkit.projector.deck(a)", answers)
        page.emulate_media(media="screen")   # the projector's type and layout, not the handout's print rules
        page.pdf(path=str(target), width=f"{WIDTH}px", height=f"{HEIGHT}px", print_background=True,
                 margin={"top": f"{TOP}px", "right": "0", "bottom": f"{FOOTER}px", "left": "0"},
                 display_header_footer=True, header_template="<span></span>", footer_template=FOOTER_TEMPLATE,
                 tagged=True, outline=True)
        return screens
    finally:
        context.close()


# the slide number, bottom right, in the page's own font (Chromium fills in the two spans)
FOOTER_TEMPLATE = ('<div style="width:100%;padding:0 28px 6px;text-align:right;font:11px '
                   'sans-serif;color:#555e69"><span class="pageNumber"></span> / <span class="totalPages"></span></div>')
