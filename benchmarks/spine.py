"""Spine benchmark: indexing throughput and end-to-end search latency on fourfold's own source.

    python benchmarks/spine.py [--out bench-results/spine.json] [--queries 60]

Indexes the repository (in-process build) into a fresh FOURFOLD_HOME, starts the embedded
deployment (local Ray cluster, workers, coordinator's gRPC server), then times searches through
a gRPC client: the direct path (confident definition queries: structural only) and the fused
path (understanding queries, preset thorough: all four modalities), with the per-stage breakdown
the coordinator reports (classify, fan-out, fuse).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--queries", type=int, default=60, help="queries per path")
    args = ap.parse_args(argv)

    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    home = Path(tempfile.mkdtemp(prefix="fourfold-bench-"))
    store = IndexStore(home)
    t = time.perf_counter()
    summary = build_generation(store, [(ROOT, "fourfold")])
    cold = time.perf_counter() - t
    t = time.perf_counter()
    build_generation(store, [])
    warm = time.perf_counter() - t

    symbols = sorted(
        {s.symbol for s in store.require_live().segments() if s.symbol and s.kind in ("function", "method", "class")}
    )
    symbols = symbols[:: max(1, len(symbols) // args.queries)][: args.queries]
    questions = [
        "how does weighted rank fusion work",
        "how are generations switched atomically",
        "why do actors use num_cpus 0",
        "explain how the coordinator finds workers",
        "how are files skipped when binary",
        "how is a shard built",
        "how does the text index verify matches",
        "explain centrality boost",
        "how are endpoints re-resolved after restart",
        "how does the semantic modality rescore binary codes",
    ]
    paths = {
        "direct": [SearchParams(query=f"def {s}", k=10) for s in symbols],
        "fused": [
            SearchParams(query=questions[i % len(questions)], k=10, preset="thorough") for i in range(args.queries)
        ],
    }
    rows = {}
    with EmbeddedServer(home) as server, WireClient(server.address) as client:
        for name, queries in paths.items():
            for p in queries[:5]:
                client.search(p)  # warm-up: channels, lazy model loads
            e2e, stages = [], {"classify": [], "fanout": [], "fuse": []}
            strategies = set()
            for p in queries:
                t0 = time.perf_counter()
                r = client.search(p)
                e2e.append((time.perf_counter() - t0) * 1000)
                strategies.add(r.fusion_strategy)
                for st in r.timings:
                    if st.stage in stages:
                        stages[st.stage].append(st.ms)
            rows[name] = {
                "queries": len(queries),
                "strategy": sorted(strategies),
                "p50_ms": statistics.median(e2e),
                "p95_ms": pct(e2e, 0.95),
                **{f"{s}_p50_ms": statistics.median(v) for s, v in stages.items()},
            }
    result = {
        "corpus": {"files": summary.files, "segments": summary.segments, "bytes": summary.bytes},
        "index": {
            "cold_s": cold,
            "warm_s": warm,
            "files_per_s": summary.files / cold,
            "mb_per_s": summary.bytes / 1e6 / cold,
        },
        "search": rows,
    }
    print(
        f"corpus: fourfold's own source, {summary.files} files, {summary.segments} segments, {summary.bytes / 1e6:.2f} "
        "MB"
    )
    print(
        f"index (cold, all four modalities): {cold:.1f} s = {result['index']['files_per_s']:.1f} files/s, "
        f"{result['index']['mb_per_s']:.3f} MB/s; rebuild with nothing changed: {warm:.1f} s"
    )
    print(
        f"{'path':<8} {'n':>4} {'strategy':<9} {'p50 ms':>8} {'p95 ms':>8} {'classify':>9} {'fan-out':>8} {'fuse':>7}"
    )
    for name, r in rows.items():
        print(
            f"{name:<8} {r['queries']:>4} {','.join(r['strategy']):<9} {r['p50_ms']:>8.2f} {r['p95_ms']:>8.2f} "
            f"{r['classify_p50_ms']:>9.3f} {r['fanout_p50_ms']:>8.2f} {r['fuse_p50_ms']:>7.3f}"
        )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
