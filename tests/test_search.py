"""lessonkit.features.search: what counts as text (the rules, as plain_text applies them and as the component gets
them), the indexes it builds, the course's index file and what it costs. Searching itself lives in the component's
widget.js and is tested in Chromium (tests/browser/test_search_in_browser.py)."""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re

import pytest

from lessonkit.features import search as S

ROPE = {"slug": "rope", "title": "旋转位置编码",
        "sections": [{"id": "why", "title": "为什么需要位置", "html": "<p>注意力本身不知道顺序，所以要加入位置编码。</p>",
                      "page": True},
                     {"id": "rope", "title": "RoPE 的<em>做法</em>",
                      "html": "<p>RoPE 把向量按角度旋转；<code>rope(x, θ)</code> 与 LayerNorm 无关。</p>", "page": True}]}
RESID = {"slug": "residual", "title": "残差连接",
         "sections": [{"id": "", "title": "残差连接", "text": "一节关于残差的课"},
                      {"id": "depth", "title": "深度与梯度", "html": "<p>没有残差时梯度 &lt;b&gt; 会消失 &amp; 爆炸。</p>"
                                                                 "<p>有残差时，梯度有一条捷径。</p>", "page": True}]}


def script_index(script: str) -> dict:
    """The index a search-index.js sets, read back as the browser would read its one assignment."""
    prefix, suffix = "lessonkit.searchIndex=", ";\n"
    assert script.startswith(prefix) and script.endswith(suffix)
    return json.loads(script[len(prefix):-len(suffix)])


# ── what counts as text ────────────────────────────────────────────────────────────────────────────────────────────
def test_plain_text_drops_markup_and_hidden_parts_and_unescapes():
    html = ('<p>可见<span class="vh">读屏</span><svg><text>轴标签</text></svg>文字<br>下一行</p>'
            '<div class="print-only">打印版</div><script>var x = "<p>";</script><button>按钮</button>'
            '<math><mi>x</mi><mo>+</mo><mn>1</mn></math><img src="data:," alt="图"><p>a &lt; b &amp; c</p>'
            '<p hidden>藏起</p><span aria-hidden="true">装饰</span><span aria-hidden="false">留下</span>')
    assert S.plain_text(html) == "可见文字 下一行 x+1 a < b & c 留下"


def test_figure_data_and_its_csv_links_are_not_text():
    """Figure data tables omit </td> and </tr> (valid HTML); the text after them is still read, the table is not."""
    html = ('<p>前文</p><details class="figure-data"><summary>数据</summary><table><tr><th>x<td>1'
            '<tr><th>y<td>2</table><p class="data-csv"><a href="data:," download="a.csv">下载 CSV（a.csv）</a></p>'
            '</details><p>后文</p>')
    assert S.plain_text(html) == "前文 后文"


WELL_FORMED_OR_NOT = [
    '<P CLASS="Answer">大写的名字</P><p Class="answer">答</p>后',          # names in any case, class values as written
    '<span class=vh>无引号</span><span class = \'vh\' >单引号</span>留',   # unquoted, single quotes, spaces around =
    '<span title="a > b">值里有 &gt;</span><span data-x="&quot;vh&quot;">实体</span>',
    '<br/>自闭合<svg><path d="M0 0"/></svg><hr />后<input hidden>',
    '<!-- lk-1 -->注释<!--x-- >之后<!---->空',                             # comments, as the holes are written
    '<script type="application/json">{"a": "</p><p class=\\"x\\">"}</script>脚本后'
    '<style>p > a { color: red }</style><SCRIPT>if (a<b) {}</SCRIPT >尾',   # raw text up to its end tag
    '文&amp;字 &lt;b&gt; &#x4e2d;&#25991; &nbsp;&copy &unknown; &',        # references, broken ones too
    '<p>未闭合<span hidden>藏<b>粗</b>起</span>然后',                        # skipped with nested tags, unclosed p
    'a < b <3 </ > <!DOCTYPE html><?pi?><![CDATA[x]]>',                     # not tags: HTMLParser's own reading
    '<div aria-hidden=true>甲</div><div aria-hidden="TRUE">乙</div><p a=b=c>丙</p>',
    '<table><tr><th>x<td>1<tr><th>y<td>2</table><details class="figure-data"><summary>数</summary></details>',
    '<script>never closed',
]


@pytest.mark.parametrize("html", WELL_FORMED_OR_NOT)
def test_plain_text_reads_as_htmlparser_reads(html):
    """plain_text's tokenizer for well-formed markup hands the reader what HTMLParser would (the reference)."""
    reader = S._Text()
    reader.feed(html)
    reader.close()
    assert S.plain_text(html) == S.collapse("".join(reader.parts))


def test_plain_text_reads_every_built_section_as_htmlparser_reads(real_site, fixture_course):
    pages = [*real_site.rglob("*.html"), *(fixture_course / "out").rglob("*.html")]
    sections = [s for page in pages for s in re.findall(r"<section\b.*?</section>", page.read_text("utf-8"), re.S)]
    assert len(sections) > 20
    for html in sections:
        reader = S._Text()
        reader.feed(html)
        reader.close()
        assert S.plain_text(html) == S.collapse("".join(reader.parts))


