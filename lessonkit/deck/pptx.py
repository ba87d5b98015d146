"""A lesson deck (deck/browser.py) as an editable PowerPoint file, with python-pptx: one slide per projector screen.

The slide is the projector's window (1280 × 720 CSS px = 13.333 × 7.5 in, 9525 EMU a px) and every shape stands where
the browser laid it out, scaled to fit under the title: the screen's title (its section heading) in the title
placeholder; prose, lists, callouts and tables as text boxes, tables and boxes in the lesson's CJK font (formulas
inline as text, their letters italic, scripts raised or lowered); figures as the PNG pictures the draw stage made
from the same figure functions, with their alt text as the picture's description; display formulas, images and what
a widget draws as pictures of the page (described by the formula's TeX, the image's alt text, or the words a drawing
stands beside: extract.js); the screen's notes in the slide's notes.
"""
from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Callable

from .browser import HEIGHT, WIDTH, LessonDeck, Screen

EMU = 9525                       # per CSS px (96 px an inch)
PT = 0.75                        # pt per CSS px
MARGIN = 32                      # px: left, right and bottom of the slide
TITLE_TOP, TITLE_HEIGHT = 14, 64
BODY_TOP = TITLE_TOP + TITLE_HEIGHT + 8
MONO = "Consolas"                # code: what Office has; other programs fall back to their monospace font
NO_STYLE_TABLE = "{2D5ABB26-0587-4C30-8999-92F81FD0307C}"   # Office's "No Style, No Grid": cells as we draw them
SLACK = 1.03                     # text boxes a little wider than the browser's lines: other programs break later
SMALLEST_WIDGET = 0.6            # a printed widget is not shrunk below this to fit its room: what does not fit stays out
TABLE_SLACK = 1.12               # tables too, as far as the slide has room


def write_pptx(deck: LessonDeck, figures: dict[str, bytes], font: str, target: Path,
               words: dict[str, str]) -> int:
    """Write the deck to `target`; `figures`: figure name → PNG; `words`: the theme's words the slides use
    (`answers`: the heading of a screen's answers in its notes). Returns the number of slides."""
    from pptx import Presentation

    prs = Presentation()
    prs.slide_width, prs.slide_height = WIDTH * EMU, HEIGHT * EMU
    prs.core_properties.title = deck.title
    prs.core_properties.language = deck.language
    layout = prs.slide_layouts[5]    # "Title Only"
    fonts = Fonts(font, deck.language)
    for number, screen in enumerate(deck.screens, start=1):
        slide = prs.slides.add_slide(layout)
        Slide(slide, screen, figures, fonts).draw()
        notes = screen.notes + ([{"runs": [{"t": words["answers"], "b": True}]}] + screen.answers
                                if screen.answers else [])
        if notes:
            fill_paragraphs(slide.notes_slide.notes_text_frame, notes, fonts, scale=None)
        slide_number(slide, number, fonts, screen.foreground)
    prs.save(str(target))
    return len(deck.screens)


class Fonts:
    """The lesson's CJK font (for Latin too, as the page shows it) and the language its runs are tagged with."""

    def __init__(self, cjk: str, language: str):
        self.cjk, self.language = cjk, language


