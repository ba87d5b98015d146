"""The search component in Chromium, the shipped widget.js driven as a reader types, from file:// and http://, under
the page's policy.

Two kinds of site: hand-built pages around the component (tests/searchpage: lessons whose expected hits are worked
out by hand here — Chinese substrings, Latin case and width, ranking, marks, keyboard, the lesson → course hand-over,
escaping, no-JS, axe); and the real build of whatever content/ holds plus the fixture lesson, where the index page
loads the course's index file only when someone searches, words shown only in figure data find nothing, and each
lesson page's search of its own sections finds what the build's index finds."""
from __future__ import annotations

import functools
import http.server
import json
import re
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
          '<details class="answer"><summary>查看答案</summary>答案文字</details><h3>小标题</h3>'
          '<details class="figure-data"><summary>数据</summary><table><tr><th>甲<td>0.5<tr><th>乙<td>0.25</table>'
          '<p class="data-csv"><a href="data:," download="fig-tricky.csv">下载 CSV（fig-tricky.csv）</a></p></details>'
          '<p>末句</p>')
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
# worked out by hand from LESSONS: more query terms in a section's title first, then more matches (text and title),
# then reading order; residual has no top section, so one titled 残差连接 leads to its page
RANKED = {
    "置编": ["rope/index.html", "rope/index.html#why", "residual/index.html#norm"],
    "残差": ["residual/index.html", "residual/index.html#code", "residual/index.html#depth"],
    "RoPE": ["rope/index.html#how"],
    "rope": ["rope/index.html#how"],
    "layernorm": ["rope/index.html#how", "residual/index.html#norm"],
    "梯度 捷径": ["residual/index.html#depth"],
}


@pytest.fixture(scope="module")
def search_site(tmp_path_factory):
    return searchpage.write_site(tmp_path_factory.mktemp("search-site"), LESSONS)


def serve(folder):
    """An HTTP server for `folder` from a thread: (base url, paths asked for, server)."""
    paths: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            paths.append(self.path)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{httpd.server_address[1]}/", paths, (httpd, thread)


def stop(handle):
    httpd, thread = handle
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def search_server(search_site):
    url, _, handle = serve(search_site)
    yield url
    stop(handle)


@pytest.fixture(params=["file", "http"])
def base(request, search_site, search_server) -> str:
    return search_site.as_uri() + "/" if request.param == "file" else search_server


def opened(open_page, url, **kw):
    visit = open_page(url, **kw)
    visit.page.set_default_timeout(WAIT)
    visit.page.set_default_navigation_timeout(WAIT)
    return visit


def results(page, root="search"):
    """[(href attribute, section title, [marked texts], snippet)] as shown, and the status text, once the index is
    there (the component's own update runs first: it asked for the index before this did)."""
    return page.evaluate("""async (root) => {
        await document.getElementById(root).lessonkitSearch.load();
        return {hits: Array.from(document.querySelectorAll('#' + root + '-results a')).map(a => [
            a.getAttribute('href'), a.querySelector('.search-section').textContent,
            Array.from(a.querySelectorAll('mark')).map(m => m.textContent),
            (a.querySelector('.search-snippet') || {textContent: ''}).textContent]),
        status: document.getElementById(root + '-status').textContent,
        listHidden: document.getElementById(root + '-results').hidden}; }""", root)


def hits(page, queries, root="search"):
    """{query: [href of every hit, best first]} by the component's own search (no DOM, no limit)."""
    return page.evaluate("""async ([root, queries]) => {
        const s = document.getElementById(root).lessonkitSearch;
        await s.load();
        return Object.fromEntries(queries.map(q => [q, s.hits(q).map(h => h.href)])); }""", [root, queries])


def index_file(url):
    return url.rsplit("/", 1)[0] + "/" + search.INDEX_FILE


def assert_clean_after_search(visit):
    """No errors; the page asked for itself and, on the index page, the course's index file once."""
    assert visit.page_errors == [] and visit.console_errors == [], visit.console_errors
    assert [r.split("?v=")[0] for r in visit.requests][:1] == [visit.url]
    assert all(r.split("?v=")[0] == index_file(visit.url) for r in visit.requests[1:]) and len(visit.requests) <= 2


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


# ── hand-built pages ───────────────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("query", list(RANKED))
def test_site_search_finds_every_section_best_first_and_marks_the_match(open_page, base, query):
    visit = opened(open_page, base + "index.html")
    page = visit.page
    assert visit.requests == [visit.url]                      # nothing loaded before someone searches
    page.type("#search-input", query)
    shown = results(page)
    hrefs = [h[0] for h in shown["hits"]]
    assert hrefs == RANKED[query] and sorted(hrefs) == sorted(expected_urls(query))
    assert shown["status"] == f"找到 {len(hrefs)} 处" and not shown["listHidden"]
    words = [w.lower() for w in query.split()]
    for _, title, marks, snippet in shown["hits"]:
        assert marks, "every hit shows where it matched"
        assert all(m.lower() in words for m in marks)
    assert_clean_after_search(visit)


