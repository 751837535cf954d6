"""Go find_references and impact_analysis rows from the Go type checker's uses (``benchmarks/go_uses``).

    go_ref_suite.py ROOT REPO USES.jsonl OUT.jsonl [--max 60] [--seed 7]
                    [--language go|java|typescript|javascript|python|rust|c|cpp|csharp]

The rows have the format and phrasings of ``../shared/eval/make_suite.py`` (which builds them for
Python from jedi): one row per name (a name defined more than three times says little and is left
out, as are names shorter than four characters, ``Test…``/``Benchmark…``/``Example…``/``Fuzz…``,
``main`` and ``init``, and names defined only in ``_test.go`` files). References: every line that
uses a definition of the name (the type checker's uses; a method called through an interface counts
for the interface's method, as ``go/types`` resolves it). Impact: the function or method (by
Universal Ctags' spans) enclosing each use, the name's own definitions left out: its direct dependents.
With ``--implements`` (``go_uses -implements``): "who implements X" rows (``find_references``, ids
``REPO-implementations-N``) whose answers are the named types whose value or pointer satisfies the
interface X by ``go/types`` (types in ``_test.go`` files are not counted).

With ``--language java`` the same rows for Java from javac's uses (``benchmarks/java_uses/JavaUses.java``,
``benchmarks/java_suites.sh``; source ``javac``): test files are paths with a ``test`` folder or ending in
``Test.java``, and ``main``, ``toString``, ``equals`` and ``hashCode`` are left out (too ambiguous) instead of
``main`` and ``init``. Ctags calls Java methods and constructors ``method``, so uses in them have a span.

With ``--language typescript`` the same rows for TypeScript from the TypeScript compiler's uses
(``benchmarks/ts_uses/ts_uses.js``, ``benchmarks/ts_suites.sh``; source ``tsc``): test files end in
``.spec.ts``/``.test.ts`` or lie in a ``__tests__`` folder, and ``constructor``, ``toString`` and ``main`` are
left out. Universal Ctags (5.9) gives TypeScript tags no end lines, so pass ``--spans`` (``ts_uses -spans``:
every function, method, constructor, accessor and function-valued const with its first and last line): the
enclosing definitions then come from it instead of ctags.

With ``--language javascript`` the same rows for JavaScript from the same compiler reading JavaScript
(``ts_uses.js -js``, ``benchmarks/js_suites.sh``; source ``tsc``): what it binds through CommonJS, classes, JSDoc
types and functions assigned to properties (``Runner.prototype.run = function``). Test files end in
``.spec.js``/``.test.js`` or lie in a ``test``/``tests``/``__tests__`` folder; ``--spans`` from ``ts_uses -js -spans``.

``--language python`` holds Python's skip rules and test files for ``callee_suite.py`` (whose uses come from jedi,
``benchmarks/py_uses.py``); Python's references and impact rows come from ``../shared/eval/make_suite.py``.

With ``--language rust`` the same rows for Rust from rustc's typed bodies (``benchmarks/rust_uses.py``,
``benchmarks/rust_suites.sh``; source ``rustc``): test files lie in a ``tests`` or ``benches`` folder (a crate's
inline ``#[cfg(test)]`` modules are compiled and count), and ``main``, ``new``, ``fmt``, ``default``, ``from``,
``drop``, ``clone`` and ``next`` (trait methods every type has) are left out; ``--spans`` from ``rust_uses.py``
(ctags gives Rust tags no end lines).

With ``--language c`` the same rows for C from clang's uses (``benchmarks/c_uses.py``, ``benchmarks/c_suites.sh``;
source ``clang``): test files lie in a ``test`` or ``tests`` folder or are named ``test…`` or ``…_test.c``, and
``main`` is left out; ``--spans`` from ``c_uses.py`` (each function definition's name to its body's end).

With ``--language cpp`` the same rows for C++ from clang's uses (``benchmarks/cpp_uses.py``,
``benchmarks/cpp_suites.sh``; source ``clang++``): test files as C's, a ``testing`` folder and ``…_test.cc`` /
``…_unittest.cc`` too; ``--spans`` and ``--implements`` from ``cpp_uses.py`` (the implementations rows: the
classes deriving from a class, directly or through another). A constructor is a definition named after its class,
its uses the places that construct the class by name.

With ``--language csharp`` the same rows for C# from the C# compiler's uses (``benchmarks/cs_uses/CsUses.cs``,
``benchmarks/cs_suites.sh``: Mono's mcs compiles the library with debug symbols, Mono.Cecil reads what each call,
field access and construction was bound to; source ``mcs``): test files lie in a ``test``/``tests``/``Test``/``Tests``
folder or end in ``Test.cs``/``Tests.cs``, and ``Main``, ``ToString``, ``Equals``, ``GetHashCode``, ``Dispose`` and
``GetEnumerator`` are left out; a property's uses are its accessors' calls, a construction is a use of its class;
``--spans`` (``CsUses -spans``: ctags' methods, constructors and properties, so that a use in a property's accessor
has an enclosing definition) and ``--implements`` (``CsUses -implements``: the classes and structs implementing an
interface or deriving from an abstract class, directly or through another).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys
from pathlib import Path

SKIP_PREFIXES = ("Test", "Benchmark", "Example", "Fuzz")
#: Per language: names left out, whether a path is a test file, and the rows' source.
LANGUAGES = {
    "go": (("main", "init"), lambda path: path.endswith("_test.go"), "go/types"),
    "java": (
        ("main", "toString", "equals", "hashCode"),
        lambda path: "/test/" in "/" + path or path.endswith("Test.java"),
        "javac",
    ),
    "typescript": (
        ("constructor", "toString", "main"),
        lambda path: path.endswith((".spec.ts", ".test.ts", ".spec.tsx", ".test.tsx")) or "/__tests__/" in "/" + path,
        "tsc",
    ),
    "python": (
        ("main", "__init__", "__repr__", "__str__", "__eq__", "__hash__", "__call__"),
        lambda path: (
            any(p in ("test", "tests", "testing") for p in path.split("/")[:-1])
            or path.rsplit("/", 1)[-1].startswith("test_")
        ),
        "jedi",
    ),
    "javascript": (
        ("constructor", "toString", "main"),
        lambda path: (
            path.endswith((".spec.js", ".test.js", ".spec.mjs", ".test.mjs"))
            or any(p in ("test", "tests", "__tests__") for p in path.split("/")[:-1])
        ),
        "tsc",
    ),
    "rust": (
        ("main", "new", "fmt", "default", "from", "drop", "clone", "next"),
        lambda path: "/tests/" in "/" + path or "/benches/" in "/" + path,
        "rustc",
    ),
    "c": (
        ("main",),
        lambda path: (
            any(p in ("test", "tests") for p in path.split("/")[:-1])
            or path.rsplit("/", 1)[-1].startswith("test")
            or path.endswith("_test.c")
        ),
        "clang",
    ),
    "cpp": (
        ("main",),
        lambda path: (
            any(p in ("test", "tests", "testing") for p in path.split("/")[:-1])
            or path.rsplit("/", 1)[-1].startswith("test")
            or path.endswith(("_test.cc", "_test.cpp", "_unittest.cc"))
        ),
        "clang++",
    ),
    "csharp": (
        ("Main", "ToString", "Equals", "GetHashCode", "Dispose", "GetEnumerator"),
        lambda path: (
            any(p in ("test", "tests", "Test", "Tests") for p in path.split("/")[:-1])
            or path.endswith(("Test.cs", "Tests.cs"))
        ),
        "mcs",
    ),
}
#: How the implementations rows ask (find_references: the types that satisfy an interface).
IMPLEMENTS_PHRASINGS = ("who implements {name}", "types that implement {name}")


def suite_row(query: str, intent: str, source: str, relevant: list[dict[str, object]]) -> dict[str, object]:
    """One labelled question in ``make_suite.py``'s format (answers by line)."""
    return {"query": query, "intent": intent, "match": "line", "source": source, "relevant": relevant}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("repo")
    ap.add_argument("uses", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument(
        "--implements", type=Path, default=None, help="go_uses -implements output: also 'who implements X' rows"
    )
    ap.add_argument(
        "--spans", type=Path, default=None, help="ts_uses -spans output: the enclosing definitions instead of ctags'"
    )
    ap.add_argument("--max", type=int, default=60, help="at most this many rows per intent")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--language", choices=sorted(LANGUAGES), default="go", help="whose skip rules (default go)")
    ap.add_argument("--shared-eval", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eval")
    a = ap.parse_args(argv)
    sys.path.insert(0, os.fspath(a.shared_eval))
    import make_suite  # the shared suite builder: its ctags reader and phrasings

    skip_names, is_test, source = LANGUAGES[a.language]
    rnd = random.Random(a.seed)
    spans: dict[str, list[tuple[int, int, dict[str, object]]]] = collections.defaultdict(list)
    if a.spans is not None:  # TypeScript: the compiler's spans (ctags has no end lines for it)
        for line in a.spans.read_text().splitlines():
            t = json.loads(line)
            spans[t["path"]].append((t["line"], t["end"], t))
    else:
        for t in make_suite.ctags_definitions(os.fspath(a.root)):
            if t["kind"] in ("func", "method", "function"):
                spans[t["path"]].append((t["line"], t.get("end", t["line"]), t))

    def enclosing(path: str, line: int) -> dict[str, object] | None:
        best = None
        for start, end, t in spans.get(path, ()):
            if start <= line <= end and (best is None or start >= best[0]):
                best = (start, end, t)
        return best[2] if best else None

    by_name: dict[str, list[dict[str, object]]] = collections.defaultdict(list)
    for line in a.uses.read_text().splitlines():
        d = json.loads(line)
        by_name[d["name"]].append(d)
    phrasing = make_suite.DEFAULT_PHRASING
    refs, impact = [], []
    for name, defs in sorted(by_name.items()):
        if len(name) < 4 or name.startswith(SKIP_PREFIXES) or name in skip_names or len(defs) > 3:
            continue
        if all(is_test(str(d["path"])) for d in defs):
            continue
        sites = sorted({(p, n) for d in defs for p, n in (d["uses"] or [])})
        if not sites:
            continue
        refs.append(
            suite_row(
                rnd.choice(phrasing["find_references"]).format(name=name),
                "find_references",
                source,
                [{"repo": a.repo, "path": p, "line": n} for p, n in sites],
            )
        )
        own = {(d["path"], d["line"]) for d in defs}
        dependents = {}
        for p, n in sites:
            e = enclosing(p, n)
            if e is not None and (e["path"], e["line"]) not in own:
                dependents[(e["path"], e["line"])] = {
                    "repo": a.repo, "path": e["path"], "line": e["line"], "end_line": e.get("end", e["line"])
                }  # fmt: skip
        if dependents:
            impact.append(
                suite_row(
                    rnd.choice(phrasing["impact_analysis"]).format(name=name),
                    "impact_analysis",
                    source,
                    sorted(dependents.values(), key=lambda d: (d["path"], d["line"])),
                )
            )
    implementations = []
    impl_rnd = random.Random(a.seed + 1)  # its own draws: the references and impact rows stay as they were
    if a.implements is not None:
        interfaces: dict[str, list[dict[str, object]]] = collections.defaultdict(list)
        for line in a.implements.read_text().splitlines():
            d = json.loads(line)
            interfaces[d["name"]].append(d)
        for name, defs in sorted(interfaces.items()):
            found = sorted({(p, n) for d in defs for p, n in (d["implementers"] or [])})
            if len(name) < 4 or len(defs) > 3 or not found:
                continue
            implementations.append(
                suite_row(
                    impl_rnd.choice(IMPLEMENTS_PHRASINGS).format(name=name),
                    "find_references",
                    source,
                    [{"repo": a.repo, "path": p, "line": n} for p, n in found],
                )
            )
    with a.out.open("w") as f:
        for kind, rows in (
            ("find_references", refs),
            ("impact_analysis", impact),
            ("implementations", implementations),
        ):
            (impl_rnd if kind == "implementations" else rnd).shuffle(rows)
            for i, row in enumerate(rows[: a.max]):
                f.write(json.dumps({"id": f"{a.repo}-{kind}-{i}", **row}) + "\n")
    print(
        f"{a.repo}: find_references={min(len(refs), a.max)} impact_analysis={min(len(impact), a.max)} "
        f"implementations={min(len(implementations), a.max)}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
