"""CommonMark conformance: every example of the CommonMark spec (tests/fixtures/commonmark/, its README says whence and
under which licence) rendered through lessonkit's whole pipeline — our parser, our rules, our tree, render/markup.py —
gives the spec's HTML, up to the differences HTML itself does not see (`normalise`). The examples our syntax or our
pages change on purpose are listed in EXCEPTIONS with why, and must still differ, so that the list cannot rot."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from lessonkit.render.markup import MarkupContext, markdown
from test_cjk_emphasis import EXAMPLES

PATH = Path("content/demo/lesson.md")


# ── the normaliser ──────────────────────────────────────────────────────────────────────────────────────────────────
# In the spirit of the CommonMark project's test/normalize.py: two HTML texts that a browser reads as the same
# document compare equal; nothing else does. Every tag, attribute and character of text is kept.
BLOCK_TAGS = frozenset("""article aside blockquote body button canvas caption col colgroup dd div dl dt embed
    fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr iframe li map object ol output p pre
    progress script section style table tbody td textarea tfoot th thead tr ul video""".split())
KEEP_WHITESPACE = frozenset({"pre", "textarea", "script", "style"})   # whose text a browser keeps as written
WHITESPACE = re.compile(r"[ \t\n\r\f]+")
CDATA = re.compile(r"(<!\[CDATA\[.*?\]\]>)", re.DOTALL)
PRE_END = re.compile(r"\n((?:</code>)?</pre>)")


class Normaliser(HTMLParser):
    """Rules, each a difference no browser sees:
    1. runs of whitespace in text are one space, except inside <pre>, <textarea>, <script>, <style> (HTML's
       white-space collapsing);
    2. whitespace next to a block-level tag (<p>, <li>, <pre> …, BLOCK_TAGS) is dropped: it renders nothing;
    3. character references are read (convert_charrefs: `&quot;` and `"`, `&#35;` and `#`, `&ouml;` and `ö` are one
       character) and written back with only `&`, `<`, `>` and `"` as references, in text and in attribute values;
    4. tag and attribute names are lower case, attributes sorted by name (HTML ignores their order);
    5. a void element's self-closing slash is dropped (`<br />` is `<br>`, `<hr />` is `<hr>`);
    6. comments, declarations, processing instructions and CDATA sections are kept as they are written;
    7. the one newline that ends a <pre>'s text is dropped: a line break at the end of a block starts no line (our
       pages are written without it, tests/test_markup.py); a second one, a blank line, stays."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[str, str]] = []   # (kind, HTML): kind "text" (collapsible), "block" tag, or "other"
        self.kept = 0   # how many KEEP_WHITESPACE elements are open

    def handle_data(self, data):
        if self.kept:
            self.pieces.append(("other", _escape(data)))
        else:
            self.pieces.append(("text", _escape(WHITESPACE.sub(" ", data))))

    def handle_starttag(self, tag, attrs):
        shown = "".join(f" {name}" if value is None else f' {name}="{_escape(value)}"' for name, value in sorted(attrs))
        self.tag(tag, f"<{tag}{shown}>")
        self.kept += tag in KEEP_WHITESPACE

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.kept -= tag in KEEP_WHITESPACE

    def handle_endtag(self, tag):
        self.kept -= tag in KEEP_WHITESPACE and self.kept > 0
        self.tag(tag, f"</{tag}>")

    def tag(self, name, markup):
        self.pieces.append(("block" if name in BLOCK_TAGS and not self.kept else "other", markup))

    def handle_comment(self, data):
        self.pieces.append(("other", f"<!--{data}-->"))

    def handle_decl(self, decl):
        self.pieces.append(("other", f"<!{decl}>"))

    def unknown_decl(self, data):
        self.pieces.append(("other", f"<![{data}]>"))

    def handle_pi(self, data):
        self.pieces.append(("other", f"<?{data}>"))


def _escape(text: str) -> str:
    """Rule 3: `&`, `<`, `>`, `"` as references, every other character as itself (one spelling for each text)."""
    return html.escape(text, quote=True).replace("&#x27;", "'")


