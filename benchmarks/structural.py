"""Structural extraction: definition recall against Universal Ctags, and throughput.

For each corpus the same files are tagged by ``ctags --output-format=json --fields=+nK -R`` and
extracted by ``fourfold.plugins.structural.extract``. A ctags tag counts as recalled when a
definition with the same path and name covers its line and has a kind that corresponds to the
ctags kind (``KIND_MAP``). Only kinds both tools know are compared: imports, anonymous
functions, object-literal properties and the like are left out and counted as skipped.

    .venv/bin/python benchmarks/structural.py [--corpus NAME=DIR ...] [--out results.json]

Without ``--corpus`` it measures the dev corpora under /root/fourfold-dev/corpora (click, httpx,
rich, express) and the checked-in fixtures. Throughput is files/s and MB/s of extraction against
the wall time of ``ctags -R`` over the same files in the same run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from fourfold.plugins.structural.extract import extract
from fourfold.plugins.types import Definition

#: File extension -> tree-sitter language (the languages the benchmark measures).
EXTENSIONS = {
    ".py": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".ts": "typescript",
    ".tsx": "tsx", ".go": "go", ".java": "java", ".rs": "rust", ".c": "c", ".h": "c", ".cpp": "cpp",
    ".hpp": "cpp", ".cc": "cpp", ".cs": "csharp", ".rb": "ruby", ".php": "php", ".kt": "kotlin",
    ".swift": "swift", ".scala": "scala",
}  # fmt: skip

#: (language, ctags kind) -> fourfold kinds that mean the same thing. Pairs not listed are skipped.
KIND_MAP: Mapping[tuple[str, str], frozenset[str]] = {
    ("python", "class"): frozenset({"class"}),
    ("python", "function"): frozenset({"function", "method"}),
    ("python", "member"): frozenset({"method", "function"}),
    ("python", "variable"): frozenset({"variable", "constant", "field"}),
    ("javascript", "class"): frozenset({"class", "function"}),  # ctags calls constructor functions classes
    ("javascript", "function"): frozenset({"function", "method"}),
    ("javascript", "generator"): frozenset({"function", "method"}),
    ("javascript", "method"): frozenset({"method", "function"}),
    ("javascript", "getter"): frozenset({"method"}),
    ("javascript", "setter"): frozenset({"method"}),
    ("javascript", "field"): frozenset({"field"}),
    ("javascript", "variable"): frozenset({"variable", "constant", "function", "class"}),
    ("javascript", "constant"): frozenset({"constant", "variable", "function", "class"}),
    ("go", "func"): frozenset({"function", "method"}),
    ("go", "struct"): frozenset({"struct"}),
    ("go", "interface"): frozenset({"interface"}),
    ("go", "type"): frozenset({"type"}),
    ("go", "talias"): frozenset({"type"}),
    ("go", "const"): frozenset({"constant"}),
    ("go", "var"): frozenset({"variable"}),
    ("go", "member"): frozenset({"field"}),
    ("go", "methodSpec"): frozenset({"method"}),
}
_CTAGS_LANGUAGES = {"python": "Python", "javascript": "JavaScript", "go": "Go"}

DEV_CORPORA = Path("/root/fourfold-dev/corpora")
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "structural"


@dataclass(slots=True)
class KindRecall:
    """Recall of one (language, ctags kind) in one corpus."""

    expected: int = 0
    found: int = 0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0


@dataclass(slots=True)
class CorpusResult:
    """Recall and throughput of one corpus."""

    name: str
    files: int = 0
    bytes: int = 0
    definitions: int = 0
    parse_errors: int = 0
    extract_s: float = 0.0
    ctags_s: float = 0.0
    skipped_tags: int = 0
    skipped_locals: int = 0
    kinds: dict[str, KindRecall] = field(default_factory=dict)
    missed: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        expected = sum(k.expected for k in self.kinds.values())
        return sum(k.found for k in self.kinds.values()) / expected if expected else 1.0

    def as_json(self) -> dict[str, object]:
        out = asdict(self)
        out["kinds"] = {k: {"expected": v.expected, "found": v.found, "recall": round(v.recall, 4)}
                        for k, v in self.kinds.items()}  # fmt: skip
        out["recall"] = round(self.recall, 4)
        out["files_per_s"] = round(self.files / self.extract_s, 1) if self.extract_s else None
        out["mb_per_s"] = round(self.bytes / 1e6 / self.extract_s, 2) if self.extract_s else None
        out["missed"] = self.missed[:50]
        return out


def source_files(root: Path) -> list[tuple[Path, str]]:
    """Files under ``root`` in a language the benchmark measures, skipping hidden and vendored folders."""
    out = []
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(p.startswith(".") or p in {"node_modules", "vendor"} for p in parts):
            continue
        language = EXTENSIONS.get(path.suffix)
        if language in _CTAGS_LANGUAGES and path.is_file():
            out.append((path, language))
    return out


def run_ctags(root: Path, files: Iterable[Path]) -> tuple[list[dict[str, object]], float]:
    """ctags JSON tags for ``files`` (paths relative to ``root``) and its wall time."""
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False) as listing:
        listing.write("\n".join(str(f.relative_to(root)) for f in files))
    started = time.perf_counter()
    proc = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+nK", "-f", "-", "-L", listing.name],
        cwd=root, capture_output=True, text=True, check=True,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    Path(listing.name).unlink()
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")], elapsed


def measure(name: str, root: Path) -> CorpusResult:
    """Extract every file of one corpus, run ctags over the same files, and compare."""
    files = source_files(root)
    result = CorpusResult(name=name, files=len(files))
    by_path: dict[str, tuple[str, tuple[Definition, ...]]] = {}
    started = time.perf_counter()
    for path, language in files:
        source = path.read_bytes()
        extraction = extract(source, language)
        result.bytes += len(source)
        result.definitions += len(extraction.definitions)
        result.parse_errors += extraction.parse_errors
        by_path[str(path.relative_to(root))] = (language, extraction.definitions)
    result.extract_s = time.perf_counter() - started
    tags, result.ctags_s = run_ctags(root, [p for p, _ in files])
    for tag in tags:
        path, tag_name, kind, line = str(tag["path"]), str(tag["name"]), str(tag["kind"]), int(tag["line"])  # type: ignore[call-overload]
        language, definitions = by_path.get(path, ("", ()))
        accepted = KIND_MAP.get((language, kind))
        if accepted is None or tag_name.startswith("AnonymousFunction"):
            result.skipped_tags += 1
            continue
        if _ctags_local(tag, language, definitions):
            result.skipped_locals += 1
            continue
        stat = result.kinds.setdefault(f"{language}:{kind}", KindRecall())
        stat.expected += 1
        if any(d.name == tag_name and d.start_line <= line <= d.end_line and d.kind in accepted for d in definitions):
            stat.found += 1
        else:
            result.missed.append(f"{path}:{line} {kind} {tag_name}")
    return result


def _ctags_local(tag: Mapping[str, object], language: str, definitions: tuple[Definition, ...]) -> bool:
    """A JavaScript tag ctags files as a global or a class that is a local inside a function.

    ctags documents its JavaScript ``variable`` kind as *global* variables, yet inside functions
    assigned in a chain (``res.set = res.header = function header () {}``) it reports their
    locals, and it reports object literals (``var ret = { ... }``) as classes. Neither is a
    definition in fourfold's sense, so such tags are counted apart (``skipped_locals``).
    """
    if language != "javascript" or tag["kind"] not in {"variable", "constant", "class"}:
        return False
    if tag["kind"] == "class" and "= {" not in str(tag.get("pattern", "")):
        return False
    line = int(tag["line"])  # type: ignore[call-overload]
    return any(d.kind in {"function", "method"} and d.start_line < line <= d.end_line for d in definitions)


def print_table(results: list[CorpusResult]) -> None:
    print(f"{'corpus':10} {'kind':24} {'expected':>8} {'found':>7} {'recall':>7}")
    for r in results:
        for kind, stat in sorted(r.kinds.items()):
            print(f"{r.name:10} {kind:24} {stat.expected:8d} {stat.found:7d} {stat.recall:7.3f}")
        print(f"{r.name:10} {'ALL':24} {sum(k.expected for k in r.kinds.values()):8d} "
              f"{sum(k.found for k in r.kinds.values()):7d} {r.recall:7.3f}")  # fmt: skip
    print()
    print(f"{'corpus':10} {'files':>6} {'MB':>6} {'defs':>6} {'errors':>6} {'extract s':>9} {'files/s':>8} {'MB/s':>6} {'ctags s':>8}")
    for r in results:
        fps = r.files / r.extract_s if r.extract_s else 0.0
        mbps = r.bytes / 1e6 / r.extract_s if r.extract_s else 0.0
        print(f"{r.name:10} {r.files:6d} {r.bytes / 1e6:6.2f} {r.definitions:6d} {r.parse_errors:6d} "
              f"{r.extract_s:9.3f} {fps:8.0f} {mbps:6.2f} {r.ctags_s:8.3f}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", default=[], metavar="NAME=DIR", help="a corpus to measure")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--show-missed", type=int, default=0, help="print this many missed tags per corpus")
    args = parser.parse_args(argv)
    corpora = [tuple(c.split("=", 1)) for c in args.corpus]
    if not corpora:
        corpora = [(n, str(DEV_CORPORA / n)) for n in ("click", "httpx", "rich", "express") if (DEV_CORPORA / n).is_dir()]
        corpora.append(("fixtures", str(FIXTURES)))
    results = [measure(name, Path(root)) for name, root in corpora]
    print_table(results)
    for r in results:
        for miss in r.missed[: args.show_missed]:
            print(f"missed {r.name}: {miss}")
    if args.out:
        args.out.write_text(json.dumps([r.as_json() for r in results], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
