"""support/csp.py: the policy lists the SHA-256 of exactly the inline code given (recomputed here with hashlib), and
violations names what in a page the policy would block — an inline script or style it does not list, an attribute
the browser would refuse (`style=`, `on…=` in any letter case, spaces around `=` or not) — and nothing else (the
same words inside an attribute's quoted value are text)."""
import base64
import hashlib

import pytest

from lessonkit.support.csp import policy, source_hash, violations


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def test_the_policy_names_each_body_once():
    csp = policy(scripts=["a()", "b()", "a()"], styles=["p{}"])
    assert f"script-src {sha256('a()')} {sha256('b()')};" in csp and f"style-src {sha256('p{}')};" in csp
    assert source_hash("a()") == sha256("a()")
    assert "script-src 'none'" in policy(scripts=[], styles=[])
    assert csp.startswith("default-src 'none';") and "connect-src" not in csp
    assert policy(scripts=[], styles=[], connect_self=True).endswith("; connect-src 'self'")
    assert "script-src 'sha256-x' 'self';" in policy(scripts=[], styles=[], script_sources=["'sha256-x'", "'self'"])


def found(page: str, scripts=(), styles=()) -> list[str]:
    return [str(m) for m in violations(page, policy(scripts=list(scripts), styles=list(styles)))]


def test_inline_code_the_policy_does_not_list():
    assert found("<script>go()</script><style>p{}</style>", ["go()"], ["p{}"]) == []
    assert found("<script>go()</script>") == [f"inline <script> whose hash {sha256('go()')} is not in the policy"]
    assert found('<style media="print">p{}</style>') == [
        f"inline <style> whose hash {sha256('p{}')} is not in the policy"]
    assert found('<script type="application/json" id="d">{"a": 1}</script>') == []   # data, never run


@pytest.mark.parametrize("markup, attribute", [
    ('<p style="color:red">x</p>', "style"),
    ('<button class="b" onclick="go()">x</button>', "onclick"),
    ('<button onClick="go()">x</button>', "onClick"),          # HTML attribute names have no case
    ('<P STYLE="color:red">x</P>', "STYLE"),
    ('<p style = "color:red">x</p>', "style"),                # spaces around `=` are allowed
    ('<img alt="a > b" onerror="go()">', "onerror"),          # a `>` inside a quoted value ends no tag
    ("<div\n  class='a'\n  onload=go()>", "onload"),
])
def test_an_attribute_the_policy_blocks(markup, attribute):
    assert found(markup) == [f"a `{attribute}=` attribute (blocked without 'unsafe-inline')"]


@pytest.mark.parametrize("markup", [
    '<div role="img" aria-label="set style=bold, then onload=go">x</div>',   # words inside a quoted value
    "<p title='a style=b'>x</p>",
    '<p data-style="x" data-onclick="y" class="onclick">x</p>',
    "<p>style=bold and onclick=go() in the text</p>",
])
def test_what_only_looks_like_one(markup):
    assert found(markup) == []
