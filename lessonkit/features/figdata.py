"""The numbers behind a figure: recorded from the matplotlib Figure after the figure function returns, shown under
it as a data table (`ui.data`) with a CSV download.

`record(fig)` walks fig.axes — lines (x/y with their labels), bar containers, step histograms (bin edges and
counts), scatter offsets, hexagonal bins (centre and count), images and colour meshes (a small one as a matrix, a
larger one in long form: x, y and the value of every cell, as hist2d draws them too), 3-D surfaces (x, y, z of
every point: keep_surface_data makes plot_surface keep what it was given) — and returns plain JSON-able data,
stored in the figure cache beside the SVG; what it draws that no table holds (contours, quivers) is named under
"untabulated", which the build reports (stages.py untabulated). It runs while figures are drawn, before the site's language is known: a column or cell it names
itself («category», «image») is a phrase (lessonkit.support.words). `view(data, fig_id, ui)` turns it into what
partials/figure_data.html shows, in the words of `ui`: formatted cells, long series thinned to at most MAX_ROWS rows
with a note, and the CSV text holding every row, which assembly writes as a file beside the page
(SitePaths.figure_data) and links: a 2 001-point curve is some 40 KB of CSV, more than the rest of its figure
ten times over, which a reader fetches only when they click it.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from ..support.jsondata import plain
from ..support.messages import msg
from ..support.numbers import FormatError, format_value
from ..support.words import phrase, spoken

MAX_ROWS = 25
MAX_MATRIX = (25, 16)  # rows, columns of an image shown cell by cell; larger ones by their shape
CSV_DIGITS = 6


def record(fig) -> dict:
    """{"tables": [{"title", "columns", "rows", "note"?}]} for every axes of a drawn Figure."""
    tables: list[dict] = []
    untabulated: list[str] = []   # what the figure draws that no table holds: the build says so (stages.py)
    for ax in fig.axes:
        if hasattr(ax, "_colorbar"):
            continue  # a colour bar is the key to the colours, not data: the heatmap's own table has the values
        title = ax.get_title() or ax.get_title("left") or ""
        title = plain_text(title)
        xlabel, ylabel = plain_text(ax.get_xlabel()), plain_text(ax.get_ylabel())
        tables += _lines(ax, title, xlabel, ylabel)
        tables += _bars(ax, title, xlabel, ylabel)
        tables += _scatters(ax, title, xlabel, ylabel)
        tables += _step_histograms(ax, title, xlabel, ylabel)
        tables += _hexbins(ax, title, xlabel, ylabel)
        tables += _images(ax, title)
        tables += _surfaces(ax, title, xlabel, ylabel)
        tables += _quivers(ax, title, xlabel, ylabel)
        untabulated += _untabulated(ax)
    unique = []
    for t in tables:  # a series drawn again in another panel is shown once
        if not any(_contained(t, u) for u in unique):
            unique.append(t)
    return {"tables": unique, **({"untabulated": sorted(set(untabulated))} if untabulated else {})}


def _contained(small: dict, big: dict) -> bool:
    """Every column of `small` is in `big` with the same first column (x) and values."""
    def columns(t):  # a column named by a phrase (a dict) is keyed by its JSON
        return {name if isinstance(name, str) else json.dumps(name, sort_keys=True): [row[i] for row in t["rows"]]
                for i, name in enumerate(t["columns"])}
    if not small["rows"] or len(small["rows"]) != len(big["rows"]) or small["columns"][0] != big["columns"][0]:
        return False
    mine, theirs = columns(small), columns(big)
    return all(name in theirs and theirs[name] == values for name, values in mine.items())


def _label(artist, fallback: str) -> str:
    label = artist.get_label() or ""
    return fallback if label.startswith("_") or not label.strip() else plain_text(label.strip())


MATHTEXT = {"mu": "μ", "sigma": "σ", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ",
            "epsilon": "ε", "varepsilon": "ε", "eta": "η", "lambda": "λ", "theta": "θ", "phi": "φ", "pi": "π",
            "omega": "ω", "Omega": "Ω", "rho": "ρ", "tau": "τ", "sum": "∑", "prod": "∏", "partial": "∂",
            "nabla": "∇", "times": "×", "cdot": "·", "pm": "±", "approx": "≈", "neq": "≠", "leq": "≤", "le": "≤",
            "geq": "≥", "ge": "≥", "infty": "∞", "to": "→", "rightarrow": "→", "in": "∈", "ldots": "…", "dots": "…",
            "cdots": "⋯", "top": "⊤", "sqrt": "√", "lVert": "‖", "rVert": "‖", "Vert": "‖", "langle": "⟨",
            "rangle": "⟩", "left": "", "right": "", ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "|": "‖",
            "{": "\x00", "}": "\x01", "%": "%", "$": "$"}
# Unicode has sub- and superscript forms for these characters only; a script with any other keeps its _ or ^
SUBSCRIPTS = str.maketrans("0123456789+-−=()aehijklmnoprstuvxβγρφχ", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ")
SUPERSCRIPTS = str.maketrans("0123456789+-−=()abcdefghijklmnoprstuvwxyz⊤",
                             "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ")


def plain_text(label: str) -> str:
    """A matplotlib label as table text, its mathtext as Unicode: `原向量 $x$` → 原向量 x, `$\\hat{x}$` → x̂,
    `$\\sum_i \\cos(k\\omega_i)$` → ∑ᵢ cos(kωᵢ), `$q_m \\cdot k_n$` → qₘ · kₙ, `$W^Q$` → W^Q (no superscript Q)."""
    return re.sub(r"\$([^$]*)\$", lambda m: _math_text(m.group(1)), label).strip()


def _math_text(tex: str) -> str:
    def group(text: str) -> str:  # a fraction's part or a root's argument: bare if it is one token
        return f"({text})" if re.search(r"[\s+\-−=/·×]", text) else text

    def command(m: re.Match) -> str:
        name = m.group(1) or m.group(2)
        return MATHTEXT.get(name, name)  # an unknown command such as \cos: its name

    def script(m: re.Match) -> str:
        mark, body = m.group(1), (m.group(2) if m.group(2) is not None else m.group(3)).strip()
        table = SUBSCRIPTS if mark == "_" else SUPERSCRIPTS
        if body and all(c in table for c in map(ord, body)):
            return body.translate(table)
        return mark + (body if len(body) == 1 else f"({body})")

    fonts = "mathrm|mathbf|mathit|mathsf|mathcal|mathbb|boldsymbol|text|textrm|operatorname"
    text = re.sub(rf"\\(?:{fonts})\s*\{{([^{{}}]*)\}}", r"\1", tex)
    text = re.sub(r"\\hat\s*\{?(\w)\}?", "\\1\u0302", text)
    text = re.sub(r"\\tilde\s*\{?(\w)\}?", "\\1\u0303", text)
    text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", lambda m: "√" + group(m.group(1)), text)
    text = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", lambda m: f"{group(m.group(1))}/{group(m.group(2))}", text)
    text = re.sub(r"\\(lVert|Vert|langle|left|right)(?![A-Za-z])\s*", lambda m: MATHTEXT[m.group(1)], text)
    text = re.sub(r"\\([A-Za-z]+)|\\(.)", command, text)
    text = text.replace("-", "−")
    text = re.sub(r"([_^])(?:\{([^{}]*)\}|(\S))", script, text)
    text = re.sub(r"[{}]", "", text).replace("\x00", "{").replace("\x01", "}")
    return re.sub(r"\s+", " ", text).strip()


def _in_data_coordinates(artist, ax) -> bool:
    """axhline/axvline and friends are drawn partly in axes coordinates: guides, not data."""
    return artist.get_transform() == ax.transData


def _lines(ax, title: str, xlabel: str, ylabel: str) -> list[dict]:
    groups: list[tuple[list, list[str], list[list]]] = []
    for k, line in enumerate(ax.get_lines()):
        if not _in_data_coordinates(line, ax):
            continue
        x, y = plain(line.get_xdata(orig=True), gaps=True), plain(line.get_ydata(orig=True), gaps=True)
        if not isinstance(x, list) or not isinstance(y, list) or len(x) != len(y) or not x:
            continue
        name = _label(line, ylabel or f"y{k + 1}")
        for gx, names, ys in groups:
            if gx == x:
                names.append(name)
                ys.append(y)
                break
        else:
            groups.append((x, [name], [y]))
    return [{"title": title, "columns": [xlabel or "x", *names], "rows": [list(r) for r in zip(x, *ys)]}
            for x, names, ys in groups]


def _bars(ax, title: str, xlabel: str, ylabel: str) -> list[dict]:
    """One table per set of bar groups: a row per category (the nearest named tick, so grouped bars side by side
    share a row), a column per bar container."""
    from matplotlib.container import BarContainer

    groups: list[tuple[list, list[str], list[list]]] = []
    for k, container in enumerate(c for c in ax.containers if isinstance(c, BarContainer)):
        horizontal = getattr(container, "orientation", "vertical") == "horizontal"
        ticks = _tick_names(*((ax.get_yticks(), ax.get_yticklabels()) if horizontal
                              else (ax.get_xticks(), ax.get_xticklabels())))
        where, sizes = [], []
        for patch in container.patches:
            if horizontal:
                centre, size, width = patch.get_y() + patch.get_height() / 2, patch.get_width(), patch.get_height()
            else:
                centre, size, width = patch.get_x() + patch.get_width() / 2, patch.get_height(), patch.get_width()
            near = min(ticks, key=lambda t: abs(t - centre), default=None)
            where.append(ticks[near] if near is not None and abs(near - centre) <= abs(width) else plain(centre, gaps=True))
            sizes.append(plain(size, gaps=True))
        name = _label(container, (xlabel if horizontal else ylabel) or phrase("data_value", n=k + 1))
        for keys, names, values in groups:
            if keys == where:
                names.append(name)
                values.append(sizes)
                break
        else:
            if where:
                groups.append((where, [name], [sizes]))
    axis = xlabel or phrase("data_category")
    return [{"title": title, "columns": [axis, *names], "rows": [list(r) for r in zip(keys, *values)]}
            for keys, names, values in groups]


def _tick_names(positions, labels) -> dict[float, str]:
    """Tick position → its text, when the ticks name categories (not numbers)."""
    names = {}
    for pos, label in zip(positions, labels):
        text = label.get_text().strip()
        if text and not _numeric_text(text):
            names[round(float(pos), 6)] = text
    return names


def _numeric_text(text: str) -> bool:
    try:
        float(text.replace("\u2212", "-").replace("$", ""))
        return True
    except ValueError:
        return False


def _scatters(ax, title: str, xlabel: str, ylabel: str) -> list[dict]:
    from matplotlib.collections import PathCollection

    tables = []
    for k, coll in enumerate(c for c in ax.collections if isinstance(c, PathCollection)):
        offsets = plain(coll.get_offsets(), gaps=True)
        if offsets and coll.get_offset_transform() == ax.transData:
            tables.append({"title": title, "columns": [xlabel or "x", _label(coll, ylabel or "y")],
                           "rows": [list(p) for p in offsets]})
    return tables


def _step_histograms(ax, title: str, xlabel: str, ylabel: str) -> list[dict]:
    """`hist(…, histtype="step" | "stepfilled")`: each outline's horizontal runs, read back as bins (start, end,
    height); a bar histogram's bars are `_bars`."""
    from matplotlib.patches import Polygon

    tables = []
    for k, patch in enumerate(p for p in ax.patches if type(p) is Polygon and _in_data_coordinates(p, ax)):
        xy = plain(patch.get_xy(), gaps=True)
        if not isinstance(xy, list) or len(xy) < 4:
            continue
        runs = [(a[0], b[0], a[1]) for a, b in zip(xy, xy[1:]) if a[1] == b[1] and b[0] > a[0]]
        steps = [(a[1], b[1], a[0]) for a, b in zip(xy, xy[1:]) if a[0] == b[0] and b[1] > a[1]]
        horizontal = len(steps) > len(runs)   # (orientation="horizontal": the runs go up the y axis)
        bins = steps if horizontal else runs
        if len(bins) < 2:
            continue
        name = _label(patch, (xlabel if horizontal else ylabel) or phrase("data_count"))
        axis = (ylabel if horizontal else xlabel) or "x"
        tables.append({"title": title, "columns": [phrase("data_bin_from", axis=axis), phrase("data_bin_to", axis=axis),
                                                   name],
                       "rows": [list(b) for b in bins]})
    return tables


