"""C++ references from the C++ compiler: every use of a project's own functions and methods, as clang binds it.

    cpp_uses.py ROOT OUT.jsonl SPANS.jsonl IMPLEMENTS.jsonl [-I DIR ...] [-D MACRO ...] [--files GLOB ...]
        [--clang clang++-14]

The project is the ``.cc``/``.cpp``/``.h``/``.hpp`` files under ROOT that the ``--files`` globs (relative to ROOT)
match. Runs ``clang++ -std=c++17 -fsyntax-only -Xclang -ast-dump=json`` over each of the project's source files
(each a translation unit, compiled in ROOT with the given include folders and macros; a unit clang reports
errors in is skipped, and counted) and reads the typed tree, carrying each location's file and line as
``c_uses.py`` does:

- a function or a method with a body in a project file is a definition, at the line its name is written (a method
  defined outside its class's body: the line of ``Circle::area``); constructors (named after their class) are
  definitions with ``--constructors`` only: a question about a class's name ("usages of BlockBuilder") asks for
  every use of the type, of which the constructions counted here are a part. Destructors, operators and
  conversions are spans only;
- a ``DeclRefExpr`` naming a function or a method (a call, ``&Class::m``, a function passed as a value) and a
  ``MemberExpr`` naming a method (``obj.m()``, ``p->m()``, an implicit ``this->m()``) is a use of the declaration
  clang bound it to, at the line where the name is written (the expression's end: ``obj`` and ``.m()`` on two
  lines is the line of ``.m``; clang prints no location of an expression but its range). A call through a base
  class's pointer is the base's method, as clang binds it (a pure virtual one has no body, so such a use counts
  for no definition);
- a construction (``CXXConstructExpr``, ``CXXTemporaryObjectExpr``: ``Circle c(2)``, ``Circle(2)``, ``new
  Circle(2)``, a base's ``: Shape()``) is a use of the constructor, matched by its class and type (clang names
  the constructor no other way), at the line where it begins when its class's name is written there; one
  where it is not (an implicit conversion, a member's construction, a copy) is left out.

A name written inside a macro's body is left out, as in ``c_uses.py``. Declarations clang made itself (implicit
constructors, a lambda's class) and the instantiations of templates, which clang dumps after each template with
their pattern's locations, are read for their locations and their functions' ids only: a use is counted once,
where it is written in the template, and a use of an instantiated function or method is one of its pattern
(the declaration written at the same place). A call in a template that depends on its parameters is bound only
in the instantiations, so it is not counted.

A declaration and its definition are one function (clang's ``previousDecl`` chain); across translation units,
one by its qualified name and type (a ``static`` function's, or one in an anonymous namespace, in its unit
only). A use bound to a function defined in two places is left out.

Writes SPANS.jsonl (every function-like definition's name, first and last line, constructors and destructors
too: the enclosing definitions of the impact rows), OUT.jsonl in ``go_ref_suite.py``'s format (``{"name",
"path", "line", "uses"}``), and IMPLEMENTS.jsonl: each project class with a body that another project class
derives from, directly or through another, with those classes (``{"name", "path", "line", "implementers"}``).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path
from typing import Any

# the location reader (clang prints a location's changes only) and the compiler's run, beside it
from c_uses import Where, _lines, _Reader, clang_tree, compiler_flags, compiler_options, project_files

_FUNCTIONS = frozenset(
    {"FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl", "CXXConversionDecl"}
)
_RECORDS = frozenset({"CXXRecordDecl", "ClassTemplateSpecializationDecl", "ClassTemplatePartialSpecializationDecl"})
_COUNTED = frozenset({"FunctionDecl", "CXXMethodDecl"})  # definitions whose uses are rows (and constructors: an option)
_SOURCES = (".cc", ".cpp", ".cxx")
_TEMPLATE_ARGS = re.compile(r"<.*>")

Named = tuple[str, int, str]  # a definition: (path, line, name)
Key = tuple[str, str, str]  # (qualified name, type, the unit for a name no other unit sees)


class _CppReader(_Reader):
    constructor_rows = False  # whether constructors are definitions whose uses are rows (``--constructors``)

    def __init__(self, root: Path, unit: str, project: set[str]) -> None:
        super().__init__(root, unit, project)
        self.keys: dict[str, Key] = {}  # a function's declaration id -> the function
        self.by_place: dict[tuple[str, int, int, str], Key] = {}  # (file, line, column, name) -> a written function
        self.constructors: dict[tuple[str, str], Key] = {}  # (class, constructor's type) -> the constructor
        self.records: dict[str, str] = {}  # a class's id -> its qualified name
        self.scopes: dict[str, tuple[str, ...]] = {}  # a namespace's or a class's id -> its qualified name
        self.bodies: list[tuple[Key, str, Where, int, bool]] = []  # function, name, place, last line, counted
        self.bound: list[tuple[Key | str, Where]] = []  # (function or declaration id, where its name is written)
        self.macro_bound: list[tuple[Key | str, Where]] = []
        self.classes: dict[str, Where] = {}  # qualified name -> where its body's name is written
        self.derived: list[tuple[str, str]] = []  # (class, a base's qualified name as written)

    def read(self, tree: dict[str, Any]) -> None:
        # a node, its scope, whether that scope is its unit's own (an anonymous namespace), whether it is a copy
        # clang made (an implicit declaration, a template's instantiation: read for its locations and its
        # functions' ids only), and its parent's kind
        stack: list[tuple[dict[str, Any], tuple[str, ...], bool, bool, str]] = [(tree, (), False, False, "")]
        while stack:
            node, scope, hidden, copy, parent = stack.pop()
            kind = node.get("kind", "")
            # a definition outside its namespace's or its class's body (``class Regexp::Walker {``,
            # ``void Circle::grow() {``) is in the scope it names
            scope = self.scopes.get(node.get("parentDeclContextId", ""), scope)
            raw_loc = node.get("loc") or {}
            where, _ = self._place(raw_loc)
            span = node.get("range") or {}
            begin, begin_macro = self._place(span.get("begin"))
            end, macro_site = self._place(span.get("end"))  # an expression's end: the name it ends with
            inner_scope, inner_hidden = scope, hidden
            copy = copy or bool(node.get("isImplicit"))
            if kind == "NamespaceDecl":
                name = node.get("name")
                inner_scope = (*scope, name or "(anonymous)")
                inner_hidden = hidden or not name
                self.scopes[node["id"]] = inner_scope
            elif kind in _RECORDS and node.get("name"):
                qualified = "::".join((*scope, node["name"]))
                self.records[node["id"]] = qualified
                inner_scope = (*scope, node["name"])
                self.scopes[node["id"]] = inner_scope
                if not copy and node.get("completeDefinition") and where is not None and self._own(where[0]):
                    self.classes.setdefault(qualified, (self._rel(where[0]), where[1]))
                    for base in node.get("bases", ()):
                        written = _TEMPLATE_ARGS.sub("", base.get("type", {}).get("qualType", ""))
                        self.derived.append((qualified, written))
            elif kind in _FUNCTIONS and node.get("name"):
                self._function(node, kind, scope, hidden, copy, where, _column(raw_loc), end)
            elif copy:
                pass
            elif kind == "DeclRefExpr" and node.get("referencedDecl", {}).get("kind") in _FUNCTIONS:
                self._use(node["referencedDecl"]["id"], end, macro_site)
            elif kind == "MemberExpr" and "referencedMemberDecl" in node:
                self._use(node["referencedMemberDecl"], end, macro_site)
            elif kind in ("CXXConstructExpr", "CXXTemporaryObjectExpr") and begin is not None:
                self._construction(node, begin, begin_macro, parent)
            children = [c for v in node.values() if isinstance(v, list) for c in v if isinstance(c, dict)]
            # a template's instantiations are dumped under it, after its pattern (the first function of a
            # function template): copies
            pattern = next((c for c in children if c.get("kind") in _FUNCTIONS), None)
            for c in reversed(children):
                instance = (kind == "ClassTemplateDecl" and c.get("kind") == "ClassTemplateSpecializationDecl") or (
                    kind == "FunctionTemplateDecl" and c.get("kind") in _FUNCTIONS and c is not pattern
                )
                stack.append((c, inner_scope, inner_hidden, copy or instance, kind))

    def _function(
        self,
        node: dict[str, Any],
        kind: str,
        scope: tuple[str, ...],
        hidden: bool,
        copy: bool,
        where: Where | None,
        column: int,
        end: Where | None,
    ) -> None:
        previous = node.get("previousDecl")
        # its class or namespace: an out-of-line definition names it (``parentDeclContextId``), else the scope
        owner = self.records.get(node.get("parentDeclContextId", "")) or "::".join(scope)
        place = (*where, column, node["name"]) if where is not None else None
        if previous in self.keys:
            key = self.keys[previous]
        elif copy and place in self.by_place:  # an instantiation: its pattern, written at the same place
            key = self.by_place[place]
        else:
            qualified = f"{owner}::{node['name']}" if owner else node["name"]
            local = hidden or (node.get("storageClass") == "static" and kind == "FunctionDecl")
            key = (qualified, node.get("type", {}).get("qualType", ""), self.unit if local else "")
        self.keys[node["id"]] = key
        if place is not None and not copy:
            self.by_place.setdefault(place, key)
        if kind == "CXXConstructorDecl" and owner:
            self.constructors.setdefault((owner, _bare(node.get("type", {}).get("qualType", ""))), key)
        has_body = any(c.get("kind") == "CompoundStmt" for c in node.get("inner", ()))
        if has_body and not copy and where is not None and end is not None and self._own(where[0]):
            row = kind in _COUNTED or (kind == "CXXConstructorDecl" and self.constructor_rows)
            counted = row and not node["name"].startswith("operator")
            self.bodies.append((key, node["name"], (self._rel(where[0]), where[1]), end[1], counted))

    def _construction(self, node: dict[str, Any], begin: Where, macro_site: Where | None, parent: str) -> None:
        """A constructor's call, counted where its class is named: ``Circle c(2)``, ``Circle(2)``, ``new
        Circle(2)``, a base's ``: Shape()`` (an implicit conversion, a member's or a copy's construction, where the
        class is not written, is not a use one could read at the site)."""
        written = node.get("type", {})
        cls = _TEMPLATE_ARGS.sub("", written.get("desugaredQualType") or written.get("qualType", ""))
        cls = cls.replace("(anonymous namespace)", "(anonymous)").removeprefix("const ").removeprefix("struct ")
        cls = cls.removeprefix("class ")
        key = self.constructors.get((cls, _bare(node.get("ctorType", {}).get("qualType", ""))))
        if key is None:
            return
        if macro_site is not None:
            if self._own(macro_site[0]):
                self.macro_bound.append((key, (self._rel(macro_site[0]), macro_site[1])))
            return
        if not self._own(begin[0]):
            return
        site = (self._rel(begin[0]), begin[1])
        lines = _lines(self.root, site[0])
        short = re.compile(rf"\b{re.escape(cls.rsplit('::', 1)[-1])}\b")
        if 0 < site[1] <= len(lines) and short.search(lines[site[1] - 1]):
            self.bound.append((key, site))

    def _use(self, declaration: str, spelled: Where | None, macro_site: Where | None) -> None:
        """A name bound to ``declaration``, written at ``spelled`` (``macro_site``: where the macro whose body
        writes it is expanded)."""
        if spelled is None:
            return
        if macro_site is not None and self._own(macro_site[0]):
            self.macro_bound.append((declaration, (self._rel(macro_site[0]), macro_site[1])))
        elif macro_site is None and self._own(spelled[0]):
            self.bound.append((declaration, (self._rel(spelled[0]), spelled[1])))


def _column(loc: dict[str, Any]) -> int:
    """A location's offset in its file (where its text is written): with its file and line, one place."""
    return int((loc.get("spellingLoc") or loc).get("offset", -1))


