"""A lesson's `requires:` in lesson.yaml: the packages its code imports, as pip names them (`scipy`,
`scikit-learn>=1.3`). The build checks every lesson's before any lesson code runs and names each one this Python
lacks, all at once, with the one `pip install …` line that brings them (a lesson missing one is not run: its code
would only fail on the import); `import` writes the list from a notebook's imports; the take-home notebook's
header names them.

    check(meta, lines, path)        the problems of the key itself: each item a requirement pip understands
    unmet(sources)                  (problems, slugs): what this Python lacks, each at its line in lesson.yaml
    imported_packages(code)         the packages a notebook's code imports, as pip names them
    distribution_of(module)         `sklearn` → `scikit-learn`: the name pip installs an imported module by
    pip_install(requirements)       the one `pip install …` line that brings them
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from ..support.errors import Problem
from ..support.messages import msg
from ..support.pysource import imported_modules

# modules imported by another name than the package pip installs them from (the commonest in teaching notebooks);
# a module not listed here is looked up in the installed packages' metadata (distribution_of)
IMPORTED_AS = {
    "sklearn": "scikit-learn", "skimage": "scikit-image", "cv2": "opencv-python", "PIL": "Pillow",
    "yaml": "PyYAML", "bs4": "beautifulsoup4", "mpl_toolkits": "matplotlib", "dateutil": "python-dateutil",
    "Bio": "biopython", "attr": "attrs", "serial": "pyserial", "Crypto": "pycryptodome", "OpenGL": "PyOpenGL",
    "jwt": "PyJWT", "dotenv": "python-dotenv", "docx": "python-docx", "pptx": "python-pptx", "tensorflow_hub":
    "tensorflow-hub", "google.colab": "google-colab", "IPython": "ipython",
}


def check(meta: dict[str, Any], lines: dict[str, int], path: Path) -> list[Problem]:
    """Each item of `requires:` a requirement pip understands (its type is the schema's: load/schema.py)."""
    from packaging.requirements import InvalidRequirement, Requirement

    items = meta.get("requires")
    problems = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        where = lines.get(f"requires.{i}", lines.get("requires"))
        try:
            Requirement(str(item))
        except InvalidRequirement as exc:
            problems.append(Problem(path, where, msg("`requires:` item `{item}` is not a package pip can install: "
                                                     "{reason}", item=item, reason=str(exc)),
                                    msg("a package as pip names it, with a version if needed, e.g. `scipy` or "
                                        "`scikit-learn>=1.3`")))
    return problems


def unmet(sources) -> tuple[list[Problem], set[str]]:
    """Every requirement of `sources` (lessons) this Python does not satisfy, each at its line in its lesson.yaml,
    all with the one `pip install` line that brings every one; and the slugs of the lessons missing one."""
    wanted = [(source, i, item) for source in sources
              for i, item in enumerate(requirements(source.meta))]
    if not wanted:
        return [], set()
    from importlib.metadata import PackageNotFoundError, version
    from packaging.requirements import InvalidRequirement, Requirement

    missing: list[tuple[Any, int, str, str | None]] = []   # (source, item index, requirement, version installed)
    for source, i, item in wanted:
        try:
            requirement = Requirement(item)
        except InvalidRequirement:   # (check says so, at its line)
            continue
        try:
            installed = version(requirement.name)
        except PackageNotFoundError:
            missing.append((source, i, item, None))
            continue
        if requirement.specifier and not requirement.specifier.contains(installed, prereleases=True):
            missing.append((source, i, item, installed))
    install = pip_install([m[2] for m in missing])
    problems = [Problem(source.meta_path, source.meta_lines.get(f"requires.{i}", source.meta_lines.get("requires")),
                        msg("the lesson requires `{item}`, which this Python does not have", item=item)
                        if installed is None else
                        msg("the lesson requires `{item}`; this Python has version {version}", item=item,
                            version=installed),
                        msg("every package the lessons require, installed before the build runs their code: "
                            "`{install}` (for the Python that runs lessonkit: {python})", install=install,
                            python=sys.executable))
                for source, i, item, installed in missing]
    return problems, {m[0].slug for m in missing}


def pip_install(requirements: list[str]) -> str:
    """The one command that installs them all (a specifier quoted for the shell: `'numpy>=2'`)."""
    import shlex

    return "pip install " + " ".join(shlex.quote(item) for item in dict.fromkeys(requirements))


def beyond(meta: dict[str, Any], packages: tuple[str, ...]) -> list[str]:
    """lesson.yaml's requirements but those of `packages` (by their names, however written: `NumPy>=1.24`)."""
    known = {_canonical(name) for name in packages}
    return [item for item in requirements(meta) if _canonical(NAME.match(item).group(0)) not in known]


NAME = re.compile(r"\s*[A-Za-z0-9._-]*")   # a requirement's name, before its version or extras (PEP 508)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def requirements(meta: dict[str, Any]) -> list[str]:
    """lesson.yaml's `requires:`, as written (what is not a text left out: check says so)."""
    items = meta.get("requires")
    return [str(i) for i in items if isinstance(i, (str, int, float))] if isinstance(items, list) else []


def imported_packages(code: str) -> list[str]:
    """The packages `code` imports at its top level or anywhere else (`import numpy as np`, `from scipy import
    linalg`), as pip names them, in the order first imported; the standard library and lessonkit left out. Code
    that does not parse gives none."""
    return list(dict.fromkeys(distribution_of(name) for name in imported_modules(code)))


def distribution_of(module: str) -> str:
    """The package pip installs the module `module` (a dotted name) from: IMPORTED_AS's name for it, else the
    installed package that provides it, else the module's own top-level name."""
    top = module.split(".")[0]
    if module in IMPORTED_AS or top in IMPORTED_AS:
        return IMPORTED_AS.get(module) or IMPORTED_AS[top]
    from importlib.metadata import packages_distributions

    provided = packages_distributions().get(top)
    return provided[0] if provided else top
