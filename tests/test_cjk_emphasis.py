"""load/syntax/cjk.py: the CJK-friendly amendment to CommonMark's emphasis flanking rules. Chinese (and Japanese and
Korean) emphasis next to punctuation reads as the amendment says; every text without CJK characters reads exactly as
stock markdown-it reads it, the CommonMark spec's emphasis examples included."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_inline import StateInline

from lessonkit.load.syntax import nodes as n
from lessonkit.load.syntax.cjk import CJK_CHARACTERS, is_cjk, scan_delims
from lessonkit.load.syntax.parser import LineInline, parse_markdown

SPEC = Path(__file__).parent / "fixtures" / "commonmark" / "spec-0.31.2-examples.txt"   # its README: source, licence
FENCE = "`" * 32


# ── helpers ─────────────────────────────────────────────────────────────────────────────────────────────────────────
def html(nodes) -> str:
    """Inline nodes written as markdown-it writes their HTML: enough to compare with the amendment's expected output."""
    out = []
    for node in nodes:
        kind = type(node)
        if kind is n.Text:
            out.append(escapeHtml(node.text))
        elif kind is n.CodeSpan:
            out.append(f"<code>{escapeHtml(node.text)}</code>")
        elif kind is n.Link:
            out.append(f'<a href="{escapeHtml(node.href)}">{html(node.children)}</a>')
        else:
            tag = {n.Emphasis: "em", n.Strong: "strong", n.Strike: "del"}[kind]
            out.append(f"<{tag}>{html(node.children)}</{tag}>")
    return "".join(out)


def paragraph(text: str) -> tuple:
    """The inline nodes of `text`, one paragraph, as lessonkit's parser reads it."""
    problems = []
    blocks = parse_markdown(text, Path("x.md"), 1, problems)
    assert problems == [] and len(blocks) == 1 and type(blocks[0]) is n.Paragraph, (blocks, problems)
    return blocks[0].children


class CjkState(StateInline):
    scanDelims = scan_delims


class CjkInline(LineInline):
    """markdown-it's inline parser with the amended scanDelims, wired as lessonkit's parser wires it."""
    State = CjkState


def commonmark(amended: bool, *extras: str) -> MarkdownIt:
    md = MarkdownIt("commonmark")
    if amended:
        md.inline = CjkInline()
        md.configure("commonmark")   # a new inline parser has every rule on; the preset turns off what CommonMark lacks
    return md.enable(list(extras)) if extras else md


STOCK, AMENDED = commonmark(False), commonmark(True)
STOCK_GFM, AMENDED_GFM = commonmark(False, "strikethrough", "table"), commonmark(True, "strikethrough", "table")


def spec_examples() -> list[tuple[str, int, str, str]]:
    """(section, number, markdown, html) of every example in the CommonMark spec: a fenced example holds the markdown,
    a line `.`, the HTML; `→` stands for a tab. Reads the spec itself as well as the extract."""
    examples, section, lines = [], "", None
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if lines is None and line == FENCE + " example":
            lines = []
        elif lines is not None and line == FENCE:
            dot = lines.index(".")
            markdown, expected = ("".join(f"{x}\n" for x in part).replace("→", "\t")
                                  for part in (lines[:dot], lines[dot + 1:]))
            examples.append((section, len(examples) + 1, markdown, expected))
            lines = None
        elif lines is not None:
            lines.append(line)
        elif re.match("#+ ", line):
            section = line.lstrip("#").strip()
    return examples


EXAMPLES = spec_examples()
EMPHASIS = [e for e in EXAMPLES if e[0] == "Emphasis and strong emphasis"]