class Slide:
    """One screen onto one slide: title, then the shapes in the order the page paints them."""

    def __init__(self, slide, screen: Screen, figures: dict[str, bytes], fonts: Fonts):
        self.slide, self.screen, self.figures, self.fonts = slide, screen, figures, fonts

    def draw(self) -> None:
        background(self.slide, self.screen.background)
        self.title()
        shapes = flatten(self.screen.shapes)
        if not shapes:
            return
        x0 = min(s["x"] for s in shapes)
        y0 = min(s["y"] for s in shapes)
        x1 = max(s["x"] + s["w"] for s in shapes)
        y1 = max(s["y"] + s["h"] for s in shapes)
        room_w, room_h = WIDTH - 2 * MARGIN, HEIGHT - MARGIN - BODY_TOP
        k = min(1.0, room_w / max(x1 - x0, 1), room_h / max(y1 - y0, 1))
        left = min(max(x0, MARGIN), WIDTH - MARGIN - (x1 - x0) * k)
        place = Placement(k, left - x0 * k, BODY_TOP - y0 * k)
        for shape in shapes:
            DRAW[shape["kind"]](self, place.of(shape), shape)

    def title(self) -> None:
        title = self.slide.shapes.title
        title.left, title.top = MARGIN * EMU, TITLE_TOP * EMU
        title.width, title.height = (WIDTH - 2 * MARGIN) * EMU, TITLE_HEIGHT * EMU
        frame = title.text_frame
        frame.word_wrap = True
        from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
        frame.auto_size = MSO_AUTO_SIZE.TEXT_TO_FIT_SHAPE
        frame.vertical_anchor = MSO_ANCHOR.MIDDLE
        size = min(self.screen.heading_size or 31, 40)
        p = frame.paragraphs[0]
        p.alignment = PP_ALIGN.LEFT
        run = p.add_run()
        run.text = self.screen.title
        style_run(run, {"b": True, "size": size, "color": self.screen.foreground}, self.fonts, 1.0)

    # ── the shapes ────────────────────────────────────────────────────────────────────────────────────────────
    def text(self, box, shape) -> None:
        from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE
        x, y, w, h = box
        extra = w * (SLACK - 1) + 6                   # other programs break lines a little later: room for it
        align = shape["paras"][0].get("align") if shape["paras"] else "left"
        x -= {"right": extra, "center": extra / 2}.get(align, 0)
        w = min(w + extra, WIDTH - max(x, 0))
        x = max(x, 0)
        tb = self.slide.shapes.add_textbox(emu(x), emu(y), emu(w), emu(max(h, 1)))
        frame = tb.text_frame
        frame.word_wrap = True
        frame.auto_size = MSO_AUTO_SIZE.TEXT_TO_FIT_SHAPE
        frame.vertical_anchor = MSO_ANCHOR.TOP
        frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = 0
        fill_paragraphs(frame, shape["paras"], self.fonts, box.k)

    def picture(self, box, shape) -> None:
        if shape.get("figure"):
            data = self.figures.get(shape["figure"])
            if data is None:   # a figure the build drew no picture of (cannot happen after build(figure_png=True))
                return
            x, y, w, h = fit(box, png_size(data))
        else:
            data = self.screen.pictures.get(shape["shot"])
            if data is None:
                return
            x, y, w, h = box
        pic = self.slide.shapes.add_picture(io.BytesIO(data), emu(x), emu(y), emu(w), emu(h))
        cnv = pic._element.nvPicPr.cNvPr
        cnv.set("descr", shape.get("alt") or "")
        if shape.get("figure"):
            cnv.set("name", f"fig-{shape['figure']}")

    def box(self, box, shape) -> None:
        from pptx.enum.shapes import MSO_SHAPE
        x, y, w, h = box
        kind = MSO_SHAPE.ROUNDED_RECTANGLE if shape.get("round") else MSO_SHAPE.RECTANGLE
        if shape.get("fill") or shape.get("line"):
            rect = plain_shape(self.slide, kind, x, y, w, h)
            if shape.get("round"):
                rect.adjustments[0] = min(0.5, 8 / max(min(w, h), 1))
            paint(rect, shape.get("fill"), shape.get("line"), box.k)
        for side, line in zip("trbl", shape.get("sides") or []):
            if line and line.get("c"):
                t = max(line["w"] * box.k, 0.75)
                bar = {"t": (x, y, w, t), "b": (x, y + h - t, w, t), "l": (x, y, t, h), "r": (x + w - t, y, t, h)}[side]
                paint(plain_shape(self.slide, MSO_SHAPE.RECTANGLE, *bar), line["c"], None, 1)

    def table(self, box, shape) -> None:
        rows = shape["rows"]
        ncols = max(sum(c.get("span", 1) for c in r["cells"]) for r in rows)
        x, y, w, h = box
        wider = min(TABLE_SLACK, max(1.0, (WIDTH - MARGIN - x) / max(w, 1)))   # cells break lines later elsewhere
        gt = self.slide.shapes.add_table(len(rows), ncols, emu(x), emu(y), emu(w * wider), emu(h))
        table = gt.table
        gt._element.graphic.graphicData.tbl.tblPr.find(qn("a:tableStyleId")).text = NO_STYLE_TABLE
        table.first_row = table.horz_banding = False
        widths = column_widths(shape, ncols)
        for j, cw in enumerate(widths):
            table.columns[j].width = emu(cw * box.k * wider)
        for i, row in enumerate(rows):
            table.rows[i].height = emu(row["h"] * box.k)
            j = 0
            for c in row["cells"]:
                if j >= ncols:
                    break
                cell = table.cell(i, j)
                span = min(c.get("span", 1), ncols - j)
                if span > 1:
                    cell.merge(table.cell(i, j + span - 1))
                self.cell(cell, c, box.k)
                j += span

    def cell(self, cell, c: dict, k: float) -> None:
        from pptx.enum.text import MSO_ANCHOR
        top, right, bottom, left = (p * k for p in c.get("pad", (0, 0, 0, 0)))
        cell.margin_top, cell.margin_right, cell.margin_bottom, cell.margin_left = (emu(v) for v in (top, right, bottom, left))
        cell.vertical_anchor = MSO_ANCHOR.MIDDLE
        frame = cell.text_frame
        frame.word_wrap = True
        fill_paragraphs(frame, c["paras"], self.fonts, k)
        cell_lines(cell, c.get("sides") or [], c.get("fill"), k)


