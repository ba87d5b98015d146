"""The theme's search path: the project's own theme folders first, then the theme built into lessonkit
(lessonkit/themes/default/, shipped inside the package) for whatever they do not override."""
from __future__ import annotations

from pathlib import Path

from ..support.errors import UsageError
from ..support.messages import msg
from ..support.paths import BUILTIN_THEMES

DEFAULT_THEME = "default"


def theme_dirs(project_themes: Path, name: str) -> list[Path]:
    """Search path for templates, assets, components and words: the project's `themes/NAME/`, then the built-in
    theme. A project's `themes/default/` overrides single files of the built-in default too, so a teacher can
    change one word or one partial without naming a theme."""
    if not (BUILTIN_THEMES / DEFAULT_THEME).is_dir():  # a broken installation: our bug, never a silent fallback
        raise RuntimeError(f"lessonkit's built-in theme is missing: {BUILTIN_THEMES / DEFAULT_THEME}")
    if not (project_themes / name).is_dir() and not (BUILTIN_THEMES / name).is_dir():
        available = sorted({p.name for root in (project_themes, BUILTIN_THEMES) if root.is_dir()
                            for p in root.iterdir() if p.is_dir()})
        raise UsageError(msg("theme `{name}` not found: no folder {path} (available: {names})", name=name,
                             path=project_themes / name, names=", ".join(available)))
    names = [name] if name == DEFAULT_THEME else [name, DEFAULT_THEME]
    return [d for n in names for d in (project_themes / n, BUILTIN_THEMES / n) if d.is_dir()]


def asset_path(dirs: list[Path], name: str) -> Path:
    """First `assets/<name>` on the theme search path."""
    for d in dirs:
        candidate = d / "assets" / name
        if candidate.exists():
            return candidate
    raise UsageError(msg("theme asset assets/{name} not found in: {dirs}", name=name,
                         dirs=", ".join(str(d) for d in dirs)))
