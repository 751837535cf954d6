"""Text search through the whole system against ripgrep, in the same run.

    python benchmarks/text_system.py [--target-mb 200] [--groups 4] [--out bench-results/text_system.json]

Builds a corpus of real source with ``text_vs_ripgrep.make_corpus`` (the dev corpora plus
site-packages sources, copied under distinct names until the target size), grouped into
``--groups`` repositories so that shards stay near the 64 MB split size. Indexes it with
`fourfold index --modality text --no-centrality` semantics (in-process build: the text modality
only — embedding 200 MB is not what this measures), starts `fourfold serve` (local Ray, workers,
coordinator) and times literal and regex queries through a gRPC client → coordinator → text
workers, against `rg` over the same tree with a warm page cache. Then natural-language questions
through the same client, as a user asks them (the default preset, the coordinator routing and
fusing over what the store has: the text modality) and as text BM25 alone; p50 and p95 over all
questions and rounds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load import start_server, stop_server  # noqa: E402
from text_vs_ripgrep import QUERIES, dir_bytes, make_corpus, rg_args  # noqa: E402

#: Questions in words, as a person or an agent asks them (no quotes, no regex).
NATURAL = (
    "how does the retry logic work",
    "parse a date string into a datetime",
    "where are http redirects followed",
    "read a json config file",
    "how are cookies stored between requests",
    "compress data with zlib",
    "validate an email address",
    "how is the connection pool sized",
    "convert a path to an absolute path",
    "handle a timeout when connecting",
    "what happens when a worker process crashes",
    "sort a list of dictionaries by key",
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target-mb", type=float, default=200.0)
    ap.add_argument("--groups", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--reuse", action="store_true", help="reuse the corpus and index already in --workdir")
    args = ap.parse_args(argv)
    if shutil.which("rg") is None:
        print("ripgrep (rg) is not on PATH", file=sys.stderr)
        return 2

    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams
    from fourfold.index.generation import IndexSummary, build_generation
    from fourfold.index.store import IndexStore

    work = args.workdir or Path(tempfile.mkdtemp(prefix="fourfold-text-system-"))
    staging, corpus, home = work / "staging", work / "corpus", work / "home"
    reuse = args.reuse and IndexStore(home).live_generation() is not None and corpus.is_dir()
    if not reuse:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(corpus, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
        t = time.perf_counter()
        repos = make_corpus(staging, int(args.target_mb * 1e6))
        for i, (name, path) in enumerate(sorted(repos.items())):
            dest = corpus / f"group{i % args.groups}" / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            path.rename(dest)
        shutil.rmtree(staging, ignore_errors=True)
        print(f"corpus: {len(repos)} source trees copied in {time.perf_counter() - t:.0f}s", flush=True)
    corpus_bytes = dir_bytes(corpus)
    print(f"corpus: {corpus_bytes / 1e6:.1f} MB in {args.groups} repositories", flush=True)

    t = time.perf_counter()
    if reuse:
        summary = IndexSummary(
            **{
                k: v
                for k, v in IndexStore(home).require_live().manifest["summary"].items()
                if k in ("generation", "files", "segments", "bytes", "seconds")
            }
        )
        index_s = summary.seconds
    else:
        summary = build_generation(
            IndexStore(home),
            [(corpus / f"group{i}", f"group{i}") for i in range(args.groups)],
            modalities=["text"],
            centrality=False,
        )
        index_s = time.perf_counter() - t
    gen = IndexStore(home).require_live()
    text_bytes = dir_bytes(gen.root / "text")
    print(
        f"index: {summary.files} files, {len(gen.shards('text'))} text shards, {index_s:.0f}s "
        f"({corpus_bytes / 1e6 / index_s:.2f} MB/s on one process, segmentation included); text shards "
        f"{text_bytes / 1e6:.1f} MB = {text_bytes / corpus_bytes:.2f}x corpus",
        flush=True,
    )

    rows = []
    proc, address = start_server(home, 1, work / "serve.log")
    try:
        with WireClient(address, timeout_s=120) as client:
            for spec in QUERIES:
                params = SearchParams(
                    query=spec.pattern,
                    k=10,
                    modalities=("text",),
                    intent="exact_match",
                    case_sensitive=True,
                    options={"mode": spec.mode},
                    deadline_ms=60_000,
                )
                first = client.search(params)  # warm-up
                times = []
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    r = client.search(params)
                    times.append((time.perf_counter() - t0) * 1000)
                ours = statistics.median(times)
                cmd = rg_args(spec)

                def rg(cmd: list[str] = cmd) -> None:
                    subprocess.run([*cmd, "-n", "--no-heading", str(corpus)], stdout=subprocess.DEVNULL, check=False)

                rg()
                rg_times = []
                for _ in range(max(3, args.repeat // 2)):
                    t0 = time.perf_counter()
                    rg()
                    rg_times.append((time.perf_counter() - t0) * 1000)
                theirs = statistics.median(rg_times)
                rows.append(
                    {
                        "query": spec.name,
                        "mode": spec.mode,
                        "pattern": spec.pattern,
                        "fourfold_ms": round(ours, 2),
                        "rg_ms": round(theirs, 2),
                        "speedup": round(theirs / ours, 2),
                        "hits": len(r.hits),
                        "partial": first.partial,
                    }
                )
                print(json.dumps(rows[-1]), flush=True)
            natural: dict[str, list[float]] = {"default preset": [], "text BM25": []}
            for round_no in range(args.repeat + 1):
                for question in NATURAL:  # the two ways interleaved, question by question
                    for label, nl in (
                        ("default preset", SearchParams(query=question, k=10, deadline_ms=60_000)),
                        (
                            "text BM25",
                            SearchParams(
                                query=question,
                                k=10,
                                modalities=("text",),
                                intent="understand_code",
                                options={"mode": "bm25"},
                                deadline_ms=60_000,
                            ),
                        ),
                    ):
                        t0 = time.perf_counter()
                        client.search(nl)
                        if round_no:  # the first round warms the shards
                            natural[label].append((time.perf_counter() - t0) * 1000)
    finally:
        stop_server(proc)
    print()
    print(f"{'query':<22} {'fourfold ms':>11} {'rg ms':>8} {'rg/fourfold':>11}")
    for r in rows:
        print(f"{r['query']:<22} {r['fourfold_ms']:>11.2f} {r['rg_ms']:>8.1f} {r['speedup']:>11.2f}")
    print()
    print(f"{'natural language':<22} {'p50 ms':>8} {'p95 ms':>8}   ({len(NATURAL)} questions x {args.repeat} rounds)")
    nl_rows = {}
    for label, times in natural.items():
        times.sort()
        nl_rows[label] = {
            "p50_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        }
        print(f"{label:<22} {nl_rows[label]['p50_ms']:>8.1f} {nl_rows[label]['p95_ms']:>8.1f}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            json.dumps(
                {
                    "corpus_mb": corpus_bytes / 1e6,
                    "files": summary.files,
                    "index_s": index_s,
                    "index_ratio": text_bytes / corpus_bytes,
                    "rows": rows,
                    "natural_language": nl_rows,
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
