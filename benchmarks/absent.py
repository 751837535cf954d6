"""A name no file holds: how often the answer says so, and how often it wrongly says so of a real name.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/absent.py --home /tmp/ffhome-dev \\
        --suites /tmp/dev/suites [--suite click --suite httpx --suite rich] [--out bench-results/absent.json]

``--home`` holds an index of the suites' corpora, each under its suite's name (``shared/eval/dev_suites.sh``;
text, structural and graph are enough). Every labelled definition, references and impact question of the
suites is asked through an in-process :class:`Engine` within its repository twice:

* **as written**: its name exists (ctags or jedi found it), so an answer that says "is in no file
  searched" (``coordinator/absent.py``) is a false refusal;
* **misspelt**: the question's code-shaped name with two inner letters swapped and a letter doubled
  (``parse_config`` -> ``psrae_configg``), a name no file holds (checked with a whole-word lookup first;
  one that exists after all is left out), so an answer that does *not* say so is a miss.

Prints per suite and intent: questions, how many had a code-shaped name, false refusals as written,
the absent share on the misspellings, and each way's median latency; writes the same as JSON, with the
load average. Questions whose name is a plain word (``who calls group``) are not looked up by design and
are counted apart.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from fourfold.api import Answer, SearchParams
from fourfold.coordinator import evaluate
from fourfold.coordinator.absent import INTENTS, subject
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.identifier import word_lookup
from fourfold.index.store import IndexStore

ABSENT = " is in no file searched"


def misspelt(word: str) -> str:
    """``word`` with two inner letters swapped and its last letter doubled: a name no one wrote."""
    letters = list(word)
    inner = [i for i in range(1, len(letters) - 2) if letters[i].isalpha() and letters[i + 1].isalpha()]
    if inner:
        i = inner[len(inner) // 2]
        letters[i], letters[i + 1] = letters[i + 1], letters[i]
    return "".join(letters) + letters[-1]


def said_absent(a: Answer) -> bool:
    return any(ABSENT in n for n in a.notes)


async def ask(engine: Engine, query: str, repo: str) -> tuple[Answer, float]:
    t0 = time.perf_counter()
    a = await engine.search(SearchParams(query, k=10, repos=(repo,)))
    return a, (time.perf_counter() - t0) * 1000


async def exists(engine: Engine, word: str, repo: str) -> bool:
    return bool((await engine.search(word_lookup(SearchParams(word, repos=(repo,)), word, 1))).hits)


async def run(home: Path, suites: Path, names: list[str]) -> dict[str, Any]:
    engine = Engine(IndexStore(home))
    rows: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"n": 0, "named": 0, "plain": 0, "false": 0, "mis_n": 0, "mis_said": 0, "ms": [], "mis_ms": []}
    )
    for name in names:
        for q in evaluate.load_suite(suites / f"{name}.jsonl"):
            if q.intent not in INTENTS or not q.relevant:
                continue
            row = rows[(name, q.intent)]
            row["n"] += 1
            asked = subject(q.query)
            if asked is None:
                row["plain"] += 1
                continue
            row["named"] += 1
            repo = q.relevant[0].repo
            a, ms = await ask(engine, q.query, repo)
            row["ms"].append(ms)
            row["false"] += said_absent(a)
            wrong = misspelt(asked.word)
            if await exists(engine, wrong, repo):
                continue
            query = re.sub(rf"\b{re.escape(asked.word)}\b", wrong, q.query, count=1)
            b, ms = await ask(engine, query, repo)
            row["mis_ms"].append(ms)
            row["mis_n"] += 1
            row["mis_said"] += said_absent(b) and b.no_confident_match
    out = []
    for (name, intent), r in sorted(rows.items()):
        out.append(
            {
                "suite": name,
                "intent": intent,
                "questions": r["n"],
                "code_shaped_name": r["named"],
                "plain_word_name": r["plain"],
                "false_absent_as_written": r["false"],
                "misspelt": r["mis_n"],
                "misspelt_said_absent": r["mis_said"],
                "p50_ms_as_written": round(statistics.median(r["ms"]), 1) if r["ms"] else None,
                "p50_ms_misspelt": round(statistics.median(r["mis_ms"]), 1) if r["mis_ms"] else None,
            }
        )
    return {"rows": out, "load_average": os.getloadavg()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--suites", type=Path, required=True)
    ap.add_argument(
        "--suite", action="append", default=None, help="suite name (repeatable; default click, httpx, rich)"
    )
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    result = asyncio.run(run(args.home, args.suites, args.suite or ["click", "httpx", "rich"]))
    head = (
        f"{'suite':8} {'intent':16} {'n':>4} {'named':>5} {'plain':>5} {'false':>5} {'missp':>5} {'said':>5} "
        f"{'p50':>7} {'p50 mis':>7}"
    )
    print(head)
    print("-" * len(head))
    for r in result["rows"]:
        print(
            f"{r['suite']:8} {r['intent']:16} {r['questions']:>4} {r['code_shaped_name']:>5} {r['plain_word_name']:>5} "
            f"{r['false_absent_as_written']:>5} {r['misspelt']:>5} {r['misspelt_said_absent']:>5} "
            f"{r['p50_ms_as_written'] or 0:>7.1f} {r['p50_ms_misspelt'] or 0:>7.1f}"
        )
    print("load average", " ".join(f"{x:.2f}" for x in result["load_average"]))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
