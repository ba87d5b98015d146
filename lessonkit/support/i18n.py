"""Languages: the words a page shows (UI strings, from the theme) and the messages an author reads (problems, the
build summary, the preview's error page).

UI strings live in one file per language on the theme search path, `themes/<theme>/i18n/<language>.yaml`; a key is
looked up in the chosen theme's file first, then in the default theme's. Templates read them as `{{ ui.key }}`;
strings holding numbers are formatted in Python (`{{ ui.minutes.format(n=…) }}`). The site's language is
`language:` in content/site.yaml (default zh-CN).

Messages to the author are written once, in English, where the problem is found; `lessonkit/messages/<lang>.yaml`
maps message templates (with `{name}` placeholders) to their translation, applied when a Problem is rendered as
text. Their language: `--lang`, else the LESSONKIT_LANG environment variable, else site.yaml's `language:`, else the
system locale (LC_ALL / LC_MESSAGES / LANG: zh… → Chinese, en… → English), else Chinese.
"""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any

import yaml

DEFAULT = "zh-CN"
MESSAGE_LANGUAGES = ("zh-CN", "en")
CATALOGS = Path(__file__).parents[1] / "messages"



def normalize(code: str | None) -> str | None:
    """`zh`, `zh_CN.UTF-8`, `zh-Hans` → zh-CN; `en_US` → en; anything else as written (a theme may ship it)."""
    if not code or not isinstance(code, str):
        return None
    low = code.strip().replace("_", "-").split(".")[0].lower()
    if low.startswith("zh"):
        return "zh-CN"
    if low == "en" or low.startswith("en-"):
        return "en"
    return code.strip() or None


def locale_language() -> str | None:
    """The system locale's language when it names Chinese or English; None for C, POSIX or anything else."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            lang = normalize(value)
            return lang if lang in MESSAGE_LANGUAGES else None
    return None


def message_language(cli: str | None = None, site: str | None = None) -> str:
    for choice in (cli, os.environ.get("LESSONKIT_LANG"), site):
        lang = normalize(choice)
        if lang in MESSAGE_LANGUAGES:
            return lang
    return locale_language() or DEFAULT


def is_chinese(lang: str | None = None) -> bool:
    return (lang or message_language()) == "zh-CN"


class Speaker:
    """The command's voice in one language (cli.main makes one per run and hands it to the command as `args.say`):
    `say("built {n} lesson(s)", n=2)`, `say.translate(message)`, `say.problem(problem)`."""

    def __init__(self, lang: str | None = None, root: Path | None = None):
        self.lang = lang or message_language()
        self.root = root  # problems show their files from here (support.errors.project_root)

    def __call__(self, template: str, **values: Any) -> str:
        return say(template, self.lang, **values)

    def translate(self, text: str | None) -> str | None:
        return translate(text, self.lang)

    def problem(self, problem) -> str:
        return problem.render(self.lang, self.root)


# ── messages ────────────────────────────────────────────────────────────────────────────────────────────────────────
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@functools.lru_cache(maxsize=None)
def catalog(lang: str) -> list[tuple[re.Pattern, str]]:
    """(compiled English template, translation) pairs, most specific (longest literal text) first."""
    path = CATALOGS / f"{lang}.yaml"
    if lang == "en" or not path.is_file():
        return []
    pairs = []
    for english, translated in _raw_catalog(lang).items():
        pattern, at = "", 0
        for m in PLACEHOLDER.finditer(english):
            in_code = english[m.start() - 1:m.start()] == "`" == english[m.end():m.end() + 1]
            # a `{name}` in backticks holds no backtick: a message composed of others is not split inside one
            pattern += re.escape(english[at:m.start()]) + f"(?P<{m.group(1)}>{'[^`]' if in_code else '.'}*?)"
            at = m.end()
        pattern += re.escape(english[at:])
        literal = len(PLACEHOLDER.sub("", english))
        pairs.append((literal, re.compile(pattern, re.DOTALL), translated))
    pairs.sort(key=lambda p: -p[0])
    return [(pattern, translated) for _, pattern, translated in pairs]


def translate(text: str | None, lang: str | None = None, depth: int = 0) -> str | None:
    """`text` in `lang` (default: the message language) when the catalog has its template; else unchanged.
    Placeholder values are translated too when they are themselves catalog messages (a did-you-mean hint, `none`)."""
    lang = lang or message_language()
    if not text or depth > 4:
        return text
    for pattern, translated in catalog(lang):
        m = pattern.fullmatch(text)
        if m:
            values = {k: translate(v, lang, depth + 1) if v else v for k, v in m.groupdict().items()}
            return PLACEHOLDER.sub(lambda p: values.get(p.group(1), p.group(0)), translated)
    return text


def is_translated(text: str, lang: str) -> bool:
    return any(pattern.fullmatch(text) for pattern, _ in catalog(lang))


def expected_tail(expected: str, lang: str | None = None) -> str:
    lang = lang or message_language()
    if is_chinese(lang):
        return f"（应为 {translate(expected, lang)}）"
    return f" (expected {translate(expected, lang)})"


def say(template: str, lang: str | None = None, **values: Any) -> str:
    """A line of the command's own output (build summary, headers): the catalog's translation of the template
    itself, then formatted with `values`."""
    lang = lang or message_language()
    return _raw_catalog(lang).get(template, template).format(**values)


@functools.lru_cache(maxsize=None)
def _raw_catalog(lang: str) -> dict[str, str]:
    path = CATALOGS / f"{lang}.yaml"
    if lang == "en" or not path.is_file():
        return {}
    return {str(k): str(v) for k, v in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).items()}


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
            hint = did_you_mean(key, self._strings, "`ui.{}`")
            raise UnknownUiString(f"unknown UI string `ui.{key}`{hint}: it is in none of "
                                  f"{', '.join(str(f) for f in self._files)}") from None

    __getitem__ = __getattr__

    def get(self, key: str, default: str | None = None) -> str | None:
        return self._strings.get(key, default)

    def keys(self) -> list[str]:
        return list(self._strings)


def ui_files(dirs: list[Path], lang: str) -> list[Path]:
    return [d / "i18n" / f"{lang}.yaml" for d in dirs if (d / "i18n" / f"{lang}.yaml").is_file()]


def available_languages(dirs: list[Path]) -> list[str]:
    return sorted({p.stem for d in dirs if (d / "i18n").is_dir() for p in (d / "i18n").glob("*.yaml")})


def load_ui(dirs: list[Path], lang: str) -> UiStrings:
    """The UI strings of `lang` along the theme search path (the chosen theme's keys win). A missing or broken file
    raises ValueError with a message naming it."""
    files = ui_files(dirs, lang)
    if not files:
        raise ValueError(f"no UI strings for language `{lang}`: none of "
                         f"{', '.join(str(d / 'i18n' / (lang + '.yaml')) for d in dirs)} exists")
    strings: dict[str, str] = {}
    for path in reversed(files):  # default theme first, the chosen theme's keys override
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise ValueError(f"{path}: YAML syntax error: {exc}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: not a mapping of UI strings (`key: text` lines)")
        strings.update({str(k): "" if v is None else str(v) for k, v in data.items()})
    return UiStrings(lang, strings, files)