def test_snippets_are_windows_around_the_first_match_with_every_match_marked(open_page, tmp_path):
    text = "甲" * 500 + "位置编码" + "乙" * 500 + "位置编码"
    near_end = "乙" * 300 + "残差。"
    index = searchpage.write_index(tmp_path / "long", [{"slug": "x", "title": "X", "sections": [
        {"id": "s", "title": "S", "text": text}, {"id": "t", "title": "T", "text": near_end},
        {"id": "u", "title": "RoPE 与 rope", "text": "RoPE、ROPE 和 rope 是一回事"}]}])
    visit = opened(open_page, index.as_uri())
    page = visit.page
    found = page.evaluate("""async () => { const s = document.getElementById('search').lessonkitSearch;
        await s.load(); return [s.hits('置编'), s.hits('残差'), s.hits('rope')]; }""")
    (long_hit,), (end_hit,), (rope_hit,) = found
    assert len(long_hit["snippet"]) == search.SNIPPET_LENGTH
    assert long_hit["marks"] == [[search.SNIPPET_BEFORE, search.SNIPPET_BEFORE + 2]]       # the second is far away
    assert long_hit["snippet"][search.SNIPPET_BEFORE:search.SNIPPET_BEFORE + 2] == "置编"
    assert len(end_hit["snippet"]) == search.SNIPPET_LENGTH and end_hit["snippet"].endswith("残差。")
    assert [rope_hit["snippet"][a:b] for a, b in rope_hit["marks"]] == ["RoPE", "ROPE", "rope"]   # as written
    assert rope_hit["titleMarks"] == [[0, 4], [7, 11]] and rope_hit["count"] == 5
    page.type("#search-input", "置编")
    shown = results(page)["hits"]
    assert shown[0][3] == "…" + long_hit["snippet"] + "…"     # cut on both sides, and says so
    assert_clean_after_search(visit)


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
    page.fill("#search-input", "编置")                       # the characters in the other order are no match
    assert results(page)["hits"] == []
    assert_clean_after_search(visit)


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
    results(page)
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
    assert [h[0] for h in shown["hits"]] == expected_urls("位置编码", here="rope") == ["#", "#why"]
    assert shown["status"] == f"本课找到 {len(shown['hits'])} 处"
    visit.assert_clean()                                      # a lesson page loads nothing
    link = page.locator("[data-role=all]")
    assert link.is_visible() and link.inner_text() == "在全部课程中搜索「位置编码」"
    assert link.get_attribute("href") == "../index.html?q=" + quote("位置编码", safe="")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")                              # an in-page link: the section comes into view
    page.wait_for_function("() => location.hash === '#why'", timeout=WAIT)
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
    found = results(page)["hits"]
    assert [h[0] for h in found] == ["residual/index.html#code"]
    assert found[0][2] == ["<b>"] and "<b> 不是标签 & 也不是实体" in found[0][3]
    assert page.evaluate("document.querySelectorAll('#search-results b').length") == 0
    assert_clean_after_search(visit)


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
    from conftest import axe_violations

    visit = opened(open_page, (search_site / "index.html").as_uri(), init_script=axe_source)
    page = visit.page
    found = {"empty": axe_violations(page)}
    page.type("#search-input", "位置")
    results(page)
    page.keyboard.press("ArrowDown")
    found["results"] = axe_violations(page)
    page.keyboard.press("Escape")
    page.type("#search-input", "没有")
    results(page)
    found["none"] = axe_violations(page)
    lesson = opened(open_page, (search_site / "rope" / "index.html").as_uri(), init_script=axe_source).page
    lesson.type("#search-input", "位置")
    results(lesson)
    found["lesson page"] = axe_violations(lesson)
    assert found == {"empty": [], "results": [], "none": [], "lesson page": []}
    assert page.evaluate("document.getElementById('search-input').labels.length") == 1
    assert page.get_attribute("#search-status", "aria-live") == "polite"
    assert_clean_after_search(visit)


@pytest.mark.parametrize("query", ["可见文字", "下一行", "x+1", "末句", "小标题", "读屏", "轴标签", "打印版", "按钮",
                                   "藏起", "装饰", "答案文字", "模板", "CSV", "fig-tricky", "0.25", "看不见的部分 末句"])
