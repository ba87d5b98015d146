"""`import NOTEBOOK.ipynb [SLUG]`: a Jupyter notebook as a new lesson in the project's content/SLUG/ (load/ipynb.py):
lesson.md from its Markdown cells, a percent-format lesson.py from its code cells (each shown where the notebook
showed it, a figure cell for each cell that drew), lesson.yaml with the title. The report says what could not come
along and what to do next."""
from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

from ..load.siteconfig import DEFAULT_LANGUAGE, peek_language
from ..support.errors import ContentError, UsageError
from ..support.messages import msg
from ..support.project import refuse_inside_package
from .new import check_slug

HELP = msg("turn a Jupyter notebook into a new lesson")
DESCRIPTION = msg("Turn a Jupyter notebook (.ipynb, Python) into a new lesson in the project's content/SLUG/: its "
                  "Markdown cells become lesson.md (headings, maths and images kept), its code cells a lesson.py in "
                  "the percent format (`# %%` cells that editors run one by one), each shown where the notebook "
                  "showed it, and lesson.yaml with the title. Magics are removed; what cannot come along and what to "
                  "do next is listed. Needs `pip install \"lessonkit[notebook]\"` (nbformat).")


def add_arguments(p: argparse.ArgumentParser, say) -> None:
    p.add_argument("notebook", metavar="NOTEBOOK", type=Path, help=say("the notebook to import (.ipynb)"))
    p.add_argument("slug", metavar="SLUG", nargs="?",
                   help=say("the lesson's folder name under content/ (default: from the notebook's file name)"))
    p.add_argument("--content", type=Path, default=None, metavar="DIR",
                   help=say("content folder (default: the project's content/)"))


def run(args: argparse.Namespace) -> int:
    from ..load.ipynb import import_notebook

    slug = check_slug(args.slug or slug_of(args.notebook))
    folder = args.content / slug
    refuse_inside_package(folder, msg("a lesson"))
    if folder.exists():
        raise UsageError(msg("{folder} already exists: choose another name, or delete that folder first",
                             folder=folder))
    if not args.notebook.is_file():
        raise UsageError(msg("no notebook {path}", path=args.notebook))
    problems: list = []
    imported = import_notebook(args.notebook.resolve(), slug, problems, args.say.text)
    if imported is None:
        raise ContentError(problems)
    write_lesson(folder, imported.files)
    language = peek_language(args.content) or DEFAULT_LANGUAGE
    if imported.chinese != language.startswith("zh"):   # the pages' own words in another language than its text
        written, wanted = (msg("Chinese"), "zh-CN") if imported.chinese else (msg("English"), "en")
        imported.next_steps.insert(0, msg(
            "the notebook is written in {written}, the site's pages in {language}: for buttons, labels and dates in "
            "its language write `language: {wanted}` in content/site.yaml", written=written, language=language,
            wanted=wanted))
    if not args.quiet:
        report(args, folder, imported)
    return 0


def slug_of(notebook: Path) -> str:
    """`02 梯度下降 (GD).ipynb` → `02-gd`; a name with no ASCII letters or digits asks for a SLUG."""
    slug = "-".join(re.findall(r"[a-z0-9]+", notebook.stem.lower()))
    if not slug:
        raise UsageError(msg("`{name}` gives no lesson name in ASCII: name it, e.g. `lessonkit import {name} "
                             "gradient-descent`", name=notebook.name))
    return slug


def write_lesson(folder: Path, files: dict[str, str | bytes]) -> None:
    """Every file into a staging folder beside `folder`, then renamed: never half a lesson."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.parent / f".{folder.name}-import"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for name, data in files.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, bytes):
                target.write_bytes(data)
            else:
                target.write_text(data, encoding="utf-8")
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def report(args: argparse.Namespace, folder: Path, imported) -> None:
    say, counts = args.say, imported.counts
    print(say("imported {notebook} into {folder}/: {markdown} Markdown cell(s), {code} code cell(s), {figures} "
              "figure(s)", notebook=args.notebook.name, folder=folder, markdown=counts["markdown"],
              code=counts["code"], figures=counts["figures"]))
    if imported.brought:
        print(say("copied from the notebook's folder (lesson code reads them where the notebook did):"))
        for path, size in imported.brought.items():
            print(f"  - {say('{path} ({size})', path=path, size=_size(size))}")
    if imported.notes:
        print(say("not carried over:"))
        for note in imported.notes:
            print(f"  - {say.text(note)}")
    print(say("next:"))
    for step in imported.next_steps:
        print(f"  - {say.text(step)}")


def _size(count: int) -> str:
    return f"{count} B" if count < 1024 else f"{count / 1024:.1f} KB" if count < 1024 * 1024 else \
        f"{count / 1024 / 1024:.1f} MB"
