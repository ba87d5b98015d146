"""content/site.yaml: optional settings for the whole site.

    title: 深度学习十讲                       # index heading and every page's <title>
    description: 每一个数和每一张图都在构建时算出  # a line under the index heading
    budget: {page_kb: 250, gzip_kb: 60}       # page weight limits, KB
    theme: mytheme                            # themes/mytheme/, falling back to themes/default/ (--theme overrides)
    language: en                              # the pages' words (themes/*/i18n/en.yaml) and the build's messages;
                                              # default zh-CN
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..support.errors import ContentError, Problem
from ..support.messages import DEFAULT as DEFAULT_LANGUAGE
from ..support.messages import Message, msg, normalize
from .schema import SITE, check_mapping

DEFAULT_PAGE_KB = 250
DEFAULT_GZIP_KB = 60


@dataclass(frozen=True)
class Budget:
    page_kb: float = DEFAULT_PAGE_KB
    gzip_kb: float = DEFAULT_GZIP_KB
    source: Message = msg("the default budget")


def budget_from(value: Any, path: Path, line: int | None) -> Budget:
    """The `budget` mapping of site.yaml; missing limits keep their defaults."""
    if not isinstance(value, dict) or set(value) - {"page_kb", "gzip_kb"}:
        raise ContentError([Problem(path, line, msg("cannot read `budget`: {value}", value=repr(value)),
                                    "`budget: {page_kb: 250, gzip_kb: 60}` (sizes in KB)")])
    limits = {}
    for key, default in (("page_kb", DEFAULT_PAGE_KB), ("gzip_kb", DEFAULT_GZIP_KB)):
        limit = value.get(key, default)
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) or limit <= 0:
            raise ContentError([Problem(path, line, msg("budget `{key}` is {value}", key=key, value=repr(limit)),
                                        "a positive number of KB (1 KB = 1024 bytes)")])
        limits[key] = limit
    return Budget(limits["page_kb"], limits["gzip_kb"], msg("{path} `budget`", path=path))



SITE_FILE = "site.yaml"
DEFAULT_TITLE = ""  # none: the theme's `site_title` word in the site's language (i18n/<language>.yaml)


@dataclass(frozen=True)
class SiteConfig:
    title: str = DEFAULT_TITLE
    description: str = ""
    budget: Budget = field(default_factory=Budget)
    theme: str = "default"
    language: str = DEFAULT_LANGUAGE
    language_line: int | None = None          # where site.yaml sets it, for a problem about it


def load_site_config(content_dir: Path, problems: list[Problem]) -> SiteConfig:
    """The settings, or the defaults when site.yaml is missing or has problems (added to `problems`)."""
    path = content_dir / SITE_FILE
    if not path.exists():
        return SiteConfig()
    from .lessons import read_yaml

    found: list[Problem] = []
    data, lines = read_yaml(path, found, empty_ok=True)
    found += check_mapping(data, SITE, lines, path) if data else []
    budget = Budget()
    if not found and data.get("budget") is not None:
        try:
            budget = budget_from(data["budget"], path, lines.get("budget"))
        except ContentError as err:
            found += err.problems
    problems += found
    if found:
        return SiteConfig()
    return SiteConfig(data.get("title") or DEFAULT_TITLE, data.get("description") or "", budget,
                      data.get("theme") or "default", normalize(data.get("language")) or DEFAULT_LANGUAGE,
                      lines.get("language"))


def peek_language(content_dir: Path | None) -> str | None:
    """site.yaml's `language:` when it can be read, else None (its problems are reported by the build)."""
    if content_dir is None:
        return None
    try:
        import yaml

        data = yaml.safe_load((Path(content_dir) / SITE_FILE).read_text(encoding="utf-8"))
    except Exception:  # missing, unreadable, not YAML: no setting
        return None
    return normalize(data.get("language")) if isinstance(data, dict) else None
