"""C references from the C compiler: every use of a project's own functions, as clang binds it.

    c_uses.py ROOT OUT.jsonl SPANS.jsonl [-I DIR ...] [-D MACRO ...] [--clang clang-14]

Runs ``clang -fsyntax-only -Xclang -ast-dump=json`` over every ``.c`` file under ROOT (each a translation
unit, compiled in ROOT with the given include folders and macros) and reads the typed tree: every
``DeclRefExpr`` that names a function (a call, or a function used as a value: ``qsort(.., cmp)``, a
table of function pointers) is a use of the function clang bound it to, at the line where the name is
written. A name written inside a macro's body (``#define luaM_free(L, b) luaM_free_(L, b, ..)``) is left
out: a reader of the file sees the macro at the site, not the function.

clang's JSON prints a location's file and line only when they change from the location printed before
it, so the reader walks each tree in the order it was printed and carries both forward.

A use is of the definition of its name in the same translation unit where that one is ``static``; else of
the project's one external definition of the name (a name two programs of the project each define
externally, and a use clang binds to no definition here, such as ``memcpy``, are left out). A function
defined in a header (``static inline``) is one definition, however many units include it.

Writes SPANS.jsonl, each function definition's name, first and last line (its name's line to its body's
end), for ``go_ref_suite.py --spans``; and OUT.jsonl, one JSON line per definition, in ``go_ref_suite.py``'s
format: ``{"name", "path", "line", "uses": [[path, line], ...]}`` (a recursive call counts).
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

Where = tuple[str, int]  # (path relative to ROOT, line)


class _Reader:
    """One translation unit's tree, with each location's file and line carried as clang printed them."""

    def __init__(self, root: Path, unit: str, project: set[str]) -> None:
        self.root, self.unit, self.project = root, unit, project
        self.file, self.line = unit, 0
        self.definitions: list[tuple[str, Where, int, bool]] = []  # name, place, last line, static
        self.uses: list[tuple[str, Where]] = []  # the name clang bound, where it is written
        self.in_macro = 0

    def _loc(self, loc: dict[str, Any]) -> Where | None:
        """The (file, line) a bare location stands for, carrying the dumper's state."""
        if "file" in loc:
            self.file = loc["file"]
        if "line" in loc:
            self.line = loc["line"]
        return (self.file, self.line) if loc else None

    def _place(self, loc: dict[str, Any] | None) -> tuple[Where | None, bool]:
        """A node's location (printed in order, spelling before expansion): where its text is written, and
        whether that is inside a macro's body."""
        if not loc:
            return None, False
        if "spellingLoc" in loc:
            spelled = self._loc(loc["spellingLoc"])
            expanded = self._loc(loc["expansionLoc"])
            if spelled is None or not self._own(spelled[0]):  # ``<scratch space>``, a system header's macro
                return expanded, True
            return spelled, not loc["expansionLoc"].get("isMacroArgExpansion", False) or self._in_define(spelled)
        return self._loc(loc), False

    def _in_define(self, where: Where) -> bool:
        """Whether ``where`` lies in a ``#define`` (its line or a line it continues)."""
        lines = _lines(self.root, where[0])
        i = where[1] - 1
        while 0 <= i < len(lines):
            if lines[i].lstrip().startswith("#"):
                return lines[i].lstrip("# \t").startswith("define")
            if i == 0 or not lines[i - 1].rstrip().endswith("\\"):
                return False
            i -= 1
        return False

    def read(self, tree: dict[str, Any]) -> None:
        stack = [tree]
        while stack:
            node = stack.pop()
            where, _ = self._place(node.get("loc"))
            span = node.get("range") or {}
            begin, begin_macro = self._place(span.get("begin"))
            end, _ = self._place(span.get("end"))
            kind = node.get("kind")
            if kind == "FunctionDecl" and any(c.get("kind") == "CompoundStmt" for c in node.get("inner", ())):
                if where is not None and end is not None and self._own(where[0]):
                    path = self._rel(where[0])
                    static = node.get("storageClass") == "static"
                    self.definitions.append((node["name"], (path, where[1]), end[1], static))
            elif (
                kind == "DeclRefExpr"
                and node.get("referencedDecl", {}).get("kind") == "FunctionDecl"
                and begin is not None
                and not begin_macro
                and self._own(begin[0])
            ):
                self.uses.append((node["referencedDecl"]["name"], (self._rel(begin[0]), begin[1])))
            stack.extend(reversed(node.get("inner", ())))

    def _rel(self, path: str) -> str:
        return os.path.relpath(os.path.normpath(self.root / path), self.root)

    def _own(self, path: str) -> bool:
        return self._rel(path) in self.project


@functools.cache
def _lines(root: Path, path: str) -> list[str]:
    return (root / path).read_text(errors="replace").splitlines()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("spans", type=Path)
    ap.add_argument("-I", dest="include", action="append", default=[], help="an include folder, relative to ROOT")
    ap.add_argument("-D", dest="define", action="append", default=[], help="a macro to define")
    ap.add_argument("--clang", default="clang-14")
    a = ap.parse_args(argv)
    root = a.root.resolve()
    project = {str(p.relative_to(root)) for p in root.rglob("*") if p.suffix in (".c", ".h")}
    flags = ["-fsyntax-only", "-w", "-ferror-limit=0", *(f"-I{d}" for d in a.include), *(f"-D{m}" for m in a.define)]
    definitions: dict[Where, tuple[str, int, bool]] = {}
    statics: dict[tuple[str, str], set[Where]] = collections.defaultdict(set)  # (unit, name) -> its static ones
    unit_uses: list[tuple[str, str, Where]] = []
    failed = []
    for unit in sorted(p for p in project if p.endswith(".c")):
        done = subprocess.run(
            [a.clang, *flags, "-Xclang", "-ast-dump=json", unit], cwd=root, capture_output=True, text=True, timeout=600
        )
        if not done.stdout.strip():
            failed.append(unit)
            print(f"{unit}: clang printed no tree: {done.stderr.strip()[-300:]}", file=sys.stderr)
            continue
        reader = _Reader(root, unit, project)
        reader.read(json.loads(done.stdout))
        for name, where, last, static in reader.definitions:
            definitions[where] = (name, last, static)
            if static:
                statics[(unit, name)].add(where)
        unit_uses.extend((unit, name, where) for name, where in reader.uses)
    external: dict[str, list[Where]] = collections.defaultdict(list)
    for where, (name, _, static) in sorted(definitions.items()):
        if not static:
            external[name].append(where)
    uses: dict[Where, set[Where]] = collections.defaultdict(set)
    ambiguous = unbound = 0
    for unit, name, site in unit_uses:
        own = statics.get((unit, name))
        targets = own if own else set(external.get(name, ()))
        if len(targets) == 1:
            uses[next(iter(targets))].add(site)
        elif targets:
            ambiguous += 1
        else:
            unbound += 1  # the C library's, or a declaration whose definition is not in the project
    with a.out.open("w") as out, a.spans.open("w") as spans:
        for (path, line), (name, last, _) in sorted(definitions.items()):
            spans.write(json.dumps({"name": name, "path": path, "line": line, "end": last}) + "\n")
            sites = sorted(uses.get((path, line), ()))
            out.write(json.dumps({"name": name, "path": path, "line": line, "uses": [list(s) for s in sites]}) + "\n")
    print(
        f"{root.name}: {len(definitions)} definitions, {sum(map(len, uses.values()))} uses; left out: "
        f"{ambiguous} of names defined externally more than once, {unbound} of functions not defined here; "
        f"{len(failed)} of {len(failed) + len({u for u, _, _ in unit_uses})} units printed no tree",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
