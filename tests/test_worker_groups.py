"""Workers hosting groups of shards: the packing plan, a multi-shard worker over real gRPC, the
fan-out's one-call-per-worker batching, and a real Ray deployment with one worker per modality."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from fourfold.coordinator.fanout import FanOut
from fourfold.errors import InvalidInput
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore, ShardSpec
from fourfold.plugins.types import ModalityQuery
from fourfold.v1 import worker_pb2, worker_pb2_grpc
from fourfold.workers.actors import EndpointKey, actor_name, parse_actor_name
from fourfold.workers.auth import SecretMetadata
from fourfold.workers.convert import query_to_pb, result_from_pb
from fourfold.workers.groups import WORKERS_ENV, plan_groups, workers_from_env
from fourfold.workers.registry import Endpoint
from fourfold.workers.servicer import ShardServer

REPOS = {
    "alpha": {"net.py": "def connect(host):\n    raise OSError('ECONNREFUSED on ' + host)\n", "util.py": "X = 1\n"},
    "beta": {"client.py": "ERR = 'ECONNREFUSED'\n\ndef retry(fn):\n    return fn()\n"},
    "gamma": {"main.go": 'package main\n\nfunc main() {\n\tprintln("ECONNREFUSED")\n}\n'},
}


#: The worker plane's secret for the in-process workers here (a deployment's comes from workers.auth).
SECRET = "test-worker-secret"


def spec(modality: str, shard: str, segments: int) -> ShardSpec:
    return ShardSpec(modality, shard, f"{modality}/{shard}", (shard,), (), segments)


# --- the plan ----------------------------------------------------------------------------------


def test_plan_packs_largest_first_onto_the_lightest_group() -> None:
    specs = [
        spec("text", "a", 100),
        spec("text", "b", 60),
        spec("text", "c", 50),
        spec("text", "d", 10),
        spec("graph", "all", 5),
    ]
    groups = plan_groups(specs, 2)
    text = {g.name: g.shards for g in groups if g.modality == "text"}
    # a (100) alone; b (60) then c (50) onto the lighter; d (10) onto a's group (100 < 110)
    assert text == {"~0of2": ("a", "d"), "~1of2": ("b", "c")}
    assert [(g.name, g.shards) for g in groups if g.modality == "graph"] == [("all", ("all",))]


def test_plan_with_enough_workers_keeps_one_shard_per_worker_named_after_it() -> None:
    specs = [spec("text", s, n) for s, n in (("a", 3), ("b", 2), ("c", 1))]
    assert sorted((g.name, g.shards) for g in plan_groups(specs, 8)) == [("a", ("a",)), ("b", ("b",)), ("c", ("c",))]
    assert plan_groups(specs, 8) == plan_groups(list(reversed(specs)), 8)  # the input order does not matter


def test_plan_with_one_worker_and_bad_counts() -> None:
    specs = [spec("text", s, 1) for s in ("a", "b", "c")]
    assert [(g.name, g.shards) for g in plan_groups(specs, 1)] == [("~0of1", ("a", "b", "c"))]
    with pytest.raises(InvalidInput, match="at least 1"):
        plan_groups(specs, 0)


def test_workers_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    assert workers_from_env(6) == 6
    monkeypatch.setenv(WORKERS_ENV, "3")
    assert workers_from_env(6) == 3
    monkeypatch.setenv(WORKERS_ENV, "many")
    with pytest.raises(InvalidInput, match="FOURFOLD_WORKERS_PER_MODALITY='many'"):
        workers_from_env(6)


def test_actor_names_round_trip_groups_and_repository_names_with_bars() -> None:
    for group in ("alpha", "~0of3", "team|repo~2"):
        key = EndpointKey("g000001", "text", group, 1, "store")
        assert parse_actor_name(actor_name(key)) == key


# --- a multi-shard worker over real gRPC ---------------------------------------------------------


@pytest.fixture(scope="module")
def text_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("groups")
    adds = []
    for repo, files in REPOS.items():
        for rel, text in files.items():
            (base / repo).mkdir(exist_ok=True)
            (base / repo / rel).write_text(text)
        adds.append((base / repo, repo))
    home = base / "home"
    build_generation(IndexStore(home), adds, modalities=["text", "structural"], centrality=False)
    return home


class CountingServer(ShardServer):
    """A ShardServer that counts the calls it answers (to see the fan-out's batching)."""

    calls = 0

    async def SearchShards(self, request: Any, context: Any) -> Any:
        self.calls += 1
        return await super().SearchShards(request, context)


def _query(text: str = "ECONNREFUSED") -> ModalityQuery:
    return ModalityQuery(text=text, k=10, intent="exact_match", options={"mode": "literal"})


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_worker_serves_several_shards_each_as_its_own_shard_would(text_home: Path) -> None:
    gen_dir = str(IndexStore(text_home).require_live().root)

    async def scenario() -> None:
        server = ShardServer(gen_dir, "text", ["alpha", "beta", "gamma"], group="~0of1", secret=SECRET)
        address = await server.address()
        try:
            async with grpc.aio.insecure_channel(address, interceptors=[SecretMetadata(SECRET)]) as ch:
                stub = worker_pb2_grpc.ModalityWorkerStub(ch)
                request = query_to_pb(_query(), server.reader.name)
                many = await stub.SearchShards(request)
                assert [r.shard for r in many.results] == ["alpha", "beta", "gamma"] and not many.errors
                for r in many.results:  # each shard's answer is what that shard alone answers
                    alone = server.shards[r.shard].search(_query())
                    assert [h.path for h in result_from_pb(r).hits] == [h.path for h in alone.hits]
                    assert r.total_matches == alone.total_matches == 1
                request.shards.append("beta")
                one = await stub.Search(request)
                assert one.shard == "beta" and [h.repo for h in one.hits] == ["beta"]
                del request.shards[:]
                with pytest.raises(grpc.aio.AioRpcError) as err:
                    await stub.Search(request)  # which of the three?
                assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "SearchShards" in (
                    err.value.details() or ""
                )
                request.shards.append("delta")
                with pytest.raises(grpc.aio.AioRpcError) as err:
                    await stub.SearchShards(request)
                assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "delta" in (
                    err.value.details() or ""
                )
                info = await stub.Info(worker_pb2.InfoRequest())
                assert list(info.shards) == ["alpha", "beta", "gamma"] and list(info.repos) == [
                    "alpha",
                    "beta",
                    "gamma",
                ]
        finally:
            await server.stop()

    _run(scenario())


def test_a_broken_shard_is_reported_and_the_others_still_answer(text_home: Path, tmp_path: Path) -> None:
    gen = IndexStore(text_home).require_live().root
    copy = tmp_path / gen.name
    shutil.copytree(gen, copy)
    (copy / "text" / "beta" / "meta.json").write_text("{ not json")

    async def scenario() -> None:
        server = ShardServer(str(copy), "text", ["alpha", "beta", "gamma"], secret=SECRET)
        address = await server.address()
        try:
            async with grpc.aio.insecure_channel(address, interceptors=[SecretMetadata(SECRET)]) as ch:
                many = await worker_pb2_grpc.ModalityWorkerStub(ch).SearchShards(
                    query_to_pb(_query(), server.reader.name)
                )
            assert [r.shard for r in many.results] == ["alpha", "gamma"]
            # caught by the integrity check at load (its size differs from the manifest's record)
            assert [e.shard for e in many.errors] == ["beta"] and "text/beta" in many.errors[0].message
            assert "meta.json" in many.errors[0].message and "damaged" in many.errors[0].message
            assert "text/beta" in (await server.describe())["error"]
        finally:
            await server.stop()

    _run(scenario())


class NoReresolve:
    """The registry part the fan-out uses on a retry: here nothing restarts."""

    async def reresolve(self, key: EndpointKey, timeout_s: float | None = None) -> None:
        return None


def test_fan_out_sends_one_call_per_worker_and_reports_a_dead_worker_shard_by_shard(text_home: Path) -> None:
    gen_dir = str(IndexStore(text_home).require_live().root)

    async def scenario() -> None:
        first = CountingServer(gen_dir, "text", ["alpha", "gamma"], group="~0of2", secret=SECRET)
        second = CountingServer(gen_dir, "text", ["beta"], secret=SECRET)
        eps = []
        for server in (first, second):
            key = EndpointKey(server.reader.name, "text", server.group, 0)
            eps.append(Endpoint(key, await server.address(), None, server.shard_names))
        targets = {("text", s): [ep] for ep in eps for s in ep.shards}
        fanout = FanOut(NoReresolve(), SECRET)  # type: ignore[arg-type]
        try:
            answers = await fanout.gather(targets, _query(), first.reader.name, time.monotonic() + 10)
            assert sorted((a.shard, a.result is not None) for a in answers) == [
                ("alpha", True),
                ("beta", True),
                ("gamma", True),
            ]
            assert sorted(h.repo for a in answers if a.result for h in a.result.hits) == ["alpha", "beta", "gamma"]
            assert (first.calls, second.calls) == (1, 1)  # three shards, two calls
            await first.stop()
            answers = await fanout.gather(targets, _query(), first.reader.name, time.monotonic() + 5)
            missing = sorted(a.shard for a in answers if a.result is None)
            assert missing == ["alpha", "gamma"] and all(a.error for a in answers if a.result is None)
            assert [a.shard for a in answers if a.result is not None] == ["beta"]
        finally:
            await fanout.close()
            await first.stop()
            await second.stop()

    _run(scenario())


# --- a real deployment ---------------------------------------------------------------------------


@pytest.fixture
def one_worker_per_modality(cluster: Any, text_home: Path) -> Iterator[Any]:
    """The sample repositories served by the session's Ray cluster with one worker per modality."""
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.workers.cluster import Launcher

    with EmbeddedServer(text_home, workers_per_modality=1) as server:
        try:
            yield server
        finally:
            Launcher(IndexStore(text_home)).retire(IndexStore(text_home).require_live().name)


def test_one_worker_per_modality_serves_every_shard_through_the_coordinator(
    one_worker_per_modality: Any, text_home: Path
) -> None:
    from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
    from fourfold.workers.actors import named_workers

    store = IndexStore(text_home)
    workers = [k for k in named_workers(store.store_id()) if k.generation == store.live_generation()]
    assert sorted((k.modality, k.group) for k in workers) == [("structural", "~0of1"), ("text", "~0of1")]
    with grpc.insecure_channel(one_worker_per_modality.address) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)
        status = stub.Status(coordinator_pb2.StatusRequest(), timeout=30)
        text = [s for s in status.shards if s.modality == "text"]
        assert sorted(s.shard for s in text) == ["alpha", "beta", "gamma"]
        assert len({s.address for s in text}) == 1 and {s.health for s in text} == {"SERVING"}
        r = stub.Search(coordinator_pb2.SearchRequest(query='"ECONNREFUSED"', k=10, modalities=["text"]), timeout=30)
        assert not r.partial and sorted(h.repo for h in r.hits) == ["alpha", "beta", "gamma"]


def test_workers_are_dealt_over_every_live_node_softly() -> None:
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    from fourfold.workers.cluster import placement

    assert placement(0, []) == {} and placement(3, ["only"]) == {}  # one node: nothing to deal
    a, b, c = ("a" * 56, "b" * 56, "c" * 56)  # node ids are hex
    strategies = [placement(i, [a, b, c])["scheduling_strategy"] for i in range(5)]
    assert all(isinstance(s, NodeAffinitySchedulingStrategy) and s.soft for s in strategies)
    assert [s.node_id for s in strategies] == [a, b, c, a, b]