# ── the amendment's own cases ───────────────────────────────────────────────────────────────────────────────────────
# From https://github.com/tats-u/markdown-cjk-friendly at commit 7fdf4909d0d7f330cbf0ec18778b25a4fc5fe441: the
# Markdown of testcases/{strong,korean,pseudo-emoji,non-bmp,underscore-cjk-punct,gfm-strikethrough,gfm-non-cjk}.md and
# of the example in packages/markdown-it-cjk-friendly/README.md, one paragraph each, paired with the HTML that the
# amendment's markdown-it plugin gives for it (packages/markdown-it-cjk-friendly/test/__snapshots__/
# markdownIt.spec.ts.snap) and, for strikethrough, its micromark extension (packages/micromark-extension-cjk-friendly-
# gfm-strikethrough/test/__snapshots__/micromarkStrikethrough.spec.ts.snap); the surrounding <p></p> left off,
# invisible characters written as escapes. Copied under the repository's licence:
#
#   Copyright (c) 2024 Tatsunori Uchino, and authors and contributors of original packages
#
#   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
#   documentation files (the "Software"), to deal in the Software without restriction, including without limitation
#   the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
#   to permit persons to whom the Software is furnished to do so, subject to the following conditions:
#
#   The above copyright notice and this permission notice shall be included in all copies or substantial portions of
#   the Software.
#
#   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO
#   THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
#   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
#   CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
#   IN THE SOFTWARE.
README = [
    ("**このアスタリスクは強調記号として認識されず、そのまま表示されます。**この文のせいで。", "<strong>このアスタリスクは強調記号として認識されず、そのまま表示されます。</strong>この文のせいで。"),
    ("**该星号不会被识别，而是直接显示。**这是因为它没有被识别为强调符号。", "<strong>该星号不会被识别，而是直接显示。</strong>这是因为它没有被识别为强调符号。"),
    ("**이 별표는 강조 표시로 인식되지 않고 그대로 표시됩니다(이 괄호 때문에)**이 문장 때문에.",
     "<strong>이 별표는 강조 표시로 인식되지 않고 그대로 표시됩니다(이 괄호 때문에)</strong>이 문장 때문에."),
]
STRONG = [
    ("これは**私のやりたかったこと。**だからするの。", "これは<strong>私のやりたかったこと。</strong>だからするの。"),
    ("**[製品ほげ](./product-foo)**と**[製品ふが](./product-bar)**をお試しください",
     '<strong><a href="./product-foo">製品ほげ</a></strong>と<strong><a href="./product-bar">製品ふが</a></strong>をお試しください'),
    ("単語と**[単語と](word-and)**単語", '単語と<strong><a href="word-and">単語と</a></strong>単語'),
    ("**これは太字になりません。**ご注意ください。", "<strong>これは太字になりません。</strong>ご注意ください。"),
    ("カッコに注意**（太字にならない）**文が続く場合に要警戒。", "カッコに注意<strong>（太字にならない）</strong>文が続く場合に要警戒。"),
    ("**[リンク](https://example.com)**も注意。（画像も同様）",
     '<strong><a href="https://example.com">リンク</a></strong>も注意。（画像も同様）'),
    ("先頭の**\\`コード\\`も注意。**", "先頭の<strong>`コード`も注意。</strong>"),
    ("**末尾の\\`コード\\`**も注意。", "<strong>末尾の`コード`</strong>も注意。"),
    ("税込**¥10,000**で入手できます。", "税込<strong>¥10,000</strong>で入手できます。"),
    ("正解は**④**です。", "正解は<strong>④</strong>です。"),
    ("太郎は**「こんにちわ」**といった", "太郎は<strong>「こんにちわ」</strong>といった"),
    ('太郎は**"こんにちわ"**といった', "太郎は<strong>&quot;こんにちわ&quot;</strong>といった"),
    ("太郎は**こんにちわ**といった", "太郎は<strong>こんにちわ</strong>といった"),
    ("太郎は**「Hello」**といった", "太郎は<strong>「Hello」</strong>といった"),
    ('太郎は**"Hello"**といった', "太郎は<strong>&quot;Hello&quot;</strong>といった"),
    ("太郎は**Hello**といった", "太郎は<strong>Hello</strong>といった"),
    ("太郎は**「Oh my god」**といった", "太郎は<strong>「Oh my god」</strong>といった"),
    ('太郎は**"Oh my god"**といった', "太郎は<strong>&quot;Oh my god&quot;</strong>といった"),
    ("太郎は**Oh my god**といった", "太郎は<strong>Oh my god</strong>といった"),
    ("**C#**や**F#**は**「.NET」**というプラットフォーム上で動作します。",
     "<strong>C#</strong>や<strong>F#</strong>は<strong>「.NET」</strong>というプラットフォーム上で動作します。"),
    ("IDが**001号**になります。", "IDが<strong>001号</strong>になります。"),
    ("IDが**００１号**になります。", "IDが<strong>００１号</strong>になります。"),
    ("Go**「初心者」**を対象とした記事です。", "Go<strong>「初心者」</strong>を対象とした記事です。"),
    ("**[リンク](https://example.com)**も注意。", '<strong><a href="https://example.com">リンク</a></strong>も注意。'),
    ("**⻲田太郎**と申します", "<strong>⻲田太郎</strong>と申します"),
    ("・**㋐**:選択肢１つ目", "・<strong>㋐</strong>:選択肢１つ目"),
    ("**真，**她", "<strong>真，</strong>她"),
    ("**真。**她", "<strong>真。</strong>她"),
    ("**真、**她", "<strong>真、</strong>她"),
    ("**真；**她", "<strong>真；</strong>她"),
    ("**真：**她", "<strong>真：</strong>她"),
    ("**真？**她", "<strong>真？</strong>她"),
    ("**真！**她", "<strong>真！</strong>她"),
    ("**真“**她", "<strong>真“</strong>她"),
    ("**真”**她", "<strong>真”</strong>她"),
    ("**真‘**她", "<strong>真‘</strong>她"),
    ("**真’**她", "<strong>真’</strong>她"),
    ("**真（**她", "<strong>真（</strong>她"),
    ("真**（她**", "真<strong>（她</strong>"),
    ("**真）**她", "<strong>真）</strong>她"),
    ("**真【**她", "<strong>真【</strong>她"),
    ("真**【她**", "真<strong>【她</strong>"),
    ("**真】**她", "<strong>真】</strong>她"),
    ("**真《**她", "<strong>真《</strong>她"),
    ("真**《她**", "真<strong>《她</strong>"),
    ("**真》**她", "<strong>真》</strong>她"),
    ("**真—**她", "<strong>真—</strong>她"),
    ("**真～**她", "<strong>真～</strong>她"),
    ("**真…**她", "<strong>真…</strong>她"),
    ("**真·**她", "<strong>真·</strong>她"),
    ("**真〃**她", "<strong>真〃</strong>她"),
    ("**真-**她", "<strong>真-</strong>她"),
    ("**真々**她", "<strong>真々</strong>她"),
    ("**真**她", "<strong>真</strong>她"),
    ("**真，** 她", "<strong>真，</strong> 她"),
    ("**真**，她", "<strong>真</strong>，她"),
    ("**真，**&ZeroWidthSpace;她", "<strong>真，</strong>\u200b她"),
    ("私は**⻲田太郎**と申します", "私は<strong>⻲田太郎</strong>と申します"),
    ("選択肢**㋐**: 1つ目の選択肢", "選択肢<strong>㋐</strong>: 1つ目の選択肢"),
    ("**さようなら︙**と太郎はいった。", "<strong>さようなら︙</strong>と太郎はいった。"),
    (".NET**（.NET Frameworkは不可）**では、", ".NET<strong>（.NET Frameworkは不可）</strong>では、"),
    ("「禰\U000e0100」の偏は示ではなく**礻**です。", "「禰\U000e0100」の偏は示ではなく<strong>礻</strong>です。"),
    ("Git**（注：不是GitHub）**", "Git<strong>（注：不是GitHub）</strong>"),
    ("太郎は**「こんにちわ」**といった。", "太郎は<strong>「こんにちわ」</strong>といった。"),
    ("𰻞𰻞**（ビャンビャン）**麺", "𰻞𰻞<strong>（ビャンビャン）</strong>麺"),
    ("𰻞𰻞**(ビャンビャン)**麺", "𰻞𰻞<strong>(ビャンビャン)</strong>麺"),
    ("ハイパーテキストコーヒーポット制御プロトコル**(HTCPCP)**", "ハイパーテキストコーヒーポット制御プロトコル<strong>(HTCPCP)</strong>"),
    ("﨑**(崎)**", "﨑<strong>(崎)</strong>"),
    ("国際規格**[ECMA-262](https://tc39.es/ecma262/)**",
     '国際規格<strong><a href="https://tc39.es/ecma262/">ECMA-262</a></strong>'),
    ("㐧**(第の俗字)**", "㐧<strong>(第の俗字)</strong>"),
    ("𠮟**(こちらが正式表記)**", "𠮟<strong>(こちらが正式表記)</strong>"),
    ("𪜈**(トモの合略仮名)**", "𪜈<strong>(トモの合略仮名)</strong>"),
    ("𫠉**(馬の俗字)**", "𫠉<strong>(馬の俗字)</strong>"),
    ("谺𬤲**(こだま)**石神社", "谺𬤲<strong>(こだま)</strong>石神社"),
    ("石𮧟**(いしただら)**", "石𮧟<strong>(いしただら)</strong>"),
    ("**推荐几个框架：**React、Vue等前端框架。", "<strong>推荐几个框架：</strong>React、Vue等前端框架。"),
    ("葛\U000e0100**(こちらが正式表記)**城市", "葛\U000e0100<strong>(こちらが正式表記)</strong>城市"),
    ("禰\U000e0100**(こちらが正式表記)**豆子", "禰\U000e0100<strong>(こちらが正式表記)</strong>豆子"),
    ("𱟛**(U+317DB)**", "𱟛<strong>(U+317DB)</strong>"),
    ("阿寒湖アイヌシアターイコㇿ**(Akanko Ainu Theater Ikor)**", "阿寒湖アイヌシアターイコㇿ<strong>(Akanko Ainu Theater Ikor)</strong>"),
    ("あ𛀙**(か)**よろし", "あ𛀙<strong>(か)</strong>よろし"),
    ("𮹝**(simplified form of 龘 in China)**", "𮹝<strong>(simplified form of 龘 in China)</strong>"),
    ("大塚\ufe00**(U+585A U+FE00)** 大塚**(U+FA10)**",
     "大塚\ufe00<strong>(U+585A U+FE00)</strong> 大塚<strong>(U+FA10)</strong>"),
    ("〽\ufe0e**(庵点)**は、", "〽\ufe0e<strong>(庵点)</strong>は、"),
    ("**“\ufe01Git”\ufe01**Hub", "<strong>“\ufe01Git”\ufe01</strong>Hub"),
]
KOREAN = [
    ("**이 [링크](https://example.kr/)**만을 강조하고 싶다.",
     '<strong>이 <a href="https://example.kr/">링크</a></strong>만을 강조하고 싶다.'),
    ("**스크립트(script)**라고", "<strong>스크립트(script)</strong>라고"),
    ("패키지를 발행하려면 **`npm publish`**를 실행하십시오.", "패키지를 발행하려면 <strong><code>npm publish</code></strong>를 실행하십시오."),
    ("**안녕(hello)**하세요.", "<strong>안녕(hello)</strong>하세요."),
    ("ᅡ**(a)**", "ᅡ<strong>(a)</strong>"),
    ("**(k)**ᄏ", "<strong>(k)</strong>ᄏ"),
]
PSEUDO_EMOJI = [
    ("a**〰**a", "a<strong>〰</strong>a"),
    ("a**〽**a", "a<strong>〽</strong>a"),
    ("a**🈂**a", "a<strong>🈂</strong>a"),
    ("a**🈷**a", "a<strong>🈷</strong>a"),
    ("a**㊗**a", "a<strong>㊗</strong>a"),
    ("a**㊙**a", "a<strong>㊙</strong>a"),
]
NON_BMP = [
    ("a**a«**a", "a**a«**a"),
    ("a**»a**a", "a**»a**a"),
    ("a**a∇**a", "a**a∇**a"),
    ("a**∇a**a", "a**∇a**a"),
    ("a**a𝜵**a", "a**a𝜵**a"),
    ("a**𝜵a**a", "a**𝜵a**a"),
    ("a**𐬻a**a", "a**𐬻a**a"),
    ("a**a𐬻**a", "a**a𐬻**a"),
]
UNDERSCORE = [
    ("__注意__：注意事項", "<strong>注意</strong>：注意事項"),
    ("注意：__注意事項__", "注意：<strong>注意事項</strong>"),
    ("正體字。\ufe01_Traditional._", "正體字。\ufe01<em>Traditional.</em>"),
    ("正體字。\ufe01__Hong Kong and Taiwan.__", "正體字。\ufe01<strong>Hong Kong and Taiwan.</strong>"),
    ("简体字 / 新字体。\ufe00_Simplified._", "简体字 / 新字体。\ufe00<em>Simplified.</em>"),
    ("简体字 / 新字体。\ufe00__Mainland China or Japan.__", "简体字 / 新字体。\ufe00<strong>Mainland China or Japan.</strong>"),
    ("“\ufe01Git”\ufe01__Hub__", "“\ufe01Git”\ufe01<strong>Hub</strong>"),
]
STRIKETHROUGH = [
    ("a~~a()~~あ", "a<del>a()</del>あ"),
    ("あ~~()a~~a", "あ<del>()a</del>a"),
    ("𩸽~~()a~~a", "𩸽<del>()a</del>a"),
    ("a~~a()~~𩸽", "a<del>a()</del>𩸽"),
    ("葛\U000e0100~~()a~~a", "葛\U000e0100<del>()a</del>a"),
    ("羽\ufe00~~()a~~a", "羽\ufe00<del>()a</del>a"),
    ("a~~「a~~」", "a<del>「a</del>」"),
    ("「~~a」~~a", "「<del>a」</del>a"),
    ("~~a~~：~~a~~", "<del>a</del>：<del>a</del>"),
    ("~~日本語。\ufe00~~English.", "<del>日本語。\ufe00</del>English."),
    ("~~“\ufe01a”\ufe01~~a", "<del>“\ufe01a”\ufe01</del>a"),
]
GFM_NON_CJK = [
    "~~Hi~~ Hello, ~there~ world!",
    "This ~~has a",
    "new paragraph~~.",
    "This will ~~~not~~~ strike.",
    "A proper ~strikethrough~.",
    "These are ~not strikethroughs.",
    "No, they are not~",
    "This ~is ~ legit~ isn't ~ legit.",
    "This is not ~~~~~one~~~~~ huge strikethrough.",
    "~one~ ~~two~~ ~~~three~~~",
    "No ~mismatch~~",
    "~~**_`this`_**~~  \n~~***`this`***~~  \n~~___`this`___~~",
    "~~**_this_**~~  \n~~***this***~~  \n~~___this___~~",
    "~Hi~ Hello, world!",
    "This ~text~ ~~is~~ ~~~curious~~~.",
    "[^~~is~~1]",
    "a~~()a~~a",
    "a~~a()~~a",
    "~~()~~",
    "(~~()~~)",
    "| A |\n| - |\n| https://example.com/ |",
]
CASES = [(name, md, expected) for name, cases in (("readme", README), ("strong", STRONG), ("korean", KOREAN),
                                                  ("pseudo-emoji", PSEUDO_EMOJI), ("non-bmp", NON_BMP),
                                                  ("underscore", UNDERSCORE), ("strikethrough", STRIKETHROUGH))
         for md, expected in cases]