def test_lesson_page_reads_what_a_reader_sees_by_the_builds_rules(open_page, search_site, query):
    """On its own page the text comes from the page itself, by the rules of lessonkit.features.search.plain_text,
    which the index page's file was made with: both find the same sections (a sub-heading is text, the section's
    own heading is its title, figure data and its CSV links are not text)."""
    visit = opened(open_page, (search_site / "rope" / "index.html").as_uri())
    page = visit.page
    page.fill("#search-input", query)
    own = [h[0] for h in results(page)["hits"]]
    assert own == expected_urls(query, here="rope")
    site = opened(open_page, (search_site / "index.html").as_uri()).page
    assert [h.replace("rope/index.html", "") or "#" for h in hits(site, [query])[query]
            if h.startswith("rope/")] == own
    visit.assert_clean()


@pytest.mark.parametrize("query, same", [("ＲｏＰＥ", "rope"), ("ＲＯＰＥ", "RoPE"), ("ｌａｙｅｒｎｏｒｍ", "LAYERNORM"),
                                         ("\u3000残差\u3000", "残差")])
def test_full_width_and_case_fold(open_page, base, query, same):
    visit = opened(open_page, base + "index.html")
    found = hits(visit.page, [query, same])
    assert found[query] == found[same] == RANKED.get(same.lower(), RANKED.get(same)) != []
    lesson = opened(open_page, base + "rope/index.html").page
    found = hits(lesson, [query, same])
    assert found[query] == found[same]


def test_long_result_lists_are_cut_and_say_so(open_page, tmp_path):
    many = [{"slug": "many", "title": "很多节", "sections": [{"id": f"s{i}", "title": f"第 {i} 节", "text": "有一个重复的词。"}
                                                         for i in range(search.MAX_RESULTS + 5)]}]
    folder = searchpage.write_site(tmp_path / "many", many, lesson_pages=False)
    visit = opened(open_page, (folder / "index.html").as_uri())
    visit.page.type("#search-input", "重复")
    shown = results(visit.page)
    assert len(shown["hits"]) == search.MAX_RESULTS
    assert shown["status"] == f"找到 {search.MAX_RESULTS + 5} 处，列出前 {search.MAX_RESULTS} 处"
    assert_clean_after_search(visit)


def test_no_results_for_half_typed_pinyin(open_page, search_site):
    """While an input method composes (pinyin letters), the list waits; the composed characters then search."""
    visit = opened(open_page, (search_site / "index.html").as_uri())
    page = visit.page
    page.evaluate("""() => { const i = document.getElementById('search-input');
        i.value = 'cancha'; i.dispatchEvent(new InputEvent('input', {isComposing: true})); }""")
    assert page.evaluate("document.getElementById('search-status').textContent") == ""
    assert visit.requests == [visit.url]                      # nor is the index loaded for it
    page.evaluate("""() => { const i = document.getElementById('search-input');
        i.value = '残差'; i.dispatchEvent(new InputEvent('input', {isComposing: true}));
        i.dispatchEvent(new CompositionEvent('compositionend', {data: '残差'})); }""")
    assert sorted(h[0] for h in results(page)["hits"]) == sorted(expected_urls("残差"))
    assert_clean_after_search(visit)


# ── the course's index file: loaded once, checked by its hash over http, reported when missing ────────────────────
def test_the_index_file_is_loaded_once_when_someone_types(open_page, search_site):
    url, paths, handle = serve(search_site)
    try:
        visit = opened(open_page, url + "index.html")
        page = visit.page
        page.wait_for_timeout(300)
        assert paths == ["/index.html"]
        page.type("#search-input", "残差")
        results(page)
        page.fill("#search-input", "位置")
        results(page)
        assert [p.split("?v=")[0] for p in paths] == ["/index.html", "/" + search.INDEX_FILE]
        assert_clean_after_search(visit)
    finally:
        stop(handle)


@pytest.mark.parametrize("damage", ["missing", "changed"])
def test_a_missing_or_changed_index_file_is_said_and_nothing_else_breaks(open_page, tmp_path, damage):
    index = searchpage.write_index(tmp_path / damage, LESSONS)
    file = index.parent / search.INDEX_FILE
    if damage == "missing":
        file.unlink()
    else:                                                     # what integrity is for: another file under the name
        file.write_text(file.read_text(encoding="utf-8").replace("残差", "残渣"), encoding="utf-8")
    url, _, handle = serve(index.parent)
    try:
        visit = opened(open_page, url + "index.html")
        page = visit.page
        page.type("#search-input", "残差")
        page.wait_for_function("() => document.getElementById('search-status').textContent.includes('search-index.js')",
                               timeout=WAIT)
        assert page.inner_text("#search-status") == "未能载入全部课程的索引（本页旁边的 search-index.js）。"
        assert page.evaluate("document.getElementById('search-results').hidden") and visit.page_errors == []
        blocked = [text for text, _ in visit.console_errors]
        assert len(blocked) == 1 and ("404" in blocked[0] if damage == "missing" else "integrity" in blocked[0])
    finally:
        stop(handle)


