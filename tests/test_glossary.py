"""The glossary: content/glossary.yaml checked like lesson.yaml, terms marked at their first use and by `[[…]]`,
each lesson's 术语表 and the site's glossary page."""
from __future__ import annotations

import re
import textwrap
from html.parser import HTMLParser
from pathlib import Path

from lessonkit.support.errors import Problem
from lessonkit.features.glossary import load_glossary, mark_first_uses

MINIMAL_YAML = """\
title: 小课
summary: 一节用来测试的小课
objectives:
  - 看懂一个数
"""

GLOSSARY = """\
terms:
  - id: layer-norm
    zh: 层归一化
    en: layer normalization
    aliases: [LayerNorm, LN]
    definition: 减去均值 $\\mu$，再除以标准差。
  - id: norm
    zh: 归一化
    en: normalization
    definition: 把数缩放到统一的尺度。
  - id: residual
    zh: 残差连接
    en: residual connection
    aliases: [残差]
    definition: 把输入直接加到输出上：$y = f(x) + x$。
  - id: unused
    zh: 没用到的词
    en: unused word
    definition: 哪一课都不提。
"""


def write_glossary(tmp_path: Path, text: str = GLOSSARY) -> Path:
    content = tmp_path / "content"
    content.mkdir(parents=True, exist_ok=True)
    (content / "glossary.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return content


def load(tmp_path: Path, text: str = GLOSSARY):
    problems: list[Problem] = []
    glossary = load_glossary(write_glossary(tmp_path, text), problems)
    return glossary, [str(p).replace(str(tmp_path / "content") + "/", "") for p in problems]


# ── validation ──────────────────────────────────────────────────────────────────────────────────────────────────────
def test_a_valid_glossary_loads_every_term(tmp_path):
    glossary, problems = load(tmp_path)
    assert problems == []
    assert [t.id for t in glossary.terms] == ["layer-norm", "norm", "residual", "unused"]
    assert glossary.find("layernorm").id == "layer-norm"          # id, names and aliases, case ignored
    assert glossary.find("Residual Connection").id == "residual"
    assert glossary.terms[0].definition_line == 6


def test_validation_messages_are_exact_with_lines(tmp_path):
    _, problems = load(tmp_path, """\
        terms:
          - id: residual
            zh: 残差连接
            en: residual connection
            aliases: [残差]
            defintion: 把输入加到输出上。
          - id: norm
            en: normalization
            definition: 归一化。
          - id: residual
            zh: 残差二
            en: residual two
            definition: x
          - id: stream
            zh: 残差流
            en: Residual Connection
            aliases: [残差]
            definition: y
          - id: Bad Id
            zh: 坏
            en: bad
            definition: z
        """)
    assert sorted(problems, key=lambda p: int(p.split(":")[1])) == [
        "glossary.yaml:2: missing required key `terms.0.definition` "
        "(expected a short definition in Markdown ($math$ allowed))",
        "glossary.yaml:6: unknown key `terms.0.defintion`; did you mean `definition`? "
        "(expected one of: id, zh, en, aliases, definition)",
        "glossary.yaml:7: missing required key `terms.1.zh` (expected the Chinese term, e.g. 层归一化)",
        "glossary.yaml:10: duplicate term id `residual` (first at line 2) (expected each id once)",
        "glossary.yaml:16: `Residual Connection` of term `stream` is already a name of term `residual` (line 4) "
        "(expected each Chinese name, English name and alias belonging to one term)",
        "glossary.yaml:17: `残差` of term `stream` is already a name of term `residual` (line 5) "
        "(expected each Chinese name, English name and alias belonging to one term)",
        "glossary.yaml:19: term id `Bad Id` is not an ASCII slug "
        "(expected lowercase ASCII letters, digits and hyphens, e.g. `layer-norm`)",
    ]


def test_unknown_top_level_key_and_no_file(tmp_path):
    _, problems = load(tmp_path, "term:\n  - id: x\n")
    assert problems == [
        "glossary.yaml:1: unknown key `term`; did you mean `terms`? (expected one of: terms)",
        "glossary.yaml: missing required key `terms` "
        "(expected a list of terms, each with id, zh, en, aliases and definition)",
    ]
    empty: list[Problem] = []
    assert load_glossary(tmp_path / "elsewhere", empty).terms == [] and empty == []


# ── automatic marking of the first use ──────────────────────────────────────────────────────────────────────────────
def marks(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<a class="term-ref" href="#term-([\w-]+)" data-term="[\w-]+">([^<]*)</a>', html)


def test_first_use_longest_match_and_only_once(tmp_path):
    glossary, _ = load(tmp_path)
    used: dict[str, None] = {}
    out = mark_first_uses("<p>层归一化不是归一化。再说层归一化和归一化、残差。</p>", glossary, used)
    # 「层归一化」 wins over the 「归一化」 inside it; each term once, at its first use
    assert marks(out) == [("layer-norm", "层归一化"), ("norm", "归一化"), ("residual", "残差")]
    assert re.sub(r"<[^>]+>", "", out) == "层归一化不是归一化。再说层归一化和归一化、残差。"
    assert list(used) == ["layer-norm", "norm", "residual"]
    assert marks(mark_first_uses("<p>层归一化</p>", glossary, used)) == []   # the same lesson's next section


def test_first_use_skips_headings_code_math_links_figures_widgets_and_marks(tmp_path):
    glossary, _ = load(tmp_path)
    skipped = ('<h3>层归一化</h3><p><code>LayerNorm</code> <a href="#x">残差</a></p>'
               '<pre><code>归一化</code></pre><p><math><mi>LN</mi></math></p>'
               '<figure><svg><text>残差连接</text><path d="M0 0"/></svg><figcaption>归一化</figcaption></figure>'
               '<div class="widget" data-widget="toggle"><div><p>层归一化</p></div><br></div>'
               '<p><a class="term-ref" href="#term-residual" data-term="residual">残差</a></p>')
    used: dict[str, None] = {}
    out = mark_first_uses(skipped + "<p>LayerNorm 与 LNs、残差连接、归一化。</p>", glossary, used)
    assert out.startswith(skipped)
    # only after the widget closed: LayerNorm (an alias) as a whole word; 残差 was marked by hand already
    assert marks(out[len(skipped):]) == [("layer-norm", "LayerNorm"), ("norm", "归一化")]
    assert list(used) == ["residual", "layer-norm", "norm"]


BOUNDARIES = """\
terms:
  - id: ln
    zh: 层归一化
    en: layer normalization
    aliases: [LN]
    definition: 归一化每个向量。
  - id: ln-block
    zh: LN块
    en: LN block
    definition: 一个带 LN 的块。
  - id: norm
    zh: 归一化
    en: normalization
    definition: 缩放。
  - id: self-attention
    zh: 自注意力
    en: self-attention
    aliases: [self attention]
    definition: 序列看自己。
  - id: self
    zh: 自身
    en: itself
    aliases: [self]
    definition: 它自己。
"""


def test_latin_names_only_as_whole_ascii_words_case_sensitive_and_within_one_text(tmp_path):
    glossary, _ = load(tmp_path, BOUNDARIES)

    def first_uses(html: str) -> list[tuple[str, str]]:
        return marks(mark_first_uses(html, glossary, {}))

    # a letter, digit or underscore next to a Latin end of a name (ASCII only) keeps it from matching; case counts
    assert first_uses("<p>LNs KLN LN_x x_LN 2LN LN2 ln Ln</p>") == []
    assert first_uses("<p>用LN做，（LN）与 LN-2</p>") == [("ln", "LN")]       # Chinese, brackets, hyphen: boundaries
    # the longest name at a place wins; one ending in Chinese has no boundary at its end, one starting in Latin
    # has one at its start
    assert first_uses("<p>LN块s</p>") == [("ln-block", "LN块")]
    assert first_uses("<p>XLN块 里的 LN</p>") == [("ln", "LN")]
    # a longer name that is not a whole word there gives way to a shorter one at the same place
    assert first_uses("<p>self attentions</p>") == [("self", "self")]
    assert first_uses("<p>self attention.</p>") == [("self-attention", "self attention")]
    # after a name the search goes on behind it, never inside it; a name never runs across a tag
    assert first_uses("<p>层归一化归一化</p>") == [("ln", "层归一化"), ("norm", "归一化")]
    assert first_uses("<p>层归<b>一化</b> L<i>N</i></p>") == []
    assert first_uses("<p>层归</p>一化") == []


# ── in a build ──────────────────────────────────────────────────────────────────────────────────────────────────────
LESSON_A = """\
## 第一节 {#first}

### 层归一化的小标题

`残差` 在代码里不算。层归一化把每个向量拉回统一尺度；[[残差|residual connection]] 让梯度绕过子层。

## 第二节 {#second}

再说一次层归一化和 [[norm]]。
"""
LESSON_B = """\
## 只有一节 {#only}

这一课只讲残差连接。
"""


def site_with_glossary(tmp_path, make_lesson, run_build):
    write_glossary(tmp_path)
    make_lesson("alpha", yaml=MINIMAL_YAML.replace("小课", "甲课") + "order: 1\n", md=LESSON_A, py=None)
    make_lesson("beta", yaml=MINIMAL_YAML.replace("小课", "乙课") + "order: 2\n", md=LESSON_B, py=None)
    code, _, err, out = run_build()
    assert code == 0, err
    return out


class Entries(HTMLParser):
    """{entry id: (its text, [(link text, href)…])} for every .glossary-entry of a page."""

    def __init__(self):
        super().__init__()
        self.entries: dict[str, list] = {}
        self.current: str | None = None
        self.depth = 0
        self.href: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "glossary-entry" in (a.get("class") or "").split():
            self.current, self.depth = a["id"], 0
            self.entries[self.current] = ["", []]
        if self.current:
            self.depth += tag != "br"
            if tag == "a":
                self.href = a.get("href")
                self.entries[self.current][1].append(["", self.href])

    def handle_endtag(self, tag):
        if self.current:
            self.depth -= 1
            if tag == "a":
                self.href = None
            if self.depth == 0:
                self.current = None

    def handle_data(self, data):
        if self.current:
            self.entries[self.current][0] += data
            if self.href is not None:
                self.entries[self.current][1][-1][0] += data


def entries(page: Path) -> dict[str, list]:
    parser = Entries()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.entries


def test_marks_glossary_sections_and_site_page(tmp_path, make_lesson, run_build):
    out = site_with_glossary(tmp_path, make_lesson, run_build)
    alpha = (out / "alpha" / "index.html").read_text(encoding="utf-8")
    body = alpha[alpha.index('id="first"'):alpha.index('id="lesson-glossary"')]
    # the heading and the code span are skipped; the explicit mark shows its own text; the first use is marked once
    assert marks(body) == [("layer-norm", "层归一化"), ("residual", "residual connection"), ("norm", "norm")]
    assert "<h3>层归一化的小标题</h3>" in body and "<code>残差</code>" in body
    # the lesson's 术语表: the terms it uses, in reading order, both names and the definition (math rendered)
    found = entries(out / "alpha" / "index.html")
    assert list(found) == ["term-layer-norm", "term-residual", "term-norm"]
    assert "层归一化" in found["term-layer-norm"][0] and "layer normalization" in found["term-layer-norm"][0]
    assert "<math>" in alpha[alpha.index('id="term-layer-norm"'):]
    assert 'data-widget="term"' in alpha and alpha.index('id="lesson-glossary"') < alpha.index("</article>")
    # the site's glossary: every term, each with the lessons (titles) that use it
    site = entries(out / "glossary.html")
    uses = {"layer-norm": ["甲课"], "norm": ["甲课"], "residual": ["甲课", "乙课"], "unused": []}
    assert list(site) == [f"term-{t}" for t in uses]
    for term, lessons in uses.items():
        links = [(text, href) for text, href in site[f"term-{term}"][1]]
        slugs = {"甲课": "alpha", "乙课": "beta"}
        assert links == [(title, f"{slugs[title]}/index.html#term-{term}") for title in lessons]
    assert "尚未在课程中出现" in site["term-unused"][0]
    # linked from the index page and from the course contents
    assert 'href="glossary.html"' in (out / "index.html").read_text(encoding="utf-8")
    assert 'href="../glossary.html"' in alpha


def test_unknown_explicit_term_is_an_error_with_line_and_suggestion(tmp_path, make_lesson, run_build):
    write_glossary(tmp_path)
    make_lesson(md="## 第一节 {#first}\n\n第一行。\n\n这里写错了 [[层归一]] 和 [[残差|resdual]]。\n", py=None)
    code, _, err, _ = run_build()
    assert code == 1 and "Traceback" not in err
    assert ("demo/lesson.md:5: unknown glossary term `[[层归一]]`; did you mean `层归一化` (layer-norm)? "
            "(expected a term in glossary.yaml by its id, zh, en or an alias)") in err
    assert "demo/lesson.md:5: unknown glossary term `[[残差|resdual]]`" not in err   # the term is the first part
    assert err.count("unknown glossary term") == 1


def test_a_glossary_problem_fails_the_build_with_its_line(tmp_path, make_lesson, run_build):
    write_glossary(tmp_path, GLOSSARY.replace("    definition: 哪一课都不提。\n", "    definiton: 哪一课都不提。\n"))
    make_lesson(py=None, md="## 第一节 {#first}\n\n没有术语。\n")
    code, _, err, _ = run_build()
    assert code == 1
    assert "glossary.yaml:19: unknown key `terms.3.definiton`; did you mean `definition`?" in err


def test_without_a_glossary_nothing_changes(tmp_path, make_lesson, run_build):
    make_lesson(py=None, md="## 第一节 {#first}\n\n层归一化。\n")
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "term-ref" not in page and "术语表" not in page and not (out / "glossary.html").exists()


def test_marks_in_lesson_yaml_text_but_not_in_titles_or_objectives(tmp_path, make_lesson, run_build):
    write_glossary(tmp_path)
    yaml_text = MINIMAL_YAML + "question: |\n  为什么要 [[残差连接]]？\n"
    make_lesson(yaml=yaml_text, md="## 第一节 {#first}\n\n只有层归一化。\n", py=None)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert marks(page[page.index('id="question-title"'):page.index('id="lesson-glossary"')]) == [
        ("residual", "残差连接"), ("layer-norm", "层归一化")]
    assert list(entries(out / "demo" / "index.html")) == ["term-layer-norm", "term-residual"]
    bad = MINIMAL_YAML.replace("看懂一个数", "看懂 [[残差]]")
    make_lesson(yaml=bad, md="## 第一节 [[层归一化]] {#first}\n\n正文。\n", py=None)
    code, _, err, _ = run_build()
    assert code == 1
    assert ("demo/lesson.yaml:4: glossary term `[[残差]]` in an objective (the index page shows it too) "
            "(expected the term marked in the text below it (its first use there is marked by itself))") in err
    assert "demo/lesson.md:1: glossary term `[[层归一化]]` in a section title" in err
