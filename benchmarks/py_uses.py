"""py_uses: every call of a function, method or class defined under ROOT, as jedi resolves it, for the Python callee
suites (``benchmarks/callee_suite.py ROOT REPO USES.jsonl OUT.jsonl --language python``).

    py_uses.py ROOT > USES.jsonl        (needs jedi: ``pip install jedi``)

A callee is what a function calls, so this reads the calls: every call in a file outside the tests (``f(x)``,
``obj.method(x)``, ``Class(x)``: the name called, read with ``ast``) is resolved with ``Script.goto`` (imports
followed), and a call that reaches a ``def`` or ``class`` under ROOT is a use of it. (The other languages' uses files
list every use, calls or not; a Python function named without a call, ``callback=handler``, is in no row here.)
Lines are 1-based, a definition's the line of its ``def``/``class`` name, as Universal Ctags gives them. Output: JSON
lines ``name``, ``path``, ``line``, ``uses`` ``[[path, line], ...]`` (one per definition, by path, line, name).
Summary on stderr.
"""

from __future__ import annotations

import ast
import collections
import json
import os
import sys
from pathlib import Path


def _calls(tree: ast.AST) -> list[tuple[int, int]]:
    """Where each call's name is written (the attribute's name for ``obj.method()``): 1-based line, 0-based column."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            out.append((func.lineno, func.col_offset))
        elif isinstance(func, ast.Attribute) and func.end_lineno is not None and func.end_col_offset is not None:
            out.append((func.end_lineno, func.end_col_offset - len(func.attr)))
    return sorted(set(out))


def _is_test(path: str) -> bool:
    parts = path.split("/")
    return any(p in ("test", "tests", "testing") for p in parts[:-1]) or parts[-1].startswith("test_")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: py_uses.py ROOT", file=sys.stderr)
        return 2
    import jedi  # imported here: only this oracle needs it

    root = Path(args[0]).resolve()
    extra = [os.fspath(root / d) for d in ("src", "lib") if (root / d).is_dir()]
    project = jedi.Project(os.fspath(root), added_sys_path=extra)
    uses: dict[tuple[str, int, str], set[tuple[str, int]]] = collections.defaultdict(set)
    files = asked = resolved = 0
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if _is_test(rel) or any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        files += 1
        script = jedi.Script(source, path=os.fspath(path), project=project)
        for line, column in _calls(tree):
            asked += 1
            try:
                found = script.goto(line, column, follow_imports=True)
            except Exception:  # noqa: BLE001 - jedi gives up on some names; the suite has fewer rows
                continue
            for name in found:
                module = name.module_path
                if module is None or name.type not in ("function", "class") or name.line is None:
                    continue
                target = Path(module).resolve()
                if root not in target.parents:
                    continue
                resolved += 1
                uses[(target.relative_to(root).as_posix(), name.line, name.name)].add((rel, line))
    for (path_, line_, name_), sites in sorted(uses.items()):
        print(json.dumps({"name": name_, "path": path_, "line": line_, "uses": sorted(sites)}))
    print(f"py_uses {root}: {files} files, {asked} calls, {resolved} to {len(uses)} definitions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