DRAW: dict[str, Callable] = {"text": Slide.text, "picture": Slide.picture, "box": Slide.box, "table": Slide.table}


class Box(tuple):
    """(x, y, w, h) on the slide in CSS px, with `k`, the scale its type and lines are drawn at."""
    k: float = 1.0

    def __new__(cls, x: float, y: float, w: float, h: float, k: float):
        box = super().__new__(cls, (x, y, w, h))
        box.k = k
        return box


class Placement:
    def __init__(self, k: float, dx: float, dy: float):
        self.k, self.dx, self.dy = k, dx, dy

    def of(self, shape: dict) -> Box:
        k = self.k * shape.get("scale", 1.0)
        return Box(self.dx + shape["x"] * self.k, self.dy + shape["y"] * self.k, shape["w"] * self.k,
                   shape["h"] * self.k, k)


def flatten(shapes: list[dict], room_bottom: float = HEIGHT - MARGIN) -> list[dict]:
    """A printed widget (a group: shapes relative to its own box, laid out at its own size) becomes shapes of the
    screen, scaled into the room the widget takes on the screen (a last one may use the room below it)."""
    out = []
    for shape in shapes:
        if shape["kind"] == "widget":    # a placeholder whose printed form was not found
            continue
        if shape["kind"] != "group":
            out.append(shape)
            continue
        box = shape["box"]
        height = max(box["h"], room_bottom - box["y"]) if shape["last"] else box["h"]
        grow = shape.get("grow", 1.0)   # the printed type → the projector's
        k = min(grow, box["w"] / max(shape["w"], 1), height / max(shape["h"], 1))
        if k < SMALLEST_WIDGET * grow:   # a very tall printed form: its top, in legible type (a theme marks long
            k = min(grow, box["w"] / max(shape["w"], 1), SMALLEST_WIDGET * grow)   # parts `not-on-slides`)
        for inner in shape["shapes"]:
            if (inner["y"] + inner["h"]) * k > height + 1:
                continue
            placed = dict(inner, x=box["x"] + inner["x"] * k, y=box["y"] + inner["y"] * k, w=inner["w"] * k,
                          h=inner["h"] * k, scale=inner.get("scale", 1.0) * k)
            out.append(placed)
    return out


