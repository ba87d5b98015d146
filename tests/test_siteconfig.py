"""load/siteconfig.py: content/site.yaml read into a SiteConfig (the defaults when it is missing or has problems),
the parts checked against the lesson folders, and the language peeked at before anything else is read. Each case
writes one small site.yaml into tmp_path; line numbers are counted in the text written."""
import textwrap

from lessonkit.load.siteconfig import (DEFAULT_GZIP_KB, DEFAULT_PAGE_KB, Part, SiteConfig, check_parts,
                                       load_site_config, peek_language)


def config_of(tmp_path, text: str):
    (tmp_path / "site.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    problems = []
    return load_site_config(tmp_path, problems), [(p.line, str(p.message)) for p in problems]


def test_without_site_yaml_every_setting_is_the_default(tmp_path):
    problems = []
    config = load_site_config(tmp_path, problems)
    assert problems == [] and config == SiteConfig()
    assert (config.title, config.theme, config.language, config.answers, config.timezone) == \
        ("", "default", "zh-CN", "shown", "Asia/Shanghai")
    assert (config.budget.page_kb, config.budget.gzip_kb) == (DEFAULT_PAGE_KB, DEFAULT_GZIP_KB)
    assert config.course_order() is None


def test_an_empty_site_yaml_is_the_defaults_too(tmp_path):
    assert config_of(tmp_path, "# nothing set yet\n") == (SiteConfig(), [])


def test_every_setting_read(tmp_path):
    config, problems = config_of(tmp_path, """\
        title: 深度学习十讲
        description: 每一个数都算出
        budget: {page_kb: 300, gzip_kb: 70}
        theme: mine
        language: en_US.UTF-8
        answers: 2027-07-01
        timezone: Europe/Berlin
        """)
    assert problems == []
    assert (config.title, config.description, config.theme) == ("深度学习十讲", "每一个数都算出", "mine")
    assert (config.budget.page_kb, config.budget.gzip_kb) == (300, 70)
    assert (config.language, config.language_line) == ("en", 5)   # normalised, and where it was set
    assert (config.answers, config.timezone) == ("2027-07-01", "Europe/Berlin")


def test_parts_keep_the_line_of_each_part_and_each_slug(tmp_path):
    config, problems = config_of(tmp_path, """\
        parts:
          - title: 第一部分 基础
            lessons:
              - softmax
              - attention
          - title: 第二部分
            lessons: [transformer]
        """)
    assert problems == []
    assert config.parts == (Part("第一部分 基础", ("softmax", "attention"), 2, (4, 5)),
                            Part("第二部分", ("transformer",), 6, (7,)))
    assert config.parts_line == 1
    assert config.course_order() == ["softmax", "attention", "transformer"]


def test_a_problem_leaves_every_setting_at_its_default(tmp_path):
    config, problems = config_of(tmp_path, """\
        title: 课
        answers: sometimes
        timezone: Mars/Olympus
        """)
    assert config == SiteConfig()   # not half read: the title too is the default's
    assert problems == [(2, "`answers: sometimes` is not a way to show answers"),
                        (3, "unknown time zone `Mars/Olympus`")]


def test_a_schema_problem_and_a_bad_budget(tmp_path):
    assert config_of(tmp_path, "titel: 课\n")[1] == [(1, "unknown key `titel`; did you mean `title`?")]
    assert config_of(tmp_path, "budget: {page_kb: -1}\n")[1] == [(1, "budget `page_kb` is -1")]


def test_check_parts_every_lesson_in_exactly_one_part(tmp_path):
    config = SiteConfig(parts=(Part("一", ("a", "b"), 2, (3, 4)), Part("二", ("a", "cc"), 5, (6, 7))), parts_line=1)
    problems = check_parts(config, ["a", "b", "c", "d"], tmp_path)
    assert [(p.path.name, p.line, str(p.message)) for p in problems] == [
        ("site.yaml", 6, "lesson `a` is in two parts (first at line 3)"),
        ("site.yaml", 7, "unknown lesson `cc` in part 2; did you mean `c`?"),
        ("site.yaml", 1, "lessons in no part: c, d")]


def test_check_parts_a_lesson_listed_twice_in_one_part(tmp_path):
    config = SiteConfig(parts=(Part("一", ("a", "b", "a"), 2, (3, 4, 5)),), parts_line=1)
    problems = check_parts(config, ["a", "b"], tmp_path)
    assert [(p.line, str(p.message)) for p in problems] == [(5, "lesson `a` is listed twice in part 1 (first at line 3)")]


def test_check_parts_without_parts_has_nothing_to_say(tmp_path):
    assert check_parts(SiteConfig(), ["a"], tmp_path) == []


def test_peek_language_reads_only_the_language(tmp_path):
    assert peek_language(None) is None
    assert peek_language(tmp_path) is None                             # no site.yaml
    (tmp_path / "site.yaml").write_text("language: zh_CN\n", encoding="utf-8")
    assert peek_language(tmp_path) == "zh-CN"
    (tmp_path / "site.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    assert peek_language(tmp_path) is None                             # its problem is the build's to report
    (tmp_path / "site.yaml").write_text("- a list\n", encoding="utf-8")
    assert peek_language(tmp_path) is None
