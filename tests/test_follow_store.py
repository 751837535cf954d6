"""A running server follows the store: a generation published by another process (``fourfold index``
with no server) is rolled out within seconds, and ``status`` only ever names a generation it serves."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from fourfold.coordinator.serving import EmbeddedServer
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
MARKER = "zebra_unicorn_lookup"


def _status_generations(stub: coordinator_pb2_grpc.CoordinatorStub) -> tuple[str, set[str]]:
    s = stub.Status(coordinator_pb2.StatusRequest(), timeout=30)
    return s.generation, {sh.generation for sh in s.shards}


def test_a_server_rolls_to_a_generation_indexed_by_another_process(sample_repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = build_generation(IndexStore(home), [(sample_repo, "sample")], modalities=["text"])
    with EmbeddedServer(home) as server, grpc.insecure_channel(server.address) as channel:
        stub = coordinator_pb2_grpc.CoordinatorStub(channel)
        r = stub.Search(coordinator_pb2.SearchRequest(query=MARKER), timeout=30)
        assert r.generation == first.generation and not r.hits
        assert _status_generations(stub) == (first.generation, {first.generation})

        (sample_repo / "app" / "zoo.py").write_text(f"def {MARKER}(animal):\n    return animal\n")
        script = (
            "import sys; from pathlib import Path; from fourfold.index.generation import build_generation; "
            "from fourfold.index.store import IndexStore; "
            f"s = build_generation(IndexStore(Path({str(home)!r})), [], modalities=['text']); print(s.generation)"
        )
        built = subprocess.run(
            [sys.executable, "-c", script],
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert built.returncode == 0, built.stderr
        second = built.stdout.strip().splitlines()[-1]
        assert second != first.generation
        published = time.monotonic()

        seen: list[tuple[str, bool, tuple[str, set[str]]]] = []
        deadline = published + 120
        while time.monotonic() < deadline:
            r = stub.Search(coordinator_pb2.SearchRequest(query=MARKER), timeout=30)
            status = _status_generations(stub)
            seen.append((r.generation, bool(r.hits), status))
            # status names only what serves: its generation is one whose workers answer
            assert status[0] in status[1], status
            if r.generation == second and status == (second, {second}):
                break
            time.sleep(0.25)
        rolled_after = time.monotonic() - published
        assert seen[-1][0] == second, seen[-5:]
        assert seen[-1][1], "the new generation's answer misses the file it added"
        assert seen[-1][2] == (second, {second}), "the old generation's workers were not retired"
        # answers switch as one: never the new generation without the new file
        assert all(has for gen, has, _ in seen if gen == second)
        print(f"rolled to {second} {rolled_after:.1f}s after it was published")
        assert rolled_after < 120
