"""Hand-built pages carrying the search component, as the engine will assemble them (CSP, one inline script = a
base registry shim as in the widget contract + widget.js, one inline style), for the browser test and the benchmark
before the engine places the component itself."""
from __future__ import annotations

import html
from pathlib import Path

import jinja2

from lessonkit.support import csp

from lessonkit.features import search
from lessonkit.support.i18n import load_ui

PROJECT = Path(__file__).resolve().parents[1]
COMPONENT = PROJECT / "themes" / "default" / "components" / "search"

# the contract's lessonkit.widget registry, as themes/default/assets/lesson.js will define it
SHIM = """(function () {
  'use strict';
  var doc = document, kinds = {};
  doc.documentElement.classList.add('js');
  function all(sel, el) { return Array.prototype.slice.call((el || doc).querySelectorAll(sel)); }
  window.lessonkit = {widget: function (kind, init) { kinds[kind] = init; }, all: all,
                      one: function (sel, el) { return (el || doc).querySelector(sel); }};
  doc.addEventListener('DOMContentLoaded', function () {
    Object.keys(kinds).sort().forEach(function (kind) {
      all('[data-widget="' + kind + '"]').forEach(function (root) {
        var s = doc.getElementById(root.id + '-data'), data = null;
        try { data = s ? JSON.parse(s.textContent) : null; } catch (e) { data = null; }
        kinds[kind](root, data);
      });
    });
  });
})();
"""
BASE_CSS = ".js-only{display:none}.js .js-only{display:inline}section{min-height:120vh}\n"


def json_script(data) -> str:
    return search.index_json(data)


def search_box(data: dict, root_id: str = "search") -> str:
    """The root element a theme template writes, around the component's widget.html."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(COMPONENT)), autoescape=True,
                             undefined=jinja2.StrictUndefined)          # as lessonkit.render.templates
    ui = load_ui([COMPONENT.parent.parent], "zh-CN")                    # the words, as lessonkit.render.templates passes them
    inner = env.get_template("widget.html").render(widget={"id": root_id, "kind": "search", "data": data}, ui=ui)
    return (f'<div class="widget widget-search js-only" id="{root_id}" data-widget="search" role="search">\n{inner}'
            f'<script type="application/json" id="{root_id}-data">{json_script(data)}</script>\n</div>')


def page(title: str, body: str, data: dict | None) -> str:
    script = SHIM + (COMPONENT / "widget.js").read_text(encoding="utf-8")
    style = BASE_CSS + (COMPONENT / "widget.css").read_text(encoding="utf-8")
    policy = csp.policy([script], [style])
    box = search_box(data) if data is not None else ""
    return (f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n<title>{html.escape(title)}</title>\n'
            f'<style>{style}</style>\n</head>\n<body>\n<header>{box}</header>\n<main id="main">\n{body}\n</main>\n'
            f'<script>{script}</script>\n</body>\n</html>\n')


def write_site(folder: Path, lessons: list[dict], lesson_pages: bool = True) -> Path:
    """folder/index.html searching every lesson, and folder/SLUG/index.html searching its own; returns folder."""
    folder.mkdir(parents=True, exist_ok=True)
    items = "".join(f'<li><a href="{l["slug"]}/index.html">{html.escape(l["title"])}</a></li>' for l in lessons)
    (folder / "index.html").write_text(page("课程", f"<h1>课程</h1><ol>{items}</ol>", search.search_index(lessons)),
                                       encoding="utf-8")
    for lesson in lessons if lesson_pages else []:
        sections = "".join(
            f'<section id="{s["id"]}"><h2>{s["title"]}</h2>{s.get("html") or html.escape(s.get("text") or "")}'
            f'</section>' for s in lesson["sections"] if s["id"])
        body = f'<h1>{html.escape(lesson["title"])}</h1>{sections}<p><a href="../index.html">返回</a></p>'
        data = search.search_index([lesson], here=lesson["slug"], root="../")
        (folder / lesson["slug"]).mkdir(exist_ok=True)
        (folder / lesson["slug"] / "index.html").write_text(page(lesson["title"], body, data), encoding="utf-8")
    return folder
