r"""A grep command's printed lines, asked as an agent writes it, against the command itself: context lines and pipes.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/grep_output.py --home H --corpora DIR SUITE.jsonl [...] [--out OUT.json]

``DIR/<repo>`` holds each indexed repository's files; each suite is named after its repository (``gin.jsonl`` is
asked of ``gin``). Each exact-string row (``"STRING"``) and each definition row's name is asked in the ways below,
within its repository, and each command is run as written in the repository's folder (interleaved, both timed):

* ``rg -n -C 2 -F S``: every file fourfold lists (a complete answer of at most ``K`` files), its hit's snippet
  against ``rg -n -C 2 -F S FILE``: the same lines, or the tool's first whole groups where the snippet stops at its
  40 lines (**agrees**, over the files judged);
* ``grep -rn -F S . | grep -v _test``, ``rg -n -w NAME | grep -v '^[^:]*_test'`` and ``rg -w NAME | grep -E
  ':[[:space:]]*(func|type|def|class) '`` (rg to a pipe prints no line number): the lines the pipeline prints
  against the lines fourfold lists, (path, line) where the tool prints the number, else the count and the files;
* ``rg -l -w NAME | grep -v test``: the files the pipeline prints (a grep of their paths) against the files listed;
* ``cd DIR && rg -n -w NAME | grep -v _test``, DIR the top folder of the name's definition: its lines, their paths
  printed from DIR;
* ``grep -Hnw NAME DIR/*.E``, DIR the folder of the name's definition and E its extension (``*.E`` at the top): the
  lines grep prints of the files the shell hands it, not of the folders beneath;
* ``find . -name '*.E' | xargs grep -nw NAME | grep -v _test``: the lines the last grep keeps of xargs grep's;
* ag's file regex: ``ag -l -G '\.E$' -w NAME`` (the files), ``ag -G '^\./DIR/' NAME`` (the lines; smart case, and
  ag's path as it walks to it, ``./DIR/…``);
* a match across lines, ``rg -n -U '\bNAME\b[^\n]*\n[^\n]*\S'``: each line holding NAME and the line after it
  where that one is not blank, every line of each match listed as ripgrep lists them;
* an agent's shell call, Codex's ``["bash", "-lc", "rg -n -w NAME"]``: the lines the command it wraps prints.

Per way: the answers judged, the share that agree, and the median milliseconds of fourfold's answer and the tool's
run. Load averages before and after are recorded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fourfold.api import Answer, SearchParams
from fourfold.coordinator import evaluate
from fourfold.coordinator.engine import Engine
from fourfold.index.store import IndexStore

K = 50
WAYS = (
    "rg -C 2",
    "grep -rn . | grep -v _test",
    "rg -n -w | grep -v test",
    "rg -w | grep -E def",
    "rg -l -w | grep -v test",
    "cd DIR && rg -n -w | grep -v test",
    "grep -Hnw NAME DIR/*.E",
    "find -name '*.E' | xargs grep | grep -v",
    "ag -l -G '\\.E$' -w NAME",
    "ag -G '^\\./DIR/' NAME",
    "rg -n -U 'NAME.*\\n.*\\S'",
    '["bash", "-lc", "rg -n -w NAME"]',
)


def commands(string: str | None, name: str | None) -> dict[str, str]:
    """Each way's command for a row's exact string or defined name."""
    out = {}
    if string:
        s = shlex.quote(string)
        out["rg -C 2"] = f"rg -n -C 2 -F {s}"
        out["grep -rn . | grep -v _test"] = f"grep -rn -F {s} . | grep -v _test"
    if name:
        n = shlex.quote(name)
        out["rg -n -w | grep -v test"] = f"rg -n -w {n} | grep -v '^[^:]*_test'"
        out["rg -w | grep -E def"] = f"rg -w {n} | grep -E ':[[:space:]]*(func|type|def|class) '"
        out["rg -l -w | grep -v test"] = f"rg -l -w {n} | grep -v test"  # the files' paths, not their lines
        out["rg -n -U 'NAME.*\\n.*\\S'"] = f"rg -n -U '\\b{name}\\b[^\\n]*\\n[^\\n]*\\S'"  # two lines a match
        out['["bash", "-lc", "rg -n -w NAME"]'] = json.dumps(["bash", "-lc", f"rg -n -w {n}"])  # as Codex calls it
    return out


def run(command: str, cwd: Path) -> tuple[str, float]:
    """The command's output as a shell prints it in ``cwd``, and its milliseconds."""
    t0 = time.perf_counter()
    if command.startswith("["):  # an agent's shell call as its words: run as they are
        argv = [re.sub(r"^rg ", "rg --no-config ", w) for w in json.loads(command)]
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=60)
        return done.stdout, (time.perf_counter() - t0) * 1000
    shell = re.sub(r"(^|&& )rg ", r"\1rg --no-config ", command)
    done = subprocess.run(shell, shell=True, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=60)
    return done.stdout, (time.perf_counter() - t0) * 1000


