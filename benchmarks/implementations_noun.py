"""Rephrase the implementations rows of relations suites as the noun, without a wh-word.

    python benchmarks/implementations_noun.py SUITE.jsonl [...] --out DIR
    PYTHONPATH=$PWD .venv/bin/python benchmarks/relations.py --home H DIR/*.jsonl --out OUT.json

Each row whose id names the implementations kind (``gin-implementations-3``: "who implements Binding",
"types that implement Render") is written three times, under the kinds ``phrase0`` to ``phrase2`` that
``relations.py`` reports one by one: "implementations of X", "X implementations" and "show all implementations of
the X interface", its truth unchanged. Rows of other kinds are left out; a suite without such rows writes an empty
file, which asks nothing.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

PHRASINGS = ("implementations of {}", "{} implementations", "show all implementations of the {} interface")
_ID = re.compile(r"^(?P<repo>.+)-implementations-(?P<n>\d+)$")


def rephrased(row: dict[str, object]) -> list[dict[str, object]]:
    """The row asked each way of ``PHRASINGS`` (none: not an implementations row)."""
    m = _ID.match(str(row["id"]))
    if m is None:
        return []
    name = str(row["query"]).split()[-1].strip("`'\"?")
    return [
        {**row, "id": f"{m['repo']}-phrase{j}-{m['n']}", "query": template.format(name)}
        for j, template in enumerate(PHRASINGS)
    ]


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
        print(f"{suite.name}: {len(out)} questions from {len(out) // len(PHRASINGS)} implementations rows")


if __name__ == "__main__":
    main()
