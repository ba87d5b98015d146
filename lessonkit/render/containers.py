"""Lesson.md's `:::` containers placed on the page — callouts and cards, toggles, tabs, speaker notes — and the
`scorm` component of a page for a learning platform. Their ids are numbered before rendering
(render/numbering.py)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from ..features import notes, tabs
from ..features.components import Components
from ..support.errors import Problem
from ..support.messages import msg
from .component import render_component
from .mount import mount

if TYPE_CHECKING:  # only an LMS edition's pages have one
    from ..load.release import Edition
    from .numbering import PageNumbers
    from .questions import LessonPackage

CALLOUT_TEMPLATES = {"cards": "partials/cards.html", "card": "partials/card.html", "state": "partials/state.html"}
SCORM_ID = re.compile(r"[A-Za-z0-9_-]{1,200}")


def scorm_id(cid: str, k: int) -> str:
    """A self-check's name in the platform's records (SCORM 1.2's identifiers are ASCII letters, digits, `-`
    and `_`): its id on the page, or, for a check named in other letters, its place among the page's checks."""
    return cid if SCORM_ID.fullmatch(cid) else f"selfcheck-{k + 1}"


class Containers:
    """Renders the containers of one lesson; problems go to the lesson's list."""

    def __init__(self, env: jinja2.Environment, ui, components: Components, folder: Path, body_path: Path,
                 problems: list[Problem], edition: Edition, numbers: PageNumbers):
        self.env, self.ui, self.components, self.folder = env, ui, components, folder
        self.body_path, self.problems, self.edition, self.numbers = body_path, problems, edition, numbers

    def container(self, block: dict[str, Any]) -> str:
        kind = block["kind"]
        if kind == "toggle":
            return self.toggle(block)
        if kind == "tabs":
            return self.tabs(block)
        if kind == notes.KIND:
            return notes.notes_html(block, self.ui.presenter_notes if self.edition.teacher else None)
        template = CALLOUT_TEMPLATES.get(kind, "partials/callout.html")
        return self.env.get_template(template).render(callout=block, ui=self.ui)

    def toggle(self, block: dict[str, Any]) -> str:
        states = [p for p in block["parts"] if p["kind"] == "state"]
        if len(states) < 2:
            self.problems.append(Problem(self.body_path, block["line"],
                                         msg("a toggle needs at least two `::: state` blocks, found {n}",
                                             n=len(states)),
                                         "`::: state TITLE` … `:::` blocks inside `::: toggle`"))
            return ""
        root = self.numbers.id("toggle", block["path"], block["line"], block["copy"])
        inner = self._component("toggle", root, {"title": block["title"], "states": states})
        return "" if inner is None else mount("toggle", root, inner, {"states": [s["title"] for s in states]})

    def tabs(self, block: dict[str, Any]) -> str:
        """`::: tabs GROUP` with `::: tab LABEL` blocks (features.tabs checks them)."""
        found = tabs.check(block["arg"], [(p["arg"], p["line"]) for p in block["parts"] if p["kind"] == tabs.PART],
                           block["line"])
        self.problems.extend(Problem(self.body_path, line, message, expected) for line, message, expected in found)
        if found:
            return ""
        root = self.numbers.id("tabs", block["path"], block["line"], block["copy"])
        panes = [{"label": p["title"], "key": tabs.key(p["arg"]), "body": p["body"]}
                 for p in block["parts"] if p["kind"] == tabs.PART]
        data = {"group": block["arg"].strip(), "tabs": panes}
        inner = self._component(tabs.KIND, root, data)
        return "" if inner is None else mount(tabs.KIND, root, inner, tabs.script_data(data["group"]))

    def scorm(self, package: LessonPackage) -> str:
        """The `scorm` component of a page for a learning platform: it finds the platform's SCORM 1.2 API and
        reports each self-check answered (the self-check says what was answered and whether it was right), the
        score and the status against the lesson's mastery percentage. Hidden unless a platform is found."""
        inner = self._component("scorm", "lms-scorm", {}, name="scorm")
        data = {"checks": [[cid, scorm_id(cid, k)] for k, cid in enumerate(package.check_ids)],
                "mastery": package.mastery}
        return "" if inner is None else mount("scorm", "lms-scorm", inner, data)

    def _component(self, kind: str, root: str, data: dict[str, Any], name: str | None = None) -> str | None:
        component = self.components.find(kind, self.folder)
        if component is None:
            return None
        context = {"id": root, "name": name or root, "kind": kind, "data": data}
        return render_component(self.env, self.ui, component, context, None, name or root, None, self.problems)
