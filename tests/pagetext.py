"""The text a reader sees on a built page: tags, <script> and <style> removed (MathML kept as its characters)."""
from html.parser import HTMLParser


class _VisibleText(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str, sep: str = "") -> str:
    reader = _VisibleText()
    reader.feed(html)
    return sep.join(reader.parts)
