"""Overload: a burst far over capacity is partly refused at once, and what is admitted stays whole.

Unit tests of the admission arithmetic on a fake clock, and one burst against the real server of
the test session (Ray workers, gRPC, the sample index).
"""

from __future__ import annotations

import asyncio
import statistics
import time

import grpc
import pytest

from fourfold.coordinator.admission import Admission, AdmissionPolicy, Refusal, Ticket
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_admission_learns_the_throughput_and_refuses_what_cannot_finish_in_time() -> None:
    clock = Clock()
    a = Admission(AdmissionPolicy(min_in_flight=1, initial_limit=4, budget_fraction=0.5), clock=clock)
    # before any search finished: at most initial_limit at once
    first = [a.admit(1.0) for _ in range(4)]
    assert all(isinstance(t, Ticket) for t in first)
    refused = a.admit(1.0)
    assert isinstance(refused, Refusal) and "before any finished" in refused.reason
    # the four finish together after 0.4 s: 4 in flight / 0.4 s = 10 searches a second
    clock.now += 0.4
    for t in first:
        assert isinstance(t, Ticket)
        a.release(t)
    assert a.throughput == pytest.approx(10.0, rel=0.05)
    # ~1 s deadline, half of it the budget: (n + 1) / 10 <= 0.51 admits while n <= 4
    admitted = [a.admit(1.02) for _ in range(10)]
    tickets = [t for t in admitted if isinstance(t, Ticket)]
    assert len(tickets) == 5
    refusal = admitted[-1]
    assert isinstance(refusal, Refusal)
    assert "5 searches in flight at 10.0/s" in refusal.message() and "retry after" in refusal.message()
    # a longer deadline admits more at the same throughput
    assert isinstance(a.admit(3.0), Ticket)


def test_admission_shares_what_fits_among_the_callers() -> None:
    """A caller that floods the coordinator is refused; one below its share of what fits is not."""
    clock = Clock()
    a = Admission(AdmissionPolicy(min_in_flight=1, initial_limit=4, budget_fraction=0.5), clock=clock)
    warm = [a.admit(1.0, "agent-a") for _ in range(4)]
    clock.now += 0.4
    for t in warm:
        assert isinstance(t, Ticket)
        a.release(t)
    assert a.throughput == pytest.approx(10.0, rel=0.05)  # so 4 fit in half of a 1.02 s deadline, and one more
    flood = [a.admit(1.02, "agent-a") for _ in range(8)]
    assert [isinstance(t, Ticket) for t in flood] == [True] * 5 + [False] * 3  # as for a lone caller
    # a second caller shares the 4 that fit: two of its own, while agent-a holds more than its two
    light = [a.admit(1.02, "agent-b") for _ in range(3)]
    assert [isinstance(t, Ticket) for t in light] == [True, True, False]
    assert isinstance(a.admit(1.02, "agent-a"), Refusal)
    # a third: a share of one (4 // 3)
    assert [isinstance(a.admit(1.02, "agent-c"), Ticket) for _ in range(2)] == [True, False]
    assert a.in_flight == 8  # 5 + 2 + 1: past the budget, not past the deadline
    # many callers with one search each: admitted while the prediction fits in the whole deadline
    many = [a.admit(1.02, f"agent-{i}") for i in range(4)]
    assert [isinstance(t, Ticket) for t in many] == [True, True, False, False]  # (9 + 1) / 10 s fits; (10 + 1) not
    assert a.in_flight == 10
    # as the flood's searches finish, agent-a is admitted again
    clock.now += 0.5
    for t in flood[:4]:
        assert isinstance(t, Ticket)
        a.release(t)
    assert isinstance(a.admit(1.02, "agent-a"), Ticket)
    for t in (*flood[4:5], *light[:2], *many[:2]):
        assert isinstance(t, Ticket)
        a.release(t)
    assert a.in_flight == 2  # agent-a's latest and agent-c's one: the books of each caller balance


