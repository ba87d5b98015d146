"""The glossary's definitions as every page shows them (Markdown → HTML, once per build), kept in the build's cache
(support/store.py DEFINITIONS) under a key of all they are made from."""
from __future__ import annotations

import hashlib
import json

from ..features import glossary as terms
from ..features.bibstyle import author_year_only
from ..features.bibtex import Bibliography
from ..support import cachekeys
from ..support.errors import Problem
from ..support.messages import message_language
from ..support.store import DEFINITIONS
from . import markup

DEFINITIONS_FORMAT = "definitions-1"


def render_definitions(glossary: terms.Glossary, problems: list[Problem],
                       converters: markup.Converters | None = None, bibliography: Bibliography | None = None,
                       ui=None) -> dict[str, str]:
    """Each term's definition, Markdown → HTML (inline: one or two sentences, $math$ allowed, `@key` as the
    authors and year of the course's references.bib), once per build."""
    ctx = markup.MarkupContext(values={}, figure_numbers={}, placers={}, render_callout=lambda block: "",
                               converters=converters or markup.Converters())
    if ui is not None:
        ctx.cite_narrative = author_year_only(bibliography, ui)
    out = {t.id: markup.inline_markdown(t.definition, ctx, glossary.path, t.definition_line) for t in glossary.terms}
    problems += ctx.problems
    return out


def kept_definitions(glossary: terms.Glossary, problems: list[Problem], renderer) -> dict[str, str]:
    """render_definitions, from the build's cache (DEFINITIONS) when a build rendered the same definitions with the
    same words, references and engine: its problems are reported again. The entry joins every lesson page's made-of
    (`renderer`: render/pages.py Renderer; render_site), so it is kept while they are."""
    key = definitions_key(glossary, renderer.bibliography, renderer.ui) \
        if renderer.cache is not None and renderer.cache.enabled else None
    if key is None:
        return render_definitions(glossary, problems, renderer.converters, renderer.bibliography, renderer.ui)
    renderer.made_of = (*renderer.made_of, DEFINITIONS.entry(key))
    saved = renderer.cache.get_pickle(DEFINITIONS, key)
    if isinstance(saved, tuple) and len(saved) == 2 and isinstance(saved[0], dict):
        problems += saved[1]
        return dict(saved[0])
    found: list[Problem] = []
    definitions = render_definitions(glossary, found, renderer.converters, renderer.bibliography, renderer.ui)
    renderer.cache.put_pickle(DEFINITIONS, key, (definitions, tuple(found)))
    problems += found
    return definitions


def definitions_key(glossary: terms.Glossary, bibliography: Bibliography | None, ui) -> str | None:
    """The key of the glossary's definitions in the build's cache: a hash over all render_definitions reads — each
    term's id, definition and its line, glossary.yaml's path (problems name it), the course's references.bib (its
    digest: its bytes and their reading), the theme's words and language, what pages are made by (Python, the
    engine's code, the packages: cachekeys.page_engine), the messages' language. None (not cached) when a
    definition shows an image (a file beside glossary.yaml the key does not read) or the bibliography has no
    digest."""
    if any("![" in term.definition for term in glossary.terms):
        return None
    if bibliography is not None and not bibliography.digest and (bibliography.entries or not bibliography.unread):
        return None
    h = hashlib.sha256(f"{DEFINITIONS_FORMAT}\0{cachekeys.page_engine()}\0".encode())
    h.update(json.dumps([
        str(glossary.path),
        [[t.id, t.definition, t.definition_line] for t in glossary.terms],
        None if bibliography is None else [bibliography.digest, bibliography.unread],
        None if ui is None else [ui.lang, {k: str(ui[k]) for k in ui.keys()}],
        message_language()], ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return h.hexdigest()
