r"""Agents' search commands on fourfold's own source, against the tools themselves.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/own_commands.py [--rev HEAD] [--out OUT.json]

The repository at ``--rev`` is written out (``git archive``) to a temporary folder, indexed there (text, structural,
graph) and made a git repository of its own; then each command of :data:`COMMANDS` (grep, rg, git grep, ag, find,
fd, git ls-files, pipes, ``xargs``, counts sorted, ``xargs wc``, find's ``-o``, sizes) is run by bash in that folder
(``LC_ALL=C.UTF-8``: UTF-8 text, in byte order) and asked of fourfold, interleaved, both timed. Nothing here is a
corpus or suite to fetch: a fresh checkout runs it as it is.

Judged per command, by what the command prints:

* ``files``: the paths it prints (``rg -l``, ``find``, ``fd``, ``git ls-files``; ``./`` dropped) against the files
  fourfold lists and those its note names as not indexed (a binary file, a symbolic link), and the count of the
  others against its total;
* ``lines``: the (path, line) pairs it prints (``path:line:text``; a file searched alone prints ``line:text``)
  against the lines fourfold lists;
* ``counts``: the ``path:count`` lines of ``grep -c`` sorted largest first, against fourfold's files in order with
  their matching lines, ties by path on both sides (where ``head`` cuts a tie, the paths of that last count are not
  compared);
* ``ordered``: a listing in the order of its paths (``rg --sort path``, ``| sort``, git's own order before a head):
  what it prints, in order, against fourfold's files (or lines, or counts) in order;
* ``wc``: the ``N path`` rows and ``N total`` that ``wc -l`` prints of a listing's files (sorted by count, cut by a
  head or a tail), against the counts fourfold's note prints, and its files in the note's order;
* ``head``: ``| head -N`` keeps the first N lines the tool prints in the order its threads walk the tree, which no
  index reproduces; judged by the command without its head, run too: fourfold lists N of its lines (or files), each
  one it prints, or all of them where it prints fewer.

An answer that is not complete, or holds ``K`` files, is not judged. Per family: the commands judged, the share that
agree, each disagreement named, and the medians of both sides' milliseconds; the load averages before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from grep_output import report, summary  # the same rows, table and JSON (this script's folder is on the path)

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.errors import InvalidQuery
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore

K = 500
#: (family, what it prints, the command, the file a single-file search names: its lines print no path)
COMMANDS: tuple[tuple[str, str, str, str], ...] = (
    ("rg", "files", "rg -l 'def search'", ""),
    ("rg", "files", "rg -l -t py asyncio.to_thread", ""),
    ("rg", "files", "rg -l 'Engine\\(' -g '!tests/**'", ""),
    ("rg", "files", "rg -il grpc --type py workers", ""),
    ("rg", "files", "rg --files-with-matches Ray workers", ""),
    ("rg", "files", "rg -l sqlite3 index", ""),
    ("rg", "lines", "rg -n 'class \\w+Error' coordinator", ""),
    ("rg", "lines", "rg -n -w read coordinator/search_command.py", "coordinator/search_command.py"),
    ("rg", "lines", "rg -n '^def ' plugins/types.py", "plugins/types.py"),
    ("rg", "lines", "rg -n -F '[:3]'", ""),
    ("rg", "lines", "rg -n 'TODO|FIXME|XXX'", ""),
    ("rg", "lines", "rg -n -e 'ray.init' -e 'ray.remote' workers", ""),
    ("rg", "lines", "rg -n 'os\\.environ\\[' --type py", ""),
    ("rg", "lines", "rg -n PRAGMA index", ""),
    ("rg", "lines", "rg -n 'def \\w+\\(self, p: SearchParams' coordinator/engine.py", "coordinator/engine.py"),
    ("rg", "lines", "rg -nU 'def read\\(\\n\\s+query' coordinator", ""),
    ("grep -r", "files", "grep -rln 'pytest.mark.slow' tests", ""),
    ("grep -r", "files", "grep -rl TODO --include='*.md' .", ""),
    ("grep -r", "lines", "grep -rn 'import ray' --include=*.py .", ""),
    ("grep -r", "lines", "grep -rn --exclude-dir=tests 'subprocess.run' .", ""),
    ("grep -r", "lines", "grep -Ern 'def (read|write)\\b' coordinator", ""),
    ("grep -r", "lines", "grep -rni ReadIness --include='*.py' coordinator", ""),
    ("grep -r", "lines", "grep -rn 'class .*Command' --include='*.py' coordinator index", ""),
    ("git grep", "lines", "git grep -n TODO", ""),
    ("git grep", "lines", "git grep -n -w Engine -- '*.py' ':!tests'", ""),
    ("git grep", "lines", "git grep -n hookimpl -- plugins", ""),
    ("git grep", "files", "git grep -l -e ContextVar --and -e Callable", ""),
    ("ag", "files", "ag -l ContextVar", ""),
    ("ag", "files", "ag --ignore tests -l ContextVar", ""),
    ("ag", "files", "ag -l --python dataclass coordinator", ""),
    ("ag", "lines", "ag 'raise \\w+Error' index", ""),
    ("a file at the top", "lines", "rg -n version pyproject.toml setup.py", ""),
    ("a file at the top", "lines", "grep -n -e fourfold -e pytest Makefile pyproject.toml", ""),
    ("pathspecs, operands", "files", "git grep -l ContextVar -- ':(glob)**/*.py'", ""),
    ("pathspecs, operands", "files", "git grep -l fourfold -- ':(top)coordinator' ':(exclude)coordinator/cli.py'", ""),
    ("pathspecs, operands", "files", "rg -l ContextVar coordinator/search_*.py coordinator/auth.py", ""),
    ("pathspecs, operands", "files", "rg -l fourfold --type-add 'conf:*.{toml,cfg}' -t conf", ""),
    ("pathspecs, operands", "lines", "rg -n TODO coordinator || true", ""),
    ("listings", "files", "find . -name '*.proto'", ""),
    ("listings", "files", "find . -type f -name '*.toml'", ""),
    ("listings", "files", "find . -name '*.py' -not -path './tests/*' -not -path './benchmarks/*'", ""),
    ("listings", "files", "find docs -type f", ""),
    ("listings", "files", "fd -e py test tests", ""),
    ("listings", "files", "fd -e proto . protos", ""),
    ("listings", "files", "fd -e yaml", ""),
    ("listings", "files", "rg --files -g '*.md'", ""),
    ("listings", "files", "git ls-files '*.yaml'", ""),
    ("listings", "files", "git ls-files | grep helm", ""),
    ("pipes", "lines", "rg -n hookimpl plugins/ | grep -v test", ""),
    ("pipes", "lines", "grep -rn MAX_K --include=*.py . | grep -v test", ""),
    ("pipes", "files", "rg -l LineFilter | grep -v test", ""),
    ("pipes", "files", "find coordinator -name '*.py' | xargs grep -l 're.compile'", ""),
    ("pipes", "files", "find . -name '*.py' -exec grep -l ContextVar {} +", ""),
    ("pipes", "files", "rg -l 'async def' | xargs grep -l await", ""),
    ("counts sorted", "counts", "rg -c 'def ' coordinator | sort -t: -k2 -rn", ""),
    ("counts sorted", "counts", "grep -rc import --include=*.py . | grep -v ':0$' | sort -t: -k2 -nr | head -10", ""),
    ("counts sorted", "counts", "rg --count InvalidQuery | sort -t: -k2 -n | tail -5", ""),
    ("counts sorted", "counts", "rg -n 'def ' plugins | cut -d: -f1 | sort | uniq -c | sort -rn | head -5", ""),
    ("counts sorted", "counts", "git grep -n import | awk -F: '{print $1}' | sort | uniq -c | sort -n | tail -3", ""),
    ("sorted by path", "ordered", "rg -l ContextVar | sort | head -3", ""),
    ("sorted by path", "ordered", "rg --sort path -n 'def ' coordinator | head -7", ""),
    ("sorted by path", "ordered", "git grep -n import -- '*.py' | head -5", ""),
    ("sorted by path", "ordered", "git ls-files '*.md' | head -3", ""),
    ("sorted by path", "ordered", "find . -name '*.proto' | sort", ""),
    ("sorted by path", "ordered", "rg -c import coordinator | sort | head -3", ""),
    ("head", "head", "rg -n ContextVar | head -5", ""),
    ("head", "head", "grep -rn 'import ray' --include=*.py . | grep -v test | head -n 3", ""),
    ("head", "head", "rg -l 'def ' coordinator | head -3", ""),
    ("head", "head", "find . -name '*.proto' | head -2", ""),
    ("git's * across /", "files", "git ls-files 'plugins/*/plugin.py'", ""),
    ("git's * across /", "files", "git grep -l hookimpl -- 'plugins/*.py'", ""),
    ("git's * across /", "files", "git grep -l Engine -- 'coordinator/*.py' ':!tests/*/*.py'", ""),
    ("ignore globs", "files", "rg -l ContextVar -g '!coordinator'", ""),
    ("ignore globs", "files", "rg -l TODO -g '!*.md' -g '!benchmarks'", ""),
    ("ignore globs", "files", "fd -e py -E tests -E benchmarks proto", ""),
    ("wc -l of a listing", "wc", "find coordinator -name '*.py' | xargs wc -l | sort -n | tail -4", ""),
    ("wc -l of a listing", "wc", "git ls-files 'plugins/*.py' | xargs wc -l | sort -rn | head -6", ""),
    ("wc -l of a listing", "wc", "fd -e py . index | xargs wc -l", ""),
    ("wc -l of a listing", "wc", "rg -l asyncio.to_thread | xargs wc -l | sort -n | tail -3", ""),
    ("wc -l of a listing", "wc", "find plugins/text -name '*.py' -exec wc -l {} +", ""),
    ("wc -l of a listing", "wc", "git ls-files 'coordinator/*.py' | xargs wc -l | tail -1", ""),
    ("wc -l of a listing", "wc", "fd -e scm -X wc -l | sort -rn | head -4", ""),
    ("head FILE | grep", "lines", "head -60 coordinator/notes.py | grep -n MAX", "coordinator/notes.py"),
    ("head FILE | grep", "lines", "head -400 coordinator/engine.py | grep -n 'def '", "coordinator/engine.py"),
    ("listings", "files", "fd -e toml --max-depth 1", ""),
    ("files not indexed", "files", "git ls-files coordinator", ""),
    ("files not indexed", "files", "find . -name '*.npz'", ""),
    ("files not indexed", "files", "git ls-files 'fourfold/*'", ""),
    ("files not indexed", "files", "fd -e npz -e json . coordinator", ""),
    ("find's -o", "files", "find . \\( -path ./tests -o -path ./benchmarks \\) -prune -o -name '*.py' -print", ""),
    ("find's -o", "files", "find . -path ./tests -prune -o \\( -name '*.toml' -o -name '*.cfg' \\) -print", ""),
    ("sizes", "files", "find plugins -name '*.py' -size +20k", ""),
    ("sizes", "files", "find . -name '*.py' -empty", ""),
    ("sizes", "files", "fd -e py --size +30ki", ""),
    ("sizes", "files", "find . -name '*.npz' -size +100k", ""),
    ("sizes", "files", "find coordinator -type f ! -size -40k", ""),
    ("wc's other counts", "wc", "find coordinator -name '*.py' | xargs wc -c | sort -n | tail -3", ""),
    ("wc's other counts", "wc", "git ls-files 'plugins/text/*.py' | xargs wc", ""),
    ("wc's other counts", "wc", "fd -e scm -X wc -w | sort -rn | head -4", ""),
    ("wc's other counts", "wc", "find index -name '*.py' -exec wc -lc {} +", ""),
)
FAMILIES = tuple(dict.fromkeys(family for family, *_ in COMMANDS))


def run(command: str, cwd: Path) -> tuple[str, float]:
    """What bash prints running ``command`` in ``cwd`` (fd as Debian names it), and its milliseconds."""
    shell = re.sub(r"(^|\| )fd ", r"\1fdfind ", re.sub(r"(^|\| )rg ", r"\1rg --no-config ", command))
    env = {"LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd)}
    t0 = time.perf_counter()
    done = subprocess.run(shell, shell=True, cwd=cwd, capture_output=True, text=True, errors="replace", env=env)
    return done.stdout, (time.perf_counter() - t0) * 1000


def agrees(kind: str, a: Answer, out: str, lone: str, command: str = "", cwd: Path | None = None) -> bool:
    """Whether ``a`` lists what the command printed (``kind``: files, lines, counts, or head: its first lines)."""
    rows = [row for row in out.split("\n") if row]
    if kind == "wc":  # "  N [M …] path" rows and "N [M …] total", in any order (sort -n | tail prints the largest last)
        said = next((n for n in a.notes if re.match(r"wc(?: -\w+)?: ", n)), "wc: ").split(": ", 1)[1].split(" (")[0]
        ours = sorted(_wc_row(row) for row in said.split(", ") if " " in row)
        printed_rows = sorted(_wc_row(row.strip()) for row in rows)
        return ours == printed_rows and [f.hit.path for f in a.hits] == [p for _, p in _in_order(said) if p != "total"]
    if kind == "ordered":  # the same rows, in the same order
        printed = [row.removeprefix("./") for row in rows]
        if all(re.match(r"[^:]+:\d+:", row) for row in printed):  # path:line:text
            return [(f.hit.path, line) for f in a.hits for line in f.hit.match_lines] == [
                (p, int(line)) for p, line, _ in (row.split(":", 2) for row in printed)
            ]
        if all(re.fullmatch(r"[^:]+:\d+", row) for row in printed):  # path:count
            return [f"{f.hit.path}:{len(f.hit.match_lines)}" for f in a.hits] == printed
        return [f.hit.path for f in a.hits] == printed
    if kind == "head":  # judged by what the command prints without its head
        n = int(re.findall(r"\| head (?:-n )?-?(\d+)$", command)[0])
        whole, _ = run(re.sub(r" \| head .*$", "", command), cwd or Path("."))
        printed = [row.removeprefix("./") for row in whole.split("\n") if row]
        if all(re.match(r"[^:]+:\d+:", row) for row in printed):  # path:line:text
            pairs = {(p, int(line)) for p, line, _ in (row.split(":", 2) for row in printed)}
            listed = [(f.hit.path, line) for f in a.hits for line in f.hit.match_lines]
            return len(listed) == min(n, len(pairs)) and set(listed) <= pairs
        return len(a.hits) == min(n, len(printed)) and {f.hit.path for f in a.hits} <= set(printed)
    if kind == "files":  # each file it prints listed, or named in the note of the files not indexed
        printed = {row.removeprefix("./") for row in rows if not row.endswith("/")}  # fd's folders: in its notes
        named = _not_indexed(a)
        return {f.hit.path for f in a.hits} | named == printed and a.total_files == len(printed - named)
    if kind == "lines":
        pairs = set()
        for row in rows:
            found = re.match(r"(?:\./)?([^:]+):(\d+):", row) if not lone else re.match(r"()(\d+):", row)
            if found is None:
                return False
            pairs.add((found[1] or lone, int(found[2])))
        return {(f.hit.path, n) for f in a.hits for n in f.hit.match_lines} == pairs
    if all(re.fullmatch(r"\s*\d+ \S+", r) for r in rows):  # uniq -c: "   N path"
        counted = sorted(((p.removeprefix("./"), int(n)) for n, p in (r.split() for r in rows)), key=_by_count)
    else:  # grep -c: "path:N"
        counted = sorted(((p.removeprefix("./"), int(n)) for p, n in (r.rsplit(":", 1) for r in rows)), key=_by_count)
    ours = sorted(((f.hit.path, len(f.hit.match_lines)) for f in a.hits), key=_by_count)  # ties by path, as above
    listed = [(f.hit.path, len(f.hit.match_lines)) for f in a.hits][: len(counted)]
    if [n for _, n in listed] != [n for _, n in counted] or listed != ours[: len(counted)]:
        return False  # not in order of their counts, largest first
    least = counted[-1][1] if counted else 0
    return {p for p, n in listed if n > least} == {p for p, n in counted if n > least}


def _not_indexed(a: Answer) -> set[str]:
    """The paths a listing's note names as not indexed (``N files here are not indexed, so not listed: a.png
    (binary), …``)."""
    said = next((n for n in a.notes if " not indexed, so not listed: " in n), "")
    named = said.split(" not indexed, so not listed: ", 1)[-1].split("; ", 1)[0] if said else ""
    return {m[1] for m in re.finditer(r"(?:^|, )(\S+) \(", named)}


def _wc_row(row: str) -> tuple[tuple[int, ...], str]:
    """A row wc prints (``  43  305 a.py``) or a note shows (``43 305 a.py``): its counts and its path."""
    *counts, path = row.split()
    return tuple(map(int, counts)), path.removeprefix("./")


def _in_order(said: str) -> list[tuple[tuple[int, ...], str]]:
    """The (counts, path) rows of a ``wc -l: …`` note, in its order."""
    return [_wc_row(row) for row in said.split(", ") if " " in row]


def _by_count(row: tuple[str, int]) -> tuple[int, str]:
    return -row[1], row[0]


async def measure(home: Path, checkout: Path) -> dict[str, dict[str, object]]:
    engine = Engine(IndexStore(home))
    await engine.search(SearchParams("warm up the shards", k=5))
    verdicts: dict[str, list[bool]] = defaultdict(list)
    misses: dict[str, list[str]] = defaultdict(list)
    ours_ms: dict[str, list[float]] = defaultdict(list)
    tool_ms: dict[str, list[float]] = defaultdict(list)
    for family, kind, command, lone in COMMANDS:
        t0 = time.perf_counter()
        try:
            a = await engine.search(SearchParams(command, k=K))
        except InvalidQuery as refused:  # a clear refusal, where the tool prints its lines: a miss
            verdicts[family].append(False)
            misses[family].append(f"{command}  [refused: {refused}]")
            continue
        ours_ms[family].append((time.perf_counter() - t0) * 1000)
        out, ms = run(command, checkout)
        tool_ms[family].append(ms)
        if (not a.complete and kind not in ("head", "counts", "ordered", "wc")) or len(
            a.hits
        ) >= K:  # a head: not complete
            misses[family].append(f"not judged (more than a page): {command}")
            continue
        verdict = agrees(kind, a, out, lone, command, checkout)
        verdicts[family].append(verdict)
        if not verdict:
            misses[family].append(f"{command}  [{len(out.splitlines())} printed, {len(a.hits)} listed]")
    await engine.stop()
    return summary(FAMILIES, verdicts, ours_ms, tool_ms, misses)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="HEAD", help="the revision of this repository to write out and index")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    top = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="fourfold-own-") as tmp:
        checkout, home = Path(tmp) / "fourfold", Path(tmp) / "home"
        checkout.mkdir()
        archive = subprocess.run(["git", "archive", a.rev], cwd=top, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(checkout)], input=archive, check=True)
        commit = "git init -q && git add -A && git -c user.email=b@local -c user.name=bench commit -qm tree"
        subprocess.run(commit, shell=True, cwd=checkout, check=True)
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sys.stderr):
            build_generation(IndexStore(home), [(checkout, "fourfold")], modalities=["text", "structural", "graph"])
        print(f"indexed {a.rev} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        load_before = os.getloadavg()
        rows = asyncio.run(measure(home, checkout))
    report(rows, load_before, a.out, width=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
