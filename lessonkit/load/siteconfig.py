"""content/site.yaml: optional settings for the whole site.

    title: 深度学习十讲                       # index heading and every page's <title>
    description: 每一个数和每一张图都在构建时算出  # a line under the index heading
    budget: {page_kb: 250, gzip_kb: 60}       # page weight limits, KB
    theme: mytheme                            # themes/mytheme/, falling back to themes/default/ (--theme overrides)
    language: en                              # the pages' words (themes/*/i18n/en.yaml) and the build's messages;
                                              # default zh-CN
    parts:                                    # the course in parts (chapters of a book): the contents, the index
      - title: 第一部分 基础                   # page and previous/next follow it; every lesson in exactly one part
        lessons: [softmax-basics, attention]
    answers: hidden                           # worked answers out of the students' site (or a day: 2027-07-01)
    timezone: Asia/Shanghai                   # whose day decides releases (load/release.py)
"""
from __future__ import annotations

from pathlib import Path

from ..support.errors import ContentError, Problem, UsageError
from ..support.messages import DEFAULT as DEFAULT_LANGUAGE
from ..support.messages import msg, normalize
from ..support.project import VERSION_KEY, Project
from ..support.records import Record
from ..support.store import Store
from .release import DEFAULT_TIMEZONE, SHOWN, answers_problem, timezone_problem
from .budget import DEFAULT_GZIP_KB, DEFAULT_PAGE_KB, Budget, budget_from  # noqa: F401 (the site's budget)
from .schema import SITE, check_mapping

SITE_FILE = "site.yaml"
DEFAULT_TITLE = ""  # none: the theme's `site_title` word in the site's language (i18n/<language>.yaml)


class Part(Record):
    title: str
    lessons: tuple[str, ...]
    line: int | None                          # of the part's item in site.yaml
    lesson_lines: tuple[int | None, ...]      # of each slug


class SiteConfig(Record):
    title: str = DEFAULT_TITLE
    description: str = ""
    budget: Budget = Budget()
    theme: str = "default"
    language: str = DEFAULT_LANGUAGE
    language_line: int | None = None          # where site.yaml sets it, for a problem about it
    parts: tuple[Part, ...] = ()              # none: the lessons in `order`, then by folder name
    parts_line: int | None = None
    answers: str = SHOWN                      # load/release.py: shown, hidden or a day (a lesson's own wins)
    timezone: str = DEFAULT_TIMEZONE

    def course_order(self) -> list[str] | None:
        """The slugs in the parts' order, or None when the site has no parts."""
        return [slug for part in self.parts for slug in part.lessons] if self.parts else None


def load_site_config(content_dir: Path, problems: list[Problem], store: Store | None = None) -> SiteConfig:
    """The settings, or the defaults when site.yaml is missing or has problems (added to `problems`). Its reading
    is kept in `store` (support/readings.py)."""
    path = content_dir / SITE_FILE
    if not path.exists():
        return SiteConfig()
    from .lessons import read_yaml

    found: list[Problem] = []
    data, lines = read_yaml(path, found, empty_ok=True, store=store)
    found += check_mapping(data, SITE, lines, path) if data else []
    budget = Budget()
    found += [p for p in (answers_problem(data.get("answers"), path, lines.get("answers")) if data else None,
                          timezone_problem(data.get("timezone"), path, lines.get("timezone")) if data else None) if p]
    if not found and data.get("budget") is not None:
        try:
            budget = budget_from(data["budget"], path, lines.get("budget"))
        except ContentError as err:
            found += err.problems
    problems += found
    if found:
        return SiteConfig()
    parts = tuple(Part(part["title"], tuple(part["lessons"]), lines.get(f"parts.{i}"),
                       tuple(lines.get(f"parts.{i}.lessons.{j}") for j in range(len(part["lessons"]))))
                  for i, part in enumerate(data.get("parts") or []))
    return SiteConfig(data.get("title") or DEFAULT_TITLE, data.get("description") or "", budget,
                      data.get("theme") or "default", normalize(data.get("language")) or DEFAULT_LANGUAGE,
                      lines.get("language"), parts, lines.get("parts"), data.get("answers") or SHOWN,
                      data.get("timezone") or DEFAULT_TIMEZONE)


def check_parts(config: SiteConfig, slugs: list[str], content_dir: Path) -> list[Problem]:
    """site.yaml's parts against the lesson folders: every slug a lesson, every lesson in exactly one part."""
    if not config.parts:
        return []
    from ..support.suggest import did_you_mean

    path, problems, placed = content_dir / SITE_FILE, [], {}
    for number, part in enumerate(config.parts, start=1):
        for slug, line in zip(part.lessons, part.lesson_lines):
            if slug not in slugs:
                problems.append(Problem(path, line, msg("unknown lesson `{slug}` in part {n}{hint}", slug=slug,
                                                        n=number, hint=did_you_mean(slug, slugs)),
                                        msg("a lesson folder under content/: {slugs}",
                                            slugs=", ".join(slugs) or msg("none"))))
            elif slug in placed:
                first, part_of_first = placed[slug]
                said = msg("lesson `{slug}` is listed twice in part {n} (first at line {line})", slug=slug,
                           n=number, line=first) if part_of_first == number else \
                    msg("lesson `{slug}` is in two parts (first at line {line})", slug=slug, line=first)
                problems.append(Problem(path, line, said, msg("each lesson in exactly one part")))
            placed.setdefault(slug, (line, number))
    left_out = [slug for slug in slugs if slug not in placed]
    if left_out:
        problems.append(Problem(path, config.parts_line, msg("lessons in no part: {slugs}", slugs=", ".join(left_out)),
                                msg("every lesson in exactly one part (`lessons: [slug, …]` of a part)")))
    return problems


def peek_language(content_dir: Path | None, store: Store | None = None) -> str | None:
    """site.yaml's `language:` when it can be read, else None (its problems are reported by the build). Read as the
    build reads it, its reading only looked for in `store` (the command has not yet checked its options)."""
    if content_dir is None or not (Path(content_dir) / SITE_FILE).is_file():
        return None
    from .lessons import read_yaml

    data, _ = read_yaml(Path(content_dir) / SITE_FILE, [], empty_ok=True, store=store, keep=False)
    return normalize(data.get("language"))


def check_version(project: Project, installed: str, store: Store | None = None) -> None:
    """site.yaml's `lessonkit:` requirement against the installed version: another version stops every command
    before it writes anything, naming the file, the requirement and what is installed. site.yaml is read as the
    build reads it (its reading only looked for in `store`); its other problems are the build's."""
    path = project.site_file
    if not path.is_file():
        return
    from .lessons import read_yaml

    data, lines = read_yaml(path, [], empty_ok=True, store=store, keep=False)
    value = data.get(VERSION_KEY)
    if value is None or isinstance(value, (dict, list)):
        return
    requirement, line = str(value).strip(), lines.get(VERSION_KEY)
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        specifiers = SpecifierSet(requirement)
    except InvalidSpecifier:
        raise ContentError([Problem(path, line, msg("`{key}: {value}` is not a version requirement",
                                                    key=VERSION_KEY, value=requirement),
                                    msg("PEP 440 specifiers, e.g. `{key}: \">=0.2,<0.3\"`", key=VERSION_KEY))])
    if not specifiers.contains(installed, prereleases=True):
        raise UsageError(msg("{path}:{line}: this course requires lessonkit {requirement}, but {installed} is "
                             "installed: `pip install \"lessonkit{requirement}\"`, or change the requirement",
                             path=path, line=line, requirement=requirement, installed=installed))
