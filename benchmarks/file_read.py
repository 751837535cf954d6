"""A file's bytes and a stream of files, read as an agent writes the command, against the command itself.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/file_read.py --home H --corpora DIR [--files N] [--out OUT.json]

``DIR/<repo>`` holds each indexed repository's files. Of each repository, the first ``N`` files (by path) that both
``rg --files`` and fourfold list are read three ways, each run as written in the repository's folder and asked of
fourfold within that repository (``coordinator/file_read.py`` reads it), interleaved and both timed:

* ``head -c B FILE`` (B = 100, 1000, 4096): the lines the answer's note names (``its lines 1-L``) against the lines
  ``head`` printed (a line it printed part of counts);
* ``tail -c B FILE``: the same from the end;
* ``sed -n 'A,Bp' F1 F2`` of two files in a row, A a few lines before F1's end and B past it: the lines the notes
  name, file by file, against the lines ``sed`` printed (one stream, its line numbers going on into F2);
* ``sed -n 'A,Bp;C,Dp' FILE`` (two ranges of one file) and ``awk 'NR>=A && NR<=B' FILE``: the lines the notes name
  against the lines the tool printed;
* ``sed -n '/RE/,/^[a-z]/p' FILE``, RE the first characters of a line a third of the way in: every line of every range
  the note names against the line numbers ``sed -n '/RE/,/^[a-z]/='`` prints;
* pipes of line filters (``head -n A F | tail -n B``, ``tail -n +A F | head -n B``), ``head -n -B F`` and
  ``tail -c +B F``: the lines the note names against the lines the pipe printed (the same text, line for line);
* in each folder at the top (and the top itself), its most common extension ``E``: ``head -n 3 DIR/*.E`` (the files
  the notes read, in order, against the files ``head`` names), ``wc -l DIR/*.E`` (each file's count against wc's;
  of both, the files fourfold lists: an empty file is none),
  and ``cat DIR/{A,B}.E | sed -n '1,Np'`` of two of its files, N two lines into the second (the lines each note
  names against the lines printed);
* ``head -n 3 F1 && tail -n 3 F2`` of two files in a row: two commands, each answered in turn (the lines the notes
  name against the lines printed); ``cat F1 F2 | tail -n B | head -n 3``, B two lines more than F2 has: F1's last
  two lines and F2's first, the stream's length counted first;
* agents' read calls of lines A-4..A in their tools' own words, against ``sed -n 'A-4,Ap' F``: Cursor's
  ``read_file(target_file, start_line_one_indexed, end_line_one_indexed_inclusive)``, Gemini CLI's
  ``read_file(absolute_path, offset, limit)`` (a 0-based offset), Windsurf's ``view_file(AbsolutePath, StartLine,
  EndLine)`` and Codex's ``["bash", "-lc", "sed -n …"]``;
* ``less +A F`` and SWE-agent's ``open F A``, judged against the commands that print what they show (``tail -n +A
  F``; ``head -n A+50 F | tail -n 100``, as SWE-agent cuts its window): the lines named against those printed.

Commands run in ``bash`` with ``LC_ALL=C`` (braces expanded, globs sorted byte by byte).

Per way: the reads judged, the share that agree, and the median milliseconds of fourfold's answer and the tool's run.
A file's trailing empty lines are in none of its segments, so a read that ends in them is counted as it is.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from grep_output import report, summary  # the same rows, table and JSON (this script's folder is on the path)

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.index.store import IndexStore

WAYS = (
    "head -c",
    "tail -c",
    "sed -n A,Bp F1 F2",
    "sed -n 'A,Bp;C,Dp'",
    "awk 'NR>=A && NR<=B'",
    "sed -n '/RE/,/RE2/p'",
    "head -n A F | tail -n B",
    "tail -n +A F | head -n B",
    "head -n -B F",
    "tail -c +B F",
    "head -n 3 DIR/*.E",
    "wc -l DIR/*.E",
    "cat DIR/{A,B}.E | sed -n",
    "head -n 3 F1 && tail -n 3 F2",
    "cat F1 F2 | tail -n B | head -n 3",
    "less +A F (as tail -n +A)",
    "open F A (SWE-agent's window)",
    "agents' read calls (Cursor, Gemini, Windsurf, Codex)",
)
SIZES = (100, 1000, 4096)
_NAMED = re.compile(r"that hold its lines (\d+)-(\d+) \(of (\d+)")


def run(command: str, cwd: Path) -> tuple[bytes, float]:
    """The command's output in ``cwd``, and its milliseconds."""
    t0 = time.perf_counter()
    env = {**os.environ, "LC_ALL": "C"}
    out = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, timeout=60, env=env).stdout
    return out, (time.perf_counter() - t0) * 1000


