"""The live preview: it rebuilds on save, tells the open page to reload, shows problems as a page, and never puts its
reload hook into built files."""
from __future__ import annotations

import base64
import hashlib
import http.client
import os
import queue
import re

import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from lessonkit.cli import main
from lessonkit.commands.preview import Preview
from lesson_folders import PROJECT
from lessonkit.site import Options

EVENT_WAIT = 10  # seconds; the keep-alive comes every 15 s, so an event before this came from the rebuild itself
STARTUP_WAIT = 120  # seconds for a `serve` process to print its first lines (it builds the site first)


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8")


def served_build(url: str) -> str:
    """The build a page came from, as its reload script reads it: the response's Server-Timing entry `lk-build`."""
    try:
        response = urllib.request.urlopen(url, timeout=10)
    except urllib.error.HTTPError as err:  # the preview's error page tells its build too
        response = err
    with response:
        return re.fullmatch(r'lk-build;desc="([\w-]+)"', response.headers["Server-Timing"]).group(1)


class Events:
    """An open /__reload stream, as the page's EventSource holds it."""

    def __init__(self, url: str, build: str):
        self.response = urllib.request.urlopen(f"{url}__reload?build={build}", timeout=EVENT_WAIT)
        assert self.response.headers["Content-Type"] == "text/event-stream"
        assert self.response.readline() == b"retry: 500\n"

    def next_data(self) -> str:
        """The next event's data; each read is bounded by the socket timeout, the whole wait by EVENT_WAIT."""
        deadline = time.monotonic() + EVENT_WAIT
        while time.monotonic() < deadline:
            line = self.response.readline().decode()
            if line.startswith("data:"):
                return line[5:].strip()
            assert line, "stream closed without an event"
        pytest.fail(f"no reload event within {EVENT_WAIT} s", pytrace=False)

    def close(self) -> None:
        self.response.close()


def save(path: Path, text: str) -> None:
    """Save as careful editors do (write a hidden file, then rename), so no poll sees half a file."""
    hidden = path.with_name(f".{path.name}.tmp")
    hidden.write_text(text, encoding="utf-8")
    os.replace(hidden, path)