def _hexbins(ax, title: str, xlabel: str, ylabel: str) -> list[dict]:
    """`hexbin(x, y)`: each hexagon's centre and count (or the value `C` reduced to)."""
    from matplotlib.collections import PolyCollection

    tables = []
    for coll in (c for c in ax.collections if type(c) is PolyCollection):
        array, offsets = coll.get_array(), coll.get_offsets()
        if array is None or len(offsets) < 2 or len(offsets) != len(array):   # (hexbin's offsets: data coordinates)
            continue
        tables.append({"title": title, "columns": [xlabel or "x", ylabel or "y", _label(coll, phrase("data_count"))],
                       "rows": [[*plain(xy, gaps=True), plain(v, gaps=True)] for xy, v in zip(offsets, array)]})
    return tables


def _surfaces(ax, title: str, xlabel: str, ylabel: str) -> list[dict]:
    """A 3-D surface or a contour plot: x, y, z of every point of the grid it was drawn from (what keep_grid_data
    kept of plot_surface's, contour's and contourf's arguments)."""
    import numpy as np

    tables = []
    for coll in ax.collections:
        given = getattr(coll, GRID_DATA, None)
        if given is None:
            continue
        x, y, z = (np.asarray(a, dtype=float).ravel() for a in np.broadcast_arrays(*given))
        zlabel = plain_text(ax.get_zlabel()) if hasattr(ax, "get_zlabel") else ""
        tables.append({"title": title, "columns": [xlabel or "x", ylabel or "y", zlabel or "z"],
                       "rows": [list(r) for r in zip(plain(x, gaps=True), plain(y, gaps=True), plain(z, gaps=True))]})
    return tables


