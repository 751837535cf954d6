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
from pathlib import Path

import pytest

from fourfold.coordinator.progress_bar import ProgressBar
from fourfold.index.progress import BUILDING_FILE, ProgressFile, eta_text, read_building, shard_progress, with_rates

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_rates_and_eta_are_added_once_known() -> None:
    seen: list[str] = []
    clock = Clock()
    report = with_rates(lambda stage, done, total, message: seen.append(message), clock=clock)
    report("build:semantic", 0, 600, "semantic/r: 0/600 windows")
    clock.now += 10
    report("build:semantic", 200, 600, "semantic/r: 200/600 windows")
    clock.now += 10
    report("build:semantic", 600, 600, "semantic/r: 600/600 windows")
    assert seen == [
        "semantic/r: 0/600 windows",
        "semantic/r: 200/600 windows · 20/s · ETA 0:20",
        "semantic/r: 600/600 windows · 30/s",
    ]
    assert (eta_text(59.6), eta_text(3725)) == ("1:00", "1:02:05")


def test_shard_progress_is_throttled_but_keeps_first_and_last() -> None:
    seen: list[tuple[int, int]] = []
    clock = Clock()
    progress = shard_progress(lambda s, d, t, m: seen.append((d, t)), "build:semantic", "semantic/r", 0.5, clock)
    for done in range(0, 101, 10):
        progress("windows", done, 100)
        clock.now += 0.2
    assert seen[0] == (0, 100) and seen[-1] == (100, 100)
    assert len(seen) < 11


def test_plain_lines_are_time_stamped_and_sparse() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, tty=False)
    bar("segment", 1, 200, "r: a.py")
    for i in range(2, 200):
        bar("segment", i, 200, "r: b.py")
    bar("segment", 200, 200, "r: z.py")
    bar("build:text", 1, 1, "text/r: 10 segments")
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("[") and lines[0][10:] == " segment: 1/200 r: a.py"
    assert lines[1].endswith("segment: 200/200 r: z.py")
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()


def test_the_terminal_bar_redraws_in_place_and_ends_each_stage() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, tty=True)
    bar("build:semantic", 0, 10, "semantic/r: 0/10 windows")
    bar("build:semantic", 10, 10, "semantic/r: 10/10 windows")
    bar("switch", 0, 1, "switching")
    bar.close()
    text = out.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n")
    assert "█" * 24 in text and "10/10" in text and "100%" in text


def test_progress_file_shows_a_running_build_and_not_a_dead_one(tmp_path: Path) -> None:
    progress = ProgressFile(tmp_path / BUILDING_FILE, "g000002", interval=0)
    progress("build:semantic", 5, 10, "semantic/r: 5/10 windows")
    shown = read_building(tmp_path)
    assert shown is not None and (shown["generation"], shown["done"], shown["total"]) == ("g000002", 5, 10)
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
