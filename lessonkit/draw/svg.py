"""matplotlib's SVG made small and fit to inline under a strict Content-Security-Policy."""
from __future__ import annotations

import re

import base64

from ..features.palette import FIGURE_CLASS, RASTER_PIXELATED
from . import pictures

SVG_PRECISION = 1
TEXT_PT = 10  # the figures' text size (draw.figures.style); a figure is shown at most where it reads at 1 rem


def clean_svg(svg: str, name: str, css_class: str = "") -> str:
    """Make matplotlib's SVG fit inline under a strict CSP: no XML prolog, no <style>, no style="…" attributes
    (a CSP without 'unsafe-inline' blocks both), ids only where referenced and unique per figure, scalable. Its
    width and height are the size at which its text (drawn at TEXT_PT) reads at 1 rem, the page's own text size:
    the theme shows a figure as wide as its column allows up to that size, never larger (a small figure is not
    blown up), and on the projector, whose rem is larger, larger. The root carries the class FIGURE_CLASS, which
    the dark theme's colour rules (features.palette.palette_css) and the ink colour of its text hang on; what a
    colour map coloured (the groups draw/figures.py marks KEEP_COLOURS) writes its colours where those rules do
    not reach, and a raster keeps its colours too: viridis stays viridis in dark mode."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r"<defs>\s*<style[^>]*>.*?</style>\s*</defs>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r'\s(width|height)="([\d.]+)pt"',
                 lambda m: f' {m.group(1)}="{float(m.group(2)) / TEXT_PT:.2f}rem"', svg, count=2)
    svg = re.sub(r' style="([^"]*)"', lambda m: _style_to_attributes(m.group(1)), svg)
    svg = _kept_colours(svg)
    svg = re.sub(r"<image\b[^>]*>", lambda m: _raster(m.group(0)), svg)
    families = re.findall(r' font-family="([^"]*)"', svg)
    svg = re.sub(r' font-family="[^"]*"', "", svg)  # one family on the root, inherited by every <text>
    family = families[0] if families else "sans-serif"
    classes = " ".join(filter(None, (FIGURE_CLASS, css_class)))
    svg = svg.replace("<svg ", f'<svg class="{classes}" {ROOT_ATTRIBUTES} font-family="{family}" ', 1)
    svg = re.sub(r' transform="rotate\(-?0 [\d.]+ [\d.]+\)"', "", svg)
    # a heatmap's cells edge to edge: drawn without anti-aliasing no seam of the page shows between them (no
    # face-coloured edge per cell needed, which would cost a third of its bytes)
    svg = re.sub(r'<g id="QuadMesh_\d+"', lambda m: m.group(0) + ' shape-rendering="crispEdges"', svg)
    svg = _short_ids(svg, f"{name}-")
    svg = _round_numbers(svg)
    svg = re.sub(r' d="([^"]*)"', lambda m: f' d="{_compact_path(m.group(1))}"', svg)
    svg = re.sub(r"<clipPath>.*?</clipPath>", "", svg, flags=re.DOTALL)  # lost its id: nothing refers to it
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.DOTALL)  # matplotlib notes the mathtext source of labels
    svg = svg.replace(' version="1.1"', "", 1)
    svg = _hoist_text_size(svg)
    svg = _lean_uses(svg)
    svg = _hoist_use_attributes(svg)
    svg = re.sub(r"\s*\n\s*", "\n", svg)
    svg = re.sub(r"<defs>\s*</defs>\n?", "", svg)
    return _hoist_clip_paths(_unwrap_bare_groups(svg)).strip()


# matplotlib's <style> said `*{stroke-linejoin: round; stroke-linecap: butt}`: inherited attributes say the same
ROOT_ATTRIBUTES = 'stroke-linejoin="round" stroke-linecap="butt"'
SVG_PROPERTIES = {"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
                  "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "stroke-miterlimit", "opacity",
                  "font-size", "font-family", "font-style", "font-weight", "font-stretch", "font-variant",
                  "text-anchor", "clip-path", "dominant-baseline", "display", "visibility",
                  "image-rendering", "shape-rendering", "stop-color", "stop-opacity", "filter"}


def _style_to_attributes(style: str) -> str:
    """`style="fill: #fff; stroke: none"` → ` fill="#fff" stroke="none"`: every property matplotlib writes is an SVG
    presentation attribute (SVG_PROPERTIES lists those it is known to write). A property written twice (matplotlib's
    `image-rendering:crisp-edges;image-rendering:pixelated`, a fallback for old browsers) keeps its last value, as
    CSS would; one not in the list becomes an attribute all the same, which a browser ignores if it is not one: a
    new matplotlib never stops a build (tests/test_figure_artists.py draws every kind of artist)."""
    properties: dict[str, str] = {}
    for declaration in filter(None, (d.strip() for d in style.split(";"))):
        prop, _, value = (part.strip() for part in declaration.partition(":"))
        if re.fullmatch(r"[a-z][a-z-]*", prop):
            properties[prop] = value.replace(chr(34), chr(39))
    return "".join(f' {prop}="{value}"' for prop, value in properties.items())


def _raster(tag: str) -> str:
    """A raster (an image, a colour bar's gradient, a surface drawn as a picture) as light as it can be
    (draw/pictures.py): lossless WebP, or a lossy picture when it is heavy or a photograph; one drawn square pixel by
    pixel (`interpolation="none"`) says so with a class, as a presentation attribute cannot (SVG 1.1's
    image-rendering has no `pixelated`)."""
    pixelated = re.search(r'\simage-rendering="(?:pixelated|crisp-edges)"', tag)
    if pixelated:
        tag = tag.replace(pixelated.group(0), "").replace("<image ", f'<image class="{RASTER_PIXELATED}" ', 1)
    data = re.search(r'href="data:image/png;base64,([^"]+)"', tag)
    if data is None:
        return tag
    picture = pictures.as_picture(base64.b64decode(data.group(1))) if not pixelated else None
    if picture is not None:
        return tag.replace(f"data:image/png;base64,{data.group(1)}",
                           f"data:image/webp;base64,{base64.b64encode(picture).decode('ascii')}")
    return _lossless(tag, data.group(1))


KEEP_COLOURS = "lk-keep-"   # the gid draw/figures.py gives what keeps its colours in dark mode
_KEPT = re.compile(r'<(\w+)\s[^>]*?\bid="' + KEEP_COLOURS + r'\d+"[^>]*>')
_HEX_PAINT = re.compile(r'\b(fill|stroke)="#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})"')


def _kept_colours(svg: str) -> str:
    """Inside each group marked KEEP_COLOURS, every `fill="#rrggbb"` and `stroke=` written `rgb(r,g,b)`: the same
    colour, which the dark palette's rules (`[fill="#rrggbb"]`) do not select, black text (which inherits the
    page's ink otherwise) too; the mark itself goes."""
    out, pos = [], 0
    for m in _KEPT.finditer(svg):
        if m.start() < pos:
            continue   # (inside a group already kept)
        end = _element_end(svg, m.start(), m.group(1))
        out.append(svg[pos:m.start()])
        element = re.sub(r'\sid="' + KEEP_COLOURS + r'\d+"', "", svg[m.start():end], count=1)
        if m.group(1) == "g" and not re.match(r'<g\b[^>]*\sfill=', element):
            element = element.replace("<g", '<g fill="#000000"', 1)   # (matplotlib writes black text bare)
        out.append(_HEX_PAINT.sub(lambda c: f'{c.group(1)}="rgb({int(c.group(2), 16)},{int(c.group(3), 16)},'
                                            f'{int(c.group(4), 16)})"', element))
        pos = end
    return "".join(out) + svg[pos:]


def _element_end(svg: str, start: int, tag: str) -> int:
    """The end of the element that starts at `start` (a self-closing one's `/>`, else its matching end tag)."""
    opening = svg.index(">", start)
    if svg[opening - 1] == "/":
        return opening + 1
    depth = 0
    for m in re.finditer(rf"<(/?){tag}\b[^>]*?(/?)>", svg[start:]):
        if m.group(2):
            continue
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return start + m.end()
    return len(svg)


def _lossless(tag: str, png_base64: str) -> str:
    """The `<image>` showing this PNG, as a lossless WebP where that is lighter (the same pixels, exactly: a
    heatmap's cells in a third of the bytes)."""
    webp = pictures.lossless(base64.b64decode(png_base64))
    uri = (f"data:image/webp;base64,{base64.b64encode(webp).decode('ascii')}" if webp is not None
           else f"data:image/png;base64,{png_base64}")
    return re.sub(r'href="data:image/[a-z]+;base64,[^"]*"', lambda _: f'href="{uri}"', tag, count=1)


def _short_ids(svg: str, prefix: str) -> str:
    """Keep only ids something refers to, each renamed `prefix` + a number in the order they appear, so several
    inlined figures never share one: matplotlib's are hashes (`m1cea679f14`) that every tick mark, marker and
    clipped line repeats in its reference."""
    referenced = {a or b for a, b in re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', svg)}
    names: dict[str, str] = {}
    for found in re.findall(r'\sid="([^"]+)"', svg):
        if found in referenced and found not in names:
            names[found] = f"{prefix}{len(names)}"
    svg = re.sub(r'\sid="([^"]+)"', lambda m: f' id="{names[m.group(1)]}"' if m.group(1) in names else "", svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{names.get(m.group(1), prefix + m.group(1))})", svg)
    return re.sub(r'href="#([^"]+)"', lambda m: f'href="#{names.get(m.group(1), prefix + m.group(1))}"', svg)


def placed_again(svg: str, placement: int) -> str:
    """The same drawn figure placed a second (third …) time on one page — an explorer shows its key states live and
    side by side —, its ids suffixed `-2` (`-3` …) so no two elements of the page share one."""
    ids = set(re.findall(r'\sid="([^"]+)"', svg))
    if not ids:
        return svg

    def renamed(m: re.Match) -> str:
        name = m.group(2)
        return f"{m.group(1)}{name}-{placement}{m.group(3)}" if name in ids else m.group(0)

    return re.sub(r'(\sid="|url\(#|href="#)([^")]+)([")])', renamed, svg)


def _compact_path(d: str) -> str:
    """`M 44.5 27.36 \nL 77.5 27.36 \nz` → `M44.5 27.36H77.5z`: the path grammar needs no space next to a
    command letter, nor before a minus sign, and a line that keeps its y (or x) is a horizontal (vertical) one —
    the same shape exactly, for a third of a rectangle's bytes (every cell of a heatmap, every bar). A path whose
    numbers are rounded to SVG_PRECISION decimals (clean_svg rounds them first) is then written in relative steps
    from the rounded points (_relative): the same points exactly, in fewer digits (a curve's steps are small)."""
    d = re.sub(r"\s+", " ", d).strip()
    d = _axis_lines(d)
    d = _relative(d) or d
    d = re.sub(r" ?([MLHVCSQTAZmlhvcsqtaz]) ?", r"\1", d)
    return d.replace(" -", "-")


def _relative(d: str) -> str | None:
    """An absolute path (M, L, H, V, C, Q, z, as _axis_lines leaves it) in relative commands after its first point,
    each step the difference of two rounded points, counted in units of the last decimal so nothing is lost:
    `M36.5 5.8H57.1V14.8` → `M36.5 5.8h20.6v9`. None when the path has other commands or finer numbers."""
    scale = 10 ** SVG_PRECISION
    steps, x, y, start = [], 0, 0, (0, 0)
    for cmd, args in _PATH_TOKEN.findall(d):
        try:
            units = [_units(v, scale) for v in args.split()]
        except ValueError:
            return None
        if cmd in "zZ" and not units:
            steps.append("z")
            x, y = start
        elif cmd in "MLCQ" and units and len(units) % 2 == 0 and (cmd != "M" or len(units) == 2):
            pairs = list(zip(units[::2], units[1::2]))
            first = cmd == "M" and not steps
            moved = pairs if first else [(px - x, py - y) for px, py in pairs]
            letter = cmd if first else cmd.lower()
            steps.append(letter + " ".join(f"{_decimal(a, scale)} {_decimal(b, scale)}" for a, b in moved))
            x, y = pairs[-1]
            start = (x, y) if cmd == "M" else start
        elif cmd in "HV" and len(units) == 1:
            steps.append(cmd.lower() + _decimal(units[0] - (x if cmd == "H" else y), scale))
            x, y = (units[0], y) if cmd == "H" else (x, units[0])
        else:
            return None
    return " ".join(steps)


def _units(number: str, scale: int) -> int:
    """`-27.3` → -273 at scale 10; ValueError for a number with more decimals than the scale holds."""
    whole, _, fraction = number.partition(".")
    if not re.fullmatch(r"-?\d*", whole) or not re.fullmatch(r"\d*", fraction) or not (whole + fraction).strip("-") \
            or len(fraction) >= len(str(scale)):
        raise ValueError(number)
    return round(float(number) * scale)


def _decimal(units: int, scale: int) -> str:
    """-5 at scale 10 → `-.5`, 273 → `27.3`, 90 → `9`: the shortest form the path grammar reads back."""
    whole, fraction = divmod(abs(units), scale)
    text = (str(whole) if whole else "") + (f".{fraction:0{len(str(scale)) - 1}d}".rstrip("0") if fraction else "")
    return ("-" if units < 0 else "") + (text or "0")


_PATH_TOKEN = re.compile(r"([A-Za-z])([^A-Za-z]*)")


def _axis_lines(d: str) -> str:
    """Absolute `L x y` with the current point's y → `H x`, with its x → `V y` (numbers compared as written, after
    rounding). Paths with any command but absolute M, L, C, Q and z are left as they are."""
    commands = [(c, a.split()) for c, a in _PATH_TOKEN.findall(d)]
    if any(c not in "MLCQzZ" for c, _ in commands):
        return d
    out, x, y, start = [], None, None, (None, None)
    for cmd, args in commands:
        if cmd == "L" and len(args) == 2:
            if args[1] == y:
                out.append(f"H{args[0]}")
            elif args[0] == x:
                out.append(f"V{args[1]}")
            else:
                out.append(f"L{args[0]} {args[1]}")
            x, y = args
            continue
        out.append(cmd + " ".join(args))
        if cmd in "zZ":
            x, y = start
        elif len(args) >= 2 and len(args) % 2 == 0:
            x, y = args[-2], args[-1]
            if cmd == "M":
                start = (x, y)
        else:  # not a shape matplotlib writes: keep the path as it came
            return d
    return " ".join(out)


_ATTRIBUTE = re.compile(r'\s([\w:-]+)="([^"]*)"')


def _lean_uses(svg: str) -> str:
    """A `<use>` (tick marks, markers) repeats the presentation attributes its referenced element already has,
    which win anyway: drop them. And SVG 2's `href` instead of `xlink:href` (every current browser)."""
    defined = {}
    for m in re.finditer(r'<(?:path|g)\s[^>]*\bid="([^"]+)"[^>]*>', svg):
        defined[m.group(1)] = {k: v for k, v in _ATTRIBUTE.findall(m.group(0)) if k in SVG_PROPERTIES}

    def lean(m: re.Match) -> str:
        tag = m.group(0)
        ref = re.search(r'href="#([^"]+)"', tag)
        same = defined.get(ref.group(1), {}) if ref else {}
        return _ATTRIBUTE.sub(lambda a: "" if same.get(a.group(1)) == a.group(2) else a.group(0), tag)

    svg = re.sub(r"<use\s[^>]*>", lean, svg)
    svg = svg.replace("xlink:href=", "href=")
    return svg.replace(' xmlns:xlink="http://www.w3.org/1999/xlink"', "", 1) if "xlink:" not in svg else svg


def _hoist_use_attributes(svg: str) -> str:
    """A line's markers are a group of `<use>`s that each repeat the line's colour (`fill="#d55e00"`): an attribute
    every `<use>` of a group has alike goes onto the group once, which they inherit from (the marker's own
    definition sets no fill of its own, or it would win over the `<use>` today too)."""
    def hoist(m: re.Match) -> str:
        group, uses = m.group(1), re.findall(r"<use\s[^>]*/>", m.group(2))
        common = dict(_ATTRIBUTE.findall(uses[0]))
        for use in uses[1:]:
            attributes = dict(_ATTRIBUTE.findall(use))
            common = {k: v for k, v in common.items() if attributes.get(k) == v}
        common = {k: v for k, v in common.items() if k in SVG_PROPERTIES and f' {k}="' not in group}
        if len(uses) < 2 or not common:
            return m.group(0)
        for k, v in common.items():
            uses = [use.replace(f' {k}="{v}"', "", 1) for use in uses]
        attributes = "".join(f' {k}="{v}"' for k, v in common.items())
        return group[:-1] + attributes + ">\n" + "\n".join(uses) + "\n</g>"

    return re.sub(r"(<g\b[^>]*>)\s*((?:<use\s[^>]*/>\s*)+)</g>", hoist, svg)


# two or more paths in a row clipped alike, none with a transform of its own (its clip would be in that user space)
_CLIPPED_RUN = re.compile(r'<path\b(?![^>]*\stransform=)[^>]*?\sclip-path="(url\(#[^)"]+\))"[^>]*/>\s*'
                          r'(?:<path\b(?![^>]*\stransform=)[^>]*?\sclip-path="\1"[^>]*/>\s*)+')


def _hoist_clip_paths(svg: str) -> str:
    """A collection's members (a quiver's arrows, a bar chart's bars, a contour's pieces) each repeat their axes'
    `clip-path="url(#…)"`: in one group that says it once (1 681 arrows: 48 KB less). The same picture: a group
    without opacity or filter is painted as its children are, and the clip applies in the same user space."""
    def hoist(m: re.Match) -> str:
        clip = f' clip-path="{m.group(1)}"'
        return f'<g{clip}>\n' + m.group(0).rstrip().replace(clip, "") + "\n</g>\n"

    return _CLIPPED_RUN.sub(hoist, svg)


def _hoist_text_size(svg: str) -> str:
    """The most common font-size of <text> elements once on the root, which they inherit from (matplotlib never sets
    a font-size on a <g>); <tspan>s keep theirs, as their <text> parent may have another size."""
    sizes = re.findall(r'<text\b[^>]*? font-size="([^"]+)"', svg)
    if not sizes:
        return svg
    common = max(sorted(set(sizes)), key=sizes.count)
    svg = re.sub(r'(<text\b[^>]*?) font-size="' + re.escape(common) + '"', r"\1", svg)
    return svg.replace("<svg ", f'<svg font-size="{common}" ', 1)


def _unwrap_bare_groups(svg: str) -> str:
    """Drop `<g>` wrappers without attributes (matplotlib's, once their ids are gone): they change nothing."""
    out, kept, pos = [], [], 0
    for m in re.finditer(r"<g(\s[^>]*)?>|</g>", svg):
        out.append(svg[pos:m.start()])
        pos = m.end()
        tag = m.group(0)
        if tag == "</g>":
            if kept.pop():
                out.append(tag)
            else:
                pos += svg.startswith("\n", pos)  # its line break too
        else:
            bare = m.group(1) is None or not m.group(1).strip()
            kept.append(not bare)
            if bare:
                pos += svg.startswith("\n", pos)
            else:
                out.append(tag)
    out.append(svg[pos:])
    return "".join(out)


def _round_numbers(svg: str) -> str:
    """Trim coordinates to SVG_PRECISION decimals: invisible at screen and print sizes, a third of the bytes."""
    def trim(m: re.Match) -> str:
        text = f"{float(m.group(0)):.{SVG_PRECISION}f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    def in_attr(m: re.Match) -> str:
        return m.group(1) + re.sub(r"-?\d+\.\d+", trim, m.group(2)) + m.group(3)

    return re.sub(r'(\s(?:d|points|transform|x|y|x1|x2|y1|y2|width|height|viewBox|style)=")([^"]*)(")', in_attr, svg)
