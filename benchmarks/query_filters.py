"""Filters written in the query (``repo:``, ``lang:``, ``-file:``), asked as a Sourcegraph or Zoekt user writes them.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/query_filters.py --home H SUITE.jsonl [...] [--out OUT.json]

Each row of a relations suite (named after its repository: ``gin.jsonl`` is asked of ``gin``) is asked, in process
at k = 20 over an index of several repositories, one way after another for the same row (interleaved):

* ``scoped``: the question as written, the repository given as the search's parameter (the reference);
* ``unscoped``: the question as written, nothing narrowing it (all repositories of the index);
* ``repo:`` written before the question (``repo:gin who calls Render``), its words searched as words (``words``:
  the option ``filters=off``, as before the filters were read) and read as a filter (``filter``);
* ``lang:`` (the suite's language) written before the question, within the repository, words and filter;
* ``-file:test`` written before a references or impact question within the repository, words and filter, its truth
  the relevant files whose path does not hold ``test`` (rows without one are left out of these ways alone);
* ``--path NAME``: the question as written within the repository, the search's own path glob the file name of its
  first relevant file (a glob without ``/``: that name in any folder), its truth the relevant files of that name.

Per (language, way): success@1, MRR@10, file recall@20, recall@20, the zero-result rate and **outside**, the share
of the hits outside what the question asked for (another repository, another language, a path holding ``test``, a
file of another name).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from identifier import file_recall, outcome

from fourfold.api import Answer, SearchParams
from fourfold.coordinator import evaluate
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.evaluate import EvalQuery, Outcome
from fourfold.coordinator.query_filters import FILTERS_OPTION
from fourfold.index.ingest.languages import detect_language
from fourfold.index.store import IndexStore
from fourfold.plugins.globs import compile_glob

K = 20
WAYS = (
    "scoped",
    "unscoped",
    "repo: words",
    "repo: filter",
    "lang: words",
    "lang: filter",
    "-file:test words",
    "-file:test filter",
    "--path NAME",
)
_TEST = compile_glob("**test**")


def language_of(suite: list[EvalQuery]) -> str:
    """The language most of a suite's relevant files are in."""
    seen: dict[str, int] = defaultdict(int)
    for q in suite:
        for r in q.relevant:
            seen[detect_language(r.path)] += 1
    return max(seen, key=lambda lang: seen[lang])


def asked(q: EvalQuery, repo: str, lang: str) -> dict[str, tuple[SearchParams, EvalQuery]]:
    """Each way's search and the truth it is judged by."""
    off = {FILTERS_OPTION: "off"}
    ways = {
        "scoped": (SearchParams(q.query, k=K, repos=(repo,)), q),
        "unscoped": (SearchParams(q.query, k=K), q),
        "repo: words": (SearchParams(f"repo:{repo} {q.query}", k=K, options=off), q),
        "repo: filter": (SearchParams(f"repo:{repo} {q.query}", k=K), q),
        "lang: words": (SearchParams(f"lang:{lang} {q.query}", k=K, repos=(repo,), options=off), q),
        "lang: filter": (SearchParams(f"lang:{lang} {q.query}", k=K, repos=(repo,)), q),
    }
    if q.relevant:  # the search's own glob, the first relevant file's name (no slash: any folder)
        name = q.relevant[0].path.rsplit("/", 1)[-1]
        named = replace(q, relevant=tuple(r for r in q.relevant if r.path.rsplit("/", 1)[-1] == name))
        ways["--path NAME"] = (SearchParams(q.query, k=K, repos=(repo,), path_glob=name), named)
    shipped = tuple(r for r in q.relevant if not _TEST.match(r.path))
    if q.intent in ("find_references", "impact_analysis") and shipped:
        truth = replace(q, relevant=shipped)
        ways["-file:test words"] = (SearchParams(f"-file:test {q.query}", k=K, repos=(repo,), options=off), truth)
        ways["-file:test filter"] = (SearchParams(f"-file:test {q.query}", k=K, repos=(repo,)), truth)
    return ways


def outside(way: str, p: SearchParams, a: Answer, repo: str, lang: str) -> float | None:
    """The share of ``a``'s hits outside what the way ``p`` asked for (None: no hits)."""
    if not a.hits:
        return None
    if way.startswith("lang:"):
        out = [f.hit.language != lang for f in a.hits]
    elif way.startswith("-file:"):
        out = [_TEST.match(f.hit.path) is not None for f in a.hits]
    elif way == "--path NAME":
        out = [compile_glob(p.path_glob).match(f.hit.path) is None for f in a.hits]
    else:
        out = [f.hit.repo != repo for f in a.hits]
    return sum(out) / len(out)


async def ask(
    home: Path, suites: list[Path]
) -> tuple[dict[tuple[str, str], list[Outcome]], dict[tuple[str, str], list[float]]]:
    engine = Engine(IndexStore(home))
    await engine.search(SearchParams("warm up the shards", k=5))
    outcomes: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    outsides: dict[tuple[str, str], list[float]] = defaultdict(list)
    for path in suites:
        repo = path.stem
        suite = evaluate.load_suite(path)
        lang = language_of(suite)
        for q in suite:
            for way, (p, truth) in asked(q, repo, lang).items():
                t0 = time.perf_counter()
                a = await engine.search(p)
                o = outcome(truth, a, (time.perf_counter() - t0) * 1000)
                share = outside(way, p, a, repo, lang)
                for key in ((lang, way), ("all", way)):
                    outcomes[key].append(o)
                    if share is not None:
                        outsides[key].append(share)
    await engine.stop()
    return outcomes, outsides


def summary(outcomes: list[Outcome], outsides: list[float]) -> dict[str, Any]:
    return {
        "n": len(outcomes),
        "s@1": evaluate.success_at(outcomes, 1),
        "mrr@10": evaluate.mrr_at(outcomes, 10),
        "file_recall@20": file_recall(outcomes, K),
        "recall@20": evaluate.recall_at(outcomes, K),
        "zero": evaluate.zero_result_rate(outcomes),
        "outside": sum(outsides) / len(outsides) if outsides else 0.0,
        "p50_ms": sorted(o.latency_ms for o in outcomes)[len(outcomes) // 2] if outcomes else 0.0,
    }


def table(summaries: dict[tuple[str, str], dict[str, Any]]) -> str:
    cols = ("s@1", "mrr@10", "file_recall@20", "recall@20", "zero", "outside", "p50_ms")
    lines = [f"{'language':10} {'way':18} {'n':>5} " + " ".join(f"{c:>14}" for c in cols)]
    for (lang, way), m in sorted(summaries.items(), key=lambda kv: (kv[0][0] == "all", kv[0][0], WAYS.index(kv[0][1]))):
        lines.append(f"{lang:10} {way:18} {m['n']:5} " + " ".join(f"{m[c]:14.3f}" for c in cols))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+", type=Path)
    ap.add_argument("--home", type=Path, required=True, help="FOURFOLD_HOME indexing every suite's repository")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    outcomes, outsides = asyncio.run(ask(a.home, a.suites))
    summaries = {key: summary(rows, outsides.get(key, [])) for key, rows in outcomes.items()}
    load_after = os.getloadavg()
    print(table(summaries))
    print(f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}", file=sys.stderr)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        record = {
            "k": K,
            "suites": [str(s) for s in a.suites],
            "load": [load_before, load_after],
            "summary": {f"{lang}/{way}": m for (lang, way), m in summaries.items()},
        }
        a.out.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
