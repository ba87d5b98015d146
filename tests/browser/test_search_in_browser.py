"""The search component in Chromium, from file:// and http://, on hand-built pages with the page CSP (tests/searchpage):
Chinese substrings, Latin case, marks, keyboard, the lesson → course hand-over, escaping, no-JS, axe, no requests."""
from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from urllib.parse import quote, unquote

import pytest

import searchpage
from lessonkit.features import search

WAIT = 5000   # ms: the bound on every wait

TRICKY = ('<p>可见<span class="vh">读屏</span><svg><text>轴标签</text></svg>文字<br>下一行</p>'
          '<div class="print-only">打印版</div><template><p>模板</p></template><button>按钮</button>'
          '<p hidden>藏起</p><span aria-hidden="true">装饰</span><math><mi>x</mi><mo>+</mo><mn>1</mn></math>'
          '<details class="answer"><summary>查看答案</summary>答案文字</details><p>末句</p>')
LESSONS = [
    {"slug": "rope", "title": "旋转位置编码", "sections": [
        {"id": "", "title": "旋转位置编码", "text": "用旋转表示位置的一课"},
        {"id": "why", "title": "为什么需要位置", "html": "<p>注意力本身不知道顺序，所以要加入位置编码。</p>"},
        {"id": "how", "title": "RoPE 的做法",
         "html": "<p>RoPE 把向量按角度旋转；<code>rope(x)</code> 的长度不变，和 LayerNorm 无关。</p>"},
        {"id": "parts", "title": "看不见的部分", "html": TRICKY}]},
    {"slug": "residual", "title": "残差连接", "sections": [
        {"id": "depth", "title": "深度与梯度", "html": "<p>没有残差时梯度会消失。有残差时，梯度有一条捷径。</p>"},
        {"id": "code", "title": "代码里的残差", "html": "<p>写成 <code>x = x + f(x)</code>；&lt;b&gt; 不是标签 &amp; 也不是实体。</p>"},
        {"id": "norm", "title": "归一化", "html": "<p>Pre-LN 把 layernorm 放在分支里，位置编码不受影响。</p>"}]},
]


@pytest.fixture(scope="module")
def search_site(tmp_path_factory):
    return searchpage.write_site(tmp_path_factory.mktemp("search-site"), LESSONS)