# ── text ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def fill_paragraphs(frame, paras: list[dict], fonts: Fonts, scale: float | None) -> None:
    """Paragraphs of runs into a text frame (scale None: notes, in the notes' own type size)."""
    from pptx.enum.text import PP_ALIGN
    from pptx.util import Pt

    first = True
    for para in paras:
        p = frame.paragraphs[0] if first else frame.add_paragraph()
        first = False
        if scale is not None:
            p.alignment = {"center": PP_ALIGN.CENTER, "right": PP_ALIGN.RIGHT}.get(para.get("align"), PP_ALIGN.LEFT)
            if para.get("lh"):
                p.line_spacing = Pt(para["lh"] * PT * scale)
            if para.get("before"):
                p.space_before = Pt(para["before"] * PT * scale)
        bullet(p, para, scale or 1.0, fonts)
        for run in para["runs"]:
            if run.get("br"):
                p.add_line_break()
                continue
            for i, line in enumerate(run["t"].split("\n")):
                if i:
                    p.add_line_break()
                if line:
                    r = p.add_run()
                    r.text = line
                    style_run(r, run, fonts, scale)


def style_run(r, run: dict, fonts: Fonts, scale: float | None) -> None:
    from pptx.dml.color import RGBColor
    from pptx.util import Pt

    font = r.font
    if scale is not None and run.get("size"):
        font.size = Pt(max(run["size"] * PT * scale, 6))
    font.bold = bool(run.get("b"))
    font.italic = bool(run.get("i"))
    if run.get("u"):
        from pptx.enum.text import MSO_UNDERLINE
        font.underline = MSO_UNDERLINE.DOTTED_LINE if run["u"] == "dotted" else True
    if run.get("color") and scale is not None:
        font.color.rgb = RGBColor.from_string(run["color"].upper())
    rpr = r._r.get_or_add_rPr()
    rpr.set("lang", fonts.language)
    rpr.set("kern", "0")                 # kerning at every size, as the browser sets the page
    if run.get("v"):
        rpr.set("baseline", "30000" if run["v"] > 0 else "-25000")
    typefaces(rpr, MONO if run.get("mono") else fonts.cjk, fonts.cjk)


def typefaces(rpr, latin: str, east_asian: str) -> None:
    """Latin, East Asian and complex-script faces: PowerPoint picks the face by the script of each character."""
    from lxml import etree

    node = rpr.get_or_add_latin()
    node.set("typeface", latin)
    for tag, face in (("a:ea", east_asian), ("a:cs", east_asian)):
        el = etree.SubElement(rpr, qn(tag))
        el.set("typeface", face)
        node.addnext(el)
        node = el


def bullet(p, para: dict, scale: float, fonts: Fonts) -> None:
    """A list item: its marker (• or the item's number) hanging in the indent the page gives it."""
    mark = para.get("bullet")
    if not mark:
        return
    from lxml import etree

    ppr = p._p.get_or_add_pPr()
    indent = para.get("indent", 0) * scale
    hang = 1.3 * (para.get("size") or 16) * scale
    ppr.set("marL", str(emu(max(indent, hang))))
    ppr.set("indent", str(-emu(hang)))
    font = etree.SubElement(ppr, qn("a:buFont"))
    font.set("typeface", fonts.cjk)
    if "num" in mark:
        num = etree.SubElement(ppr, qn("a:buAutoNum"))
        num.set("type", "arabicPeriod")
        num.set("startAt", str(mark["num"]))
    else:
        char = etree.SubElement(ppr, qn("a:buChar"))
        char.set("char", mark.get("char", "•"))


def slide_number(slide, number: int, fonts: Fonts, color: str | None) -> None:
    """The slide's number bottom right, as PowerPoint's slide-number field (it follows when slides move)."""
    from lxml import etree
    from pptx.enum.text import PP_ALIGN
    from pptx.util import Pt

    tb = slide.shapes.add_textbox(emu(WIDTH - MARGIN - 120), emu(HEIGHT - 30), emu(120), emu(24))
    p = tb.text_frame.paragraphs[0]
    p.alignment = PP_ALIGN.RIGHT
    field = etree.SubElement(p._p, qn("a:fld"))
    field.set("id", "{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}")
    field.set("type", "slidenum")
    rpr = etree.SubElement(field, qn("a:rPr"))
    rpr.set("lang", fonts.language)
    rpr.set("sz", str(int(Pt(10).pt * 100)))
    if color:
        fill = etree.SubElement(rpr, qn("a:solidFill"))
        etree.SubElement(fill, qn("a:srgbClr")).set("val", color.upper())
    etree.SubElement(field, qn("a:t")).text = str(number)