def _quivers(ax, title: str, xlabel: str, ylabel: str) -> list[dict]:
    """A field of arrows (`quiver`): each arrow's foot and its two components."""
    import numpy as np

    tables = []
    for coll in (c for c in ax.collections if type(c).__name__ == "Quiver"):
        x, y, u, v = (np.ma.filled(np.ma.asarray(a, dtype=float).ravel(), np.nan)
                      for a in (coll.X, coll.Y, coll.U, coll.V))
        tables.append({"title": title, "columns": [xlabel or "x", ylabel or "y", "u", "v"],
                       "rows": [list(r) for r in zip(*(plain(a, gaps=True) for a in (x, y, u, v)))]})
    return tables


GRID_DATA = "_lessonkit_grid"   # the grid a surface or contour set was drawn from, on it (keep_grid_data)


def keep_grid_data() -> None:
    """Make matplotlib's plot_surface, contour and contourf leave the x, y and z they were given on what they draw
    (they keep only polygons and lines), so the figure's data table can list them; the drawing itself is unchanged.
    Once per process, before lesson code draws (compute/pyplot.py routed, draw/figures.py)."""
    from matplotlib.axes import Axes

    _keeping(Axes, "contour", _contour_grid)
    _keeping(Axes, "contourf", _contour_grid)
    try:
        from mpl_toolkits.mplot3d.axes3d import Axes3D
    except ImportError:   # (no 3-D toolkit: nothing draws a surface)
        return
    _keeping(Axes3D, "plot_surface", lambda args, kwargs: args[:3] if len(args) >= 3 else None)


