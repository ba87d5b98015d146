"""The theme's search path: the chosen theme, then `themes/default/` for whatever it does not override."""
from __future__ import annotations

from pathlib import Path

from ..support.errors import UsageError
from ..support.messages import msg

DEFAULT_THEME = "default"


def theme_dirs(themes_root: Path, name: str) -> list[Path]:
    """Search path for templates: the chosen theme, then `default` for whatever it does not override."""
    chosen = themes_root / name
    if not chosen.is_dir():
        available = ", ".join(sorted(p.name for p in themes_root.iterdir() if p.is_dir())) \
            if themes_root.is_dir() else ""
        raise UsageError(msg("theme `{name}` not found in {path} (available: {names})", name=name, path=themes_root,
                             names=available or msg("none")))
    dirs = [chosen]
    if name != DEFAULT_THEME:
        dirs.append(themes_root / DEFAULT_THEME)
    return dirs


def asset_path(dirs: list[Path], name: str) -> Path:
    """First `assets/<name>` on the theme search path."""
    for d in dirs:
        candidate = d / "assets" / name
        if candidate.exists():
            return candidate
    raise UsageError(msg("theme asset assets/{name} not found in: {dirs}", name=name,
                         dirs=", ".join(str(d) for d in dirs)))
