"""CLI conventions: --version, --help for every command, exit codes documented where authors look."""
import importlib.metadata

import pytest

from lessonkit.cli import main
from lessonkit.commands import COMMANDS
from lesson_folders import PROJECT


def test_version_matches_the_package_metadata(capsys):
    assert main(["--version"]) == 0
    declared = importlib.metadata.version("lessonkit")  # what pip recorded when it installed the package
    assert capsys.readouterr().out.strip() == f"lessonkit {declared}"


@pytest.mark.parametrize("command, options", [
    ("build", ["--out", "--theme", "--themes-dir", "--content", "--lesson", "--quiet", "--verbose"]),
    ("serve", ["--port", "--host", "--theme", "--themes-dir", "--content", "--lesson"]),
    ("new", ["SLUG", "--content"]),
])
def test_each_command_explains_itself(capsys, command, options):
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    for option in options:
        assert option in text
    assert "Exit codes: 0 success, 1 problems in the content" in text


def test_top_level_help_lists_the_commands(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for command in ("build", "serve", "new"):
        assert command in text


@pytest.mark.parametrize("doc", ["README.md", "docs/authoring.md"])
def test_exit_codes_are_documented(doc):
    text = (PROJECT / doc).read_text(encoding="utf-8")
    for code in ("0", "1", "2", "3"):
        assert f"`{code}`" in text, f"{doc} should list exit code {code}"


CJK = __import__("re").compile(r"[\u3400-\u9fff]")


@pytest.mark.parametrize("lang", ["zh-CN", "en"])
def test_every_help_text_reads_in_the_messages_language(lang):
    """`lessonkit --help` and every verb's `--help`: each description and option help in the language asked for
    (Chinese from the catalog, never English left behind; English without Chinese)."""
    from lessonkit.cli import parser
    from lessonkit.support.i18n import Speaker

    top = parser("lessonkit", Speaker(lang))
    commands = top._subparsers._group_actions[0].choices
    texts = [top.description, top.epilog]
    for command in commands.values():
        texts += [command.description, command.epilog]
        texts += [action.help for action in command._actions if action.help]
    texts += [action.help for action in top._actions if action.help]
    assert set(commands) == set(COMMANDS) and len(texts) > 60
    for text in texts:
        assert bool(CJK.search(text)) == (lang == "zh-CN"), text


def test_the_help_wraps_chinese_by_terminal_columns(capsys, monkeypatch):
    """A Chinese character takes two columns: no help line is wider than the terminal."""
    from lessonkit.support.terminal import width

    monkeypatch.setenv("COLUMNS", "60")
    for command in ("init", "publish", "build"):
        assert main([command, "--help", "--lang", "zh-CN"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert any(CJK.search(line) for line in lines)
        assert max(width(line) for line in lines if CJK.search(line)) <= 60
