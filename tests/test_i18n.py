"""The teacher's language: the pages' words come from the theme's i18n/<language>.yaml chosen by site.yaml's
`language:`; the messages to the author follow --lang, else LESSONKIT_LANG, else site.yaml, else the system locale,
else Chinese. Expected texts here are written out by hand, not read back from the catalogs."""
from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest
import yaml

import message_templates
from lesson_folders import TWO_VALUES_PY
from lessonkit.cli import main
from lessonkit.support.errors import ContentError, Problem
from lessonkit.support.messages import Message, msg
from lessonkit.support.suggest import did_you_mean
from lessonkit.site import Options, build
from english_lesson import CJK as CJK_ANY, write_english_site
from lessonkit.support.paths import BUILTIN_THEMES

PROJECT = Path(__file__).resolve().parent.parent
THEME = BUILTIN_THEMES / "default"
BROKEN = Path(__file__).parent / "broken"
CJK = re.compile(r"[\u3400-\u9fff]")
CATALOG = yaml.safe_load((PROJECT / "lessonkit" / "messages" / "zh-CN.yaml").read_text(encoding="utf-8"))

EN_YAML = """\
title: Why the sum grows
summary: A small lesson written in English
objectives:
  - Read one computed number
question: How large is two to the tenth?
challenges:
  - title: Double it
    question: What is twice {{ two_pow }}?
    answer: It is {{ doubled }}.
sources:
  - A textbook, chapter 1.
"""
EN_MD = """\
## The number {#number}

Two to the tenth is {{ two_pow }}; @fig:curve draws it.

{{< figure curve >}}
"""
EN_PY = TWO_VALUES_PY + """

@lesson.figure(caption="Powers of two", alt="A line rising from 1 to 1024")
def curve(plt):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(range(11), [2 ** n for n in range(11)])
    ax.set(xlabel="n", ylabel="2^n")
    return fig
"""


