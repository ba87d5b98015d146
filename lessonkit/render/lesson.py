"""One lesson's page context: everything lesson.html displays, rendered to HTML strings in reading order — the
sections first (their placers number figures, tables, toggles and self-checks), then lesson.yaml's fields. The
features place themselves (render/placers.py keeps their registry); the containers are render/containers.py. Each
section, and lesson.yaml's fields together, are taken from the memo of a page's parts when a build rendered them from
the same inputs (render/sectionmemo.py)."""
from __future__ import annotations

from typing import Any

from ..compute.run import ComputedLesson
from ..features import figures, notes
from ..features.bibstyle import runs_html
from ..features.citations import Citer
from ..features import glossary as terms
from ..features.glossary import glossary_entry
from ..features.search import plain_text
from ..load.document import SectionSource
from ..support.errors import ContentError
from ..support.paths import SitePaths
from ..support.records import Record
from . import markup
from .placers import LessonRenderer, PageSetting, _str
from .reading import challenges_of, reading_minutes
from .sectionmemo import section_part


class RenderedLesson(Record):
    """A lesson rendered once: what each of its outputs reads (render/pages.py LESSON_PARTS) — the page's template
    context, the citations as the page numbered them, whether answers are shown, and, for a learning platform, its
    package (render/questions.py). No output reads another's template context."""
    context: dict[str, Any]
    citations: Citer
    answers: bool
    package: Any = None          # render/questions.py LessonPackage (the `lms` format's edition)


def render_lesson(lesson: ComputedLesson, setting: PageSetting) -> RenderedLesson:
    """The lesson rendered: everything lesson.html displays, and what its other outputs read. Fields lesson.yaml
    got wrong (already reported) are left out, so the Markdown of the rest is still checked. Worked answers are
    rendered and checked either way, and left out when the release hides them; a page for a learning platform
    mounts its `scorm` component. The context's `warnings`: what rendering let pass."""
    src, renderer = lesson.source, LessonRenderer(lesson, setting)
    renderer.problems.extend(figures.placed_twice(renderer.figure_places))
    renderer.problems.extend(notes.misplaced(src.sections, src.body_path))
    sections = _sections(renderer)
    fields = _fields(renderer)
    context = {**_head(renderer, fields), "sections": sections, "challenges": fields["challenges"],
               "checks": [c for c in renderer.ledger.alone_checks if c["answer"]],  # standalone checks with an answer
               "sources": fields["sources"], **_edition(renderer)}
    context["references"] = [{**entry, "html": runs_html(entry["runs"])}
                             for entry in renderer.citer.entries(renderer.ui)]
    context["glossary"] = _glossary(renderer)
    renderer.problems.extend(renderer.unplaced())
    if renderer.problems:
        raise ContentError(renderer.problems)
    package = _package(renderer) if setting.edition.lms else None
    if package is not None:
        context["scorm"] = renderer.containers.scorm(package)
    context["warnings"] = list(dict.fromkeys(renderer.ctx.warnings))
    return RenderedLesson(context, renderer.citer, setting.release.answers, package)


def _sections(renderer: LessonRenderer) -> list[dict[str, Any]]:
    """lesson.md's sections in reading order, each with its search text, taken from the section memo when a build
    rendered it from the same inputs (render/sectionmemo.py)."""
    return [_part(renderer, section_part(s, n), lambda s=s, n=n: _section(renderer, s, n))
            for n, s in enumerate(renderer.lesson.source.sections, start=1)]


def _part(renderer: LessonRenderer, what: str, render) -> Any:
    """`render()`'s part of the page, from the memo of a page's parts when the build has one (`what`: sectionmemo's
    SectionMemo.part)."""
    memo = renderer.setting.sections
    return render() if memo is None else memo.part(renderer, what, render)


def _section(renderer: LessonRenderer, section: SectionSource, number: int) -> dict[str, Any]:
    """One section rendered, the first use of each glossary term in it marked (in reading order: the terms met
    before are in the page's ledger), with its search text."""
    src = renderer.lesson.source
    title = markup.render_inline(section.heading, renderer.title_ctx, src.body_path)
    body = markup.render_blocks(section.blocks, renderer.ctx, src.body_path)
    if renderer.setting.course.glossary is not None:
        body = terms.mark_first_uses(body, renderer.setting.course.glossary, renderer.ledger.terms_used)
    return {"id": section.id, "number": number, "title": title, "body": body, "text": plain_text(body)}


def _head(renderer: LessonRenderer, fields: dict[str, Any]) -> dict[str, Any]:
    """What stands above the sections: title, summary, intro, objectives, the opening question."""
    src = renderer.lesson.source
    return {"slug": src.slug, "folder": src.folder, "title": _text(src.meta, "title"),
            "summary": _text(src.meta, "summary"),
            **{name: fields[name] for name in ("intro", "objectives", "question")}}