def _bare(signature: str) -> str:
    """A constructor's type as a declaration and a construction both print it."""
    return signature.replace(" noexcept", "").strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("spans", type=Path)
    ap.add_argument("implements", type=Path)
    compiler_options(ap, "clang++-14")
    ap.add_argument("--constructors", action="store_true", help="constructors are definitions too (rows of their uses)")
    a = ap.parse_args(argv)
    root = a.root.resolve()
    project = project_files(root, a.files, (*_SOURCES, ".h", ".hpp", ".hh"))
    flags = compiler_flags(a, "-std=c++17")
    # a function -> where its bodies are: (path, line, name), two definitions may share a line
    places: dict[Key, set[Named]] = collections.defaultdict(set)
    spans: dict[Named, tuple[int, bool]] = {}  # a definition -> its last line, whether its uses are counted
    bound: set[tuple[Key, Where]] = set()
    in_macro: set[tuple[Key, Where]] = set()
    classes: dict[str, Where] = {}
    derived: set[tuple[str, str]] = set()
    failed: list[str] = []
    units = sorted(p for p in project if p.endswith(_SOURCES))
    for unit in units:
        tree = clang_tree(a.clang, flags, root, unit)
        if tree is None:
            failed.append(unit)
            continue
        reader = _CppReader(root, unit, project)
        reader.constructor_rows = a.constructors
        reader.read(tree)
        for key, name, where, last, counted in reader.bodies:
            places[key].add((*where, name))
            old = spans.get((*where, name))
            spans[(*where, name)] = (max(last, old[0]) if old else last, counted or (old is not None and old[1]))
        for found, sites in ((bound, reader.bound), (in_macro, reader.macro_bound)):
            for d, w in sites:
                key = d if isinstance(d, tuple) else reader.keys.get(d)
                if key is not None:
                    found.add((key, w))
        classes.update(reader.classes)
        derived.update(reader.derived)
    uses: dict[Named, set[Where]] = collections.defaultdict(set)
    ambiguous = unbound = 0
    for key, site in sorted(bound):
        found = places.get(key, set())
        if len(found) == 1:
            uses[next(iter(found))].add(site)
        elif found:
            ambiguous += 1
        else:
            unbound += 1
    hidden = sum(1 for key, _ in in_macro if key in places)
    # implementations: a base as written (``Shape``, ``geo::Shape``) is the project's class whose name ends so
    by_last: dict[str, list[str]] = collections.defaultdict(list)
    for qualified in classes:
        by_last[qualified.rsplit("::", 1)[-1]].append(qualified)
    direct: dict[str, set[str]] = collections.defaultdict(set)
    for cls, written in derived:
        written = written.removeprefix("::")
        matches = [
            q for q in by_last.get(written.rsplit("::", 1)[-1], ()) if q == written or q.endswith("::" + written)
        ]
        if len(matches) == 1 and matches[0] != cls:
            direct[matches[0]].add(cls)
    with a.out.open("w") as out, a.spans.open("w") as spans_out, a.implements.open("w") as impl:
        for (path, line, name), (last, counted) in sorted(spans.items()):
            spans_out.write(json.dumps({"name": name, "path": path, "line": line, "end": last}) + "\n")
            if counted:
                sites = sorted(uses.get((path, line, name), ()))
                out.write(
                    json.dumps({"name": name, "path": path, "line": line, "uses": [list(s) for s in sites]}) + "\n"
                )
        for base in sorted(direct):
            seen: set[str] = set()
            stack = list(direct[base])
            while stack:
                cls = stack.pop()
                if cls not in seen:
                    seen.add(cls)
                    stack.extend(direct.get(cls, ()))
            path, line = classes[base]
            found = sorted({classes[c] for c in seen})
            name = base.rsplit("::", 1)[-1]
            impl.write(json.dumps({"name": name, "path": path, "line": line, "implementers": [list(w) for w in found]}))
            impl.write("\n")
    print(
        f"{root.name}: {sum(1 for s in spans.values() if s[1])} counted definitions ({len(spans)} spans), "
        f"{sum(map(len, uses.values()))} uses, {len(direct)} base classes; left out: {hidden} named in a macro's "
        f"body, {ambiguous} of functions defined in two places, {unbound} of functions with no body here; "
        f"{len(failed)} of {len(units)} units failed",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
