"""lessonkit.features.search: the index the search component reads, and the reference search its JS follows."""
from __future__ import annotations

import gzip
import json

import pytest

from lessonkit.features import search as S

ROPE = {"slug": "rope", "title": "旋转位置编码",
        "sections": [{"id": "why", "title": "为什么需要位置", "html": "<p>注意力本身不知道顺序，所以要加入位置编码。</p>"},
                     {"id": "rope", "title": "RoPE 的做法",
                      "html": "<p>RoPE 把向量按角度旋转；<code>rope(x, θ)</code> 与 LayerNorm 无关。</p>"}]}
RESID = {"slug": "residual", "title": "残差连接",
         "sections": [{"id": "", "title": "残差连接", "text": "一节关于残差的课"},
                      {"id": "depth", "title": "深度与梯度", "html": "<p>没有残差时梯度 &lt;b&gt; 会消失 &amp; 爆炸。</p>"
                                                                 "<p>有残差时，梯度有一条捷径。</p>"}]}


def index(*lessons, **kw):
    return S.search_index(list(lessons), **kw)


def urls(hits):
    return [h.url for h in hits]


def test_chinese_substring_from_the_middle_of_a_word():
    data = index(ROPE, RESID)
    texts = {f"{l['slug']}/index.html#{s['id']}" if s["id"] else f"{l['slug']}/index.html":
             S.plain_text(s.get("html") or "") + " " + (s.get("text") or "") + " " + s["title"]
             for l in (ROPE, RESID) for s in l["sections"]}
    texts["rope/index.html"] = ROPE["title"]      # a lesson without a top section gets one, titled as the lesson
    for query in ("置编", "残差", "梯度", "旋转"):
        expected = {u for u, t in texts.items() if query in t}
        assert expected, query
        assert set(urls(S.search(data, query))) == expected, query
    assert S.search(data, "编置") == []          # characters in the other order are not a match


def test_latin_terms_are_case_insensitive_and_width_folded():
    data = index(ROPE, RESID)
    for query in ("RoPE", "rope", "ROPE", "Ｒｏｐｅ"):
        assert urls(S.search(data, query)) == ["rope/index.html#rope"], query
    assert urls(S.search(data, "layernorm")) == ["rope/index.html#rope"]
    assert S.search(data, "layernorms") == []


def test_every_term_must_occur_and_title_matches_come_first():
    data = index(ROPE, RESID)
    assert urls(S.search(data, "残差 捷径")) == ["residual/index.html#depth"]
    assert S.search(data, "残差 旋转") == []
    hits = S.search(data, "位置")             # in rope#why's title and text; in the lesson title (its top)
    assert urls(hits) == ["rope/index.html#why", "rope/index.html"]


def test_snippet_marks_are_where_the_query_is():
    data = index(ROPE, RESID)
    for query in ("置编", "rope", "梯度"):
        for hit in S.search(data, query):
            for a, b in hit.marks:
                assert S.fold(hit.snippet[a:b]) == S.fold(query)
            # every occurrence inside the snippet is marked
            folded, want = S.fold(hit.snippet), S.fold(query)
            starts = [i for i in range(len(folded)) if folded.startswith(want, i)]
            assert [a for a, _ in hit.marks] == starts
    hit = S.search(data, "RoPE")[0]
    assert hit.title_marks == [(0, 4)] and hit.section == "RoPE 的做法"
    assert [hit.snippet[a:b] for a, b in hit.marks] == ["RoPE", "rope"]   # the original case is shown


def test_long_text_snippet_is_a_window_around_the_first_match():
    text = "甲" * 500 + "位置编码" + "乙" * 500 + "位置编码"
    data = index({"slug": "x", "title": "X", "sections": [{"id": "s", "title": "S", "text": text}]})
    hit = S.search(data, "置编")[0]
    assert len(hit.snippet) == S.SNIPPET_LENGTH and hit.cut_before and hit.cut_after
    a, b = hit.marks[0]
    assert a == S.SNIPPET_BEFORE and hit.snippet[a:b] == "置编"
    assert len(hit.marks) == 1                  # the second occurrence is far outside the window
    # a match near the end: the window ends with the text instead of running short
    data = index({"slug": "x", "title": "X", "sections": [{"id": "s", "title": "S", "text": "乙" * 300 + "残差。"}]})
    hit = S.search(data, "残差")[0]
    assert len(hit.snippet) == S.SNIPPET_LENGTH and not hit.cut_after and hit.snippet.endswith("残差。")


def test_plain_text_drops_markup_and_hidden_parts_and_unescapes():
    html = ('<p>可见<span class="vh">读屏</span><svg><text>轴标签</text></svg>文字<br>下一行</p>'
            '<div class="print-only">打印版</div><script>var x = "<p>";</script><button>按钮</button>'
            '<math><mi>x</mi><mo>+</mo><mn>1</mn></math><img src="data:," alt="图"><p>a &lt; b &amp; c</p>')
    assert S.plain_text(html) == "可见文字 下一行 x+1 a < b & c"


