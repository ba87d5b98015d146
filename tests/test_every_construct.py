"""One lesson written with every construct a teacher brings from CommonMark, Jupyter and MathJax — CJK emphasis,
nested lists, `\\( \\)` `\\[ \\]` `$$`+aligned, `\\lvert`, values inside maths, code holding `{{ }}` and `$`, reference
links, setext headings, hard breaks, tables with maths and `\\|` — built under --strict and read back: the page (its
HTML), the notebook (through nbconvert's Markdown renderer, the one Jupyter's HTML export uses) and the Moodle XML
bank. Then the three mistakes maths can hide — an unknown command, an unknown name, an unclosed `$$` — each an
error at its line."""
from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from lessonkit.cli import main

MD = r"""## 强调与列表 {#basics}

这是**「重点」**内容，*斜体*也行。

- 第一项
  - 嵌套的一项
  - 再一项
- 第二项

第一行\
第二行

参见[公式一节][formulas]。

[formulas]: #maths

公式与代码 {#maths}
----------

行内 \(x^2 + {{ a }}\)，行间：

\[
\lvert x \rvert \le {{ b }}
\]

$$
\begin{aligned}
y &= {{ (a - b) / c :.3f }} \\
z &= \biggr\rvert_{0}^{1}
\end{aligned}
$$

`{{ 不是值 }}` 与 `$不是公式$`：

```python
print("{{ 也不是 }}", "$5")
```

| 量 | 公式 | 代码 |
|---|---|---|
| 绝对值 | $\lvert a \rvert = {{ a }}$ | `a\|b` |
"""

YAML = r"""title: 每种写法
summary: 一课用上所有写法
objectives:
  - 读懂**「重点」**与 $\lvert x \rvert$
challenges:
  - title: 算一算
    question: |
      已知 \(a = {{ a }}\)，求 **「y」**：

      \[ y = \frac{a - b}{c} \]
    answer: |
      $y = {{ (a - b) / c :.3f }}$。
    check:
      fields:
        - label: y
          answer: y
"""

PY = """\
from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def a():
    return 3


@lesson.value
def b():
    return 5


@lesson.value
def c():
    return 0.25


@lesson.value
def y(a, b, c):
    return (a - b) / c
"""


@pytest.fixture
def built(tmp_path):
    folder = tmp_path / "content" / "every"
    folder.mkdir(parents=True)
    for name, text in (("lesson.md", MD), ("lesson.yaml", YAML), ("lesson.py", PY)):
        (folder / name).write_text(text, encoding="utf-8")
    assert main(["build", "--strict", "-q", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
                 "--no-cache"]) == 0
    return tmp_path


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def test_the_page_reads_right(built):
    page = (built / "out" / "every" / "index.html").read_text(encoding="utf-8")
    start = page.index('<section id="basics"')
    body = page[start:page.index("</section>", page.index('<section id="maths"')) + len("</section>")]
    assert "<strong>「重点」</strong>内容" in body and "<em>斜体</em>" in body
    assert re.search(r"<li>第一项\s*<ul>\s*<li>嵌套的一项</li>\s*<li>再一项</li>\s*</ul>\s*</li>", body)
    assert "第一行<br>\n第二行" in body
    assert '<a href="#maths">公式一节</a>' in body
    assert '<section id="maths"' in page and "公式与代码" in page   # the setext heading is the second section
    assert "<msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mn>3</mn>" in body   # \( \) with a value inside
    assert body.count('display="block"') == 2 and "<mtable" in body     # \[ \] and $$ aligned
    assert "<mo>−</mo><mn>8.000</mn>" in body                            # (3 − 5) / 0.25 = −8, inside maths
    assert "<code>{{ 不是值 }}</code>" in body and "<code>$不是公式$</code>" in body
    assert "{{ 也不是 }}" in text_of(body) and "$5" in text_of(body)
    assert "<code>a|b</code>" in body and body.count("<table>") == 1
    shown = text_of(re.sub(r'alttext="[^"]*"', "", body))
    for raw in ("\\lvert", "\\rvert", "\\(", "\\[", "$$", "{{ a }}", "**"):   # no TeX or markup left as text …
        assert raw not in shown.replace("$不是公式$", "").replace("$5", ""), raw   # … but in the code


def test_the_notebook_reads_the_same_in_jupyter(built):
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    notebook = json.loads((built / "out" / "every" / "every.ipynb").read_text(encoding="utf-8"))
    markdown = "\n\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
    html = unescape(markdown2html_mistune(markdown))   # (it writes a heading's Chinese as character references)
    assert "<strong>「重点」</strong>内容" in html and "<em>斜体</em>" in html
    assert re.search(r"<li>第一项\s*<ul>\s*<li>嵌套的一项</li>\s*<li>再一项</li>\s*</ul>\s*</li>", html)
    assert re.search(r"第一行<br\s*/?>\s*第二行", html)
    assert re.search(r"<h2[^>]*>.*公式与代码", html)
    assert "$x^2 + 3$" in html                                   # maths left to MathJax, the value filled in
    assert "y &= -8.000" in html                                 # (LaTeX's minus sign)
    assert "<code>{{ 不是值 }}</code>" in html and "<code>a|b</code>" in html
    assert "<table>" in html and "\\lvert a \\rvert = 3" in html


def test_the_moodle_bank_keeps_tex_and_fills_values(built):
    assert main(["export", "moodle", "-C", str(built), "--out", str(built / "lms"), "--no-cache", "-q"]) == 0
    [bank] = (built / "lms").glob("*.xml")
    text = unescape(bank.read_text(encoding="utf-8"))
    assert "\\(a = 3\\)" in text and "<strong>「y」</strong>" in text
    assert "$$y = \\frac{a - b}{c}$$" in text
    assert "{{" not in text and "**" not in text


@pytest.mark.parametrize("md, line, message", [
    ("## 一 {#one}\n\n正文\n\n$$\n\\foo{x}\n$$\n", 6, "unknown LaTeX command `\\foo`"),
    ("## 一 {#one}\n\n正文 $x + {{ nope }}$\n", 3, "unknown value `nope`"),
    ("## 一 {#one}\n\n正文\n\n$$\nx + 1\n\n后文\n", 5, "display maths `$$` is never closed"),
])
def test_a_mistake_in_maths_is_an_error_at_its_line(tmp_path, capsys, md, line, message):
    folder = tmp_path / "content" / "demo"
    folder.mkdir(parents=True)
    (folder / "lesson.md").write_text(md, encoding="utf-8")
    (folder / "lesson.yaml").write_text("title: t\nsummary: s\nobjectives: [o]\n", encoding="utf-8")
    (folder / "lesson.py").write_text(PY, encoding="utf-8")
    code = main(["build", "-q", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"), "--no-cache"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and not (tmp_path / "out").exists()
    assert f"demo/lesson.md:{line}: {message}" in err
