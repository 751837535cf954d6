"""The fleet end to end through a served coordinator: the admin Sync RPC fetches real git
repositories (file:// URLs), the workers roll to what moved, a branch is searched as
``NAME@BRANCH``, a ``group:`` grant reads exactly its labelled repositories, and Status names the
commit and a stale repository.

Runs on the session's real Ray cluster, over real gRPC.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_fleet_sync import Upstream, git

from fourfold.coordinator.auth import hash_token, new_token
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

pytestmark = [pytest.mark.slow, pytest.mark.cluster]

OPS, PAY, READER = new_token(), new_token(), new_token()


@dataclass
class Fleet:
    address: str
    home: Path
    ups: dict[str, Upstream]
    fleet_file: Path


@pytest.fixture(scope="module")
def fleet(cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    from fourfold.coordinator.auth import TokenStore
    from fourfold.coordinator.serving import start_server

    base = tmp_path_factory.mktemp("fleet")
    ups = {name: Upstream(base / "up", name) for name in ("alpha", "beta", "gamma")}
    alpha = ups["alpha"]
    git("checkout", "-q", "-b", "release/1.0", cwd=alpha.work)
    alpha.commit({"alpha/release.py": "def alpha_release_only():\n    return 10\n"})
    git("push", "-q", "origin", "release/1.0", cwd=alpha.work)
    git("checkout", "-q", "main", cwd=alpha.work)
    fleet_file = base / "fourfold.yaml"
    fleet_file.write_text(
        "version: 1\n"
        "defaults: {modalities: [text, structural]}\n"
        "repositories:\n"
        f"  - {{name: alpha, url: '{alpha.url}', revisions: [main, 'release/*'], labels: [payments]}}\n"
        f"  - {{name: beta, url: '{ups['beta'].url}', labels: [payments]}}\n"
        f"  - {{name: gamma, url: '{ups['gamma'].url}'}}\n"
    )
    grants = {
        "tokens": [
            {"name": "ops", "sha256": hash_token(OPS), "repos": ["*"], "admin": True},
            {"name": "payments-team", "sha256": hash_token(PAY), "repos": ["group:payments"]},
            {"name": "reader", "sha256": hash_token(READER), "repos": ["gamma"]},
        ]
    }
    home = base / "home"
    running = asyncio.run_coroutine_threadsafe(
        start_server(
            home,
            "127.0.0.1:0",
            role="all",
            tokens=TokenStore.parse(json.dumps(grants), "test"),
            fleet=fleet_file,
        ),
        cluster._loop,  # type: ignore[attr-defined]
    ).result(timeout=300)
    try:
        yield Fleet(running.address, home, ups, fleet_file)
    finally:
        asyncio.run_coroutine_threadsafe(running.stop(), cluster._loop).result(timeout=30)  # type: ignore[attr-defined]
        assert running.engine is not None and running.engine.launcher is not None
        for gen in running.engine.launcher.deployed_generations():
            running.engine.launcher.retire(gen)


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def sync(stub: coordinator_pb2_grpc.CoordinatorStub, *repos: str) -> list[coordinator_pb2.IndexProgress]:
    return list(stub.Sync(coordinator_pb2.SyncRequest(repos=list(repos)), metadata=auth(OPS), timeout=300))


def search(stub: coordinator_pb2_grpc.CoordinatorStub, query: str, token: str = OPS, repos: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """The answer once it is complete: a shard that did not answer in time on a loaded machine makes an
    answer partial (``missing_shards``), so it is asked again until every shard answers (90 s at most)."""
    deadline = time.monotonic() + 90
    while True:
        answer = stub.Search(
            coordinator_pb2.SearchRequest(query=query, k=10, repos=list(repos), options={"mode": "literal"}),
            metadata=auth(token),
            timeout=60,
        )
        if not answer.partial or time.monotonic() > deadline:
            return answer
        time.sleep(0.5)


def test_sync_rpc_branches_groups_and_a_push(fleet: Fleet) -> None:
    with grpc.insecure_channel(fleet.address) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)
        with pytest.raises(grpc.RpcError) as denied:
            list(stub.Sync(coordinator_pb2.SyncRequest(), metadata=auth(PAY), timeout=60))
        assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED

        first = sync(stub)
        assert first[-1].stage == "done" and "is live" in first[-1].message
        assert any(p.stage == "sync:alpha" for p in first)

        # a branch, as the user writes it
        hits = search(stub, "alpha_release_only", repos=("alpha@release/1.0",)).hits
        assert hits and {h.repo for h in hits} == {"alpha@release+1.0"}
        assert {h.revision for h in hits} == {"release/1.0"} and all(len(h.commit) == 40 for h in hits)
        assert not search(stub, "alpha_release_only", repos=("alpha",)).hits
        # ... served from a delta shard (alpha's, linked, plus the file the branch added) by the workers
        from fourfold.index.store import IndexStore

        live = IndexStore(fleet.home).require_live()
        assert {live.shard(m, "alpha@release+1.0").base for m in ("text", "structural")} == {"alpha"}
        shared = search(stub, "alpha_core", repos=("alpha@release/1.0",)).hits
        assert [(h.repo, h.path) for h in shared] == [("alpha@release+1.0", "alpha/core.py")]

        # group:payments reads alpha (every revision) and beta, never gamma
        seen = {h.repo for h in search(stub, "def", token=PAY).hits}
        assert seen and seen <= {"alpha", "alpha@release+1.0", "beta"}
        with pytest.raises(grpc.RpcError) as other:
            search(stub, "gamma_core", token=PAY, repos=("gamma",))
        assert other.value.code() == grpc.StatusCode.PERMISSION_DENIED

        # a push to beta: one Sync for beta, the workers roll, the new function answers
        beta = fleet.ups["beta"]
        beta.commit({"beta/pushed.py": "def beta_pushed_today():\n    return 5\n"})
        beta.push()
        pushed = sync(stub, "beta")
        assert "beta" in pushed[-1].message and pushed[-1].summary.generation
        top = search(stub, "beta_pushed_today").hits[0]
        assert (
            top.repo == "beta" and top.revision == "" and top.commit == git("rev-parse", "main", cwd=beta.work).strip()
        )

        # gamma's upstream disappears: stale in Status, its last index still answers
        shutil.rmtree(fleet.ups["gamma"].bare)
        gone = sync(stub)
        assert "gamma STALE" in gone[-1].message
        status = stub.Status(coordinator_pb2.StatusRequest(), metadata=auth(OPS), timeout=60)
        rows = {r.name: r for r in status.repos}
        assert rows["gamma"].sync_status == "stale" and "fetch" in rows["gamma"].sync_error
        assert rows["alpha"].sync_status == "ok" and len(rows["alpha@release+1.0"].commit) == 40
        kept = search(stub, "gamma_core", token=READER)
        assert [h.repo for h in kept.hits][:1] == ["gamma"], (kept.partial, list(kept.missing_shards), list(kept.notes))
