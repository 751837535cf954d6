"""The identifier strategy, before and after: latency of bare-name queries and quality on the dev suites.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/identifier.py --home /tmp/ffhome-ident \\
        --suites /tmp/ident-eval/suites [--rounds 5] [--out bench-results/identifier.json]

``--home`` holds an index of the suites' corpora (each indexed under its suite's name; see
``../shared/eval/README.md`` and ``make_suite.py`` for building suites from any checkout). Every
query is asked through an in-process :class:`Engine` twice, interleaved: *before* with
``options["identifier"] = "off"`` (the strategy's switch, which plans the search exactly as
before it existed) and *after* as a caller asks it. Reported:

* quality per suite file and intent, before and after: success@1, recall@10 and MRR@10 as
  ``fourfold eval`` scores them (``coordinator/evaluate.py``), routing accuracy, and the share of
  answers the strategy gave (``fusion_strategy == "identifier"``);
* the same on *bare-name* variants of the find_definition and find_references rows (the query is
  the name alone: what a user types), where references are scored by file recall@10/@20;
* latency of the bare-name queries: medians over ``--rounds`` interleaved rounds (A, B, A, B ...),
  with the load average, as a ratio in one run;
* the index evidence's two designs: the exact-name lookup the strategy asks (its latency) against a
  coordinator-held name set (its load time and memory for this store).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sqlite3
import statistics
import sys
import time
import tracemalloc
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from fourfold.api import Answer, SearchParams
from fourfold.coordinator import evaluate
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.evaluate import EvalQuery, HitSpan, Outcome
from fourfold.index.store import IndexStore

ROOT = Path(__file__).resolve().parents[1]
OFF = {"identifier": "off"}
#: Lone lowercase words a user may type: the index's evidence decides whether each is an identifier
#: (a defined name is answered as one; the others pay the exact lookup and are routed as classified).
LONE_WORDS = (
    "retry", "timeout", "encoding", "redirect", "cookies", "template", "install", "license", "unicode",
    "proxies", "autoescape", "getfixturevalue", "echo", "prompt", "stream",
)  # fmt: skip
_NAME = re.compile(
    r"^(?:where is |def |who calls |usages of |references to |callers of |what calls )?([A-Za-z_$][\w$.]*)"
    r"(?: defined)?$"
)


def bare(q: EvalQuery) -> EvalQuery | None:
    """The row asked as the name alone (None: no single name in it)."""
    m = _NAME.match(q.query.strip())
    return replace(q, id=q.id + "-bare", query=m.group(1)) if m else None


def outcome(q: EvalQuery, a: Answer, ms: float) -> Outcome:
    hits = tuple(HitSpan(f.hit.repo, f.hit.path, f.hit.start_line, f.hit.end_line, f.hit.match_lines) for f in a.hits)
    return Outcome(q, hits, a.intent, ms, partial=a.partial, notes=tuple(a.notes))


def file_recall(outcomes: Sequence[Outcome], k: int) -> float:
    """Share of relevant files among the top-k hits' files (references are scored by file)."""
    total = 0.0
    for o in outcomes:
        want = {(r.repo, r.path) for r in o.query.relevant}
        got = {(h.repo, h.path) for h in o.hits[:k]}
        total += len(want & got) / max(len(want), 1)
    return total / max(len(outcomes), 1)


def at_depth(outcomes: Sequence[Outcome], k: int) -> dict[str, Any]:
    """The numbers every relations-style benchmark reports of ``outcomes`` at depth ``k``: success@1, MRR@10, file
    recall@k, recall@k and the zero-result rate."""
    return {
        "n": len(outcomes),
        "s@1": evaluate.success_at(outcomes, 1),
        "mrr@10": evaluate.mrr_at(outcomes, 10),
        f"file_recall@{k}": file_recall(outcomes, k),
        f"recall@{k}": evaluate.recall_at(outcomes, k),
        "zero": evaluate.zero_result_rate(outcomes),
    }


def score(outcomes: Sequence[Outcome], strategies: Sequence[str]) -> dict[str, Any]:
    return {
        "n": len(outcomes),
        "s@1": evaluate.success_at(outcomes, 1),
        "s@10": evaluate.success_at(outcomes, 10),
        "recall@10": evaluate.recall_at(outcomes, 10),
        "file_recall@10": file_recall(outcomes, 10),
        "file_recall@20": file_recall(outcomes, 20),
        "mrr@10": evaluate.mrr_at(outcomes, 10),
        "routing": evaluate.routing_accuracy(outcomes),
        "zero": evaluate.zero_result_rate(outcomes),
        "identifier_share": sum(s == "identifier" for s in strategies) / max(len(strategies), 1),
        "p50_ms": statistics.median(o.latency_ms for o in outcomes) if outcomes else 0.0,
    }