def test_the_rules_the_component_gets_are_the_rules_plain_text_applies():
    """Each rule in the data widget.js receives, tried on plain_text one at a time: the data describes Python."""
    rules = json.loads(S.index_json(S.RULES))
    assert set(rules) == {"skip_tags", "skip_classes", "skip_attributes", "breaks", "spaces", "han"}
    for tag in rules["skip_tags"]:
        assert S.plain_text(f"甲<{tag}>乙</{tag}>丙") == "甲丙", tag
    for name in rules["skip_classes"]:
        assert S.plain_text(f'甲<span class="x {name}">乙</span>丙') == "甲丙", name
    for name, value in rules["skip_attributes"].items():
        assert S.plain_text(f'甲<span {name}="{value if value is not None else ""}">乙</span>丙') == "甲丙", name
    for tag in rules["breaks"]:
        assert S.plain_text(f"甲<{tag}>乙</{tag}>丙" if tag != "br" else "甲<br>丙") in ("甲 乙 丙", "甲 丙"), tag
    for tag in ("span", "em", "a", "code", "mark", "sub"):       # neither skipped nor breaking: words stay whole
        assert S.plain_text(f"甲<{tag}>乙</{tag}>丙") == "甲乙丙", tag
    assert S.plain_text('甲<span class="note">乙</span>丙') == "甲乙丙"
    assert S.plain_text("甲\u3000\t乙\xa0\u2009丙\u200b丁") == "甲 乙 丙\u200b丁"   # zero width: no space


def test_spaces_are_exactly_what_python_calls_whitespace_in_a_class_both_languages_read():
    every = {chr(i) for i in range(0x110000) if chr(i).isspace()}
    assert len(every) == 29
    one = re.compile(f"[{S.RULES['spaces']}]")
    assert {chr(i) for i in range(0x110000) if one.fullmatch(chr(i))} == every
    assert S.RULES["spaces"].isascii()          # \uXXXX escapes: no control character in a page (Nu checker)


# ── the indexes ────────────────────────────────────────────────────────────────────────────────────────────────────
def test_site_index_carries_every_section_text_and_links_to_each_lesson():
    data = S.search_index([ROPE, RESID])
    assert data["scope"] == "site" and "all" not in data and data["rules"] == S.RULES
    assert data["lessons"] == [["旋转位置编码", "rope/index.html"], ["残差连接", "residual/index.html"]]
    assert data["sections"] == [
        [0, "", "旋转位置编码", ""],                   # added: the lesson's title leads to its top
        [0, "why", "为什么需要位置", "注意力本身不知道顺序，所以要加入位置编码。"],
        [0, "rope", "RoPE 的做法", "RoPE 把向量按角度旋转；rope(x, θ) 与 LayerNorm 无关。"],
        [1, "", "残差连接", "一节关于残差的课"],
        [1, "depth", "深度与梯度", "没有残差时梯度 <b> 会消失 & 爆炸。 有残差时，梯度有一条捷径。"]]


def test_a_lesson_page_reads_the_text_of_its_own_sections_from_the_page():
    data = S.search_index([ROPE, RESID], here="rope", root="../")
    assert data["scope"] == "lesson" and data["all"] == "../index.html"
    assert data["lessons"] == [["旋转位置编码", ""], ["残差连接", "../residual/index.html"]]
    assert [s for s in data["sections"] if s[0] == 0] == [[0, "", "旋转位置编码", ""], [0, "why", "为什么需要位置", None],
                                                          [0, "rope", "RoPE 的做法", None]]
    assert [s[3] is not None for s in data["sections"] if s[0] == 1] == [True, True]   # other lessons: text
    unmarked = {**ROPE, "sections": [{**s, "page": False} for s in ROPE["sections"]]}
    assert [s[3] for s in S.search_index([unmarked], here="rope")["sections"]][1:] == [
        "注意力本身不知道顺序，所以要加入位置编码。", "RoPE 把向量按角度旋转；rope(x, θ) 与 LayerNorm 无关。"]


def test_lesson_entry_from_a_page_context():
    context = {"slug": "s", "title": "标题", "summary": "摘要文字", "intro": "<p>引言</p>",
               "objectives": ["目标<em>一</em>"], "question": "", "sections": [
                   {"id": "a", "number": 1, "title": "第一节", "body": "<p>正文</p>"}],
               "challenges": [{"id": "challenge-1", "number": 1, "title": "挑战题", "question": "<p>问题</p>",
                               "answer": "<p>秘密答案</p>"}],
               "sources": ["<a href='https://example.org'>来源</a>"]}
    entry = S.lesson_entry(context)
    assert [s.get("page", False) for s in entry["sections"]] == [False, True, False, False]   # only sections
    data = S.search_index([entry])
    assert [s[1:] for s in data["sections"]] == [["", "标题", "摘要文字 引言 目标一"], ["a", "第一节", "正文"],
                                                 ["challenge-1", "挑战 1 · 挑战题", "问题"],
                                                 ["sources", "参考资料", "来源"]]
    assert "秘密" not in json.dumps(data, ensure_ascii=False)       # answers are not searchable
    own = S.search_index([entry], here="s", root="../")
    assert [s[3] for s in own["sections"]] == ["摘要文字 引言 目标一", None, "问题", "来源"]


