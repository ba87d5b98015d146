"""Headless Chromium through Playwright, shared by `build.py pdf` and the browser tests.

`playwright install` is not needed (nor possible offline): we drive the system's Chromium (Debian package `chromium`).
"""
from __future__ import annotations

import os
import shutil

from .messages import Message, msg

# Flags for a quiet, offline, sandbox-less headless run (containers and CI have no user namespaces).
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# a page's components have started (lesson.js starts them after the first paint and then marks <html>); a page
# without lesson.js has none to wait for
STARTED = "() => !window.lessonkit || document.documentElement.hasAttribute('data-lk-started')"

CHROMIUM_HINT = msg("install Chromium (Debian/Ubuntu: `sudo apt-get install --no-install-recommends chromium`), "
                    "or set LESSONKIT_CHROMIUM to its path")
PLAYWRIGHT_HINT = msg("`pip install \"lessonkit[print]\"` installs it (Playwright drives the Chromium you "
                      "have: no `playwright install` needed)")


def executable() -> str | None:
    """Path of the Chromium binary: $LESSONKIT_CHROMIUM, else chromium / chromium-browser on PATH."""
    explicit = os.environ.get("LESSONKIT_CHROMIUM")
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "/usr/bin/chromium"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing() -> Message | None:
    """Why Chromium cannot be driven here, or None when it can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return msg("the Python package playwright is not installed: {hint}", hint=PLAYWRIGHT_HINT)
    if executable() is None:
        return msg("no Chromium found: {hint}", hint=CHROMIUM_HINT)
    return None


def launch(playwright):
    """A headless Chromium browser from a started `sync_playwright()`."""
    return playwright.chromium.launch(executable_path=executable(), args=ARGS)
