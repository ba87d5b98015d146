"""The Content-Security-Policy every page carries: nothing may load, only our own inline script and style may run.

The policy names the SHA-256 of each inline <script> and <style> body, computed here at build time, so a browser
refuses anything else (an injected script, a `style="…"` attribute, an external image). `<script type=
"application/json">` data blocks are never executed and need no hash.
"""
from __future__ import annotations

import base64
import hashlib
import re

from .messages import Message, msg

POLICY = ("default-src 'none'; script-src {scripts}; style-src {styles}; img-src data:; base-uri 'none'; "
          "form-action 'none'")
CONNECT_SELF = "; connect-src 'self'"  # only in the preview: its reload script asks the server for news

# an inline <script> (group `data`: a JSON data block, which never runs) or <style>, with its body
INLINE_CODE = re.compile(r"<script(?P<data>[^>]*\btype=\"application/json\")?[^>]*>(?P<script>.*?)</script>"
                         r"|<style[^>]*>(?P<style>.*?)</style>", re.S | re.I)
# an attribute the policy blocks: `style=` or an event handler `on…=`, in any letter case (HTML's attribute names have
# none), spaces around `=` or not …
BLOCKED_ATTRIBUTE = re.compile(r"\s(style|on[a-z]+)\s*=", re.I)
# … where it stands in a start tag, after its name and complete attributes (a quoted value may hold `>`, or words that
# look like an attribute: `aria-label="… style=bold"` is text)
TAG_SO_FAR = re.compile(r"""<[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*\s*""")


def source_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(scripts: list[str], styles: list[str], *, connect_self: bool = False, script_sources=()) -> str:
    """The policy allowing exactly these inline script and style bodies, the `script_sources` given (e.g. the hash
    of a script file the page loads) and, for the preview, connections back to the server the page came from."""
    def sources(bodies: list[str], more=()) -> str:
        return " ".join([*dict.fromkeys(source_hash(b) for b in bodies), *more]) or "'none'"
    return (POLICY.format(scripts=sources(scripts, script_sources), styles=sources(styles))
            + (CONNECT_SELF if connect_self else ""))


def violations(page: str, csp: str) -> list[Message]:
    """What in a rendered page the policy would block: a theme mistake we report instead of shipping. One pass over
    the page finds its inline code; the markup around it is searched for blocked attributes."""
    scripts, styles, markup, end = [], [], [], 0
    for m in INLINE_CODE.finditer(page):
        if m.group("style") is not None:
            styles.append(m.group("style"))
        elif m.group("data") is None:
            scripts.append(m.group("script"))
        markup.append(page[end:m.start()])
        end = m.end()
    markup.append(page[end:])
    found = [msg("inline <script> whose hash {hash} is not in the policy", hash=source_hash(s))
             for s in scripts if source_hash(s) not in csp]
    found += [msg("inline <style> whose hash {hash} is not in the policy", hash=source_hash(s))
              for s in styles if source_hash(s) not in csp]
    found += [msg("a `{attribute}=` attribute (blocked without 'unsafe-inline')", attribute=attribute)
              for attribute in blocked_attributes("".join(markup))]
    return found


def blocked_attributes(markup: str) -> list[str]:
    """The names of the attributes of `markup`'s start tags that the policy blocks (BLOCKED_ATTRIBUTE), in order."""
    found = []
    for m in BLOCKED_ATTRIBUTE.finditer(markup):
        start = markup.rfind("<", 0, m.start())
        if start >= 0 and TAG_SO_FAR.fullmatch(markup, start, m.start()):
            found.append(m.group(1))
    return found
