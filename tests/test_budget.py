"""assemble/budget.py: pages weighed (raw and gzip), what their bytes are made of, their figures and widgets the
heaviest first, and the pages over their budget named. Pages written here as byte strings whose parts are counted
from the pieces they are made of."""
import gzip
from pathlib import Path

import pytest

from lessonkit.assemble.budget import GzipSizes, check_budget, items, weigh
from lessonkit.load.budget import Budget
from lessonkit.support.errors import ContentError

CODE = "<script>let a = 1;</script>" + "<style>p{color:red}</style>"
DATA = '<script type="application/json" id="w-data">{"n":1}</script>'
FIGURE = '<svg viewBox="0 0 1 1"><path d="M0 0H1"/></svg>'
MATHS = "<math><mi>x</mi></math>"
TEXT = "<p>文字</p>"
IMAGE = '<img src="data:image/webp;base64,UklGRg==" alt="一张示意图">'


def test_gzip_sizes_of_the_pages_in_the_order_they_were_made():
    import os

    page = ("<p>" + "ab" * 500 + "</p>").encode("utf-8")
    noise = os.urandom(300_000)                                         # slow to compress: it finishes last
    sizes = GzipSizes()
    for name, data in [("big/index.html", noise), ("index.html", page), ("demo/demo.ipynb", b"{}")]:
        sizes.add(name, data)
    gz = sizes.result()
    assert list(gz) == ["big/index.html", "index.html"]                # pages only, as added
    assert abs(gz["index.html"] - len(gzip.compress(page, 9))) <= 8   # within a few bytes of gzip -9's own header
    assert gz["index.html"] < 100                                       # (a repeated pair compresses well)
    assert abs(gz["big/index.html"] - len(gzip.compress(noise, 9))) <= 8


def test_weigh_counts_each_part_once():
    page = (TEXT + CODE + DATA + FIGURE + IMAGE + MATHS + TEXT).encode("utf-8")
    assert weigh(page) == {"figures": len(FIGURE), "images": len(IMAGE.encode("utf-8")), "maths": len(MATHS),
                           "code": len(CODE), "data": len(DATA), "text": 2 * len(TEXT.encode("utf-8"))}
    assert sum(weigh(page).values()) == len(page)


def test_items_are_figures_images_and_widgets_heaviest_first_a_figure_placed_twice_counted_once():
    small = '<figure id="fig-small"><svg></svg></figure>'
    big = '<figure id="fig-big"><svg>' + "x" * 300 + "</svg></figure>"
    again = '<figure id="fig-small-2"><svg></svg></figure>'
    widget = ('<div class="widget widget-bars" id="widget-w"><div class="inner">' + "y" * 100
              + "</div></div>")
    alt = "一张很长很长的照片：实验台上的三台仪器和它们之间的连线"                 # 27 characters: named by its first 24
    photo = f'<img src="data:image/webp;base64,{"z" * 200}" alt="{alt}">'
    page = ("<main>" + small + big + widget + "<div>after</div>" + again + f"<p>{photo}</p></main>").encode("utf-8")
    found = [(kind, name, raw) for kind, name, raw, _ in items(page)]
    assert found == [("figure", "big", len(big)), ("image", alt[:24] + "…", len(photo.encode("utf-8"))),
                     ("widget", "w", len(widget)), ("figure", "small", len(small) + len(again))]


def test_pages_within_budget_pass():
    check_budget({"index.html": 1024}, {"index.html": 500}, Budget(1, 1))


def test_a_page_over_budget_says_by_how_much_and_what_it_is_made_of():
    page = ("<main>" + '<figure id="fig-big"><svg>' + "x" * 3000 + "</svg></figure></main>").encode("utf-8")
    with pytest.raises(ContentError) as info:
        check_budget({"demo/index.html": len(page)}, {"demo/index.html": 900}, Budget(2, 1), {"demo/index.html": page})
    (problem,) = info.value.problems
    assert problem.path == Path("demo/index.html") and problem.line is None
    message = str(problem.message)
    # 6 + 21 + 5 + 3000 + 22 = 3054 bytes = 2.98 KB > 2 KB raw; gzip 900 bytes is under 1 KB
    assert message.startswith("page is over its weight budget: 3.0 KB raw > budget 2 KB; of which figures ")
    assert "gzip > budget" not in message
    assert "figures, images and widgets, the heaviest first: figure `big` 3.0 KB" in message
    assert str(problem.expected).startswith("at most 2 KB raw and 1 KB gzip (the default budget)")


def test_a_lesson_s_own_budget_wins_for_its_page():
    sizes = {"demo/index.html": 3000, "index.html": 3000}
    with pytest.raises(ContentError) as info:
        check_budget(sizes, {name: 10 for name in sizes}, Budget(2, 1), budgets={"demo/index.html": Budget(4, 1)})
    assert [str(p.path) for p in info.value.problems] == ["index.html"]


def test_the_gzip_thread_ends_when_the_build_stops_on_an_error():
    """A page that cannot be assembled stops the build: `serve` goes on, and must not keep a waiting thread."""
    import threading

    before = set(threading.enumerate())
    with pytest.raises(RuntimeError):
        with GzipSizes() as sizes:
            sizes.add("index.html", b"<p>a page</p>" * 100)
            raise RuntimeError("the theme's mistake in the next page")
    assert set(threading.enumerate()) == before
