"""Rephrase the relations suites' questions in the terse forms an IDE's user or an agent types.

    python benchmarks/terse_forms.py SUITE.jsonl [...] --out DIR
    PYTHONPATH=$PWD .venv/bin/python benchmarks/relations.py --home H DIR/*.jsonl --out OUT.json

Each row of a relations suite (``benchmarks/<language>_suites.sh``, ``shared/eval/dev_suites.sh``) is written again,
its truth unchanged, once per terse form of its kind, under a kind of its own that ``relations.py`` reports one by
one (``gin-implementations-3`` becomes ``gin-noun0-3``, ``gin-noun1-3`` and ``gin-noun2-3``):

* implementations ("who implements X"): "implementations of X" (``noun0``), "X implementations" (``noun1``), "show
  all implementations of the X interface" (``noun2``), the noun without a wh-word;
* references: "who calls X" as "X callers" (``callers``), "usages of X" as "X usages" (``usages``), a name and then
  the noun;
* references whose truth holds a test: "which tests call X" (``tests``), its truth the tests alone;
* impact ("what depends on X", "impact of changing X"): "X dependents" (``dependents``);
* definitions ("where is X defined"): "X definition" (``definition``) and "go to X" (``goto``).

Rows of other kinds (exact strings, "def X", a bare name) are left out; a suite without such rows writes an empty file,
which asks nothing.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from fourfold.coordinator.code_first import secondary_kind

NOUNS = ("implementations of {}", "{} implementations", "show all implementations of the {} interface")
_ID = re.compile(r"^(?P<repo>.+)-(?P<kind>implementations|find_references|impact_analysis|find_definition)-(?P<n>\d+)$")


def rephrased(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The row asked in each terse form of its kind (none: a kind without one)."""
    m = _ID.match(str(row["id"]))
    if m is None:
        return []
    query = str(row["query"])
    name = query.split()[-1].strip("`'\"?")
    tests: list[dict[str, Any]] = []  # the tests among a name's uses, asked for as such
    if m["kind"] == "find_definition":
        if not query.startswith("where is "):  # "def X" and a bare name are terse already
            return []
        name = query.split()[2]
        forms = [("definition", f"{name} definition"), ("goto", f"go to {name}")]
    elif m["kind"] == "implementations":
        forms = [(f"noun{j}", template.format(name)) for j, template in enumerate(NOUNS)]
    elif m["kind"] == "find_references":
        forms = [("callers", f"{name} callers")] if query.startswith("who calls") else [("usages", f"{name} usages")]
        tests = [r for r in row["relevant"] if secondary_kind(r["path"]) == "tests"]
    else:
        forms = [("dependents", f"{name} dependents")]
    out = [{**row, "id": f"{m['repo']}-{kind}-{m['n']}", "query": text} for kind, text in forms]
    if tests:
        out.append({**row, "id": f"{m['repo']}-tests-{m['n']}", "query": f"which tests call {name}", "relevant": tests})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for suite in args.suites:
        rows = [json.loads(line) for line in suite.read_text().splitlines() if line.strip()]
        out = [r for row in rows for r in rephrased(row)]
        (args.out / suite.name).write_text("".join(json.dumps(r) + "\n" for r in out))
        print(f"{suite.name}: {len(out)} questions from {len(rows)} rows")


if __name__ == "__main__":
    main()
