"""Where things are: the project's own folders (the defaults for --content, --themes-dir, --out), and `SitePaths`,
the one owner of every path the build writes and of the URL from one page to another."""
from __future__ import annotations

import posixpath
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


class SitePaths:
    """Output paths, relative to the site folder, with `/` separators. Nothing else spells them."""

    INDEX = "index.html"
    GLOSSARY = "glossary.html"   # beside index.html: every `<slug>/index.html` is a lesson
    NOJEKYLL = ".nojekyll"       # GitHub Pages serves folders starting with _ only with it
    SEARCH_INDEX = "search-index.js"  # the course's search index, loaded by the index page when someone searches

    @staticmethod
    def lesson(slug: str) -> str:
        return f"{slug}/index.html"

    @staticmethod
    def lesson_slug(page: str) -> str | None:
        """The slug of a lesson page's path, None for any other page."""
        head, _, tail = page.partition("/")
        return head if tail == "index.html" and "/" not in head and head else None

    @staticmethod
    def notebook(slug: str) -> str:
        """The lesson's Jupyter notebook (features/notebook.py), beside its page: the page links `<slug>.ipynb`."""
        return f"{slug}/{slug}.ipynb"

    @staticmethod
    def pdf(slug: str, answers: bool = False) -> str:
        return f"{slug}-answers.pdf" if answers else f"{slug}.pdf"

    @staticmethod
    def slides_pdf(slug: str, answers: bool = False) -> str:
        return f"{slug}-slides-answers.pdf" if answers else f"{slug}-slides.pdf"

    @staticmethod
    def pptx(slug: str) -> str:
        return f"{slug}.pptx"

    @staticmethod
    def root(page: str) -> str:
        """The way from `page` to the site's root: "" for index.html, "../" for a lesson page."""
        return "../" * page.count("/")

    @classmethod
    def url(cls, page: str, target: str, anchor: str | None = None) -> str:
        """The relative URL from `page` to `target` (both output paths), `#anchor` added; on the page itself only
        the anchor (or "" for its top)."""
        if target == page:
            link = ""
        else:
            link = posixpath.relpath(target, posixpath.dirname(page) or ".")
        return f"{link}#{anchor}" if anchor else link