def _keeping(cls, name: str, grid) -> None:
    drawing = getattr(cls, name)
    if getattr(drawing, GRID_DATA, False):
        return

    def keeping(self, *args, **kwargs):
        drawn = drawing(self, *args, **kwargs)
        try:
            given = grid(args, kwargs)
        except (TypeError, ValueError):   # (arguments matplotlib read some other way: no table, as before)
            given = None
        if given is not None:
            setattr(drawn, GRID_DATA, given)
        return drawn
    setattr(keeping, GRID_DATA, True)
    keeping.__doc__, keeping.__name__, keeping.__qualname__ = drawing.__doc__, name, drawing.__qualname__
    setattr(cls, name, keeping)


def _contour_grid(args, kwargs):
    """x, y, z of `contour(Z)`, `contour(X, Y, Z)` (X and Y 1-D or 2-D), with or without levels after them; a
    triangulation or anything else: None."""
    import numpy as np

    if len(args) >= 3 and np.ndim(args[2]) == 2:
        x, y, z = (np.asarray(a, dtype=float) for a in args[:3])
        if x.ndim == 1 and y.ndim == 1:
            x, y = np.meshgrid(x, y)
        return (x, y, z) if x.shape == y.shape == z.shape else None
    if args and np.ndim(args[0]) == 2:
        z = np.asarray(args[0], dtype=float)
        y, x = np.mgrid[0:z.shape[0], 0:z.shape[1]]
        return x, y, z
    return None


