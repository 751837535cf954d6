"""A documentation command asked as the query (``go doc NAME``, ``pydoc NAME``), before and after it is read as a
definition question, against the suite's own phrasing.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/doc_commands.py --home H SUITE.jsonl [...] [--out OUT.json]

Each suite is named after its repository (``gin.jsonl`` is asked of ``gin``). Each find_definition row's name is
asked four ways within its repository (interleaved, each timed): the row's own query (``def NAME``, ``where is NAME
defined``), the documentation command a user of the language runs (``go doc NAME`` for Go, ``pydoc NAME`` for
Python; other languages' rows are left out), and that command *before*: with ``coordinator/tool_call.py``'s reading
of documentation commands switched off in process, so the command is searched as the words it is, as it was. Per
language and way: success@1 and MRR@10 as ``fourfold eval`` scores them, the share answered directly, and the median
milliseconds. Load averages before and after are recorded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from fourfold.api import SearchParams
from fourfold.coordinator import evaluate, tool_call
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.evaluate import HitSpan, Outcome
from fourfold.index.store import IndexStore

WAYS = ("the suite's query", "doc command", "doc command, before")
_NAME = re.compile(r"(?:def |where is )?([A-Za-z_]\w*(?:\.\w+)?)(?: defined)?")
_COMMAND = {"go": "go doc {}", "python": "pydoc {}"}
_OFF = re.compile(r"(?!)")  # matches nothing: the documentation commands read as words


async def main_async(home: Path, suites: list[Path]) -> dict[str, Any]:
    engine = Engine(IndexStore(home))
    await engine.search(SearchParams("warm up the shards", k=5))
    outcomes: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    direct: dict[tuple[str, str], list[bool]] = defaultdict(list)
    doc, source = tool_call._DOC, tool_call._PYTHON_SOURCE
    for path in suites:
        repo = path.stem
        for n, q in enumerate(evaluate.load_suite(path)):
            named = _NAME.fullmatch(q.query)
            language = next(
                (lang for lang, ext in (("go", ".go"), ("python", ".py")) if q.relevant[0].path.endswith(ext)), None
            )
            if q.intent != "find_definition" or named is None or language is None:
                continue
            command = _COMMAND[language].format(named[1])
            asked = [("the suite's query", q.query), ("doc command", command), ("doc command, before", command)]
            for way, text in asked if n % 2 else reversed(asked):
                tool_call._DOC, tool_call._PYTHON_SOURCE = (_OFF, _OFF) if way.endswith("before") else (doc, source)
                t0 = time.perf_counter()
                a = await engine.search(SearchParams(text, k=10, repos=(repo,)))
                ms = (time.perf_counter() - t0) * 1000
                hits = tuple(HitSpan(f.hit.repo, f.hit.path, f.hit.start_line, f.hit.end_line) for f in a.hits)
                outcomes[(language, way)].append(Outcome(q, hits, a.intent, ms))
                direct[(language, way)].append(a.fusion_strategy != "fused")
    tool_call._DOC, tool_call._PYTHON_SOURCE = doc, source
    await engine.stop()
    return {
        f"{language} / {way}": {
            "n": len(found),
            "s@1": evaluate.success_at(found, 1),
            "mrr@10": evaluate.mrr_at(found, 10),
            "direct": sum(direct[(language, way)]) / len(found),
            "p50_ms": statistics.median(o.latency_ms for o in found),
        }
        for (language, way), found in sorted(outcomes.items())
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("suites", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    rows = asyncio.run(main_async(a.home, a.suites))
    load_after = os.getloadavg()
    print(f"{'language / way':34} {'n':>4} {'s@1':>6} {'mrr@10':>7} {'direct':>7} {'p50 ms':>7}")
    for name, r in rows.items():
        print(f"{name:34} {r['n']:4} {r['s@1']:6.3f} {r['mrr@10']:7.3f} {r['direct']:7.3f} {r['p50_ms']:7.1f}")
    print(f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}")
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps({"load": [load_before, load_after], "ways": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
