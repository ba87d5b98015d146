"""Languages: the words a page shows (UI strings, from the theme) and the messages an author reads (problems, the
build summary, the preview's error page).

UI strings live in one file per language on the theme search path, `themes/<theme>/i18n/<language>.yaml`; a key is
looked up in the chosen theme's file first, then in the default theme's. Templates read them as `{{ ui.key }}`;
strings holding numbers are formatted in Python (`{{ ui.minutes.format(n=…) }}`). The site's language is
`language:` in content/site.yaml (default zh-CN).

Messages to the author are a template and its parameters (`support/messages.py`), translated by a lookup in
`lessonkit/messages/<lang>.yaml` when they are shown; `Speaker` is a command's voice in the chosen language.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from .messages import DEFAULT, MESSAGE_LANGUAGES, Message, catalog, catalog_file, catalog_path, locale_language, \
    message_language, msg, normalize, said
from .readings import kept
from .store import Store

__all__ = ["DEFAULT", "MESSAGE_LANGUAGES", "locale_language", "message_language", "normalize", "Speaker", "UiStrings",
           "UnknownUiString", "load_ui", "available_languages", "ui_files"]  # the language's names live in .messages


class Speaker:
    """The command's voice in one language (cli.main makes one per run and hands it to the command as `args.say`):
    `say("built {n} lesson(s)", n=2)`, `say.text(message)`, `say.problem(problem)`."""

    def __init__(self, lang: str | None = None, root: Path | None = None):
        self.lang = lang or message_language()
        self.root = root  # problems show their files from here (support.errors.project_root)
        self.store: Store | None = None  # the command's store, once it has checked it: see `keep_in`

    def keep_in(self, store: Store) -> None:
        """Keep the catalog's reading in the command's store (support/readings.py): a rebuild that prints a warning
        then reads no YAML."""
        self.store = store

    @functools.cached_property
    def words(self) -> dict[str, str]:
        """The catalog of the command's language, read when a first message is shown (without a store, once per
        process)."""
        path = catalog_path(self.lang)
        if path is None:
            return {}
        return kept(self.store, catalog_file, path) if self.store else catalog(self.lang)

    def __call__(self, template: str, /, **values: Any) -> str:
        return Message(template, tuple(values.items())).render(self.lang, self.words)

    def text(self, message: Message | str | None) -> str:
        return said(message, self.lang, self.words)

    def problem(self, problem) -> str:
        return problem.render(self.lang, self.root, self.words)


# ── UI strings ──────────────────────────────────────────────────────────────────────────────────────────────────────
class UnknownUiString(Exception):
    """A template asks for `ui.KEY` that no i18n file on the theme search path defines. (Not a Jinja error class: a build that renders
    nothing need not import Jinja; the render stage reports it like one.)"""


class UiStrings:
    """`ui.key` in templates; `lang` is the language code itself (for <html lang>)."""

    def __init__(self, lang: str, strings: dict[str, str], files: list[Path]):
        self.lang = lang
        self._strings = strings
        self._files = files

    def __getattr__(self, key: str) -> str:
        if key.startswith("__") or key.startswith("_"):
            raise AttributeError(key)
        try:
            return self._strings[key]
        except KeyError:
            from .suggest import did_you_mean
            raise UnknownUiString(msg("unknown UI string `ui.{key}`{hint}: it is in none of {files}", key=key,
                                      hint=did_you_mean(key, self._strings, "ui.{}"),
                                      files=", ".join(str(f) for f in self._files))) from None

    __getitem__ = __getattr__

    def get(self, key: str, default: str | None = None) -> str | None:
        return self._strings.get(key, default)

    def keys(self) -> list[str]:
        return list(self._strings)


def ui_files(dirs: list[Path], lang: str) -> list[Path]:
    return [d / "i18n" / f"{lang}.yaml" for d in dirs if (d / "i18n" / f"{lang}.yaml").is_file()]


def available_languages(dirs: list[Path]) -> list[str]:
    return sorted({p.stem for d in dirs if (d / "i18n").is_dir() for p in (d / "i18n").glob("*.yaml")})


def load_ui(dirs: list[Path], lang: str, store: Store | None = None) -> UiStrings:
    """The UI strings of `lang` along the theme search path (the chosen theme's keys win). A missing or broken file
    raises ValueError with a message naming it. Each file's reading is kept in `store` (support/readings.py)."""
    files = ui_files(dirs, lang)
    if not files:
        raise ValueError(msg("no UI strings for language `{lang}`: none of {files} exists", lang=lang,
                             files=", ".join(str(d / "i18n" / f"{lang}.yaml") for d in dirs)))
    strings: dict[str, str] = {}
    for path in reversed(files):  # default theme first, the chosen theme's keys override
        strings.update(kept(store, ui_file, path))
    return UiStrings(lang, strings, files)


def ui_file(path: Path) -> dict[str, str]:
    """One i18n file's strings (ValueError naming it when it is not a mapping of them)."""
    import yaml

    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
    except yaml.YAMLError as exc:
        raise ValueError(msg("{path}: YAML syntax error: {reason}", path=path, reason=str(exc))) from None
    if not isinstance(data, dict):
        raise ValueError(msg("{path}: not a mapping of UI strings (`key: text` lines)", path=path))
    return {str(k): "" if v is None else str(v) for k, v in data.items()}