def _untabulated(ax) -> list[str]:
    """What `ax` draws that no table here holds, by kind (for the build's report: never silently without data); a
    surface or contour set drawn from a grid keep_grid_data kept is tabled by _surfaces, a quiver by _quivers."""
    return [UNTABULATED[type(coll).__name__] for coll in ax.collections
            if type(coll).__name__ in UNTABULATED and getattr(coll, GRID_DATA, None) is None]


UNTABULATED = {"QuadContourSet": "contour", "TriContourSet": "contour", "ContourSet": "contour",
               "Barbs": "barbs", "Line3DCollection": "3-D lines",
               "Poly3DCollection": "3-D polygons", "TriMesh": "triangulation"}


def _images(ax, title: str) -> list[dict]:
    from matplotlib.collections import QuadMesh
    from matplotlib.image import AxesImage

    tables = []
    for artist in [*ax.images, *(c for c in ax.collections if isinstance(c, QuadMesh))]:
        array = artist.get_array()
        if array is None:
            continue
        import numpy as np

        array = np.ma.filled(np.ma.asarray(array).astype(float), np.nan)
        if array.ndim == 1 and isinstance(artist, QuadMesh):
            coords = artist.get_coordinates()
            array = array.reshape(coords.shape[0] - 1, coords.shape[1] - 1)
        if array.ndim != 2:
            tables.append({"title": title, "columns": [phrase("data_image")],
                           "rows": [[phrase("data_pixels", shape=" × ".join(map(str, array.shape)))]]})
            continue
        n_rows, n_cols = array.shape
        if n_rows > MAX_MATRIX[0] or n_cols > MAX_MATRIX[1]:   # every cell, in long form: x, y, value
            xs, ys = _cell_centres(artist, n_rows, n_cols)
            xlabel, ylabel = plain_text(ax.get_xlabel()) or "x", plain_text(ax.get_ylabel()) or "y"
            tables.append({"title": title, "columns": [xlabel, ylabel, phrase("data_cell_value")],
                           "rows": [[xs[i][j], ys[i][j], plain(array[i, j], gaps=True)]
                                    for i in range(n_rows) for j in range(n_cols)]})
            continue
        cols = _axis_names(ax.get_xticks(), ax.get_xticklabels(), n_cols, isinstance(artist, AxesImage))
        rows = _axis_names(ax.get_yticks(), ax.get_yticklabels(), n_rows, isinstance(artist, AxesImage))
        tables.append({"title": title, "columns": [plain_text(ax.get_ylabel()) or phrase("data_row"), *cols],
                       "rows": [[rows[i], *plain(array[i], gaps=True)] for i in range(n_rows)]})
    return tables


