"""Synced tabs: `::: tabs GROUP` holds `::: tab LABEL` blocks (Markdown each), one shown at a time.

Choosing a label shows it in every tab set of the same GROUP on the page, and the choice is remembered across
lessons (localStorage: the next page opens on the same label, also from file://); a set without that label keeps
its own. Without JavaScript and on paper every tab shows, each under its label.

    check      check(group, tabs, line): a group name, at least one tab, each with a label, no label twice
    render     render/containers.py Containers.tabs mounts `lessonkit/themes/default/components/tabs/` (the ARIA
               tabs pattern: arrow keys, Home and End move between the labels)
    data       script_data(group): what the component's script reads — the group and the storage key it remembers
               the choice under (the same key on every page)
"""
from __future__ import annotations

import re

from ..support.messages import Message, msg

KIND = "tabs"                     # the container and the component it mounts
PART = "tab"
GROUP = re.compile(r"[A-Za-z0-9_-]+")
STORAGE_PREFIX = "lessonkit-tabs:"


def key(label: str) -> str:
    """What a tab is known by across sets and pages: its label as written, spaces trimmed."""
    return " ".join(label.split())


def check(group: str, tabs: list[tuple[str, int]], line: int) -> list[tuple[int, Message, Message]]:
    """(line, message, expected) for each mistake of one `::: tabs` block; `tabs`: each tab's label and line."""
    problems = []
    if not GROUP.fullmatch(group.strip()):
        problems.append((line, msg("cannot read the tab group `{group}`", group=group.strip()) if group.strip() else
                         msg("`::: tabs` without a group name"),
                         msg("`::: tabs GROUP`, GROUP made of ASCII letters, digits, - and _ (e.g. `::: tabs "
                             "framework`): the tab sets of one group switch together")))
    if not tabs:
        problems.append((line, msg("`::: tabs` without a `::: tab` block"), msg("`::: tab LABEL` … `:::` blocks inside it")))
    seen: dict[str, int] = {}
    for label, at in tabs:
        if not key(label):
            problems.append((at, msg("`::: tab` without a label"), msg("`::: tab LABEL`, e.g. `::: tab PyTorch`")))
        elif key(label) in seen:
            problems.append((at, msg("two tabs labelled `{label}` in one set (first at line {line})",
                                     label=key(label), line=seen[key(label)]),
                             msg("a different label for each tab of a set")))
        seen.setdefault(key(label), at)
    return problems


def script_data(group: str) -> dict[str, str]:
    return {"group": group, "storage": STORAGE_PREFIX + group}