YAML_FIELDS = "lesson.yaml"   # the part of the page lesson.yaml's fields are (their text is among the lesson's files)


def _fields(renderer: LessonRenderer) -> dict[str, Any]:
    """lesson.yaml's Markdown rendered, after the sections (in the page's reading order: what the sections placed,
    met and numbered is known): intro, objectives, the opening question, the challenges, the sources; taken from the
    memo of a page's parts when a build rendered them from the same inputs (render/sectionmemo.py)."""
    return _part(renderer, YAML_FIELDS, lambda: _render_fields(renderer))


def _render_fields(renderer: LessonRenderer) -> dict[str, Any]:
    src, md = renderer.lesson.source, renderer.md
    return {
        "intro": md("intro", _text(src.meta, "intro")),
        "objectives": [md(f"objectives.{i}", o, inline=True, context=renderer.objective_ctx)
                       for i, o in _texts(src.meta, "objectives")],
        "question": md("question", _text(src.meta, "question")),
        "challenges": _challenges(renderer),
        "sources": [md(f"sources.{i}", s, inline=True) for i, s in _texts(src.meta, "sources")],
    }


def _challenges(renderer: LessonRenderer) -> list[dict[str, Any]]:
    src, md = renderer.lesson.source, renderer.md
    return [{"id": f"challenge-{n}", "number": n,
             "title": renderer.plain(f"challenges.{n - 1}.title", _str(c.get("title"))),
             "question": md(f"challenges.{n - 1}.question", _str(c.get("question"))),
             **dict(zip(("answer", "answer_print"), _answer(renderer, n, _str(c.get("answer"))))),
             "check": renderer.checks.place(f"challenges.{n - 1}", f"check-{n}")}
            for n, c in enumerate(challenges_of(src.meta), start=1)]


def _answer(renderer: LessonRenderer, n: int, text: str) -> tuple[str, str]:
    """A challenge's worked answer on screen and as printed with the answers (its figure copied); checked, then
    left out while the release hides answers: not in the page, its search text or its notebook."""
    key = f"challenges.{n - 1}.answer"
    shown = renderer.md(key, text, context=renderer.answer_ctx)
    if not renderer.setting.release.answers:
        return "", ""
    if not any(place.challenge == n for place in renderer.figure_places):
        return shown, shown
    return shown, renderer.md(key, text, context=renderer.print_ctx)


def _edition(renderer: LessonRenderer) -> dict[str, Any]:
    """What the page says about itself: its notebook, size, and the edition and release it belongs to."""
    src, release, figures = renderer.lesson.source, renderer.setting.release, len(renderer.figure_order)
    return {
        "glossary": [],
        "references": [],
        "notebook": {"url": SitePaths.url(renderer.address, SitePaths.notebook(src.slug))},
        "minutes": reading_minutes(src, figures),
        "draft": release.draft,
        "answers": release.answers,
        "answers_from": release.answers_from.isoformat() if release.answers_from else None,
        "teacher": renderer.setting.edition.teacher,
        "scorm": "",
    }


def _glossary(renderer: LessonRenderer) -> list[dict[str, Any]]:
    """The terms marked in sections, then those marked only in lesson.yaml's text."""
    glossary = renderer.setting.course.glossary
    if glossary is None:
        return []
    used = {**renderer.ledger.terms_used, **renderer.ledger.terms_marked}
    return [glossary_entry(glossary.by_id[i], renderer.setting.course.definitions) for i in used]


def _package(renderer: LessonRenderer):
    """A learning platform's parts of the page: its self-checks (standalone, then the challenges') as questions."""
    from .questions import PlacedCheck, lesson_package  # only an LMS edition's pages need it

    ui, challenges = renderer.ui, challenges_of(renderer.lesson.source.meta)
    placed = [PlacedCheck(c["key"], c["check"]["id"], f"{ui.selfcheck} · {c['name']}",
                          _str(c["entry"].get("question")), _str(c["entry"].get("answer")))
              for c in renderer.ledger.alone_checks if c["check"]]
    placed += [PlacedCheck(f"challenges.{n - 1}", f"check-{n}", f"{ui.challenge} {n} · {_str(c.get('title'))}",
                           _str(c.get("question")), _str(c.get("answer")))
               for n, c in enumerate(challenges, start=1)]
    return lesson_package(renderer.lesson, renderer, renderer.yaml_ctx, placed, renderer.setting.release.answers)


def _text(meta: dict[str, Any], key: str) -> str:
    return meta.get(key) if isinstance(meta.get(key), str) else ""


def _texts(meta: dict[str, Any], key: str) -> list[tuple[int, str]]:
    items = meta.get(key) if isinstance(meta.get(key), list) else []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, str)]