def _pieces(markup: str) -> list[tuple[str, str]]:
    """`markup` read by the Normaliser; a CDATA section, which HTMLParser cannot read, passed on as written."""
    pieces = []
    for k, chunk in enumerate(CDATA.split(markup)):
        if k % 2:
            pieces.append(("other", chunk))
            continue
        parser = Normaliser()
        parser.feed(chunk)
        parser.close()
        pieces += parser.pieces
    return pieces


def normalise(markup: str) -> str:
    """`markup` in the canonical form of Normaliser's rules."""
    merged: list[list[str]] = []   # consecutive text pieces joined, so rule 1 sees a whole run
    for kind, shown in _pieces(markup):
        if kind == "text" and merged and merged[-1][0] == "text":
            merged[-1][1] = WHITESPACE.sub(" ", merged[-1][1] + shown)
        else:
            merged.append([kind, shown])
    out = []
    for k, (kind, shown) in enumerate(merged):
        if kind == "text":   # rule 2, and the whole text's edges
            if k == 0 or merged[k - 1][0] == "block":
                shown = shown.lstrip(" ")
            if k == len(merged) - 1 or merged[k + 1][0] == "block":
                shown = shown.rstrip(" ")
        out.append(shown)
    return PRE_END.sub(r"\1", "".join(out))   # rule 7


def test_the_normaliser():
    assert normalise("<p>a  \t\nb</p>\n<p>c</p>") == "<p>a b</p><p>c</p>"
    assert normalise("<pre><code>a  \n b\n</code></pre>\n") == "<pre><code>a  \n b</code></pre>"
    assert normalise('<a title="&quot;t&quot;" HREF="/u?a=1&amp;b">x &amp; "y"</a>') == \
        normalise("<a href='/u?a=1&amp;b' title='\"t\"'>x &amp; &quot;y&quot;</a>")
    assert normalise("<p>a<br />\nb</p><hr />") == normalise("<p>a<br>\nb</p>\n<hr>")
    assert normalise("<p>&ouml; &#35; &#x22;</p>") == '<p>ö # &quot;</p>'
    assert normalise("<pre><code>a\n</code></pre>") == normalise("<pre><code>a</code></pre>")
    assert normalise("<pre><code>a\n\n</code></pre>") != normalise("<pre><code>a\n</code></pre>")
    assert normalise("<em>a</em> b") != normalise("<em>a</em>b")          # inline whitespace stays
    assert normalise("<p>&amp;copy;</p>") != normalise("<p>&copy;</p>")  # an escaped & stays one
    assert normalise("<p>&lt;b&gt;</p>") != normalise("<p><b></p>")       # text stays text, tags tags


# ── the examples ────────────────────────────────────────────────────────────────────────────────────────────────────
MATHS = "`\\[ … \\]` is display maths (lessonkit's maths delimiters, as Jupyter's MathJax reads them)"
HIGHLIGHTED = ("a fence whose language Pygments knows is highlighted: `<pre class=\"highlight\" …>` and its spans "
               "(`class=\"language-x\"` kept)")
IMAGE = ("an image that is not an image file of the lesson folder (`/url`, `train.jpg`, `uri3`: none is there): pages "
         "make no network request, so the renderer refuses it with a problem and writes no <img>")
TERM = "`[[ … ]]` is a glossary term, not a link inside brackets"

EXCEPTIONS = {
    12: MATHS,
    142: HIGHLIGHTED, 143: HIGHLIGHTED,
    517: IMAGE, 520: IMAGE, 531: IMAGE, **{number: IMAGE for number in range(572, 592)},   # the section Images
    548: TERM, 559: TERM,
}


def render(text: str) -> str:
    ctx = MarkupContext(values={}, figure_numbers={}, placers={}, render_callout=lambda c: "")
    return markdown(text, ctx, PATH, 1)


@pytest.mark.parametrize("section, number, text, expected",
                         [pytest.param(*example, id=f"{example[1]}-{example[0]}") for example in EXAMPLES])
def test_the_spec_example_renders_as_the_spec_says(section, number, text, expected):
    if number in EXCEPTIONS:   # on purpose: it must still differ, or the exception is stale
        assert normalise(render(text)) != normalise(expected), f"example {number} now passes: {EXCEPTIONS[number]}"
    else:
        assert normalise(render(text)) == normalise(expected)


def test_the_exceptions_are_examples():
    assert len(EXAMPLES) == 652 and set(EXCEPTIONS) <= {number for _, number, _, _ in EXAMPLES}
