"""`python build.py slides` (and `slides --teacher` for the fixture lesson): every lesson of content/ and the fixture lesson as a 16:9 slides PDF and an
editable PPTX, checked against the lesson page itself in Chromium (its projector screens counted by pressing → on
a 1280 × 720 window), read back with python-pptx, converted once with LibreOffice and read with poppler.

One slides build and one LibreOffice conversion for the whole session."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import FIXTURE, LESSONS, PROJECT, require, started
from fixture_lesson import FORMULA, NOTES_WORDS
from lessonkit.support import chromium

SLIDES_TIMEOUT = 900        # seconds: the build, then two PDFs and a PPTX per lesson
CONVERT_TIMEOUT = 600       # LibreOffice, every PPTX in one run
TOOL_TIMEOUT = 120
PROJECTOR = {"width": 1280, "height": 720}      # a 720p projector: the size the slides are made for
CJK_RUN = re.compile(r"[\u4e00-\u9fff]{4,}")


@dataclass
class Slides:
    out: Path
    stdout: str
    teacher: Path         # the teacher's deck of the fixture lesson (`slides --teacher`, output-teacher/)
    teacher_stdout: str


@pytest.fixture(scope="session")
def slides(tmp_path_factory, site_content, site_cache, poppler) -> Slides:
    require(chromium.missing())
    try:
        import pptx  # noqa: F401
    except ImportError:
        require("python-pptx is not installed: .venv/bin/pip install -e .")
    out, teacher = tmp_path_factory.mktemp("slides") / "out", tmp_path_factory.mktemp("slides") / "teacher"
    with ThreadPoolExecutor(2) as pool:   # the two commands side by side: each waits on its Chromium half the time
        students = pool.submit(make_slides, out, site_content, site_cache)
        teachers = pool.submit(make_slides, teacher, site_content, site_cache, "--answers", "--lesson",
                               FIXTURE)   # --teacher's old name
        students, teachers = students.result(), teachers.result()
    assert "--answers is now --teacher" in teachers.stderr
    return Slides(out, students.stdout, teacher, teachers.stdout)


def make_slides(out: Path, site_content: Path, site_cache: Path, *options: str) -> subprocess.CompletedProcess:
    try:   # a separate process, as a teacher runs it (Playwright's sync API: one instance per thread)
        done = subprocess.run([sys.executable, "build.py", "slides", *options, "--content", str(site_content),
                               "--out", str(out), "--cache-dir", str(site_cache)], cwd=PROJECT,
                              capture_output=True, text=True, timeout=SLIDES_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`build.py slides` did not finish in {SLIDES_TIMEOUT} s:\n{exc.stdout or ''}{exc.stderr or ''}",
                    pytrace=False)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="session")
def converted(slides, tmp_path_factory) -> Path:
    """Every PPTX converted to PDF by LibreOffice headless, in one run with a profile of its own."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    require(None if soffice else "LibreOffice is not installed: sudo apt-get install --no-install-recommends "
                                 "libreoffice-impress (./install.sh does)")
    target = tmp_path_factory.mktemp("converted")
    profile = tmp_path_factory.mktemp("libreoffice-profile")
    done = subprocess.run([soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--convert-to", "pdf",
                           "--outdir", str(target), *sorted(str(p) for p in slides.out.glob("*.pptx"))],
                          capture_output=True, text=True, timeout=CONVERT_TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert "Error" not in done.stderr, done.stderr
    return target


@pytest.fixture(scope="session")
def projector_screens(browser, slides) -> dict[str, list[str]]:
    """Each lesson's projector screens, by their titles, as the page shows them on a 1280 × 720 window."""
    found = {}
    for slug in LESSONS:
        context = browser.new_context(viewport=PROJECTOR)
        page = context.new_page()
        page.goto((slides.out / slug / "index.html").as_uri(), wait_until="load")
        started(page)
        page.keyboard.press("p")
        count = page.locator("[data-widget=projector] .pj-count [aria-hidden]")
        total = int(count.text_content().split(" / ")[1])
        titles = []
        for i in range(total):
            assert count.text_content() == f"{i + 1} / {total}"
            titles.append(page.locator(".pj-title").text_content())
            page.keyboard.press("ArrowRight")
        found[slug] = titles
        context.close()
    return found


@pytest.fixture(scope="session")
def page_facts(browser, slides) -> dict[str, dict]:
    """What each lesson page holds: its figures (name → alt text), its visible text without spaces, its title."""
    facts = {}
    for slug in LESSONS:
        context = browser.new_context(viewport=PROJECTOR)
        page = context.new_page()
        page.goto((slides.out / slug / "index.html").as_uri(), wait_until="load")
        started(page)
        facts[slug] = page.evaluate("""() => {
            const lesson = document.querySelector('article.lesson').cloneNode(true);
            lesson.querySelectorAll('.speaker-notes, script, style').forEach(n => n.remove());
            // (a figure in a challenge's answer: the slides, like the page, keep answers closed)
            const figures = [...document.querySelectorAll('figure.figure')]
                .filter(f => !f.closest('details.answer, .answers-part'));
            return {figures: Object.fromEntries(figures.map(f =>
                        [f.id.replace(/^fig-/, ''), f.querySelector('.figure-svg').getAttribute('aria-label')])),
                    text: lesson.textContent.replace(/\\s+/g, ''),
                    title: document.querySelector('h1').textContent.trim()};
        }""")
        context.close()
    return facts


def presentation(slides: Slides, slug: str, teacher: bool = False):
    from pptx import Presentation
    return Presentation(str((slides.teacher if teacher else slides.out) / f"{slug}.pptx"))


def body_texts(slide) -> list[str]:
    """The text of a slide's text boxes and table cells, the title and the slide number left out."""
    texts = []
    for shape in slide.shapes:
        if shape == slide.shapes.title or (shape.has_text_frame and
                                           shape.text_frame._txBody.find(".//{*}fld") is not None):
            continue
        if shape.has_text_frame:
            texts.append(shape.text_frame.text)
        if shape.has_table:
            texts += [cell.text for row in shape.table.rows for cell in row.cells]
    return [t for t in texts if t.strip()]


def pdf_info(pdf: Path) -> tuple[int, float, float]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True, timeout=TOOL_TIMEOUT).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    return pages, width, height


