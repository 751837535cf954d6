"""The ``fourfold`` command line as a user runs it: a real process, FOURFOLD_HOME, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fourfold.coordinator import cli
from fourfold.coordinator.cli import build_parser


def run(args: list[str], home: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FOURFOLD_HOME": str(home)}
    # an unused port, so that no coordinator answers and the embedded path is taken
    return subprocess.run(
        [sys.executable, "-m", "fourfold", *args], capture_output=True, text=True, env=env, timeout=timeout
    )


def test_parser_knows_every_command() -> None:
    parser = build_parser()
    for argv in (
        ["index", "."],
        ["search", "q", "-k", "3", "--json"],
        ["serve", "--replicas", "text=2"],
        ["status"],
        ["demo"],
        ["plugins"],
    ):
        assert parser.parse_args(argv).command == argv[0]


def test_search_without_an_index_says_what_to_do(tmp_path: Path) -> None:
    r = run(["search", "parse_config", "--address", "127.0.0.1:1"], tmp_path / "home")
    assert r.returncode != 0
    assert "no fourfold coordinator answers at '127.0.0.1:1'" in r.stderr
    r = run(["search", "parse_config"], tmp_path / "home")
    assert r.returncode == 2 and "run `fourfold index PATH` first" in r.stderr


def test_index_missing_path(tmp_path: Path) -> None:
    r = run(["index", str(tmp_path / "nope")], tmp_path / "home")
    assert r.returncode == 2 and "repository path does not exist" in r.stderr
    assert not (tmp_path / "home" / "LIVE").exists()


def test_a_fault_of_fourfold_is_one_line_and_verbose_shows_the_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(args: object) -> int:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setitem(cli.COMMANDS, "status", broken)
    assert cli.main(["status"]) == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "internal error in `status`: RecursionError: maximum recursion depth exceeded" in err
    assert "`fourfold -v status …` shows the traceback" in err
    with pytest.raises(RecursionError):
        cli.main(["-v", "status"])


def test_a_reader_that_stops_reading_ends_it_quietly(tmp_path: Path) -> None:
    # `fourfold plugins | head -0`: the pipe is closed before the first write, as head closes it after its lines
    env = {**os.environ, "FOURFOLD_HOME": str(tmp_path / "home")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "fourfold", "plugins"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141 and err == ""  # 128 + SIGPIPE, as a shell's tools end; no error, no trace


@pytest.mark.slow
@pytest.mark.cluster
def test_index_then_search_json_end_to_end(sample_repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    r = run(["index", str(sample_repo), "--name", "sample", "--json"], home)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["files"] == 6 and summary["skipped"] == {"binary": 1, "too_large": 1}
    assert "segment" in r.stderr  # progress went to stderr
    for bad, message in (
        (["search", ""], "empty query"),
        (["search", "x", "-k", "0"], "invalid -k 0"),
        (["search", "x", "--intent", "guess"], "unknown intent 'guess'"),
        (["search", "x", "--repo", "nope"], "unknown repository 'nope'"),
    ):
        r = run(bad, home)
        assert r.returncode == 2 and message in r.stderr, (bad, r.stderr)
    r = run(["search", '"ECONNREFUSED"', "--json"], home)
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert {"intent", "confidence", "fusion_strategy", "preset", "partial", "hits"} <= set(answer)
    assert answer["intent"] == "exact_match" and answer["fusion_strategy"] == "direct"
    hit = answer["hits"][0]
    assert {"repo", "path", "start_line", "end_line", "symbol", "score", "modalities"} <= set(hit)
    assert (hit["repo"], hit["path"]) == ("sample", "app/session.py")
    assert hit["modalities"]["text"]["rank"] == 0 and hit["modalities"]["text"]["contribution"] > 0