@pytest.fixture(scope="module")
def search_server(search_site):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(search_site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture(params=["file", "http"])
def base(request, search_site, search_server) -> str:
    return search_site.as_uri() + "/" if request.param == "file" else search_server


def opened(open_page, url, **kw):
    visit = open_page(url, **kw)
    visit.page.set_default_timeout(WAIT)
    visit.page.set_default_navigation_timeout(WAIT)
    return visit


def results(page):
    """[(href attribute, section title, [marked texts], snippet)] as shown, and the status text."""
    return page.evaluate("""() => ({
        hits: Array.from(document.querySelectorAll('#search-results a')).map(a => [
            a.getAttribute('href'), a.querySelector('.search-section').textContent,
            Array.from(a.querySelectorAll('mark')).map(m => m.textContent),
            (a.querySelector('.search-snippet') || {textContent: ''}).textContent]),
        status: document.getElementById('search-status').textContent,
        listHidden: document.getElementById('search-results').hidden})""")


def expected_urls(query, here=None):
    """Independently: sections whose own text or title contains every word of the query (lower-cased); a lesson
    without a top section (id "") is found by its title, linking to the top of its page."""
    words = query.lower().split()
    found = []
    for lesson in LESSONS:
        if here and lesson["slug"] != here:
            continue
        url = "" if here else f"{lesson['slug']}/index.html"
        sections = lesson["sections"]
        if all(s["id"] for s in sections):
            sections = [{"id": "", "title": lesson["title"], "text": ""}] + sections
        for s in sections:
            text = search.plain_text(s.get("html") or "") + " " + (s.get("text") or "") + " " + s["title"]
            if all(w in text.lower() for w in words):
                found.append(f"{url}#{s['id']}" if s["id"] else url or "#")
    return found


@pytest.mark.parametrize("query", ["置编", "残差", "RoPE", "rope", "layernorm", "梯度 捷径"])
def test_site_search_finds_every_section_and_marks_the_match(open_page, base, query):
    visit = opened(open_page, base + "index.html")
    page = visit.page
    page.type("#search-input", query)
    shown = results(page)
    hrefs = [h[0] for h in shown["hits"]]
    want = expected_urls(query)
    assert sorted(hrefs) == sorted(want) and want
    assert hrefs == [h.url for h in search.search(search.search_index(LESSONS), query)]   # same ranking as Python
    assert shown["status"] == f"找到 {len(want)} 处" and not shown["listHidden"]
    words = [w.lower() for w in query.split()]
    for _, title, marks, snippet in shown["hits"]:
        assert marks, "every hit shows where it matched"
        assert all(m.lower() in words for m in marks)
    visit.assert_clean()


def test_results_follow_typing_and_escape_clears(open_page, base):
    visit = opened(open_page, base + "index.html")
    page = visit.page
    page.type("#search-input", "残")
    many = [h[0] for h in results(page)["hits"]]
    assert sorted(many) == sorted(expected_urls("残"))
    page.type("#search-input", "差时")                       # now 「残差时」
    assert [h[0] for h in results(page)["hits"]] == expected_urls("残差时") == ["residual/index.html#depth"]
    assert len(many) > 1
    page.keyboard.press("Escape")
    shown = results(page)
    assert page.input_value("#search-input") == "" and shown["hits"] == [] and shown["listHidden"]
    assert shown["status"] == ""
    assert page.evaluate("document.activeElement.id") == "search-input"
    page.type("#search-input", "没有这个词")
    assert results(page)["status"] == "没有找到「没有这个词」"
    visit.assert_clean()


def test_keyboard_moves_through_results_and_enter_follows(open_page, base):
    visit = opened(open_page, base + "index.html")
    page = visit.page
    page.type("#search-input", "残差")
    hrefs = [h[0] for h in results(page)["hits"]]
    assert len(hrefs) >= 3
    focused = "document.activeElement.getAttribute('href') || document.activeElement.id"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == hrefs[0]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == hrefs[2]
    page.keyboard.press("End")
    assert page.evaluate(focused) == hrefs[-1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == "search-input"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.type("x")                                   # typing on a result goes back into the box
    assert page.evaluate(focused) == "search-input" and page.input_value("#search-input") == "残差x"
    page.keyboard.press("Backspace")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    with page.expect_navigation(timeout=WAIT):
        page.keyboard.press("Enter")
    assert page.url == base + hrefs[1]
    assert page.evaluate("location.hash") == "#" + hrefs[1].split("#")[1]


def test_lesson_page_searches_itself_and_hands_over_to_the_course(open_page, base):
    visit = opened(open_page, base + "rope/index.html")
    page = visit.page
    assert page.inner_text("label[for=search-input]") == "在本课中搜索"
    page.type("#search-input", "位置编码")
    shown = results(page)
    assert [h[0] for h in shown["hits"]] == expected_urls("位置编码", here="rope") != []
    assert shown["status"] == f"本课找到 {len(shown['hits'])} 处"
    link = page.locator("[data-role=all]")
    assert link.is_visible() and link.inner_text() == "在全部课程中搜索「位置编码」"
    assert link.get_attribute("href") == "../index.html?q=" + quote("位置编码", safe="")
    assert shown["hits"][1][0] == "#why"                     # after the lesson's top, whose title matches
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")                              # an in-page link: the section comes into view
    page.wait_for_function("location.hash === '#why'", timeout=WAIT)
    page.click("[data-role=all]")
    page.wait_for_url("**/index.html?q=*", timeout=WAIT)
    assert unquote(page.url.split("?q=")[1]) == "位置编码"
    assert page.input_value("#search-input") == "位置编码"
    assert sorted(h[0] for h in results(page)["hits"]) == sorted(expected_urls("位置编码"))
    assert page.evaluate("document.activeElement.id") == "search-input"


def test_text_is_shown_as_text_never_as_markup(open_page, base):
    visit = opened(open_page, base + "index.html")
    page = visit.page
    page.type("#search-input", "<b>")
    hits = results(page)["hits"]
    assert [h[0] for h in hits] == ["residual/index.html#code"]
    assert hits[0][2] == ["<b>"] and "<b> 不是标签 & 也不是实体" in hits[0][3]
    assert page.evaluate("document.querySelectorAll('#search-results b').length") == 0
    visit.assert_clean()


def test_without_javascript_the_box_is_hidden(browser, search_site):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.goto((search_site / "index.html").as_uri(), wait_until="load", timeout=WAIT)
        assert not page.is_visible("#search") and not page.is_visible("#search-input")
    finally:
        context.close()


def test_search_passes_axe(open_page, search_site, axe_source):
    from test_accessibility import axe_violations

    visit = opened(open_page, (search_site / "index.html").as_uri(), init_script=axe_source)
    page = visit.page
    found = {"empty": axe_violations(page)}
    page.type("#search-input", "位置")
    page.keyboard.press("ArrowDown")
    found["results"] = axe_violations(page)
    page.keyboard.press("Escape")
    page.type("#search-input", "没有")
    found["none"] = axe_violations(page)
    lesson = opened(open_page, (search_site / "rope" / "index.html").as_uri(), init_script=axe_source).page
    lesson.type("#search-input", "位置")
    found["lesson page"] = axe_violations(lesson)
    assert found == {"empty": [], "results": [], "none": [], "lesson page": []}
    assert page.evaluate("document.getElementById('search-input').labels.length") == 1
    assert page.get_attribute("#search-status", "aria-live") == "polite"
    visit.assert_clean()


@pytest.mark.parametrize("query", ["可见文字", "下一行", "x+1", "末句", "读屏", "轴标签", "打印版", "按钮", "藏起", "装饰",
                                   "答案文字", "模板", "看不见的部分 末句"])
def test_lesson_page_reads_what_a_reader_sees(open_page, search_site, query):
    """On its own page the text comes from the page itself, by the rules of lessonkit.features.search.plain_text."""
    visit = opened(open_page, (search_site / "rope" / "index.html").as_uri())
    page = visit.page
    page.fill("#search-input", query)
    assert [h[0] for h in results(page)["hits"]] == expected_urls(query, here="rope")
    visit.assert_clean()


def test_full_width_and_case_fold_like_python(open_page, search_site):
    visit = opened(open_page, (search_site / "index.html").as_uri())
    page = visit.page
    shown = {}
    for query in ("rope", "ＲｏＰＥ", "LAYERNORM", "ｌａｙｅｒｎｏｒｍ"):
        page.fill("#search-input", query)
        shown[query] = [h[0] for h in results(page)["hits"]]
    assert shown["rope"] == shown["ＲｏＰＥ"] == expected_urls("rope") != []
    assert shown["LAYERNORM"] == shown["ｌａｙｅｒｎｏｒｍ"] == [h.url for h in search.search(
        search.search_index(LESSONS), "ｌａｙｅｒｎｏｒｍ")] != []
    visit.assert_clean()


def test_long_result_lists_are_cut_and_say_so(open_page, tmp_path):
    many = [{"slug": "many", "title": "很多节", "sections": [{"id": f"s{i}", "title": f"第 {i} 节", "text": "有一个重复的词。"}
                                                         for i in range(search.MAX_RESULTS + 5)]}]
    folder = searchpage.write_site(tmp_path / "many", many, lesson_pages=False)
    visit = opened(open_page, (folder / "index.html").as_uri())
    visit.page.type("#search-input", "重复")
    shown = results(visit.page)
    assert len(shown["hits"]) == search.MAX_RESULTS
    assert shown["status"] == f"找到 {search.MAX_RESULTS + 5} 处，列出前 {search.MAX_RESULTS} 处"
    visit.assert_clean()


def test_benchmark_script_runs(browser):
    """benchmarks/search_bench.py still runs (one small course, one run): not timed here, only kept from rotting."""
    done = subprocess.run([sys.executable, str(searchpage.PROJECT / "benchmarks" / "search_bench.py"), "--sizes", "2",
                           "--runs", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "whole index raw / gzip" in done.stdout and "2 lessons, index page (whole course)" in done.stdout


def test_titles_only_index_says_so(open_page, tmp_path):
    folder = tmp_path / "titles"
    folder.mkdir()
    data = search.search_index(LESSONS, text=False)
    (folder / "index.html").write_text(searchpage.page("课程", "<h1>课程</h1>", data), encoding="utf-8")
    visit = opened(open_page, (folder / "index.html").as_uri())
    page = visit.page
    assert page.inner_text("label[for=search-input]") == "搜索课程与小节标题"
    page.type("#search-input", "梯度")
    shown = results(page)
    assert [h[0] for h in shown["hits"]] == ["residual/index.html#depth"]        # 深度与梯度
    assert shown["status"] == "标题中找到 1 处（正文请在各课页面里搜索）"
    visit.assert_clean()


def test_no_results_for_half_typed_pinyin(open_page, search_site):
    """While an input method composes (pinyin letters), the list waits; the composed characters then search."""
    visit = opened(open_page, (search_site / "index.html").as_uri())
    page = visit.page
    page.evaluate("""() => { const i = document.getElementById('search-input');
        i.value = 'cancha'; i.dispatchEvent(new InputEvent('input', {isComposing: true})); }""")
    assert results(page)["status"] == "" and results(page)["listHidden"]
    page.evaluate("""() => { const i = document.getElementById('search-input');
        i.value = '残差'; i.dispatchEvent(new InputEvent('input', {isComposing: true}));
        i.dispatchEvent(new CompositionEvent('compositionend', {data: '残差'})); }""")
    assert sorted(h[0] for h in results(page)["hits"]) == sorted(expected_urls("残差"))
    visit.assert_clean()
