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