@pytest.mark.parametrize("markdown, expected", [case[1:] for case in CASES],
                         ids=[f"{name}-{i}" for i, (name, *_) in enumerate(CASES)])
def test_the_amendments_own_cases_read_as_it_says(markdown, expected):
    assert html(paragraph(markdown)) == expected


def test_the_amendments_own_cases_without_lessonkits_rules():
    """The same cases through plain markdown-it with only the amended scanDelims: the amendment alone makes them.
    (markdown-it writes strikethrough as <s>, micromark as <del>.)"""
    for _, markdown, expected in CASES:
        assert AMENDED_GFM.render(markdown) == f"<p>{expected}</p>\n".replace("del>", "s>"), markdown


def test_most_of_them_are_plain_text_in_commonmark():
    """The cases are worth having: without the amendment, markdown-it leaves most of their markers as text."""
    differ = [md for _, md, expected in CASES if STOCK_GFM.render(md) != f"<p>{expected}</p>\n".replace("del>", "s>")]
    assert len(differ) > len(CASES) // 2


# The table "Emphasis Marker Start/End Conditions" of implementers-tips.md (same repository, commit and licence as
# above): the character before a single marker, the marker, the character after it; whether it can close ("End") and
# open ("Start"); and whether CommonMark agrees ("CM"). `␣` whitespace, `"` non-CJK punctuation, `a` a non-CJK
# letter, `～` CJK punctuation, `字` a CJK character.
CONDITIONS = """
    ✅ ␣*␣ no no     ✅ ␣*" no yes    ✅ ␣*a no yes    ❌ ␣*～ no yes    ❌ ␣*字 no yes
    ✅ ␣_␣ no no     ✅ ␣_" no yes    ✅ ␣_a no yes    ❌ ␣_～ no yes    ❌ ␣_字 no yes
    ✅ "*" yes yes   ✅ "*a no yes    ❌ "*字 yes yes  ❌ ～*a yes yes
    ✅ "_" yes yes   ✅ "_a no yes    ❌ "_字 no yes   ❌ ～_a no yes
    ✅ a*a yes yes   ✅ a_a no no
"""
STAND_INS = {"␣": " ", '"': '"()', "a": "a", "～": "～「」", "字": "字"}   # with the table's "Alt Punctuation"


