"""Text modality against ripgrep: index size and speed, and query latency on the same tree.

Builds a corpus of real source (the dev corpora plus site-packages sources, copied under distinct
names until it reaches the target size), indexes each repository as one text shard through the
modality itself (build + load in-process), then times literal and regex queries, selective and
not, against ``rg`` over the same files with a warm cache. Shards are searched in parallel, one
thread per core, as the coordinator's fan-out would; ``rg`` uses its own threads.

    python benchmarks/text_vs_ripgrep.py --out text_vs_rg.json          # >= 200 MB
    python benchmarks/text_vs_ripgrep.py --small --out /tmp/smoke.json   # ~10 MB smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.segment import segment_file
from fourfold.plugins import BuildContext, ModalityQuery, Segment
from fourfold.plugins.text import TextModality, TextShard
from fourfold.plugins.types import Extraction

DEV_CORPORA = Path("/root/fourfold-dev/corpora")
SOURCE_SUFFIXES = {".py", ".pyi", ".c", ".h", ".cc", ".cpp", ".js", ".ts", ".go", ".rs", ".java", ".md", ".rst"}
MAX_FILE_BYTES = 1 << 20
#: No definitions: windows of at most 50 lines (fast; the text modality ranks lines, not ASTs).
NO_DEFINITIONS = Extraction(definitions=(), parse_errors=0, supported=False)


@dataclass(frozen=True, slots=True)
class QuerySpec:
    name: str
    mode: str  # literal | regex
    pattern: str


QUERIES = (
    # on the 200 MB corpus of text_system.py: ECONNREFUSED in 7 files, set_window_title in 6,
    # "Too many redirects" in 8, getaddrinfo in 57, raise_for_status in 180 (959 lines)
    QuerySpec("literal selective", "literal", "ECONNREFUSED"),
    QuerySpec("literal selective 2", "literal", "set_window_title"),
    QuerySpec("literal selective 3", "literal", "Too many redirects"),
    QuerySpec("literal 57 files", "literal", "getaddrinfo"),
    QuerySpec("literal 180 files", "literal", "raise_for_status"),
    QuerySpec("literal unselective", "literal", "return"),
    QuerySpec("literal 2-char", "literal", "=="),
    QuerySpec("regex selective", "regex", r"def \w+_timeout\("),
    QuerySpec("regex alternation", "regex", r"(ConnectTimeout|ReadTimeout|WriteTimeout)"),
    QuerySpec("regex unselective", "regex", r"^\s*import \w+"),
    QuerySpec("regex no trigram", "regex", r"[A-Z]\w*[0-9]{3}"),
)


@dataclass(frozen=True, slots=True)
class QueryResult:
    name: str
    mode: str
    pattern: str
    fourfold_ms: float
    rg_ms: float
    fourfold_lines: int
    rg_lines: int
    candidate_files: int


def source_roots() -> list[tuple[str, Path]]:
    """(repository name, folder) pairs: the dev corpora, then each site-packages package."""
    roots = [(p.name, p) for p in sorted(DEV_CORPORA.iterdir()) if p.is_dir()] if DEV_CORPORA.is_dir() else []
    site = Path(sysconfig.get_paths()["purelib"])
    roots += [
        (p.name, p) for p in sorted(site.iterdir()) if p.is_dir() and not p.name.endswith((".dist-info", "__pycache__"))
    ]
    return roots


def source_files(root: Path) -> Iterator[Path]:
    for p in sorted(root.rglob("*")):
        if p.suffix in SOURCE_SUFFIXES and p.is_file() and not p.is_symlink() and p.stat().st_size <= MAX_FILE_BYTES:
            yield p


def make_corpus(dest: Path, target_bytes: int) -> dict[str, Path]:
    """Copy sources under ``dest/<repo>`` until ``target_bytes``; repeat rounds as ``<repo>-copyN``."""
    repos: dict[str, Path] = {}
    total = 0
    roots = source_roots()
    for round_no in range(1000):
        for name, root in roots:
            if total >= target_bytes:
                return repos
            repo = name if round_no == 0 else f"{name}-copy{round_no}"
            out = dest / repo
            copied = 0
            for f in source_files(root):
                target = out / f.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, target)
                copied += f.stat().st_size
            if copied:
                repos[repo] = out
                total += copied
    return repos


def repo_segments(repo: str, root: Path) -> Iterator[Segment]:
    for f in sorted(root.rglob("*")):
        if f.is_file():
            rel = f.relative_to(root).as_posix()
            source = f.read_bytes()
            yield from segment_file(repo, rel, detect_language(rel, source[:64]), source, NO_DEFINITIONS).segments


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def median_ms(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def rg_args(spec: QuerySpec) -> list[str]:
    return [
        "rg",
        "--no-config",
        "--no-ignore",
        "--hidden",
        "-a",
        *(["-F"] if spec.mode == "literal" else []),
        "-e",
        spec.pattern,
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", action="store_true", help="a ~10 MB corpus for a smoke run")
    parser.add_argument("--target-mb", type=float, default=200.0, help="corpus size to reach (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per query (median reported)")
    parser.add_argument(
        "--workdir", type=Path, default=None, help="where the corpus and shards go (temporary by default)"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON here")
    args = parser.parse_args()
    if shutil.which("rg") is None:
        print("ripgrep (rg) is not on PATH; install it to compare", file=sys.stderr)
        return 2
    target = int((10 if args.small else args.target_mb) * 1e6)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="fourfold-text-bench-"))
    corpus_dir, shards_dir = work / "corpus", work / "shards"
    shutil.rmtree(corpus_dir, ignore_errors=True)
    shutil.rmtree(shards_dir, ignore_errors=True)

    t0 = time.perf_counter()
    repos = make_corpus(corpus_dir, target)
    corpus_bytes = dir_bytes(corpus_dir)
    n_files = sum(1 for p in corpus_dir.rglob("*") if p.is_file())
    print(
        f"corpus: {corpus_bytes / 1e6:.1f} MB, {n_files} files, {len(repos)} repositories "
        f"({time.perf_counter() - t0:.1f}s to copy)"
    )

    modality = TextModality()
    segment_s = build_s = 0.0
    segments_total = 0
    for repo, root in repos.items():
        t = time.perf_counter()
        segments = list(repo_segments(repo, root))
        segment_s += time.perf_counter() - t
        t = time.perf_counter()
        modality.build(segments, shards_dir / repo, BuildContext("bench", repo, (repo,)))
        build_s += time.perf_counter() - t
        segments_total += len(segments)
    index_bytes = dir_bytes(shards_dir)
    t = time.perf_counter()
    shards: list[TextShard] = [modality.load(shards_dir / repo) for repo in repos]
    load_ms = (time.perf_counter() - t) * 1000
    print(
        f"index: {index_bytes / 1e6:.1f} MB = {index_bytes / corpus_bytes:.2f}x corpus (content included); "
        f"build {build_s:.1f}s = {corpus_bytes / 1e6 / build_s:.1f} MB/s (segmenting {segment_s:.1f}s more); "
        f"{segments_total} segments; load {len(shards)} shards {load_ms:.0f} ms"
    )

    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    results: list[QueryResult] = []
    for spec in QUERIES:
        query = ModalityQuery(spec.pattern, k=10, case_sensitive=True, options={"mode": spec.mode})

        def ours(q: ModalityQuery = query) -> list[object]:
            return list(pool.map(lambda s: s.search(q), shards))

        answers = ours()  # warm-up, and the counts
        lines = sum(a.total_matches for a in answers)  # type: ignore[attr-defined]
        candidates = sum(int(a.notes[0].rsplit("; ", 1)[1].split()[0]) for a in answers)  # type: ignore[attr-defined]
        ours_ms = median_ms(ours, args.repeat)
        rg_cmd = rg_args(spec)
        counted = subprocess.run([*rg_cmd, "-c", "--include-zero", str(corpus_dir)], capture_output=True, text=True)
        rg_lines = sum(int(line.rsplit(":", 1)[1]) for line in counted.stdout.splitlines() if line)

        def rg(cmd: list[str] = rg_cmd) -> None:
            subprocess.run([*cmd, "-n", "--no-heading", str(corpus_dir)], stdout=subprocess.DEVNULL, check=False)

        rg()
        rg_ms = median_ms(rg, args.repeat)
        results.append(QueryResult(spec.name, spec.mode, spec.pattern, ours_ms, rg_ms, lines, rg_lines, candidates))

    header = (
        f"{'query':<22} {'pattern':<44} {'fourfold ms':>11} {'rg ms':>8} {'x faster':>8} {'lines':>8} "
        f"{'rg lines':>8} {'cand.files':>10}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        print(
            f"{r.name:<22} {r.pattern[:44]:<44} {r.fourfold_ms:>11.1f} {r.rg_ms:>8.1f} {r.rg_ms / r.fourfold_ms:>8.2f} "
            f"{r.fourfold_lines:>8} {r.rg_lines:>8} {r.candidate_files:>10}"
        )
    summary = {
        "corpus_bytes": corpus_bytes,
        "files": n_files,
        "repositories": len(repos),
        "segments": segments_total,
        "index_bytes": index_bytes,
        "index_ratio": index_bytes / corpus_bytes,
        "build_seconds": build_s,
        "segment_seconds": segment_s,
        "index_mb_per_s": corpus_bytes / 1e6 / build_s,
        "load_ms": load_ms,
        "threads": os.cpu_count(),
        "queries": [asdict(r) for r in results],
    }
    if args.out:
        args.out.write_text(json.dumps(summary, indent=2))
        print(f"wrote {args.out}")
    if args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
