"""Bug reports -> files: the localize intent against the routing before it, on a SWE-bench Lite dev suite.

Usage:  PYTHONPATH=$PWD python benchmarks/localize.py SUITE.jsonl [--json bench-results/localize.json]

SUITE is what ``shared/eval/swebench_dev.py OUT`` writes (``OUT/suites/swebench-dev.jsonl``); every
``OUT/corpora/<repo>`` must be indexed under its name in ``$FOURFOLD_HOME``. Each issue is asked within
its own repository, in process (the engine and its shards, no server), three ways, interleaved:

* ``localize``: as classified now (a pasted report is the localize intent);
* ``lexical``: the localize plan over text and structural only (on a store with embeddings, what
  the semantic evidence adds; on one without, the same as ``localize``);
* ``before``: as classified before the localize intent (``options["localize"]="off"``): the issue
  text goes down whatever path its quotes, error names or identifiers chose;
* ``text-bm25``: the text modality's BM25 over the whole issue, one hit per file (the anchor).

Prints file success@1/@5/@10, MRR@10, the zero-result rate, the routing each way took and latency
p50; writes the same as JSON, with the load average. ``--functions benchmarks/data/swebench-lite-functions.json``
(written by ``benchmarks/swebench_functions.py`` from the projects' fix commits) adds function
success@1/@5/@10: a relevant file in the top k answered with a function the fix changed.

``--routing-check`` also classifies every phrasing of the routing benchmark (``routing_phrasings.py``:
short questions, names, quoted strings, pasted traces and snippets) with and without the localize
rule and counts those whose intent changed: a short query must keep its routing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

from fourfold.api import SearchParams
from fourfold.config import fourfold_home
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.intent import classify
from fourfold.index.store import IndexStore

VARIANTS = ("localize", "lexical", "before", "text-bm25")


def params_for(variant: str, query: str, repo: str, k: int) -> SearchParams:
    if variant == "localize":
        return SearchParams(query=query[:10_000], k=k, repos=(repo,))
    if variant == "lexical":  # the same plan without the semantic evidence: what the embeddings add
        return SearchParams(
            query=query[:10_000], k=k, repos=(repo,), intent="localize", modalities=("text", "structural")
        )
    if variant == "before":
        return SearchParams(query=query[:10_000], k=k, repos=(repo,), options={"localize": "off"})
    return SearchParams(
        query=query[:8_000],
        k=k,
        repos=(repo,),
        intent="understand_code",
        modalities=("text",),
        options={"mode": "bm25"},
    )


async def run(suite: list[dict], k: int, variants: tuple[str, ...] = VARIANTS) -> dict[str, list[dict]]:
    engine = Engine(IndexStore(fourfold_home()))
    out: dict[str, list[dict]] = {v: [] for v in variants}
    try:
        for row in suite:
            relevant = {r["path"] for r in row["relevant"]}
            for variant in variants:
                t0 = time.perf_counter()
                answer = await engine.search(params_for(variant, row["query"], row["repo"], k))
                ms = (time.perf_counter() - t0) * 1000
                files: list[str] = []
                symbols: list[str] = []  # each file's first hit's symbol (the function the answer points at)
                for h in answer.hits:
                    if h.hit.path not in files:
                        files.append(h.hit.path)
                        symbols.append(h.hit.symbol or "")
                rank = next((i + 1 for i, f in enumerate(files) if f in relevant), None)
                out[variant].append(
                    {
                        "id": row["id"],
                        "rank": rank,
                        "hits": len(files),
                        "intent": answer.intent,
                        "ms": round(ms, 1),
                        "top": files[:3],
                        "files": files,
                        "symbols": symbols,
                        "relevant": sorted(relevant),
                    }
                )
            print(
                f"{row['id']:<32} " + " ".join(f"{v}={out[v][-1]['rank']}" for v in variants),
                file=sys.stderr,
                flush=True,
            )
    finally:
        await engine.stop()
    return out


def function_rank(row: dict, functions: dict[str, list[str]]) -> int | None:
    """The rank of the first file that is relevant and whose hit names a function the fix changed
    (the symbol's last part: ``Class.method`` -> ``method``), or None."""
    for i, (path, symbol) in enumerate(zip(row.get("files", []), row.get("symbols", []), strict=True), 1):
        if symbol and symbol.rsplit(".", 1)[-1] in functions.get(path, ()):
            return i
    return None


def summarize(rows: list[dict], gold: dict[str, dict[str, list[str]]] | None = None) -> dict[str, float]:
    n = len(rows)

    def s_at(k: int) -> float:
        return sum(1 for r in rows if r["rank"] and r["rank"] <= k) / n

    out = {
        "n": n,
        "s@1": s_at(1),
        "s@5": s_at(5),
        "s@10": s_at(10),
        "mrr@10": sum(1 / r["rank"] for r in rows if r["rank"] and r["rank"] <= 10) / n,
        "zero": sum(1 for r in rows if r["hits"] == 0) / n,
        "p50_ms": statistics.median(r["ms"] for r in rows),
    }
    labelled = [r for r in rows if gold and any(gold.get(r["id"], {}).values())]
    if gold is not None and labelled:
        ranks = [function_rank(r, gold[r["id"]]) for r in labelled]
        out["fn_n"] = len(labelled)
        for k in (1, 5, 10):
            out[f"fn_s@{k}"] = sum(1 for x in ranks if x and x <= k) / len(labelled)
    return out


def routing_check() -> dict[str, object]:
    """The routing phrasings classified with and without the localize rule: how many changed intent."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from routing_phrasings import generate, names_from_source

    phrasings = list(generate(names_from_source(Path(__file__).resolve().parent.parent), per_template=60))
    changed: dict[str, int] = {}
    right = {"before": 0, "now": 0}
    for p in phrasings:
        before, now = classify(p.text, reports=False), classify(p.text)
        right["before"] += before.intent == p.intent
        right["now"] += now.intent == p.intent
        if before.intent != now.intent:
            key = f"{p.intent}: {before.intent} -> {now.intent}"
            changed[key] = changed.get(key, 0) + 1
    n = len(phrasings)
    return {
        "phrasings": n,
        "accuracy_before": right["before"] / n,
        "accuracy_now": right["now"] / n,
        "changed": changed,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("suite", type=Path)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--variant", action="append", choices=VARIANTS, help="run only these (repeatable; default: all)")
    ap.add_argument(
        "--functions",
        type=Path,
        default=None,
        help="JSON list of {id, functions: {path: [names]}} (the functions each fix changed): also report "
        "function success@k (a relevant file in the top k whose hit names one of them)",
    )
    ap.add_argument("--routing-check", action="store_true", help="also check the routing phrasings keep their intent")
    args = ap.parse_args()
    routing = routing_check() if args.routing_check else None
    if routing is not None:
        print(
            f"routing phrasings: {routing['phrasings']}, accuracy {routing['accuracy_before']:.4f} before, "
            f"{routing['accuracy_now']:.4f} now; changed: {routing['changed'] or 'none'}"
        )
    suite = [json.loads(line) for line in args.suite.read_text().splitlines() if line.strip()]
    load = os.getloadavg()
    out = asyncio.run(run(suite, args.k, tuple(args.variant or VARIANTS)))
    gold = {g["id"]: g["functions"] for g in json.loads(args.functions.read_text())} if args.functions else None
    summary = {v: summarize(rows, gold) for v, rows in out.items()}
    print(f"\n{len(suite)} issues, load average {load[0]:.2f}")
    print(
        f"{'variant':<10} {'s@1':>5} {'s@5':>5} {'s@10':>5} {'MRR@10':>6} {'zero':>5} {'p50 ms':>7}"
        + ("  fn s@1 fn s@5 fn s@10 (n)" if gold else "")
        + "  routed as"
    )
    for v, s in summary.items():
        routes: dict[str, int] = {}
        for r in out[v]:
            routes[r["intent"]] = routes.get(r["intent"], 0) + 1
        print(
            f"{v:<10} {s['s@1']:5.3f} {s['s@5']:5.3f} {s['s@10']:5.3f} {s['mrr@10']:6.3f} {s['zero']:5.3f} "
            f"{s['p50_ms']:7.0f}  "
            + (f"{s['fn_s@1']:6.3f} {s['fn_s@5']:6.3f} {s['fn_s@10']:7.3f} ({s['fn_n']})  " if "fn_n" in s else "")
            + ", ".join(f"{i} {n}" for i, n in sorted(routes.items(), key=lambda t: -t[1]))
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {"suite": str(args.suite.name), "load_average": load, "summary": summary, "queries": out}, indent=1
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
