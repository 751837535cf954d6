"""Overload benchmark: N simultaneous searches, with and without admission control, interleaved.

    python benchmarks/overload.py [--burst 100] [--rounds 3] [--deadline-ms 5000] [--out bench-results/overload.json]

One real deployment (local Ray, workers, the coordinator's gRPC server) over an index of
fourfold's coordinator source; more gRPC servers on the same engine and event loop run the
coordinator service three ways: ``before``, admission control off (only the fixed in-flight limit
of 256, the behaviour before it); ``after``, admission control, the callers saying no gRPC timeout
(a deadline counts from when the coordinator reads the call); ``said``, admission control, the
callers saying their timeout as fourfold's clients do (``fourfold-timeout-ms``: the deadline counts
from the call's arrival, a wait to be read taken off it). Bursts go to each in turn (A, B, C, A,
B, C ...): per burst the ok, partial and refused counts, the admitted answered after their
deadline (``late``), and the p50/p99 latency of the admitted searches; the table shows medians
over the rounds and the load average (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERIES = (
    "how are the workers discovered",
    "retry a failed shard call",
    "where is the deadline of a search checked",
    "how does weighted rank fusion work",
    "def fuse",
)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


async def burst(address: str, n: int, deadline_ms: int, say_timeout: bool = False) -> dict[str, Any]:
    from fourfold.connection import TIMEOUT_KEY, millis
    from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

    async with grpc.aio.insecure_channel(address) as channel:
        stub = coordinator_pb2_grpc.CoordinatorStub(channel)

        async def one(i: int) -> tuple[str, float, bool]:
            request = coordinator_pb2.SearchRequest(query=QUERIES[i % len(QUERIES)], k=10, deadline_ms=deadline_ms)
            t0 = time.perf_counter()
            try:
                metadata = (millis(TIMEOUT_KEY, 60),) if say_timeout else ()
                r = await stub.Search(request, timeout=60, metadata=metadata)
                return "OK", time.perf_counter() - t0, r.partial
            except grpc.aio.AioRpcError as exc:
                return exc.code().name, time.perf_counter() - t0, False

        t0 = time.perf_counter()
        results = await asyncio.gather(*(one(i) for i in range(n)))
        wall = time.perf_counter() - t0
    admitted = [s for code, s, _ in results if code == "OK"]
    refused = [s for code, s, _ in results if code == "RESOURCE_EXHAUSTED"]
    return {
        "ok": sum(1 for code, _, partial in results if code == "OK" and not partial),
        "partial": sum(1 for code, _, partial in results if code == "OK" and partial),
        "refused": len(refused),
        "errors": sum(1 for code, _, _ in results if code not in ("OK", "RESOURCE_EXHAUSTED")),
        "late": sum(1 for s in admitted if s * 1000 > deadline_ms),
        "admitted_p50_ms": pct(admitted, 0.5) * 1000,
        "admitted_p99_ms": pct(admitted, 0.99) * 1000,
        "refused_p50_ms": pct(refused, 0.5) * 1000,
        "wall_s": wall,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--burst", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--deadline-ms", type=int, default=5000)
    ap.add_argument("--budget-fraction", type=float, default=None, help="admission budget (default: the policy's)")
    ap.add_argument("--home", type=Path, default=None, help="an indexed FOURFOLD_HOME (default: index coordinator/)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "overload.json")
    args = ap.parse_args(argv)

    from fourfold.coordinator.admission import AdmissionPolicy
    from fourfold.coordinator.service import CoordinatorService
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore
    from fourfold.v1 import coordinator_pb2_grpc
    from fourfold.workers.server_options import server_options

    home = args.home
    if home is None:
        home = Path(tempfile.mkdtemp(prefix="ff-overload-")) / "home"
        print("indexing coordinator/ ...", flush=True)
        build_generation(IndexStore(home), [(ROOT / "coordinator", "coordinator")])
    rows: dict[str, list[dict[str, Any]]] = {"before": [], "after": [], "said": []}
    with EmbeddedServer(home) as server:
        assert server._running is not None and server._running.engine is not None
        engine = server._running.engine

        async def admission_server() -> tuple[grpc.aio.Server, str]:
            s = grpc.aio.server(options=server_options())
            policy = (
                AdmissionPolicy()
                if args.budget_fraction is None
                else AdmissionPolicy(budget_fraction=args.budget_fraction)
            )
            coordinator_pb2_grpc.add_CoordinatorServicer_to_server(CoordinatorService(engine, admission=policy), s)
            port = s.add_insecure_port("127.0.0.1:0")
            await s.start()
            return s, f"127.0.0.1:{port}"

        async def legacy_server() -> tuple[grpc.aio.Server, str]:
            s = grpc.aio.server(options=server_options())
            coordinator_pb2_grpc.add_CoordinatorServicer_to_server(
                CoordinatorService(engine, admission=AdmissionPolicy(adaptive=False)), s
            )
            port = s.add_insecure_port("127.0.0.1:0")
            await s.start()
            return s, f"127.0.0.1:{port}"

        legacy, legacy_address = asyncio.run_coroutine_threadsafe(legacy_server(), server._loop).result(60)
        admitting, admitting_address = asyncio.run_coroutine_threadsafe(admission_server(), server._loop).result(60)
        saying, saying_address = asyncio.run_coroutine_threadsafe(admission_server(), server._loop).result(60)
        targets = {"before": legacy_address, "after": admitting_address, "said": saying_address}
        for label, address in targets.items():  # warm each (and let admission measure a few searches)
            for _ in range(3):
                asyncio.run(burst(address, 1, args.deadline_ms, label == "said"))
        for r in range(args.rounds):
            for label in rows:
                row = asyncio.run(burst(targets[label], args.burst, args.deadline_ms, label == "said"))
                rows[label].append(row)
                print(f"round {r + 1} {label:6}: {json.dumps({k: round(v, 1) for k, v in row.items()})}", flush=True)
        for s in (legacy, admitting, saying):
            asyncio.run_coroutine_threadsafe(s.stop(None), server._loop).result(30)
    load = os.getloadavg()
    keys = ("ok", "partial", "refused", "errors", "late", "admitted_p50_ms", "admitted_p99_ms", "refused_p50_ms")
    medians = {label: {k: statistics.median(row[k] for row in rs) for k in keys} for label, rs in rows.items()}
    budget = AdmissionPolicy().budget_fraction if args.budget_fraction is None else args.budget_fraction
    print(
        f"\n{args.burst} simultaneous searches, deadline {args.deadline_ms} ms, admission budget {budget:.2f} "
        f"of the deadline, median of {args.rounds} rounds"
    )
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"{'':8}" + "".join(f"{k:>17}" for k in keys))
    for label in rows:
        print(f"{label:8}" + "".join(f"{medians[label][k]:>17.1f}" for k in keys))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "burst": args.burst,
                "deadline_ms": args.deadline_ms,
                "budget_fraction": budget,
                "rounds": rows,
                "medians": medians,
                "loadavg": load,
            },
            indent=1,
        )
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
