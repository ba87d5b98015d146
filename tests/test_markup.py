from pathlib import Path

import pytest

from lessonkit.support.errors import Miss
from lessonkit.render.markup import MarkupContext
from lessonkit.render.markup import inline_markdown as render_inline, markdown as render_block, plain as render_text

PATH = Path("content/demo/lesson.md")


def make_ctx(**values):
    def place_figure(name, args, at=None):
        if name != "curve":
            return Miss(f"unknown figure `{name}`", "a figure defined in lesson.py")
        return '<figure id="fig-curve">SVG</figure>'

    return MarkupContext(
        values=values,
        figure_numbers={"curve": 1},
        placers={"figure": place_figure, "widget": lambda name, args, at: f'<div data-widget="{name}"></div>'},
        render_callout=lambda c: f'<aside class="{c["kind"]}"><p>{c["title"]}</p>{c["body"]}</aside>',
        figure_label="图",  # the theme's ui.figure, as a lesson page passes it
    )


def test_values_are_formatted_and_escaped():
    ctx = make_ctx(p=0.9 ** 96, label="<b>", ln={"mu": 4.0, "xhat": [1.633, -0.816]})
    html = render_block("p = {{ p }}, {{ label }}, μ = {{ ln.mu }}, x̂₂ = {{ ln.xhat.1:sig2 }}", ctx, PATH)
    assert html == "<p>p = 4.05 × 10⁻⁵, &lt;b&gt;, μ = 4.00, x̂₂ = −0.82</p>"
    assert ctx.problems == []


def test_unknown_value_is_reported_with_line_and_suggestion():
    ctx = make_ctx(decay=0.5)
    render_block("first line\n\nsecond {{ decya }}", ctx, PATH, first_line=10)
    [problem] = ctx.problems
    assert str(problem) == ("content/demo/lesson.md:12: unknown value `decya`; did you mean `decay`? "
                            "(expected a value defined in lesson.py: decay)")


def test_inline_math_becomes_mathml_with_values_in_latex():
    ctx = make_ctx(p=4.048e-5)
    html = render_inline(r"$0.9^{96} \approx {{ p }}$", ctx, PATH)
    assert html.startswith("<math><mrow>")  # HTML needs no namespace; inline is the default display
    assert "<mn>4.05</mn>" in html and "<msup><mn>10</mn>" in html and "<mo>×</mo>" in html
    assert "$" not in html


def test_slim_mathml_keeps_the_formula():
    from lessonkit.render.mathmarkup import slim_mathml
    raw = ('<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><mrow><mi>x</mi></mrow>'
           '<mo>&#x0003C;</mo><mo>&#x02212;</mo><mrow><mn>1</mn><mo>&#x0002B;</mo><mi>y</mi></mrow></mrow></math>')
    assert slim_mathml(raw) == ("<math><mrow><mi>x</mi><mo>&#x0003C;</mo><mo>\u2212</mo>"
                                "<mrow><mn>1</mn><mo>+</mo><mi>y</mi></mrow></mrow></math>")


def test_display_math_and_underscores_survive_markdown():
    ctx = make_ctx()
    html = render_block("$$\nx_{l+1} = x_l + F(x_l)\n$$\n\nand *em* $a_b$ and $c_d$", ctx, PATH)
    assert 'display="block"' in html
    assert "<em>em</em>" in html
    assert html.count("<msub>") >= 4  # Markdown did not read the underscores as emphasis


def test_escaped_dollar_and_code_are_literal():
    ctx = make_ctx()
    html = render_block(r"costs \$5, code `{{ not_a_value }}` and `$x$`", ctx, PATH)
    assert html == "<p>costs $5, code <code>{{ not_a_value }}</code> and <code>$x$</code></p>"
    assert ctx.problems == []


def test_a_fence_info_string_reads_its_escapes_and_references():
    """CommonMark examples 24 and 34: backslash escapes and character references in an info string are read."""
    ctx = make_ctx()
    escaped = render_block("``` foo\\+bar\nfoo\n```", ctx, PATH)
    assert escaped == '<pre><code class="language-foo+bar">foo</code></pre>'
    assert render_block("``` f&ouml;\nfoo\n```", ctx, PATH) == '<pre><code class="language-fö">foo</code></pre>'
    assert ctx.problems == []


