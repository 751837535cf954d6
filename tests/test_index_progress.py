"""The Index and Sync streams' progress as structured fields (stage, done of total unit, repository,
rate, time left) beside the text, through a real gRPC server in this process and the Python client."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import grpc
import pytest
from conftest import write_sample_repo
from inprocess import coordinator_in_process

import fourfold
from fourfold.api import IndexProgress
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.wire import progress_from_pb, progress_to_pb, status_from_pb

#: Files in the larger repository: segmenting reports every 50 files, so its stage reports several times.
MANY = 130


def write_many(root: Path) -> Path:
    for i in range(MANY):
        (root / "pkg" / f"mod{i:03d}.py").parent.mkdir(parents=True, exist_ok=True)
        (root / "pkg" / f"mod{i:03d}.py").write_text(f"def function_{i}(x):\n    return x + {i}\n")
    return root


Run = tuple[str, str, str, str]


def assert_each_stage_counts_up(updates: list[IndexProgress]) -> dict[Run, list[IndexProgress]]:
    """Within one (stage, unit, repository, shard), ``total`` is fixed and ``done`` never goes back."""
    runs: dict[Run, list[IndexProgress]] = defaultdict(list)
    for u in updates:
        runs[(u.stage, u.unit, u.repo, u.shard)].append(u)
    for key, run in runs.items():
        assert len({u.total for u in run}) == 1, (key, run)
        dones = [u.done for u in run]
        assert dones == sorted(dones) and dones[-1] <= run[0].total, (key, dones)
    return runs


def test_the_index_stream_reports_stages_as_fields(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_EMBEDDER", "hash")  # the build runs in this process: no model to load
    small = write_sample_repo(tmp_path / "small")
    many = write_many(tmp_path / "many")
    seen: list[IndexProgress] = []
    with coordinator_in_process(tmp_path / "home") as address, fourfold.Client(address) as client:
        summary = client.index([(small, "small"), (many, "many")], progress=seen.append)
    assert summary.generation == "g000001" and summary.files >= MANY
    assert all(isinstance(u, IndexProgress) for u in seen)
    runs = assert_each_stage_counts_up(seen)
    # segmenting goes repository by repository, in files: the larger one in several steps up to its total
    segmenting = runs[("segment", "files", "many", "")]
    assert [u.done for u in segmenting] == [1, 51, 101, MANY] and segmenting[0].total == MANY
    assert all(u.message.startswith("many: ") for u in segmenting)  # the text is kept
    assert runs[("segment", "files", "small", "")][-1].done == runs[("segment", "files", "small", "")][0].total > 0
    # each modality's shards, counted up to their total
    builds = {k: run for k, run in runs.items() if k[0].startswith("build:")}
    assert {"build:text", "build:structural", "build:graph"} <= {k[0] for k in builds}
    for (_, unit, repo, shard), run in builds.items():
        if unit == "shards":
            assert (repo, shard) == ("", "") and run[-1].done == run[-1].total > 0
    # inside a shard (the semantic one's windows): counted per shard, which holds one repository here
    windows = runs[("build:semantic", "windows", "many", "semantic/many")]
    assert windows[0].done == 0 and windows[-1].done == windows[-1].total > 0
    # a rate, once measured, comes with the time left; the stream ends with `done`
    for u in seen:
        assert (u.rate is None) == (u.eta_s is None) or u.total == 0, u
        assert u.rate is None or u.rate > 0
    assert seen[-1].stage == "done" and seen[-1].fraction == 1.0
    assert seen[-2] == IndexProgress("switch", 1, 1, "g000001 is live", unit="steps")


def test_the_sync_stream_names_each_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_EMBEDDER", "hash")
    alpha, beta = write_sample_repo(tmp_path / "alpha"), write_many(tmp_path / "beta")
    fleet = tmp_path / "fourfold.yaml"
    fleet.write_text(
        f"version: 1\nrepositories:\n  - name: alpha\n    path: {alpha}\n  - name: beta\n    path: {beta}\n"
    )
    with coordinator_in_process(tmp_path / "home", fleet=fleet) as address, grpc.insecure_channel(address) as ch:
        stream = coordinator_pb2_grpc.CoordinatorStub(ch).Sync(coordinator_pb2.SyncRequest(), timeout=120)
        seen = [progress_from_pb(m) for m in stream]
    runs = assert_each_stage_counts_up(seen)
    syncing = [u for u in seen if u.stage.startswith("sync:")]
    assert [(u.stage, u.repo, u.unit, u.done, u.total) for u in syncing] == [
        ("sync:alpha", "alpha", "repositories", 0, 2),
        ("sync:alpha", "alpha", "repositories", 1, 2),
        ("sync:beta", "beta", "repositories", 1, 2),
        ("sync:beta", "beta", "repositories", 2, 2),
    ]
    assert runs[("segment", "files", "beta", "")][-1].done == MANY  # the build it triggered reports as Index does
    assert seen[-1].stage == "done" and seen[-1].message.endswith("g000001 is live")


@pytest.mark.parametrize(
    "update",
    [
        IndexProgress("segment", 51, 130, "many: pkg/mod050.py · 120/s · ETA 0:01", "files", "many", 120.5, 0.65),
        IndexProgress("build:semantic", 0, 600, "semantic/r: 0/600 windows", unit="windows"),
        IndexProgress("done", 1, 1, "g000002 is live"),
        IndexProgress("segment", 3, 0, "r: a.py", "files", "r", 0.0, 0.0),  # measured as zero, not unknown
    ],
)
def test_progress_round_trips_through_the_wire(update: IndexProgress) -> None:
    msg = progress_to_pb(update)
    assert progress_from_pb(coordinator_pb2.IndexProgress.FromString(msg.SerializeToString())) == update
    assert msg.HasField("rate") == (update.rate is not None)


def test_status_carries_a_running_build_as_the_same_value() -> None:
    update = IndexProgress(
        "build:semantic", 40, 90, "semantic/r: 40/90 windows", "windows", "r", 8.0, 6.25, "semantic/r"
    )
    running = status_from_pb(coordinator_pb2.StatusResponse(generation="g000001", building=progress_to_pb(update)))
    assert running.building == update
    assert status_from_pb(coordinator_pb2.StatusResponse(generation="g000001")).building is None
