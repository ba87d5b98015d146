"""The benchmark script still runs (one run, no peers): it is not timed here, only kept from rotting."""
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent


@pytest.mark.bench
def test_benchmark_script_runs_and_writes_its_report(tmp_path, shared_cache, real_site):
    """The warm scenarios and the preview start from the run's figure cache, which the real site filled (--warm-from),
    instead of drawing every figure twice more untimed; (a) and the growth table's cold builds still draw."""
    report = tmp_path / "BENCH.md"
    done = subprocess.run([sys.executable, str(PROJECT / "benchmarks" / "bench.py"), "--runs", "1", "--scale", "2",
                           "--no-peers", "--no-slides", "--warm-from", str(shared_cache), "--out", str(report)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    text = report.read_text(encoding="utf-8")
    for row in ("| a | lessonkit cold build", "| d | floor", "| e | MkDocs 1.6, figures as ready files | skipped",
                "(b) ≤ 1.2 × (d)", "(c) ≤ 1.3 × (d)", "(a) ≤ 0.8 × (f)", "| 2 |", "| CPU |",
                "| i | lessonkit `build.py slides`, warm", "| the real site |", "| the 2-lesson course |"):
        assert row in text


@pytest.mark.bench
def test_figure_weight_script_runs_and_lists_the_chapters_figures(shared_cache, real_site, fixture_course):
    """With the run's figure cache, which the real site and the fixture course (the chapter among them) filled: the
    script's own build draws nothing (byte counts are the same drawn or not: tests/test_output.py)."""
    done = subprocess.run([sys.executable, str(PROJECT / "benchmarks" / "figure_weight.py"), "--no-before",
                           "--cache-dir", str(shared_cache)],
                          capture_output=True, text=True, timeout=600, env={**__import__("os").environ,
                                                                            "PYTHONPATH": str(PROJECT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| gradient-descent | **the page** | **—** | **—** |" in done.stdout
    assert "| gradient-descent | widget `lr_explorer` |" in done.stdout
