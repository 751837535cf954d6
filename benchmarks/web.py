"""Web benchmark: what the search page and the HTTP API add over the gRPC answer.

    python benchmarks/web.py [--out bench-results/web.json] [--rounds 3] [--source coordinator]

Indexes a folder of fourfold's own source (``--source``, default ``coordinator/``), starts the
embedded deployment (Ray, workers, the coordinator's gRPC server) and ``fourfold web`` as its own
process, as it is deployed. Then, for the same queries, interleaved (gRPC, API, page, gRPC, ...):

- ``grpc``: ``fourfold.Client.search`` straight to the coordinator;
- ``api``: ``GET /api/v1/search`` (HTTP keep-alive) — the web process's search plus JSON encoding;
- ``page``: ``GET /?q=...`` — the search plus the hits' lines (ReadFile), Pygments and the template.

Overhead is each path's median minus gRPC's median (and the median of per-query differences);
the target is ≤ 20 ms p50 for the API and the page. The load average is recorded: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 20.0


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--rounds", type=int, default=3, help="passes over the query list")
    ap.add_argument("--source", default="coordinator", help="folder of this repository to index")
    args = ap.parse_args(argv)

    import httpx

    from fourfold import Client
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    work = Path(tempfile.mkdtemp(prefix="fourfold-web-bench-"))
    repo = work / "src"
    shutil.copytree(ROOT / args.source, repo, ignore=shutil.ignore_patterns("__pycache__"))
    store = IndexStore(work / "home")
    t = time.perf_counter()
    summary = build_generation(store, [(repo, "src")])
    print(f"indexed {summary.files} files, {summary.segments} segments in {time.perf_counter() - t:.1f} s", flush=True)
    symbols = sorted(
        {s.symbol for s in store.require_live().segments() if s.symbol and s.kind in ("function", "class")}
    )
    queries = [
        *symbols[:: max(1, len(symbols) // 30)][:30],
        "how are search results fused",
        "where is the bearer token checked",
        '"RESOURCE_EXHAUSTED"',
        "who calls answer_to_pb",
    ]

    paths = ("grpc", "api", "page")
    times: dict[str, list[float]] = {p: [] for p in paths}
    stages: dict[str, list[float]] = {}  # the page's own Server-Timing breakdown
    with EmbeddedServer(store.home) as server:
        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "FOURFOLD_TOKEN": ""}
        proc = subprocess.Popen(
            [sys.executable, "-m", "fourfold", "web", "--address", server.address, "--listen", f"127.0.0.1:{port}"],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            with Client(server.address) as grpc_client, httpx.Client(base_url=base, timeout=30) as http:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        if http.get("/healthz").status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("fourfold web did not start")
                    time.sleep(0.1)

                def run(path: str, q: str) -> float:
                    t0 = time.perf_counter()
                    if path == "grpc":
                        grpc_client.search(q, k=10)
                    else:
                        r = http.get("/api/v1/search" if path == "api" else "/", params={"q": q, "k": "10"})
                        if r.status_code != 200:
                            raise SystemExit(f"{path} {q!r}: HTTP {r.status_code} {r.text[:200]}")
                        for part in r.headers.get("server-timing", "").split(","):
                            name, _, dur = part.strip().partition(";dur=")
                            if dur:
                                stages.setdefault(name, []).append(float(dur))
                    return (time.perf_counter() - t0) * 1000

                for q in queries[:8]:  # warm-up: caches, connections, lexers
                    for p in paths:
                        run(p, q)
                load_before = os.getloadavg()
                for r in range(args.rounds):
                    for i, q in enumerate(queries):
                        order = paths if (i + r) % 2 == 0 else tuple(reversed(paths))
                        for p in order:
                            times[p].append(run(p, q))
                load_after = os.getloadavg()
        finally:
            proc.terminate()
            proc.wait(timeout=20)

    grpc_p50 = statistics.median(times["grpc"])
    rows = []
    for p in paths:
        v = times[p]
        paired = [a - b for a, b in zip(v, times["grpc"], strict=True)]
        rows.append(
            {
                "path": p,
                "n": len(v),
                "p50_ms": round(statistics.median(v), 2),
                "p90_ms": round(pct(v, 0.9), 2),
                "p99_ms": round(pct(v, 0.99), 2),
                "overhead_p50_ms": round(statistics.median(v) - grpc_p50, 2),
                "paired_overhead_p50_ms": round(statistics.median(paired), 2),
            }
        )
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min); {os.cpu_count()} CPUs")
    print(f"{'path':6} {'n':>4} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'over p50':>9} {'paired':>8}")
    for row in rows:
        print(
            f"{row['path']:6} {row['n']:>4} {row['p50_ms']:>8.2f} {row['p90_ms']:>8.2f} {row['p99_ms']:>8.2f} "
            f"{row['overhead_p50_ms']:>9.2f} {row['paired_overhead_p50_ms']:>8.2f}"
        )
    breakdown = {name: round(statistics.median(v), 2) for name, v in stages.items()}
    print("page stages, p50 ms: " + ", ".join(f"{k} {v:.2f}" for k, v in breakdown.items()))
    ok = all(r["paired_overhead_p50_ms"] <= TARGET_MS for r in rows if r["path"] != "grpc")
    print(f"target: overhead p50 <= {TARGET_MS:.0f} ms for api and page: {'met' if ok else 'NOT met'}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        report = {
            "benchmark": "web",
            "source": args.source,
            "files": summary.files,
            "segments": summary.segments,
            "queries": len(queries),
            "rounds": args.rounds,
            "loadavg_before": load_before,
            "loadavg_after": load_after,
            "cpus": os.cpu_count(),
            "target_ms": TARGET_MS,
            "target_met": ok,
            "rows": rows,
            "page_stages_p50_ms": breakdown,
        }
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
