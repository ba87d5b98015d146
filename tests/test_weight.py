"""Page weight: SVG trimming keeps the drawing, the budget stops heavy pages, many lessons build."""
import gzip
import re
import textwrap

import pytest

from lessonkit.draw.svg import _compact_path, _hoist_text_size, _unwrap_bare_groups
from lesson_folders import real_lessons


def test_path_data_loses_only_redundant_spaces():
    d = "M 44.5 27.36 \nL 77.5 -27.36 \nL 0 -1 \nz\n"
    assert _compact_path(d) == "M44.5 27.36L77.5-27.36L0-1z"


def test_lines_along_an_axis_become_horizontal_and_vertical_ones_in_relative_steps():
    # a heatmap cell / a bar: right 20.6, down 9, left 20.6, back up 9 to its start
    assert _compact_path("M36.5 5.8L57.1 5.8L57.1 14.8L36.5 14.8L36.5 5.8") == "M36.5 5.8h20.6v9h-20.6v-9"
    # a curve's points from its start (1, 2); after z the current point is that start again: a line to (1, 5) is 3 down
    assert _compact_path("M 1 2 C 3 4 5 6 7 8 L 7 9 L 1 9 z L 1 5") == "M1 2c2 2 4 4 6 6v1h-6zv3"
    # a second subpath moves from where the first closed; zeros before the point go: 0.5 is written .5
    assert _compact_path("M 0.5 -0.5 L 0 0 M 3 3 L 3.5 2.9 z M 1 1") == "M.5-.5l-.5 .5m3 3l.5-.1zm-2-2"
    # a relative command (matplotlib writes none): the path is kept as written
    assert _compact_path("M 1 2 l 3 0") == "M1 2l3 0"


def test_relative_steps_land_on_the_rounded_points_exactly():
    rng = __import__("numpy").random.default_rng(7)
    points = [(f"{x:.1f}", f"{y:.1f}") for x, y in rng.uniform(-300, 300, (500, 2))]
    d = "M " + " L ".join(f"{x} {y}" for x, y in points)
    x = y = 0
    for k, (cmd, args) in enumerate(re.findall(r"([A-Za-z])([^A-Za-z]*)", _compact_path(d))):
        numbers = [float(n) for n in re.findall(r"-?(?:\d+\.?\d*|\.\d+)", args)]
        if cmd == "M":
            x, y = numbers
        elif cmd == "l":
            x, y = x + numbers[0], y + numbers[1]
        elif cmd == "h":
            x += numbers[0]
        else:
            assert cmd == "v"
            y += numbers[0]
        assert (round(x, 1), round(y, 1)) == (float(points[k][0]), float(points[k][1]))


def test_bare_groups_unwrap_and_attributed_groups_stay_balanced():
    svg = '<svg>\n<g>\n<g transform="translate(1 2)">\n<g>\n<text>a</text>\n</g>\n</g>\n</g>\n<path d="M0 0"/>\n</svg>'
    assert _unwrap_bare_groups(svg) == ('<svg>\n<g transform="translate(1 2)">\n<text>a</text>\n</g>\n'
                                        '<path d="M0 0"/>\n</svg>')


def test_common_text_size_moves_to_the_root_but_tspans_keep_theirs():
    svg = ('<svg viewBox="0 0 1 1">\n<text font-size="10px" x="1">a</text>\n<text font-size="10px" x="2">b</text>\n'
           '<text font-size="7px"><tspan font-size="10px">c</tspan></text>\n</svg>')
    assert _hoist_text_size(svg) == ('<svg font-size="10px" viewBox="0 0 1 1">\n<text x="1">a</text>\n'
                                     '<text x="2">b</text>\n<text font-size="7px"><tspan font-size="10px">c</tspan>'
                                     '</text>\n</svg>')


# real_site: content/ built once per run (tests/conftest.py)
@pytest.mark.parametrize("slug", real_lessons())
def test_every_real_lesson_fits_the_default_budget(real_site, slug):
    page = (real_site / slug / "index.html").read_bytes()
    from lessonkit.load.siteconfig import DEFAULT_GZIP_KB, DEFAULT_PAGE_KB
    assert len(page) <= DEFAULT_PAGE_KB * 1024 and len(gzip.compress(page, 9)) <= DEFAULT_GZIP_KB * 1024
    svg = b"".join(re.findall(rb"<svg.*?</svg>", page, re.S))
    assert b"<!--" not in svg and b"<g>" not in svg and b"\nL " not in svg


