"""Load benchmark: C concurrent gRPC clients against a running coordinator, a mix of intents.

    python benchmarks/load.py [--seconds 10] [--concurrency 1,8,32,64] [--out bench-results/load.json]

Starts `fourfold serve` (a real deployment: local Ray, workers, coordinator) over an index of
fourfold's own source, once with one replica per shard and once with two, and drives it from this
process with grpc.aio clients for a fixed time per concurrency level. Reports QPS, p50/p99,
errors by status, partial answers; then, with two replicas, SIGKILLs one text worker midway.
Client and server share this machine's cores: the load generator's own CPU use is in the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent

QUERIES = [
    ("direct", "def build_generation"),
    ("direct", "class EndpointRegistry"),
    ("direct", "def segment_file"),
    ("direct", '"no index in"'),
    ("direct", "who calls walk_repository"),
    ("direct", "def fuse"),
    ("fused", "how does weighted rank fusion work"),
    ("fused", "where is parse_replicas defined"),
    ("fused", "explain how workers are discovered"),
    ("fused", "retry a failed shard call"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


async def drive(
    address: str, concurrency: int, seconds: float, kill_at: float | None = None, victim_pid: int = 0
) -> dict[str, Any]:
    from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

    lat: dict[str, list[float]] = collections.defaultdict(list)
    errors: collections.Counter[str] = collections.Counter()
    partial = 0
    done = 0
    stop_at = time.monotonic() + seconds
    start = time.monotonic()
    killed = False
    async with grpc.aio.insecure_channel(address) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)

        async def client(i: int) -> None:
            nonlocal partial, done, killed
            rng = random.Random(i)
            while time.monotonic() < stop_at:
                if kill_at is not None and not killed and time.monotonic() - start >= kill_at:
                    killed = True
                    os.kill(victim_pid, signal.SIGKILL)
                path, q = rng.choice(QUERIES)
                t0 = time.perf_counter()
                try:
                    r = await stub.Search(coordinator_pb2.SearchRequest(query=q, k=10, deadline_ms=2000), timeout=5)
                    lat[path].append((time.perf_counter() - t0) * 1000)
                    partial += r.partial
                    done += 1
                except grpc.aio.AioRpcError as exc:
                    errors[exc.code().name] += 1
                    if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                        await asyncio.sleep(0.01)  # a polite client backs off

        await asyncio.gather(*(client(i) for i in range(concurrency)))
    elapsed = time.monotonic() - start
    return {
        "concurrency": concurrency,
        "seconds": round(elapsed, 2),
        "requests": done,
        "qps": round(done / elapsed, 1),
        "errors": dict(errors),
        "partial": partial,
        **{f"{p}_p50_ms": round(statistics.median(v), 2) for p, v in lat.items() if v},
        **{f"{p}_p99_ms": round(pct(v, 0.99), 2) for p, v in lat.items() if v},
        "all_p50_ms": round(statistics.median([x for v in lat.values() for x in v]), 2) if done else None,
        "all_p99_ms": round(pct([x for v in lat.values() for x in v], 0.99), 2) if done else None,
    }


def start_server(home: Path, replicas: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    address = f"127.0.0.1:{free_port()}"
    args = [sys.executable, "-m", "fourfold", "serve", "--address", address]
    if replicas > 1:
        for m in ("semantic", "text", "structural", "graph"):
            args += ["--replicas", f"{m}={replicas}"]
    proc = subprocess.Popen(
        args,
        env={**os.environ, "FOURFOLD_HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=open(log, "wb"),  # noqa: SIM115 - the server writes to it until it is killed
    )
    from fourfold.connection import WireClient

    deadline = time.monotonic() + 180
    with WireClient(address) as c:
        while time.monotonic() < deadline:
            if c.healthy(1.0):
                return proc, address
            if proc.poll() is not None:
                raise RuntimeError(f"fourfold serve exited: {log.read_text()[-2000:]}")
            time.sleep(0.5)
    raise TimeoutError("fourfold serve did not become healthy")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()


def text_worker_pid(address: str, home: Path) -> int:
    from fourfold.connection import WireClient
    from fourfold.v1 import worker_pb2, worker_pb2_grpc
    from fourfold.workers.auth import METADATA_KEY, worker_secret

    with WireClient(address) as c:
        s = c.status()
    shard = next(sh for sh in s.shards if sh.modality == "text" and sh.generation == s.generation)
    with grpc.insecure_channel(shard.address) as ch:
        return (
            worker_pb2_grpc.ModalityWorkerStub(ch)
            .Info(worker_pb2.InfoRequest(), timeout=5, metadata=((METADATA_KEY, worker_secret(home)),))
            .pid
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--concurrency", default="1,8,32,64")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    levels = [int(c) for c in args.concurrency.split(",")]

    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    work = Path(tempfile.mkdtemp(prefix="fourfold-load-"))
    home = work / "home"
    summary = build_generation(IndexStore(home), [(ROOT, "fourfold")])
    print(f"corpus: fourfold's own source, {summary.files} files, {summary.segments} segments", flush=True)
    rows: list[dict[str, Any]] = []
    for replicas in (1, 2):
        proc, address = start_server(home, replicas, work / f"serve-{replicas}.log")
        try:
            asyncio.run(drive(address, 4, 3.0))  # warm-up
            for c in levels:
                row = asyncio.run(drive(address, c, args.seconds))
                row.update(replicas=replicas, fault="")
                rows.append(row)
                print(json.dumps(row), flush=True)
            if replicas == 2:
                pid = text_worker_pid(address, home)
                row = asyncio.run(drive(address, 8, args.seconds, kill_at=args.seconds / 3, victim_pid=pid))
                row.update(replicas=replicas, fault=f"SIGKILL text worker pid {pid} at {args.seconds / 3:.0f}s")
                rows.append(row)
                print(json.dumps(row), flush=True)
        finally:
            stop_server(proc)
    print()
    print(
        f"{'replicas':>8} {'C':>3} {'QPS':>7} {'p50 ms':>8} {'p99 ms':>8} {'direct p50':>10} {'fused p50':>9} "
        f"{'errors':>16} {'partial':>7}  fault"
    )
    for r in rows:
        print(
            f"{r['replicas']:>8} {r['concurrency']:>3} {r['qps']:>7} {r['all_p50_ms']!s:>8} {r['all_p99_ms']!s:>8} "
            f"{r.get('direct_p50_ms', '-')!s:>10} {r.get('fused_p50_ms', '-')!s:>9} {json.dumps(r['errors']):>16} "
            f"{r['partial']:>7}  {r['fault']}"
        )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"corpus_files": summary.files, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
