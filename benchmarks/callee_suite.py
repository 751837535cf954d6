""" "What does F call" rows from a compiler's uses: the callees of each function, as the compiler binds them.

    callee_suite.py ROOT REPO USES.jsonl OUT.jsonl [--spans SPANS.jsonl] [--language go|java|typescript|python|…]
                    [--max 40] [--seed 11]

USES is what ``benchmarks/go_uses``, ``java_uses``, ``ts_uses``, ``py_uses.py``, ``rust_uses.py``, ``c_uses.py`` or
``cpp_uses.py`` write (one definition a line, with every place that uses it); SPANS each function's first and last line
(``ts_uses -spans``, ``rust_uses.py``, ``c_uses.py``, ``cpp_uses.py``), else Universal Ctags' spans. A use inside
a function F's span is a callee of F when the used definition is a function or a method (by its ctags kind, or any
definition of a SPANS file): F's rows ask "what does F call" in one of several phrasings and their answers are the
callees' definitions. F is a function whose name is defined once in the repository (a name defined twice asks
about two functions), outside test files (``go_ref_suite.LANGUAGES``), calling at least one of the repository's
functions; F itself is left out of its callees (a recursive call). Rows: ``find_references`` with ids
``REPO-callees-N``, ``match: line``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys
from pathlib import Path

from go_ref_suite import LANGUAGES, suite_row

#: How a callee question is asked (the graph's ``callees`` relation; the router's sure rule for it).
PHRASINGS = (
    "what does {name} call",
    "what functions does {name} call",
    "callees of {name}",
    "which functions are called by {name}",
    "what does {name} invoke",
    "functions called by {name}",
)
_FUNCTION_KINDS = ("func", "function", "method")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("repo")
    ap.add_argument("uses", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--spans", type=Path, default=None)
    ap.add_argument("--language", choices=sorted(LANGUAGES), default="go")
    ap.add_argument("--max", type=int, default=40)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--shared-eval", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eval")
    a = ap.parse_args(argv)
    sys.path.insert(0, os.fspath(a.shared_eval))
    import make_suite

    _, is_test, source = LANGUAGES[a.language]
    functions: dict[tuple[str, int], tuple[str, int]] = {}  # (path, line) -> (name, end)
    if a.spans is not None:
        for line in a.spans.read_text().splitlines():
            t = json.loads(line)
            functions[(t["path"], t["line"])] = (t["name"], t["end"])
    else:
        kinds = (*_FUNCTION_KINDS, "member") if a.language == "python" else _FUNCTION_KINDS  # ctags: a method
        for t in make_suite.ctags_definitions(os.fspath(a.root)):
            if t["kind"] in kinds:
                functions[(t["path"], t["line"])] = (t["name"], t.get("end", t["line"]))
    defined = collections.Counter(name for name, _ in functions.values())
    by_path: dict[str, list[tuple[int, int, str]]] = collections.defaultdict(list)
    for (path, line), (name, end) in functions.items():
        by_path[path].append((line, end, name))

    def enclosing(path: str, line: int) -> tuple[str, int] | None:
        best = None
        for start, end, _ in by_path.get(path, ()):
            if start <= line <= end and (best is None or start >= best[1]):
                best = (path, start)
        return best

    named_in = {(path, name): (line, end) for (path, line), (name, end) in functions.items()}
    callees: dict[tuple[str, int], set[tuple[str, int]]] = collections.defaultdict(set)
    for raw in a.uses.read_text().splitlines():
        d = json.loads(raw)
        target = (d["path"], d["line"])
        if target not in functions:  # an overloaded TypeScript function: its first signature, its body's span
            body = named_in.get((d["path"], d["name"])) if a.language == "typescript" else None
            if body is None:
                continue  # a type, a field, a constant: not a callee
            functions[target] = (d["name"], max(body[1], target[1]))
        for path, line in d["uses"] or ():
            caller = enclosing(path, line)
            if caller is not None and caller != target:
                callees[caller].add(target)
    rnd = random.Random(a.seed)
    rows = []
    for caller, found in sorted(callees.items()):
        name, _ = functions[caller]
        if defined[name] != 1 or is_test(caller[0]) or len(name) < 4:
            continue
        if a.language == "csharp" and not name.isidentifier():
            continue  # what ctags calls a conversion operator or a finalizer (``operator bool?``, ``~DProxy``)
        relevant = [{"repo": a.repo, "path": p, "line": n, "end_line": functions[(p, n)][1]} for p, n in sorted(found)]
        rows.append(suite_row(rnd.choice(PHRASINGS).format(name=name), "find_references", source, relevant))
    rnd.shuffle(rows)
    with a.out.open("w") as f:
        for i, row in enumerate(rows[: a.max]):
            f.write(json.dumps({"id": f"{a.repo}-callees-{i}", **row}) + "\n")
    print(f"{a.repo}: callees={min(len(rows), a.max)} (of {len(rows)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