def conditions():
    items = iter(CONDITIONS.split())
    for cm, (before, marker, after), end, start in zip(items, items, items, items):
        for b in STAND_INS[before]:
            for a in STAND_INS[after]:
                yield f"{b}{marker}{a}", cm == "✅", (end == "yes", start == "yes")


def scanned(state_class, text: str) -> tuple[bool, bool]:
    state = state_class(text, STOCK, {}, [])
    found = state.scanDelims(1, text[1] == "*")
    return found.can_close, found.can_open


@pytest.mark.parametrize("text, commonmark_agrees, end_start", list(conditions()))
def test_the_start_and_end_conditions_of_the_implementers_tips(text, commonmark_agrees, end_start):
    assert scanned(CjkState, text) == end_start
    if commonmark_agrees:
        assert scanned(StateInline, text) == end_start


# ── ours ────────────────────────────────────────────────────────────────────────────────────────────────────────────
def test_bold_around_chinese_quotation_marks():
    assert paragraph("这是**「重点」**内容") == (n.Text(1, "这是"), n.Strong(1, (n.Text(1, "「重点」"),)),
                                                n.Text(1, "内容"))


@pytest.mark.parametrize("markdown, expected", [
    ("**（注）**说明", "<strong>（注）</strong>说明"),          # punctuation inside both markers, a letter after
    ("那**是。**这样", "那<strong>是。</strong>这样"),
    ("*强调*文字", "<em>强调</em>文字"),                          # no punctuation: CommonMark already did this
    ("这是**bold**的", "这是<strong>bold</strong>的"),
    ("他说**“好”**然后", "他说<strong>“好”</strong>然后"),        # “ ” are not CJK (East Asian Width A): 说 and 然 are
    ('他说**"好"**然后', "他说<strong>&quot;好&quot;</strong>然后"),
    ("见**第 2 章（上）**。", "见<strong>第 2 章（上）</strong>。"),
    ("**注意：**这一步不能省略。", "<strong>注意：</strong>这一步不能省略。"),
    ("~~旧的说法。~~新的说法", "<del>旧的说法。</del>新的说法"),
    ("`f(x)`**（函数）**的值", "<code>f(x)</code><strong>（函数）</strong>的值"),
    ("__注意__：下面", "<strong>注意</strong>：下面"),              # `_` after and before punctuation
    ("变量_名_不变", "变量_名_不变"),                              # `_` inside a word stays text, CJK or not
    ("a**(b)**c", "a**(b)**c"),                                  # no CJK: CommonMark's rule, and text
    ("**a!\ufe00**b", "**a!\ufe00**b"),   # `!` and a variation selector is punctuation; CommonMark saw a letter, closed
])
def test_chinese_emphasis(markdown, expected):
    assert html(paragraph(markdown)) == expected


