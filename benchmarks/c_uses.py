"""C references from the C compiler: every use of a project's own functions, as clang binds it.

    c_uses.py ROOT OUT.jsonl SPANS.jsonl [-I DIR ...] [-D MACRO ...] [--files GLOB ...] [--clang clang-14]

The project is the ``.c`` and ``.h`` files under ROOT that the ``--files`` globs (relative to ROOT) match, by
default all of them; other files under ROOT (a test framework's headers) may be included but are not the
project's. Runs ``clang -fsyntax-only -Xclang -ast-dump=json`` over each of the project's ``.c`` files (each a
translation unit, compiled in ROOT with the given include folders and macros; a unit clang reports errors in
is skipped, and counted) and reads the typed tree: every
``DeclRefExpr`` that names a function (a call, or a function used as a value: ``qsort(.., cmp)``, a
table of function pointers) is a use of the function clang bound it to, at the line where the name is
written. A name written inside a macro's body (``#define luaM_free(L, b) luaM_free_(L, b, ..)``) is left
out: a reader of the file sees the macro at the site, not the function.

clang's JSON prints a location's file and line only when they change from the location printed before
it, so the reader walks each tree in the order it was printed and carries both forward: a node's ``loc``,
its ``range``, then its children, in ``inner`` and in any other list of nodes (an ``InitListExpr`` of a
sized array prints its filler and the initializers after it under ``array_filler``).

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
        self.in_macro: list[tuple[str, Where]] = []  # a function named in a macro's body, where that is expanded

    def _loc(self, loc: dict[str, Any]) -> Where | None:
        """The (file, line) a bare location stands for, carrying the dumper's state."""
        if "file" in loc:
            self.file = loc["file"]
        if "line" in loc:
            self.line = loc["line"]
        return (self.file, self.line) if loc else None

    def _place(self, loc: dict[str, Any] | None) -> tuple[Where | None, Where | None]:
        """A node's location (printed in order, spelling before expansion): where its text is written, and
        where the macro is expanded when that text is inside a macro's body (else None)."""
        if not loc:
            return None, None
        if "spellingLoc" in loc:
            spelled = self._loc(loc["spellingLoc"])
            expanded = self._loc(loc["expansionLoc"])
            if spelled is None or not self._own(spelled[0]):  # ``<scratch space>``, a system header's macro
                return expanded, expanded
            if loc["expansionLoc"].get("isMacroArgExpansion", False) and not self._in_define(spelled):
                return spelled, None  # an argument written at the site
            return spelled, expanded
        return self._loc(loc), None

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
            children = [c for v in node.values() if isinstance(v, list) for c in v if isinstance(c, dict)]
            where, _ = self._place(node.get("loc"))
            span = node.get("range") or {}
            begin, macro_site = self._place(span.get("begin"))
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
            ):
                name = node["referencedDecl"]["name"]
                if macro_site is not None and self._own(macro_site[0]):
                    self.in_macro.append((name, (self._rel(macro_site[0]), macro_site[1])))
                elif macro_site is None and self._own(begin[0]):
                    self.uses.append((name, (self._rel(begin[0]), begin[1])))
            stack.extend(reversed(children))

    def _rel(self, path: str) -> str:
        return os.path.relpath(os.path.normpath(self.root / path), self.root)

    def _own(self, path: str) -> bool:
        return self._rel(path) in self.project


def compiler_options(ap: argparse.ArgumentParser, clang: str) -> None:
    """The options of a compiler run over a project: include folders, macros, the project's files, the compiler."""
    ap.add_argument("-I", dest="include", action="append", default=[], help="an include folder, relative to ROOT")
    ap.add_argument("-D", dest="define", action="append", default=[], help="a macro to define")
    ap.add_argument("--files", nargs="+", default=["**/*"], help="globs relative to ROOT: the project's files")
    ap.add_argument("--clang", default=clang)


def compiler_flags(a: argparse.Namespace, *first: str) -> list[str]:
    """clang's flags for ``compiler_options``' answers (``first`` before them: a language standard)."""
    return [
        *first,
        "-fsyntax-only",
        "-w",
        "-ferror-limit=0",
        *(f"-I{d}" for d in a.include),
        *(f"-D{m}" for m in a.define),
    ]


