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
  first relevant file (a glob without ``/``: that name in any folder), its truth the relevant files of that name;
* a command an agent would run (``coordinator/search_command.py``), words (``filters=off``) and command: an exact
  string as ``rg -F -n 'STRING'`` and as ``grep -rn 'STRING' DIR/`` (the folder of its first relevant file), and a
  definition as ``rg -n '^ *(def|class) +NAME\\b'`` (Go: ``func``, a receiver, ``type``).

With ``--corpora DIR`` (``DIR/<repo>`` each repository's files), each command is also run as written in its
repository's folder: **tool_agrees** is the share of the answers listing exactly the lines it lists, over the
``tool_judged`` answers where both list every line (the tool's files fit a page, the answer says it is complete).

Per (language, way): success@1, MRR@10, file recall@20, recall@20, the zero-result rate and **outside**, the share
of the hits outside what the question asked for (another repository, another language, a path holding ``test``, a
file of another name).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from identifier import at_depth, outcome

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
    "rg -F words",
    "rg -F command",
    "grep -rn DIR words",
    "grep -rn DIR command",
    "rg def words",
    "rg def command",
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
    if q.intent == "exact_match" and q.query.startswith('"') and q.query.endswith('"'):
        string = shlex.quote(q.query[1:-1])
        folder = q.relevant[0].path.rsplit("/", 1)[0] + "/" if "/" in q.relevant[0].path else "."
        for way, command in (("rg -F", f"rg -F -n {string}"), ("grep -rn DIR", f"grep -rn {string} {folder}")):
            ways[f"{way} words"] = (SearchParams(command, k=K, repos=(repo,), options=off), q)
            ways[f"{way} command"] = (SearchParams(command, k=K, repos=(repo,)), q)
    name = _defined(q.query) if q.intent == "find_definition" else ""
    if name:
        shape = _DEFINITIONS.get(lang, "{}")
        command = f"rg -n {shlex.quote(shape.format(re.escape(name)))}"
        ways["rg def words"] = (SearchParams(command, k=K, repos=(repo,), options=off), q)
        ways["rg def command"] = (SearchParams(command, k=K, repos=(repo,)), q)
    shipped = tuple(r for r in q.relevant if not _TEST.match(r.path))
    if q.intent in ("find_references", "impact_analysis") and shipped:
        truth = replace(q, relevant=shipped)
        ways["-file:test words"] = (SearchParams(f"-file:test {q.query}", k=K, repos=(repo,), options=off), truth)
        ways["-file:test filter"] = (SearchParams(f"-file:test {q.query}", k=K, repos=(repo,)), truth)
    return ways


# a definition as ``rg`` finds it, by language (a class, a function, a method, a type)
_DEFINITIONS = {
    "python": r"^\s*(?:async\s+)?(?:def|class)\s+{}\b",
    "go": r"^(?:func(?:\s+\([^)]*\))?|type)\s+{}\b",
}


def _defined(query: str) -> str:
    """The name a definition row asks for: "def X", "where is X defined", or the name alone ("" for another form)."""
    words = query.split()
    if len(words) == 2 and words[0] in ("def", "func", "class", "type"):
        return words[1]
    if query.startswith("where is ") and len(words) == 4:
        return words[2]
    return query if re.fullmatch(r"[A-Za-z_]\w*", query) else ""


def tool_lines(command: str, checkout: Path) -> set[tuple[str, int]] | None:
    """The (path, line) pairs the real command lists in ``checkout`` (None: the tool is not installed)."""
    words = shlex.split(command)
    if shutil.which(words[0]) is None:
        return None
    done = subprocess.run(words, cwd=checkout, capture_output=True, text=True, errors="replace", timeout=60)
    found = set()
    for line in done.stdout.splitlines():
        path, _, rest = line.partition(":")
        number = rest.split(":", 1)[0]
        if number.isdigit():
            found.add((path.removeprefix("./"), int(number)))
    return found


def agrees(a: Answer, command: str, checkout: Path | None) -> bool | None:
    """Whether ``a`` lists the lines the real command lists in ``checkout``, where both list every one (None: not
    judged: no checkout, no tool, more files than a page holds, or an answer that says it is incomplete)."""
    if checkout is None or not (checkout.is_dir() and a.complete):
        return None
    expected = tool_lines(command, checkout)
    if expected is None or len({path for path, _ in expected}) > K:
        return None
    return {(f.hit.path, n) for f in a.hits for n in f.hit.match_lines} == expected


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


@dataclass
class Judged:
    """Each (language, way)'s outcomes, the share of each answer's hits outside what it asked for, and for a
    command whether it listed what the real tool lists."""

    outcomes: dict[tuple[str, str], list[Outcome]] = field(default_factory=lambda: defaultdict(list))
    outsides: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    agreements: dict[tuple[str, str], list[bool]] = field(default_factory=lambda: defaultdict(list))


async def ask(home: Path, suites: list[Path], corpora: Path | None) -> Judged:
    engine = Engine(IndexStore(home))
    await engine.search(SearchParams("warm up the shards", k=5))
    judged = Judged()
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
                agreed = agrees(a, p.query, corpora / repo if corpora else None) if way.endswith(" command") else None
                for key in ((lang, way), ("all", way)):
                    judged.outcomes[key].append(o)
                    if share is not None:
                        judged.outsides[key].append(share)
                    if agreed is not None:
                        judged.agreements[key].append(agreed)
    await engine.stop()
    return judged


def summary(outcomes: list[Outcome], outsides: list[float], agreements: list[bool]) -> dict[str, Any]:
    return {
        **at_depth(outcomes, K),
        "outside": sum(outsides) / len(outsides) if outsides else 0.0,
        "tool_judged": len(agreements),
        "tool_agrees": sum(agreements) / len(agreements) if agreements else 0.0,
        "p50_ms": sorted(o.latency_ms for o in outcomes)[len(outcomes) // 2] if outcomes else 0.0,
    }


def table(summaries: dict[tuple[str, str], dict[str, Any]]) -> str:
    cols = ("s@1", "mrr@10", "file_recall@20", "recall@20", "zero", "outside", "tool_judged", "tool_agrees", "p50_ms")
    lines = [f"{'language':10} {'way':20} {'n':>5} " + " ".join(f"{c:>14}" for c in cols)]
    for (lang, way), m in sorted(summaries.items(), key=lambda kv: (kv[0][0] == "all", kv[0][0], WAYS.index(kv[0][1]))):
        lines.append(f"{lang:10} {way:20} {m['n']:5} " + " ".join(f"{m[c]:14.3f}" for c in cols))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+", type=Path)
    ap.add_argument("--home", type=Path, required=True, help="FOURFOLD_HOME indexing every suite's repository")
    ap.add_argument(
        "--corpora", type=Path, default=None, help="DIR/<repo>: each repository's files, to run each command in"
    )
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    judged = asyncio.run(ask(a.home, a.suites, a.corpora))
    summaries = {
        key: summary(rows, judged.outsides.get(key, []), judged.agreements.get(key, []))
        for key, rows in judged.outcomes.items()
    }
    load_after = os.getloadavg()
    print(table(summaries))
    print(f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}", file=sys.stderr)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        record = {
            "k": K,
            "suites": [str(s) for s in a.suites],
            "corpora": str(a.corpora) if a.corpora else None,
            "load": [load_before, load_after],
            "summary": {f"{lang}/{way}": m for (lang, way), m in summaries.items()},
        }
        a.out.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