# ── boxes, lines, backgrounds ────────────────────────────────────────────────────────────────────────────────────
def background(slide, color: str) -> None:
    from pptx.dml.color import RGBColor
    fill = slide.background.fill
    fill.solid()
    fill.fore_color.rgb = RGBColor.from_string(color.upper())


def plain_shape(slide, kind, x: float, y: float, w: float, h: float):
    """An autoshape without the theme's style (no shadow, no theme colours): only what we paint."""
    shape = slide.shapes.add_shape(kind, emu(x), emu(y), emu(max(w, 0.5)), emu(max(h, 0.5)))
    style = shape._element.find(qn("p:style"))
    if style is not None:
        shape._element.remove(style)
    return shape


def paint(shape, fill: str | None, line: dict | None, k: float) -> None:
    from pptx.dml.color import RGBColor
    from pptx.util import Pt

    if fill:
        shape.fill.solid()
        shape.fill.fore_color.rgb = RGBColor.from_string(fill.upper())
    else:
        shape.fill.background()
    if line and line.get("c"):
        shape.line.color.rgb = RGBColor.from_string(line["c"].upper())
        shape.line.width = Pt(max(line["w"] * PT * k, 0.5))
    else:
        shape.line.fill.background()


def cell_lines(cell, sides: list, fill: str | None, k: float) -> None:
    """A table cell's borders (as the page draws them, side by side) and its fill, in the schema's order."""
    from lxml import etree

    tcpr = cell._tc.get_or_add_tcPr()
    for child in list(tcpr):
        tcpr.remove(child)
    for tag, line in zip(("a:lnL", "a:lnR", "a:lnT", "a:lnB"), [sides[3], sides[1], sides[0], sides[2]]
                         if len(sides) == 4 else [None] * 4):
        ln = etree.SubElement(tcpr, qn(tag))
        if line and line.get("c"):
            ln.set("w", str(emu(max(line["w"] * k, 0.5))))
            solid = etree.SubElement(ln, qn("a:solidFill"))
            etree.SubElement(solid, qn("a:srgbClr")).set("val", line["c"].upper())
        else:
            ln.set("w", "0")
            etree.SubElement(ln, qn("a:noFill"))
    if fill:
        solid = etree.SubElement(tcpr, qn("a:solidFill"))
        etree.SubElement(solid, qn("a:srgbClr")).set("val", fill.upper())
    else:
        etree.SubElement(tcpr, qn("a:noFill"))


def column_widths(shape: dict, ncols: int) -> list[float]:
    """Column widths from the row whose cells span one column each (else the first row, spans shared out)."""
    for row in shape["rows"]:
        if len(row["cells"]) == ncols:
            break
    else:
        row = shape["rows"][0]
    widths = []
    for c, w in zip(row["cells"], shape["cols"]):
        widths += [w / c.get("span", 1)] * c.get("span", 1)
    widths += [shape["w"] / ncols] * (ncols - len(widths))
    return widths[:ncols]


# ── small helpers ────────────────────────────────────────────────────────────────────────────────────────────────
def emu(px: float) -> int:
    return int(round(px * EMU))


def qn(tag: str) -> str:
    from pptx.oxml.ns import qn as _qn
    return _qn(tag)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG from its header."""
    return struct.unpack(">II", data[16:24])


def fit(box, size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The largest rectangle of the picture's proportions inside the box, centred."""
    x, y, w, h = box
    pw, ph = size
    k = min(w / pw, h / ph)
    return x + (w - pw * k) / 2, y + (h - ph * k) / 2, pw * k, ph * k
