"""The page's code as small as it can be for the students who download it: the built-in theme's scripts and every
page's stylesheet through minify-html's JavaScript and CSS minifiers (minify-js, lightningcss), each result kept in
the store by what it was made from and the minifier's version, so a rebuild minifies nothing it already did.

What a teacher wrote stays line for line (features/components.py lean_js): a lesson's own widgets and a project's
theme, whose console errors must name the line of the file the teacher edits; and all of it under `serve`, where
whoever reads the code in devtools is working on it.

    Lean()              what `serve` uses (features/components.py): whitespace and comments out, lines kept
    Minified(cache)     what `build` uses; save() writes the new results back to the cache
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..features.components import Lean, lean_css, lean_js
from ..support.cachekeys import package_version
from ..support.paths import BUILTIN_THEMES
from ..support.store import MINIFIED, Store


class Minified(Lean):
    def __init__(self, cache: Store):
        self.cache, self.version = cache, package_version("minify_html")
        saved = cache.get_json(MINIFIED, self.version)
        self.memo: dict[str, str] = saved if isinstance(saved, dict) else {}
        self.added = False

    def js(self, code: str, path: Path | None = None) -> str:
        if path is None or not path.is_relative_to(BUILTIN_THEMES):
            return lean_js(code)   # the teacher's own code: its lines kept
        lean = lean_js(code)   # (minify-html keeps the comments a script starts with)
        return self._minified("script", "minify_js", lean) or lean

    def css(self, css: str) -> str:
        return self._minified("style", "minify_css", css) or lean_css(css)

    def _minified(self, tag: str, option: str, code: str) -> str | None:
        if not code.strip():
            return code
        key = f"{tag} {hashlib.sha256(code.encode('utf-8')).hexdigest()}"
        if key not in self.memo:
            import minify_html

            out = minify_html.minify(f"<{tag}>{code}</{tag}>", **{option: True})
            opening, closing = f"<{tag}>", f"</{tag}>"
            if not (out.startswith(opening) and out.endswith(closing)):
                return None   # (nothing a page could use: the lean code instead)
            self.memo[key] = out[len(opening):-len(closing)]
            self.added = True
        return self.memo[key]

    def save(self) -> None:
        if self.added:
            self.cache.put_json(MINIFIED, self.version, self.memo)
