"""Components: a folder with `widget.html`, and optionally `widget.js` and `widget.css`.

Two kinds, kept apart in the theme: widget kinds an author places (`{{< widget NAME >}}` with `@lesson.widget`),
in `widgets/<kind>/` — found, first match wins, in the lesson's own folder (`content/<slug>/widgets/<kind>/`), then
along the theme's search path (load/theme.py: the project's `themes/<theme>/`, its `themes/default/`, the built-in
`lessonkit/themes/default/`); and the page's own components that the engine or a page template places (search,
self-checks, glossary terms, toggles, projector, colour mode, course navigation), in `components/<name>/` along the
same path. A page inlines the theme's base code
(assets/lesson.js, assets/style.css) plus the JS and CSS of exactly the kinds it uses — any element with
`data-widget="KIND"` — in sorted kind order, each script its own `<script>`, and its Content-Security-Policy lists
the hashes of exactly that code. Each script is checked at build time (features/scriptcheck.py).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Iterable

from ..support.errors import UsageError
from ..support.messages import msg
from ..support.records import Record



class Component(Record):
    kind: str
    folder: Path
    in_lesson: bool             # the lesson's own component: its mistakes are the author's (exit 1)

    @property
    def template(self) -> Path:
        return self.folder / "widget.html"

    def source_name(self, name: str) -> str:
        """`content/<slug>/widgets/<kind>/<name>` or `themes/<theme>/components/<kind>/<name>`."""
        return source_name(self.folder / name, 5)

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

    def used(self, pages: Iterable[tuple[tuple[str, ...], Path | None]]) -> set[Component]:
        """The components pages mount, given each page's kinds and lesson folder (a kind without a component is
        reported when its page's code is assembled)."""
        found = (self.find(kind, folder) for kinds, folder in pages for kind in kinds)
        return {c for c in found if c is not None}

    def page_code(self, kinds: tuple[str, ...], base_js: str, base_css: str, lesson_folder: Path | None,
                  base_path: Path | None = None, shrink=None) -> tuple[tuple[str, ...], str]:
        """The page's inline scripts and its one inline style (without its figures' palette): the theme's base code
        (from `base_path`) first, then the code of exactly these kinds, in sorted order. Each script is its own
        `<script>`, so one that fails to parse or throws stops only itself, and ends with `//# sourceURL=` naming
        its file (devtools and error stacks show `…/widgets/<kind>/widget.js`). `shrink` makes each small (Lean:
        every line where its file has it; assemble/minify.py Minified)."""
        shrink = shrink if shrink is not None else LEAN
        js, css_of = shrink.js, shrink.css
        base_name = source_name(base_path, 4) if base_path is not None else ""
        scripts, css = [with_source_url(js(base_js, base_path), base_name)], [base_css]
        for kind in sorted(kinds):
            component = self.find(kind, lesson_folder)
            if component is None:
                raise UsageError(msg("a page uses data-widget=\"{kind}\" but no component widgets/{kind}/ or "
                                     "components/{kind}/ exists (searched: {dirs})", kind=kind,
                                     dirs=", ".join(str(f) for f, _ in self._roots(lesson_folder))))
            code = js(component.asset("widget.js"), component.folder / "widget.js")
            if code.strip():
                scripts.append(with_source_url(code, component.source_name("widget.js")))
            css.append(component.asset("widget.css"))
        return tuple(scripts), css_of("\n".join(filter(None, css)))


class Lean:
    """Code made lean, line for line (lean_js, lean_css): what `serve` shows, and a teacher's own code always."""

    def js(self, code: str, path: Path | None = None) -> str:
        return lean_js(code)

    def css(self, css: str) -> str:
        return lean_css(css)

    def save(self) -> None:
        pass


LEAN = Lean()


def source_name(path: Path, parts: int) -> str:
    """A script's name for devtools and error stacks: the last `parts` parts of its path (`content/<slug>/widgets/
    <kind>/widget.js`, `themes/default/assets/lesson.js`), never the machine's absolute path."""
    return "/".join(path.parts[-parts:])


def with_source_url(js: str, name: str) -> str:
    return js + f"\n//# sourceURL={name}" if name else js


@functools.lru_cache(maxsize=256)  # (every page of a build carries the theme's scripts: each is made lean once)
def lean_js(code: str) -> str:
    """The code without its indentation and whole-line `//` comments: a tenth of a page's weight for nothing a
    browser reads. Every line keeps its number (a removed line leaves an empty one), so an error names the line of
    the file the author edits. (Nothing cleverer: lines are never joined, strings never touched.)"""
    lines = (line.strip() for line in code.rstrip().splitlines())
    return "\n".join("" if line.startswith("//") else line for line in lines)


@functools.lru_cache(maxsize=64)
def lean_css(css: str) -> str:
    """Stylesheets without comments, indentation and blank lines."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return "\n".join(line.strip() for line in css.splitlines() if line.strip())