def test_titles_and_captions_read_emphasis_the_same_way():
    from lessonkit.load.syntax.parser import parse_inline
    assert parse_inline("第一章**（上）**概述", Path("x.md"), 3, []) == (
        n.Text(3, "第一章"), n.Strong(3, (n.Text(3, "（上）"),)), n.Text(3, "概述"))


# ── backward compatibility ──────────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("section, number, markdown, expected", EMPHASIS, ids=[f"example-{e[1]}" for e in EMPHASIS])
def test_the_commonmark_emphasis_examples_still_pass(section, number, markdown, expected):
    assert STOCK.render(markdown) == expected            # as markdown-it-py reads them today
    assert AMENDED.render(markdown) == expected


def test_every_commonmark_example_reads_as_before():
    assert len(EXAMPLES) == 652 and len(EMPHASIS) == 132
    changed = [number for _, number, markdown, _ in EXAMPLES if AMENDED.render(markdown) != STOCK.render(markdown)]
    assert changed == []


def test_the_amendments_non_cjk_strikethrough_cases_read_as_before():
    text = "\n\n".join(GFM_NON_CJK) + "\n"
    assert "<s>" in STOCK_GFM.render(text) and "<table>" in STOCK_GFM.render(text)
    assert AMENDED_GFM.render(text) == STOCK_GFM.render(text)