def test_a_page_over_budget_is_an_error_naming_page_size_and_budget(make_lesson, run_build, tmp_path):
    make_lesson()
    (tmp_path / "content" / "site.yaml").write_text("budget: {page_kb: 2, gzip_kb: 40}\n", encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 1 and not out.exists()
    m = re.search(r"demo/index\.html: page is over its weight budget: ([\d.]+) KB raw > budget 2 KB", err)
    assert m, err
    assert "index.html: page" in err  # the index page is over 2 KB as well
    assert "site.yaml" in err and "Traceback" not in err


def test_gzip_budget_counts_compressed_bytes(make_lesson, run_build, tmp_path):
    make_lesson()
    (tmp_path / "content" / "site.yaml").write_text("budget:\n  gzip_kb: 1\n", encoding="utf-8")
    code, _, err, _ = run_build()
    assert code == 1 and "KB gzip > budget 1 KB" in err and "raw >" not in err


@pytest.mark.parametrize("text, expected", [("budget: {page_kb: -1}\n", "budget `page_kb` is -1"),
                                            ("budget: {pages: 3}\n", "cannot read `budget`")])
def test_a_bad_budget_names_the_file_and_line(make_lesson, run_build, tmp_path, text, expected):
    make_lesson()
    (tmp_path / "content" / "site.yaml").write_text(text, encoding="utf-8")
    code, _, err, _ = run_build()
    assert code == 1 and "site.yaml:1:" in err and expected in err


def test_summary_reports_pages_figures_bytes_and_time(make_lesson, run_build):
    make_lesson()
    code, out_text, _, _ = run_build()
    assert code == 0
    for label in ("Pages", "Figures new", "Figures cached", "Font", "Bytes", "Total in"):
        assert label in out_text
    assert re.search(r"demo/index\.html\s+[\d.]+ KB\s+[\d.]+ KB", out_text)


def test_a_course_of_ten_lessons_builds(make_lesson, run_build):
    py = textwrap.dedent("""\
        import numpy as np
        from lessonkit import Lesson
        lesson = Lesson()

        @lesson.value
        def k():
            return {k}

        @lesson.figure(caption="第 {k} 课的图", alt="一条斜率为 {{{{ k }}}} 的直线")
        def line(plt, k):
            fig, ax = plt.subplots(figsize=(2, 1.2))
            ax.plot(np.arange(3), k * np.arange(3))
            return fig
        """)
    for k in range(1, 11):
        make_lesson(slug=f"lesson-{k:02d}", md="## 一 {#a}\n\n斜率 {{ k }}。\n\n{{< figure line >}}\n", py=py.format(k=k))
    code, out_text, err, out = run_build()
    assert code == 0, err
    assert "Lessons         | 10" in out_text and "Figures new     | 10" in out_text
    assert "斜率 7。" in (out / "lesson-07" / "index.html").read_text(encoding="utf-8")
    index = (out / "index.html").read_text(encoding="utf-8")
    assert all(f'href="lesson-{k:02d}/index.html"' in index for k in range(1, 11))
    assert "Figures cached  | 10" in run_build()[1]


def test_site_title_and_description_from_site_yaml(make_lesson, run_build, tmp_path):
    make_lesson()
    (tmp_path / "content" / "site.yaml").write_text("title: 深度学习十讲\ndescription: 数都是算出来的\n",
                                                     encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 0, err
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "<title>深度学习十讲</title>" in index and "<h1>深度学习十讲</h1>" in index and "数都是算出来的" in index
    assert "<title>小课 · 深度学习十讲</title>" in (out / "demo" / "index.html").read_text(encoding="utf-8")


def test_site_yaml_unknown_key_and_wrong_type(make_lesson, run_build, tmp_path):
    make_lesson()
    (tmp_path / "content" / "site.yaml").write_text("titel: 拼错了\ndescription: [1, 2]\n", encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 1 and not out.exists()
    site = "content/site.yaml"  # named from the project, the content folder's parent
    assert f"{site}:1: unknown key `titel`; did you mean `title`? (expected one of: title, description, budget, theme, language, parts, lessonkit, answers, timezone)" in err
    assert f"{site}:2: `description` is a list (expected one line under the title on the index page)" in err


def test_empty_site_yaml_means_defaults(make_lesson, run_build, tmp_path):
    make_lesson()
    (tmp_path / "content" / "site.yaml").write_text("\n", encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 0, err
    assert "<h1>计算型课堂讲义</h1>" in (out / "index.html").read_text(encoding="utf-8")


MINIMAL_YAML = "title: 小课\nsummary: 一节用来测试的小课\nobjectives:\n  - 看懂一个数\n"  # conftest.MINIMAL_YAML

WEIGHED_PY = """\
import numpy as np
from lessonkit import Lesson, explorer, param

lesson = Lesson()


@lesson.figure(caption="密的曲线", alt="一条正弦曲线")
def dense(plt):
    fig, ax = plt.subplots(figsize=(4, 2))
    x = np.linspace(0, 20, 2001)
    ax.plot(x, np.sin(x))
    return fig


@lesson.figure(caption="一个点", alt="一个点")
def dot(plt):
    fig, ax = plt.subplots(figsize=(1.5, 1))
    ax.plot([0], [1], "o")
    return fig


@lesson.widget
def steps():
    return explorer([param("n", "n", list(range(1, 41)))], state=lambda n: {"values": [("n²", n * n)]}, key=[1, 40])
"""
WEIGHED_MD = "## 一 {#one}\n\n{{< figure dot >}}\n\n{{< figure dense >}}\n\n{{< widget steps >}}\n"


def element(page: bytes, start: bytes, end: bytes) -> bytes:
    """The bytes from `start` to the first `end` after it, both included (figures do not nest)."""
    i = page.index(start)
    return page[i:page.index(end, i) + len(end)]


def test_an_over_budget_page_lists_its_figures_and_widgets_heaviest_first(make_lesson, run_build, tmp_path):
    make_lesson(md=WEIGHED_MD, py=WEIGHED_PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_bytes()
    dense = element(page, b'<figure id="fig-dense"', b"</figure>")
    dot = element(page, b'<figure id="fig-dot"', b"</figure>")
    # the widget: its root up to the end of its data (the last thing in it) and its own closing tag
    widget = element(page, b'<div class="widget widget-explorer" id="widget-steps"', b'</script>\n</div>')

    def kb(data: bytes) -> str:
        return f"{len(data) / 1024:.1f} KB (gzip {len(gzip.compress(data, 9)) / 1024:.1f} KB)"

    assert len(widget) > len(dense) > len(dot)  # so the order is the one below
    (tmp_path / "content" / "site.yaml").write_text("budget: {page_kb: 60}\n", encoding="utf-8")
    code, _, err, _ = run_build()
    assert code == 1
    listed = re.search(r"figures, images and widgets, the heaviest first: (.*?) \(expected", err).group(1)
    assert listed == f"widget `steps` {kb(widget)}, figure `dense` {kb(dense)}, figure `dot` {kb(dot)}"
    assert ("a budget is set by `budget:` with `page_kb` and `gzip_kb` in content/site.yaml for every page, or in a "
            "lesson's lesson.yaml for its page alone") in err
    assert "(content/site.yaml `budget`)" in err


def test_a_lesson_sets_its_own_pages_budget_and_the_rest_is_the_sites(make_lesson, run_build, tmp_path):
    make_lesson()
    make_lesson(slug="other")
    # a lesson page of this kind is about 57 KB raw and 18 KB gzip, the index page 31 KB and 10 KB
    (tmp_path / "content" / "site.yaml").write_text("budget: {page_kb: 40, gzip_kb: 50}\n", encoding="utf-8")
    code, _, err, _ = run_build()
    assert code == 1 and "demo/index.html: page is over" in err and "other/index.html: page is over" in err
    yaml = MINIMAL_YAML + "budget: {page_kb: 400}\n"
    make_lesson(yaml=yaml)
    code, _, err, out = run_build()
    assert code == 1 and "demo/index.html" not in err and "other/index.html: page is over" in err
    # its gzip limit is the site's 50 KB, which the page passes; a lesson limit of 1 KB it fails
    make_lesson(yaml=MINIMAL_YAML + "budget: {page_kb: 400, gzip_kb: 1}\n")
    code, _, err, _ = run_build()
    assert re.search(r"demo/index\.html: page is over its weight budget: [\d.]+ KB gzip > budget 1 KB", err)
    assert "(expected at most 400 KB raw and 1 KB gzip (content/demo/lesson.yaml `budget`)" in err
    make_lesson(slug="other", yaml=yaml)
    code, _, err, out = run_build()
    assert code == 1 and "other/index.html" not in err


def test_the_summary_shows_a_lessons_own_budget_beside_its_page(make_lesson, run_build):
    make_lesson(yaml=MINIMAL_YAML + "budget: {page_kb: 400}\n")
    make_lesson(slug="other")
    code, out_text, err, _ = run_build()
    assert code == 0, err
    rows = {line.split()[0]: line for line in out_text.splitlines() if line.startswith("  ") and "/index.html" in line}
    assert rows["demo/index.html"].endswith("its own 400 / 60 KB")      # its gzip limit: the site's default
    assert "its own" not in rows["other/index.html"]


def test_a_bad_lesson_budget_names_its_line(make_lesson, run_build):
    make_lesson(yaml=MINIMAL_YAML + "budget: {page_kb: 0}\n")
    code, _, err, _ = run_build()
    assert code == 1 and "content/demo/lesson.yaml:5: budget `page_kb` is 0 (expected a positive number of KB" in err
