"""Text modality against ripgrep and csearch: index size and speed, and query latency on the same tree.

Builds a corpus of real source (the dev corpora plus site-packages sources, copied under distinct
names until it reaches the target size), indexes each repository as one text shard through the
modality itself (build + load in-process), then times literal and regex queries, selective and
not, against ``rg`` over the same files with a warm cache. Shards are searched in parallel, one
thread per core, as the coordinator's fan-out would; ``rg`` uses its own threads. ``csearch``
(Debian ``codesearch``: the same trigram-index idea) answers from a ``cindex`` of the same tree.
Each round times fourfold, rg and csearch one after the other (interleaved), medians reported,
with the load average before and after (the machine may be shared). fourfold is asked as the
coordinator asks a literal/regex listing: ``k`` files (``--k``, default 50) with every matching
line and exact totals.

    python benchmarks/text_vs_ripgrep.py --out text_vs_rg.json          # >= 200 MB
    python benchmarks/text_vs_ripgrep.py --small --out /tmp/smoke.json   # ~10 MB smoke run

To iterate on the search: build once into a ``--workdir``, then ``--reuse`` (corpus, shards and
``cindex`` kept) with ``--only NoReturn --only alternation`` for the queries at hand; after a
change to the shard format, ``--reuse-corpus`` rebuilds the shards from the kept corpus.
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
    QuerySpec("literal stubs", "literal", "SupportsRead"),
    QuerySpec("literal NoReturn", "literal", "NoReturn"),
    QuerySpec("literal __slots__", "literal", "__slots__"),
    QuerySpec("literal self", "literal", "self"),
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
    csearch_ms: float | None
    fourfold_lines: int
    rg_lines: int
    csearch_lines: int | None
    fourfold_files: int
    candidate_files: int
    fourfold_exact: bool  # False: a shard stopped at k files and the counts are lower bounds


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


def pack_repos(repos: dict[str, Path], pack_mb: float) -> dict[str, list[str]]:
    """Shard name -> its repositories: one each, or (``pack_mb``) packed by name up to that size."""
    if pack_mb <= 0:
        return {repo: [repo] for repo in repos}
    packs: dict[str, list[str]] = {}
    current: list[str] = []
    size = 0
    for repo in sorted(repos):
        if current and size + dir_bytes(repos[repo]) > pack_mb * 1e6:
            packs[f"pack{len(packs):03d}"] = current
            current, size = [], 0
        current.append(repo)
        size += dir_bytes(repos[repo])
    if current:
        packs[f"pack{len(packs):03d}"] = current
    return packs


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


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


_GO_META = set("\\.+*?()|[]{}^$")


def go_quote(literal: str) -> str:
    """``regexp.QuoteMeta``: csearch takes Go RE2 syntax, which refuses escapes of plain characters."""
    return "".join("\\" + c if c in _GO_META else c for c in literal)


def cs_args(spec: QuerySpec) -> list[str]:
    return ["csearch", "-n", go_quote(spec.pattern) if spec.mode == "literal" else spec.pattern]


def interleaved(fns: dict[str, object], repeat: int) -> dict[str, float]:
    """Median ms of each function, timed in turn within each round (A, B, C, A, B, C ...)."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()  # type: ignore[operator]
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", action="store_true", help="a ~10 MB corpus for a smoke run")
    parser.add_argument("--target-mb", type=float, default=200.0, help="corpus size to reach (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per query (median reported)")
    parser.add_argument(
        "--workdir", type=Path, default=None, help="where the corpus and shards go (temporary by default)"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON here")
    parser.add_argument(
        "--reuse", action="store_true", help="keep the corpus and shards a previous run left in --workdir"
    )
    parser.add_argument(
        "--reuse-corpus",
        action="store_true",
        help="keep the corpus and csearch index in --workdir but build the shards again",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="time only the queries whose name or pattern holds this text (repeatable)",
    )
    parser.add_argument("--k", type=int, default=50, help="files fourfold returns per query (default 50)")
    parser.add_argument(
        "--pack-mb",
        type=float,
        default=0.0,
        help="pack repositories into shards of about this many MB, as compound shards do (default 0: one a repository)",
    )
    args = parser.parse_args()
    load_before = os.getloadavg()
    if shutil.which("rg") is None:
        print("ripgrep (rg) is not on PATH; install it to compare", file=sys.stderr)
        return 2
    target = int((10 if args.small else args.target_mb) * 1e6)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="fourfold-text-bench-"))
    corpus_dir, shards_dir = work / "corpus", work / "shards"
    keep_corpus = (args.reuse or args.reuse_corpus) and corpus_dir.is_dir()
    reuse = args.reuse and not args.reuse_corpus and keep_corpus and shards_dir.is_dir()
    if not keep_corpus:
        shutil.rmtree(corpus_dir, ignore_errors=True)
        (work / "csearchindex").unlink(missing_ok=True)
    if not reuse:
        shutil.rmtree(shards_dir, ignore_errors=True)

    t0 = time.perf_counter()
    repos = {p.name: p for p in sorted(corpus_dir.iterdir())} if keep_corpus else make_corpus(corpus_dir, target)
    corpus_bytes = dir_bytes(corpus_dir)
    n_files = sum(1 for p in corpus_dir.rglob("*") if p.is_file())
    print(
        f"corpus: {corpus_bytes / 1e6:.1f} MB, {n_files} files, {len(repos)} repositories "
        f"({time.perf_counter() - t0:.1f}s to copy)"
    )

    modality = TextModality()
    segment_s = build_s = 0.0
    segments_total = 0
    packs = pack_repos(repos, args.pack_mb)
    for shard_name, members in packs.items() if not reuse else ():
        t = time.perf_counter()
        segments = [s for repo in members for s in repo_segments(repo, repos[repo])]
        segment_s += time.perf_counter() - t
        t = time.perf_counter()
        modality.build(segments, shards_dir / shard_name, BuildContext("bench", shard_name, tuple(members)))
        build_s += time.perf_counter() - t
        segments_total += len(segments)
    index_bytes = dir_bytes(shards_dir)
    t = time.perf_counter()
    shards: list[TextShard] = [modality.load(p) for p in sorted(shards_dir.iterdir())]
    load_ms = (time.perf_counter() - t) * 1000
    built = f"build {build_s:.1f}s = {corpus_bytes / 1e6 / build_s:.1f} MB/s" if build_s else "reused"
    print(
        f"index: {index_bytes / 1e6:.1f} MB = {index_bytes / corpus_bytes:.2f}x corpus (content included); "
        f"{built} (segmenting {segment_s:.1f}s more); "
        f"{segments_total} segments; load {len(shards)} shards {load_ms:.0f} ms"
    )

    cs_env: dict[str, str] | None = None
    cindex_bytes = 0
    cindex_cpu_s = 0.0
    if shutil.which("cindex") and shutil.which("csearch"):
        cs_env = {**os.environ, "CSEARCHINDEX": str(work / "csearchindex")}
        if not (keep_corpus and (work / "csearchindex").is_file()):
            before = os.times()
            subprocess.run(["cindex", str(corpus_dir)], env=cs_env, capture_output=True, check=True)
            after = os.times()
            cindex_cpu_s = (after.children_user - before.children_user) + (
                after.children_system - before.children_system
            )
        cindex_bytes = (work / "csearchindex").stat().st_size
        timed = f"{cindex_cpu_s:.1f} CPU-s" if cindex_cpu_s else "kept"
        print(f"cindex: {cindex_bytes / 1e6:.1f} MB = {cindex_bytes / corpus_bytes:.2f}x corpus, {timed}")
    else:
        print("csearch/cindex not on PATH (Debian package codesearch): no csearch column", file=sys.stderr)

    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    results: list[QueryResult] = []
    specs = [q for q in QUERIES if not args.only or any(o in q.name or o in q.pattern for o in args.only)]
    for spec in specs:
        query = ModalityQuery(spec.pattern, k=args.k, case_sensitive=True, options={"mode": spec.mode, "group": "file"})

        def ours(q: ModalityQuery = query) -> list[object]:
            return list(pool.map(lambda s: s.search(q), shards))

        answers = ours()  # warm-up, and the counts
        lines = sum(a.total_matches for a in answers)  # type: ignore[attr-defined]
        files = sum(a.total_files for a in answers)  # type: ignore[attr-defined]
        exact = not any(a.total_lower_bound for a in answers)  # type: ignore[attr-defined]
        candidates = sum(int(a.notes[0].rsplit("; ", 1)[1].split()[0]) for a in answers)  # type: ignore[attr-defined]
        rg_cmd = rg_args(spec)
        counted = subprocess.run([*rg_cmd, "-c", "--include-zero", str(corpus_dir)], capture_output=True, text=True)
        rg_lines = sum(int(line.rsplit(":", 1)[1]) for line in counted.stdout.splitlines() if line)

        def rg(cmd: list[str] = rg_cmd) -> None:
            subprocess.run([*cmd, "-n", "--no-heading", str(corpus_dir)], stdout=subprocess.DEVNULL, check=False)

        fns: dict[str, object] = {"fourfold": ours, "rg": rg}
        cs_lines: int | None = None
        if cs_env is not None:
            cs_cmd = cs_args(spec)
            out = subprocess.run(cs_cmd, env=cs_env, capture_output=True, check=False).stdout
            cs_lines = out.count(b"\n")

            def cs(cmd: list[str] = cs_cmd, env: dict[str, str] = cs_env) -> None:
                subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=False)

            fns["csearch"] = cs
        rg()
        med = interleaved(fns, args.repeat)
        results.append(
            QueryResult(
                spec.name,
                spec.mode,
                spec.pattern,
                med["fourfold"],
                med["rg"],
                med.get("csearch"),
                lines,
                rg_lines,
                cs_lines,
                files,
                candidates,
                exact,
            )
        )

    header = (
        f"{'query':<22} {'pattern':<28} {'fourfold ms':>11} {'rg ms':>8} {'cs ms':>8} {'x rg':>7} {'x cs':>6} "
        f"{'lines':>8} {'rg lines':>8} {'cs lines':>8} {'files':>6} {'cand.':>6}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        cs_ms = f"{r.csearch_ms:>8.1f}" if r.csearch_ms is not None else f"{'-':>8}"
        x_cs = f"{r.csearch_ms / r.fourfold_ms:>6.2f}" if r.csearch_ms is not None else f"{'-':>6}"
        ours_lines = ("" if r.fourfold_exact else ">=") + str(r.fourfold_lines)
        print(
            f"{r.name:<22} {r.pattern[:28]:<28} {r.fourfold_ms:>11.1f} {r.rg_ms:>8.1f} {cs_ms} "
            f"{r.rg_ms / r.fourfold_ms:>7.2f} {x_cs} {ours_lines:>8} {r.rg_lines:>8} "
            f"{r.csearch_lines if r.csearch_lines is not None else '-':>8} {r.fourfold_files:>6} {r.candidate_files:>6}"
        )
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} ({os.cpu_count()} CPUs)")
    summary = {
        "corpus_bytes": corpus_bytes,
        "files": n_files,
        "repositories": len(repos),
        "segments": segments_total,
        "index_bytes": index_bytes,
        "index_ratio": index_bytes / corpus_bytes,
        "build_seconds": build_s,
        "segment_seconds": segment_s,
        "index_mb_per_s": corpus_bytes / 1e6 / build_s if build_s else None,  # None: --reuse, no build timed
        "load_ms": load_ms,
        "threads": os.cpu_count(),
        "k": args.k,
        "cindex_bytes": cindex_bytes,
        "cindex_ratio": cindex_bytes / corpus_bytes if cindex_bytes else None,
        "cindex_cpu_seconds": cindex_cpu_s,
        "load_average_before": load_before,
        "load_average_after": load_after,
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