NOT_CJK = st.characters(codec="utf-8").filter(
    lambda c: not is_cjk(c) and not "\ufe00" <= c <= "\ufe0e" and not "\U000e0100" <= c <= "\U000e01ef")
MARKUP = st.sampled_from(list("**__~~ \n()[]\"'.!`\\") + ["«", "»", "“", "”", "—", "é", "α", "∇", "😀", "⌚", "\u00a0"])


@settings(max_examples=400, deadline=None)
@given(st.text(st.one_of(MARKUP, NOT_CJK), max_size=40))
def test_any_text_without_cjk_characters_or_variation_selectors_reads_as_before(text):
    """Variation selectors are left out (but U+FE0F, the emoji one): the amendment itself reads a punctuation mark
    followed by a general-use one as punctuation, where CommonMark sees a letter (test_chinese_emphasis: `**a!︀**b`),
    and an ideographic one as CJK."""
    assert AMENDED_GFM.render(text) == STOCK_GFM.render(text)


# ── CJK characters ──────────────────────────────────────────────────────────────────────────────────────────────────
def test_cjk_characters_and_others():
    # the first six: implementers-tips.md (emoji, but not shown as emoji by default)
    for c in "〰〽🈂🈷㊗㊙" + "汉あア한ᅡ「」（），。～" + "\U00020bb7\U000317db" + "\u3000":
        assert is_cjk(c), f"U+{ord(c):04X}"
    for c in "a«∇😀⌚🀄\u3097\ufe00\U000e0100" + "‘’“”" + "\u00a0é":   # emoji, unassigned, selectors, ambiguous width
        assert not is_cjk(c), f"U+{ord(c):04X}"


