"""CLI conventions: --version, --help for every command, exit codes documented where authors look."""
import importlib.metadata

import pytest

from lessonkit.cli import main
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