def page_texts(pdf: Path) -> list[str]:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=TOOL_TIMEOUT).stdout.split("\f")[:-1]


def test_one_slide_per_projector_screen_titled_like_it(slides, projector_screens, slug):
    deck = presentation(slides, slug)
    titles = [slide.shapes.title.text_frame.text for slide in deck.slides]
    assert titles == projector_screens[slug], "a slide per screen, in order, its title the screen's"
    assert deck.slide_width * 9 == deck.slide_height * 16, "16:9"


def test_every_figure_is_a_picture_with_its_alt_text(slides, page_facts, slug):
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    pictures = {}
    for slide in presentation(slides, slug).slides:
        for shape in slide.shapes:
            if shape.shape_type == MSO_SHAPE_TYPE.PICTURE and shape.name.startswith("fig-"):
                pictures[shape.name[4:]] = shape
    assert set(pictures) == set(page_facts[slug]["figures"])
    for name, alt in page_facts[slug]["figures"].items():
        picture = pictures[name]
        assert picture._element.nvPicPr.cNvPr.get("descr") == alt
        shown_px = picture.width / 9525                                  # EMU → CSS px (96 an inch)
        assert picture.image.size[0] >= 2 * shown_px, f"figure {name}: at least twice the pixels it is shown at"
        assert picture.image.content_type == "image/png"


def pictures(shapes):
    """Every picture on a slide, those inside groups (a widget as printed) too."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from pictures(shape.shapes)
        elif shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
            yield shape


def test_every_picture_is_described_and_a_formula_by_its_tex(slides, slug):
    """A screen reader reads each picture's description: none is empty (a widget's bar is described by the words
    beside it), and a display formula's is its TeX (its MathML's text would read 0.9⁹⁶ as 0.996)."""
    described = []
    for number, slide in enumerate(presentation(slides, slug).slides, start=1):
        for picture in pictures(slide.shapes):
            descr = picture._element.nvPicPr.cNvPr.get("descr") or ""
            assert descr.strip(), f"slide {number}: picture {picture.name} has no description"
            described.append(descr)
    if slug == FIXTURE:
        assert FORMULA in described, described


def test_slide_text_is_editable_text_from_the_page(slides, page_facts, slug):
    """Python-pptx reads the Chinese back, and every run of it is the page's own text (none of the notes)."""
    deck = presentation(slides, slug)
    page_text = page_facts[slug]["text"]
    with_text = 0
    for number, slide in enumerate(deck.slides, start=1):
        chinese = [run for t in body_texts(slide) for run in CJK_RUN.findall(re.sub(r"\s+", "", t))]
        with_text += any(t.strip() for t in body_texts(slide))     # (a code listing's slide has no Chinese)
        for run in chinese:
            assert run in page_text, f"slide {number}: «{run}» is not the page's text"
        for word in NOTES_WORDS:
            assert not any(word in t for t in body_texts(slide)), f"slide {number} shows the notes"
    assert with_text >= len(deck.slides) * 0.8, "nearly every slide has text of its own (not pictures of text)"