def marked_lines(a: Answer) -> set[int]:
    """Every line the first note names, over all its ranges (``its lines 3-9, 20-24``)."""
    m = re.search(r"its lines ((?:\d+-\d+(?:, )?)+)", a.notes[0]) if a.notes else None
    spans = [tuple(map(int, span.split("-"))) for span in m[1].split(", ")] if m else []
    return {n for first, last in spans for n in range(first, last + 1)}


async def engine_ask(engine: Engine, command: str, repo: str, ms: list[float]) -> Answer:
    """``command`` asked of fourfold within ``repo``, its milliseconds added to ``ms``."""
    t0 = time.perf_counter()
    a = await engine.search(SearchParams(command, k=50, repos=(repo,)))
    ms.append((time.perf_counter() - t0) * 1000)
    return a


def named(a: Answer) -> list[tuple[int, int, int]]:
    """The lines each note of a file read names: (first, last, of)."""
    return [(int(m[1]), int(m[2]), int(m[3])) for n in a.notes if (m := _NAMED.search(n))]


async def listed(engine: Engine, repo: str) -> set[str]:
    """Every file fourfold lists in ``repo``."""
    a = await engine.search(SearchParams("rg --files", k=1000, repos=(repo,)))
    files = {f.hit.path for f in a.hits}
    while a.cursor:
        a = await engine.search(SearchParams("rg --files", k=1000, repos=(repo,), cursor=a.cursor))
        files |= {f.hit.path for f in a.hits}
    return files


