"""An explorer with `figure=` and `key=[…]` puts each state's figure on the page once — a key state's among the key
states side by side, which the live panel shows too —: no id twice (valid HTML), and every reference inside a figure
(`url(#…)` of a clip path, `href="#…"` of a tick mark) leads to an element of that same figure."""
from __future__ import annotations

import collections
import re
from html.parser import HTMLParser

EXPLORER_PY = """\
import numpy as np
from lessonkit import Lesson, explorer, param

lesson = Lesson()


def curve(plt, k):
    fig, ax = plt.subplots(figsize=(3, 2))
    x = np.linspace(0, 1, 5)
    ax.plot(x, x ** k)
    ax.set_xlabel("x")
    return fig


@lesson.widget
def powers():
    return explorer([param("k", "指数 k", [1, 2, 3])], state=lambda k: {"values": [("终点", 1.0)]},
                    figure=curve, alt="y = x 的 {k} 次方", key=[1, 3])
"""
EXPLORER_MD = "## 幂 {#powers}\n\n{{< widget powers >}}\n"


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.ids += [value for name, value in attrs if name == "id"]


def test_each_states_figure_is_on_the_page_once_with_ids_of_its_own(make_lesson, run_build):
    make_lesson(slug="powers", md=EXPLORER_MD, py=EXPLORER_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "powers" / "index.html").read_text(encoding="utf-8")
    svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
    assert len(svgs) == 3  # every state's figure once (the key states' not again for the live panel)
    states = re.findall(r'<div class="figure-svg ex-figure[^"]*" data-state="(\d)"', page)
    assert states == ["0", "2", "1"]  # the key states (k = 1, 3) side by side, then the other
    parser = Ids()
    parser.feed(page)
    repeated = [i for i, n in collections.Counter(parser.ids).items() if n > 1]
    assert parser.ids and repeated == []
    for svg in svgs:
        own = set(re.findall(r'\sid="([^"]+)"', svg))
        referenced = set(re.findall(r'url\(#([^)]+)\)', svg)) | set(re.findall(r'href="#([^"]+)"', svg))
        assert referenced and referenced <= own