WIDENED_IN_UNICODE_16 = ((0x2630, 0x2637), (0x268A, 0x268F), (0x4DC0, 0x4DFF), (0x1D300, 0x1D356), (0x1D360, 0x1D376))


def test_the_cjk_table_is_the_definition_as_far_as_pythons_unicode_data_can_tell():
    """Every character Python's unicodedata knows: wide, fullwidth or halfwidth, or Hangul, is CJK unless it is an emoji
    (a symbol shown as emoji by default; Python has no emoji data to say more); and a CJK one is one of those, or one of
    the symbols Unicode 16 made wide (Python 3.11 has Unicode 14)."""
    for code in range(0x110000):
        char = chr(code)
        if unicodedata.category(char) in ("Cn", "Cs", "Co"):
            continue
        width = unicodedata.east_asian_width(char)
        by_definition = width in ("W", "F", "H") or unicodedata.name(char, "").startswith("HANGUL")
        if is_cjk(char):
            assert by_definition or any(a <= code <= b for a, b in WIDENED_IN_UNICODE_16), f"U+{code:04X}"
        elif by_definition:
            assert width == "W" and unicodedata.category(char) in ("So", "Sm", "Sk"), f"U+{code:04X}"


def test_the_table_is_ordered_and_apart():
    items = [item.partition("-") for item in CJK_CHARACTERS.split()]
    ranges = [(int(a, 16), int(b or a, 16)) for a, _, b in items]
    assert len(ranges) == 60 and all(a <= b for a, b in ranges)
    assert all(b + 1 < c for (_, b), (c, _) in zip(ranges, ranges[1:]))