# ── the course's index file ────────────────────────────────────────────────────────────────────────────────────────
def test_the_course_index_is_a_script_the_index_page_loads_by_hash():
    course = S.course_index([ROPE, RESID])
    assert script_index(course.script) == {"v": S.VERSION, **{k: v for k, v in S.search_index([ROPE, RESID]).items()
                                                               if k in ("lessons", "sections")}}
    box = course.box
    assert "lessons" not in box and "sections" not in box and box["scope"] == "site" and box["rules"] == S.RULES
    digest = hashlib.sha256(course.script.encode("utf-8")).digest()
    assert box["load"]["integrity"] == "sha256-" + base64.b64encode(digest).decode()
    assert re.fullmatch(r"search-index\.js\?v=[A-Za-z0-9_-]{8}", box["load"]["src"])
    assert S.csp_sources(box) == [f"'{box['load']['integrity']}'", "file:"]
    assert S.csp_sources(S.search_index([ROPE], here="rope")) == []          # a lesson page loads nothing
    assert S.course_index([ROPE], root="../").box["load"]["src"].startswith("../search-index.js?v=")
    other = S.course_index([ROPE])
    assert other.box["load"]["src"] != box["load"]["src"]      # another index, another address: no stale cache


def test_index_script_cannot_close_a_script_element_or_break_a_line():
    course = S.course_index([{"slug": "x", "title": "X", "sections": [
        {"id": "s", "title": "S", "text": "</script><b>&amp; 行\u2028段\u2029"}]}])
    assert not re.search("[<>&\u2028\u2029]", course.script)
    assert script_index(course.script)["sections"][1][3] == "</script><b>&amp; 行 段"   # separators are spaces
    assert S.index_script({"t": "行\u2028段"}) == 'lessonkit.searchIndex={"t":"行\\u2028段"};\n'


def test_the_index_file_is_the_text_once():
    """Its gzip size stays near the gzip size of the text itself; sizes() weighs it as a server sends it."""
    body = "".join(f"<p>第 {i} 段：残差连接让梯度有捷径，位置编码告诉模型顺序，LayerNorm 稳定数值。</p>" for i in range(200))
    lessons = [{"slug": f"l{k}", "title": f"第 {k} 课", "sections": [
        {"id": f"s{j}", "title": f"第 {j} 节", "html": body} for j in range(3)]} for k in range(5)]
    script = S.course_index(lessons).script
    text = "".join(S.plain_text(body) for _ in range(15)).encode()
    raw, gz = S.sizes(script)
    assert raw == len(script.encode("utf-8")) and gz == len(gzip.compress(script.encode("utf-8"), 9))
    assert len(text) < raw < 1.02 * len(text)
    assert gz < 1.1 * len(gzip.compress(text)) + 200
    assert S.sizes("ab") == (2, len(gzip.compress(b"ab", 9)))


# ── in the build ───────────────────────────────────────────────────────────────────────────────────────────────────
LESSON_MD = """\
## 第一节 {{#first}}

第 {n} 课独有的句子：{words}。
"""


@pytest.mark.parametrize("lessons", [1, 3])
def test_the_build_writes_the_index_beside_the_pages_and_no_page_carries_it(make_lesson, run_build, lessons):
    unique = ["甲乙丙丁戊", "己庚辛壬癸", "子丑寅卯辰"]
    for n in range(lessons):
        make_lesson(f"l{n}", md=LESSON_MD.format(n=n, words=unique[n]), py=None)
    code, out_text, _, out = run_build()
    assert code == 0
    script = (out / "search-index.js").read_text(encoding="utf-8")
    index = (out / "index.html").read_text(encoding="utf-8")
    assert [s[3] for s in script_index(script)["sections"] if s[1] == "first"] == [
        f"第 {n} 课独有的句子：{unique[n]}。" for n in range(lessons)]
    assert not any(w in index for w in unique)             # the index page has the titles, not the text
    box = json.loads(re.search(r'id="site-search-data">(.*?)</script>', index).group(1))
    assert box["load"]["integrity"] == "sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    policy = re.search(r'Content-Security-Policy" content="([^"]+)"', index).group(1)
    assert f"'{box['load']['integrity']}' file:;" in policy
    for n in range(lessons):                               # a lesson page: its own text once, loading nothing
        page = (out / f"l{n}" / "index.html").read_text(encoding="utf-8")
        policy = re.search(r'Content-Security-Policy" content="([^"]+)"', page).group(1)
        assert page.count(unique[n]) == 1 and "search-index.js" not in page and "file:" not in policy
    kb = len(script.encode()) / 1024
    assert re.search(rf"Search index\s+\| {kb:.1f} KB in search-index\.js, loaded when someone searches", out_text), \
        out_text
