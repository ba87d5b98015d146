"""Publishing: the GitHub Pages workflow is valid and builds what it uploads; pages work under a sub-path."""
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from lessonkit.cli import main
from lesson_folders import PROJECT

WORKFLOW = PROJECT / ".github" / "workflows" / "pages.yml"   # this repository's own course


@pytest.fixture(scope="module")
def course_workflow(tmp_path_factory) -> Path:
    """The workflow `lessonkit init` writes into a new course."""
    course = tmp_path_factory.mktemp("init") / "course"
    assert main(["init", str(course), "--quiet"]) == 0
    return course / ".github" / "workflows" / "pages.yml"


def workflows(course_workflow: Path) -> dict[str, Path]:
    return {"repository": WORKFLOW, "init": course_workflow}


def check_workflow(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(path)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("which", ["repository", "init"])
def test_pages_workflow_matches_the_github_schema(tmp_path, course_workflow, which):
    path = workflows(course_workflow)[which]
    result = check_workflow(path)
    assert result.returncode == 0, result.stdout + result.stderr
    broken = tmp_path / "broken.yml"  # the validator itself must be able to say no
    broken.write_text(path.read_text(encoding="utf-8").replace("runs-on:", "runs_on:"), encoding="utf-8")
    assert check_workflow(broken).returncode != 0


@pytest.mark.parametrize("which, install, build", [("repository", "pip install .", "python build.py"),
                                                    ("init", 'pip install "lessonkit$requirement"', "lessonkit build")])
def test_pages_workflow_builds_with_fonts_and_the_cache_and_deploys_what_it_built(course_workflow, which, install,
                                                                                   build):
    workflow = yaml.safe_load(workflows(course_workflow)[which].read_text(encoding="utf-8"))
    assert workflow["permissions"]["pages"] == "write" and workflow["permissions"]["id-token"] == "write"
    steps = workflow["jobs"]["build"]["steps"]
    uses = [s.get("uses", "").split("@")[0] for s in steps]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "fonts-noto-cjk" in runs and install in runs
    assert {"actions/checkout", "actions/setup-python", "actions/configure-pages",
            "actions/upload-pages-artifact"} <= set(uses)
    build_step = next(s for s in steps if build in s.get("run", ""))
    assert "--strict" in build_step["run"]  # a warning (two lessons with one `order` …) fails the publish
    out = build_step["run"].split("--out")[1].split()[0] if "--out" in build_step["run"] else "output"
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == out
    assert runs.index("fonts-noto-cjk") < runs.index(build) and runs.index(install) < runs.index(build)
    if which == "init":  # releases by date appear without a push: it also runs every day
        assert workflow[True if True in workflow else "on"]["schedule"][0]["cron"].split()[2:] == ["*", "*", "*"]
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["path"] == ".cache/lessonkit" and steps.index(cache) < steps.index(build_step)
    assert "restore-keys" in cache["with"]  # a push restores the last run's cache, then saves its own
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.urls += [value for name, value in attrs if name in ("href", "src") and value is not None]


@pytest.fixture(scope="module")
def site(tmp_path_factory, shared_cache):
    """The real lessons plus a fresh `new` lesson, built as GitHub Pages would build them."""
    from shutil import copytree

    root = tmp_path_factory.mktemp("pages")
    copytree(PROJECT / "content", root / "content")
    assert main(["new", "sample", "--content", str(root / "content")]) == 0
    assert main(["build", "--quiet", "--content", str(root / "content"), "--out", str(root / "out"),
                 "--cache-dir", str(shared_cache)]) == 0
    return root / "out"


def test_every_link_is_relative_and_resolves(site):
    """Served from https://owner.github.io/<repo>/, a link starting with "/" would leave the site."""
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 3
    checked = 0
    for page in pages:
        links = Links()
        links.feed(page.read_text(encoding="utf-8"))
        for url in links.urls:
            assert not url.startswith("/"), f"{page.relative_to(site)}: {url} is not relative"
            parts = urlsplit(url)
            if parts.scheme or url.startswith("#"):
                continue
            assert (page.parent / parts.path).resolve().is_file(), f"{page.relative_to(site)}: {url} is broken"
            checked += 1
    assert checked >= 4  # the index links each lesson, each lesson links back
