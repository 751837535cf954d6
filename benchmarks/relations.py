"""Every intent of labelled suites at depth 20, in process: what a caller of references and impact needs.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/relations.py --home H SUITE.jsonl [...] [--out OUT.json]

Each suite is asked within the repository its file is named after (``gin.jsonl`` -> ``gin``) through an
in-process :class:`Engine` over the index in ``--home``, as classified (no intent named), k = 20. Per
suite and intent (or the kind an id names: ``gin-implementations-3``): success@1 and MRR@10
(``coordinator/evaluate.py``), **file recall@20** (the share of relevant files any of the 20 hits is in:
the references goal), **recall@20** (the share of relevant lines a hit covers: for impact, the direct
dependents found), routing accuracy, zero-result rate and the strategies the answers took.
``benchmarks/go_suites.sh`` builds Go suites for it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from fourfold.api import SearchParams
from fourfold.coordinator import evaluate
from fourfold.coordinator.engine import Engine
from fourfold.index.store import IndexStore

K = 20


def _kind(q: evaluate.EvalQuery, repo: str) -> str:
    """The row's kind: its id's middle part (``gin-implementations-3``: a references row asking for the types
    implementing an interface, reported apart), else its intent."""
    if q.id.startswith(repo + "-") and q.id.count("-") >= 2:
        return q.id[len(repo) + 1 :].rsplit("-", 1)[0]
    return q.intent or "-"


async def ask(home: Path, suites: list[Path]) -> dict[tuple[str, str], dict[str, list[float]]]:
    engine = Engine(IndexStore(home))
    await engine.search(SearchParams("warm up the shards", k=5))
    out: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    strategies: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for path in suites:
        repo = path.stem
        for q in evaluate.load_suite(path):
            a = await engine.search(SearchParams(q.query, k=K, repos=(repo,)))
            hits = [h.hit for h in a.hits]
            rank = evaluate.first_relevant_rank(q, hits, 10)
            files = {(r.repo, r.path) for r in q.relevant}
            found = {(h.repo, h.path) for h in hits}
            kind = _kind(q, repo)
            for key in ((repo, kind), ("all", kind)):
                m = out[key]
                m["s@1"].append(float(rank == 1))
                m["mrr@10"].append(1.0 / rank if rank else 0.0)
                m["file_recall@20"].append(len(files & found) / len(files) if files else 0.0)
                m["recall@20"].append(evaluate._recall(q, hits, K))
                m["routing"].append(float(a.intent == q.intent))
                m["zero"].append(float(not hits))
                strategies[key][a.fusion_strategy] += 1
    for key, counts in strategies.items():
        out[key]["strategies"] = dict(counts)  # type: ignore[assignment]
    return out


def table(results: dict[tuple[str, str], dict[str, Any]]) -> str:
    cols = ("s@1", "mrr@10", "file_recall@20", "recall@20", "routing", "zero")
    lines = [f"{'suite':8} {'intent':16} {'n':>4} " + " ".join(f"{c:>14}" for c in cols) + "  strategies"]
    for (suite, intent), m in sorted(results.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        n = len(m["s@1"])
        cells = " ".join(f"{sum(m[c]) / n:14.3f}" for c in cols)
        lines.append(f"{suite:8} {intent:16} {n:4} {cells}  {m['strategies']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+", type=Path)
    ap.add_argument("--home", type=Path, required=True, help="FOURFOLD_HOME indexing each suite's repository")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    results = asyncio.run(ask(a.home, a.suites))
    load_after = os.getloadavg()
    text = table(results)
    print(text)
    print(f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}", file=sys.stderr)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        summary = {
            f"{suite}/{intent}": {
                "n": len(m["s@1"]),
                **{c: sum(v) / len(v) for c, v in m.items() if c != "strategies"},
                "strategies": m["strategies"],
            }
            for (suite, intent), m in results.items()
        }
        a.out.write_text(json.dumps({"k": K, "load": [load_before, load_after], "summary": summary}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
