"""Widgets and tables on the page: `{{< widget NAME >}}` mounts lesson.py's widget NAME with its kind's component
(widgets/<kind>/ of the lesson or the theme), `{{< table NAME >}}` shows a value as a table (partials/table.html).
Their data was computed and checked with lesson.py (features/widgets.py, widgetdata.py)."""
from __future__ import annotations

from ..support.errors import Miss
from ..support.messages import msg, reason
from ..support.pysource import first_line
from ..support.suggest import did_you_mean
from ..support.values import lookup
from ..support.words import spoken
from .figures import unknown
from .placing import Page

CAPTIONED = ("explorer", "bars")  # the builders' kinds whose caption (plain text) may hold `{{ value }}`


def place(page: Page, name: str, args: tuple[str, ...], at=None) -> str | Miss:
    lesson = page.lesson
    if name not in lesson.registry.widgets:
        return unknown("widget", name, lesson.registry.widgets)
    if name in page.ledger.widgets:  # its ids would repeat; two of the same widget need two functions
        return Miss(msg("widget `{name}` is placed twice", name=name), "each widget placed once")
    page.ledger.widgets.add(name)
    if name not in lesson.widgets:
        return ""  # its function failed, which is reported
    widget, components = lesson.widgets[name], page.setting.components
    component = components.find(widget.kind, lesson.source.folder, widgets_only=True)
    if component is None or not component.template.is_file():
        kinds = components.kinds(lesson.source.folder)
        return Miss(msg("widget `{name}` is of kind `{kind}`, but there is no component "
                        "widgets/{kind}/widget.html{hint}", name=name, kind=widget.kind,
                        hint=did_you_mean(widget.kind, kinds)),
                    msg("a component folder in {folder}/widgets/ or the theme; kinds: {kinds}",
                        folder=lesson.source.folder.name, kinds=", ".join(kinds) or msg("none")))
    figures = {f_name.split("--", 1)[1]: page.figure_mark(f_name) for f_name, _, _ in widget.figures}
    data = spoken(widget.data, page.ui)  # a builder's words (yes/no, joins) in the site's language
    if widget.kind in CAPTIONED and isinstance(data.get("caption"), str):  # `{{ value }}` as in the text
        data = {**data, "caption": page.inline(data["caption"], lesson.source.code_path, widget.line or 1,
                                               plain=True)}
    context = {"id": f"widget-{name}", "name": name, "kind": widget.kind, "data": data, "figures": figures}
    script = data if widget.script is None else spoken(widget.script, page.ui)
    return page.mounted(component, context, widget, name, script)


def place_table(page: Page, name: str, args: tuple[str, ...], at=None, copy: str = "") -> str | Miss:
    """A value as a table; its caption and column names are Markdown like a figure's caption ($math$,
    {{ values }}), its cells text. `at`: where the directive stands (its id is numbered there: render/numbering.py);
    `copy`: the copy it is in (`print`: the answers printed at the end)."""
    lesson = page.lesson
    try:
        value = lookup(name, lesson.values)
    except KeyError:
        return Miss(msg("unknown value `{name}` for a table{hint}", name=name,
                        hint=did_you_mean(name.split(".")[0], lesson.values)),
                    msg("a value defined in lesson.py: {names}", names=", ".join(sorted(lesson.values)) or msg("none")))
    from .widgets import table_data  # (the general widgets' module, imported where a table is placed)

    try:
        data = table_data(value)
    except ValueError as exc:
        return Miss(msg("value `{name}` cannot be shown as a table: {reason}", name=name, reason=reason(exc)),
                    "a list of dicts, a dict of lists, a list of rows, or lessonkit.table(…)")
    func = lesson.registry.values.get(name.split(".")[0])
    where = lesson.source.code_path, first_line(func) if func else None
    data["caption"] = page.inline(data["caption"], *where) if data["caption"] else ""
    data["columns"] = [page.inline(column, *where) for column in data["columns"]]
    return page.template("partials/table.html", table=spoken(data, page.ui), id=page.numbers.id("table", *at, copy))
