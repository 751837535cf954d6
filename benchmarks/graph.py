"""Measure the graph modality on the development corpora against jedi's ground truth.

    .venv/bin/python benchmarks/graph.py --dev ~/fourfold-dev --out graph-bench.json

All corpora are segmented with ingestion's ``segment_file`` and built into one global shard (as
the graph modality is deployed). Then, per Python suite, every ``find_references`` and
``impact_analysis`` row is asked through the shard directly:

- find_references: file recall@20 (share of relevant files among the top 20 hits' files) and
  call-site line recall (share of relevant lines among the hits' ``match_lines``), at 20 hits and
  at every hit returned;
- impact_analysis: recall@20 (a relevant definition is covered when a hit in the same file
  covers its first line), the suite's own matching rule.

Also: build time and peak memory scaled per 100k definitions, PageRank time, and callers /
impact (depth 3) latency p50/p95. ``--misses N`` prints N reference lines jedi found and the
graph did not, with the source line, to read the disagreements.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path
from typing import Any

from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.resolve import build_graph
from fourfold.plugins.graph.store import centrality_of
from fourfold.plugins.ingest.segment import segment_file
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import Hit, ModalityQuery, Segment

EXTENSIONS = {".py": "python", ".js": "javascript", ".mjs": "javascript", ".ts": "typescript", ".go": "go"}
SKIP_DIRS = {".git", "node_modules", "vendor", "build", "dist", ".tox", ".venv"}


def corpus_segments(root: Path, repo: str) -> list[Segment]:
    out: list[Segment] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            language = EXTENSIONS.get(os.path.splitext(name)[1])
            if language is None:
                continue
            path = Path(folder) / name
            out.extend(segment_file(repo, path.relative_to(root).as_posix(), language, path.read_bytes()).segments)
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def covered_lines(hits: tuple[Hit, ...] | list[Hit]) -> set[tuple[str, str, int]]:
    return {(h.repo, h.path, line) for h in hits for line in h.match_lines}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", type=Path, default=Path.home() / "fourfold-dev")
    ap.add_argument("--corpora", default="click,httpx,rich,express")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--misses", type=int, default=0, help="print this many missed reference lines")
    args = ap.parse_args()
    names = [n for n in args.corpora.split(",") if (args.dev / "corpora" / n).is_dir()]

    segments: list[Segment] = []
    for name in names:
        segments.extend(corpus_segments(args.dev / "corpora" / name, name))
    definitions = sum(1 for s in segments if s.is_definition)

    started = time.perf_counter()
    data = build_graph(segments)
    graph_s = time.perf_counter() - started
    tracemalloc.start()  # a second, traced build: tracing slows it too much to time
    build_graph(segments)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    started = time.perf_counter()
    centrality_of(data)
    pagerank_s = time.perf_counter() - started

    modality = GraphModality()
    with tempfile.TemporaryDirectory() as tmp:
        shard_dir = Path(tmp) / "graph"
        started = time.perf_counter()
        stats = modality.build(segments, shard_dir, BuildContext(generation="bench", shard="all", repos=tuple(names)))
        build_s = time.perf_counter() - started
        started = time.perf_counter()
        shard = modality.load(shard_dir)
        load_s = time.perf_counter() - started

        per_suite: dict[str, dict[str, Any]] = {}
        latency: dict[str, list[float]] = defaultdict(list)
        misses: list[tuple[str, str, int]] = []
        for name in names:
            suite = args.dev / "suites" / f"{name}.jsonl"
            rows = [json.loads(line) for line in suite.read_text().splitlines()] if suite.exists() else []
            ref_rows = [r for r in rows if r["intent"] == "find_references"]
            imp_rows = [r for r in rows if r["intent"] == "impact_analysis"]
            if not ref_rows and not imp_rows:
                continue
            file_recall, line_recall20, line_recall_all, impact_recall = [], [], [], []
            for row in ref_rows:
                t0 = time.perf_counter()
                result = shard.search(ModalityQuery(text=row["query"], k=1000, intent=row["intent"]))
                latency["callers"].append(time.perf_counter() - t0)
                top = result.hits[:20]
                files = {(r["repo"], r["path"]) for r in row["relevant"]}
                lines = {(r["repo"], r["path"], r["line"]) for r in row["relevant"]}
                file_recall.append(len(files & {(h.repo, h.path) for h in top}) / len(files))
                line_recall20.append(len(lines & covered_lines(top)) / len(lines))
                found_all = covered_lines(result.hits)
                line_recall_all.append(len(lines & found_all) / len(lines))
                misses.extend(sorted(lines - found_all))
            for row in imp_rows:
                t0 = time.perf_counter()
                result = shard.search(ModalityQuery(text=row["query"], k=20, intent=row["intent"]))
                latency["impact"].append(time.perf_counter() - t0)
                relevant = row["relevant"]
                hit_any = sum(1 for r in relevant if any(h.repo == r["repo"] and h.path == r["path"]
                                                         and h.start_line <= r["line"] <= h.end_line
                                                         for h in result.hits[:20]))
                impact_recall.append(hit_any / len(relevant))
            per_suite[name] = {
                "references_queries": len(ref_rows),
                "references_file_recall@20": round(statistics.fmean(file_recall), 4) if file_recall else None,
                "references_line_recall@20": round(statistics.fmean(line_recall20), 4) if line_recall20 else None,
                "references_line_recall@all": round(statistics.fmean(line_recall_all), 4) if line_recall_all else None,
                "impact_queries": len(imp_rows),
                "impact_recall@20": round(statistics.fmean(impact_recall), 4) if impact_recall else None,
            }
        shard.close()

    scale = 100_000 / max(definitions, 1)
    report = {
        "corpora": names,
        "segments": len(segments),
        "definitions": definitions,
        "nodes": len(data.nodes),
        "usage_edges": sum(1 for k in data.edges if k[2] != 0),
        "build_s": round(build_s, 3),
        "graph_build_s": round(graph_s, 3),
        "build_s_per_100k_definitions": round(graph_s * scale, 2),
        "build_peak_mib_per_100k_definitions": round(peak / 2**20 * scale, 1),
        "pagerank_s": round(pagerank_s, 4),
        "shard_bytes": stats.bytes_on_disk,
        "load_s": round(load_s, 4),
        "callers_latency_ms_p50": round(percentile(latency["callers"], 0.5) * 1000, 2),
        "callers_latency_ms_p95": round(percentile(latency["callers"], 0.95) * 1000, 2),
        "impact_latency_ms_p50": round(percentile(latency["impact"], 0.5) * 1000, 2),
        "impact_latency_ms_p95": round(percentile(latency["impact"], 0.95) * 1000, 2),
        "suites": per_suite,
    }
    width = max(len(k) for k in report)
    for key, value in report.items():
        if key != "suites":
            print(f"{key:<{width}}  {value}")
    columns = ["references_file_recall@20", "references_line_recall@20", "references_line_recall@all",
               "impact_recall@20"]
    print(f"\n{'suite':<10}" + "".join(f"{c:>30}" for c in columns))
    for name, row in per_suite.items():
        print(f"{name:<10}" + "".join(f"{row[c]!s:>30}" for c in columns))
    if args.misses:
        print(f"\n{len(misses)} reference lines jedi found and the graph did not; a sample:")
        for repo, path, line in misses[: args.misses]:
            text = (args.dev / "corpora" / repo / path).read_text(errors="replace").splitlines()[line - 1]
            print(f"  {repo}/{path}:{line}: {text.strip()[:110]}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