async def run_pairs(engine: Engine, queries: Sequence[EvalQuery], k: int) -> dict[str, tuple[list[Outcome], list[str]]]:
    """Each query before and after (alternating which goes first), as outcomes and strategies."""
    out: dict[str, tuple[list[Outcome], list[str]]] = {"before": ([], []), "after": ([], [])}
    for i, q in enumerate(queries):
        order = ("before", "after") if i % 2 == 0 else ("after", "before")
        for side in order:
            p = SearchParams(q.query, k=k, options=OFF if side == "before" else {})
            t0 = time.perf_counter()
            a = await engine.search(p)
            ms = (time.perf_counter() - t0) * 1000
            out[side][0].append(outcome(q, a, ms))
            out[side][1].append(a.fusion_strategy)
    return out


async def latency(engine: Engine, names: Sequence[str], rounds: int, k: int) -> dict[str, Any]:
    """Median ms of each side over interleaved rounds, per query and overall."""
    samples: dict[str, dict[str, list[float]]] = {"before": defaultdict(list), "after": defaultdict(list)}
    strategy: dict[str, str] = {}
    for r in range(rounds):
        for i, name in enumerate(names):
            order = ("before", "after") if (i + r) % 2 == 0 else ("after", "before")
            for side in order:
                p = SearchParams(name, k=k, options=OFF if side == "before" else {})
                t0 = time.perf_counter()
                a = await engine.search(p)
                samples[side][name].append((time.perf_counter() - t0) * 1000)
                if side == "after":
                    strategy[name] = a.fusion_strategy
    before_ms = {name: statistics.median(samples["before"][name]) for name in names}
    after_ms = {name: statistics.median(samples["after"][name]) for name in names}
    per = {
        name: {"before_ms": before_ms[name], "after_ms": after_ms[name], "strategy": strategy[name]} for name in names
    }
    by_strategy: dict[str, dict[str, float]] = {}
    for s in sorted(set(strategy.values())):
        chosen = [n for n in names if strategy[n] == s]
        b_ms = statistics.median(before_ms[n] for n in chosen)
        a_ms = statistics.median(after_ms[n] for n in chosen)
        by_strategy[s] = {"n": len(chosen), "before_ms": b_ms, "after_ms": a_ms, "ratio": b_ms / a_ms}
    before = statistics.median(before_ms.values())
    after = statistics.median(after_ms.values())
    return {
        "rounds": rounds,
        "queries": len(names),
        "median_before_ms": before,
        "median_after_ms": after,
        "speedup": before / after,
        "by_strategy": by_strategy,
        "per_query": per,
    }


def name_set_cost(store: IndexStore) -> dict[str, Any]:
    """The alternative design: every (name, repository) of the live generation's structural shards in memory."""
    reader = store.reader(store.live_generation() or "")
    specs = [s for s in reader.shards() if s.modality == "structural"]
    tracemalloc.start()
    t0 = time.perf_counter()
    names: dict[str, set[str]] = defaultdict(set)
    for spec in specs:
        db = sqlite3.connect(f"{(reader.shard_dir(spec) / 'structural.sqlite').resolve().as_uri()}?mode=ro", uri=True)
        try:
            query = "SELECT DISTINCT lname, repo FROM defs"  # format 1; format 2 keeps repo per file
            if db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'files'").fetchone():
                query = "SELECT DISTINCT coalesce(d.lname, d.name), f.repo FROM defs d JOIN files f ON f.id = d.file"
            for lname, repo in db.execute(query):
                names[lname].add(repo)
        finally:
            db.close()
    load_s = time.perf_counter() - t0
    current, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    reader.close()
    return {"names": len(names), "shards": len(specs), "load_ms": load_s * 1000, "bytes": current}