def context_agrees(a: Answer, string: str, checkout: Path) -> list[bool]:
    """Per file listed, whether its snippet is what ``rg -n -C 2 -F`` prints for the file (whole groups)."""
    verdicts = []
    for f in a.hits:
        out, _ = run(f"rg -n -C 2 -F {shlex.quote(string)} {shlex.quote(f.hit.path)}", checkout)
        tool = [  # each line's text cut as a snippet cuts it (240 characters)
            re.sub(r"^(\d+[:-])(.*)$", lambda m: m[1] + m[2][:240].rstrip("\r"), line, flags=re.S)
            for line in out.split("\n")
            if line
        ]
        ours = [line.rstrip("\r") for line in f.hit.snippet.split("\n")]
        whole = ours == tool
        cut = len(ours) < len(tool) and ours == tool[: len(ours)] and (tool[len(ours)] == "--" or len(ours) == 40)
        verdicts.append(whole or cut)
    return verdicts


def files_agree(a: Answer, out: str) -> bool:
    """Whether ``a`` lists the files the pipeline printed (``rg -l``: a path a line)."""
    rows = {row.removeprefix("./") for row in out.split("\n") if row}
    return a.total_files == len(rows) and {f.hit.path for f in a.hits} == rows


def lines_agree(a: Answer, out: str, folder: str = "") -> bool:
    """Whether ``a`` lists the lines the pipeline printed (in ``folder``, after a ``cd``): (path, line) where it printed
    numbers, else the count and the files."""
    rows = [row for row in out.split("\n") if row]
    if a.total_matches != len(rows):
        return False
    parts = [f"{folder}/{row.removeprefix('./')}".lstrip("/").split(":", 2) for row in rows]
    listed = {(f.hit.path, n) for f in a.hits for n in f.hit.match_lines}
    if all(len(p) == 3 and p[1].isdigit() for p in parts):
        return listed == {(p[0], int(p[1])) for p in parts}
    return {path for path, _ in listed} == {p[0] for p in parts}


