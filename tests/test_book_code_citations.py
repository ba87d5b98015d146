"""What a course book needs, through the command line on the book fixture (tests/book_lesson.py): code from
lesson.py with its output, values in code only where asked, citations numbered in reading order with a GB/T 7714
or numbered bibliography, a figure in a challenge's answer; and the author's mistakes with these at file:line.
Expected texts are written out by hand from the fixture's own numbers."""
from __future__ import annotations

import html
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from lessonkit.cli import main

import book_lesson
from pagetext import visible_text

PAGE = f"{book_lesson.SLUG}/index.html"


def build(root: Path, *extra: str) -> tuple[int, str]:
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["build", "--content", str(root / "content"), "--out", str(root / "out"),
                     "--cache-dir", str(root / "cache"), *extra])
    return code, err.getvalue()


@pytest.fixture(scope="module")
def book(fixture_course) -> tuple[Path, str]:
    """The book fixture as the fixture course (tests/conftest.py) built it, once per run: its folder and its page."""
    return fixture_course, (fixture_course / "out" / PAGE).read_text(encoding="utf-8")


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(visible_text(fragment))).strip()


def element(page: str, element_id: str) -> str:
    """The element with this id (its tag's first occurrence to the matching close, for div/section/figure)."""
    start = page.index(f'id="{element_id}"')
    start = page.rindex("<", 0, start)
    tag = re.match(r"<(\w+)", page[start:]).group(1)
    depth, i = 0, start
    for m in re.finditer(rf"<(/?){tag}\b", page[start:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return page[start:start + m.end() + page[start + m.end():].index(">") + 1]
    raise AssertionError(element_id)


# ── code with its output ────────────────────────────────────────────────────────────────────────────────────────────
def test_a_value_function_is_shown_as_the_code_that_ran_then_its_output(book):
    root, page = book
    listing = element(page, "code-kernel")
    source = (root / "content" / book_lesson.SLUG / "lesson.py").read_text(encoding="utf-8").splitlines()
    first = source.index("def kernel():") + 1                       # the def line, decorators left out
    shown = html.unescape(re.sub(r"<[^>]+>", "", re.search(r"<pre class=\"highlight\".*?</pre>", listing, re.S)
                                  .group(0)))
    assert shown == "\n".join(source[first - 1:first + 3])
    assert f"lesson.py 第 {first}–{first + 3} 行" in text_of(listing)
    assert '<span class="k">def</span> <span class="nf">kernel</span>' in listing   # Pygments' classes …
    assert 'style="' not in listing                                                   # … and no inline style
    output = re.search(r'<div class="code-output">(.*?)</div>', listing, re.S).group(1)
    assert text_of(output) == "输出[0.250, 0.500, 0.250]"   # label, then [1, 2, 1] / 4 to three significant figures


def test_output_false_shows_the_source_alone_and_a_figure_function_places_its_figure(book):
    _, page = book
    helper = element(page, "code-half")
    assert "code-output" not in helper and "return</span> x" in helper   # a name in the text's colour: no span
    plot = element(page, "code-weights_plot")
    figure = element(plot, "fig-weights_plot")
    assert "<svg" in figure and "图 1 三个权重" in text_of(figure)
    assert page.count('id="fig-weights_plot"') == 1


def test_values_fill_code_only_where_asked(book):
    _, page = book
    blocks = [html.unescape(re.sub(r"<[^>]+>", "", b)) for b in re.findall(r'<pre class="highlight" data-widget'
                                                                             r'="code" tabindex="0">(.*?)</pre>',
                                                                             page, re.S)]
    assert blocks == ["weights = [0.250, 0.500, 0.250]   # 从 lesson.py 算出", 'literal = "{{ kernel }}"']
    assert "它有 3 个数：width = 3，而 {{ width }} 原样保留。" in text_of(element(page, "weights"))


def test_the_code_style_comes_once_and_only_to_pages_that_show_code(book):
    root, page = book
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert style.count(".highlight .k,") == 1
    index = (root / "out" / "index.html").read_text(encoding="utf-8")
    assert ".highlight .k" not in index and ".references-list" not in index


# ── citations ───────────────────────────────────────────────────────────────────────────────────────────────────────
GB_T, NUMBERED = book_lesson.GB_T, book_lesson.NUMBERED


def references(page: str) -> list[str]:
    return [text_of(li) for li in re.findall(r"<li id=\"ref-\d+\">.*?</li>", element(page, "references"), re.S)]


def test_citations_are_numbered_in_reading_order_and_link_to_the_bibliography(book):
    """The intro comes first on the page (Nadaraya, Watson: 1, 2), then the question, then section 1 (Watson again,
    the textbook 3, 李航 4), section 2 (a run of three as a range), the answer (a locator); never-cited entries
    are left out."""
    _, page = book
    assert "核回归最早由两篇论文同时提出[1, 2]。" in text_of(page)
    assert "按第一篇论文[1]的写法，三个权重应该怎么取？" in text_of(page)
    assert "核回归给每个邻居一个权重[2]，公式见教材[3, 4]。" in text_of(page)
    assert "三篇放在一起引用[1–3]，再引一次第一篇[1]，还有注意力[5]。" in text_of(page)
    assert "这和教材[3, 第 10.2 节]里的一样。" in text_of(page)
    links = Counter(re.findall(r'<a class="cite" href="#ref-(\d+)">\1</a>', page))
    assert set(links) == {"1", "2", "3", "4", "5"}
    assert references(page) == GB_T
    assert "Never Cited" not in page
    assert '<a href="https://doi.org/10.1137/1109020">DOI:10.1137/1109020</a>' in page
    assert '<a href="#references">参考文献</a>' in element(page, "main")
    assert "一份课堂笔记（不是论文）" in text_of(element(page, "sources"))  # free-text sources keep working


def test_an_english_site_writes_the_numbered_style(tmp_path):
    book_lesson.write_book_lesson(tmp_path / "content")
    (tmp_path / "content" / "site.yaml").write_text("language: en\n", encoding="utf-8")
    code, err = build(tmp_path)
    assert code == 0, err
    page = (tmp_path / "out" / PAGE).read_text(encoding="utf-8")
    assert references(page) == NUMBERED
    assert "<i>Theory of Probability and Its Applications</i>" in page and "<h2 id=\"references-title\">References" in page


# ── a figure in a challenge's answer ────────────────────────────────────────────────────────────────────────────────
def test_a_challenge_answer_places_a_figure_shown_on_screen_and_printed_with_the_answers(book):
    _, page = book
    answer = element(page, "challenge-1")
    assert "图 2 答案里的图：权重之和 1.00" in text_of(element(answer, "fig-answer_bars"))
    printed = element(page, "answers")
    copy = element(printed, "fig-answer_bars-print")
    assert "图 2 答案里的图：权重之和 1.00" in text_of(copy) and "<svg" in copy
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    assert "（图 2）" in text_of(answer)


# ── the author's mistakes ───────────────────────────────────────────────────────────────────────────────────────────
def broken(tmp_path: Path, md=None, yaml=None, py=None, bib=None) -> list[str]:
    folder = book_lesson.write_book_lesson(tmp_path / "content")
    for name, change in (("lesson.md", md), ("lesson.yaml", yaml), ("lesson.py", py)):
        if change:
            path = folder / name
            path.write_text(path.read_text(encoding="utf-8").replace(*change), encoding="utf-8")
    if bib is not None:
        (tmp_path / "content" / "references.bib").write_text(bib, encoding="utf-8")
    code, err = build(tmp_path)
    assert code == 1 and "Traceback" not in err, err
    return [line.strip() for line in err.splitlines()[1:]]


KEYS = "li2019, nadaraya1964, unused2020, vaswani2017, watson1964, zhang2023d2l"


def test_an_unknown_key_in_lesson_md_is_an_error_at_its_line_with_did_you_mean(tmp_path):
    assert broken(tmp_path, md=("一个权重[@watson1964]", "一个权重[@watsn1964]")) == [
        f"content/{book_lesson.SLUG}/lesson.md:3: unknown citation key `@watsn1964`; did you mean `watson1964`? "
        f"(expected a key of content/references.bib or the lesson's references.bib: {KEYS})"]


def test_an_unknown_key_in_lesson_yaml_is_an_error_at_its_line(tmp_path):
    assert broken(tmp_path, yaml=("[@nadaraya1964; @watson1964]", "[@nadaraya1964; @watson1946]")) == [
        f"content/{book_lesson.SLUG}/lesson.yaml:6: unknown citation key `@watson1946`; did you mean `watson1964`? "
        f"(expected a key of content/references.bib or the lesson's references.bib: {KEYS})"]


def test_a_citation_in_an_objective_or_a_section_title_is_refused(tmp_path):
    """Both are shown again where the bibliography is not (the index page, the course contents of other pages)."""
    lines = broken(tmp_path, yaml=("读懂核回归的权重", "读懂核回归的权重[@watson1964]"),
                   md=("## 三篇一起 {#together}", "## 三篇一起[@li2019] {#together}"))
    assert lines == [
        f"content/{book_lesson.SLUG}/lesson.md:21: citation `[@li2019]` in a section title (expected the citation in "
        "the text below it)",
        f"content/{book_lesson.SLUG}/lesson.yaml:5: citation `[@watson1964]` in an objective (the index page shows "
        "it too) (expected the citation in the text below it)"]


def test_mistakes_in_references_bib_are_reported_at_their_lines(tmp_path):
    bib = book_lesson.BIB + "\n@misc{li2019,\n  title = {twice},\n}\n\n@book{notitle,\n  year = {2000},\n}\n" \
                            "\n@article{open,\n  title = {never closed\n"
    lines = broken(tmp_path, bib=bib)
    first = bib.splitlines().index("@book{li2019,") + 1
    second = bib.splitlines().index("@misc{li2019,") + 1
    assert lines == [
        f"content/references.bib:{second}: duplicate entry key `li2019` (first at line {first}) (expected each key once)",
        f"content/references.bib:{bib.splitlines().index('@book{notitle,') + 1}: entry `notitle` has no title "
        "(expected a `title = {…}` field)",
        f"content/references.bib:{bib.splitlines().index('@article{open,') + 1}: cannot read this BibTeX entry "
        "(expected `@type{key, field = {value}, …}` with its braces balanced and fields separated by commas)"]


LOCAL_BIB = """\
@book{goodfellow2016,
  author    = {Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron},
  title     = {Deep Learning},
  publisher = {MIT Press},
  year      = {2016},
}
"""


def test_a_lesson_adds_entries_of_its_own_references_bib(tmp_path):
    """content/<slug>/references.bib adds to the course's: the lesson cites both files' keys, numbered in reading
    order as ever; another lesson does not see the first one's entries."""
    folder = book_lesson.write_book_lesson(tmp_path / "content")
    (folder / "references.bib").write_text(LOCAL_BIB, encoding="utf-8")
    md = folder / "lesson.md"
    md.write_text(md.read_text(encoding="utf-8").replace("还有注意力[@vaswani2017]。",
                                                         "还有注意力[@vaswani2017]和教科书[@goodfellow2016]。"),
                  encoding="utf-8")
    code, err = build(tmp_path)
    assert code == 0, err
    page = (tmp_path / "out" / PAGE).read_text(encoding="utf-8")
    assert "还有注意力[5]和教科书[6]。" in text_of(page)
    assert references(page) == GB_T + ["[6] GOODFELLOW I, BENGIO Y, COURVILLE A. Deep Learning[M]. MIT Press, "
                                       "2016."]
    other = tmp_path / "content" / "other"
    other.mkdir()
    (other / "lesson.yaml").write_text("title: 另一课\nsummary: 别的\nobjectives:\n  - 看\n", encoding="utf-8")
    (other / "lesson.md").write_text("## 一 {#one}\n\n见[@goodfellow2016]。\n", encoding="utf-8")
    code, err = build(tmp_path)
    assert code == 1 and "content/other/lesson.md:3: unknown citation key `@goodfellow2016`" in err


def test_a_key_in_both_the_course_and_the_lesson_file_is_an_error_naming_both(tmp_path):
    folder = book_lesson.write_book_lesson(tmp_path / "content")
    (folder / "references.bib").write_text(LOCAL_BIB + "\n@misc{watson1964,\n  title = {Another},\n}\n",
                                           encoding="utf-8")
    code, err = build(tmp_path)
    course_line = book_lesson.BIB.splitlines().index("@article{watson1964,") + 1
    lesson_line = LOCAL_BIB.count("\n") + 2
    assert code == 1 and err.splitlines()[1:] == [
        f"  content/{book_lesson.SLUG}/references.bib:{lesson_line}: entry key `watson1964` is also in "
        f"content/references.bib (line {course_line}) (expected each key in one file: the lesson's references.bib "
        "adds entries to the course's, it does not replace them)"]


def test_mistakes_with_code_are_reported_at_their_lines(tmp_path):
    lines = broken(tmp_path, md=("{{< code half output=false >}}", "{{< code hlaf output=false >}}\n\n"
                                 "{{< code half >}}\n\n{{< code kernel >}}\n\n{{< code width outputs=no >}}"))
    md = f"content/{book_lesson.SLUG}/lesson.md"
    assert lines == [
        f"{md}:9: unknown function `hlaf` in lesson.py; did you mean `half`? (expected a function defined in "
        "lesson.py: half, kernel, width, kernel_sum, weights_plot, answer_bars)",
        f"{md}:11: `half` is not a value, figure or widget of the lesson: it has no output to show (expected "
        "`{{< code half output=false >}}` to show its source alone)",
        f"{md}:13: code `kernel` is shown twice (expected each function's code shown once)",
        f"{md}:15: cannot read `outputs=no` in `{{{{< code width >}}}}` (expected the names of functions (or of a "
        "cell), then `output=false` or `echo=false`)",
    ]


def test_an_unknown_value_in_code_that_asks_for_values_is_reported_at_its_line(tmp_path):
    lines = broken(tmp_path, md=("weights = {{ kernel }}", "weights = {{ kernels }}"))
    assert lines == [f"content/{book_lesson.SLUG}/lesson.md:12: unknown value `kernels`; did you mean `kernel`? "
                     "(expected a value defined in lesson.py: kernel, kernel_sum, width)"]


def test_a_figure_placed_in_the_text_and_in_an_answer_is_placed_twice(tmp_path):
    lines = broken(tmp_path, md=("{{< code weights_plot >}}", "{{< code weights_plot >}}\n\n{{< figure answer_bars >}}"))
    assert lines == [f"content/{book_lesson.SLUG}/lesson.yaml:14: figure `answer_bars` is placed twice (first at "
                     "lesson.md:21) (expected each figure placed once)"]


# ── a warm build imports none of it ─────────────────────────────────────────────────────────────────────────────────
def test_a_warm_build_imports_neither_pygments_nor_nbformat_nor_the_bibtex_parser(tmp_path):
    book_lesson.write_book_lesson(tmp_path / "content")
    args = ["build", "-q", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
            "--cache-dir", str(tmp_path / "cache")]
    modules = ("pygments", "nbformat", "bibtexparser", "pylatexenc")
    probe = (f"import sys; from lessonkit.cli import main; code = main(sys.argv[1:]); "
             f"print(code, *[m in sys.modules for m in {modules!r}])")

    def run():
        return subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=300,
                              cwd=Path(__file__).parent.parent).stdout.split()
    assert run() == ["0", "True", "False", "True", "True"]   # (the notebook is written without nbformat)
    assert run() == ["0", "False", "False", "False", "False"]
    page = tmp_path / "content" / book_lesson.SLUG / "lesson.md"
    page.write_text(page.read_text(encoding="utf-8").replace("三篇一起", "三篇合在一起"), encoding="utf-8")
    assert run() == ["0", "False", "False", "False", "False"]  # a new notebook; code and bibliography as they were


def test_prune_removes_the_new_entry_kinds_when_unused(tmp_path):
    import os
    import time

    from lessonkit.support.prune import prune

    book_lesson.write_book_lesson(tmp_path / "content")
    assert build(tmp_path)[0] == 0
    cache = tmp_path / "cache"
    made = [p for kind in ("references", "notebooks") for p in (cache / kind).iterdir()] + \
        list(cache.glob("highlight-*.json"))
    # one bibliography, one notebook with its kept parts (setup, lesson.py's cells, the note of which parts it was
    # made with: NOTEBOOK_PARTS, .json beside it), one highlighting memo
    kinds = sorted((p.parent.name if p.parent != cache else "highlight", p.suffix) for p in made)
    assert kinds == [("highlight", ".json"), ("notebooks", ".ipynb")] + [("notebooks", ".json")] * 3 + \
        [("references", ".json")]
    old = time.time() - 40 * 86400
    for path in made:
        os.utime(path, (old, old))
    prune(cache, now=time.time(), used_since=time.time())
    assert not any(p.exists() for p in made)


# ── author and year from the entry: `@key` ──────────────────────────────────────────────────────────────────────────
NARRATIVE_BIB = """\
@article{zhang2019rms,
  author  = {Zhang, Biao and Sennrich, Rico},
  title   = {Root Mean Square Layer Normalization},
  journal = {NeurIPS},
  year    = {2019},
}
"""
NARRATIVE_MD = """\
## 谁先提出 {#who}

@nadaraya1964 和 @watson1964 同时提出核回归；教材 @zhang2023d2l 第 10 章讲它，@li2019 也讲。

RMSNorm 来自 @zhang2019rms，注意力来自 @vaswani2017。再引一次：@nadaraya1964。@zhang2023d2l [第 10.2 节] 讲得最细。
"""
NARRATIVE_GLOSSARY = """\
terms:
  - id: kernel-regression
    zh: 核回归
    en: kernel regression
    definition: 用核函数给邻居加权的平均（@nadaraya1964）。
"""


def narrative_lesson(root: Path, language: str | None = None) -> Path:
    content = root / "content"
    (content / "lesson").mkdir(parents=True)
    (content / "references.bib").write_text(book_lesson.BIB, encoding="utf-8")
    (content / "lesson" / "references.bib").write_text(NARRATIVE_BIB, encoding="utf-8")
    (content / "lesson" / "lesson.yaml").write_text("title: 核回归\nsummary: 谁提出的\nobjectives:\n  - 读懂核回归\n",
                                                   encoding="utf-8")
    (content / "lesson" / "lesson.md").write_text(NARRATIVE_MD, encoding="utf-8")
    (content / "glossary.yaml").write_text(NARRATIVE_GLOSSARY, encoding="utf-8")
    if language:
        (content / "site.yaml").write_text(f"language: {language}\n", encoding="utf-8")
    return content / "lesson"


@pytest.mark.parametrize("language, said", [
    # written by hand from the entries: one author, two joined, three or more as the first and «et al.», a Chinese
    # name whole; then the number in reading order (a narrative citation is a citation)
    (None, ["Nadaraya（1964）[1] 和 Watson（1964）[2] 同时提出核回归；教材 Zhang 等（2023）[3] 第 10 章讲它，"
            "李航（2019）[4] 也讲。",
            "RMSNorm 来自 Zhang 和 Sennrich（2019）[5]，注意力来自 Vaswani 等（2017）[6]。再引一次：Nadaraya（1964）[1]。"
            "Zhang 等（2023）[3, 第 10.2 节] 讲得最细。"]),
    ("en", ["Nadaraya (1964) [1] 和 Watson (1964) [2] 同时提出核回归；教材 Zhang et al. (2023) [3] 第 10 章讲它，"
            "李航 (2019) [4] 也讲。",
            "RMSNorm 来自 Zhang and Sennrich (2019) [5]，注意力来自 Vaswani et al. (2017) [6]。再引一次："
            "Nadaraya (1964) [1]。Zhang et al. (2023) [3, 第 10.2 节] 讲得最细。"]),
])
def test_a_key_alone_names_the_authors_and_the_year_of_its_entry(tmp_path, language, said):
    narrative_lesson(tmp_path, language)
    code, err = build(tmp_path)
    assert code == 0, err
    page = (tmp_path / "out" / "lesson" / "index.html").read_text(encoding="utf-8")
    for line in said:
        assert line in text_of(page)
    assert len(references(page)) == 6 and references(page)[4].startswith("[5] ")
    assert '<a class="cite" href="#ref-5">5</a>' in page
    notebook = (tmp_path / "out" / "lesson" / "lesson.ipynb").read_text(encoding="utf-8")
    assert said[1].replace("[", "\\\\[").replace("]", "\\\\]") in notebook   # the notebook says the same
    glossary = (tmp_path / "out" / "glossary.html").read_text(encoding="utf-8")
    assert ("用核函数给邻居加权的平均（Nadaraya（1964））。" if language is None else
            "用核函数给邻居加权的平均（Nadaraya (1964)）。") in text_of(glossary)   # no number: no bibliography there


def test_a_year_typed_beside_a_citation_must_be_its_entrys(tmp_path):
    """The hand-typed-number report compares a year written next to a citation with the entry's: 1946 beside
    watson1964 (whose entry says 1964) is reported; the right year, and a year beside no citation, are not."""
    lesson = narrative_lesson(tmp_path)
    (lesson / "lesson.md").write_text(NARRATIVE_MD + "\n核回归（Watson，1946）[@watson1964]；"
                                      "（Nadaraya，1964）[@nadaraya1964]；@zhang2019rms（2020）提出；1990 年。\n",
                                      encoding="utf-8")
    code, err = build(tmp_path, "--strict")
    assert code == 1
    assert [line.strip() for line in err.splitlines()[1:]] == [
        "content/lesson/lesson.md:7: year 1946 beside `[@watson1964]`, but its entry says 1964 (expected the entry's "
        "year, or `@watson1964`: the authors and year from the references.bib entry)",
        "content/lesson/lesson.md:7: year 2020 beside `@zhang2019rms`, but its entry says 2019 (expected the entry's "
        "year, or `@zhang2019rms`: the authors and year from the references.bib entry)"]


def test_a_key_alone_that_is_no_entry_or_in_a_title_is_an_error(tmp_path):
    lesson = narrative_lesson(tmp_path)
    (lesson / "lesson.md").write_text(NARRATIVE_MD.replace("## 谁先提出 {#who}", "## 谁先提出 @li2019 {#who}")
                                      .replace("@watson1964", "@watsn1964"), encoding="utf-8")
    code, err = build(tmp_path)
    assert code == 1
    assert "content/lesson/lesson.md:1: citation `@li2019` in a section title" in err
    assert "content/lesson/lesson.md:3: unknown citation key `@watsn1964`; did you mean `watson1964`?" in err