@pytest.mark.bench
def test_benchmark_script_runs(browser, site):
    """benchmarks/search_bench.py still runs (one small course): not timed here, only kept from rotting. Its model
    lesson comes from the session's site (--site), not from a cold build of its own."""
    done = subprocess.run([sys.executable, str(searchpage.PROJECT / "benchmarks" / "search_bench.py"), "--sizes", "2",
                           "--runs", "1", "--site", str(site)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "search-index.js raw / gzip" in done.stdout and "2 lessons, index page (whole course)" in done.stdout


# ── the real build: content/ and the fixture lesson ────────────────────────────────────────────────────────────────
def built_index(site) -> dict:
    script = (site / search.INDEX_FILE).read_text(encoding="utf-8")
    return json.loads(script[len("lessonkit.searchIndex="):-len(";\n")])


def figure_data_words(page) -> list[str]:
    """Words this page shows only inside its figure data («CSV», the download links' file names, Latin table headers):
    none of them anywhere else in its main part (also where the rules skip: SVG labels, answers)."""
    return page.evaluate("""() => {
        const inside = Array.from(document.querySelectorAll('.lesson-section .figure-data'));
        const words = new Set(inside.length ? ['CSV'] : []);
        inside.forEach(d => (d.textContent.match(/[A-Za-z][\\w.-]{2,}/g) || []).forEach(w => words.add(w)));
        const clone = document.querySelector('main').cloneNode(true);
        clone.querySelectorAll('.figure-data').forEach(d => d.remove());
        const rest = clone.textContent.toLowerCase() + ' ' + document.title.toLowerCase();
        return Array.from(words).filter(w => !rest.includes(w.toLowerCase())).sort(); }""")


@pytest.mark.parametrize("via", ["file", "http"])
def test_words_only_in_figure_data_find_nothing(open_page, site, server, slug, via):
    """「下载 CSV」 and the rest of a figure's data are not text, on the lesson page and on the index page."""
    lesson_url = (site / slug / "index.html").as_uri() if via == "file" else f"{server.url}{slug}/index.html"
    index_url = (site / "index.html").as_uri() if via == "file" else f"{server.url}index.html"
    visit = opened(open_page, lesson_url)
    queries = figure_data_words(visit.page)
    has_figures = visit.page.evaluate("document.querySelectorAll('.lesson-section .figure-data').length") > 0
    assert bool(queries) == has_figures          # its CSV links' file names are there and nowhere else
    assert hits(visit.page, queries, "site-search") == {q: [] for q in queries}
    visit.assert_clean()
    index = opened(open_page, index_url)
    found = hits(index.page, queries, "site-search")
    assert {q: [h for h in found[q] if h.startswith(f"{slug}/")] for q in queries} == {q: [] for q in queries}
    assert_clean_after_search(index)


def sampled_queries(texts: list[str]) -> list[str]:
    """A few words from each text, taken where they fall: CJK runs of 2–4 characters at a quarter, a half and three
    quarters of it, and its Latin words of three letters or more (the first three)."""
    queries = []
    for text in texts:
        runs = [(m.start(), m.group()) for m in re.finditer(r"[\u4e00-\u9fff]{2,}", text)]
        for share in (0.25, 0.5, 0.75):
            at = [r for r in runs if r[0] >= share * len(text)][:1]
            if at:
                queries.append(at[0][1][:2 + len(queries) % 3])
        queries += re.findall(r"[A-Za-z]{3,}", text)[:3]
    return sorted(set(queries))


def test_each_lesson_page_finds_what_the_builds_index_finds(open_page, site, slug):
    """The page reads its sections from itself, the index page searches the build's file: the same hits, in the
    same order, for words taken from the lesson's indexed text and from what its page shows (also where the rules
    skip it: figure data, answers, print-only parts)."""
    index = built_index(site)
    n = [i for i, (_, url) in enumerate(index["lessons"]) if url == f"{slug}/index.html"][0]
    texts = [s[2] + " " + s[3] for s in index["sections"] if s[0] == n]
    lesson = opened(open_page, (site / slug / "index.html").as_uri())
    shown = lesson.page.evaluate("() => Array.from(document.querySelectorAll('.lesson-section, .challenge'))"
                                 ".map(e => e.textContent)")
    queries = sampled_queries(texts) + sampled_queries(shown)
    assert len(queries) >= 6
    own = hits(lesson.page, queries, "site-search")
    whole = hits(opened(open_page, (site / "index.html").as_uri()).page, queries, "site-search")
    prefix = f"{slug}/index.html"
    assert own == {q: [h[len(prefix):] or "#" for h in whole[q] if h.startswith(prefix)] for q in queries}
    for q in sampled_queries(texts):
        assert own[q], f"「{q}」 is in the lesson's text: its page finds it"
    lesson.assert_clean()
