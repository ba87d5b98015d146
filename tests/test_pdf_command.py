"""`build.py pdf` without a browser: a usage error that says how to install one, and nothing written."""
from lessonkit.cli import main


def test_pdf_without_chromium_says_how_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LESSONKIT_CHROMIUM", str(tmp_path / "no-such-chromium"))
    out = tmp_path / "out"
    assert main(["pdf", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "cannot print PDFs" in err and "apt-get install" in err and "chromium" in err
    assert not out.exists()


def test_pdf_help_documents_both_editions(capsys):
    assert main(["pdf", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--teacher" in text and "output-teacher/" in text
    assert "--answers" in text and "the old name of --teacher" in text
