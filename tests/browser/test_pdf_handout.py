"""`python build.py pdf --answers`: the printed handout, checked with poppler (pdfinfo, pdffonts, pdftotext, pdftoppm)."""
from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lessonkit import chromium
from lessonkit.content import load_lesson

from conftest import PROJECT, SLUG, require

A4_POINTS = (595.3, 841.9)
CJK_FAMILY = re.compile(rb"/FontFamily\s*\(([^)]*(?:CJK|Source Han|PingFang|Hiragino|YaHei|WenQuanYi)[^)]*)\)")


@pytest.fixture(scope="module")
def handout(tmp_path_factory, poppler) -> Path:
    require(chromium.missing())
    out = tmp_path_factory.mktemp("handout") / "out"
    # a separate process, as a teacher runs it (and Playwright's sync API allows one instance per thread)
    done = subprocess.run([sys.executable, "build.py", "pdf", "--answers", "--out", str(out)], cwd=PROJECT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"{SLUG}.pdf" in done.stdout and f"{SLUG}-answers.pdf" in done.stdout
    return out


@pytest.fixture(scope="module")
def source():
    return load_lesson(PROJECT / "content" / SLUG)


def run(*cmd) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def squeeze(text: str) -> str:
    """pdftotext breaks lines where the page wraps them: compare text with all whitespace removed."""
    return re.sub(r"\s+", "", text)


def page_texts(pdf: Path) -> list[str]:
    return run("pdftotext", "-layout", str(pdf), "-").split("\f")[:-1]


def longest_chinese_run(markdown: str) -> str:
    return max(re.findall(r"[\u4e00-\u9fff，。、「」：；——]+", markdown), key=len)


@pytest.mark.parametrize("name", [f"{SLUG}.pdf", f"{SLUG}-answers.pdf"])
def test_a4_pages_numbered(handout, name):
    info = run("pdfinfo", str(handout / name))
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert 5 <= pages <= 25, pages                      # the lesson is ~10 screens long: neither a stub nor runaway
    assert (width, height) == pytest.approx(A4_POINTS, abs=2)
    texts = page_texts(handout / name)
    assert len(texts) == pages
    for number, text in enumerate(texts, start=1):
        assert re.search(rf"\b{number}\s*/\s*{pages}\s*$", text.strip()), f"page {number} has no number"


def test_fonts_are_embedded_and_chinese_uses_a_cjk_font(handout):
    pdf = handout / f"{SLUG}.pdf"
    header, rule, *rows = run("pdffonts", str(pdf)).splitlines()
    assert rows, "no fonts at all: was the text printed as images?"
    emb = header.index(" emb ") + 1                     # columns are fixed-width; names and types contain spaces
    for row in rows:
        assert row[emb:emb + 3] == "yes", f"font not embedded (a reader would substitute it): {row}"
    # Chromium embeds CFF-based fonts such as Noto Sans CJK as Type 3, which pdffonts lists as [none]; their font
    # descriptors still name the family they were drawn from
    families = {m.decode("latin-1") for m in CJK_FAMILY.findall(pdf.read_bytes())}
    assert families, "no CJK font embedded"


def test_every_heading_challenge_and_both_mask_states_printed(handout, source):
    text = squeeze("".join(page_texts(handout / f"{SLUG}.pdf")))
    for section in source.sections:
        assert squeeze(section.title) in text, section.title
    for number, challenge in enumerate(source.meta["challenges"], start=1):
        assert squeeze(f"挑战{number}·{challenge['title']}") in text
    sentence = "".join(["它", "最", "爱", "晒太阳"])
    assert f"续写「{sentence}」（编码器）" in text and f"续写「{sentence}」（解码器）" in text
    # 4 × 4 decoder table: the 6 cells above the diagonal are masked (plus the ✕ in the legend); the encoder has none
    assert text.count("✕") == 6 + 1
    # the block stack prints its whole table: header and every row
    assert "随块数的变化" in text and "块数无LayerNormPost-LNPre-LN" in text


def test_student_edition_hides_answers_teacher_edition_prints_them_last(handout, source):
    student = squeeze("".join(page_texts(handout / f"{SLUG}.pdf")))
    teacher_pages = [squeeze(t) for t in page_texts(handout / f"{SLUG}-answers.pdf")]
    teacher = "".join(teacher_pages)
    start = next(i for i, t in enumerate(teacher_pages) if t.startswith("答案"))
    answers_part = "".join(teacher_pages[start:])
    for challenge in source.meta["challenges"]:
        phrase = squeeze(longest_chinese_run(challenge["answer"]))
        assert phrase not in student, phrase
        assert phrase in answers_part, phrase
    assert "参考资料" not in answers_part, "the answers come after everything else"
    assert "查看答案" not in student + teacher


def test_no_figure_split_across_pages(handout, site):
    """Every Chinese label inside a figure is on the same page as the figure's caption."""
    page_html = (site / SLUG / "index.html").read_text(encoding="utf-8")
    pages = [squeeze(t) for t in page_texts(handout / f"{SLUG}.pdf")]
    figures = re.findall(r'<figure id="fig-[\w-]+".*?</figure>', page_html, re.S)
    assert len(figures) == 4
    for figure in figures:
        caption = squeeze(html.unescape(re.sub(r"<[^>]+>", "", re.search(r"<figcaption[^>]*>(.*?)</figcaption>",
                                                                       figure, re.S).group(1))))[:12]
        labels = {squeeze(html.unescape(re.sub(r"<[^>]+>", "", t)))
                  for t in re.findall(r"<text\b[^>]*>(.*?)</text>", figure, re.S)}
        # Chinese labels; those mixed with mathtext (x̂, $L$) are drawn as separate glyph runs: leave them out
        labels = {t for t in labels if re.search(r"[\u4e00-\u9fff]{2}", t)
                  and re.fullmatch(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffefA-Za-z0-9 .:-]+", t)}
        assert labels, caption
        holder = [i for i, p in enumerate(pages) if caption in p]
        assert len(holder) == 1, caption
        # rotated labels (the y axis) come out of pdftotext reversed
        missing = [t for t in labels if t not in pages[holder[0]] and t[::-1] not in pages[holder[0]]]
        assert missing == [], f"figure「{caption}」is split: {missing} not on page {holder[0] + 1}"


def test_first_page_is_not_blank(handout, tmp_path):
    from PIL import Image

    run("pdftoppm", "-r", "40", "-f", "1", "-l", "1", "-png", "-singlefile", str(handout / f"{SLUG}.pdf"),
        str(tmp_path / "page1"))
    image = Image.open(tmp_path / "page1.png").convert("L")
    pixels = image.tobytes()
    inked = sum(p < 200 for p in pixels) / len(pixels)
    dark = sum(p < 80 for p in pixels) / len(pixels)
    assert 0.01 < inked < 0.5 and dark > 0.002, (inked, dark)