async def lookup_cost(engine: Engine, names: Sequence[str], rounds: int) -> dict[str, float]:
    """The strategy's evidence: structural's exact-name lookup through the engine, median ms."""
    ms = []
    for _ in range(rounds):
        for name in names:
            t0 = time.perf_counter()
            await engine.search(SearchParams(name, k=30, intent="find_definition", modalities=("structural",)))
            ms.append((time.perf_counter() - t0) * 1000)
    return {"median_ms": statistics.median(ms), "p95_ms": evaluate.percentile(ms, 95), "n": len(ms)}


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def table(rows: list[tuple[str, str, dict[str, Any], dict[str, Any]]], metrics: Sequence[str]) -> str:
    head = "| set | intent | n | " + " | ".join(f"{m} before → after" for m in metrics) + " | identifier share |"
    lines = [head, "|" + "---|" * (4 + len(metrics))]
    for name, intent, b, a in rows:
        cells = " | ".join(f"{_pct(b[m])} → {_pct(a[m])}" for m in metrics)
        lines.append(f"| {name} | {intent} | {a['n']} | {cells} | {a['identifier_share']:.2f} |")
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    store = IndexStore(args.home)
    engine = Engine(store)
    try:
        suites = {p.stem: evaluate.load_suite(p) for p in sorted(args.suites.glob("*.jsonl"))}
        await engine.search(SearchParams("warm up the shards", k=5))  # load every shard once
        quality: dict[str, Any] = {}
        rows: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = []
        pooled: dict[str, dict[str, tuple[list[Outcome], list[str]]]] = {}
        for suite, queries in suites.items():
            runs = await run_pairs(engine, queries, args.k)
            by_intent: dict[str, list[int]] = defaultdict(list)
            for i, q in enumerate(queries):
                by_intent[q.intent or "-"].append(i)
            for intent, idx in sorted(by_intent.items()):
                b = score([runs["before"][0][i] for i in idx], [runs["before"][1][i] for i in idx])
                a = score([runs["after"][0][i] for i in idx], [runs["after"][1][i] for i in idx])
                quality[f"{suite}/{intent}"] = {"before": b, "after": a}
                rows.append((suite, intent, b, a))
                for side in ("before", "after"):
                    pool = pooled.setdefault(intent, {"before": ([], []), "after": ([], [])})[side]
                    pool[0].extend(runs[side][0][i] for i in idx)
                    pool[1].extend(runs[side][1][i] for i in idx)
            print(f"{suite}: {len(queries)} queries", file=sys.stderr)
        for intent, sides in sorted(pooled.items()):
            b, a = score(*sides["before"]), score(*sides["after"])
            quality[f"all/{intent}"] = {"before": b, "after": a}
            rows.append(("all", intent, b, a))
        # bare-name variants of the definition and reference rows
        bare_rows: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = []
        bare_quality: dict[str, Any] = {}
        bare_names: list[str] = []
        for intent in ("find_definition", "find_references"):
            variants = [
                v for qs in suites.values() for q in qs if q.intent == intent for v in [bare(q)] if v is not None
            ]
            seen: set[str] = set()
            variants = [v for v in variants if not (v.query in seen or seen.add(v.query))]  # type: ignore[func-returns-value]
            runs = await run_pairs(engine, variants, args.k)
            b, a = score(*runs["before"]), score(*runs["after"])
            bare_quality[intent] = {"before": b, "after": a}
            bare_rows.append(("bare names", intent, b, a))
            bare_names.extend(v.query for v in variants)
            print(f"bare {intent}: {len(variants)} queries", file=sys.stderr)
        names = sorted(set(bare_names))[: args.latency_queries]
        load_before = os.getloadavg()
        lat = await latency(engine, names, args.rounds, args.k)
        words = await latency(engine, LONE_WORDS, args.rounds, args.k)
        lookup = await lookup_cost(engine, names, 1)
        load_after = os.getloadavg()
    finally:
        await engine.stop()
    name_set = name_set_cost(store)
    metrics = ("s@1", "recall@10", "mrr@10", "routing")
    report = {
        "home": str(args.home),
        "suites": sorted(suites),
        "k": args.k,
        "loadavg": {"before": load_before, "after": load_after},
        "quality": quality,
        "bare": bare_quality,
        "latency": lat,
        "lone_words": words,
        "evidence": {"exact_lookup": lookup, "name_set": name_set},
        "strategies_after": dict(Counter(v["strategy"] for v in lat["per_query"].values())),
    }
    text = [
        "## Suites as written (before → after)",
        table(rows, metrics),
        "",
        "## Bare-name variants",
        table(bare_rows, ("s@1", "recall@10", "file_recall@10", "file_recall@20", "mrr@10")),
        "",
        f"## Latency of {lat['queries']} bare names, {lat['rounds']} interleaved rounds, medians "
        f"(load {load_before[0]:.2f} → {load_after[0]:.2f})",
        "| answered by | n | before ms | after ms | before/after |",
        "|---|---|---|---|---|",
        *(
            f"| {s} | {v['n']} | {v['before_ms']:.1f} | {v['after_ms']:.1f} | {v['ratio']:.2f}× |"
            for s, v in lat["by_strategy"].items()
        ),
        f"| all | {lat['queries']} | {lat['median_before_ms']:.1f} | {lat['median_after_ms']:.1f} "
        f"| {lat['speedup']:.2f}× |",
        "",
        f"## Latency of {words['queries']} lone lowercase words (the index decides), same rounds",
        "| answered by | n | before ms | after ms | before/after |",
        "|---|---|---|---|---|",
        *(
            f"| {s} | {v['n']} | {v['before_ms']:.1f} | {v['after_ms']:.1f} | {v['ratio']:.2f}× |"
            for s, v in words["by_strategy"].items()
        ),
        "",
        "## Index evidence",
        f"exact-name lookup through the engine: median {lookup['median_ms']:.2f} ms, p95 {lookup['p95_ms']:.2f} ms; "
        f"a coordinator-held name set: {name_set['names']:,} names from {name_set['shards']} shards, "
        f"load {name_set['load_ms']:.0f} ms, {name_set['bytes'] / 1e6:.1f} MB",
    ]
    report["table"] = "\n".join(text)
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True, help="FOURFOLD_HOME with the suites' corpora indexed")
    ap.add_argument("--suites", type=Path, required=True, help="folder of suite .jsonl files")
    ap.add_argument("--k", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--latency-queries", type=int, default=60)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "identifier.json")
    args = ap.parse_args(argv)
    report = asyncio.run(main_async(args))
    print(report["table"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    args.out.with_suffix(".txt").write_text(report["table"] + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