def test_admission_off_keeps_only_the_fixed_limit() -> None:
    a = Admission(AdmissionPolicy(adaptive=False, max_in_flight=3))
    assert [isinstance(a.admit(0.01), Ticket) for _ in range(4)] == [True, True, True, False]


async def _burst(address: str, n: int, deadline_ms: int) -> list[tuple[str, float, bool, str]]:
    """``n`` simultaneous searches: (status, seconds, partial, details) each."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = coordinator_pb2_grpc.CoordinatorStub(channel)

        async def one(i: int) -> tuple[str, float, bool, str]:
            request = coordinator_pb2.SearchRequest(
                query=f"how does the session retry a request {i}", k=5, preset="thorough", deadline_ms=deadline_ms
            )
            t0 = time.perf_counter()
            try:
                r = await stub.Search(request, timeout=30)
                return "OK", time.perf_counter() - t0, r.partial, ""
            except grpc.aio.AioRpcError as exc:
                return exc.code().name, time.perf_counter() - t0, False, exc.details() or ""

        return await asyncio.gather(*(one(i) for i in range(n)))


@pytest.mark.slow
@pytest.mark.cluster
def test_a_burst_over_capacity_is_shed_at_once_and_the_admitted_stay_whole(cluster) -> None:  # type: ignore[no-untyped-def]
    # a few searches one after another: the coordinator measures what it serves, and so does the test,
    # which sets the burst's deadline from it so the burst is over capacity on an idle or a busy machine
    single = [asyncio.run(_burst(cluster.address, 1, 5000))[0][1] for _ in range(5)]
    deadline_ms = 1500
    # what is over capacity depends on the machine (on an idle one 360 searches all fit in 1.5 s):
    # bursts double until one is over it, and that one is checked
    for n in (150, 300, 600, 1200):
        results = asyncio.run(_burst(cluster.address, n, deadline_ms))
        if any(r[0] == "RESOURCE_EXHAUSTED" for r in results):
            break
    ok = [r for r in results if r[0] == "OK"]
    refused = [r for r in results if r[0] == "RESOURCE_EXHAUSTED"]
    summary = {
        "ok": len(ok),
        "partial": sum(r[2] for r in ok),
        "refused": len(refused),
        "other": sorted({r[0] for r in results} - {"OK", "RESOURCE_EXHAUSTED"}),
        "admitted_p50_s": round(statistics.median(r[1] for r in ok), 3) if ok else None,
        "refused_p50_s": round(statistics.median(r[1] for r in refused), 3) if refused else None,
    }
    print(f"burst of {n} at {deadline_ms} ms (single search {statistics.median(single):.3f} s):", summary)
    assert not summary["other"], results
    assert refused, f"nothing refused: {summary}"
    assert ok, f"nothing admitted: {summary}"
    assert all("retry after" in r[3] and "overloaded" in r[3] for r in refused)
    # refused without doing the work: never later than most of the admitted are answered. A refusal is
    # decided when its call reaches the server, and a burst just over capacity refuses the last to
    # arrive, so on a busy machine they come back about when the admitted do: no absolute bound holds
    # (CI runs beside other work: 3 of 300 refused at a median of 1.32 s against the admitted's 1.26 s;
    # 15 of 300 at 1.552 s against 1.554 s, both past the 1.5 s deadline). A refusal that waited for a
    # search to finish would come after the admitted's 90th percentile.
    admitted = sorted(r[1] for r in ok)
    assert statistics.median(r[1] for r in refused) < admitted[int(0.9 * (len(admitted) - 1))], summary
    # the admitted are answered whole, mostly
    assert sum(r[2] for r in ok) <= 0.2 * len(ok), summary


@pytest.mark.slow
@pytest.mark.cluster
def test_a_burst_past_grpcs_queue_on_one_connection_is_refused_in_words_not_cancelled(cluster) -> None:  # type: ignore[no-untyped-def]
    # 2,000 searches on one connection at once: more than gRPC's default queue of calls waiting for
    # Python (1,000), past which it cancels arriving calls at random with a bare CANCELLED. Each call
    # must reach the coordinator, which answers it or refuses it with its reason and a retry-after.
    results = asyncio.run(_burst(cluster.address, 2000, 300))
    counts = {code: sum(r[0] == code for r in results) for code in {r[0] for r in results}}
    print("burst of 2000 at 300 ms:", counts)
    assert set(counts) <= {"OK", "RESOURCE_EXHAUSTED"}, counts
    assert counts.get("RESOURCE_EXHAUSTED"), counts
    assert all("overloaded" in r[3] and "retry after" in r[3] for r in results if r[0] != "OK")


@pytest.fixture(scope="module")
def two_agents(cluster, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A coordinator with tokens on the session's Ray cluster: a flooding agent (no limit of its own) and
    one that asks now and then; (address, flood token, light token)."""
    import json

    from conftest import write_sample_repo

    from fourfold.coordinator.auth import TokenStore, hash_token, new_token
    from fourfold.coordinator.serving import start_server
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    base = tmp_path_factory.mktemp("two-agents")
    store = IndexStore(base / "home")
    build_generation(store, [(write_sample_repo(base / "sample"), "sample")], modalities=["text", "structural"])
    flood, light = new_token(), new_token()
    grants = {
        "tokens": [
            {"name": "flood", "sha256": hash_token(flood), "repos": ["*"], "max_concurrent": 100_000},
            {"name": "light", "sha256": hash_token(light), "repos": ["*"]},
        ]
    }
    running = asyncio.run_coroutine_threadsafe(
        start_server(store.home, "127.0.0.1:0", role="all", tokens=TokenStore.parse(json.dumps(grants), "test")),
        cluster._loop,
    ).result(timeout=300)
    try:
        yield running.address, flood, light
    finally:
        asyncio.run_coroutine_threadsafe(running.stop(), cluster._loop).result(timeout=30)
        live = store.live_generation()
        if running.engine is not None and running.engine.launcher is not None and live:
            running.engine.launcher.retire(live)


