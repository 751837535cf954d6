"""Every intent of labelled suites at depth 20, in process: what a caller of references and impact needs.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/relations.py --home H SUITE.jsonl [...] [--out OUT.json]

Each suite is asked within the repository its file is named after (``gin.jsonl`` -> ``gin``) through an
in-process :class:`Engine` over the index in ``--home``, as classified (no intent named), k = 20. Per
suite and intent (or the kind an id names: ``gin-implementations-3``): success@1 and MRR@10
(``coordinator/evaluate.py``), **file recall@20** (the share of relevant files any of the 20 hits is in:
the references goal), **recall@20** (the share of relevant lines a hit spans or names among its match lines: for
impact, the direct dependents found), routing accuracy, zero-result rate and the strategies the answers took.
``benchmarks/go_suites.sh`` builds Go suites for it. ``--graph-order off`` asks with the graph's scores
as they were before they carried its order among equal evidence (``ORDER_STEP`` 0: the merge then
orders ties by path), to compare; ``--spread off`` without the graph's one-dependent-per-file order of the merged
impact answer (``shard.spread_dependents``). ``--code-first off`` asks with
``options["code_first"] = "off"``: the tests' uses ranked with the shipped code's among the graph's equal
evidence. Besides, per suite and kind: **test lead**, the share of answers led by a test's, an example's or
a script's file (``paths.is_auxiliary``) where the shipped code holds a relevant file, and **code MRR@10**,
MRR@10 counting only the relevant files of the shipped code (over those rows).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from identifier import at_depth, outcome

from fourfold.api import SearchParams
from fourfold.coordinator import code_first, evaluate
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.evaluate import Outcome
from fourfold.index.store import IndexStore
from fourfold.plugins.graph import plugin as graph_plugin
from fourfold.plugins.graph import shard as graph_shard
from fourfold.plugins.paths import is_auxiliary

K = 20


def _kind(q: evaluate.EvalQuery, repo: str) -> str:
    """The row's kind: its id's middle part (``gin-implementations-3``: a references row asking for the types
    implementing an interface, reported apart), else its intent."""
    if q.id.startswith(repo + "-") and q.id.count("-") >= 2:
        return q.id[len(repo) + 1 :].rsplit("-", 1)[0]
    return q.intent or "-"


async def ask(
    home: Path, suites: list[Path], options: dict[str, str], intents: frozenset[str], preset: str
) -> dict[tuple[str, str], tuple[list[Outcome], Counter[str]]]:
    """Each row's outcome and each answer's strategy, by (suite, kind) and by ("all", kind)."""
    engine = Engine(IndexStore(home))
    await engine.search(SearchParams("warm up the shards", k=5))
    out: dict[tuple[str, str], tuple[list[Outcome], Counter[str]]] = defaultdict(lambda: ([], Counter()))
    for path in suites:
        repo = path.stem
        for q in evaluate.load_suite(path):
            if intents and q.intent not in intents:
                continue
            t0 = time.perf_counter()
            a = await engine.search(SearchParams(q.query, k=K, repos=(repo,), options=options, preset=preset))
            o = outcome(q, a, (time.perf_counter() - t0) * 1000)
            kind = _kind(q, repo)
            for key in ((repo, kind), ("all", kind)):
                out[key][0].append(o)
                out[key][1][a.fusion_strategy] += 1
    return out


def code_lead(outcomes: list[Outcome]) -> tuple[float | None, float | None]:
    """(test lead, code MRR@10) over the rows whose relevant files include one of the shipped code: the share whose
    first hit is a test's, an example's or a script's file, and the reciprocal rank of the first relevant hit in
    the shipped code; None without such rows."""
    rows = [o for o in outcomes if any(not is_auxiliary(r.path) for r in o.query.relevant)]
    if not rows:
        return None, None
    lead = sum(bool(o.hits) and is_auxiliary(o.hits[0].path) for o in rows) / len(rows)
    total = 0.0
    for o in rows:
        code = {(r.repo, r.path) for r in o.query.relevant if not is_auxiliary(r.path)}
        rank = next((n for n, h in enumerate(o.hits[:10], 1) if (h.repo, h.path) in code), None)
        total += 1.0 / rank if rank else 0.0
    return lead, total / len(rows)


def summary(outcomes: list[Outcome], strategies: Counter[str]) -> dict[str, Any]:
    """The numbers of one (suite, kind): ``coordinator/evaluate.py``'s, and file recall as identifier.py scores it."""
    test_lead, code_mrr = code_lead(outcomes)
    return {
        **at_depth(outcomes, K),
        "routing": evaluate.routing_accuracy(outcomes),
        "test_lead": test_lead,
        "code_mrr@10": code_mrr,
        "strategies": dict(strategies),
    }


def table(summaries: dict[tuple[str, str], dict[str, Any]]) -> str:
    cols = ("s@1", "mrr@10", "file_recall@20", "recall@20", "routing", "zero", "test_lead", "code_mrr@10")
    lines = [f"{'suite':8} {'intent':16} {'n':>4} " + " ".join(f"{c:>14}" for c in cols) + "  strategies"]
    for (suite, intent), m in sorted(summaries.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        cells = " ".join(f"{m[c] or 0.0:14.3f}" for c in cols)
        lines.append(f"{suite:8} {intent:16} {m['n']:4} {cells}  {m['strategies']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+", type=Path)
    ap.add_argument("--home", type=Path, required=True, help="FOURFOLD_HOME indexing each suite's repository")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--graph-order",
        choices=("on", "off"),
        default="on",
        help="off: the graph's scores without its order among equal evidence (ties merged by path)",
    )
    ap.add_argument(
        "--spread",
        choices=("on", "off"),
        default="on",
        help="off: the impact answer as merged by score, without each file's first dependent before any second",
    )
    ap.add_argument(
        "--code-first",
        choices=("on", "off"),
        default="on",
        help="off: the tests' uses ranked with the shipped code's (options code_first=off)",
    )
    ap.add_argument("--preset", default="default", help="the preset every row is asked with (quick, default, thorough)")
    ap.add_argument("--intent", action="append", default=[], help="only the rows of this intent (repeatable)")
    a = ap.parse_args(argv)
    if a.graph_order == "off":
        graph_shard.ORDER_STEP = 0.0
    if a.spread == "off":
        graph_plugin.spread_dependents = lambda hits, query: list(hits)
    load_before = os.getloadavg()
    options = {code_first.OPTION: "off"} if a.code_first == "off" else {}
    asked = asyncio.run(ask(a.home, a.suites, options, frozenset(a.intent), a.preset))
    summaries = {key: summary(*rows) for key, rows in asked.items()}
    load_after = os.getloadavg()
    print(table(summaries))
    print(f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}", file=sys.stderr)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        by_name = {f"{suite}/{intent}": m for (suite, intent), m in summaries.items()}
        record = {
            "k": K,
            "graph_order": a.graph_order,
            "spread": a.spread,
            "code_first": a.code_first,
            "intents": sorted(a.intent),
            "preset": a.preset,
            "load": [load_before, load_after],
            "summary": by_name,
        }
        a.out.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
