"""A theme or lesson component's widget.html rendered with its data; a mistake in the template or in the data it
reads is reported where it can be fixed: the author's own component as a content problem at its line, the
theme's as a usage error (exit 2)."""
from __future__ import annotations

import re
import traceback
from pathlib import Path
from typing import Any

import jinja2

from ..compute.run import ComputedWidget
from ..features.components import Component
from ..support import csp as content_security
from ..support.errors import Problem, UsageError
from ..support.i18n import UnknownUiString
from ..support.messages import Message, msg, reason


def render_component(env: jinja2.Environment, ui, component: Component, context: dict[str, Any],
                     widget: ComputedWidget | None, name: str, code_path: Path | None,
                     problems: list[Problem]) -> str | None:
    """The component's widget.html, or None when it cannot be shown (what went wrong is in `problems`)."""
    try:
        inner = env.get_template(str(component.template)).render(widget=context, ui=ui)
    except jinja2.TemplateSyntaxError as exc:
        template_problem(component, exc.lineno, msg("template error: {reason}", reason=said_by(exc)), problems)
        return None
    except UnknownUiString:  # the theme's i18n files lack a word the component uses: reported at its line
        raise
    except Exception as exc:  # the data lacks what the template reads, or has the wrong shape
        where, why = _template_line(exc, component.template), said_by(exc)
        if widget is None:
            template_problem(component, where, msg("template error: {reason}", reason=why), problems)
            return None
        problems.append(Problem(code_path, widget.line,
                                msg("widget `{name}` (kind `{kind}`): its data does not fit the component: "
                                    "{reason} (at {where})", name=name, kind=component.kind, reason=why,
                                    where=f"{component.template}:{where or '?'}"),
                                msg("data with the keys and shapes widgets/{kind}/widget.html reads",
                                    kind=component.kind)))
        return None
    blocked = dict.fromkeys(content_security.blocked_attributes(inner))
    for attribute in blocked:  # at the template's line that writes it
        template_problem(component, _source_line(component.template, rf"\s{attribute}\s*="),
                         msg("a `{attribute}=` attribute: the page's Content-Security-Policy blocks it",
                             attribute=attribute),
                         problems,
                         msg("style in widget.css, event handlers in widget.js (the policy lets no inline ones run)"))
    return None if blocked else inner


def template_problem(component: Component, line: int | None, message: Message, problems: list[Problem],
                     expected: Message | str = msg("a valid Jinja template")) -> None:
    if component.in_lesson:  # the author's own component: a content problem (exit 1)
        problems.append(Problem(component.template, line, message, expected))
    else:  # the theme's: exit 2
        where = f"{component.template}:{line}" if line else str(component.template)
        raise UsageError(msg("{where}: {message}", where=where, message=message))


def said_by(exc: BaseException) -> Message | str:
    """What went wrong in a template: Jinja's message (or ours, raised inside it), else the exception itself."""
    if isinstance(exc, jinja2.TemplateError) and exc.message:
        return exc.message
    return msg("{error}: {reason}", error=type(exc).__name__, reason=reason(exc))


def _source_line(path: Path, pattern: str) -> int | None:
    """The first line of a file matching `pattern` (where a template writes what its output shows)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if re.search(pattern, line):
            return number
    return None


def _template_line(exc: BaseException, template: Path) -> int | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(template)]
    return frames[-1].lineno if frames else None