@pytest.mark.slow
@pytest.mark.cluster
def test_an_agent_that_floods_is_refused_and_one_that_asks_now_and_then_is_not(two_agents) -> None:  # type: ignore[no-untyped-def]
    address, flood, light = two_agents

    async def run() -> tuple[list[str], list[str]]:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = coordinator_pb2_grpc.CoordinatorStub(channel)

            async def one(token: str, i: int) -> str:
                # a short deadline: what fits in it is a few searches, on an idle machine or a busy one
                request = coordinator_pb2.SearchRequest(query=f"who calls parse_config {i}", k=5, deadline_ms=300)
                try:
                    await stub.Search(request, timeout=30, metadata=(("authorization", f"Bearer {token}"),))
                    return "OK"
                except grpc.aio.AioRpcError as exc:
                    return f"{exc.code().name}: {exc.details()}"

            async def now_and_then() -> list[str]:
                await asyncio.sleep(0.2)  # once the flood is in
                return [await one(light, i) for i in range(5)]  # one at a time, each after its answer

            for i in range(3):  # admission measures a few searches first
                await one(flood, i)
            for _ in range(3):  # until a flood is refused in part (the first, almost always)
                flooded, asked = await asyncio.gather(
                    asyncio.gather(*(one(flood, i) for i in range(1500))), now_and_then()
                )
                if any(r.startswith("RESOURCE_EXHAUSTED") for r in flooded):
                    break
            return list(flooded), asked

    flooded, asked = asyncio.run(run())
    refused = [r for r in flooded if r.startswith("RESOURCE_EXHAUSTED")]
    print(f"flood: {len(flooded) - len(refused)} answered, {len(refused)} refused; now and then: {asked}")
    assert refused and all("coordinator overloaded" in r for r in refused), sorted(set(flooded))[:3]
    assert asked == ["OK"] * 5, asked
