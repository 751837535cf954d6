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

``--system`` asks the same suites through the whole system instead: the corpora are indexed
with ``build_generation`` (graph, structural and text; centrality on) into a fresh home, an
``EmbeddedServer`` (local Ray, graph worker, coordinator) serves it, and a gRPC ``Client`` asks
every row twice: as classified (``SearchParams(query, k=20)``) and graph only
(``modalities=("graph",)``). Besides the recalls it reports precision (call-site lines returned
that jedi does not list; impact hits covering no relevant definition) and what the coordinator's
dedup to one segment per file costs line recall: the graph shard's own top 20 (before dedup),
and the recall the answer would have if each kept hit carried the call-site lines of its file's
dropped segments. ``--sample N`` prints N extra and N missed lines to judge who was right.

With the graph partitioned by repository (the default), ``--system``'s shard-level numbers come
from every partition asked in-process and merged with the coordinator's own follow-up rounds
(``LocalGraph``). ``--compare-sharding`` indexes the corpora twice (graph only: one partition per
repository, and ``graph.sharding=global``), serves each, asks every find_references and
impact_analysis row graph-only through gRPC, and reports per sharding the recalls, callers and
impact latency p50/p95, their ratio partitioned / global, and the follow-up rounds impact took.

``--scale LINES`` builds a Python corpus of at least LINES lines (the dev corpora, then the
packages in site-packages, each under its own repository name), indexes it through
``build_generation`` (graph only, as the single graph ``graph.sharding=global``, centrality on),
and reports build time and peak memory per 100k definitions, PageRank time over the stored graph,
and callers / impact (depth 3) latency p50/p95 through the system for sampled definitions that
have callers.
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

import numpy as np

from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.resolve import build_graph
from fourfold.plugins.graph.store import centrality_of
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import Hit, ModalityQuery, Segment, ShardResult

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
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def covered_lines(hits: tuple[Hit, ...] | list[Hit]) -> set[tuple[str, str, int]]:
    return {(h.repo, h.path, line) for h in hits for line in h.match_lines}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", type=Path, default=Path.home() / "fourfold-dev")
    ap.add_argument("--corpora", default="click,httpx,rich,express")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--misses", type=int, default=0, help="print this many missed reference lines")
    ap.add_argument("--system", action="store_true", help="ask through gRPC -> coordinator -> graph worker")
    ap.add_argument("--sample", type=int, default=0, help="with --system: print this many disagreements each way")
    ap.add_argument("--scale", type=int, default=0, metavar="LINES", help="build and time a Python corpus this big")
    ap.add_argument("--workdir", type=Path, help="where --system / --scale put their home (default: a temp folder)")
    ap.add_argument(
        "--compare-sharding",
        action="store_true",
        help="partitioned vs global graph through the system: recalls, latency ratio, follow-up rounds",
    )
    args = ap.parse_args()
    if args.system or args.scale or args.compare_sharding:
        report = (
            measure_scale(args)
            if args.scale
            else measure_sharding(args)
            if args.compare_sharding
            else measure_system(args)
        )
        if args.out:
            args.out.write_text(json.dumps(report, indent=2))
        return
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
                hit_any = sum(
                    1
                    for r in relevant
                    if any(
                        h.repo == r["repo"] and h.path == r["path"] and h.start_line <= r["line"] <= h.end_line
                        for h in result.hits[:20]
                    )
                )
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
    columns = [
        "references_file_recall@20",
        "references_line_recall@20",
        "references_line_recall@all",
        "impact_recall@20",
    ]
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


# --- through the whole system ----------------------------------------------------------------------


def _lines_of(hits: Any) -> set[tuple[str, str, int]]:
    return {(h.repo, h.path, line) for h in hits for line in h.match_lines}


