"""`lessonkit import` brings what a notebook reads or shows from its folder (load/ipynb.py): the data files its code
opens and its images, copied from the notebook's repository only — a path reaching outside it, an absolute path and
a symbolic link out are reported and never copied — and the imported lesson reads them on its first build."""
from __future__ import annotations

import base64

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from lessonkit.cli import main
from pagetext import visible_text

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=")
DATA1 = "6.1101,17.592\n5.5277,9.1302\n8.5186,13.662\n"          # ex1data1.txt's first rows (x, y)
DATA2 = "2104,3,399900\n1600,3,329900\n"                          # ex1data2.txt's first rows


def notebook(path, cells):
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "language": "python",
                                                             "display_name": "Python 3"}})
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


@pytest.fixture
def repository(tmp_path):
    """A course repository as teachers keep one: the notebook in lessons/ch1/, a data file and a picture shared by
    chapters at the top, and a private file next to the repository."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    chapter = repo / "lessons" / "ch1"
    (chapter / "img").mkdir(parents=True)
    (repo / "data").mkdir()
    (repo / "img").mkdir()
    (chapter / "ex1data1.txt").write_text(DATA1, encoding="utf-8")
    (repo / "data" / "ex1data2.txt").write_text(DATA2, encoding="utf-8")
    (chapter / "img" / "cost.png").write_bytes(PNG)
    (repo / "img" / "shared.png").write_bytes(PNG)
    (chapter / "ex1.pdf").write_bytes(b"%PDF-1.4 exercise sheet")
    (tmp_path / "secret.txt").write_text("the teacher's password", encoding="utf-8")
    (chapter / "link.txt").symlink_to(tmp_path / "secret.txt")
    path = notebook(chapter / "线性回归.ipynb", [
        new_markdown_cell("# 线性回归练习\n\n见[练习讲义](ex1.pdf)和[下一节](ch2.ipynb)，"
                          "数据来自[课程网站](https://example.org/ml)。\n\n![代价函数](img/cost.png)\n\n"
                          '<img src="../../img/shared.png" alt="共享的图" width="300">'),
        new_markdown_cell("## 读数据"),
        new_code_cell('import numpy as np\n'
                      'data = np.loadtxt("ex1data1.txt", delimiter=",")\n'
                      "houses = np.loadtxt('../../data/ex1data2.txt', delimiter=',')\n"
                      'print(f"{len(data)} 个城市，{len(houses)} 套房子")',
                      outputs=[new_output("stream", name="stdout", text="3 个城市，2 套房子\n")]),
        new_code_cell('private = open("../../../secret.txt").read()\n'
                      'linked = open("link.txt").read()\n'
                      'hosts = open("/etc/hosts").read()\n'
                      'later = "ex2data1.txt"'),
    ])
    return path


def lesson_files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_the_files_a_notebook_reads_and_shows_come_along_and_nothing_from_outside_it(repository, tmp_path, capsys):
    content = tmp_path / "course" / "content"
    assert main(["import", str(repository), "regression", "--content", str(content)]) == 0
    folder = content / "regression"
    assert lesson_files(folder) == ["data/ex1data2.txt", "ex1data1.txt", "img/cost.png", "img/shared.png",
                                    "lesson.md", "lesson.py", "lesson.yaml"]
    assert (folder / "ex1data1.txt").read_text(encoding="utf-8") == DATA1
    assert (folder / "data" / "ex1data2.txt").read_text(encoding="utf-8") == DATA2
    py = (folder / "lesson.py").read_text(encoding="utf-8")
    assert 'np.loadtxt("ex1data1.txt", delimiter=",")' in py                   # where it was: unchanged
    assert "np.loadtxt(\"data/ex1data2.txt\", delimiter=',')" in py            # from above the notebook: moved
    assert 'open("../../../secret.txt")' in py and 'open("link.txt")' in py   # never copied, left as written
    md = (folder / "lesson.md").read_text(encoding="utf-8")
    assert "![代价函数](img/cost.png)" in md and "![共享的图](img/shared.png)" in md and "<img" not in md
    assert "见练习讲义和下一节，数据来自[课程网站](https://example.org/ml)。" in md   # dead links: their text
    report = capsys.readouterr().out
    assert "  - ex1data1.txt (42 B)\n" in report and "  - data/ex1data2.txt (28 B)\n" in report   # 3 · 14, 2 · 14
    for said in ("`../../../secret.txt` is outside the notebook's repository", "`link.txt` is outside the "
                 "notebook's repository", "`/etc/hosts` is an absolute path", "`ex2data1.txt` was not found",
                 "a link to the file ex1.pdf", "a link to the notebook ch2.ipynb"):
        assert said in report, said
    assert "password" not in "".join(p.read_text(encoding="utf-8", errors="replace")
                                     for p in folder.rglob("*") if p.is_file())


def test_outside_a_repository_only_the_notebook_s_own_folder_is_copied_from(repository, tmp_path, capsys):
    (repository.parents[2] / ".git").rmdir()                       # the same files, no git work tree around them
    content = tmp_path / "course" / "content"
    assert main(["import", str(repository), "regression", "--content", str(content)]) == 0
    assert lesson_files(content / "regression") == ["ex1data1.txt", "img/cost.png", "lesson.md", "lesson.py",
                                                    "lesson.yaml"]
    report = capsys.readouterr().out
    assert "`../../data/ex1data2.txt` is outside the notebook's repository" in report


def test_the_imported_lesson_reads_its_data_on_the_first_build(repository, tmp_path, capsys):
    content = tmp_path / "course" / "content"
    assert main(["import", str(repository), "regression", "--content", str(content), "--quiet"]) == 0
    py = content / "regression" / "lesson.py"
    code = py.read_text(encoding="utf-8")
    py.write_text(code[:code.index("# %% cell2")], encoding="utf-8")    # the cell reading private files: gone
    md = content / "regression" / "lesson.md"
    md.write_text(md.read_text(encoding="utf-8").replace("{{< code cell2 >}}", ""), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--content", str(content), "--out", str(out), "--cache-dir", str(tmp_path / "cache")]) == 0, \
        capsys.readouterr().err
    assert "3 个城市，2 套房子" in visible_text((out / "regression" / "index.html").read_text(encoding="utf-8"))
