"""matplotlib's SVG made small and fit to inline under a strict Content-Security-Policy."""
from __future__ import annotations

import re

from ..features.palette import FIGURE_CLASS

SVG_PRECISION = 1


def clean_svg(svg: str, name: str, sized: bool = False, css_class: str = "") -> str:
    """Make matplotlib's SVG fit inline under a strict CSP: no XML prolog, no <style>, no style="…" attributes
    (a CSP without 'unsafe-inline' blocks both), ids only where referenced and unique per figure, scalable (a
    `sized` one keeps its width and height in pt as its natural size). The root carries the class FIGURE_CLASS,
    which the dark theme's colour rules (figure_palette_css) and the ink colour of its text hang on."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r"<defs>\s*<style[^>]*>.*?</style>\s*</defs>\s*", "", svg, flags=re.DOTALL)
    if sized:
        svg = re.sub(r'\s(width|height)="([\d.]+)pt"', lambda m: f' {m.group(1)}="{float(m.group(2)):.1f}pt"', svg,
                     count=2)
    else:
        svg = re.sub(r'\s(width|height)="[\d.]+pt"', "", svg, count=2)
    svg = re.sub(r' style="([^"]*)"', lambda m: _style_to_attributes(m.group(1)), svg)
    families = re.findall(r' font-family="([^"]*)"', svg)
    svg = re.sub(r' font-family="[^"]*"', "", svg)  # one family on the root, inherited by every <text>
    family = families[0] if families else "sans-serif"
    classes = " ".join(filter(None, (FIGURE_CLASS, css_class)))
    svg = svg.replace("<svg ", f'<svg class="{classes}" {ROOT_ATTRIBUTES} font-family="{family}" ', 1)
    svg = re.sub(r' transform="rotate\(-?0 [\d.]+ [\d.]+\)"', "", svg)
    # a heatmap's cells edge to edge: drawn without anti-aliasing no seam of the page shows between them (no
    # face-coloured edge per cell needed, which would cost a third of its bytes)
    svg = re.sub(r'<g id="QuadMesh_\d+"', lambda m: m.group(0) + ' shape-rendering="crispEdges"', svg)
    svg = _unique_ids(svg, f"{name}-")
    svg = _round_numbers(svg)
    svg = re.sub(r' d="([^"]*)"', lambda m: f' d="{_compact_path(m.group(1))}"', svg)
    svg = re.sub(r"<clipPath>.*?</clipPath>", "", svg, flags=re.DOTALL)  # lost its id: nothing refers to it
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.DOTALL)  # matplotlib notes the mathtext source of labels
    svg = svg.replace(' version="1.1"', "", 1)
    svg = _hoist_text_size(svg)
    svg = _lean_uses(svg)
    svg = re.sub(r"\s*\n\s*", "\n", svg)
    svg = re.sub(r"<defs>\s*</defs>\n?", "", svg)
    return _unwrap_bare_groups(svg).strip()


# matplotlib's <style> said `*{stroke-linejoin: round; stroke-linecap: butt}`: inherited attributes say the same
ROOT_ATTRIBUTES = 'stroke-linejoin="round" stroke-linecap="butt"'
SVG_PROPERTIES = {"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
                  "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "stroke-miterlimit", "opacity",
                  "font-size", "font-family", "font-style", "font-weight", "font-stretch", "font-variant",
                  "text-anchor", "clip-path",
                  "dominant-baseline", "display", "visibility"}


def _style_to_attributes(style: str) -> str:
    attributes = []
    for declaration in filter(None, (d.strip() for d in style.split(";"))):
        prop, _, value = (part.strip() for part in declaration.partition(":"))
        if prop not in SVG_PROPERTIES:  # our bug: extend the table, don't ship a style attribute
            raise ValueError(f"SVG style property {prop!r} has no presentation attribute mapping")
        attributes.append(f' {prop}="{value.replace(chr(34), chr(39))}"')
    return "".join(attributes)


def _unique_ids(svg: str, prefix: str) -> str:
    """Keep only ids something refers to, prefixed so several inlined figures never share one."""
    referenced = set(re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', svg))
    referenced = {a or b for a, b in referenced}
    svg = re.sub(r'\sid="([^"]+)"', lambda m: f' id="{prefix}{m.group(1)}"' if m.group(1) in referenced else "", svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)
    return re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}{m.group(1)}"', svg)


def copied_ids(svg: str, name: str, copy: str) -> str:
    """A second copy of figure `name`'s SVG on one page: its ids (all prefixed `name-` by clean_svg) and what refers
    to them get `name-copy-` instead, so no id repeats."""
    old, new = re.escape(f"{name}-"), f"{name}-{copy}-"
    svg = re.sub(rf'(\sid="|url\(#|href="#){old}', lambda m: m.group(1) + new, svg)
    return svg


def _compact_path(d: str) -> str:
    """`M 44.5 27.36 \nL 77.5 27.36 \nz` → `M44.5 27.36H77.5z`: the path grammar needs no space next to a
    command letter, nor before a minus sign, and a line that keeps its y (or x) is a horizontal (vertical) one —
    the same shape exactly, for a third of a rectangle's bytes (every cell of a heatmap, every bar)."""
    d = re.sub(r"\s+", " ", d).strip()
    d = _axis_lines(d)
    d = re.sub(r" ?([MLHVCSQTAZmlhvcsqtaz]) ?", r"\1", d)
    return d.replace(" -", "-")


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