def test_code_that_ends_in_blank_lines_shows_them():
    """CommonMark example 318: the blank lines before a closing fence are the code's. A browser shows no line after
    the newline that ends a <pre>, so code ending in blank lines keeps that newline; other code is written without."""
    ctx = make_ctx()
    assert render_block("```\nb\n\n\n```", ctx, PATH) == "<pre><code>b\n\n\n</code></pre>"
    assert render_block("    b\n\n    \n", ctx, PATH) == "<pre><code>b</code></pre>"
    assert render_block("```\nb\n```", ctx, PATH) == "<pre><code>b</code></pre>"


def test_figure_widget_and_reference():
    ctx = make_ctx()
    html = render_block("see @fig:curve.\n\n{{< figure curve >}}\n\n{{< widget mask >}}", ctx, PATH)
    assert '<a class="fig-ref" href="#fig-curve">图 1</a>.' in html
    assert '<figure id="fig-curve">SVG</figure>' in html and "<p><figure" not in html
    assert '<div data-widget="mask"></div>' in html


def test_unknown_figure_and_reference_are_errors():
    ctx = make_ctx()
    render_block("line\n{{< figure nope >}}\n@fig:missing", ctx, PATH, first_line=5)
    assert [str(p) for p in ctx.problems] == [
        "content/demo/lesson.md:6: unknown figure `nope` (expected a figure defined in lesson.py)",
        "content/demo/lesson.md:7: reference to unknown figure `@fig:missing` (expected a figure placed in the lesson: curve)",
    ]


def test_callout_renders_markdown_inside():
    ctx = make_ctx(n=3)
    html = render_block("::: tip 还能更省\n**粗体** {{ n }}\n:::\n\nafter", ctx, PATH)
    assert html.startswith('<aside class="tip"><p>还能更省</p><p><strong>粗体</strong> 3</p></aside>')
    assert html.endswith("<p>after</p>")


def test_callout_problems():
    ctx = make_ctx()
    render_block("::: shout\nx\n:::\n\n::: note never closed\ny", ctx, PATH)
    messages = [str(p.message) for p in ctx.problems]
    assert messages == ["unknown block kind `::: shout`", "`::: note` block is never closed"]


def test_bad_latex_is_reported():
    ctx = make_ctx()
    html = render_block(r"broken $\frac{1}{$ here, $\left( x$", ctx, PATH, first_line=3)
    assert [(p.line, str(p.message)) for p in ctx.problems] == [
        (3, "`{` that is never closed"),                     # (latex2mathml draws it as if it were closed)
        (3, r"cannot convert math `\left( x`: a `\left` without its `\right`")]
    assert "<math" not in html                              # the TeX as it is, never a wrong drawing


def test_malformed_value_reference_is_reported():
    ctx = make_ctx(x=1)
    assert render_block("value {{ x y }} here\n\nand {{ 1 + x }} there, {{ x\n}}", ctx, PATH) == \
        "<p>value ? here</p>\n<p>and 2 there, {{ x\n}}</p>"       # an expression is what Python reads as one
    assert sorted((p.line, str(p.message)) for p in ctx.problems) == [
        (1, "`x y` is not an expression"),
        (3, "cannot read value reference `{{`…")]                 # on one line


def test_nan_value_is_an_error_not_a_page_with_nan():
    ctx = make_ctx(bad=float("nan"))
    html = render_block("x = {{ bad }}", ctx, PATH)
    assert "nan" not in html.lower()
    assert str(ctx.problems[0].message) == "cannot show value `bad`: the value is nan, not a finite number"


def test_render_text_substitutes_values_only():
    ctx = make_ctx(p=0.5)
    assert render_text("终点 {{ p }}，*不是* Markdown", ctx, PATH) == "终点 0.500，*不是* Markdown"


def test_nested_cards_container():
    ctx = make_ctx()
    html = render_block("::: cards\n\n::: card 甲\n一\n:::\n\n::: card 乙\n二\n:::\n\n:::\n", ctx, PATH)
    assert html == ('<aside class="cards"><p></p><aside class="card"><p>甲</p><p>一</p></aside>\n'
                    '<aside class="card"><p>乙</p><p>二</p></aside></aside>')
    assert ctx.problems == []


@pytest.mark.parametrize("source, line, what", [
    ('<span style="color:red">红</span>', 12, "attribute `style=`"),
    ("段落\n{: style='color:red' }", 13, "attribute `style=`"),  # attr_list on the paragraph of line 12
    ('<button onclick="go()">走</button>', 12, "attribute `onclick=`"),
    ("<script>alert(1)</script>", 12, "`<script>`"),
    ('<img src="https://example.com/a.png" alt="a">', 12, "`<img>`"),
])
def test_raw_html_the_policy_would_block_is_reported(source, line, what):
    ctx = make_ctx()
    render_block("第一行\n\n" + source, ctx, PATH, first_line=10)
    [problem] = ctx.problems
    assert problem.line == line and str(problem.message).startswith(f"raw HTML {what}: ")