async def main_async(home: Path, corpora: Path, per_repo: int) -> dict[str, dict[str, object]]:
    engine = Engine(IndexStore(home))
    indexed = {r.name for r in IndexStore(home).repos()}
    await engine.search(SearchParams("warm up the shards", k=5))
    verdicts: dict[str, list[bool]] = defaultdict(list)
    ours_ms: dict[str, list[float]] = defaultdict(list)
    tool_ms: dict[str, list[float]] = defaultdict(list)
    misses: dict[str, list[str]] = defaultdict(list)

    async def ask(way: str, command: str, checkout: Path, repo: str) -> tuple[Answer, bytes]:
        out, ms = run(command, checkout)
        tool_ms[way].append(ms)
        return await engine_ask(engine, command, repo, ours_ms[way]), out

    def judge(way: str, agrees: bool, command: str, repo: str) -> None:
        verdicts[way].append(agrees)
        if not agrees and len(misses[way]) < 6:
            misses[way].append(f"{repo}: {command}")

    for repo in sorted(p.name for p in corpora.iterdir() if p.is_dir() and p.name in indexed):
        checkout = corpora / repo
        tool_files = set(run("rg --no-config --files", checkout)[0].decode(errors="replace").splitlines())
        both = sorted(tool_files & await listed(engine, repo))
        files = both[:per_repo]
        for path in files:
            lines = (checkout / path).read_bytes().splitlines()
            for size in SIZES:
                command = f"head -c {size} {shlex.quote(path)}"
                a, out = await ask("head -c", command, checkout, repo)
                judge("head -c", named(a)[:1] == [(1, len(out.splitlines()), len(lines))], command, repo)
                command = f"tail -c {size} {shlex.quote(path)}"
                a, out = await ask("tail -c", command, checkout, repo)
                first = len(lines) - len(out.splitlines()) + 1
                judge("tail -c", named(a)[:1] == [(first, len(lines), len(lines))], command, repo)
            third = len(lines) // 3
            if third >= 2:  # two ranges of one file; awk's test of the line number
                first, last = third, third + 4
                command = f"sed -n '{first},{last}p;{2 * third},{2 * third}p' {shlex.quote(path)}"
                a, out = await ask("sed -n 'A,Bp;C,Dp'", command, checkout, repo)
                n = len(lines)
                want = [(first, last, n), (2 * third, 2 * third, n)]
                judge("sed -n 'A,Bp;C,Dp'", named(a) == want and len(out.splitlines()) == 6, command, repo)
                command = f"awk 'NR>={first} && NR<={last}' {shlex.quote(path)}"
                a, out = await ask("awk 'NR>=A && NR<=B'", command, checkout, repo)
                judge(
                    "awk 'NR>=A && NR<=B'", named(a) == [(first, last, n)] and len(out.splitlines()) == 5, command, repo
                )
            opening = next((ln.decode(errors="replace") for ln in lines[third:] if len(ln.strip()) >= 8), "")
            fragment = re.sub(r"[][.*^$\\/]", ".", opening.strip()[:16])  # its first characters as a BRE
            if fragment and "'" not in fragment:  # from each line holding it, to the next line opening a block
                way = "sed -n '/RE/,/RE2/p'"
                command = f"sed -n '/{fragment}/,/^[a-z]/p' {shlex.quote(path)}"
                a, out = await ask(way, command, checkout, repo)
                numbered, _ = run(command.replace("/p' ", "/=' "), checkout)
                want_lines = {int(v) for v in numbered.split()}
                ours = marked_lines(a)  # the note names 5 ranges, then counts the rest: those 5 are judged
                shown = (
                    {n for n in want_lines if n <= max(ours, default=0)} if "more ranges" in a.notes[0] else want_lines
                )
                judge(way, bool(ours) and ours == shown and len(out.splitlines()) == len(want_lines), command, repo)
            if len(lines) >= 12:  # line filters piped one into another, all but the last lines, bytes from one on
                n, q = len(lines), shlex.quote(path)
                a_at, b = 2 * n // 3, 5
                for way, command, first, last in (
                    ("head -n A F | tail -n B", f"head -n {a_at} {q} | tail -n {b}", a_at - b + 1, a_at),
                    ("tail -n +A F | head -n B", f"tail -n +{a_at - 4} {q} | head -n {b}", a_at - 4, a_at),
                    ("head -n -B F", f"head -n -{n // 2} {q}", 1, n - n // 2),
                ):
                    a, out = await ask(way, command, checkout, repo)
                    judge(
                        way,
                        named(a) == [(first, last, n)] and out.splitlines() == lines[first - 1 : last],
                        command,
                        repo,
                    )
                whole = f"/home/me/{repo}/{path}"  # an agent's checkout of the repository
                calls = (  # agents' read calls of lines A-4..A, each in its tool's own words
                    f'read_file(target_file="{path}", start_line_one_indexed={a_at - 4}, '
                    f"end_line_one_indexed_inclusive={a_at})",
                    f'read_file(absolute_path="{whole}", offset={a_at - 5}, limit=5)',  # Gemini CLI: 0-based
                    f'view_file(AbsolutePath="{whole}", StartLine={a_at - 4}, EndLine={a_at})',
                    json.dumps(["bash", "-lc", f"sed -n '{a_at - 4},{a_at}p' {q}"]),
                )
                for call in calls if '"' not in path else ():
                    way = "agents' read calls (Cursor, Gemini, Windsurf, Codex)"
                    a = await engine_ask(engine, call, repo, ours_ms[way])
                    out, ms = run(f"sed -n '{a_at - 4},{a_at}p' {q}", checkout)
                    tool_ms[way].append(ms)
                    judge(
                        way,
                        named(a) == [(a_at - 4, a_at, n)] and out.splitlines() == lines[a_at - 5 : a_at],
                        call,
                        repo,
                    )
                for way, command, shown in (  # the lines shown, as the commands that print them
                    ("less +A F (as tail -n +A)", f"less +{a_at} {q}", f"tail -n +{a_at} {q}"),
                    ("open F A (SWE-agent's window)", f"open {q} {a_at}", f"head -n {a_at + 50} {q} | tail -n 100"),
                ):
                    a = await engine_ask(engine, command, repo, ours_ms[way])
                    out, ms = run(shown, checkout)
                    tool_ms[way].append(ms)
                    printed = out.splitlines()
                    first, last, _ = named(a)[0] if named(a) else (0, -1, 0)
                    agrees = bool(printed) and last - first + 1 == len(printed) and lines[first - 1 : last] == printed
                    judge(way, agrees, command, repo)
                for size in (100, 1000):
                    command = f"tail -c +{size} {q}"
                    a, out = await ask("tail -c +B F", command, checkout, repo)
                    first = n - len(out.splitlines()) + 1
                    past = not out and not a.hits and f"has {n} lines, none from line" in a.notes[0]  # a short file
                    judge("tail -c +B F", named(a)[:1] == [(first, n, n)] or past, command, repo)
        await _folders(ask, judge, checkout, repo, both)
        for one, two in itertools.pairwise(files):
            n1 = len((checkout / one).read_bytes().splitlines())
            n2 = len((checkout / two).read_bytes().splitlines())
            if n1 < 3 or n2 < 3:
                continue
            command = f"head -n 3 {shlex.quote(one)} && tail -n 3 {shlex.quote(two)}"  # two commands, in turn
            a, out = await ask("head -n 3 F1 && tail -n 3 F2", command, checkout, repo)
            want = [(1, 3, n1), (n2 - 2, n2, n2)]
            judge("head -n 3 F1 && tail -n 3 F2", named(a) == want and len(out.splitlines()) == 6, command, repo)
            first, last = n1 - 2, n1 + 3  # F1's last 3 lines, F2's first 3
            command = f"sed -n '{first},{last}p' {shlex.quote(one)} {shlex.quote(two)}"
            a, out = await ask("sed -n A,Bp F1 F2", command, checkout, repo)
            want = [(first, n1, n1), (1, 3, n2)]
            judge("sed -n A,Bp F1 F2", named(a) == want and len(out.splitlines()) == 6, command, repo)
            # the stream's last lines, piped on: F1's last 2 lines and F2's first, once both lengths are counted
            command = f"cat {shlex.quote(one)} {shlex.quote(two)} | tail -n {n2 + 2} | head -n 3"
            a, out = await ask("cat F1 F2 | tail -n B | head -n 3", command, checkout, repo)
            want = [(n1 - 1, n1, n1), (1, 1, n2)]
            judge("cat F1 F2 | tail -n B | head -n 3", named(a) == want and len(out.splitlines()) == 3, command, repo)
    await engine.stop()
    return summary(WAYS, verdicts, ours_ms, tool_ms, misses)


async def _folders(ask: Any, judge: Any, checkout: Path, repo: str, files: list[str]) -> None:
    """Globs and braces in each folder at the top (and the top itself): its most common extension's files."""
    by_folder: dict[str, list[str]] = defaultdict(list)
    for path in files:
        folder, _, name = path.rpartition("/")
        if "/" not in folder and "." in name.strip("."):
            by_folder[folder].append(name)
    for folder, names in sorted(by_folder.items()):
        ext = Counter(name.rsplit(".", 1)[1] for name in names).most_common(1)[0][0]
        prefix = f"{folder}/" if folder else ""
        glob = f"{prefix}*.{ext}"
        a, out = await ask("head -n 3 DIR/*.E", f"head -n 3 {glob}", checkout, repo)
        printed = out.decode(errors="replace").splitlines()
        held = set(files)  # a file the index holds nothing of (an empty __init__.py) is no file it reads
        headed = [line[4:-4] for line in printed if line.startswith("==> ") and line.endswith(" <==")]
        headed = [path for path in headed if path in held]
        read_files = [m[1] for n in a.notes if (m := re.search(r"segments of (\S+) \(", n))]
        judge("head -n 3 DIR/*.E", read_files == (headed or read_files[:1]) and bool(read_files), glob, repo)
        a, out = await ask("wc -l DIR/*.E", f"wc -l {glob}", checkout, repo)
        counted = [tuple(line.split()) for line in out.decode(errors="replace").splitlines()]
        counted = [c for c in (counted[:-1] if len(counted) > 1 else counted) if c[1] in held]  # less wc's total
        said = [(m[2], m[1]) for n in a.notes if (m := re.search(r"wc -l: (\S+) \(\S+\) has (\d+) lines", n))]
        judge("wc -l DIR/*.E", said == counted and bool(said), f"wc -l {glob}", repo)
        pair = sorted(n for n in names if n.endswith(f".{ext}") and "," not in n and "{" not in n)[:2]
        if len(pair) == 2:
            first_lines = len((checkout / f"{prefix}{pair[0]}").read_bytes().splitlines())
            stem = [name.rsplit(".", 1)[0] for name in pair]
            command = f"cat {shlex.quote(prefix)}{{{stem[0]},{stem[1]}}}.{ext} | sed -n '1,{first_lines + 2}p'"
            a, out = await ask("cat DIR/{A,B}.E | sed -n", command, checkout, repo)
            spans = named(a)
            judge(
                "cat DIR/{A,B}.E | sed -n",
                sum(last - first + 1 for first, last, _ in spans) == len(out.splitlines()) and len(spans) == 2,
                command,
                repo,
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--corpora", type=Path, required=True)
    ap.add_argument("--files", type=int, default=40, help="files read in each repository (default 40)")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    rows = asyncio.run(main_async(a.home, a.corpora, a.files))
    report(rows, load_before, a.out, width=24)
    return 0


if __name__ == "__main__":
    sys.exit(main())
