"""Messages to the author: a template and its parameters, so translating one is a lookup.

A message is written once, in English, where the problem is found: `msg("unknown value `{name}`{hint}",
name=missing, hint=did_you_mean(missing, values))`. `str()` gives the English text; `render(lang)` looks the
template up in `lessonkit/messages/<lang>.yaml` (English template → translation) and formats the translation with
the parameters, each parameter that is itself a Message rendered the same way (a did-you-mean hint, `none`, an
expected text inside another). Any other parameter (a file name, a number, Python's own error text) is shown as it
is. A plain string where a message is expected is a template without parameters, looked up the same way.

Placeholders are `{name}` or `{name:spec}` (a format spec, e.g. `{kb:.1f}`) naming a parameter; any other brace
(`{#id}`, `{{ value }}`) is text. The catalog is read the first time a message is rendered in its language.

The messages' language: `--lang`, else the LESSONKIT_LANG environment variable, else site.yaml's `language:`, else
the system locale (LC_ALL / LC_MESSAGES / LANG: zh… → Chinese, en… → English), else Chinese.
"""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any

from .records import Record

DEFAULT = "zh-CN"
MESSAGE_LANGUAGES = ("zh-CN", "en")
PLACEHOLDER = re.compile(r"\{(\w+)(?::([^{}]*))?\}")


class Message(Record):
    template: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return self.render("en")

    def __bool__(self) -> bool:  # the empty message (no did-you-mean) adds nothing
        return bool(self.template)

    def render(self, lang: str | None = None, words: dict[str, str] | None = None) -> str:
        """The message in `lang` (default: the message language); English when the catalog lacks the template.
        `words`: `lang`'s catalog when the caller holds it (a Speaker keeps it in the store), else it is read."""
        lang = lang or message_language()
        if words is None:
            words = {} if lang == "en" else catalog(lang)
        values = {name: value.render(lang, words) if isinstance(value, Message) else value
                  for name, value in self.params}
        return fill(self.template if lang == "en" else words.get(self.template, self.template), values)


NOTHING = Message("")  # e.g. no did-you-mean


def msg(template: str, /, **params: Any) -> Message:
    return Message(template, tuple(params.items()))


def as_message(text: Message | str) -> Message:
    """A message, or a plain string as a message without parameters: to pass one as a parameter of another."""
    return text if isinstance(text, Message) else Message(str(text))


def joined(items: list[Message | str], conjunction: bool = False) -> Message | str:
    """Messages one after another, `a; b; c` (in Chinese `a；b；c`), or with `conjunction` `a and b and c`; a plain
    string among them is shown as it is."""
    if not items:
        return NOTHING
    *rest, text = items
    for item in reversed(rest):
        text = msg("{first} and {rest}", first=item, rest=text) if conjunction else \
            msg("{first}; {rest}", first=item, rest=text)
    return text


def said(text: Message | str | None, lang: str | None = None, words: dict[str, str] | None = None) -> str:
    """A message, or a plain string taken as a template without parameters, in `lang` (`words` as Message.render)."""
    if text is None:
        return ""
    return as_message(text).render(lang, words)


def to_data(text: Any) -> Any:
    """A message as JSON-able data (for a cache), plain values as they are; `from_data` makes it again."""
    if isinstance(text, Message):
        return {"template": text.template, "params": {name: to_data(value) for name, value in text.params}}
    return text


def from_data(data: Any) -> Any:
    if isinstance(data, dict) and set(data) == {"template", "params"}:
        return Message(data["template"], tuple((name, from_data(value)) for name, value in data["params"].items()))
    return data


def reason(exc: BaseException) -> Message | str:
    """What an exception says: the Message it was raised with (our own checks), else its text (Python's words)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Message) else str(exc)


def fill(template: str, values: dict[str, Any]) -> str:
    def value(m: re.Match) -> str:
        name, spec = m.group(1), m.group(2) or ""
        return format(values[name], spec) if name in values else m.group(0)

    return PLACEHOLDER.sub(value, template) if values else template


def placeholders(template: str) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(template)}


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """English template → translation for `lang` (empty for English, the language the templates are written in);
    read on first use. A language without its catalog in the installed package is our bug, never a silent switch
    to English."""
    path = catalog_path(lang)
    return catalog_file(path) if path else {}


def catalog_path(lang: str) -> Path | None:
    """Where `lang`'s catalog is; None for English (the templates themselves)."""
    from .paths import CATALOGS

    if lang == "en" or lang not in MESSAGE_LANGUAGES:
        return None
    path = CATALOGS / f"{lang}.yaml"
    if not path.is_file():
        raise FileNotFoundError(f"lessonkit's message catalog for {lang} is missing: {path}")
    return path


def catalog_file(path: Path) -> dict[str, str]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the same data, 10× faster
    return {str(k): str(v) for k, v in (yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}).items()}


# ── the language ────────────────────────────────────────────────────────────────────────────────────────────────────
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