async def main_async(home: Path, corpora: Path, suites: list[Path]) -> dict[str, dict[str, float]]:
    engine = Engine(IndexStore(home))
    await engine.search(SearchParams("warm up the shards", k=5))
    verdicts: dict[str, list[bool]] = defaultdict(list)
    ours_ms: dict[str, list[float]] = defaultdict(list)
    tool_ms: dict[str, list[float]] = defaultdict(list)
    for path in suites:
        repo, checkout = path.stem, corpora / path.stem
        for q in evaluate.load_suite(path):
            quoted = q.intent == "exact_match" and q.query.startswith('"') and q.query.endswith('"')
            string = q.query[1:-1] if quoted and "\n" not in q.query else None
            named = re.fullmatch(r"(?:def |where is )?([A-Za-z_]\w*)(?: defined)?", q.query)
            name = named[1] if q.intent == "find_definition" and named else None
            ways = commands(string, name)
            folder = next((r.path.split("/")[0] for r in q.relevant if "/" in r.path), "")
            if name and folder:  # after cd into the top folder of its definition: the paths printed from there
                ways["cd DIR && rg -n -w | grep -v test"] = (
                    f"cd {folder} && rg -n -w {shlex.quote(name)} | grep -v _test"
                )
            defined = next((r.path for r in q.relevant), "")
            if name and "." in defined.rsplit("/", 1)[-1]:  # the files the shell expands a glob to, in one folder
                where, _, file = defined.rpartition("/")
                glob = f"{where}/*.{file.rsplit('.', 1)[1]}".lstrip("/")
                ways["grep -Hnw NAME DIR/*.E"] = f"grep -Hnw {shlex.quote(name)} {glob}"
                ways["find -name '*.E' | xargs grep | grep -v"] = (
                    f"find . -name '*.{file.rsplit('.', 1)[1]}' | xargs grep -nw {shlex.quote(name)} | grep -v _test"
                )
                ways["ag -l -G '\\.E$' -w NAME"] = f"ag -l -G '\\.{file.rsplit('.', 1)[1]}$' -w {shlex.quote(name)}"
            if name and folder:  # ag's file regex, anchored at the folder it walks from
                ways["ag -G '^\\./DIR/' NAME"] = f"ag -G '^\\./{folder}/' {shlex.quote(name)}"
            for way, command in ways.items():
                t0 = time.perf_counter()
                a = await engine.search(SearchParams(command, k=K, repos=(repo,)))
                ours_ms[way].append((time.perf_counter() - t0) * 1000)
                out, ms = run(command, checkout)
                tool_ms[way].append(ms)
                if not a.complete or len(a.hits) >= K:
                    continue  # more files than a page: not judged
                if way == "rg -C 2" and string is not None:
                    verdicts[way].extend(context_agrees(a, string, checkout))
                elif way.startswith(("rg -l", "ag -l")):
                    verdicts[way].append(files_agree(a, out))
                elif way != "rg -C 2":
                    verdicts[way].append(lines_agree(a, out, folder if way.startswith("cd ") else ""))
    await engine.stop()
    return summary(WAYS, verdicts, ours_ms, tool_ms)


def summary(
    ways: Sequence[str],
    verdicts: Mapping[str, list[bool]],
    ours_ms: Mapping[str, list[float]],
    tool_ms: Mapping[str, list[float]],
    misses: Mapping[str, list[str]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Each way's answers judged, the share that agree, the medians of both sides' milliseconds (and its misses)."""
    return {
        way: {
            "judged": len(verdicts[way]),
            "agrees": sum(verdicts[way]) / len(verdicts[way]) if verdicts[way] else 0.0,
            "ours_ms": statistics.median(ours_ms[way]) if ours_ms[way] else 0.0,
            "tool_ms": statistics.median(tool_ms[way]) if tool_ms[way] else 0.0,
            **({"misses": misses[way]} if misses is not None else {}),
        }
        for way in ways
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+", type=Path)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--corpora", type=Path, required=True)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    rows = asyncio.run(main_async(a.home, a.corpora, a.suites))
    report(rows, load_before, a.out, width=32)
    return 0


def report(rows: dict[str, dict[str, Any]], load_before: tuple[float, ...], out: Path | None, width: int) -> None:
    """Each way's row (judged, agrees, the medians; then its misses, where it keeps some), the load averages, and the
    JSON written to ``out``."""
    load_after = os.getloadavg()
    print(f"{'way':{width}} {'judged':>6} {'agrees':>7} {'ours ms':>8} {'tool ms':>8}")
    for way, r in rows.items():
        print(f"{way:{width}} {r['judged']:6} {r['agrees']:7.3f} {r['ours_ms']:8.1f} {r['tool_ms']:8.1f}")
        for miss in r.get("misses", ()):
            print(f"    {miss}")
    print(f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}")
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"load": [load_before, load_after], "ways": rows}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
