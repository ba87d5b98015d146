"""`python build.py pdf` and `pdf --teacher`: the printed handouts, checked with poppler (pdfinfo, pdffonts, pdftotext,
pdftoppm). Every lesson in content/ and the fixture lesson are printed (from a copy, output and cache in a temporary
folder); what the mask table and block stack print is checked on the fixture lesson."""
from __future__ import annotations

import html
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from lessonkit.support import chromium
from lesson_folders import load_lesson

from conftest import FIXTURE, LESSONS, PROJECT, require
from fixture_lesson import LABELS, LAYERS, TOKENS, expected_series
from lessonkit.support.numbers import format_value

PDF_BUILD_TIMEOUT = 600   # seconds: the build plus two editions of every lesson
TOOL_TIMEOUT = 120        # one poppler call

A4_POINTS = (595.3, 841.9)
CJK_FAMILY = re.compile(rb"/FontFamily\s*\(([^)]*(?:CJK|Source Han|PingFang|Hiragino|YaHei|WenQuanYi)[^)]*)\)")


def print_handouts(out: Path, site_content: Path, site_cache: Path, *edition: str) -> Path:
    # a separate process, as a teacher runs it (and Playwright's sync API allows one instance per thread)
    require(chromium.missing())
    try:
        done = subprocess.run([sys.executable, "build.py", "pdf", *edition, "--content", str(site_content),
                               "--out", str(out), "--cache-dir", str(site_cache)], cwd=PROJECT,
                              capture_output=True, text=True, timeout=PDF_BUILD_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`build.py pdf {' '.join(edition)}` did not finish in {PDF_BUILD_TIMEOUT} s; it printed:\n"
                    f"{exc.stdout or ''}{exc.stderr or ''}", pytrace=False)
    assert done.returncode == 0, done.stderr
    for slug in LESSONS:
        assert str(out / f"{slug}.pdf") in done.stdout
    return out


@pytest.fixture(scope="module")
def handouts(tmp_path_factory, poppler, site_content, site_cache) -> tuple[Path, Path]:
    """Both editions, printed by two commands side by side (each waits on its Chromium half the time)."""
    folder = tmp_path_factory.mktemp("handout")
    with ThreadPoolExecutor(2) as pool:
        students = pool.submit(print_handouts, folder / "out", site_content, site_cache)
        teacher = pool.submit(print_handouts, folder / "teacher", site_content, site_cache, "--teacher")
        return students.result(), teacher.result()


@pytest.fixture(scope="module")
def handout(handouts) -> Path:
    """The students' handouts."""
    return handouts[0]


@pytest.fixture(scope="module")
def teacher_handout(handouts) -> Path:
    """The teacher's edition's handouts."""
    return handouts[1]


@pytest.fixture
def source(site_content, slug):
    return load_lesson(site_content / slug)


def run(*cmd) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=TOOL_TIMEOUT).stdout


def squeeze(text: str) -> str:
    """pdftotext breaks lines where the page wraps them: compare text with all whitespace removed."""
    return re.sub(r"\s+", "", text)


def page_texts(pdf: Path) -> list[str]:
    return run("pdftotext", "-layout", str(pdf), "-").split("\f")[:-1]


def longest_chinese_run(markdown: str) -> str:
    return max(re.findall(r"[\u4e00-\u9fff，。、「」：；——]+", markdown), key=len)


@pytest.mark.parametrize("answers", [False, True], ids=["student", "teacher"])
def test_a4_pages_numbered(handout, teacher_handout, slug, answers):
    name = (teacher_handout if answers else handout) / f"{slug}.pdf"
    info = run("pdfinfo", str(name))
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert 1 <= pages <= 100, pages                     # neither empty nor runaway, whatever the lesson
    assert (width, height) == pytest.approx(A4_POINTS, abs=2)
    texts = page_texts(name)
    assert len(texts) == pages
    for number, text in enumerate(texts, start=1):
        assert re.search(rf"\b{number}\s*/\s*{pages}\s*$", text.strip()), f"page {number} has no number"


def test_fonts_are_embedded_and_chinese_uses_a_cjk_font(handout, slug):
    pdf = handout / f"{slug}.pdf"
    header, rule, *rows = run("pdffonts", str(pdf)).splitlines()
    assert rows, "no fonts at all: was the text printed as images?"
    emb = header.index(" emb ") + 1                     # columns are fixed-width; names and types contain spaces
    for row in rows:
        assert row[emb:emb + 3] == "yes", f"font not embedded (a reader would substitute it): {row}"
    # Chromium embeds CFF-based fonts such as Noto Sans CJK as Type 3, which pdffonts lists as [none]; their font
    # descriptors still name the family they were drawn from
    families = {m.decode("latin-1") for m in CJK_FAMILY.findall(pdf.read_bytes())}
    assert families, "no CJK font embedded"


