"""What securing the worker plane costs: one worker call, plaintext vs TLS, both with the secret.

Two in-process ``ShardServer`` workers serve the same text shard of fourfold's own source: one
from a store whose worker plane is plaintext, one from a copy whose store holds the worker TLS
material. A ``FanOut``-style channel (secret metadata; pinned certificate for TLS) calls
``SearchShards`` on each, interleaved (A, B, A, B ...), and the medians are compared as a ratio in
the same run. A third series calls the plaintext worker without the secret, to time a refusal.

    .venv/bin/python benchmarks/worker_plane.py [--calls 300] [--out bench-results/worker_plane.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import grpc

from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.types import ModalityQuery
from fourfold.v1 import worker_pb2_grpc
from fourfold.workers.auth import SecretMetadata, ensure_worker_tls, worker_secret
from fourfold.workers.convert import query_to_pb
from fourfold.workers.servicer import ShardServer

ROOT = Path(__file__).resolve().parent.parent


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(calls: int, work: Path) -> dict[str, object]:
    plain_home = work / "plain"
    build_generation(IndexStore(plain_home), [(ROOT / "coordinator", "coordinator")], modalities=["text"])
    tls_home = work / "tls"
    shutil.copytree(plain_home, tls_home)
    tls = ensure_worker_tls(tls_home)
    gen = IndexStore(plain_home).require_live()
    shard = gen.shards()[0].shard
    servers = {
        "plaintext": ShardServer(str(plain_home / "generations" / gen.name), "text", [shard]),
        "tls": ShardServer(str(tls_home / "generations" / gen.name), "text", [shard]),
    }
    channels = {
        "plaintext": grpc.aio.insecure_channel(
            await servers["plaintext"].address(), interceptors=[SecretMetadata(worker_secret(plain_home))]
        ),
        "tls": grpc.aio.secure_channel(
            await servers["tls"].address(),
            tls.channel_credentials(),
            options=tls.channel_options(),
            interceptors=[SecretMetadata(worker_secret(tls_home))],
        ),
        "refused": grpc.aio.insecure_channel(await servers["plaintext"].address()),
    }
    request = query_to_pb(ModalityQuery(text="deadline", k=10, intent="exact_match"), gen.name)
    stubs = {name: worker_pb2_grpc.ModalityWorkerStub(ch) for name, ch in channels.items()}
    times: dict[str, list[float]] = {name: [] for name in stubs}
    for _ in range(20):  # warm-up: handshakes, caches
        for stub in stubs.values():
            with contextlib.suppress(grpc.aio.AioRpcError):
                await stub.SearchShards(request, timeout=10)
    for _ in range(calls):
        for name, stub in stubs.items():
            t0 = time.perf_counter()
            try:
                await stub.SearchShards(request, timeout=10)
            except grpc.aio.AioRpcError as exc:
                assert name == "refused" and exc.code() == grpc.StatusCode.UNAUTHENTICATED
            times[name].append((time.perf_counter() - t0) * 1000)
    for ch in channels.values():
        await ch.close()
    for server in servers.values():
        await server.stop()
    rows = {
        name: {"p50_ms": round(statistics.median(t), 3), "p95_ms": round(pct(t, 0.95), 3), "calls": len(t)}
        for name, t in times.items()
    }
    return {
        "rows": rows,
        "tls_over_plaintext_p50": round(rows["tls"]["p50_ms"] / rows["plaintext"]["p50_ms"], 3),
        "load_average": os.getloadavg(),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "worker_plane.json")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(measure(args.calls, Path(tmp)))
    print(f"{'worker call':<12} {'p50 ms':>8} {'p95 ms':>8} {'calls':>6}")
    for name, row in result["rows"].items():  # type: ignore[attr-defined]
        print(f"{name:<12} {row['p50_ms']:>8} {row['p95_ms']:>8} {row['calls']:>6}")
    print(f"TLS / plaintext p50: {result['tls_over_plaintext_p50']}; load average {result['load_average']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
