"""Structural extraction: definition recall against Universal Ctags, throughput, lookup latency.

For each corpus the same files are tagged by ``ctags --output-format=json --fields=+nK -R`` and
extracted by ``fourfold.plugins.structural.extract``. A ctags tag counts as recalled when a
definition with the same path and name covers its line and has a kind that corresponds to the
ctags kind (``KIND_MAP``). Only kinds both tools know are compared: imports, anonymous
functions, object-literal properties and the like are left out and counted as skipped.

    .venv/bin/python benchmarks/structural.py [--corpus NAME=DIR ...] [--out results.json]
                                              [--latency] [--queries 200]

Without ``--corpus`` it measures the dev corpora under /root/fourfold-dev/corpora (click, httpx,
rich, express) and the checked-in fixtures. Throughput, in the same run and over the same files:

* single core: extraction's CPU time (best of ``--repeat`` passes; tree-sitter's parse alone
  beside it) against ctags' CPU time (its rusage) - CPU time, because a shared machine's wall
  clock measures the neighbours too;
* parallel: ingestion's segmentation (``ParallelSegmenter`` over the available CPUs, segments
  and all, not only definitions) of every corpus at once, wall time against ``ctags -R`` over the
  same files, in files/s and MB/s in total and per core.

``--latency`` indexes the corpora (structural modality only), starts the embedded deployment
(local Ray cluster, workers, gRPC coordinator) and times symbol lookups through a gRPC client on
the direct path (``def NAME``, ``Class.method`` and bare names): p50/p95 end to end.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from fourfold.index.ingest.parallel import FileTask, ParallelSegmenter, available_cpus
from fourfold.plugins.structural.extract import extract, parse
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
    extract_s: float = 0.0  # wall time of one pass
    extract_cpu_s: float = 0.0  # CPU time, best pass
    parse_cpu_s: float = 0.0  # CPU time of tree-sitter's parse alone, best pass
    ctags_s: float = 0.0
    ctags_cpu_s: float = 0.0
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


def run_ctags(root: Path, files: Iterable[Path], repeat: int = 1) -> tuple[list[dict[str, object]], float, float]:
    """ctags JSON tags for ``files`` (paths relative to ``root``), its wall and CPU time (best of ``repeat``)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False) as listing:
        listing.write("\n".join(str(f.relative_to(root)) for f in files))
    wall, cpu, out = float("inf"), float("inf"), ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.run(
            ["ctags", "--output-format=json", "--fields=+nK", "-f", "-", "-L", listing.name],
            cwd=root, capture_output=True, text=True, check=True,
        )  # fmt: skip
        wall = min(wall, time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out = proc.stdout
    Path(listing.name).unlink()
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")], wall, cpu


def _cpu_best(repeat: int, run: Callable[[], object]) -> float:
    """The least CPU time of ``repeat`` calls of ``run``."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def measure(name: str, root: Path, repeat: int = 3) -> CorpusResult:
    """Extract every file of one corpus, run ctags over the same files, and compare."""
    files = source_files(root)
    sources = [(path.read_bytes(), language) for path, language in files]
    for language in {language for _, language in sources}:
        extract(b"", language)  # load grammars and compile queries outside the timings
    result = CorpusResult(name=name, files=len(files))
    by_path: dict[str, tuple[str, tuple[Definition, ...]]] = {}
    started = time.perf_counter()
    for (path, _), (source, language) in zip(files, sources, strict=True):
        extraction = extract(source, language)
        result.bytes += len(source)
        result.definitions += len(extraction.definitions)
        result.parse_errors += extraction.parse_errors
        by_path[str(path.relative_to(root))] = (language, extraction.definitions)
    result.extract_s = time.perf_counter() - started
    result.extract_cpu_s = _cpu_best(repeat, lambda: [extract(source, language) for source, language in sources])
    result.parse_cpu_s = _cpu_best(repeat, lambda: [parse(source, language) for source, language in sources])
    tags, result.ctags_s, result.ctags_cpu_s = run_ctags(root, [p for p, _ in files], repeat)
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
    print(
        "single core, CPU seconds (best pass): extraction, tree-sitter's parse alone, ctags; files/s and MB/s of "
        "extraction"
    )
    print(f"{'corpus':10} {'files':>6} {'MB':>6} {'defs':>6} {'errors':>6} {'extract':>8} {'parse':>7} {'ctags':>7} "
          f"{'x ctags':>7} {'files/s':>8} {'MB/s':>6}")  # fmt: skip
    for r in results:
        fps = r.files / r.extract_cpu_s if r.extract_cpu_s else 0.0
        mbps = r.bytes / 1e6 / r.extract_cpu_s if r.extract_cpu_s else 0.0
        ratio = r.extract_cpu_s / r.ctags_cpu_s if r.ctags_cpu_s else 0.0
        print(f"{r.name:10} {r.files:6d} {r.bytes / 1e6:6.2f} {r.definitions:6d} {r.parse_errors:6d} "
        f"{r.extract_cpu_s:8.3f} "
              f"{r.parse_cpu_s:7.3f} {r.ctags_cpu_s:7.3f} {ratio:7.2f} {fps:8.0f} {mbps:6.2f}")  # fmt: skip


@dataclass(slots=True)
class ParallelResult:
    """Ingestion's segmentation of every corpus at once, in-process and over the pool, against ctags -R."""

    files: int
    bytes: int
    workers: int
    segments: int
    in_process_s: float  # wall, one process
    pool_s: float  # wall, warm pool of ``workers`` processes
    pool_start_s: float  # the first pass over a cold pool, for the record (process start, imports, grammars)
    ctags_s: float  # wall, ctags over the same files

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = asdict(self)
        mb = self.bytes / 1e6
        out.update(
            in_process_files_per_s=round(self.files / self.in_process_s, 1),
            in_process_mb_per_s=round(mb / self.in_process_s, 2),
            pool_files_per_s=round(self.files / self.pool_s, 1), pool_mb_per_s=round(mb / self.pool_s, 2),
            pool_mb_per_s_per_core=round(mb / self.pool_s / self.workers, 2),
            ctags_files_per_s=round(self.files / self.ctags_s, 1), ctags_mb_per_s=round(mb / self.ctags_s, 2),
        )  # fmt: skip
        return out


def measure_parallel(corpora: list[tuple[str, Path]], workers: int) -> ParallelResult:
    """Segment every file of ``corpora`` as ingestion does, in one process and over ``workers`` processes."""
    files = [(name, root, path, language) for name, root in corpora for path, language in source_files(root)]
    tasks = [
        FileTask(name, str(path.relative_to(root)), language, path.read_bytes()) for name, root, path, language in files
    ]
    with ParallelSegmenter(max_workers=1) as alone:
        list(alone.segment(tasks[:20]))  # grammars loaded outside the timing
        started = time.perf_counter()
        expected = list(alone.segment(tasks))
        in_process_s = time.perf_counter() - started
    with ParallelSegmenter(max_workers=workers, min_files=1) as pool:
        started = time.perf_counter()
        list(pool.segment(tasks))
        pool_start_s = time.perf_counter() - started
        started = time.perf_counter()
        pooled = list(pool.segment(tasks))
        pool_s = time.perf_counter() - started
    if pooled != expected:
        raise AssertionError("the pool's segments differ from in-process segmentation")
    _, ctags_s, _ = run_ctags(Path("/"), [path.resolve() for _, _, path, _ in files], repeat=3)
    return ParallelResult(
        files=len(tasks), bytes=sum(len(t.source) for t in tasks), workers=workers,
        segments=sum(len(s.segments) for s in expected), in_process_s=in_process_s, pool_s=pool_s,
        pool_start_s=pool_start_s, ctags_s=ctags_s,
    )  # fmt: skip


def print_parallel(r: ParallelResult) -> None:
    mb = r.bytes / 1e6
    print(
        f"\nsegmentation as ingestion does it (definitions and windows), {r.files} files, {mb:.2f} MB, {r.segments} "
        "segments; wall time"
    )
    print(f"{'how':28} {'s':>7} {'files/s':>8} {'MB/s':>6} {'MB/s/core':>9}")
    for how, seconds, cores in (("in process", r.in_process_s, 1), (f"pool of {r.workers} (warm)", r.pool_s, r.workers),
                                ("ctags -R (one process)", r.ctags_s, 1)):  # fmt: skip
        print(f"{how:28} {seconds:7.3f} {r.files / seconds:8.0f} {mb / seconds:6.2f} {mb / seconds / cores:9.2f}")
    print(f"(the pool's first pass, starting {r.workers} processes: {r.pool_start_s:.2f} s)")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure_latency(corpora: list[tuple[str, Path]], queries: int, seed: int = 7) -> dict[str, dict[str, object]]:
    """Symbol lookups through gRPC on the direct path: p50/p95 per query form, in milliseconds."""
    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    home = Path(tempfile.mkdtemp(prefix="fourfold-structural-"))
    store = IndexStore(home)
    build_generation(store, [(root, name) for name, root in corpora], modalities=["structural"], centrality=False)
    reader = store.require_live()
    try:
        defs = sorted({(s.symbol, s.qualified_name or "") for s in reader.segments()
                       if s.symbol and s.kind in {"function", "method", "class"} and len(s.symbol) > 2})  # fmt: skip
    finally:
        reader.close()
    rng = random.Random(seed)
    sample = rng.sample(defs, min(queries, len(defs)))
    forms = {
        "def NAME": [f"def {name}" for name, _ in sample],
        "Class.method": [qualified for _, qualified in sample if "." in qualified],
        "bare name": [name for name, _ in sample],
    }
    rows: dict[str, dict[str, object]] = {}
    with EmbeddedServer(home) as server, WireClient(server.address) as client:
        for query in forms["def NAME"][:10]:
            client.search(SearchParams(query=query, k=10))  # warm-up: channels, shard loads
        for form, texts in forms.items():
            elapsed, strategies, answered = [], Counter[str](), 0
            for text in texts:
                started = time.perf_counter()
                answer = client.search(SearchParams(query=text, k=10))
                elapsed.append((time.perf_counter() - started) * 1000)
                strategies[answer.fusion_strategy] += 1
                answered += bool(answer.hits)
            rows[form] = {
                "queries": len(texts), "answered": answered, "strategies": dict(strategies),
                "p50_ms": round(statistics.median(elapsed), 2), "p95_ms": round(_percentile(elapsed, 0.95), 2),
            }  # fmt: skip
    return rows


def print_latency(rows: Mapping[str, Mapping[str, object]]) -> None:
    print("\nsymbol lookup through gRPC (embedded deployment, structural modality), end to end")
    print(f"{'form':14} {'n':>5} {'answered':>8} {'p50 ms':>7} {'p95 ms':>7}  strategies")
    for form, r in rows.items():
        print(f"{form:14} {r['queries']:5} {r['answered']:8} {r['p50_ms']:7.2f} {r['p95_ms']:7.2f}  {r['strategies']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", default=[], metavar="NAME=DIR", help="a corpus to measure")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--show-missed", type=int, default=0, help="print this many missed tags per corpus")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes per corpus (the best counts)")
    parser.add_argument("--workers", type=int, default=available_cpus(), help="processes of the parallel segmentation")
    parser.add_argument("--latency", action="store_true", help="also time symbol lookups through gRPC (starts Ray)")
    parser.add_argument("--queries", type=int, default=200, help="symbols to look up per query form")
    args = parser.parse_args(argv)
    corpora = [tuple(c.split("=", 1)) for c in args.corpus]
    if not corpora:
        corpora = [
            (n, str(DEV_CORPORA / n)) for n in ("click", "httpx", "rich", "express") if (DEV_CORPORA / n).is_dir()
        ]
        corpora.append(("fixtures", str(FIXTURES)))
    results = [measure(name, Path(root), args.repeat) for name, root in corpora]
    print_table(results)
    for r in results:
        for miss in r.missed[: args.show_missed]:
            print(f"missed {r.name}: {miss}")
    parallel = measure_parallel([(name, Path(root)) for name, root in corpora], args.workers)
    print_parallel(parallel)
    report: dict[str, object] = {"corpora": [r.as_json() for r in results], "parallel": parallel.as_json()}
    if args.latency:
        report["latency"] = latency = measure_latency(
            [(n, Path(r)) for n, r in corpora if n != "fixtures"], args.queries
        )
        print_latency(latency)
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