def test_harmless_raw_html_and_code_are_allowed():
    ctx = make_ctx()
    render_block('<kbd>Ctrl</kbd> <a href="https://example.com">链接</a> `<script>` 与 style=…', ctx, PATH)
    assert ctx.problems == []


def test_norm_bars_fence_their_content():
    ctx = make_ctx()
    html = render_inline(r"$\lVert x\rVert^2$", ctx, PATH)
    # the squared thing is the whole norm ‖x‖, not the closing bar alone
    assert '<msup><mrow><mo stretchy="true" fence="true" form="prefix">‖</mo><mi>x</mi>' in html
    unpaired = render_inline(r"$\lVert x$", ctx, PATH)
    assert "form=" not in unpaired and ctx.problems == []


def test_a_paragraph_holding_only_a_value_stays_a_paragraph():
    ctx = make_ctx(x=3.14159)
    assert render_block("First.\n\n{{ x }}\n\nLast.", ctx, PATH) == "<p>First.</p>\n<p>3.14</p>\n<p>Last.</p>"


@pytest.mark.parametrize("latex, expected", [
    # f′: the prime beside f, at f's size (a math font draws U+2032 raised already), not a superscript of f
    ("f'(x)", '<mi>f</mi><mo>′</mo><mo stretchy="false">(</mo>'),
    # ′ and 2 both up and right of f: f′ carries the square
    ("f'^2", "<msup><mrow><mi>f</mi><mo>′</mo></mrow><mn>2</mn></msup>"),
    ("f''(x)", "<mi>f</mi><mo>″</mo><mo"),
    (r"f^{\prime\prime}", "<mi>f</mi><mo>″</mo></mrow>"),
    ("f'''", "<mi>f</mi><mo>‴</mo></mrow>"),
    ("f'_i", "<msub><mrow><mi>f</mi><mo>′</mo></mrow><mi>i</mi></msub>"),
    (r"\frac{a'}{b}", "<mfrac><mrow><mi>a</mi><mo>′</mo></mrow><mi>b</mi></mfrac>"),
])
def test_a_prime_stands_beside_its_base(latex, expected):
    ctx = make_ctx()
    html = render_inline(f"${latex}$", ctx, PATH)
    assert ctx.problems == []
    assert expected in html
    assert "<msup><mi>f</mi>" not in html and "<mi>′</mi>" not in html


def test_a_superscript_without_primes_is_untouched():
    ctx = make_ctx()
    assert render_inline(r"$x^2 + y^{2\prime}$", ctx, PATH) == (  # (a prime after the 2 is the 2's: not moved)
        "<math><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><msup><mi>y</mi><mrow><mn>2</mn><mi>′</mi></mrow>"
        "</msup></mrow></math>")


def test_display_math_carries_its_tex_as_text_alternative():
    """What a picture of the formula (the slides) is described by: its TeX as written, values filled in, on one line;
    its MathML's text would read 0.9⁹⁶ as 0.996. Inline math (text on a slide) carries none."""
    ctx = make_ctx(n=96, p=0.9 ** 96)
    html = render_block("$$\n0.9^{ {{ n }} } \\approx {{ p }},\n\\quad a < b\n$$\n\nand $x^2$", ctx, PATH)
    assert ctx.problems == []
    assert '<math display="block" alttext="0.9^{96} \\approx 4.05 \\times 10^{-5}, \\quad a &lt; b">' in html
    assert html.count("alttext") == 1


def test_attribute_lists_work_whenever_a_text_has_one_after_texts_without():
    """One converter serves a whole build; its attribute lists are added when a text first has a `{`: a heading's id
    and a paragraph's class come out the same whether texts without one came first or not."""
    ctx = make_ctx()
    plain = "## 标题\n\n一段 *强调* 的文字。\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    with_lists = "### 点积 {#pe-dot}\n\n段落\n{: .note }"
    expected = '<h3 id="pe-dot">点积</h3>\n<p class="note">段落</p>'
    before = render_block(plain, ctx, PATH)
    assert render_block(with_lists, ctx, PATH) == expected == render_block(with_lists, make_ctx(), PATH)
    assert render_block(plain, ctx, PATH) == before == render_block(plain, make_ctx(), PATH)
    assert before.startswith("<h2>标题</h2>") and "<table>" in before and ctx.problems == []