class Lines:
    """A child process's output read by a thread: waiting for the next line never blocks longer than asked, and the
    pipes never fill up (a child blocked on a full stderr pipe would hang both sides)."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []
        self.threads = [threading.Thread(target=self._pump, args=(proc.stdout, self.lines.put), daemon=True),
                        threading.Thread(target=self._pump, args=(proc.stderr, self.errors.append), daemon=True)]
        for thread in self.threads:
            thread.start()

    @staticmethod
    def _pump(stream, put) -> None:
        for line in stream:
            put(line)
        put(None)

    def next(self, what: str, timeout: float) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"`serve` printed no {what} within {timeout} s (is a CJK font installed? it draws figures "
                        f"first); its stderr so far:\n{self.stderr()}", pytrace=False)
        if line is None:
            self.proc.wait(10)
            pytest.fail(f"`serve` exited with code {self.proc.returncode} before printing {what}; "
                        f"its stderr:\n{self.stderr()}", pytrace=False)
        return line

    def stderr(self) -> str:
        return "".join(line for line in self.errors if line)

    def close(self) -> None:
        for thread in self.threads:
            thread.join(10)


def stop(proc: subprocess.Popen) -> int:
    """SIGTERM, then SIGKILL after 10 s: the test never waits on a process without a bound."""
    proc.terminate()
    try:
        return proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        pytest.fail("`serve` did not stop within 10 s of SIGTERM", pytrace=False)


@pytest.fixture
def start_preview(make_lesson, tmp_path):
    servers = []

    def start(themes: Path = PROJECT / "themes", theme: str = "default"):
        options = Options(content=tmp_path / "content", out=tmp_path / "unused", themes=themes, theme=theme,
                          cache=tmp_path / "cache")
        server = Preview(options, quiet=True).start("127.0.0.1", 0)
        servers.append(server)
        return server

    make_lesson()
    yield start
    for server in servers:
        server.stop()


def test_save_rebuilds_and_the_open_page_is_told_to_reload(start_preview, tmp_path):
    server = start_preview()
    status, page = fetch(server.url + "demo/")
    assert status == 200 and "二的十次方是 1024。" in page
    assert page.rstrip().endswith("</html>") and "new EventSource('/__reload" in page
    events = Events(server.url, served_build(server.url + "demo/"))
    started = time.monotonic()
    save(tmp_path / "content" / "demo" / "lesson.py",
         "from lessonkit import Lesson\nlesson = Lesson()\n\n@lesson.value\ndef two_pow():\n    return 2 ** 11\n")
    new_build = events.next_data()
    events.close()
    assert time.monotonic() - started < EVENT_WAIT
    status, page = fetch(server.url + "demo/")
    assert status == 200 and "二的十次方是 2048。" in page  # 2**11
    assert served_build(server.url + "demo/") == new_build


def test_a_page_from_an_older_build_is_told_to_reload_at_once(start_preview):
    server = start_preview()
    events = Events(server.url, "stale-build")
    assert events.next_data() == served_build(server.url)
    events.close()


def test_the_reload_script_is_the_same_in_every_build_and_a_page_without_its_build_waits(start_preview, tmp_path):
    """The page learns its build from the Server-Timing header, not from its text: its script (and so its policy)
    does not change from build to build. A page that could not read the header (no secure context) is told to
    reload at the next build, not at once."""
    server = start_preview()
    script = re.findall(r"<script>(.*?)</script>", fetch(server.url + "demo/")[1], flags=re.S)[-1]
    before = served_build(server.url + "demo/")
    events = Events(server.url, "")
    save(tmp_path / "content" / "demo" / "lesson.md", "## 第一节 {#first}\n\n改过了：{{ two_pow }}。\n")
    assert events.next_data() == served_build(server.url + "demo/") != before
    events.close()
    page = fetch(server.url + "demo/")[1]
    assert "改过了：1024" in page and re.findall(r"<script>(.*?)</script>", page, flags=re.S)[-1] == script


def test_bad_edit_shows_an_error_page_that_reloads_when_fixed(start_preview, tmp_path):
    server = start_preview()
    events = Events(server.url, served_build(server.url + "demo/"))
    lesson_md = tmp_path / "content" / "demo" / "lesson.md"
    good = lesson_md.read_text(encoding="utf-8")
    save(lesson_md, good.replace("two_pow", "two_pwo"))
    events.next_data()
    events.close()
    status, page = fetch(server.url + "demo/")
    assert status == 500
    assert "lesson.md:3: unknown value `two_pwo`; did you mean `two_pow`?" in page
    assert "/__reload?build=" in page  # the error page reloads itself too
    assert fetch(server.url)[0] == 500  # every page shows the problem, the index too

    events = Events(server.url, served_build(server.url + "demo/"))
    save(lesson_md, good)
    events.next_data()
    events.close()
    status, page = fetch(server.url + "demo/")
    assert status == 200 and "二的十次方是 1024。" in page


def test_an_unknown_path_or_an_escape_attempt_is_not_found(start_preview):
    server = start_preview()
    assert fetch(server.url + "nope/")[0] == 404
    host, port = server.httpd.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.request("GET", "/..%2f..%2f..%2fetc%2fpasswd")
    assert connection.getresponse().status == 404
    connection.close()


def test_a_lesson_folder_without_slash_is_redirected(start_preview):
    server = start_preview()
    host, port = server.httpd.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.request("GET", "/demo")
    response = connection.getresponse()
    assert response.status == 301 and response.getheader("Location") == "/demo/"
    connection.close()


def sha256_source(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def test_served_page_runs_the_reload_script_under_its_own_policy_and_build_never_adds_it(start_preview, run_build):
    server = start_preview()
    page = fetch(server.url + "demo/")[1]
    policy = re.search(r'Content-Security-Policy" content="([^"]*)"', page).group(1)
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    assert "new EventSource('/__reload?build=" in scripts[-1]    # the hook: the page's last script, its own
    assert not any("__reload" in s for s in scripts[:-1])
    assert directives["script-src"] == [sha256_source(s) for s in scripts]
    assert directives["connect-src"] == ["'self'"]
    for kept in ("default-src 'none'", "img-src data:", "base-uri 'none'", "form-action 'none'"):
        assert kept in policy

    code, _, err, out = run_build()
    assert code == 0, err
    built = (out / "demo" / "index.html").read_text(encoding="utf-8")
    assert "__reload" not in built and "connect-src" not in built


def test_init_new_serve_edit_build_as_a_new_author_would(tmp_path):
    """The guide's path: `init` a course, `new` a lesson, `serve` from the course's folder, edit and see the change,
    then `build` (commands run as processes, as `python -m lessonkit`, from the course's own folder). `serve --jobs
    2`: the edited lesson's figures are drawn again by a worker from the fork server while the server runs."""
    course = tmp_path / "course"
    content = course / "content"
    command = [sys.executable, "-m", "lessonkit"]
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}  # this checkout's lessonkit, whatever the folder
    subprocess.run([*command, "init", str(course)], check=True, capture_output=True, env=env, cwd=tmp_path,
                   timeout=120)
    subprocess.run([*command, "new", "my-first-lesson"], check=True, capture_output=True, env=env, cwd=content,
                   timeout=120)
    proc = subprocess.Popen([*command, "serve", "--port", "0", "--jobs", "2"], env=env, cwd=course,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    output = Lines(proc)
    try:
        output.next("first line (\"built in … s\")", STARTUP_WAIT)
        serving = output.next("\"serving URL\" line", STARTUP_WAIT)
        url = re.search(r"serving (http://127\.0\.0\.1:\d+/)", serving).group(1) + "my-first-lesson/"
        status, page = fetch(url)
        assert status == 200 and "每层把信号乘 0.9。" in page
        events = Events(url.rsplit("my-first-lesson/", 1)[0], served_build(url))
        lesson_py = content / "my-first-lesson" / "lesson.py"
        save(lesson_py, lesson_py.read_text(encoding="utf-8").replace("return 0.9", "return 0.8"))
        events.next_data()
        events.close()
        status, page = fetch(url)
        assert status == 200 and "每层把信号乘 0.8。" in page and "只剩 11 %" in page  # 0.8**10 = 0.107
    finally:
        code = stop(proc)
        output.close()
    assert code == 0, output.stderr()
    assert not (course / "output").exists()  # the preview never writes output/
    assert (course / ".cache" / "lessonkit").is_dir()  # it keeps the course's cache, as `build` does
    assert main(["build", "-C", str(course), "--quiet", "--strict"]) == 0
    assert "只剩 11 %" in (course / "output" / "my-first-lesson" / "index.html").read_text(encoding="utf-8")


def test_busy_port_is_a_usage_error(make_lesson, tmp_path, capsys, monkeypatch):
    make_lesson()  # (its first build, before the port is tried, fills the course's cache: tmp_path/.cache)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--port", str(port), "--content", str(tmp_path / "content")])
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_missing_content_folder_is_a_usage_error(tmp_path, capsys):
    assert main(["serve", "--port", "0", "--content", str(tmp_path / "nothing")]) == 2
    assert "does not exist" in capsys.readouterr().err


# A lock another thread holds when the build starts its drawing workers, as one of the preview's server threads may
# hold one (sys.stderr's, a logging handler's …) at any moment; the figures take it too. The thread holds it until a
# second process has come to draw (60 s at most); while WAIT exists (during the tests' builds, not in the notebook).
# Each figure waits for the other's process before it draws, so a worker that comes first cannot take both (on a
# loaded machine it would, while the build still renders): one figure each, whichever is quicker. Just before it
# takes the lock, each process drawing notes in STATES whether the lock is held and whether a thread that holds it
# is alive in that process (a thread that could ever let it go).
LOCKED_PY = """\
import os
import threading
import time

from lessonkit import Lesson

lesson = Lesson()
LOCK = threading.Lock()
HOLDERS = []
PIDS, STATES, WAIT = {pids!r}, {states!r}, {wait!r}


def two_have_come():
    return len(set(open(PIDS).read().split())) >= 2 or not os.path.exists(WAIT)


def until(done):
    deadline = time.monotonic() + 60
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


@lesson.value
def held():
    ready = threading.Event()

    def hold():
        with LOCK:
            ready.set()
            until(two_have_come)

    HOLDERS.append(threading.Thread(target=hold, daemon=True))
    HOLDERS[-1].start()
    ready.wait()
    return 1


def drawn(plt):
    with open(PIDS, "a") as f:
        f.write(f"{{os.getpid()}}\\n")
    until(two_have_come)
    with open(STATES, "a") as f:
        f.write(f"{{os.getpid()}} {{LOCK.locked()}} {{any(t.is_alive() for t in HOLDERS)}}\\n")
    with LOCK:
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.set_title(f"pid {{os.getpid()}}")
    return fig


@lesson.figure(caption="甲", alt="一条线")
def first(plt, held):
    return drawn(plt)


@lesson.figure(caption="乙", alt="一条线")
def second(plt, held):
    return drawn(plt)
"""
LOCKED_MD = "## 第一节 {#first}\n\n{{< figure first >}}\n\n{{< figure second >}}\n"
BUILD_SCRIPT = """\
import os
import sys
from pathlib import Path

from lessonkit.site import Options, build

if __name__ == "__main__":
    content, out, themes, start = sys.argv[1:]
    build(Options(content=Path(content), out=Path(out), themes=Path(themes), jobs=2, drawing_start=start))
    print(os.getpid(), flush=True)
"""
WORKER_WAIT = 120   # seconds for a drawing worker to come to the lock (a build's start on a loaded machine)


class HeldLockBuild:
    """The lesson above built in a process of its own (a new session: killed with its workers) with two drawing
    processes started by `start`."""

    def __init__(self, tmp_path: Path, make_lesson, start: str):
        self.pids, self.states, self.wait = tmp_path / "pids.txt", tmp_path / "states.txt", tmp_path / "wait"
        self.pids.write_text("")
        self.states.write_text("")
        self.wait.touch()
        make_lesson(md=LOCKED_MD, py=LOCKED_PY.format(pids=str(self.pids), states=str(self.states),
                                                       wait=str(self.wait)))
        script = tmp_path / "build_it.py"
        script.write_text(BUILD_SCRIPT, encoding="utf-8")
        self.out = tmp_path / f"out-{start}"
        self.proc = subprocess.Popen([sys.executable, str(script), str(tmp_path / "content"), str(self.out),
                                      str(PROJECT / "themes"), start], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(PROJECT)},
                                     start_new_session=True)

    def finished(self, timeout: float) -> tuple[int, str]:
        """(the build's pid, the page), once it has finished."""
        try:
            stdout, stderr = self.proc.communicate(timeout=timeout)
        finally:
            self.stop()
        assert self.proc.returncode == 0, stderr
        return int(stdout.split()[-1]), (self.out / "demo" / "index.html").read_text(encoding="utf-8")

    def worker_at_the_lock(self, timeout: float) -> tuple[bool, bool]:
        """What the first drawing worker (a process other than the build's) noted as it came to the lock: (the lock
        is held, a thread holding it is alive in the worker)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.states.read_text().splitlines():
                pid, locked, alive = line.split()
                if int(pid) != self.proc.pid:
                    return locked == "True", alive == "True"
            if self.proc.poll() is not None:
                pytest.fail(f"the build ended ({self.proc.returncode}) before a worker came to the lock: "
                            f"{self.proc.communicate()[1]}")
            time.sleep(0.05)
        pytest.fail(f"no drawing worker came to the lock within {timeout} s")

    def stop(self) -> None:
        """Let the thread go (WAIT removed); kill the build and its workers if they are still there."""
        self.wait.unlink(missing_ok=True)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
            self.proc.communicate()


def test_drawing_workers_from_the_fork_server_ignore_a_lock_another_thread_held(tmp_path, make_lesson):
    """`serve` runs HTTP threads while it builds: its drawing workers come from the fork server (started afresh,
    one thread), which loads lesson.py again and so holds none of this process's locks. A worker draws one figure
    at once (its process is not the build's), then the thread lets go and the build draws the other."""
    build = HeldLockBuild(tmp_path, make_lesson, "forkserver")
    assert build.worker_at_the_lock(WORKER_WAIT) == (False, False)   # its own lock: free
    pid, page = build.finished(timeout=120)
    drawn_by = set(map(int, re.findall(r"pid (\d+)", page)))
    assert len(drawn_by) == 2 and pid in drawn_by   # one figure by a worker, one by the build itself


def test_a_forked_drawing_worker_would_wait_for_ever_on_that_lock(tmp_path, make_lesson):
    """Why `serve` does not fork them: a forked child inherits the lock as held, with no thread left in it to
    release it, and so would wait for it for ever (and the build for that worker). This is the hazard the fork
    server avoids. Seen directly in the worker as it comes to the lock, not by waiting for a hang."""
    build = HeldLockBuild(tmp_path, make_lesson, "fork")
    try:
        assert build.worker_at_the_lock(WORKER_WAIT) == (True, False)   # held, and by no thread of the worker's
        assert build.proc.poll() is None                                 # the build waits for that worker
    finally:
        build.stop()


def test_serve_accepts_jobs(make_lesson, tmp_path, capsys):
    assert main(["serve", "--jobs", "2", "--port", "0", "--content", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err   # (not an unknown option: that is exit 2 too, said so)