def test_every_heading_and_challenge_printed(handout, source, slug):
    text = squeeze("".join(page_texts(handout / f"{slug}.pdf")))
    assert squeeze(source.meta["title"]) in text
    page = (handout / slug / "index.html").read_text(encoding="utf-8")
    for section in source.sections:  # as the page shows it: a title may hold a computed value
        heading = re.search(rf'<h2 id="{section.id}-title">(.*?)</h2>', page, re.S).group(1)
        shown = html.unescape(re.sub(r"<[^>]+>", "", heading))
        assert squeeze(shown) in text, shown
    for number, _ in enumerate(source.meta.get("challenges") or [], start=1):  # its title too may hold a value
        heading = re.search(rf'<h3 id="challenge-{number}-title">(.*?)</h3>', page, re.S).group(1)
        shown = html.unescape(re.sub(r"<[^>]+>", "", heading))
        assert shown.startswith(f"挑战 {number} · ") and squeeze(shown) in text, shown


def test_widgets_print_every_state_they_show(handout):
    """The fixture lesson's mask table prints both modes and its block stack its whole table: no JS on paper."""
    text = squeeze("".join(page_texts(handout / f"{FIXTURE}.pdf")))
    sentence = "".join(TOKENS)
    assert f"续写「{sentence}」（编码器）" in text and f"续写「{sentence}」（解码器）" in text
    # n × n decoder table: the n(n−1)/2 cells above the diagonal are masked (plus the ✕ in the legend); encoder none
    n = len(TOKENS)
    assert text.count("✕") == n * (n - 1) // 2 + 1
    # the explorer prints its key states and its whole table: header and a row for every block count
    assert "块数一直变大保持不变慢慢变大" in text
    truth = expected_series()
    for k, layer in enumerate(LAYERS):
        row = f"{layer}" + "".join(format_value(truth[key][k]) for key in LABELS)
        assert squeeze(row) in text, row


def test_student_edition_hides_answers_teacher_edition_prints_them_last(handout, teacher_handout, source, slug):
    student = squeeze("".join(page_texts(handout / f"{slug}.pdf")))
    teacher_pages = [squeeze(t) for t in page_texts(teacher_handout / f"{slug}.pdf")]
    teacher = "".join(teacher_pages)
    assert teacher_pages[0].startswith("教师版") and "教师版" not in student   # the edition's mark, on paper too
    # every worked answer, per kind: each challenge's, and each standalone self-check's that has one
    answered = [c for kind in ("challenges", "checks") for c in source.meta.get(kind) or [] if c.get("answer")]
    if not answered:
        assert "查看答案" not in student + teacher
        return
    start = next(i for i, t in enumerate(teacher_pages) if t.startswith("答案"))
    answers_part = "".join(teacher_pages[start:])
    for entry in answered:
        phrase = squeeze(longest_chinese_run(entry["answer"]))
        assert phrase not in student, phrase
        assert phrase in answers_part, phrase
    assert "参考资料" not in answers_part, "the answers come after everything else"
    assert "查看答案" not in student + teacher


def test_no_figure_split_across_pages(handout, site, slug):
    """Every Chinese label inside a figure is on the same page as the figure's caption."""
    page_html = (site / slug / "index.html").read_text(encoding="utf-8")
    pages = [squeeze(t) for t in page_texts(handout / f"{slug}.pdf")]
    in_answers = set(re.findall(r'<figure id="(fig-[\w-]+)-print"', page_html))  # the student edition has no answers
    figures = [f for f in re.findall(r'<figure id="fig-[\w-]+".*?</figure>', page_html, re.S)
               if re.match(r'<figure id="(fig-[\w-]+?)(?:-print)?"', f).group(1) not in in_answers]
    if slug == FIXTURE:
        assert len(figures) == 1
    for figure in figures:
        caption_html = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", figure, re.S).group(1)
        caption_html = re.split(r"<math", caption_html)[0]  # math glyphs come out of pdftotext as other letters
        caption = squeeze(html.unescape(re.sub(r"<[^>]+>", "", caption_html)))[:12]
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


def test_first_page_is_not_blank(handout, tmp_path, slug):
    from PIL import Image

    run("pdftoppm", "-r", "40", "-f", "1", "-l", "1", "-png", "-singlefile", str(handout / f"{slug}.pdf"),
        str(tmp_path / "page1"))
    image = Image.open(tmp_path / "page1.png").convert("L")
    pixels = image.tobytes()
    inked = sum(p < 200 for p in pixels) / len(pixels)
    dark = sum(p < 80 for p in pixels) / len(pixels)
    assert 0.01 < inked < 0.5 and dark > 0.002, (inked, dark)
