"""load/syntax/: a lesson's text as one syntax tree — lessonkit's own syntax as parser rules, every node at its file
line, every mistake a problem at its line — and the renderers' tables, which name every node class."""
from pathlib import Path

import pytest

from lessonkit.load.syntax import nodes as n, parse_plain
from lessonkit.load.syntax.parser import parse_markdown

PATH = Path("content/demo/lesson.md")


def parse(text: str, first_line: int = 1):
    problems = []
    return parse_markdown(text, PATH, first_line, problems), [(p.line, str(p.message)) for p in problems]


def inline(text: str):
    (paragraph,), problems = parse(text)
    assert problems == []
    return paragraph.children


def test_every_renderer_names_every_node_class():
    from lessonkit.features.handnumbers import SCANNED
    from lessonkit.render.markup import BLOCK_HTML, INLINE_HTML
    from lessonkit.render.notebooktext import BLOCK_MD, INLINE_MD

    blocks = set(n.BLOCKS) - {n.Item, n.Row, n.Cell}          # (drawn by their list and table)
    for table in (BLOCK_HTML, BLOCK_MD):
        assert set(table) == blocks
    for table in (INLINE_HTML, INLINE_MD, SCANNED):
        assert set(table) == set(n.INLINE)


def test_a_class_a_table_lacks_is_our_bug_not_silence():
    from lessonkit.support.records import Record

    class Strange(Record):
        line: int
    with pytest.raises(TypeError, match="no handler for Strange"):
        n.dispatch({n.Text: str}, Strange(1))


def test_inline_nodes_know_their_lines_across_soft_breaks():
    (paragraph,), _ = parse("一 {{ a }}\n二 @fig:f\n三 [@k]", first_line=10)
    assert [(type(c).__name__, c.line) for c in paragraph.children] == [
        ("Text", 10), ("Value", 10), ("SoftBreak", 10), ("Text", 11), ("FigureRef", 11), ("SoftBreak", 11),
        ("Text", 12), ("Citation", 12)]


def test_values_take_any_expression_on_one_line():
    assert inline("{{ (a - b) / c :.3f }} {{ x * 0.9 }}") == (
        n.Value(1, "(a - b) / c", ".3f", "{{ (a - b) / c :.3f }}"), n.Text(1, " "),
        n.Value(1, "x * 0.9", None, "{{ x * 0.9 }}"))
    assert parse("{{ x\n}} {{ }}")[1] == [(1, "cannot read value reference `{{`…"),
                                         (2, "cannot read value reference `{{`…")]


def test_inside_maths_a_value_names_one_and_double_braces_otherwise_are_tex():
    [maths] = inline("$y = {{ (a - b) / c :.3f }} + x^{{2}}$")
    assert maths.tex == ("y = ", n.Value(1, "(a - b) / c", ".3f", "{{ (a - b) / c :.3f }}"), " + x^{{2}}")


def test_a_comment_on_a_formulas_line_is_no_tex():
    (maths,), problems = parse("$$\nx = 1.5 <!-- literal -->\n$$")
    assert problems == [] and maths.tex == ("\nx = 1.5 \n",) and maths.block


@pytest.mark.parametrize("text, display", [("$a$", False), ("\\(a\\)", False), ("$$a$$", True), ("\\[a\\]", True)])
def test_four_ways_to_write_maths(text, display):
    [maths] = inline(f"{text} 后")[:1]
    assert (maths.tex, maths.display) == (("a",), display)


def test_references_citations_and_terms_are_nodes():
    assert inline("@fig:curve @eq:e1 @lesson:next#eq:e2 [@a; @b, 第 2 节] @press2022 [p. 3] [[层|层数]]") == (
        n.FigureRef(1, "curve"), n.Text(1, " "), n.EquationRef(1, "e1"), n.Text(1, " "),
        n.LessonRef(1, "next", "eq:e2"), n.Text(1, " "),
        n.Citation(1, "@a; @b, 第 2 节", (("a", ""), ("b", "第 2 节"))), n.Text(1, " "),
        n.Narrative(1, "press2022", "p. 3"), n.Text(1, " "), n.Term(1, "层", "层数"))
    assert inline("a@b.c 与 x@y")[0] == n.Text(1, "a@b.c 与 x@y")   # after a letter: an address, no citation


def test_a_code_span_asking_for_values_reads_them():
    [code] = inline("`n = {{ n }}`{values}")
    assert code == n.CodeSpan(1, "n = {{ n }}", ("n = ", n.Value(1, "n", None, "{{ n }}")))


def test_containers_directives_and_their_mistakes():
    blocks, problems = parse("::: shout 喊\n文字\n:::\n\n{{< figure >}}\n\n一段 {{< figure f >}} 里\n\n::: note\n没关")
    assert [type(b).__name__ for b in blocks] == ["Container", "Paragraph", "Container"]
    assert sorted(problems) == [(1, "unknown block kind `::: shout`"), (5, "cannot read directive `{{< figure >}}`"),
                        (7, "cannot read directive `{{< figure f >}}`"), (9, "`::: note` block is never closed")]


def test_attribute_lists_at_a_headings_end_and_under_a_paragraph():
    blocks, problems = parse("### 点积 {#pe-dot .wide}\n\n段落\n{: .note }")
    assert blocks == (n.Heading(1, 3, (n.Text(1, "点积"),), "pe-dot", ("wide",)),
                      n.Paragraph(3, (n.Text(3, "段落"),), ("note",)))
    assert parse("## 一 {#一}")[1] == [(1, "cannot read the section id in `## 一 {#一}`")]


def test_commonmark_that_the_old_reader_got_wrong():
    blocks, _ = parse("标题\n===\n\n- a\n  - b\n\n行一\\\n行二\n\n| `a\\|b` |\n|---|\n| c |")
    heading, items, breaks, table = blocks
    assert (type(heading), heading.level) == (n.Heading, 1)
    assert type(items.children[0].children[1]) is n.List                 # nested by two spaces
    assert [type(c) for c in breaks.children] == [n.Text, n.HardBreak, n.Text]
    assert table.children[0].children[0].children == (n.CodeSpan(10, "a|b"),)


def test_a_plain_text_reads_its_values_and_nothing_else():
    assert parse_plain("第 {{ n }} 步，*不是*强调", PATH, 4, []) == (
        n.Text(4, "第 "), n.Value(4, "n", None, "{{ n }}"), n.Text(4, " 步，*不是*强调"))


def test_an_end_tag_of_an_element_without_one_is_read_as_a_browser_reads_it():
    """Jupyter notebooks write `</br>` (EngComp's statistics notebook): a browser reads it as `<br>` and leaves out
    `</hr>`; the page says the same in valid HTML."""
    assert inline("一行</br>二行") == (n.Text(1, "一行"), n.InlineHtml(1, "<br>"), n.Text(1, "二行"))
    assert inline("甲</hr>乙") == (n.Text(1, "甲"), n.InlineHtml(1, ""), n.Text(1, "乙"))
    (block,), problems = parse("<div>\n上</BR>下\n</div>")
    assert problems == [] and block == n.Html(1, "<div>\n上<br>下\n</div>")
