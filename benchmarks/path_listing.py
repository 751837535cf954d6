"""Files listed by their paths, asked as an agent writes the command, against the command itself.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/path_listing.py --home H --corpora DIR [--out OUT.json]

``DIR/<repo>`` holds each indexed repository's files (the checkouts ``benchmarks/go_suites.sh`` and
``../shared/eval`` build). For every repository and every command below, the command is run as written in the
repository's folder (``find``, ``fd`` where installed, ``rg --files`` where installed) and asked of fourfold within
that repository (``coordinator/search_command.py`` reads it; every page of the listing). Per command: the files
both list, those only the tool lists (files the index leaves out: binaries, files over its size limit, files its
walk skips) and those only fourfold lists, and the median milliseconds of fourfold's answer (interleaved with
the tool's run, which is timed too). A file the index leaves out is no error of the listing; a file only fourfold
lists is.

``ls -la`` is asked of each repository's top and of each of its top's folders and run there as ``ls -Ap``: its
files are the answer's hits and its folders the note that names them (a folder holding no indexed file is one only
the tool lists). ``tree -a -L 2`` is run as ``find . -maxdepth 2 -type f``, the files it draws.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from fourfold.api import SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.index.store import IndexStore

COMMANDS = (
    "find . -name '*.go'",
    "find . -name '*_test.go'",
    "find . -name '*.py'",
    "find . -name '*.py' -not -path '*/tests/*'",
    "find . -name '*.md' -o -name '*.rst'",
    "find . -path '*/internal/*' -name '*.go'",
    "rg --files -g '*.js'",
    "fd -e toml",
    "tree -a -L 2",
    "find . -type d",
    "find . -maxdepth 2 -type d -name '*test*'",
    "tree -d -L 2",
    # piped into greps: the paths each keeps, as the tool printed them
    "find . -name '*.go' | grep -v _test",
    "find . -name '*.py' | grep -v -e test -e docs",
    "rg --files | grep -E '^[a-z]+/[a-z_]+[.](go|py|js)$'",
    "rg --files . | grep -iv readme | grep '^[.]/[a-z]'",
    "grep -rL import --include=*.go --include=*.py . | grep -v _test",
    "find . -type d | grep -v -E 'test|doc'",
    # find's -o beside a -path test, and ag's listing by a regular expression over the paths
    "find . -path './*/*_test.*' -o -name 'go.mod' -o -name 'setup.py'",
    "ag -g '_test\\.(go|py)$'",
    "ag -g 'internal|util' | grep -v test",
)
#: what the tool is run as where its output is a drawing, or is not installed here: the same files, a path a line
AS_RUN = {
    "tree -a -L 2": "find . -maxdepth 2 -type f",
    "tree -d -L 2": "find . -mindepth 1 -maxdepth 2 -type d -not -path '*/.*'",
}
#: commands that list folders, not files: fourfold names them in a note (``FOLDER_TREE_OPTION``)
FOLDERS = ("-type d", "tree -d")


async def listed(engine: Engine, command: str, repo: str) -> tuple[set[str], float, list[str]]:
    """Every file fourfold lists for ``command`` within ``repo``, the milliseconds of the first page, its notes."""
    t0 = time.perf_counter()
    a = await engine.search(SearchParams(command, k=1000, repos=(repo,)))
    ms = (time.perf_counter() - t0) * 1000
    files = {f.hit.path for f in a.hits}
    if any(marker in command for marker in FOLDERS):  # the folders the note names, by their path from the top
        return named_folders(a.notes, "text: folders in ./: "), ms, list(a.notes)
    while a.cursor:
        a = await engine.search(SearchParams(command, k=1000, repos=(repo,), cursor=a.cursor))
        files |= {f.hit.path for f in a.hits}
    return files, ms, list(a.notes)


def named_folders(notes: Sequence[str], note: str = "text: folders in ") -> set[str]:
    """The folders the note of an ``ls`` (or ``find -type d``) names, as the note writes them."""
    named = next((n for n in notes if n.startswith(note)), "")
    return set(re.findall(r"(?:: |, )([^,:]+?)/ \(\d+ files?\)", named))


def run_tool(command: str, folder: Path) -> tuple[set[str] | None, float]:
    """The files ``command`` lists in ``folder`` (None where its tool is not installed), and the milliseconds."""
    command = AS_RUN.get(command, command)
    tool = command.split()[0]
    if shutil.which(tool) is None:
        return None, 0.0
    t0 = time.perf_counter()
    out = subprocess.run(command, shell=True, cwd=folder, capture_output=True, text=True, check=False).stdout
    ms = (time.perf_counter() - t0) * 1000
    return {line.removeprefix("./") for line in out.splitlines() if line.strip() and line != "."}, ms


#: run in each of a repository's top folders after ``cd``: the paths are printed from there
CD_COMMANDS = ("find . -type f | grep -v test", "rg --files | grep -E '[.](go|py|js)$'")


async def main_async(home: Path, corpora: Path) -> dict[str, dict[str, object]]:
    engine = Engine(IndexStore(home))
    indexed = {r.name for r in IndexStore(home).repos()}
    repos = sorted(p.name for p in corpora.iterdir() if p.is_dir() and p.name in indexed)
    await engine.search(SearchParams("warm up", k=5))
    rows: dict[str, dict[str, object]] = {}
    for command in (*COMMANDS, *(f"cd FOLDER && {c}" for c in CD_COMMANDS)):
        both = only_tool = only_ours = 0
        ours_ms: list[float] = []
        tool_ms: list[float] = []
        examples: list[str] = []
        asked = 0
        for repo in repos:
            for folder in _run_in(command, corpora / repo):
                run = command.removeprefix("cd FOLDER && ")
                theirs, t_ms = run_tool(run, corpora / repo / folder)  # interleaved: the tool, then fourfold
                if theirs is None:
                    break
                theirs = {f"{folder}/{p}" if folder else p for p in theirs}  # cd FOLDER: its paths from the top
                ours, o_ms, _ = await listed(engine, command.replace("FOLDER", folder), repo)
                if not theirs and not ours:
                    continue
                asked += 1
                both += len(ours & theirs)
                only_tool += len(theirs - ours)
                only_ours += len(ours - theirs)
                examples += [f"{repo}: only fourfold {p}" for p in sorted(ours - theirs)[:2]]
                examples += [f"{repo}: only the tool {p}" for p in sorted(theirs - ours)[:2]]
                ours_ms.append(o_ms)
                tool_ms.append(t_ms)
        if not asked:
            continue
        rows[command] = {
            "repositories": asked,  # folders, after cd
            "both": both,
            "only_tool": only_tool,
            "only_fourfold": only_ours,
            "fourfold_ms_p50": statistics.median(ours_ms),
            "tool_ms_p50": statistics.median(tool_ms),
            "examples": examples[:6],
        }
    rows.update(await folders_listed(engine, corpora, repos))
    return rows


def _run_in(command: str, checkout: Path) -> list[str]:
    """The folders of ``checkout`` a command is run in: its top ("") or, after ``cd FOLDER``, each top folder."""
    if not command.startswith("cd FOLDER"):
        return [""]
    _, top_folders, _ = ls_tool(checkout)
    return sorted(f for f in top_folders if not f.startswith("."))


def ls_tool(folder: Path) -> tuple[set[str], set[str], float]:
    """``ls -Ap`` of ``folder``: its files, its folders, the milliseconds."""
    t0 = time.perf_counter()
    out = subprocess.run(["ls", "-Ap"], cwd=folder, capture_output=True, text=True, check=False).stdout.split()
    ms = (time.perf_counter() - t0) * 1000
    return {n for n in out if not n.endswith("/")}, {n.rstrip("/") for n in out if n.endswith("/")}, ms


#: ``ls -la`` and its long lines kept by their type letter: (what is piped after it, files kept, folders kept).
LS_WAYS = (("", True, True), (" | grep '^d'", False, True), (" | grep -v '^d'", True, False))


async def folders_listed(engine: Engine, corpora: Path, repos: list[str]) -> dict[str, dict[str, object]]:
    """``ls -la`` of each repository's top and of each of its top's folders (and piped to ``grep '^d'``, ``grep -v
    '^d'``), against ``ls -Ap`` there: the files (hits) and the folders (the note that names them) both list, only the
    tool lists, only fourfold lists."""
    counts = {f"{way}, {kind}": [0, 0, 0] for way, _, _ in LS_WAYS for kind in ("files", "folders")}
    ours_ms: dict[str, list[float]] = defaultdict(list)
    tool_ms: dict[str, list[float]] = defaultdict(list)
    examples: dict[str, list[str]] = defaultdict(list)
    asked = 0
    for repo in repos:
        _, top_folders, _ = ls_tool(corpora / repo)
        for folder in ["", *sorted(f for f in top_folders if not f.startswith("."))]:
            asked += 1
            for way, keeps_files, keeps_folders in LS_WAYS:
                files, folders, t_ms = ls_tool(corpora / repo / folder)
                command = f"{f'ls -la {folder}'.strip()}{way}"
                t0 = time.perf_counter()
                a = await engine.search(SearchParams(command, k=1000, repos=(repo,)))
                ours_ms[way].append((time.perf_counter() - t0) * 1000)
                tool_ms[way].append(t_ms)
                our_files = {f.hit.path.rsplit("/", 1)[-1] for f in a.hits}
                our_folders = named_folders(a.notes)
                for kind, theirs, ours in (
                    ("files", files if keeps_files else set(), our_files),
                    ("folders", folders if keeps_folders else set(), our_folders),
                ):
                    row = counts[f"{way}, {kind}"]
                    row[0] += len(theirs & ours)
                    row[1] += len(theirs - ours)
                    row[2] += len(ours - theirs)
                    said = examples[f"{way}, {kind}"]
                    said += [f"{repo}/{folder}: only fourfold {kind[:-1]} {n}" for n in sorted(ours - theirs)[:2]]
                    said += [f"{repo}/{folder}: only the tool {kind[:-1]} {n}" for n in sorted(theirs - ours)[:1]]
    return {
        f"ls -la{key.split(',')[0]} (top and its folders),{key.split(',', 1)[1]}": {
            "repositories": len(repos),
            "folders_listed": asked,
            "both": both,
            "only_tool": only_tool,
            "only_fourfold": only_ours,
            "fourfold_ms_p50": statistics.median(ours_ms[key.split(",")[0]]),
            "tool_ms_p50": statistics.median(tool_ms[key.split(",")[0]]),
            "examples": examples[key][:6],
        }
        for key, (both, only_tool, only_ours) in counts.items()
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--corpora", type=Path, required=True)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    rows = asyncio.run(main_async(a.home, a.corpora))
    load_after = os.getloadavg()
    print(f"{'command':48} {'repos':>5} {'both':>6} {'only tool':>9} {'only ours':>9} {'ours ms':>8} {'tool ms':>8}")
    for command, r in rows.items():
        print(
            f"{command:48} {r['repositories']:>5} {r['both']:>6} {r['only_tool']:>9} {r['only_fourfold']:>9} "
            f"{r['fourfold_ms_p50']:>8.1f} {r['tool_ms_p50']:>8.1f}"
        )
        for e in r["examples"]:  # type: ignore[attr-defined]
            print(f"    {e}")
    print(f"load average {load_before[0]:.2f} -> {load_after[0]:.2f}", file=sys.stderr)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps({"load": [load_before, load_after], "commands": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
