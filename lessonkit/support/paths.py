"""Where things are: the files that ship inside the installed package (`PACKAGE`: the built-in theme, the message
catalogs, the scaffolds), and `SitePaths`, the one owner of every path the build writes and of the URL from one
page to another. The author's project (content/, themes/, output/, .cache/) is `support.project.Project`."""
from __future__ import annotations

import posixpath
from pathlib import Path


def _package_dir() -> Path:
    """lessonkit's own folder, where the import system found this module (never through the current folder): an
    installed lessonkit reads its theme and catalogs from site-packages and writes nothing there. (Not through
    importlib.resources, whose import costs every command more than this folder's lookup.)"""
    root = Path(__file__).resolve().parents[1]
    if not root.is_dir():  # a zipped install: Jinja and the watcher need real files
        raise RuntimeError(f"lessonkit must be installed as files, not inside {root.parent}")
    return root


PACKAGE = _package_dir()
BUILTIN_THEMES = PACKAGE / "themes"     # the built-in theme, `default`; a project's themes/ overrides its files
CATALOGS = PACKAGE / "messages"         # the messages to the author, one catalog per language but English
SCAFFOLDS = PACKAGE / "scaffold"        # what `new` and `init` copy


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
    def figure_data(slug: str, csv_name: str) -> str:
        """A CSV of every row a figure of the lesson plots (features/figdata.py), in a folder beside its page."""
        return f"{slug}/data/{csv_name}"

    @staticmethod
    def pdf(slug: str) -> str:
        return f"{slug}.pdf"   # (the teacher's, in the teacher's edition's own folder)

    @staticmethod
    def slides_pdf(slug: str) -> str:
        return f"{slug}-slides.pdf"

    @staticmethod
    def pptx(slug: str) -> str:
        return f"{slug}.pptx"

    @classmethod
    def made_from_page(cls, slug: str) -> tuple[str, ...]:
        """What `pdf` and `slides` make of a lesson's page, beside the site: kept by a build that leaves the page
        as it was (write/output.py)."""
        return (cls.pdf(slug), cls.slides_pdf(slug), cls.pptx(slug))

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
