"""Jinja environment with a theme search path: user theme → default theme. Undefined variables are errors."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2

from ..load.theme import DEFAULT_THEME, asset_path, theme_dirs  # noqa: F401 (the theme's search path)
from ..support.errors import UsageError
from ..support.messages import msg
from ..support.numbers import format_value
from ..support.store import touch

class TouchingBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Marks a compiled template as used when a build reads it, so pruning keeps it (support/prune.py)."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        super().load_bytecode(bucket)
        if bucket.code is not None:
            touch(os.path.join(self.directory, self._get_cache_filename(bucket)))


class ThemeEnvironment(jinja2.Environment):
    """Jinja as the theme uses it, with one change: `a.key` on a dict finds the key before a dict method, so widget
    data with keys named `items`, `keys`, `values`, `get` … reads as written (`{{ widget.data.items }}` is the data,
    not the method `dict.items`). Without such a key, methods are found as usual."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, dict) and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def make_env(dirs: list[Path], compiled: Path | None = None) -> jinja2.Environment:
    """The theme's templates. Every render passes the theme's words as `ui` (lessonkit.support.i18n.load_ui: read
    in a template as `{{ ui.key }}`); the environment holds no words of its own. `compiled`: a folder keeping
    compiled templates between builds (the session's): compiling the theme costs a warm build more than rendering
    it; Jinja compares a checksum of each template's source, so an edited theme recompiles."""
    bytecode = None
    if compiled is not None:
        compiled.mkdir(parents=True, exist_ok=True)
        bytecode = TouchingBytecodeCache(str(compiled))
    env = ThemeEnvironment(
        # theme templates by name along the search path; component templates by their absolute path
        loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader([str(d) for d in dirs]), PathLoader()]),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=bytecode,
    )
    env.filters["num"] = format_value  # the same number formatting as {{ values }} in Markdown
    return env


def read_asset(dirs: list[Path], name: str) -> str:
    """First `assets/<name>` on the theme search path."""
    return asset_path(dirs, name).read_text(encoding="utf-8")


def theme_problem(exc: Exception) -> UsageError:
    """A template mistake, located at the template file and line where Jinja hit it."""
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith((".html", ".htm"))]
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = f"{exc.filename or exc.name}:{exc.lineno}"
    elif frames:
        where = f"{frames[-1].filename}:{frames[-1].lineno}"
    else:
        where = msg("the theme")
    return UsageError(msg("{where}: template error: {reason}", where=where,
                          reason=getattr(exc, "message", None) or str(exc)))

class PathLoader(jinja2.BaseLoader):
    """Loads component templates by absolute path, so a template error names the real file."""

    def get_source(self, environment: jinja2.Environment, template: str):
        path = Path(template)
        if not path.is_absolute() or not path.is_file():
            raise jinja2.TemplateNotFound(template)
        source = path.read_text(encoding="utf-8")
        mtime = path.stat().st_mtime_ns
        return source, str(path), lambda: path.is_file() and path.stat().st_mtime_ns == mtime