@pytest.fixture
def no_language_env(monkeypatch):
    """As on an author's machine with a C locale: no LESSONKIT_LANG (tests/conftest.py sets en for the suites)."""
    for var in ("LESSONKIT_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def write(folder: Path, **files: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name.replace("_", ".")).write_text(textwrap.dedent(text), encoding="utf-8")


def run(tmp_path: Path, capsys, *args: str) -> tuple[int, str, str]:
    code = main(["build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"),
                 "--cache-dir", str(tmp_path / "cache"), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err.replace(f"{(tmp_path / 'content').resolve()}/", "")


def broken_case(tmp_path: Path, case: str = "md-unknown-value") -> None:
    shutil.copytree(BROKEN / case, tmp_path / "content" / case)


# ── messages to the author ──────────────────────────────────────────────────────────────────────────────────────────
UNKNOWN_VALUE_ZH = ["错误：内容有 1 个问题，什么都没有写出：",
                    "  content/md-unknown-value/lesson.md:3: 未知的值 `two_pwo`；是不是 `two_pow`？（应为 lesson.py 里定义的值：two_pow）"]
UNKNOWN_VALUE_EN = ["error: the content has 1 problem(s); nothing was written:",
                    "  content/md-unknown-value/lesson.md:3: unknown value `two_pwo`; did you mean `two_pow`? (expected a value "
                    "defined in lesson.py: two_pow)"]


def test_messages_are_chinese_by_default(tmp_path, capsys, no_language_env):
    broken_case(tmp_path)
    code, _, err = run(tmp_path, capsys)
    assert code == 1
    assert err.splitlines() == UNKNOWN_VALUE_ZH


@pytest.mark.parametrize("locale, expected", [("en_US.UTF-8", UNKNOWN_VALUE_EN), ("zh_CN.UTF-8", UNKNOWN_VALUE_ZH),
                                              ("C", UNKNOWN_VALUE_ZH)])
def test_the_system_locale_chooses_when_nothing_else_does(tmp_path, capsys, no_language_env, monkeypatch, locale,
                                                          expected):
    monkeypatch.setenv("LANG", locale)
    broken_case(tmp_path)
    assert run(tmp_path, capsys)[2].splitlines() == expected


def test_site_yaml_language_beats_the_locale_and_lang_beats_both(tmp_path, capsys, no_language_env, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    broken_case(tmp_path)
    (tmp_path / "content" / "site.yaml").write_text("language: en\n", encoding="utf-8")
    assert run(tmp_path, capsys)[2].splitlines() == UNKNOWN_VALUE_EN
    assert run(tmp_path, capsys, "--lang", "zh-CN")[2].splitlines() == UNKNOWN_VALUE_ZH
    (tmp_path / "content" / "site.yaml").write_text("language: zh-CN\n", encoding="utf-8")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert run(tmp_path, capsys)[2].splitlines() == UNKNOWN_VALUE_ZH
    assert run(tmp_path, capsys, "--lang", "en")[2].splitlines() == UNKNOWN_VALUE_EN


def test_a_problem_renders_in_either_language_with_its_shape():
    problem = Problem(Path("x/lesson.yaml"), 4,
                      msg("duplicate key `{key}` (first at line {line})", key="title", line=1), "each key once")
    assert problem.render("zh-CN") == "x/lesson.yaml:4: 重复的键 `title`（第一次出现在第 1 行）（应为 每个键只写一次）"
    assert problem.render("en") == "x/lesson.yaml:4: duplicate key `title` (first at line 1) (expected each key once)"
    untranslated = Problem(Path("x/lesson.md"), None, "a message no catalog knows")
    assert untranslated.render("zh-CN") == "x/lesson.md: a message no catalog knows"


def test_a_message_with_a_did_you_mean_inside_translates_both_parts():
    message = msg("unknown value `{name}`{hint}", name="two_pwo", hint=did_you_mean("two_pwo", ["two_pow", "tokens"]))
    assert str(message) == "unknown value `two_pwo`; did you mean `two_pow`?"
    assert message.render("zh-CN") == "未知的值 `two_pwo`；是不是 `two_pow`？"
    expected = msg("a value defined in lesson.py: {names}", names=msg("none"))
    assert Problem(Path("x/lesson.md"), 3, message, expected).render("zh-CN") == \
        "x/lesson.md:3: 未知的值 `two_pwo`；是不是 `two_pow`？（应为 lesson.py 里定义的值：无）"
    # no close name: no hint, in either language; a parameter that is not a message is shown as it is
    far = msg("unknown value `{name}`{hint}", name="none", hint=did_you_mean("zzz", ["two_pow"]))
    assert str(far) == "unknown value `none`" and far.render("zh-CN") == "未知的值 `none`"


# Text an author's tools write, not lessonkit: Python's and YAML's own error messages stay as they are.
FOREIGN = ["x and y must have same first dimension, but have shapes (2,) and (3,)", "division by zero",
           "invalid syntax (lesson.py, line 12)", "expected ',' or ']', but got ':'",
           "Object of type set is not JSON serializable", "Content-Security-Policy"]


def english_left(text: str) -> list[str]:
    """Runs of three or more English words outside code spans, paths and foreign messages."""
    for foreign in FOREIGN:
        text = text.replace(foreign, "")
    text = re.sub(r"`[^`]*`|\S*/\S*|\b\w+(Error|Exception)\b", " ", text)
    return re.findall(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b", text)  # (a list of names is not English)


def corpus_problems(tmp_path: Path) -> list[Problem]:
    import test_broken_corpus as corpus

    content, outside = tmp_path / "content", tmp_path / "outside"
    outside.mkdir()
    for case in corpus.EXPECTED:
        corpus.write_case(case, content, outside)
    with pytest.raises(ContentError) as err:
        build(Options(content=content.resolve(), out=tmp_path / "out", themes=PROJECT / "themes"))
    return err.value.problems


def templates_in(text: Message | str | None) -> list[str]:
    """The template of a message (a plain string is one) and of every message among its parameters, at any depth
    (any other parameter is shown as it is)."""
    if not isinstance(text, Message):
        return [text] if text else []
    return [text.template] * bool(text) + [t for _, value in text.params if isinstance(value, Message)
                                           for t in templates_in(value)]


def test_the_broken_lesson_corpus_reads_in_chinese_with_no_english_left(tmp_path):
    """The same corpus tests/test_broken_corpus.py reads word for word in English, shown in Chinese: every template
    the build said (at any depth) is in the catalog, and no English is left around the names and paths."""
    problems = corpus_problems(tmp_path)
    assert len(problems) >= 50
    missing = []
    for problem in problems:
        missing += [t for text in (problem.message, problem.expected) for t in templates_in(text) if t not in CATALOG]
        shown = problem.render("zh-CN")
        if english_left(shown.split(": ", 1)[1]):
            missing.append(f"{shown}  ← English left: {english_left(shown.split(': ', 1)[1])}")
        assert "（应为 " in shown if problem.expected else "（应为" not in shown
        assert " (expected " not in shown
    assert not missing, "messages without a Chinese translation in lessonkit/messages/zh-CN.yaml:\n" + "\n".join(
        dict.fromkeys(missing))


# The message's own placeholders, spelled here as the catalog's header describes them.
PLACEHOLDER = re.compile(r"\{(\w+)(?::[^{}]*)?\}")


def test_every_template_the_engine_uses_has_a_translation_with_the_same_placeholders():
    uses = message_templates.uses()
    assert len({u.template for u in uses}) > 300
    problems = []
    for use in uses:
        names = set(PLACEHOLDER.findall(use.template))
        if use.template not in CATALOG:
            problems.append(f"{use.where}: no zh-CN entry for {use.template!r}")
        elif names != set(PLACEHOLDER.findall(CATALOG[use.template])):
            problems.append(f"{use.where}: the zh-CN entry of {use.template!r} has other placeholders")
        if use.params and use.params != names:  # (no parameters: any brace in the template is text, e.g. `{#id}`)
            problems.append(f"{use.where}: {use.template!r} is given {sorted(use.params)}")
    assert not problems, "\n".join(problems)


def test_messages_are_templates_and_parameters_not_finished_text():
    """An f-string, `+` or `.format` as a message could only be translated by matching it back."""
    assert message_templates.finished_texts() == []


def test_every_catalog_entry_is_used_by_the_engine():
    used = {u.template for u in message_templates.uses()}
    assert [english for english in CATALOG if english not in used] == []
    for english, chinese in CATALOG.items():
        assert sorted(PLACEHOLDER.findall(english)) == sorted(PLACEHOLDER.findall(chinese)), english


def test_english_messages_read_no_catalog_and_chinese_ones_read_it_once(tmp_path, capsys, monkeypatch):
    """Translating is a dict lookup: the catalog is read the first time a message is shown in its language, and an
    English message (the template itself) never reads one."""
    from lessonkit.support import messages

    messages.catalog.cache_clear()
    broken_case(tmp_path)
    assert run(tmp_path, capsys, "--lang", "en")[0] == 1
    assert messages.catalog.cache_info().misses == 0
    (tmp_path / "corpus").mkdir()
    problems = corpus_problems(tmp_path / "corpus")
    for problem in problems:
        problem.render("zh-CN")
    info = messages.catalog.cache_info()
    assert info.misses == 1 and info.misses + info.hits == len(problems)  # read once, looked up once per problem


def test_the_build_summary_is_chinese(tmp_path, capsys, no_language_env, make_lesson):
    make_lesson()
    code, out, _ = run(tmp_path, capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"已构建 1 节课和首页，写到 {(tmp_path / 'out').resolve()}"
    assert lines[-1].startswith("共用 ") and lines[-1].endswith(" 秒（不含 Python 启动和导入）")
    assert any(line.startswith("  课 ") and line.endswith("| 1") for line in lines)
    assert run(tmp_path, capsys, "--lang", "en")[1].splitlines()[0].startswith("built 1 lesson(s) + index into ")


# ── the pages' words ────────────────────────────────────────────────────────────────────────────────────────────────
def english_site(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    write(content / "powers", lesson_yaml=EN_YAML, lesson_md=EN_MD, lesson_py=EN_PY)
    (content / "site.yaml").write_text("language: en\n", encoding="utf-8")  # the title: the theme's English default
    return content


def test_an_english_site_has_english_words_and_messages(tmp_path, capsys, no_language_env):
    english_site(tmp_path)
    code, out, err = run(tmp_path, capsys)
    assert code == 0, err
    assert out.startswith("built 1 lesson(s) + index into ")
    page = (tmp_path / "out" / "powers" / "index.html").read_text(encoding="utf-8")
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    for html in (page, index):
        assert '<html lang="en">' in html
        assert not CJK.findall(html), "Chinese left on an English page"
        assert "Every number and figure on this page was computed with numpy when the site was built" in html
        assert ">Skip to content<" in html
    for words in ('<h2 id="objectives-title">Objectives</h2>', '<h2 id="question-title" data-mark="?">Question for the class</h2>',
                  '<h2 id="challenges-title">Challenges</h2>', '>Challenge 1 · Double it</h3>',
                  "<summary>Show answer</summary>", '<h2 id="sources-title">Further reading</h2>',
                  '<span class="fig-num">Figure 1</span>', '<a class="fig-ref" href="#fig-curve">Figure 1</a>',
                  "<summary>Course contents</summary>", ">Project</button>", 'data-count="Screen {i} of {n}"',
                  'data-none="{where}nothing found for “{q}”"', 'placeholder="Words to find"'):
        assert words in page, words
    assert '<span class="lesson-num">Lesson 1</span>' in index and "<title>Computed lessons</title>" in index
    assert re.search(r'<p class="lesson-item-meta">About \d+ min</p>', index)
    # an error in the English lesson is reported in English
    (tmp_path / "content" / "powers" / "lesson.md").write_text(EN_MD + "\nIt is {{ two_pwo }}.\n", encoding="utf-8")
    code, _, err = run(tmp_path, capsys)
    assert code == 1
    assert "powers/lesson.md:7: unknown value `two_pwo`; did you mean `two_pow`? (expected a value defined in " \
           "lesson.py: doubled, two_pow)" in err


def csv_texts(page: str, folder) -> list[str]:
    """The CSV files a page links (written beside it), read."""
    return [(folder / href).read_bytes().decode("utf-8") for href in re.findall(r'href="([^"]+\.csv)"', page)]


def test_an_english_site_from_english_content_writes_no_chinese_anywhere(tmp_path, capsys, no_language_env):
    """Every file the build writes (pages with their scripts' data: every feedback a self-check can give, the
    teacher's key, figure data and its CSV, widget words) and what it prints. The browser test drives the same
    lesson's self-checks with wrong answers and prints its PDFs (tests/browser/test_english_site.py)."""
    write_english_site(tmp_path / "content")
    code, out, err = run(tmp_path, capsys)
    assert code == 0, err
    assert not CJK_ANY.search(out + err), out + err
    files = [p for p in sorted((tmp_path / "out").rglob("*")) if p.is_file()]
    assert len(files) >= 3
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = [text[max(0, m.start() - 60):m.end() + 20] for m in CJK_ANY.finditer(text)]
        assert not found, f"Chinese in {path.name}: {found[:5]}"
    page = (tmp_path / "out" / "powers" / "index.html").read_text(encoding="utf-8")
    csvs = csv_texts(page, tmp_path / "out" / "powers")
    assert csvs and not any(CJK_ANY.search(t) for t in csvs)
    assert any(t.lstrip("\ufeff").startswith("category,value 1\r\n") for t in csvs)
    # the words are the theme's English ones, around numbers worked out by hand
    for words in ("Answer: 0.00405 % (relative error ±5 %)",           # 0.9⁹⁶ × 100 = 0.0040484
                  "Answer: [1.73, −0.577, −0.577, −0.577] (error ±0.01)",  # (x − 2.5) / 4.33 for x = 10, 0, 0, 0
                  "Answer: −0.250 (significant figures: 2)", "Answer: 0 (error ±0.01)", "Answer: A, C",
                  'aria-label="Normalised, value 1"', '<h2 id="question-title" data-mark="?">',
                  "Data of Figure 1<span class=\"data-note\"> (49 rows, one in every 2 shown)</span>",  # ⌈49/25⌉ = 2
                  "<th>category<th>value 1</thead>", "<th>row<th>0<th>1<th>2</thead>",
                  '<th scope="row">1</th><td>no</td>', '<th scope="row">2</th><td>yes</td>',
                  "Width 4 · Scaled no: size 4.00; scaled no", "<p class=\"ex-point\">Width 16 · Scaled yes</p>",
                  'aria-pressed="true">no</button>', "Continue “the cat sat” (decoder)"):
        assert words in page, words
    data = json.loads(re.search(r'id="check-1-data">(.*?)</script>', page).group(1))
    assert data["messages"]["said"] == "{label}: {verdict}" and data["messages"]["hint_step"] == "Hint ({i}/{n})"
    assert "Too large: about 10 times the right value." in data["ratios"]["pos"]["says"]
    assert data["fields"][0]["mistakes"][1][2] == ("This looks like the value before converting: type it "
                                                   "multiplied by 100, in %.")
    answers = re.search(r'<section id="answers".*?</section>', page, re.S).group(0)
    assert "<p>What is two to the tenth?</p>" in answers and "It is 1024, a little more than a thousand." in answers


def test_the_default_site_is_chinese(tmp_path, capsys, no_language_env, make_lesson):
    make_lesson()
    assert run(tmp_path, capsys)[0] == 0
    page = (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in page
    assert "本页所有数字与图均在构建时用 numpy 计算" in page and '<h2 id="objectives-title">实验目标</h2>' in page
    assert "Skip to content" not in page


def test_an_unknown_language_is_reported_in_site_yaml(tmp_path, capsys, make_lesson):
    make_lesson()
    (tmp_path / "content" / "site.yaml").write_text("title: x\nlanguage: fr\n", encoding="utf-8")
    code, _, err = run(tmp_path, capsys)
    assert code == 1
    assert "site.yaml:2: unknown language `fr` (expected one of: en, zh-CN (a theme file i18n/<language>.yaml))" in err


def user_theme(tmp_path: Path, files: dict[str, str]) -> Path:
    themes = tmp_path / "themes"
    shutil.copytree(THEME, themes / "default")
    for name, text in files.items():
        (themes / "mine" / name).parent.mkdir(parents=True, exist_ok=True)
        (themes / "mine" / name).write_text(text, encoding="utf-8")
    return themes


def test_a_theme_overrides_single_words(tmp_path, capsys, make_lesson):
    make_lesson()
    themes = user_theme(tmp_path, {"i18n/zh-CN.yaml": "footer: 数字都是算出来的\n"})
    assert run(tmp_path, capsys, "--themes-dir", str(themes), "--theme", "mine")[0] == 0
    page = (tmp_path / "out" / "demo" / "index.html").read_text(encoding="utf-8")
    assert "<p>数字都是算出来的</p>" in page and "本页所有数字" not in page
    assert '<h2 id="objectives-title">实验目标</h2>' in page  # every other word from the default theme


def test_an_unknown_ui_key_names_the_template_and_the_files(tmp_path, capsys, make_lesson):
    make_lesson()
    themes = user_theme(tmp_path, {"partials/pager.html": "<p>{{ ui.nextt_lesson }}</p>\n"})
    code, _, err = run(tmp_path, capsys, "--themes-dir", str(themes), "--theme", "mine")
    assert code == 2
    assert f"{themes / 'mine' / 'partials' / 'pager.html'}:1: template error: unknown UI string `ui.nextt_lesson`; " \
           f"did you mean `ui.next_lesson`?: it is in none of {themes / 'default' / 'i18n' / 'zh-CN.yaml'}" in err


# ── the shipped files ───────────────────────────────────────────────────────────────────────────────────────────────
def test_both_languages_have_the_same_keys_and_fields():
    zh = yaml.safe_load((THEME / "i18n" / "zh-CN.yaml").read_text(encoding="utf-8"))
    en = yaml.safe_load((THEME / "i18n" / "en.yaml").read_text(encoding="utf-8"))
    assert set(zh) == set(en)
    for key in zh:
        assert sorted(re.findall(r"\{\w+\}", zh[key])) == sorted(re.findall(r"\{\w+\}", en[key])), key
        assert not CJK.search(en[key]), key


def test_every_word_the_theme_uses_is_defined_and_no_chinese_is_hard_coded():
    keys = set(yaml.safe_load((THEME / "i18n" / "en.yaml").read_text(encoding="utf-8")))
    used = set()
    for path in sorted(THEME.rglob("*")):
        if path.suffix not in (".html", ".js", ".css") or "i18n" in path.relative_to(THEME).parts:
            continue
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bui\.(\w+)", text)) if path.suffix == ".html" else set()
        # Chinese words and CJK punctuation alike (「」：（）？): an English page must not show them
        assert not CJK_ANY.search(text), f"{path.relative_to(PROJECT)} has Chinese words: put them in i18n/*.yaml"
    assert used - {"lang"} <= keys
    assert len(used) > 40


def engine_ui_keys() -> set[str]:
    """The UI strings the engine's Python asks for: `ui.KEY`, phrases, and the self-check's words by name."""
    from lessonkit.features import selfcheck

    used = set()
    for path in sorted((PROJECT / "lessonkit").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bui\.(\w+)\b(?!\*)", text))  # not `ui.selfcheck_*` in a docstring
        used |= set(re.findall(r"\bphrase\(\s*\"(\w+)\"", text))
        used |= set(re.findall(r"\bjoined\([^()]*(?:\([^()]*\)[^()]*)*,\s*\"(\w+)\"\)", text, re.S))
        used |= {a for pair in re.findall(r'phrase\("(\w+)" if \w+ else "(\w+)"\)', text) for a in pair}
    used |= {f"selfcheck_{name}" for name in selfcheck.SCRIPT_WORDS}
    used |= {f"selfcheck_band_{name}{tail}" for _, name, _ in selfcheck.ratio_bands() for tail in ("", "_neg")}
    used |= {f"selfcheck_band_far_above{tail}" for tail in ("", "_neg")}
    return used - {"lang", "get", "keys", "key", "KEY"}  # UiStrings' own attributes, and docstrings' `ui.key`


def test_every_word_the_engine_asks_for_is_in_both_languages():
    keys = {lang: set(yaml.safe_load((THEME / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8")))
            for lang in ("zh-CN", "en")}
    used = engine_ui_keys()
    assert {"value_true", "value_false", "data_category", "explorer_summary", "explorer_value_separator",
            "selfcheck_band_above_neg", "selfcheck_item", "selfcheck_tolerance_sig", "selfcheck_unscaled"} <= used
    assert used - keys["zh-CN"] == set() and used - keys["en"] == set()


WORD_WRITERS = ["features/selfcheck.py", "features/figdata.py", "features/widgets.py", "support/words.py"]


@pytest.mark.parametrize("module", WORD_WRITERS)
def test_the_modules_that_write_words_hold_none_themselves(module):
    """A string in the code (docstrings and comments aside) in Chinese, or with Chinese punctuation, would show on an
    English page: every word these modules write comes from the theme."""
    import ast

    tree = ast.parse((PROJECT / "lessonkit" / module).read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    words = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and id(node) not in docstrings and CJK_ANY.search(node.value)]
    assert words == []


def test_every_schema_help_text_has_a_chinese_translation():
    """The `expected` text of every lesson.yaml / site.yaml / glossary.yaml key and of the widget data, whatever the
    broken corpus happens to exercise."""
    from lessonkit.features import glossary, widgetdata
    from lessonkit.load import schema

    tables = [t for module in (schema, glossary, widgetdata) for t in vars(module).values() if isinstance(t, dict)]
    helps = [key.help for table in tables for key in table.values() if isinstance(key, schema.Key)]
    assert len(helps) > 40
    assert [h for h in helps if h not in CATALOG] == []


def test_a_parameter_may_have_any_name_even_template():
    message = msg("the theme's {template} makes a page its Content-Security-Policy would break: {found} (inline code "
                  "belongs in assets/lesson.js and assets/style.css, or in a component's widget.js and widget.css, "
                  "whose hashes the policy lists)", template="lesson.html", found="x")
    assert message.render("zh-CN").startswith("主题的 lesson.html 生成的页面会被它的内容安全策略")