def _cell_centres(artist, n_rows: int, n_cols: int) -> tuple[list, list]:
    """x and y of each cell's centre, row by row: a mesh's from its corners, an image's from its extent (row 0 at
    the top unless origin="lower")."""
    import numpy as np

    from matplotlib.collections import QuadMesh

    if isinstance(artist, QuadMesh):
        corners = np.asarray(artist.get_coordinates(), dtype=float)
        centres = (corners[:-1, :-1] + corners[1:, :-1] + corners[:-1, 1:] + corners[1:, 1:]) / 4
        return plain(centres[..., 0], gaps=True), plain(centres[..., 1], gaps=True)
    left, right, bottom, top = artist.get_extent()
    cols = left + (np.arange(n_cols) + 0.5) * (right - left) / n_cols
    rows = (np.arange(n_rows) + 0.5) / n_rows
    rows = top + rows * (bottom - top) if artist.origin == "upper" else bottom + rows * (top - bottom)
    return plain(np.tile(cols, (n_rows, 1)), gaps=True), plain(np.tile(rows[:, None], (1, n_cols)), gaps=True)


def _axis_names(positions, labels, n: int, centred: bool) -> list[str]:
    """Names of an image's rows or columns from its tick labels (cells centred on 0…n−1 for imshow, on 0.5…n−0.5
    for pcolormesh); integer tick labels that count the cells (label = cell index + a fixed start, as in ticks
    0, 4, 8 … on every 4th row) number every cell from that start; numbers 1…n when the ticks do not name each cell."""
    shift = 0 if centred else 0.5
    names = _tick_names(positions, labels)
    found = [names.get(round(i + shift, 6)) for i in range(n)]
    if all(found):
        return found
    starts = set()
    for pos, label in zip(positions, labels):
        cell, text = float(pos) - shift, label.get_text().strip().replace("\u2212", "-")
        if text and abs(cell - round(cell)) < 1e-6 and 0 <= round(cell) < n:
            if not re.fullmatch(r"-?\d+", text):
                return [str(i + 1) for i in range(n)]
            starts.add(int(text) - round(cell))
    start = starts.pop() if len(starts) == 1 else 1
    return [str(i + start) for i in range(n)]


# ── data a figure function hands explicitly ───────────────────────────────────────────────────────────────────────
def explicit(value: Any) -> dict:
    """`@lesson.figure(…, data="NAME")`: the value NAME as the figure's data, in place of what drawing recorded —
    for a figure whose artists do not say what matters (cells drawn as bars, a picture made of patches). A table:
    `table(…)` (its caption the table's title), a dict of columns, a list of dicts or a list of rows whose first row
    names the columns; or a list of `table(…)` values for several tables. Column names may hold $maths$ (shown as
    Unicode, like recorded labels). ValueError (a message) says what is wrong."""
    if isinstance(value, (list, tuple)) and value and all(_is_table(v) for v in value):
        return {"tables": [_explicit_table(v) for v in value]}
    return {"tables": [_explicit_table(value)]}


def _is_table(value: Any) -> bool:
    return isinstance(value, dict) and bool(value.get("__lessonkit_table__"))


