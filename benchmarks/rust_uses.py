"""Rust references from the Rust compiler: every call of a crate's own functions and methods, as rustc binds it.

    rust_uses.py CRATE_DIR CRATE_NAME OUT.jsonl SPANS.jsonl [--edition 2018] [--feature F ...] [--test]

Runs ``rustc -Zunpretty=thir-flat`` (with ``RUSTC_BOOTSTRAP=1``, so a stable rustc prints it) over the
crate's ``src/lib.rs``: the typed body of every function after name resolution and type checking, where
each call and each function used as a value names the definition rustc bound it to (``DefId``), and a
method call through a trait's generic parameter or object the trait's method. Each such use whose span
lies in the crate's own files (not inside a macro's definition) is a use of that definition.

A definition's place comes from Universal Ctags (``function``/``method`` tags): the function tag nearest
above the definition's body, when it has the definition's name (rustc prints no place for the definition
itself, only for the expressions of its body; a function a macro defines has no tag and is left out), or
for a trait's method without a body the tag of that name in the trait.

Writes SPANS.jsonl, each function's name, first and last line (its tag's line to its body's end: ctags
gives Rust tags no end lines), for ``go_ref_suite.py --spans``; and OUT.jsonl, one JSON line per
definition, in ``go_ref_suite.py``'s format: ``{"name", "path", "line", "uses": [[path, line], ...]}``
(a recursive call counts). With
``--test`` the crate is compiled as its test harness, so calls in ``#[cfg(test)]`` modules count too.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
from pathlib import Path

_HEADER = re.compile(r"^DefId\(0:\d+ ~ [^\[]+\[[0-9a-f]+\]::(.+)\):$")
_FNDEF = re.compile(r"^(\s*)ty: FnDef\($")
_TARGET = re.compile(r"^\s*DefId\(0:\d+ ~ [^\[]+\[[0-9a-f]+\]::(.+)\),$")
_SPAN = re.compile(r"^(\s*)span: (.+?):(\d+):\d+: (\d+):\d+ \(#(\d+)\),$")


def thir(root: Path, name: str, edition: str, features: list[str], test: bool) -> str:
    cmd = ["rustc", "--edition", edition, "--crate-type", "lib", "--crate-name", name, "--cap-lints", "allow"]
    for f in features:
        cmd += ["--cfg", f'feature="{f}"']
    if test:
        cmd.append("--test")
    cmd += ["-Zunpretty=thir-flat", "src/lib.rs"]
    env = {**os.environ, "RUSTC_BOOTSTRAP": "1"}
    done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        sys.exit(f"rustc failed on {root}:\n{done.stderr[-4000:]}")
    return done.stdout


def parse(out: str, files: set[str]) -> tuple[dict[str, list[tuple[str, int, int]]], dict[str, set[tuple[str, int]]]]:
    """(each body's DefId path -> the (path, first, last line) of its expressions; each target -> its use sites)."""
    bodies: dict[str, list[tuple[str, int, int]]] = collections.defaultdict(list)
    uses: dict[str, set[tuple[str, int]]] = collections.defaultdict(set)
    body = ""
    pending: tuple[str, str] | None = None  # (indent of the Expr's ty: FnDef, target) awaiting its span
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("DefId("):
            m = _HEADER.match(line)
            body = m.group(1) if m else ""
            pending = None
            continue
        m = _FNDEF.match(line)
        if m and i + 1 < len(lines):
            t = _TARGET.match(lines[i + 1])
            if t:
                pending = (m.group(1), t.group(1))
            continue
        m = _SPAN.match(line)
        if m is None:
            continue
        path, start = m.group(2), int(m.group(3))
        if path in files and m.group(5) == "0":  # the crate's own text, not a macro's expansion
            bodies[body].append((path, start, int(m.group(4))))
            if pending is not None and pending[0] == m.group(1):
                uses[pending[1]].add((path, start))
        if pending is not None and pending[0] == m.group(1):
            pending = None
    return bodies, uses


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("name")
    ap.add_argument("out", type=Path)
    ap.add_argument("spans", type=Path, help="where to write each function's first and last line (--spans)")
    ap.add_argument("--edition", default="2018")
    ap.add_argument("--feature", action="append", default=[])
    ap.add_argument("--test", action="store_true", help="compile the test harness: #[cfg(test)] code counts")
    ap.add_argument("--shared-eval", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eval")
    a = ap.parse_args(argv)
    sys.path.insert(0, os.fspath(a.shared_eval))
    import make_suite  # the shared suite builder's ctags reader

    files = {p.relative_to(a.root).as_posix() for p in a.root.rglob("*.rs")}
    bodies, uses = parse(thir(a.root, a.name, a.edition, a.feature, a.test), files)
    tags = [t for t in make_suite.ctags_definitions(os.fspath(a.root)) if t["kind"] in ("function", "method")]
    by_name: dict[str, list[dict]] = collections.defaultdict(list)
    by_path: dict[str, list[dict]] = collections.defaultdict(list)
    for t in tags:
        by_name[t["name"]].append(t)
        by_path[t["path"]].append(t)

    def place(defid: str) -> tuple[dict, int] | None:
        """The ctags tag of ``defid`` and its last line: the tag of its name nearest above its body (rustc
        gives the body's span, ctags the line of the name), else a bodiless trait method's tag in its trait."""
        parts = [re.sub(r"#\d+$", "", part) for part in defid.split("::")]  # test::f#1: the test, not its descriptor
        candidates = by_name.get(parts[-1], [])
        sites = bodies.get(defid, [])
        if sites:
            paths = {p for p, _, _ in sites}
            if len(paths) != 1:
                return None
            (path,) = paths
            first, last = min(n for _, n, _ in sites), max(e for _, _, e in sites)
            # the function tag nearest above the body must be of its name: a function a macro defines
            # has no tag, and the nearest one above is another's
            above = [t for t in by_path.get(path, []) if t["line"] <= first]
            nearest = max(above, key=lambda t: t["line"]) if above else None
            return (nearest, last) if nearest is not None and nearest["name"] == parts[-1] else None
        if len(parts) >= 2:
            owned = [
                t
                for t in candidates
                if t.get("scopeKind") == "interface" and t.get("scope", "").split("::")[-1] == parts[-2]
            ]
            if len(owned) == 1:
                return owned[0], owned[0]["line"]
        return None

    written = unplaced = 0
    seen: set[tuple[str, int]] = set()
    with a.out.open("w") as f, a.spans.open("w") as g:
        for defid in sorted(set(bodies) | set(uses)):
            if "{closure" in defid:
                continue
            placed = place(defid)
            if placed is None:
                unplaced += defid in uses
                continue
            t, end = placed
            if (t["path"], t["line"]) in seen:
                continue
            seen.add((t["path"], t["line"]))
            sites = sorted(uses.get(defid, ()))
            f.write(json.dumps({"name": t["name"], "path": t["path"], "line": t["line"], "uses": sites}) + "\n")
            g.write(json.dumps({"name": t["name"], "path": t["path"], "line": t["line"], "end": end}) + "\n")
            written += 1
    print(f"{a.name}: {written} definitions, {sum(len(v) for v in uses.values())} uses; "
          f"{unplaced} used definitions without a ctags place", file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
