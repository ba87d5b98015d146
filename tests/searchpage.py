"""Hand-built pages carrying the search component as the engine assembles them (the policy with the hashes of the
inline scripts = the theme's shipped head.js and lesson.js, then the component's widget.js, of the one inline style,
and of the course's index script), for the browser tests and the benchmark: an index page that loads
search-index.js when someone searches, and lesson pages that read their own sections' text from the page."""
from __future__ import annotations

import html
from pathlib import Path

import jinja2

from lessonkit.support import csp
from lessonkit.features import search
from lessonkit.support.i18n import load_ui
from lessonkit.support.paths import BUILTIN_THEMES

PROJECT = Path(__file__).resolve().parents[1]
COMPONENT = BUILTIN_THEMES / "default" / "components" / "search"
# the shipped base code: head.js marks <html class="js">, lesson.js is the lessonkit.widget registry (and
# lessonkit.fill) the component uses
ASSETS = BUILTIN_THEMES / "default" / "assets"
BASE_CSS = ".js-only{display:none}.js .js-only{display:inline}section{min-height:120vh}\n"


def search_box(data: dict, root_id: str = "search") -> str:
    """The root element a theme template writes, around the component's widget.html."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(COMPONENT)), autoescape=True,
                             undefined=jinja2.StrictUndefined)          # as lessonkit.render.templates
    ui = load_ui([COMPONENT.parent.parent], "zh-CN")                    # the words, as lessonkit.render.templates passes them
    inner = env.get_template("widget.html").render(widget={"id": root_id, "kind": "search", "data": data}, ui=ui)
    return (f'<div class="widget widget-search js-only" id="{root_id}" data-widget="search" role="search">\n{inner}'
            f'<script type="application/json" id="{root_id}-data">{search.index_json(data)}</script>\n</div>')


def page(title: str, body: str, data: dict | None) -> str:
    head, *scripts = [path.read_text(encoding="utf-8")
                      for path in (ASSETS / "head.js", ASSETS / "lesson.js", COMPONENT / "widget.js")]
    style = BASE_CSS + (COMPONENT / "widget.css").read_text(encoding="utf-8")
    policy = csp.policy([head, *scripts], [style], script_sources=search.csp_sources(data or {}))
    box = search_box(data) if data is not None else ""
    return (f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n<title>{html.escape(title)}</title>\n'
            f'<style>{style}</style>\n<script>{head}</script>\n</head>\n<body>\n<header>{box}</header>\n'
            f'<main id="main">\n{body}\n</main>\n' + "".join(f"<script>{script}</script>\n" for script in scripts)
            + "</body>\n</html>\n")


def lesson_body(lesson: dict) -> str:
    """A lesson's sections as lesson.html writes them: each labelled by its heading, then its html."""
    return "".join(
        f'<section id="{s["id"]}" aria-labelledby="{s["id"]}-title"><h2 id="{s["id"]}-title">{s["title"]}</h2>'
        f'{s.get("html") or html.escape(s.get("text") or "")}</section>' for s in lesson["sections"] if s["id"])


def on_page(lesson: dict) -> dict:
    """The lesson with each section that has an id marked as shown on its page (as search.lesson_entry marks them)."""
    return {**lesson, "sections": [{**s, "page": bool(s["id"])} for s in lesson["sections"]]}


def write_index(folder: Path, lessons: list[dict], title: str = "课程") -> Path:
    """folder/index.html searching every lesson through folder/search-index.js (written too); returns the page."""
    folder.mkdir(parents=True, exist_ok=True)
    course = search.course_index(lessons)
    (folder / search.INDEX_FILE).write_text(course.script, encoding="utf-8")
    items = "".join(f'<li><a href="{l["slug"]}/index.html">{html.escape(l["title"])}</a></li>' for l in lessons)
    (folder / "index.html").write_text(page(title, f"<h1>{title}</h1><ol>{items}</ol>", course.box), encoding="utf-8")
    return folder / "index.html"


def write_site(folder: Path, lessons: list[dict], lesson_pages: bool = True) -> Path:
    """folder/index.html searching every lesson, and folder/SLUG/index.html searching its own; returns folder."""
    write_index(folder, lessons)
    for lesson in lessons if lesson_pages else []:
        body = f'<h1>{html.escape(lesson["title"])}</h1>{lesson_body(lesson)}<p><a href="../index.html">返回</a></p>'
        data = search.search_index([on_page(lesson)], here=lesson["slug"], root="../")
        (folder / lesson["slug"]).mkdir(exist_ok=True)
        (folder / lesson["slug"] / "index.html").write_text(page(lesson["title"], body, data), encoding="utf-8")
    return folder
