"""Course navigation: the lessons in `order`, each with its sections, for the course contents, the pager (previous
and next lesson) and `@lesson:slug#section` links. The component `lessonkit/themes/default/components/coursenav/`
marks the section being read."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..support.paths import SitePaths
from .glossary import Glossary

UNORDERED = 10**6  # lessons without `order` come after those with one, by slug


def order_key(meta: dict[str, Any], slug: str) -> tuple[int, str]:
    order = meta.get("order")
    return (order if isinstance(order, int) and not isinstance(order, bool) else UNORDERED), slug


def in_course_order(lessons, parts_order: list[str] | None = None) -> list:
    """Lesson sources, or computed lessons (which carry theirs as `.source`), in course order: site.yaml's parts
    when it has them (`parts_order`: every slug, part after part), else `order`, then the folder name."""
    def key(lesson):
        source = getattr(lesson, "source", lesson)
        if parts_order is not None:
            return (parts_order.index(source.slug) if source.slug in parts_order else len(parts_order)), source.slug
        return order_key(source.meta, source.slug)
    return sorted(lessons, key=key)


def course_parts(parts, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """site.yaml's parts (load.siteconfig.Part) with their lessons' entries, for the contents and the index page;
    [] when the site has none."""
    by_slug = {entry["slug"]: entry for entry in entries}
    return [{"title": part.title, "lessons": [by_slug[slug] for slug in part.lessons if slug in by_slug]}
            for part in parts]


@dataclass
class Course:
    """What every page may link to: the lessons in order, with their sections; the glossary's terms, with their
    definitions rendered once for the whole site."""
    lessons: list[dict[str, Any]] = field(default_factory=list)
    glossary: Glossary | None = None
    definitions: dict[str, str] = field(default_factory=dict)
    parts: list[dict[str, Any]] = field(default_factory=list)   # course_parts: the contents grouped, or []
    left_out: frozenset[str] = frozenset()  # lessons of the course this site does not publish yet (load/release.py)

    def find(self, slug: str) -> dict[str, Any] | None:
        return next((entry for entry in self.lessons if entry["slug"] == slug), None)


def course_entry(source) -> dict[str, Any]:
    """A lesson as the course contents list it: title, address from the site root, numbered sections."""
    title = source.meta.get("title") if isinstance(source.meta.get("title"), str) else source.slug
    return {"slug": source.slug, "title": title, "url": SitePaths.lesson(source.slug),
            "sections": [{"id": s.id, "number": n, "title": s.title} for n, s in enumerate(source.sections, start=1)],
            "figures": source.plan.figures,       # for `@lesson:SLUG#fig:NAME`
            "equations": source.plan.equations}   # for `@lesson:SLUG#eq:NAME`


def pager_link(page: str, context: dict[str, Any]) -> dict[str, str]:
    """The previous or next lesson, as the pager on `page` links to it."""
    return {"title": context["title"], "url": SitePaths.url(page, SitePaths.lesson(context["slug"]))}
