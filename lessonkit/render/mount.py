"""The one way a component is put on a page: its root element, what its template rendered, and its data."""
from __future__ import annotations

from typing import Any

from ..support.jsondata import json_for_script


def mount(kind: str, root_id: str, inner: str, data: Any) -> str:
    """`<div class="widget widget-KIND" id=… data-widget="KIND">` around the component's rendered template, followed
    by the JSON its script reads (`#ROOT_ID-data`). `data-widget` is what puts the kind's code on the page."""
    return (f'<div class="widget widget-{kind}" id="{root_id}" data-widget="{kind}">\n{inner.strip()}\n'
            f'<script type="application/json" id="{root_id}-data">{json_for_script(data)}</script>\n</div>')
