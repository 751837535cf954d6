"""Is the fused answer ever worse than its best input? Fused profiles against each modality alone.

    python benchmarks/fusion_check.py --home DIR SUITE.jsonl [SUITE.jsonl ...] \
        [--compare profile=hand --compare docs=keep ...] [--raw bench-results/fusion_raw.json] \
        [--out bench-results/fusion_check.json]

``--home`` holds an index of the suites' corpora (each under the repository name its relevant items
use). Through the gRPC API of an embedded deployment, every query is asked within the repositories its
relevant items name (as a user working in that repository would; ``--unscoped``: of every repository at
once, as an agent that names none would): once as the coordinator classifies it (``fused``, the default
profile), once per ``--compare`` option set (a column of its own, e.g. ``profile=hand``) and once per
modality alone. The answers of one query are asked one after the other (interleaved, so a change of
machine load falls on every column alike). Prints MRR@10 and
success@1 per suite and column, the fused columns' margin over the best single modality, and the
load average; writes the numbers as JSON.

With ``--raw`` each modality's own ranked list (40 deep, every segment, with the classified intent)
is also kept, with each hit's path and centrality, so fusion settings can be replayed offline
(``benchmarks/fit_weights.py``'s ``Asked`` rows).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

MODALITIES = ("semantic", "text", "structural", "graph")


def _options(specs: Sequence[str]) -> dict[str, dict[str, str]]:
    """``OPTION=VALUE[,OPTION=VALUE]`` specs as compare columns (``fused+OPTION=VALUE``) and their options."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        opts: dict[str, str] = {}
        for part in spec.split(","):
            key, sep, value = part.partition("=")
            if not sep or not key:
                raise SystemExit(f"bad --compare {spec!r}: give OPTION=VALUE, e.g. profile=hand")
            opts[key] = value
        out[f"fused+{spec}"] = opts
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+", type=Path)
    ap.add_argument("--home", type=Path, required=True, help="FOURFOLD_HOME holding every corpus the suites name")
    ap.add_argument("--compare", action="append", default=[], help="OPTION=VALUE[,OPTION=VALUE]: another fused column")
    ap.add_argument("--modality", action="append", default=[], help="only these single modalities (default: all)")
    ap.add_argument("--raw", type=Path, default=None, help="also keep each modality's ranked list here")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--raw-only", action="store_true", help="only keep the ranked lists (with --raw)")
    ap.add_argument(
        "--unscoped",
        action="store_true",
        help="ask every query of every repository at once (as an agent that names no repository would)",
    )
    args = ap.parse_args(argv)

    from fit_weights import asked_row  # the fitter's own rows, so its replays read what was asked

    from fourfold.connection import WireClient
    from fourfold.coordinator import evaluate
    from fourfold.coordinator.serving import EmbeddedServer

    suites = [(p.stem, evaluate.load_suite(p)) for p in args.suites]
    compare = _options(args.compare)
    load_before = os.getloadavg()
    rows: list[evaluate.Row] = []
    raw: list[dict[str, object]] = []
    summary: dict[str, dict[str, dict[str, float]]] = {}
    with EmbeddedServer(args.home) as embedded, WireClient(embedded.address) as client:
        served = [m for m in client.status().modalities if m in MODALITIES]
        modalities = [m for m in (args.modality or served) if m in served]
        for name, queries in suites:
            per_query = {q.query: sorted({r.repo for r in q.relevant}) for q in queries}
            search = client.search if args.unscoped else evaluate.scoped(client.search, per_query=per_query)
            outcomes = {} if args.raw_only else evaluate.run_suite(search, queries, modalities, compare=compare)
            rows.extend(evaluate.rows_for(name, outcomes))
            summary[name] = {
                answer: {
                    "n": len(outs),
                    "mrr10": round(statistics.fmean(_rr(evaluate, o) for o in outs), 4) if outs else 0.0,
                    "s1": round(statistics.fmean(_rr(evaluate, o) == 1.0 for o in outs), 4) if outs else 0.0,
                    "p50_ms": round(statistics.median(o.latency_ms for o in outs), 1) if outs else 0.0,
                }
                for answer, outs in outcomes.items()
            }
            if args.raw:
                raw.extend(asked_row(client, name, q, modalities, per_query[q.query]) for q in queries)
            print(f"asked {name}: {len(queries)} queries", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    print(evaluate.format_table(rows))
    print()
    print(margins(summary, modalities))
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    if args.raw:
        args.raw.parent.mkdir(parents=True, exist_ok=True)
        args.raw.write_text(json.dumps(raw) + "\n")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        doc = {
            "suites": [str(p) for p in args.suites],
            "compare": compare,
            "summary": summary,
            "load": [load_before[0], load_after[0]],
            "rows": evaluate.rows_to_json(rows),
        }
        args.out.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


def _rr(evaluate: object, o: object) -> float:
    rank = evaluate.first_relevant_rank(o.query, o.hits, 10)  # type: ignore[attr-defined]
    return 1.0 / rank if rank else 0.0


def margins(summary: Mapping[str, Mapping[str, Mapping[str, float]]], modalities: Sequence[str]) -> str:
    """Per suite: each fused column's MRR@10 / s@1 and its margin over the best single modality."""
    lines = [f"{'suite':<14} {'answer':<34} {'n':>4} {'MRR@10':>7} {'s@1':>6} {'vs best single':>15}"]
    for suite, answers in summary.items():
        singles = {m: answers[m]["mrr10"] for m in modalities if m in answers}
        best_m = max(singles, key=lambda m: singles[m]) if singles else ""
        best = singles.get(best_m, 0.0)
        for answer, s in answers.items():
            margin = f"{s['mrr10'] - best:+.3f} ({best_m})" if answer.startswith("fused") and best_m else ""
            lines.append(f"{suite:<14} {answer:<34} {s['n']:>4} {s['mrr10']:>7.3f} {s['s1']:>6.3f} {margin:>15}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