def _explicit_table(value: Any) -> dict:
    title, columns = "", None
    if _is_table(value):
        title, columns, value = str(value.get("caption") or ""), value.get("columns"), value.get("rows")
    value = plain(value, gaps=True)
    if isinstance(value, dict) and value:
        series = [v if isinstance(v, list) else [v] for v in value.values()]
        if len({len(s) for s in series}) != 1:
            raise ValueError(msg("the columns have different lengths ({lengths})",
                                 lengths=", ".join(map(str, sorted({len(s) for s in series})))))
        columns, rows = list(value), [list(r) for r in zip(*series)]
    elif isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
        columns = columns or list(dict.fromkeys(k for r in value for k in r))
        rows = [[r.get(c) for c in columns] for r in value]
    elif isinstance(value, list) and value and all(isinstance(r, list) for r in value):
        if columns is None:
            columns, value = value[0], value[1:]
        if any(len(r) != len(columns) for r in value):
            raise ValueError(msg("the rows have different lengths"))
        rows = value
    else:
        raise ValueError(msg("not a table: a list of dicts, a dict of lists, or a list of rows"))
    for row in rows:
        for cell in row:
            if not (cell is None or isinstance(cell, (str, bool, int, float))):
                raise ValueError(msg("a cell holds {type}: figure data holds numbers and texts",
                                     type=type(cell).__name__))
    return {"title": plain_text(title), "columns": [plain_text(str(c)) for c in columns], "rows": rows}


# ── the view ───────────────────────────────────────────────────────────────────────────────────────────────────────
def view(data: dict | None, fig_id: str, ui, spec: str | None = None, csv_base: str | None = None) -> list[dict]:
    """What partials/figure_data.html shows for each recorded table (empty: nothing to show), in the words of `ui`
    (lessonkit.support.i18n.UiStrings); `csv_name` and `csv_text` for the file of every row (named after
    `csv_base`, by default `fig_id`: a figure placed twice on a page links one file). Assembly adds `csv_href`."""
    tables = spoken((data or {}).get("tables") or [], ui)
    out = []
    for k, table in enumerate(tables):
        rows = table["rows"]
        step = math.ceil(len(rows) / MAX_ROWS) if len(rows) > MAX_ROWS else 1
        shown = list(range(0, len(rows), step))
        if shown and shown[-1] != len(rows) - 1:
            shown.append(len(rows) - 1)  # the last row too: where a series ends matters
        note = ""
        if step > 1:
            words = ui.data_thinned_and_last if (len(rows) - 1) % step else ui.data_thinned
            note = words.format(n=len(rows), step=step)
        suffix = f"-{k + 1}" if len(tables) > 1 else ""
        out.append({
            "id": f"{fig_id}-data{suffix}",
            "title": table.get("title", ""),
            "columns": table["columns"],
            "rows": [[_cell(v, spec, ui) for v in rows[i]] for i in shown],
            "note": note,
            "csv_name": f"{csv_base or fig_id}{suffix}.csv",
            "csv_text": csv_text(table),
        })
    return out


def _cell(value: Any, spec: str | None, ui) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return ui.value_true if value else ui.value_false
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e6 and spec is None:
        value = int(value)  # a mask's 1.0 / 0.0, a layer number: as the whole numbers they are
    try:
        return format_value(value, spec)
    except FormatError:
        return "—"


def csv_text(table: dict) -> str:
    """Every row, numbers with CSV_DIGITS significant figures (plain ASCII: a spreadsheet reads them), with a BOM so
    Excel opens the Chinese headers as UTF-8."""
    def cell(v: Any) -> str:
        if v is None:
            return ""
        if isinstance(v, bool):
            return "1" if v else "0"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, float):
            return f"{v:.{CSV_DIGITS}g}"
        text = str(v)
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n\r') else text
    lines = [",".join(cell(c) for c in table["columns"])]
    lines += [",".join(cell(v) for v in row) for row in table["rows"]]
    return "\ufeff" + "\r\n".join(lines) + "\r\n"
