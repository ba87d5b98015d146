"""An explorer with `figure=` and `key=[…]` shows a key state's figure twice — in the live panel and among the key
states side by side —: each placement has ids of its own (valid HTML), and every reference inside a placed figure
(`url(#…)` of a clip path, `href="#…"` of a tick mark) leads to an element of that same placement."""
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


def test_a_key_states_figure_placed_twice_has_ids_of_its_own(make_lesson, run_build):
    make_lesson(slug="powers", md=EXPLORER_MD, py=EXPLORER_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "powers" / "index.html").read_text(encoding="utf-8")
    svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
    assert len(svgs) == 3 + 2  # every state live, then the two key states side by side
    parser = Ids()
    parser.feed(page)
    repeated = [i for i, n in collections.Counter(parser.ids).items() if n > 1]
    assert parser.ids and repeated == []
    for svg in svgs:
        own = set(re.findall(r'\sid="([^"]+)"', svg))
        referenced = set(re.findall(r'url\(#([^)]+)\)', svg)) | set(re.findall(r'href="#([^"]+)"', svg))
        assert referenced and referenced <= own
    # the copies are the same drawing: only the ids differ
    assert re.sub(r'(id="|#)[^")]+', "", svgs[0]) == re.sub(r'(id="|#)[^")]+', "", svgs[3])
