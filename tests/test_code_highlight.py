"""features/code.py highlighting: Pygments' token classes, a span only for a class the theme's code stylesheet
colours (names, operators and punctuation are most of a listing and read in the text's colour)."""
from pathlib import Path

import lessonkit
from lessonkit.features.code import coloured_classes, highlight

BUILTIN_CODE_CSS = Path(lessonkit.__file__).parent / "themes/default/components/code/widget.css"


def test_the_classes_coloured_are_those_the_theme_styles():
    coloured = coloured_classes(BUILTIN_CODE_CSS.read_text(encoding="utf-8"))
    assert {"k", "kn", "s2", "mi", "mf", "c1", "nf", "nb"} <= coloured
    assert not {"n", "o", "p"} & coloured


def test_a_token_of_a_class_the_theme_leaves_alone_is_bare_text():
    coloured = frozenset({"k", "mi", "c1"})
    # by hand: `return` a keyword, `x` a name, `+` an operator, `1` an integer, the comment
    assert highlight("return x + 1  # one", "python", coloured) == (
        '<span class="k">return</span> x + <span class="mi">1</span>  <span class="c1"># one</span>')
    # without a theme's list every class keeps its span, as Pygments names it
    assert highlight("x + 1", "python") == '<span class="n">x</span> <span class="o">+</span> <span class="mi">1</span>'


def test_a_theme_that_colours_names_gets_their_spans(make_lesson, run_build, tmp_path):
    md = "## 代码\n\n```python\ntotal = count + 1\n```\n"
    make_lesson(md=md)
    theme_css = tmp_path / "themes" / "names" / "components" / "code" / "widget.css"
    theme_css.parent.mkdir(parents=True)
    theme_css.write_text(BUILTIN_CODE_CSS.read_text(encoding="utf-8") + ".highlight .n{color:#123456}\n",
                         encoding="utf-8")
    code, _, err, out = run_build()
    assert code == 0, err
    assert "total = count + <span" in (out / "demo" / "index.html").read_text(encoding="utf-8")
    code, _, err, out = run_build("--theme", "names", out=tmp_path / "out-names")
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<span class="n">total</span> = <span class="n">count</span> + <span class="mi">1</span>' in page
