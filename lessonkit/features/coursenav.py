"""Course navigation: the lessons in `order`, each with its sections, for the course contents, the pager (previous
and next lesson) and `@lesson:slug#section` links. The component `lessonkit/themes/default/components/coursenav/`
marks the section being read."""
from __future__ import annotations

import html
from types import MappingProxyType
from typing import Any

from ..support.errors import Miss, Notice
from ..support.messages import msg
from ..support.paths import SitePaths
from ..support.records import Record
from ..support.suggest import did_you_mean
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


class Course(Record):
    """What every page may link to: the lessons in order, with their sections; the glossary's terms, with their
    definitions rendered once for the whole site."""
    lessons: list[dict[str, Any]] = ()
    glossary: Glossary | None = None
    definitions: dict[str, str] = MappingProxyType({})  # (a course without a glossary: read-only, empty)
    parts: list[dict[str, Any]] = ()   # course_parts: the contents grouped, or []
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


def link(page, slug: str, anchor: str | None) -> str | Miss | Notice:
    """`@lesson:SLUG`, `@lesson:SLUG#SECTION`, `@lesson:SLUG#eq:NAME`, `@lesson:SLUG#fig:NAME` on the page
    (features/placing.py Page); a lesson this site does not publish yet (a draft, one released later) is the theme's
    «coming soon», no title and no link."""
    course, ui = page.setting.course, page.ui
    target = course.find(slug)
    if target is None and slug in course.left_out:
        word = html.escape(ui.coming_soon)
        return Notice(f'<span class="lesson-ref lesson-coming">{word}</span>',
                      msg("link to `@lesson:{slug}`, which this site does not publish yet (a draft, or released "
                          "later): the page shows “{word}”", slug=slug, word=ui.coming_soon),
                      msg("links to published lessons (--strict makes this an error)"))
    if target is None:
        slugs = [entry["slug"] for entry in course.lessons]
        return Miss(msg("link to unknown lesson `@lesson:{slug}`{hint}", slug=slug, hint=did_you_mean(slug, slugs)),
                    msg("a lesson folder under content/: {slugs}", slugs=", ".join(slugs) or msg("none")))
    url = SitePaths.url(page.address, SitePaths.lesson(slug))
    title = html.escape(target["title"])
    if anchor is None:
        return _ref(page, url or "#main", title)
    kind, _, name = anchor.partition(":") if anchor.startswith(("eq:", "fig:")) else ("", "", anchor)
    if kind in ("eq", "fig"):
        return _numbered(page, target, slug, url, title, kind, name)
    found = next((s for s in target["sections"] if s["id"] == name), None)
    if found is None:
        ids = [s["id"] for s in target["sections"]]
        return Miss(msg("link to unknown section `@lesson:{target}`{hint}", target=f"{slug}#{name}",
                        hint=did_you_mean(name, ids)),
                    msg("a section id of that lesson: {ids}", ids=", ".join(ids) or msg("none")))
    return _ref(page, f"{url}#{name}", f'{title} · {found["number"]} {html.escape(found["title"])}')


def _numbered(page, target: dict[str, Any], slug: str, url: str, title: str, kind: str, name: str) -> str | Miss:
    """A link to an equation or a figure of a lesson, with its number there."""
    numbers = (target.get("equations") if kind == "eq" else target["figures"]) or {}
    if name not in numbers:
        if kind == "eq":
            return Miss(msg("link to unknown equation `@lesson:{slug}#eq:{name}`{hint}", slug=slug, name=name,
                            hint=did_you_mean(name, numbers)),
                        msg("an equation labelled in that lesson: {names}",
                            names=", ".join(sorted(numbers)) or msg("none")))
        return Miss(msg("link to unknown figure `@lesson:{slug}#fig:{name}`{hint}", slug=slug, name=name,
                        hint=did_you_mean(name, numbers)),
                    msg("a figure placed in that lesson: {names}", names=", ".join(sorted(numbers)) or msg("none")))
    if kind == "eq":
        text = html.escape(page.ctx.equation_words[1].format(n=numbers[name]))
        return _ref(page, f"{url}#eq-{name}", f"{title} · {text}")
    label = f"{html.escape(page.ctx.figure_label)} {numbers[name]}"
    return _ref(page, f"{url}#fig-{name}", f"{title} · {label}")


def _ref(page, href: str, inner: str) -> str:
    """A link to (a place in) a lesson; on a page for a learning platform, which stands alone, the same words
    without a link, unless the place is on the page itself."""
    if page.setting.edition.lms and not href.startswith("#"):
        return f'<span class="lesson-ref">{inner}</span>'
    return f'<a class="lesson-ref" href="{href}">{inner}</a>'
