"""The functions each SWE-bench Lite issue's fix changed, from the project's own history.

Usage:  python benchmarks/swebench_functions.py SUITE.jsonl OUT.json NAME=GIT_DIR [NAME=GIT_DIR ...]

SUITE is what ``shared/eval/swebench_dev.py`` writes; each NAME (``sympy``, ``sphinx``, ``pylint``,
``xarray``, ``seaborn``, ``astropy``) names a clone of that project with its full history. An issue id
(``sphinx-doc__sphinx-8506``) ends in its pull request's number; the fix is the commit whose subject
says so (``Merge pull request #8506 ...`` or a squashed ``... (#8506)``), diffed against its first
parent. In each file the suite labels, the functions (every ``def`` around the line, a nested one's
enclosing ones too; else the innermost ``class``) that hold a changed line of the file before the
fix, or that held an added line and already existed, are the fix's functions. Writes
``[{"id", "commit", "functions": {path: [names]}}]`` for ``benchmarks/localize.py --functions``.
An issue whose commit is not found is left out.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True).stdout


def fix_commit(repo: str, number: str) -> tuple[str, str] | None:
    """(commit, first parent) of the pull request ``number``: a merge or squash subject naming it."""
    wanted = rf"(pull request #{number}( |$)|\(#{number}\))"
    out = git(repo, "log", "--all", "-E", "--format=%H %P%x09%s", f"--grep={wanted}")
    best: tuple[str, str, bool] | None = None
    for line in out.splitlines():
        shas, subject = line.split("\t", 1)
        parts = shas.split()
        exact = bool(re.search(rf"(pull request #{number}( |$)|\(#{number}\)\s*$)", subject))
        if len(parts) >= 2 and (best is None or (exact and not best[2])):
            best = (parts[0], parts[1], exact)
    return (best[0], best[1]) if best else None


def functions_at(source: str, lines: Iterable[int]) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    found: set[str] = set()
    for line in lines:
        holding = [d for d in defs if d.lineno <= line <= (d.end_lineno or d.lineno)]
        functions = [d for d in holding if not isinstance(d, ast.ClassDef)]
        if functions:  # a nested function's change is its enclosing functions' too
            found.update(d.name for d in functions)
        elif holding:
            found.add(max(holding, key=lambda d: d.lineno).name)
    return found


def changed(repo: str, commit: str, parent: str, path: str) -> list[str]:
    old_lines: list[int] = []
    new_lines: list[int] = []
    diff = git(repo, "diff", "-U0", parent, commit, "--", path)
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", diff, re.MULTILINE):
        start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
        new_start, new_count = int(m.group(3)), int(m.group(4) if m.group(4) is not None else 1)
        old_lines += range(start, start + count)
        new_lines += range(new_start, new_start + new_count)
    before = git(repo, "show", f"{parent}:{path}")
    after = git(repo, "show", f"{commit}:{path}")
    existed = functions_at(before, range(1, before.count("\n") + 2))
    return sorted(functions_at(before, old_lines) | (functions_at(after, new_lines) & existed))


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    suite = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines() if line.strip()]
    clones = dict(arg.split("=", 1) for arg in sys.argv[3:])
    out = []
    for row in suite:
        project = row["id"].split("__")[1].rsplit("-", 1)[0]
        if project not in clones:
            continue
        found = fix_commit(clones[project], row["id"].rsplit("-", 1)[1])
        if found is None:
            print(f"{row['id']}: no commit names its pull request", file=sys.stderr)
            continue
        commit, parent = found
        functions = {r["path"]: changed(clones[project], commit, parent, r["path"]) for r in row["relevant"]}
        out.append({"id": row["id"], "commit": commit, "functions": functions})
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(out)} of {len(suite)} issues: {sum(1 for o in out if any(o['functions'].values()))} with functions")


if __name__ == "__main__":
    main()