def test_fold_keeps_length():
    samples = "Ｒｏｐｅ ﬁ İ ½ ① ㎏ 𝐀 \u3000 a\u0301 《》，。ＡＢＣ"
    assert len(S.fold(samples)) == len(samples)
    assert S.fold("ＲｏＰＥ") == "rope" and S.fold("ABC") == "abc"


def test_lesson_page_links_stay_on_the_page_and_offer_the_whole_course():
    data = index(ROPE, here="rope", root="../", from_page=False)
    assert data["scope"] == "lesson" and data["all"] == "../index.html"
    assert urls(S.search(data, "rope")) == ["#rope"]
    assert urls(S.search(data, "旋转位置")) == ["#"]            # the lesson's title: the top of this page
    site = index(ROPE, RESID)
    assert site["scope"] == "site" and "all" not in site
    assert urls(S.search(site, "残差连接")) == ["residual/index.html"]
    assert urls(S.search(site, "残差")) == ["residual/index.html", "residual/index.html#depth"]


def test_lesson_entry_from_a_page_context():
    context = {"slug": "s", "title": "标题", "summary": "摘要文字", "intro": "<p>引言</p>",
               "objectives": ["目标<em>一</em>"], "question": "", "sections": [
                   {"id": "a", "number": 1, "title": "第一节", "body": "<p>正文</p>"}],
               "challenges": [{"id": "challenge-1", "number": 1, "title": "挑战题", "question": "<p>问题</p>",
                               "answer": "<p>秘密答案</p>"}],
               "sources": ["<a href='https://example.org'>来源</a>"]}
    data = S.search_index([S.lesson_entry(context)])
    assert [s[1:] for s in data["sections"]] == [["", "标题", "摘要文字 引言 目标一"], ["a", "第一节", "正文"],
                                                 ["challenge-1", "挑战 1 · 挑战题", "问题"],
                                                 ["sources", "参考资料", "来源"]]
    assert S.search(data, "秘密") == []        # answers are not searchable


def test_index_is_json_and_small():
    """The index is the text once: its gzip size stays near the gzip size of the text itself."""
    body = "".join(f"<p>第 {i} 段：残差连接让梯度有捷径，位置编码告诉模型顺序，LayerNorm 稳定数值。</p>" for i in range(200))
    lessons = [{"slug": f"l{k}", "title": f"第 {k} 课", "sections": [
        {"id": f"s{j}", "title": f"第 {j} 节", "html": body} for j in range(3)]} for k in range(5)]
    data = S.search_index(lessons)
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    text = "".join(S.plain_text(body) for _ in range(15)).encode()
    assert json.loads(raw) == data
    assert len(raw) < 1.02 * len(text)
    assert len(gzip.compress(raw)) < 1.1 * len(gzip.compress(text)) + 200


@pytest.mark.parametrize("query", ["", "   ", "\u3000"])
def test_empty_query_finds_nothing(query):
    assert S.search(index(ROPE), query) == []


def test_a_lesson_page_reads_its_own_text_from_the_page():
    data = index(ROPE, RESID, here="rope", root="../")
    own = [s for s in data["sections"] if s[0] == 0]
    assert [s[1] for s in own] == ["", "why", "rope"]
    assert [s[3] for s in own] == ["", None, None]             # text of sections with an id: in the page already
    assert [s[3] is not None for s in data["sections"] if s[0] == 1] == [True, True]
    size = lambda data: len(json.dumps(data, ensure_ascii=False))  # noqa: E731
    assert size(index(ROPE, here="rope")) < size(index(ROPE)) - len(S.plain_text(ROPE["sections"][1]["html"]))


def test_index_json_cannot_close_its_script_element():
    data = index({"slug": "x", "title": "X", "sections": [{"id": "s", "title": "S", "text": "</script><b>&amp;"}]})
    text = S.index_json(data)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == data
    raw, gz = S.index_sizes(data)
    assert raw == len(text.encode("utf-8")) and gz == len(gzip.compress(text.encode("utf-8"), 9))


def test_a_course_too_big_for_the_budget_is_searched_by_titles():
    full = index(ROPE, RESID)
    raw, gz = S.index_sizes(full)
    assert S.search_index_within([ROPE, RESID], raw, gz) == full              # fits exactly
    small = S.search_index_within([ROPE, RESID], raw - 1, gz)
    assert small["titles_only"] is True and "titles_only" not in full
    assert {s[3] for s in small["sections"]} == {""}
    assert [s[1:3] for s in small["sections"]] == [s[1:3] for s in full["sections"] if s[2]]
    assert urls(S.search(small, "rope")) == ["rope/index.html#rope"]          # a section title
    assert S.search(small, "捷径") == []                                      # only in a section's text
    assert S.index_sizes(small)[0] < raw


def test_a_skipped_table_with_omitted_end_tags_does_not_swallow_what_follows():
    """Figure data tables omit </td> and </tr> (valid HTML); the text after them is still read, the table is not."""
    from lessonkit.features.search import plain_text
    html = ('<p>前文</p><details class="figure-data"><summary>数据</summary><table><tr><th>x<td>1'
            '<tr><th>y<td>2</table></details><p>后文</p>')
    assert plain_text(html) == "前文 后文"
