"""A course: lessons in order, previous/next links, @lesson: links checked at build time, a theme named in site.yaml."""
import re
from lessonkit.support.paths import BUILTIN_THEMES

YAML = "title: {title}\nsummary: 第 {n} 课的简介\norder: {n}\nobjectives:\n  - 目标 {n}\n"


def lesson(make_lesson, slug, n, md=None):
    return make_lesson(slug=slug, yaml=YAML.format(title=f"第{n}课标题", n=n),
                       md=md or f"## 开头 {{#start}}\n\n正文 {n}。\n\n## 结尾 {{#end}}\n\n完。\n", py=None)


def test_lessons_follow_order_and_link_to_their_neighbours(make_lesson, run_build):
    lesson(make_lesson, "zeta", 1)   # folder names sort the other way round: `order` decides
    lesson(make_lesson, "beta", 2)
    lesson(make_lesson, "alpha", 3)
    code, _, err, out = run_build()
    assert code == 0, err
    middle = (out / "beta" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="pager-prev" rel="prev" href="\.\./zeta/index\.html">.*?第1课标题', middle)
    assert re.search(r'<a class="pager-next" rel="next" href="\.\./alpha/index\.html">.*?第3课标题', middle)
    first = (out / "zeta" / "index.html").read_text(encoding="utf-8")
    assert 'rel="prev"' not in first and 'rel="next" href="../beta/index.html"' in first
    index = (out / "index.html").read_text(encoding="utf-8")
    assert [index.index(f'href="{s}/index.html"') for s in ("zeta", "beta", "alpha")] == \
        sorted(index.index(f'href="{s}/index.html"') for s in ("zeta", "beta", "alpha"))
    # the course contents on every lesson page: all lessons, this one's sections
    nav = re.search(r'<nav class="course-nav".*?</nav>', middle, re.S).group(0)
    assert nav.count('<li') >= 3 + 2 and 'href="#start"' in nav and 'href="../alpha/index.html"' in nav


def test_lesson_links_resolve_by_title_and_section(make_lesson, run_build):
    lesson(make_lesson, "one", 1, md="## 开头 {#start}\n\n见 @lesson:two 和 @lesson:two#end。\n")
    lesson(make_lesson, "two", 2)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "one" / "index.html").read_text(encoding="utf-8")
    assert '<a class="lesson-ref" href="../two/index.html">第2课标题</a>' in page
    assert '<a class="lesson-ref" href="../two/index.html#end">第2课标题 · 2 结尾</a>' in page


def test_an_unknown_lesson_or_section_is_an_error_with_its_line(make_lesson, run_build):
    lesson(make_lesson, "one", 1, md="## 开头 {#start}\n\n第一行\n见 @lesson:tow。\n\n再见 @lesson:two#ned。\n")
    lesson(make_lesson, "two", 2)
    code, _, err, _ = run_build()
    assert code == 1 and "Traceback" not in err
    assert "one/lesson.md:4: link to unknown lesson `@lesson:tow`; did you mean `two`?" in err
    assert "one/lesson.md:6: link to unknown section `@lesson:two#ned`; did you mean `end`?" in err


def test_one_lesson_built_alone_still_links_to_the_others(make_lesson, run_build):
    lesson(make_lesson, "one", 1, md="## 开头 {#start}\n\n见 @lesson:two。\n")
    lesson(make_lesson, "two", 2)
    code, _, err, out = run_build("--lesson", "one")
    assert code == 0, err
    assert 'href="../two/index.html">第2课标题</a>' in (out / "one" / "index.html").read_text(encoding="utf-8")
    assert not (out / "two").exists()


def test_site_yaml_names_the_theme_and_the_command_line_overrides_it(make_lesson, run_build, tmp_path):
    lesson(make_lesson, "one", 1)
    themes = tmp_path / "themes"
    for name, words in (("default", None), ("mine", "王老师"), ("other", "李老师")):
        target = themes / name
        if words is None:
            import shutil
            from lesson_folders import PROJECT
            shutil.copytree(BUILTIN_THEMES / "default", target)
        else:
            (target / "partials").mkdir(parents=True)
            (target / "partials" / "extend_head.html").write_text(f'<meta name="author" content="{words}">\n',
                                                                  encoding="utf-8")
    (tmp_path / "content" / "site.yaml").write_text("theme: mine\n", encoding="utf-8")
    code, _, err, out = run_build("--themes-dir", str(themes))
    assert code == 0, err
    assert '<meta name="author" content="王老师">' in (out / "one" / "index.html").read_text(encoding="utf-8")
    code, _, err, out = run_build("--themes-dir", str(themes), "--theme", "other")
    assert code == 0, err
    assert '<meta name="author" content="李老师">' in (out / "one" / "index.html").read_text(encoding="utf-8")
