"""lesson.yaml's `requires:` (load/requires.py): every package the lessons need is checked before any lesson code
runs, and all that this Python lacks is named at once, each at its line, with the one `pip install` line that brings
them; an import that fails anyway says which package to install; `import` writes the list from a notebook's imports;
the take-home notebook names what it needs beyond numpy and matplotlib."""
from __future__ import annotations

import json
import textwrap

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from lessonkit.cli import main
from lessonkit.load.requires import distribution_of, imported_packages

MISSING = "lessonkit-test-no-such-package"   # installed nowhere

SCIPY_PY = """\
import numpy as np
from lessonkit import Lesson
{imports}
lesson = Lesson()


@lesson.value
def n():
    open({marker!r}, "w").write("ran")
    return 3
"""
MD = "## 一 {#one}\n\n有 {{ n }} 个。\n"


def yaml_with(requires: str) -> str:
    return "title: 课\nsummary: 一课\nobjectives:\n  - 读\n" + textwrap.dedent(requires)


def test_every_missing_package_is_named_at_once_at_its_line_with_one_pip_line(make_lesson, run_build, tmp_path):
    marker = tmp_path / "ran.txt"
    make_lesson("first", yaml=yaml_with(f"requires:\n  - numpy\n  - {MISSING}\n  - numpy>=999\n"), md=MD,
                py=SCIPY_PY.format(imports=f"import {MISSING.replace('-', '_')}", marker=str(marker)))
    make_lesson("second", yaml=yaml_with("requires: [matplotlib, lessonkit-test-other-missing]\n"), md=MD,
                py=SCIPY_PY.format(imports="", marker=str(marker)))
    code, out_text, err, out = run_build()
    said = out_text + err
    assert code == 1 and not out.exists()
    assert f"first/lesson.yaml:7: the lesson requires `{MISSING}`, which this Python does not have" in said, said
    assert "first/lesson.yaml:8: the lesson requires `numpy>=999`; this Python has version " in said
    assert "second/lesson.yaml:5: the lesson requires `lessonkit-test-other-missing`" in said
    pip = f"`pip install {MISSING} 'numpy>=999' lessonkit-test-other-missing`"
    assert said.count(pip) == 3, said                      # the same one line under each
    assert "ModuleNotFoundError" not in said and not marker.exists()   # neither lesson's code ran


def test_a_requirement_pip_cannot_read_is_reported_at_its_line(make_lesson, run_build):
    make_lesson(yaml=yaml_with("requires:\n  - numpy\n  - scipy>>1\n"))
    code, out_text, err, _ = run_build()
    assert code == 1
    assert "demo/lesson.yaml:7: `requires:` item `scipy>>1` is not a package pip can install" in out_text + err


def test_met_requirements_build(make_lesson, run_build):
    make_lesson(yaml=yaml_with("requires: [numpy>=1.0, matplotlib, PyYAML]\n"))
    code, _, err, _ = run_build()
    assert code == 0, err


def test_an_import_that_fails_names_the_package_to_install(make_lesson, run_build):
    make_lesson(py="import sklearn.linear_model\nfrom lessonkit import Lesson\nlesson = Lesson()\n")
    code, out_text, err, _ = run_build()
    said = out_text + err
    assert code == 1 and "demo/lesson.py:1:" in said
    assert "`pip install scikit-learn`" in said and "`requires:`" in said


@pytest.mark.parametrize("module, package", [("sklearn.linear_model", "scikit-learn"), ("PIL.Image", "Pillow"),
                                             ("yaml", "PyYAML"), ("mpl_toolkits.mplot3d", "matplotlib"),
                                             ("numpy.linalg", "numpy"), ("cv2", "opencv-python")])
def test_an_imported_module_s_package(module, package):
    assert distribution_of(module) == package


def test_a_notebook_s_imports_as_packages():
    code = ("import os, sys\nimport numpy as np\nfrom scipy import linalg\nfrom sklearn.linear_model import "
            "LinearRegression\nimport matplotlib.pyplot as plt\nfrom lessonkit import Lesson\n"
            "def f():\n    import pandas as pd\n    from . import sibling\n")
    assert imported_packages(code) == ["numpy", "scipy", "scikit-learn", "matplotlib", "pandas"]
    assert imported_packages("this is not python (") == []


def test_import_writes_requires_and_the_take_home_notebook_names_them(tmp_path, capsys):
    nb = new_notebook(cells=[new_markdown_cell("# 回归\n\n## 一"),
                             new_code_cell("import numpy as np\nfrom sklearn.linear_model import LinearRegression\n"
                                           "import pandas as pd\nx = 1")],
                      metadata={"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}})
    nbformat.write(nb, str(tmp_path / "reg.ipynb"))
    content = tmp_path / "content"
    assert main(["import", str(tmp_path / "reg.ipynb"), "reg", "--content", str(content), "--quiet"]) == 0
    yaml = (content / "reg" / "lesson.yaml").read_text(encoding="utf-8")
    assert yaml.endswith('requires:\n  - "numpy"\n  - "scikit-learn"\n  - "pandas"\n')
    # what this Python has (the notebook itself is run by the tests in a Python with numpy and matplotlib alone)
    (content / "reg" / "lesson.yaml").write_text(yaml.replace('  - "scikit-learn"\n  - "pandas"\n',
                                                              '  - "PyYAML>=5"\n'), encoding="utf-8")
    (content / "reg" / "lesson.py").write_text("# %% cell1\nimport numpy as np\nx = 1\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--content", str(content), "--out", str(out), "--cache-dir", str(tmp_path / "c")]) == 0, \
        capsys.readouterr().err
    cells = json.loads((out / "reg" / "reg.ipynb").read_text(encoding="utf-8"))["cells"]
    header = "".join("".join(c["source"]) for c in cells[:4] if c["cell_type"] == "markdown")
    assert "`pip install 'PyYAML>=5'`" in header and "numpy" not in header.split("pip install")[1]
