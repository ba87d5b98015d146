"""A lesson as a learning platform's package needs it (`lessonkit export`, lessonkit/export/): its title and
objectives, its mastery percentage, and each self-check as a question — its text, labels, choices, hints and worked
answer rendered from the same Markdown and values as the page, but with maths kept as TeX (values filled in) for the
platform's TeX filter and pictures as files beside the text. The accepted intervals, known mistakes and their words,
and the correct choices are the page's own (features/selfcheck_page.py Placement.parts), never worked out again.

Rendered in the render stage of an LMS edition (load/release.py Edition.lms) and handed, as plain data, through the
build's report to the export."""
from __future__ import annotations

import hashlib
import html
from typing import Any

from ..features.search import plain_text
from ..features.selfcheck_page import Placement
from ..load.lms import mastery_of
from . import markup
from ..support.records import Record

PICTURE_URL = "@@PLUGINFILE@@/"  # how a Moodle text refers to a file stored with it
EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp",
              "image/svg+xml": "svg"}


class Picture(Record):
    name: str                 # its file name beside the text, e.g. decay_curve.png
    figure: str | None        # a figure of lesson.py (its PNG, drawn with the page's figures) …
    data: bytes = b""         # … or an image file of the lesson folder, as it is


class Question(Record):
    id: str                   # the self-check's root id on the page (check-1, check-power): its SCORM interactions'
    name: str                 # plain text, e.g. 挑战 1 · 剩多少
    text: str                 # HTML: maths as TeX, pictures as PICTURE_URL + name
    check: dict[str, Any]     # Placement.parts: the template's context (labels, units, choices' and hints' HTML) …
    data: dict[str, Any]      # … and the script's data (accepted intervals, mistakes and their words, the correct
                              # choices and their feedback), exactly as the page carries them
    answer: str = ""          # the worked answer (HTML like `text`); "" when it has none or answers are hidden


class LessonPackage(Record):
    slug: str
    title: str
    summary: str
    objectives: tuple[str, ...]   # plain text, values filled in, maths as TeX
    language: str                 # the pages' language, e.g. zh-CN
    mastery: float                # lesson.yaml's `mastery:` (load/lms.py)
    questions: tuple[Question, ...]
    pictures: tuple[Picture, ...]

    @property
    def check_ids(self) -> list[str]:
        return [q.id for q in self.questions]


class PlacedCheck(Record):
    """A self-check as the page places it: its lesson.yaml key, its root id, its name, and its entry's Markdown."""
    key: str
    id: str
    name: str
    question: str
    answer: str


def lesson_package(lesson, renderer, yaml_ctx: markup.MarkupContext, placed: list[PlacedCheck],
                   answers: bool) -> LessonPackage:
    """`renderer`: the lesson's render/placers.py LessonRenderer; `yaml_ctx`: the context lesson.yaml's Markdown was
    rendered with; `placed`: the page's self-checks in reading order; `answers`: worked answers are published."""
    src, ui = lesson.source, renderer.ui
    tex = TexText(lesson, renderer, yaml_ctx)
    placement = Placement(lesson.checks, ui, tex.markdown, renderer.plain)
    questions = []
    for check in placed:
        parts = placement.parts(check.key, check.id)
        if parts is None or not parts[0]["has_check"]:
            continue
        text = tex.markdown(f"{check.key}.question", check.question)
        answer = tex.markdown(f"{check.key}.answer", check.answer) if answers and check.answer.strip() else ""
        questions.append(Question(check.id, check.name, text, *parts, answer))
    objectives = src.meta.get("objectives") if isinstance(src.meta.get("objectives"), list) else []
    return LessonPackage(src.slug, _text(src.meta.get("title")), _text(src.meta.get("summary")),
                         tuple(plain_text(tex.markdown(f"objectives.{i}", o, inline=True))
                               for i, o in enumerate(objectives) if isinstance(o, str)),
                         ui.lang, mastery_of(src.meta), tuple(questions), tuple(tex.pictures.values()))


class TexText:
    """lesson.yaml's Markdown as a question bank shows it: the page's rendering with maths as TeX, figures and
    images as pictures beside the text, glossary terms as plain words. Problems are the page's to report (the same
    text is rendered for the page), so they are dropped here."""

    def __init__(self, lesson, renderer, yaml_ctx: markup.MarkupContext):
        self.lesson, self.renderer, self.pictures = lesson, renderer, {}
        self.ctx = yaml_ctx._replace(math="tex", picture=self.image, problems=[], warnings=[],
            placers={**yaml_ctx.placers, "figure": self.figure},
            mark_term=lambda name, shown: html.escape((shown or name).strip() or name))

    def markdown(self, key: str, text: str, inline: bool = False) -> str:
        return self.renderer.md(key, text, inline, context=self.ctx)

    def figure(self, name: str, args: tuple[str, ...], at=None) -> str:
        spec = self.lesson.registry.figures.get(name)
        if spec is None:
            return ""  # the page reports it
        alt = markup.plain(spec.alt, self.ctx, self.lesson.source.code_path, spec.line or 1)
        return f"<p>{self.place(Picture(f'{name}.png', name), alt)}</p>"

    def image(self, mime: str, data: bytes, alt: str) -> str:
        name = f"image-{hashlib.sha256(data).hexdigest()[:12]}.{EXTENSIONS[mime]}"
        return self.place(Picture(name, None, data), alt)

    def place(self, picture: Picture, alt: str) -> str:
        self.pictures[picture.name] = picture
        return f'<img src="{PICTURE_URL}{picture.name}" alt="{html.escape(alt)}">'


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
