"""Components: a folder with `widget.html`, and optionally `widget.js` and `widget.css`.

Two kinds, kept apart in the theme: widget kinds an author places (`{{< widget NAME >}}` with `@lesson.widget`),
in `widgets/<kind>/` — found, first match wins, in the lesson's own folder (`content/<slug>/widgets/<kind>/`), the
selected theme, then `themes/default/`; and the page's own components that the engine or a page template places
(search, self-checks, glossary terms, toggles, projector, colour mode, course navigation), in
`themes/<theme>/components/<name>/`, then `themes/default/components/<name>/`. A page inlines the theme's base code (assets/lesson.js, assets/style.css) plus the JS and CSS of
exactly the kinds it uses — any element with `data-widget="KIND"` — in sorted kind order, and its
Content-Security-Policy lists the hashes of exactly that code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..support.errors import UsageError
from ..support.messages import msg



@dataclass(frozen=True)
class Component:
    kind: str
    folder: Path
    in_lesson: bool             # the lesson's own component: its mistakes are the author's (exit 1)

    @property
    def template(self) -> Path:
        return self.folder / "widget.html"

    def asset(self, name: str) -> str:
        path = self.folder / name
        return path.read_text(encoding="utf-8") if path.is_file() else ""


class Components:
    """Finds components along the search path and assembles the code a page needs."""

    def __init__(self, theme_dirs: list[Path]):
        self.theme_dirs = theme_dirs

    def find(self, kind: str, lesson_folder: Path | None = None, widgets_only: bool = False) -> Component | None:
        """The component of `kind`; `widgets_only`: among the kinds an author places (not the page's own)."""
        roots = self._widget_roots(lesson_folder) if widgets_only else self._roots(lesson_folder)
        for folder, in_lesson in roots:
            candidate = folder / kind
            if candidate.is_dir() and any((candidate / f).is_file() for f in ("widget.html", "widget.js", "widget.css")):
                return Component(kind, candidate, in_lesson)
        return None

    def kinds(self, lesson_folder: Path | None = None) -> list[str]:
        """Every widget kind a lesson can place, for "did you mean" and for the guide (page components are not)."""
        found = {p.name for folder, _ in self._widget_roots(lesson_folder) if folder.is_dir()
                 for p in folder.iterdir() if p.is_dir() and (p / "widget.html").is_file()}
        return sorted(found)

    def _widget_roots(self, lesson_folder: Path | None) -> list[tuple[Path, bool]]:
        roots = [(lesson_folder / "widgets", True)] if lesson_folder is not None else []
        return roots + [(d / "widgets", False) for d in self.theme_dirs]

    def _roots(self, lesson_folder: Path | None) -> list[tuple[Path, bool]]:
        """Widget kinds first (a lesson may bring its own), then the page components."""
        return self._widget_roots(lesson_folder) + [(d / "components", False) for d in self.theme_dirs]

    def page_code(self, kinds: tuple[str, ...], base_js: str, base_css: str,
                  lesson_folder: Path | None) -> tuple[str, str]:
        """The page's one inline script and one inline style (without its figures' palette): the theme's base code
        plus the code of exactly these kinds, in sorted order."""
        js, css = [base_js], [base_css]
        for kind in sorted(kinds):
            component = self.find(kind, lesson_folder)
            if component is None:
                raise UsageError(msg("a page uses data-widget=\"{kind}\" but no component widgets/{kind}/ or "
                                     "components/{kind}/ exists (searched: {dirs})", kind=kind,
                                     dirs=", ".join(str(f) for f, _ in self._roots(lesson_folder))))
            js.append(component.asset("widget.js"))
            css.append(component.asset("widget.css"))
        return lean_js("\n".join(filter(None, js))), lean_css("\n".join(filter(None, css)))


def lean_js(code: str) -> str:
    """The code without its indentation, blank lines and whole-line `//` comments: a tenth of a page's weight
    for nothing a browser reads. (Nothing cleverer: lines are never joined, strings never touched.)"""
    lines = (line.strip() for line in code.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


def lean_css(css: str) -> str:
    """Stylesheets without comments, indentation and blank lines."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return "\n".join(line.strip() for line in css.splitlines() if line.strip())
