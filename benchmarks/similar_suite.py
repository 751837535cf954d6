"""Build the pasted-code suites: a few lines copied out of a function, answered by that function.

    python benchmarks/similar_suite.py CORPUS:NAME [CORPUS:NAME ...] --out-dir DIR [--per-repo 60] [--lines 3]

An agent or an engineer pastes code it has in hand (from a diff, a log, a review) and asks where it
comes from and what is like it: ``find_similar``. For every documented function and method of each
corpus with at least eight lines (``howto_suite.definitions``: tests, docs and examples are no answers),
three consecutive lines of its body (``--lines``) are copied out, each at least twelve characters and none a comment
or a docstring's, and dedented as a paste is. The query is those lines, as they are; the answer is the
function (``match: line``: a hit whose line range holds the first copied line). The excerpt is picked by a
hash of the definition, so the output is deterministic for a given corpus, and split by a hash of the id
into ``similar-dev.jsonl`` and ``similar-heldout.jsonl`` as the how-to suites are. A copy some other
function holds as well still counts only its own function (the suite asks where it was copied from).
"""

from __future__ import annotations

import ast
import hashlib
import sys
import textwrap
from pathlib import Path

from howto_suite import corpora, definitions, suite_parser, write_split

__all__ = ["code_starts", "excerpt"]

LINES = 3
MIN_CHARS = 12
MIN_BODY = 8
_NOT_CODE = ("#", "//", "/*", "*", '"""', "'''", '"', "'", "@")


def code_starts(path: Path) -> dict[int, int]:
    """For a Python file: each function's ``def`` line -> the first line of its body after its docstring."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return {}
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            body = node.body
            if isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
                body = body[1:]
            out[node.lineno] = body[0].lineno if body else (node.end_lineno or node.lineno) + 1
    return out


def excerpt(
    source_lines: list[str], line: int, end_line: int, key: str, body_start: int | None = None, count: int = LINES
) -> tuple[int, str] | None:
    """(1-based first line, the pasted text) of ``count`` consecutive body lines of the definition at
    ``line``..``end_line`` (from ``body_start``: past a docstring); None when its body has no such run."""
    if end_line - line + 1 < MIN_BODY:
        return None
    starts = []
    for first in range(body_start or line + 1, end_line - count + 2):  # 1-based; the signature is not copied
        run = source_lines[first - 1 : first - 1 + count]
        if all(len(x.strip()) >= MIN_CHARS and not x.strip().startswith(_NOT_CODE) for x in run):
            starts.append(first)
    if not starts:
        return None
    first = starts[int(hashlib.sha1(key.encode()).hexdigest(), 16) % len(starts)]
    return first, textwrap.dedent("\n".join(source_lines[first - 1 : first - 1 + count]))


def main(argv: list[str] | None = None) -> int:
    ap = suite_parser(__doc__, 60)
    ap.add_argument("--lines", type=int, default=LINES, help="lines copied out of each function")
    args = ap.parse_args(argv)
    if not 1 <= args.lines <= MIN_BODY - 1:
        print(f"--lines {args.lines}: copy 1 to {MIN_BODY - 1} lines of a function's body", file=sys.stderr)
        return 2
    rows: list[dict[str, object]] = []
    for root, name in corpora(args.corpora):
        picked = []
        starts: dict[str, dict[int, int]] = {}
        for d in definitions(root, name):
            if d.kind != "function":
                continue
            file = root / d.path
            lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
            if d.path.endswith(".py") and d.path not in starts:
                starts[d.path] = code_starts(file)
            key = f"{name}:{d.path}:{d.line}"
            got = excerpt(lines, d.line, d.end_line, key, starts.get(d.path, {}).get(d.line), args.lines)
            if got is not None:
                picked.append((hashlib.sha1(key.encode()).hexdigest(), d, got))
        for n, (_, d, (first, text)) in enumerate(sorted(picked, key=lambda x: x[0])[: args.per_repo], 1):
            rows.append(
                {
                    "id": f"{name}-similar-{n}",
                    "query": text,
                    "intent": "find_similar",
                    "match": "line",
                    "source": "copied",
                    "relevant": [{"repo": name, "path": d.path, "line": first, "end_line": first + args.lines - 1}],
                }
            )
    write_split(rows, args.out_dir, "similar")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