def test_notes_are_in_the_slides_notes(slides, projector_screens):
    deck = presentation(slides, FIXTURE)
    notes = {word: [slide.shapes.title.text_frame.text for slide in deck.slides
                    if slide.has_notes_slide and word in slide.notes_slide.notes_text_frame.text]
             for word in NOTES_WORDS}
    assert notes == {"蓝鲸": ["1 掩码表"], "海豚": ["2 块数"]}
    answer = "对角线上面的格子都被遮住"
    assert not any(slide.has_notes_slide and answer in slide.notes_slide.notes_text_frame.text for slide in deck.slides)
    teacher = presentation(slides, FIXTURE, teacher=True)
    with_answers = [slide for slide in teacher.slides if slide.has_notes_slide and
                    answer in slide.notes_slide.notes_text_frame.text]
    assert len(with_answers) == 1, "--teacher: a challenge's answer in the notes of its slide"


def test_libreoffice_opens_every_pptx_with_the_same_pages(slides, converted, page_facts, slug):
    deck = presentation(slides, slug)
    pdf = converted / f"{slug}.pdf"
    pages, width, height = pdf_info(pdf)
    assert pages == len(deck.slides)
    assert width / height == pytest.approx(16 / 9, rel=0.005)
    text = re.sub(r"\s+", "", "".join(page_texts(pdf)))
    assert page_facts[slug]["title"].replace(" ", "") in text, "the Chinese title reads back from LibreOffice's PDF"
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, timeout=TOOL_TIMEOUT).stdout
    assert re.search(r"CJK|Source Han|PingFang|YaHei|WenQuanYi", fonts), fonts


def test_slides_pdf_one_16_9_page_per_screen_numbered(slides, projector_screens, page_facts, slug):
    pdf = slides.out / f"{slug}-slides.pdf"
    pages, width, height = pdf_info(pdf)
    total = len(projector_screens[slug])
    assert pages == total, "one page per projector screen"
    assert width / height == pytest.approx(16 / 9, rel=0.005)
    texts = page_texts(pdf)
    for number, text in enumerate(texts, start=1):
        assert re.search(rf"\b{number}\s*/\s*{total}\s*$", text.strip()), f"page {number} has no number"
    assert page_facts[slug]["title"].replace(" ", "") in re.sub(r"\s+", "", texts[0])
    continued = [re.sub(r"\s+", "", t) for t in projector_screens[slug] if t.endswith(("（续）", "(continued)"))]
    assert not continued or any(continued[0] in re.sub(r"\s+", "", text) for text in texts), \
        "a continued screen says whose it is"


def test_teacher_slides_open_answers_and_add_notes_pages(slides):
    student = re.sub(r"\s+", "", "".join(page_texts(slides.out / f"{FIXTURE}-slides.pdf")))
    teacher = re.sub(r"\s+", "", "".join(page_texts(slides.teacher / f"{FIXTURE}-slides.pdf")))
    answer = "对角线上面的格子都被遮住"
    assert answer in teacher and answer not in student
    for word in NOTES_WORDS:
        assert word in teacher and word not in student


def test_the_command_says_what_it_wrote(slides):
    for slug in LESSONS:
        for name in (f"{slug}-slides.pdf", f"{slug}.pptx"):
            assert name in slides.stdout and (slides.out / name).is_file()
    for name in (f"{FIXTURE}-slides.pdf", f"{FIXTURE}.pptx"):
        assert name in slides.teacher_stdout and (slides.teacher / name).is_file()


def test_a_warm_cache_draws_no_figure(slides, site_content, site_cache, tmp_path):
    """The session's slides build drew the pictures; making the fixture lesson's slides again draws nothing."""
    done = subprocess.run([sys.executable, "build.py", "slides", "--lesson", FIXTURE, "--content", str(site_content),
                           "--out", str(tmp_path / "out"), "--cache-dir", str(site_cache)], cwd=PROJECT,
                          capture_output=True, text=True, timeout=SLIDES_TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert re.search(r"figures drawn: 0, from the cache: [1-9]", done.stdout), done.stdout