def project_files(root: Path, globs: list[str], suffixes: tuple[str, ...]) -> set[str]:
    """The project's files: those the ``globs`` (relative to ``root``) match with one of the ``suffixes``."""
    return {str(p.relative_to(root)) for g in globs for p in root.glob(g) if p.suffix in suffixes}


def clang_tree(clang: str, flags: list[str], root: Path, unit: str) -> dict[str, Any] | None:
    """clang's typed tree of the translation unit ``unit`` (compiled in ``root``), or None when clang reports an
    error in it (said on stderr: the unit is skipped)."""
    done = subprocess.run(
        [clang, *flags, "-Xclang", "-ast-dump=json", unit], cwd=root, capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0 or not done.stdout.strip():
        errors = [line for line in done.stderr.splitlines() if "error:" in line]
        print(f"{unit}: skipped, clang failed ({len(errors)} errors): {errors[:1]}", file=sys.stderr)
        return None
    tree: dict[str, Any] = json.loads(done.stdout)
    return tree


@functools.cache
def _lines(root: Path, path: str) -> list[str]:
    return (root / path).read_text(errors="replace").splitlines()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("spans", type=Path)
    compiler_options(ap, "clang-14")
    a = ap.parse_args(argv)
    root = a.root.resolve()
    project = project_files(root, a.files, (".c", ".h"))
    flags = compiler_flags(a)
    definitions: dict[Where, tuple[str, int, bool]] = {}
    statics: dict[tuple[str, str], set[Where]] = collections.defaultdict(set)  # (unit, name) -> its static ones
    unit_uses: list[tuple[str, str, Where]] = []  # (unit, name, site)
    in_macro: list[tuple[str, str, Where]] = []  # the same, named in a macro's body: left out
    failed: list[str] = []
    units = sorted(p for p in project if p.endswith(".c"))
    for unit in units:
        tree = clang_tree(a.clang, flags, root, unit)
        if tree is None:
            failed.append(unit)
            continue
        reader = _Reader(root, unit, project)
        reader.read(tree)
        for name, where, last, static in reader.definitions:
            definitions[where] = (name, last, static)
            if static:
                statics[(unit, name)].add(where)
        unit_uses.extend((unit, name, where) for name, where in reader.uses)
        in_macro.extend((unit, name, where) for name, where in reader.in_macro)
    external: dict[str, list[Where]] = collections.defaultdict(list)
    for where, (name, _, static) in sorted(definitions.items()):
        if not static:
            external[name].append(where)

    def targets(unit: str, name: str) -> set[Where]:
        """The definitions a use of ``name`` in ``unit`` may be of: its static one there, else the external ones."""
        return statics.get((unit, name)) or set(external.get(name, ()))

    uses: dict[Where, set[Where]] = collections.defaultdict(set)
    # (name, site) left out, each counted once however many units include it
    ambiguous: set[tuple[str, Where]] = set()
    unbound: set[tuple[str, Where]] = set()
    for unit, name, site in unit_uses:
        found = targets(unit, name)
        if len(found) == 1:
            uses[next(iter(found))].add(site)
        else:  # unbound: the C library's, or a declaration whose definition is not in the project
            (ambiguous if found else unbound).add((name, site))
    hidden = {(name, site) for unit, name, site in in_macro if targets(unit, name)}
    with a.out.open("w") as out, a.spans.open("w") as spans:
        for (path, line), (name, last, _) in sorted(definitions.items()):
            spans.write(json.dumps({"name": name, "path": path, "line": line, "end": last}) + "\n")
            sites = sorted(uses.get((path, line), ()))
            out.write(json.dumps({"name": name, "path": path, "line": line, "uses": [list(s) for s in sites]}) + "\n")
    print(
        f"{root.name}: {len(definitions)} definitions, {sum(map(len, uses.values()))} uses; left out: "
        f"{len(hidden)} named in a macro's body, {len(ambiguous)} of names defined externally more than once, "
        f"{len(unbound)} of functions not defined here; {len(failed)} of {len(units)} units failed",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