def _source_line(dev: Path, repo: str, path: str, line: int) -> str:
    try:
        return (dev / "corpora" / repo / path).read_text(errors="replace").splitlines()[line - 1].strip()[:100]
    except (OSError, IndexError):
        return "?"


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def measure_system(args: argparse.Namespace) -> dict[str, Any]:
    """The suites through gRPC -> coordinator -> graph worker (see the module docstring)."""
    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    names = [n for n in args.corpora.split(",") if (args.dev / "corpora" / n).is_dir()]
    work = args.workdir or Path(tempfile.mkdtemp(prefix="fourfold-graph-system-"))
    home = work / "home"
    if IndexStore(home).live_generation() is None:
        started = time.perf_counter()
        build_generation(
            IndexStore(home), [(args.dev / "corpora" / n, n) for n in names], modalities=["graph", "structural", "text"]
        )
        print(f"indexed {', '.join(names)} in {time.perf_counter() - started:.1f}s", flush=True)
    reader = IndexStore(home).require_live()
    shard = LocalGraph(reader)
    reader.close()

    # "graph_repo" asks within the suite's own repository: a bare name ("who calls group") is ambiguous
    # across the indexed repositories, and jedi's list covers one definition in one of them
    modes: dict[str, dict[str, Any]] = {"classified": {}, "graph": {"modalities": ("graph",)}, "graph_repo": {}}
    report: dict[str, Any] = {"corpora": names, "suites": {}}
    extra_sample: list[tuple[str, str, int, str]] = []
    missed_sample: list[tuple[str, str, int, str]] = []
    latency: dict[str, list[float]] = defaultdict(list)
    with EmbeddedServer(home) as server, WireClient(server.address, timeout_s=120) as client:
        client.search(SearchParams(query="who calls main", k=20))  # warm-up: channels, shard load
        for name in names:
            suite = args.dev / "suites" / f"{name}.jsonl"
            rows = [json.loads(line) for line in suite.read_text().splitlines()] if suite.exists() else []
            ref_rows = [r for r in rows if r["intent"] == "find_references"]
            imp_rows = [r for r in rows if r["intent"] == "impact_analysis"]
            if not ref_rows and not imp_rows:
                continue
            per_mode: dict[str, dict[str, Any]] = {}
            modes["graph_repo"] = {"modalities": ("graph",), "repos": (name,)}
            for mode, extra in modes.items():
                m: dict[str, list[float]] = defaultdict(list)
                routed: dict[str, int] = defaultdict(int)
                for row in ref_rows:
                    t0 = time.perf_counter()
                    answer = client.search(SearchParams(query=row["query"], k=20, **extra))  # type: ignore[arg-type]
                    latency[f"{mode}:callers"].append(time.perf_counter() - t0)
                    routed[f"{answer.intent}/{answer.fusion_strategy}"] += 1
                    hits = list(answer.hits)[:20]
                    files = {(r["repo"], r["path"]) for r in row["relevant"]}
                    lines = {(r["repo"], r["path"], r["line"]) for r in row["relevant"]}
                    got = _lines_of(hits)
                    m["file_recall@20"].append(len(files & {(h.repo, h.path) for h in hits}) / len(files))
                    m["line_recall@20"].append(len(lines & got) / len(lines))
                    if got:
                        m["line_precision@20"].append(len(got & lines) / len(got))
                    if mode == "graph":
                        # the shard's own top 20 (before the coordinator's one-segment-per-file dedup), and
                        # the answer's files with every graph call site in them (what folding would keep)
                        direct = shard.search(ModalityQuery(text=row["query"], k=1000, intent=row["intent"]))
                        m["line_recall_shard@20"].append(len(lines & _lines_of(direct.hits[:20])) / len(lines))
                        answer_files = {(h.repo, h.path) for h in hits}
                        folded = {x for x in _lines_of(direct.hits) if (x[0], x[1]) in answer_files}
                        m["line_recall_folded@20"].append(len(lines & folded) / len(lines))
                        m["segments_per_file_shard@20"].append(
                            len(direct.hits[:20]) / max(1, len({(h.repo, h.path) for h in direct.hits[:20]}))
                        )
                        for x in sorted(got - lines)[:2]:
                            extra_sample.append((*x, row["query"]))
                        for x in sorted((lines & _lines_of(direct.hits)) - got)[:1]:
                            missed_sample.append((*x, row["query"] + " [dropped by dedup]"))
                        for x in sorted(lines - _lines_of(direct.hits))[:2]:
                            missed_sample.append((*x, row["query"]))
                for row in imp_rows:
                    t0 = time.perf_counter()
                    answer = client.search(SearchParams(query=row["query"], k=20, **extra))  # type: ignore[arg-type]
                    latency[f"{mode}:impact"].append(time.perf_counter() - t0)
                    routed[f"{answer.intent}/{answer.fusion_strategy}"] += 1
                    hits = list(answer.hits)[:20]
                    relevant = row["relevant"]

                    def covers(h: Any, r: dict[str, Any]) -> bool:
                        return bool(
                            h.repo == r["repo"] and h.path == r["path"] and h.start_line <= r["line"] <= h.end_line
                        )

                    m["impact_recall@20"].append(sum(any(covers(h, r) for h in hits) for r in relevant) / len(relevant))
                    if mode == "graph":  # the shard's own top 20: before one segment per file
                        direct = shard.search(ModalityQuery(text=row["query"], k=20, intent=row["intent"]))
                        m["impact_recall_shard@20"].append(
                            sum(any(covers(h, r) for h in direct.hits) for r in relevant) / len(relevant)
                        )
                        # jedi lists direct dependents only: precision is fair at depth 1
                        near = shard.search(
                            ModalityQuery(text=row["query"], k=20, intent=row["intent"], options={"depth": "1"})
                        ).hits
                        if near:
                            m["impact_precision_depth1_shard@20"].append(
                                sum(any(covers(h, r) for r in relevant) for h in near) / len(near)
                            )
                    if hits:
                        m["impact_precision@20"].append(
                            sum(any(covers(h, r) for r in relevant) for h in hits) / len(hits)
                        )
                per_mode[mode] = {key: _mean(values) for key, values in m.items()}
                per_mode[mode]["routed"] = dict(routed)
            report["suites"][name] = per_mode
            print(name, json.dumps(per_mode), flush=True)
    shard.close()
    report["latency_ms"] = {
        key: {"p50": round(percentile(v, 0.5) * 1000, 2), "p95": round(percentile(v, 0.95) * 1000, 2)}
        for key, v in sorted(latency.items())
    }
    columns = ["file_recall@20", "line_recall@20", "line_precision@20", "impact_recall@20", "impact_precision@20"]
    print(f"\n{'suite/mode':<20}" + "".join(f"{c:>22}" for c in columns))
    for name, per_mode in report["suites"].items():
        for mode, row in per_mode.items():
            print(f"{name + '/' + mode:<20}" + "".join(f"{row.get(c)!s:>22}" for c in columns))
    dedup = [
        "line_recall@20",
        "line_recall_shard@20",
        "line_recall_folded@20",
        "segments_per_file_shard@20",
        "impact_recall@20",
        "impact_recall_shard@20",
        "impact_precision_depth1_shard@20",
    ]
    print(f"\ndedup, graph only: {'suite':<8}" + "".join(f"{c:>34}" for c in dedup))
    for name, per_mode in report["suites"].items():
        print(f"{'':<19}{name:<8}" + "".join(f"{per_mode['graph'].get(c)!s:>34}" for c in dedup))
    print("\nlatency ms:", json.dumps(report["latency_ms"]))
    if args.sample:
        print(f"\nlines the graph returned and jedi does not list (sample of {len(extra_sample)}):")
        for repo, path, line, query in extra_sample[:: max(1, len(extra_sample) // args.sample)][: args.sample]:
            print(f"  [{query}] {repo}/{path}:{line}: {_source_line(args.dev, repo, path, line)}")
        print(f"\nlines jedi lists and the answer does not (sample of {len(missed_sample)}):")
        for repo, path, line, query in missed_sample[:: max(1, len(missed_sample) // args.sample)][: args.sample]:
            print(f"  [{query}] {repo}/{path}:{line}: {_source_line(args.dev, repo, path, line)}")
    return report


class LocalGraph:
    """Every graph shard of a generation, asked in-process the way the coordinator asks them: each
    shard, then the follow-up rounds (``follow_up_rounds``), merged by ``merge_shards``."""

    def __init__(self, reader: Any) -> None:
        self.shards = {s.shard: (s.repos, GraphModality().load(reader.root / s.folder)) for s in reader.shards("graph")}
        self.rounds: list[int] = []  # follow-up rounds of each search

    def search(self, query: ModalityQuery) -> ShardResult:
        import asyncio

        from fourfold.coordinator.engine import follow_up_rounds
        from fourfold.coordinator.fusion import merge_shards
        from fourfold.coordinator.searcher import ShardAnswer

        async def ask(modality: str, shard: str, q: ModalityQuery) -> ShardAnswer:
            return ShardAnswer(modality, shard, self.shards[shard][1].search(q), 0.0)

        async def run() -> list[ShardAnswer]:
            first = [await ask("graph", name, query) for name in self.shards]
            covering = {"graph": [(name, repos) for name, (repos, _) in self.shards.items()]}
            more = await follow_up_rounds(first, query, covering, ask, time.monotonic() + 60)
            self.rounds.append(more.rounds)
            return [*first, *more.answers]

        results = [a.result for a in asyncio.run(run()) if a.result is not None]
        return ShardResult(
            hits=tuple(merge_shards([r.hits for r in results], query.k)),
            total_matches=sum(r.total_matches for r in results),
            notes=tuple(dict.fromkeys(n for r in results for n in r.notes)),
        )

    def close(self) -> None:
        for _, shard in self.shards.values():
            shard.close()


def measure_sharding(args: argparse.Namespace) -> dict[str, Any]:
    """Partitioned vs global graph through gRPC -> coordinator -> graph workers (see the module docstring)."""
    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    names = [n for n in args.corpora.split(",") if (args.dev / "corpora" / n).is_dir()]
    work = args.workdir or Path(tempfile.mkdtemp(prefix="fourfold-graph-sharding-"))
    suites = {
        n: [json.loads(line) for line in (args.dev / "suites" / f"{n}.jsonl").read_text().splitlines()]
        for n in names
        if (args.dev / "suites" / f"{n}.jsonl").exists()
    }
    report: dict[str, Any] = {"corpora": names}
    for sharding in ("global", "partitioned"):
        home = work / sharding
        if IndexStore(home).live_generation() is None:
            started = time.perf_counter()
            build_generation(
                IndexStore(home),
                [(args.dev / "corpora" / n, n) for n in names],
                modalities=["graph"],
                settings={"graph.sharding": sharding} if sharding == "global" else {},
            )
            print(f"{sharding}: indexed in {time.perf_counter() - started:.1f}s", flush=True)
        m: dict[str, list[float]] = defaultdict(list)
        rounds: list[int] = []
        with EmbeddedServer(home) as server, WireClient(server.address, timeout_s=120) as client:
            client.search(SearchParams(query="who calls main", k=20, modalities=("graph",)))  # warm-up
            for rows in suites.values():
                for row in rows:
                    if row["intent"] not in ("find_references", "impact_analysis"):
                        continue
                    t0 = time.perf_counter()
                    answer = client.search(SearchParams(query=row["query"], k=20, modalities=("graph",)))
                    elapsed = time.perf_counter() - t0
                    hits = list(answer.hits)[:20]
                    if row["intent"] == "find_references":
                        m["callers_s"].append(elapsed)
                        files = {(r["repo"], r["path"]) for r in row["relevant"]}
                        lines = {(r["repo"], r["path"], r["line"]) for r in row["relevant"]}
                        m["file_recall@20"].append(len(files & {(h.repo, h.path) for h in hits}) / len(files))
                        m["line_recall@20"].append(len(lines & _lines_of(hits)) / len(lines))
                    else:
                        m["impact_s"].append(elapsed)
                        rounds.append(
                            max(
                                [int(t.stage.split(":")[1]) for t in answer.timings if t.stage.startswith("follow_up:")]
                                or [0]
                            )
                        )
                        relevant = row["relevant"]
                        m["impact_recall@20"].append(
                            sum(
                                any(
                                    h.repo == r["repo"]
                                    and h.path == r["path"]
                                    and h.start_line <= r["line"] <= h.end_line
                                    for h in hits
                                )
                                for r in relevant
                            )
                            / len(relevant)
                        )
            shards = sorted(sh.shard for sh in client.status().shards if sh.modality == "graph")
        report[sharding] = {
            "graph_shards": len(shards),
            **{k: _mean(v) for k, v in m.items() if not k.endswith("_s")},
            **{
                f"{k[:-2]}_ms_{q}": round(percentile(v, p) * 1000, 2)
                for k, v in m.items()
                if k.endswith("_s")
                for q, p in (("p50", 0.5), ("p95", 0.95))
            },
            "impact_follow_up_rounds": {str(r): rounds.count(r) for r in sorted(set(rounds))},
        }
        print(sharding, json.dumps(report[sharding]), flush=True)
    report["latency_ratio_partitioned_over_global"] = {
        key: round(report["partitioned"][key] / report["global"][key], 2)
        for key in report["global"]
        if key.endswith(("_p50", "_p95")) and report["global"][key]
    }
    print("ratio partitioned / global:", json.dumps(report["latency_ratio_partitioned_over_global"]))
    return report


# --- scale ------------------------------------------------------------------------------------------


def python_corpus(dest: Path, dev: Path, target_lines: int) -> tuple[list[tuple[Path, str]], int]:
    """Copy Python sources under ``dest/<repo>`` until ``target_lines``: the dev corpora, then site-packages
    (each package as ``site-<name>``)."""
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"])
    roots = [(p.name, p) for n in ("click", "httpx", "rich") if (p := dev / "corpora" / n).is_dir()]
    roots += [
        (f"site-{p.name}", p)
        for p in sorted(site.iterdir())
        if p.is_dir() and not p.name.endswith((".dist-info", "__pycache__")) and not p.name.startswith(("_", "."))
    ]
    repos: list[tuple[Path, str]] = []
    total = 0
    for name, root in roots:
        if total >= target_lines:
            break
        out = dest / name
        lines = 0
        for source in sorted(root.rglob("*.py")):
            if not source.is_file() or source.is_symlink() or source.stat().st_size > 1 << 20:
                continue
            target = out / source.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = source.read_bytes()
            target.write_bytes(data)
            lines += data.count(b"\n")
        if lines:
            repos.append((out, name))
            total += lines
    return repos, total


def measure_scale(args: argparse.Namespace) -> dict[str, Any]:
    """Build a big Python corpus through ``build_generation`` and time the graph through the system."""
    import random
    import resource

    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore
    from fourfold.plugins.graph.centrality import scaled_pagerank
    from fourfold.plugins.graph.resolve import CALL
    from fourfold.plugins.graph.store import USAGE_KINDS

    work = args.workdir or Path(tempfile.mkdtemp(prefix="fourfold-graph-scale-"))
    corpus, home = work / "corpus", work / "home"
    repos, lines = python_corpus(corpus, args.dev, args.scale)
    print(f"corpus: {lines} Python lines in {len(repos)} repositories", flush=True)
    stamps: dict[str, float] = {}
    rss: dict[str, int] = {}

    def progress(stage: str, done: int, total: int, message: str) -> None:
        key = f"{stage}:{done}"
        stamps.setdefault(key, time.perf_counter())
        rss[key] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    started = time.perf_counter()
    # the single graph: the stored shard is sampled and its PageRank timed (--compare-sharding compares layouts)
    summary = build_generation(
        IndexStore(home), repos, modalities=["graph"], progress=progress, settings={"graph.sharding": "global"}
    )
    index_s = time.perf_counter() - started
    graph_s = stamps["build:graph:1"] - stamps["centrality:0"]  # centrality pass + shard write (reusing it)
    graph_rss_kib = rss["build:graph:1"] - rss["centrality:0"]  # growth of the peak while the graph was built
    reader = IndexStore(home).require_live()
    shard = GraphModality().load(reader.root / reader.shards("graph")[0].folder)
    reader.close()
    g = shard.graph
    definitions = sum(1 for i in range(g.size) if g.symbol[i] is not None)
    usage = np.isin(g.edge_kind, USAGE_KINDS)
    t0 = time.perf_counter()
    scaled_pagerank(g.size, g.src[usage], g.dst[usage], g.weight[usage].astype(np.float64))
    pagerank_s = time.perf_counter() - t0
    called = np.unique(g.dst[g.edge_kind == CALL])
    candidates = [int(n) for n in called if g.kind[int(n)] in ("function", "method") and g.symbol[int(n)]]
    sample = random.Random(7).sample(candidates, min(200, len(candidates)))
    latency: dict[str, list[float]] = defaultdict(list)
    with EmbeddedServer(home) as server, WireClient(server.address, timeout_s=120) as client:
        client.search(SearchParams(query="who calls main", k=20, modalities=("graph",)))
        for node in sample:
            name = g.qualified_name[node] or g.symbol[node]
            for kind, params in (
                ("callers", SearchParams(query=f"who calls {name}", k=20, modalities=("graph",))),
                (
                    "impact_depth3",
                    SearchParams(
                        query=f"impact of changing {name}", k=20, modalities=("graph",), options={"depth": "3"}
                    ),
                ),
            ):
                t0 = time.perf_counter()
                client.search(params)
                latency[kind].append(time.perf_counter() - t0)
    shard.close()
    scale = 100_000 / max(definitions, 1)
    report = {
        "python_lines": lines,
        "repositories": len(repos),
        "files": summary.files,
        "segments": summary.segments,
        "definitions": definitions,
        "nodes": g.size,
        "usage_edges": int(usage.sum()),
        "index_s": round(index_s, 1),
        "graph_build_s": round(graph_s, 1),
        "centrality_pass_s": round(stamps["centrality:1"] - stamps["centrality:0"], 1),
        "shard_build_s": round(stamps["build:graph:1"] - stamps["centrality:1"], 1),
        "graph_build_s_per_100k_definitions": round(graph_s * scale, 1),
        "graph_peak_rss_growth_mib_per_100k_definitions": round(graph_rss_kib / 1024 * scale, 1),
        "process_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "pagerank_s": round(pagerank_s, 3),
        "queries": len(sample),
        **{
            f"{kind}_ms_{q}": round(percentile(v, p) * 1000, 2)
            for kind, v in latency.items()
            for q, p in (("p50", 0.5), ("p95", 0.95))
        },
    }
    for key, value in report.items():
        print(f"{key:<48} {value}")
    return report


if __name__ == "__main__":
    main()
