"""Build progress as people see it: rates and ETAs, a bar on a terminal (recorded in a real tmux
pane), time-stamped lines in a log, and the store's building.json that ``status`` reads."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from fourfold.api import IndexProgress
from fourfold.coordinator.progress_bar import ProgressBar
from fourfold.index.progress import BUILDING_FILE, ProgressFile, eta_text, read_building, shard_progress, with_rates

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def windows(done: int, total: int = 600) -> IndexProgress:
    return IndexProgress("build:semantic", done, total, f"semantic/r: {done}/{total} windows", unit="windows")


def test_rates_and_eta_are_added_once_known() -> None:
    seen: list[IndexProgress] = []
    clock = Clock()
    report = with_rates(seen.append, clock=clock)
    report(windows(0))
    clock.now += 10
    report(windows(200))
    clock.now += 10
    report(windows(600))
    assert [u.message for u in seen] == [
        "semantic/r: 0/600 windows",
        "semantic/r: 200/600 windows · 20/s · ETA 0:20",
        "semantic/r: 600/600 windows · 30/s",
    ]
    # the same rate and time left as fields, for a bar that does not read the text
    assert [(u.rate, u.eta_s) for u in seen] == [(None, None), (20.0, 20.0), (30.0, 0.0)]
    assert [(u.done, u.total, u.unit) for u in seen] == [
        (0, 600, "windows"),
        (200, 600, "windows"),
        (600, 600, "windows"),
    ]
    assert (eta_text(59.6), eta_text(3725)) == ("1:00", "1:02:05")


def test_rates_are_measured_per_repository_and_unit() -> None:
    """Two repositories segmented one after the other in one stage: each gets its own rate."""
    seen: list[IndexProgress] = []
    clock = Clock()
    report = with_rates(seen.append, clock=clock)
    for repo, per_second in (("a", 10), ("b", 50)):
        for second in range(3):
            report(IndexProgress("segment", second * per_second, 100, repo, unit="files", repo=repo))
            clock.now += 1
    assert [(u.repo, u.rate) for u in seen if u.rate is not None] == [("a", 10), ("a", 10), ("b", 50), ("b", 50)]


def test_shard_progress_is_throttled_but_keeps_first_and_last() -> None:
    seen: list[tuple[int, int]] = []
    clock = Clock()
    units: set[tuple[str, str]] = set()

    def report(u: IndexProgress) -> None:
        seen.append((u.done, u.total))
        units.add((u.stage, u.unit))

    progress = shard_progress(report, "build:semantic", "semantic/r", 0.5, clock)
    for done in range(0, 101, 10):
        progress("windows", done, 100)
        clock.now += 0.2
    assert seen[0] == (0, 100) and seen[-1] == (100, 100)
    assert len(seen) < 11
    assert units == {("build:semantic", "windows")}


def test_plain_lines_are_time_stamped_and_sparse() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, tty=False)
    bar(IndexProgress("segment", 1, 200, "r: a.py", unit="files", repo="r"))
    for i in range(2, 200):
        bar(IndexProgress("segment", i, 200, "r: b.py", unit="files", repo="r"))
    bar(IndexProgress("segment", 200, 200, "r: z.py", unit="files", repo="r"))
    bar(IndexProgress("build:text", 1, 1, "text/r: 10 segments", unit="shards"))
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("[") and lines[0][10:] == " segment: 1/200 r: a.py"
    assert lines[1].endswith("segment: 200/200 r: z.py")
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()


def test_the_terminal_bar_redraws_in_place_and_ends_each_stage() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, tty=True)
    bar(windows(0, 10))
    bar(windows(10, 10))
    bar(IndexProgress("switch", 0, 1, "switching", unit="steps"))
    bar.close()
    text = out.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n")
    assert "█" * 24 in text and "10/10" in text and "100%" in text


def test_progress_file_shows_a_running_build_and_not_a_dead_one(tmp_path: Path) -> None:
    progress = ProgressFile(tmp_path / BUILDING_FILE, "g000002", interval=0)
    progress(replace(windows(5, 10), rate=2.5, eta_s=2.0))
    shown = read_building(tmp_path)
    assert shown is not None and (shown["generation"], shown["done"], shown["total"]) == ("g000002", 5, 10)
    assert (shown["unit"], shown["rate"], shown["eta_s"]) == ("windows", 2.5, 2.0)
    record = json.loads((tmp_path / BUILDING_FILE).read_text())
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    record["pid"] = int(dead.stdout)  # a process that has exited: its build is not running
    (tmp_path / BUILDING_FILE).write_text(json.dumps(record))
    assert read_building(tmp_path) is None
    progress.close()
    assert not (tmp_path / BUILDING_FILE).exists()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by `make system-tools`")
def test_index_in_a_tmux_pane_draws_a_bar_with_counts_and_a_summary(sample_repo: Path, tmp_path: Path) -> None:
    """``fourfold index`` in a real terminal (a tmux pane): the pane shows bars with counts and the summary."""
    socket = f"fourfold-progress-{os.getpid()}"
    home = tmp_path / "home"
    done_marker = tmp_path / "exit-code"
    # No coordinator may answer (another one on this machine would get the build): an address nothing serves.
    script = (
        "import sys, fourfold.coordinator.cli as c; c.DEFAULT_ADDRESS = '127.0.0.1:9'; "
        f"sys.exit(c.main(['index', {str(sample_repo)!r}, '--name', 'sample', '--embedder', 'hash', "
        "'--modality', 'text', '--modality', 'semantic']))"
    )
    command = (
        f"env PYTHONPATH={ROOT} FOURFOLD_HOME={home} {sys.executable} -c {_quote(script)}; "
        f"echo $? > {done_marker}; sleep 60"
    )
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-x", "160", "-y", "40", "-s", "index", command], check=True)
    try:
        deadline = time.monotonic() + 180
        while not done_marker.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert done_marker.exists(), "fourfold index did not finish in the tmux pane"
        screen = subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", "index"], capture_output=True, text=True, check=True
        ).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    assert done_marker.read_text().strip() == "0", screen
    bars = [line for line in screen.splitlines() if "█" in line]
    assert any(re.match(r"segment +\[█+\] 100% (\d+)/\1 sample: ", line) for line in bars), screen
    assert any(re.match(r"build:semantic +\[█+\] 100% (\d+)/\1 .*windows", line) for line in bars), screen
    assert any("generation g000001 is live" in line and "segments" in line for line in screen.splitlines()), screen


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"
