"""A damaged shard file is a missing shard with a plain reason, never a dead worker.

Real workers (``ShardServer`` serving gRPC in a process of their own, so a SIGBUS would show as a
dead process, not a dead test session) over a real generation of three repositories; files cut
short or overwritten while the worker serves them (text: memory-mapped contents) and before it
loads them (semantic).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from fourfold.index import integrity
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.v1 import worker_pb2, worker_pb2_grpc
from fourfold.workers.auth import METADATA_KEY, worker_secret

pytestmark = [pytest.mark.slow]

REPOS = {
    "alpha": {"net/client.py": 'def connect(host):\n    raise ConnectionError("ECONNREFUSED alpha")\n'},
    "beta": {"net/retry.py": 'def retry(call):\n    """Retry on ECONNREFUSED."""\n    return call()\n'},
    "gamma": {"net/server.py": 'def serve(port):\n    """Log ECONNREFUSED and go on."""\n    return port\n'},
}

WORKER = textwrap.dedent(
    """
    import asyncio, sys
    from fourfold.workers.servicer import ShardServer

    async def main():
        server = ShardServer(sys.argv[1], sys.argv[2], sys.argv[3].split(","))
        print(await server.ready(), flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())
    """
)


@pytest.fixture(scope="module")
def generation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("damage")
    added = []
    for name, files in REPOS.items():
        for rel, text in files.items():
            (base / name / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / name / rel).write_text(text)
        added.append((base / name, name))
    store = IndexStore(base / "home")
    build_generation(store, added, modalities=["semantic", "text"], centrality=False)
    return store.require_live().root


class Worker:
    """A worker process serving ``shards`` of ``modality``; its gRPC stub."""

    def __init__(self, generation: Path, modality: str, shards: list[str]) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(generation), modality, ",".join(shards)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        address = self.proc.stdout.readline().strip()  # printed once ready (blocks until then)
        assert address, f"worker did not start: {self.proc.stderr.read() if self.proc.stderr else ''}"
        self.channel = grpc.insecure_channel(address)
        self.stub = worker_pb2_grpc.ModalityWorkerStub(self.channel)
        # the worker plane's secret, as the coordinator's fan-out sends it (the store holds it)
        self.metadata = ((METADATA_KEY, worker_secret(generation.parent.parent)),)

    def search(self, query: str, shards: list[str]) -> worker_pb2.ShardSearchResponses:
        request = worker_pb2.ShardSearchRequest(query=query, k=5, intent="find_definition")
        request.shards.extend(shards)
        return self.stub.SearchShards(request, timeout=60, metadata=self.metadata)

    def stop(self) -> None:
        self.channel.close()
        self.proc.kill()
        self.proc.wait(timeout=30)


@pytest.fixture
def worker_factory() -> Iterator[type[Worker]]:
    started: list[Worker] = []

    class Tracked(Worker):
        def __init__(self, *args: object) -> None:
            super().__init__(*args)  # type: ignore[arg-type]
            started.append(self)

    yield Tracked
    for w in started:
        w.stop()


def _restore(path: Path, data: bytes) -> None:
    path.write_bytes(data)


def test_the_manifest_records_every_shard_file_size_and_checksum(generation: Path) -> None:
    reader = IndexStore(generation.parent.parent).reader(generation.name)
    for spec in reader.shards():
        expected = integrity.expected_files(reader.manifest, spec.folder)
        assert expected, f"no integrity record for {spec.folder}"
        shard_dir = reader.shard_dir(spec)
        on_disk = sorted(p.relative_to(shard_dir).as_posix() for p in shard_dir.rglob("*") if p.is_file())
        assert sorted(expected) == on_disk
        assert integrity.check(shard_dir, expected) is None


def test_text_files_damaged_while_served_leave_the_worker_alive(generation: Path, worker_factory: type) -> None:
    content = {name: generation / "text" / name / "content.bin" for name in REPOS}
    saved = {name: p.read_bytes() for name, p in content.items()}
    worker = worker_factory(generation, "text", list(REPOS))
    try:
        # beta is not asked before its damage: a block read once stays cached (decompressed) for a while
        healthy = worker.search('"ECONNREFUSED"', ["alpha", "gamma"])
        assert sorted(r.shard for r in healthy.results) == ["alpha", "gamma"] and not healthy.errors
        # live: alpha cut to 0 bytes under the worker's memory map, beta's bytes overwritten
        os.truncate(content["alpha"], 0)
        content["beta"].write_bytes(b"\0" * len(saved["beta"]))
        r = worker.search('"ECONNREFUSED"', list(REPOS))
        assert worker.proc.poll() is None, "the worker died"
        errors = {e.shard: e.message for e in r.errors}
        assert set(errors) == {"alpha", "beta"}, (errors, [x.shard for x in r.results])
        assert f"content.bin is 0 bytes, the manifest says {len(saved['alpha'])}" in errors["alpha"]
        assert "content.bin does not match its recorded checksum" in errors["beta"]
        for message in errors.values():
            assert "is damaged" in message and "fourfold index" in message and "Error" not in message
        assert [x.shard for x in r.results] == ["gamma"] and r.results[0].hits
        # asked again: the same plain answer (the damaged shards stay dropped), still alive
        again = worker.search('"ECONNREFUSED"', list(REPOS))
        assert {e.shard for e in again.errors} == {"alpha", "beta"} and worker.proc.poll() is None
    finally:
        for name, data in saved.items():
            _restore(content[name], data)


def test_semantic_files_damaged_before_load_are_named_at_load(generation: Path, worker_factory: type) -> None:
    shard = {name: generation / "semantic" / name for name in REPOS}
    victims = {"alpha": shard["alpha"] / "vectors.npy", "beta": shard["beta"] / "codes.npy"}
    saved = {name: p.read_bytes() for name, p in victims.items()}
    try:
        os.truncate(victims["alpha"], 10)
        data = bytearray(saved["beta"])
        data[-8:] = bytes(b ^ 0xFF for b in data[-8:])
        victims["beta"].write_bytes(bytes(data))
        started = time.monotonic()
        worker = worker_factory(generation, "semantic", list(REPOS))
        assert time.monotonic() - started < 120
        r = worker.search("open a connection to a host", list(REPOS))
        assert worker.proc.poll() is None
        errors = {e.shard: e.message for e in r.errors}
        assert set(errors) == {"alpha", "beta"}
        assert f"vectors.npy is 10 bytes, the manifest says {len(saved['alpha'])}" in errors["alpha"]
        assert "codes.npy does not match its recorded checksum" in errors["beta"]
        assert [x.shard for x in r.results] == ["gamma"]
        info = worker.stub.Info(worker_pb2.InfoRequest(), timeout=30, metadata=worker.metadata)
        assert "semantic/alpha" in info.error and "semantic/beta" in info.error
    finally:
        for name, data in saved.items():
            _restore(victims[name], data)
