"""A lesson's page rendered part by part, each part once: edit one paragraph of lesson.md and only its section's
Markdown is rendered again — the other sections and lesson.yaml's fields (intro, objectives, the opening question,
the challenges with their self-checks, the sources) are taken as a build rendered them.

A part is a lesson.md section, or lesson.yaml's fields (rendered after the sections). What its rendering makes is
kept in the store (support/store.py SECTIONS) under a key over everything it is made from (support/cachekeys.py
SectionInputs): the part's own text (a section's; lesson.yaml's is among the lesson's files), the lesson's files but
lesson.md (values, captions, lesson.yaml's text and self-checks, components), its numbering (figures, equations,
placements in reading order, and the page's numbers made before rendering: render/numbering.py), what the parts
before it left (the page's Ledger: widgets, checks and code placed, glossary terms met, citations placed), its
release and the edition, and what
every page shares (engine, packages, theme and its words, site.yaml, glossary.yaml, the course's lessons). An entry
holds what the rest of the page reads of it: its rendering as plain data (a section's title and body HTML with
glossary first uses marked, and its search text: features/search.py plain_text), the problems and warnings its
rendering reported (reported again, the same, when it is taken), the standalone self-checks it placed, the figure
holes in it (render/draft.py: their markers are the build's own, so they are kept as tokens and marked again) and
the renderer's state after it. A build without a cache (`--no-cache`) renders every part.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Callable

from ..support.cachekeys import SectionInputs, folder_digest, section_key
from ..support.records import Mutable, Record, fresh
from ..support.store import SECTIONS, Store

HOLE_TOKEN = "\x1ahole{}\x1a"      # SUB, as render/markup.py's tokens: never in authored text
HOLE_TOKEN_RE = re.compile("\x1ahole(\\d+)\x1a")


class PartEntry(Record):
    value: Any                    # the part as rendered: plain data (strings, lists, dicts …); holes as HOLE_TOKEN
    holes: tuple                  # render/draft.py holes, by token number
    problems: tuple               # what its rendering reported, in order
    warnings: tuple
    checks: tuple                 # the standalone self-checks it placed (the ledger's alone_checks)
    state: tuple                  # the renderer's state after it (its Ledger.state())


class SectionMemo(Mutable):
    """One build's memo of the parts of lesson pages: `shared` is incremental.shared_inputs; `used`: slug → the
    entries each lesson's parts were taken from or kept in (a kept page keeps them)."""
    cache: Store
    shared: str
    used: dict[str, list[str]] = fresh(dict)
    _lessons: dict[str, tuple[str, str, str]] = fresh(dict)

    def part(self, renderer, what: str, render: Callable[[], Any]) -> Any:
        """`render()`'s part of the lesson's page (plain data), taken from the store when a build rendered it from
        the same inputs; `what`: the part's own text that the lesson's files do not hold (section_part), or its
        name (lesson.yaml's fields: their text is among the lesson's files)."""
        key = section_key(self.inputs(renderer, what))
        self.used.setdefault(renderer.lesson.slug, []).append(SECTIONS.entry(key))
        saved = self.cache.get_pickle(SECTIONS, key)
        if isinstance(saved, PartEntry):
            return replay(renderer, saved)
        entry, value = record(renderer, render)
        if entry is not None:
            self.cache.put_pickle(SECTIONS, key, entry)
        return value

    def inputs(self, renderer, what: str) -> SectionInputs:
        lesson, numbering, release = self._lesson(renderer)
        return SectionInputs(shared=self.shared, lesson=lesson, numbering=numbering,
                             release=release, state=repr(renderer.ledger.state()), part=what)

    def _lesson(self, renderer) -> tuple[str, str, str]:
        """The parts of the key every part of the lesson's page shares, made once."""
        src = renderer.lesson.source
        if src.slug not in self._lessons:
            files = folder_digest(src.folder, leave_out=(src.body_path.relative_to(src.folder).as_posix(),))
            lesson = f"{src.slug}\0{src.folder}\0{files}"
            plan = src.plan
            numbering = repr((plan.places, plan.figure_functions, plan.equations, plan.figures, renderer.numbers))
            release = repr((renderer.setting.release, renderer.setting.edition, renderer.address))
            self._lessons[src.slug] = tuple(hashlib.sha256(part.encode()).hexdigest()
                                            for part in (lesson, numbering, release))
        return self._lessons[src.slug]


def section_part(source, number: int) -> str:
    """What a lesson.md section's key holds of the section itself: its id, number, title, first line and what its
    blocks were read from (load/document.py SectionSource.digest)."""
    return repr((source.id, number, source.title, source.line, source.digest))


def record(renderer, render: Callable[[], Any]) -> tuple[PartEntry | None, Any]:
    """Render the part and what an entry keeps of it (None when the rendering is not plain data: then it is
    rendered on every build, never taken wrong)."""
    ctx, holes = renderer.ctx, renderer.setting.holes
    problems, warnings, checks = len(ctx.problems), len(ctx.warnings), len(renderer.ledger.alone_checks)
    value = render()
    marker = re.compile(f"<!--lk-{re.escape(holes.nonce)}-(\\d+)-->")
    found: dict[int, int] = {}

    def token(m: re.Match) -> str:
        return HOLE_TOKEN.format(found.setdefault(int(m.group(1)), len(found)))
    try:
        kept = each_text(value, lambda text: marker.sub(token, text))
    except NotPlain:
        return None, value
    entry = PartEntry(kept, tuple(holes.known[i] for i in found), tuple(ctx.problems[problems:]),
                      tuple(ctx.warnings[warnings:]), tuple(renderer.ledger.alone_checks[checks:]), renderer.ledger.state())
    return entry, value


def replay(renderer, entry: PartEntry) -> Any:
    """The part as rendering it again would make it, and the renderer as it would leave it."""
    marks = [renderer.setting.holes.mark(hole) for hole in entry.holes]

    def unmark(text: str) -> str:
        return HOLE_TOKEN_RE.sub(lambda m: str(marks[int(m.group(1))]), text)
    renderer.ctx.problems.extend(entry.problems)
    renderer.ctx.warnings.extend(entry.warnings)
    renderer.ledger.alone_checks.extend(entry.checks)
    renderer.ledger.restore(entry.state)
    return each_text(entry.value, unmark)


def each_text(value: Any, change: Callable[[str], str]) -> Any:
    """`value` with `change` made to every string in it (not to dictionaries' keys), as a copy. Plain data only
    (str, list, tuple, dict, numbers, None): anything else might hold a marker no token would stand for."""
    if type(value) is str:
        return change(value)
    if type(value) in (list, tuple):
        return type(value)(each_text(item, change) for item in value)
    if type(value) is dict:
        return {key: each_text(item, change) for key, item in value.items()}
    if value is None or type(value) in (bool, int, float):
        return value
    raise NotPlain(type(value).__name__)


class NotPlain(TypeError):
    """A part's rendering holds something but plain data (the type's name): it is not kept."""
