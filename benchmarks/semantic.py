#!/usr/bin/env python3
"""Benchmark of the semantic modality: quality (float, binary, binary+rescore, IVF), speed, size.

    python benchmarks/semantic.py [--dev ~/fourfold-dev] [--backends int8,fp32] [--out result.json]
    python benchmarks/semantic.py --build [--rounds 3] [--configs A;B]   # build cost before/after the economies
    python benchmarks/semantic.py --scaling [--workers 1,2] [--chunks 384]   # Ray embedding scaling only

Suites:
  cosqa       the development half of CoSQA (real web queries, one Python function each),
              indexed from ``corpora/cosqa``; a hit counts when its file is the answer.
  docstrings  docstring -> function pairs from the Python corpora (click, httpx, rich): every
              docstring is blanked out of the indexed code, and its first sentence is the query;
              a hit counts when it is the function's own segment.

For each embedder backend and suite it reports MRR@10 and success@1/@10 for exact float search
(every window's float vector), binary (Hamming only), binary+rescore (Hamming top-N, rescored
with the float16 vectors: the modality's default) on a flat index, and the same on IVF at the
default preset, with IVF's recall@10 against flat. Then embedding throughput on ~200-token
chunks, query latency, IVF vs flat search latency on a shard grown to 100k windows by
perturbing real codes, and bytes per 100k segments.

``--build`` measures what an index build spends on embedding a whole corpus (CoSQA plus the
docstring corpora), before and after the build's economies, interleaved (before, after, before,
after...) in one process: CPU seconds of the process (every onnxruntime thread counted), wall
seconds, segments and windows per CPU second, and CoSQA's MRR@10 (binary+rescore) from each
build. "before" turns the economies off (``semantic.skip/dedup/sort=off``, embedder batches of 32,
no embedding cache), "after" is the default, "after, warm cache" the default again with the
embedding cache filled by an earlier build (a rebuild, an interrupted build resumed, the same
code under another repository name), "after, no doc windows" the default without the
documentation windows (what they cost). ``--configs "after;after, no doc windows"`` runs only those.

``--scaling`` measures the distributed build's embedding alone: real ~200-token chunks of the
httpx and click corpora embedded with MiniLM int8 in batches through ``RayMap`` (one Ray task of one CPU
per batch, as an index build runs them) on a fresh local Ray cluster of 1, then 2 CPUs. It
reports chunks/s for each, the scaling efficiency (rate with n workers / (n x the rate with
one)), and the CPU seconds each task spent per chunk: on a machine busy with other work the
wall rate drops while the CPU cost stays, so both are given (``cpu_efficiency``: the CPU cost
per chunk with one worker over that with n: what an idle machine would show, Ray's per-task
overhead aside).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.segment import content_hash, segment_file
from fourfold.index.ingest.walk import read_source, walk_repository
from fourfold.plugins import BuildContext, ModalityQuery, Segment
from fourfold.plugins.embedders import MiniLMEmbedder
from fourfold.plugins.embedders.local import default_model_dir
from fourfold.plugins.semantic import SemanticModality, SemanticShard, store

K = 10


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    relevant: frozenset[str]  # segment ids ("id" match) or "repo/path" ("file" match)
    match: str  # "id" or "file"


@dataclass(frozen=True, slots=True)
class Quality:
    mrr10: float
    success1: float
    success10: float


# --- corpora and suites ----------------------------------------------------------------------------


def segment_repo(root: Path, repo: str, rewrite: Callable[[str, str], str] | None = None) -> list[Segment]:
    """Segments of one corpus as ingestion cuts them; ``rewrite(path, text)`` may edit Python first."""
    out: list[Segment] = []
    for file in walk_repository(root).files:
        source, _ = read_source(file)
        if source is None:
            continue
        language = detect_language(file.path, source[:512])
        if not language:
            continue
        if rewrite is not None and language == "python":
            source = rewrite(file.path, source.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        out.extend(segment_file(repo, file.path, language, source).segments)
    return out


def cosqa_suite(dev: Path) -> tuple[list[Segment], list[Query]]:
    segments = segment_repo(dev / "corpora" / "cosqa", "cosqa")
    queries = []
    for line in (dev / "suites" / "cosqa.jsonl").read_text().splitlines():
        row = json.loads(line)
        queries.append(Query(row["query"], frozenset(f"{r['repo']}/{r['path']}" for r in row["relevant"]), "file"))
    return segments, queries


def _docstrings(text: str) -> list[tuple[str, int, int, int, str]]:
    """(function name, def line, docstring first line, docstring last line, first sentence) per documented function."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                doc = " ".join(first.value.value.strip().split("\n\n")[0].split())
                sentence = doc.split(". ")[0].rstrip(".")
                found.append((node.name, node.lineno, first.lineno, first.end_lineno or first.lineno, sentence))
    return found


def docstring_suite(dev: Path, repos: Sequence[str], max_pairs: int) -> tuple[list[Segment], list[Query]]:
    pairs: dict[tuple[str, str], list[tuple[str, int, str]]] = {}

    def blank_docstrings(repo: str) -> Callable[[str, str], str]:
        def rewrite(path: str, text: str) -> str:
            lines = text.split("\n")
            for name, def_line, first, last, sentence in _docstrings(text):
                if len(sentence.split()) >= 5 and name not in sentence:
                    pairs.setdefault((repo, path), []).append((name, def_line, sentence))
                for i in range(first - 1, last):
                    lines[i] = ""  # keep line numbers: segments still point at the real code
            return "\n".join(lines)

        return rewrite

    segments: list[Segment] = []
    for repo in repos:
        segments.extend(segment_repo(dev / "corpora" / repo, repo, blank_docstrings(repo)))
    by_file: dict[tuple[str, str], list[Segment]] = {}
    for seg in segments:
        by_file.setdefault((seg.repo, seg.path), []).append(seg)
    queries = []
    for (repo, path), found in pairs.items():
        for name, def_line, sentence in found:
            owners = [
                s for s in by_file.get((repo, path), []) if s.symbol == name and s.start_line <= def_line <= s.end_line
            ]
            if owners:
                owner = min(owners, key=lambda s: s.end_line - s.start_line)
                queries.append(Query(sentence, frozenset({owner.id}), "id"))
    rng = np.random.default_rng(0)
    if len(queries) > max_pairs:
        queries = [queries[i] for i in sorted(rng.choice(len(queries), max_pairs, replace=False))]
    return segments, queries


# --- evaluation ------------------------------------------------------------------------------------


def quality(ranked: Sequence[Sequence[tuple[str, str]]], queries: Sequence[Query]) -> Quality:
    """``ranked[i]`` is the (segment id, repo/path) list answered for query i."""
    rr, s1, s10 = [], [], []
    for hits, q in zip(ranked, queries, strict=True):
        keys: list[str] = []
        for seg_id, file in hits:
            key = seg_id if q.match == "id" else file
            if key not in keys:  # a file counts once, at its best segment
                keys.append(key)
        rank = next((i for i, key in enumerate(keys[:K]) if key in q.relevant), None)
        rr.append(0.0 if rank is None else 1.0 / (rank + 1))
        s1.append(rank == 0)
        s10.append(rank is not None)
    n = max(len(queries), 1)
    return Quality(round(sum(rr) / n, 4), round(sum(s1) / n, 4), round(sum(s10) / n, 4))


def run_shard(shard: SemanticShard, queries: Sequence[Query], options: dict[str, str]) -> list[list[tuple[str, str]]]:
    out = []
    for q in queries:
        hits = shard.search(ModalityQuery(q.text, k=3 * K, options=options)).hits
        out.append([(h.segment_id, f"{h.repo}/{h.path}") for h in hits])
    return out


def run_float(shard_dir: Path, embedder: MiniLMEmbedder, queries: Sequence[Query]) -> list[list[tuple[str, str]]]:
    """Exact search over every window's float vector: the ceiling binary search is held to."""
    files = store.read_shard(shard_dir, verify=False)
    assert files.vectors is not None
    vectors = np.asarray(files.vectors, dtype=np.float32)
    qv = embedder.embed([q.text for q in queries], "query")
    out = []
    for row in qv:
        scores = vectors @ row
        best: dict[int, float] = {}
        for w in np.argsort(-scores)[: 20 * K]:
            seg = int(files.windows[w, 0])
            best.setdefault(seg, float(scores[w]))
        ranked = sorted(best, key=lambda s: -best[s])[: 3 * K]
        out.append([(files.segments[s].id, f"{files.segments[s].repo}/{files.segments[s].path}") for s in ranked])
    return out


def overlap_at_k(a: Sequence[Sequence[tuple[str, str]]], b: Sequence[Sequence[tuple[str, str]]]) -> float:
    shares = []
    for x, y in zip(a, b, strict=True):
        top = {s for s, _ in y[:K]}
        if top:
            shares.append(len(top & {s for s, _ in x[:K]}) / len(top))
    return round(float(np.mean(shares)), 4) if shares else 0.0


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Median milliseconds of ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(samples), 3)


# --- the run ---------------------------------------------------------------------------------------


def evaluate_suite(
    name: str, segments: list[Segment], queries: list[Query], backend: str, work: Path
) -> dict[str, Any]:
    settings = {"embedder": "minilm", "embedder.backend": backend}
    modality = SemanticModality()
    ctx = BuildContext(generation="bench", shard=name, repos=(name,), settings=settings)
    start = time.perf_counter()
    stats = modality.build(segments, work / f"{name}-{backend}-flat", ctx)
    build_s = time.perf_counter() - start
    manifest = json.loads((work / f"{name}-{backend}-flat" / "manifest.json").read_text())
    # The IVF shard reuses every vector of the flat one: only the index differs.
    ivf_ctx = replace(
        ctx, previous_dir=work / f"{name}-{backend}-flat", settings={**settings, "semantic.ivf_threshold": "0"}
    )
    modality.build(segments, work / f"{name}-{backend}-ivf", ivf_ctx)
    flat = modality.load(work / f"{name}-{backend}-flat")
    ivf = modality.load(work / f"{name}-{backend}-ivf")
    embedder = flat.embedder()
    assert isinstance(embedder, MiniLMEmbedder)

    runs = {
        "float": run_float(work / f"{name}-{backend}-flat", embedder, queries),
        "binary": run_shard(flat, queries, {"rescore": "off"}),
        "binary+rescore": run_shard(flat, queries, {}),
        "ivf binary+rescore": run_shard(ivf, queries, {}),
    }
    ivf_manifest = json.loads((work / f"{name}-{backend}-ivf" / "manifest.json").read_text())
    return {
        "suite": name,
        "backend": backend,
        "queries": len(queries),
        "segments": stats.segments,
        "windows": manifest["windows"],
        "build_s": round(build_s, 1),
        "chunks_per_s_build": round(manifest["windows"] / build_s, 1),
        "quality": {k: asdict(quality(v, queries)) for k, v in runs.items()},
        "ivf": {
            "nlist": ivf_manifest["nlist"],
            "nprobe_default": ivf.nprobe({}),
            "recall10_vs_flat": overlap_at_k(runs["ivf binary+rescore"], runs["binary+rescore"]),
            "recall10_vs_flat_by_preset": {
                p: overlap_at_k(run_shard(ivf, queries, {"preset": p}), runs["binary+rescore"])
                for p in ("quick", "thorough")
            },
        },
    }


def throughput(segments: list[Segment], backend: str) -> dict[str, Any]:
    """Chunks/s on windows of 180-230 tokens, and the median query embedding time.

    Wall-clock rates depend on what else the machine runs; the CPU seconds one thread spends
    per chunk do not, so ``chunks_per_s_two_idle_cores`` (two single-thread workers' rate) is
    also given as the figure to compare with the 2-core target.
    """
    from fourfold.plugins.semantic.windows import segment_text

    embedder = MiniLMEmbedder(backend=backend)
    single = MiniLMEmbedder(backend=backend, threads=1)
    texts = [segment_text(s) for s in segments]
    counts = embedder.count_tokens(texts)
    chunks = [t for t, n in zip(texts, counts, strict=True) if 180 <= n <= 230][:256]
    embedder.embed(chunks[:8], "document")  # warm up
    single.embed(chunks[:8], "document")
    start = time.perf_counter()
    embedder.embed(chunks, "document")
    elapsed = time.perf_counter() - start
    cpu_start = time.process_time()
    single.embed(chunks, "document")
    cpu_per_chunk = (time.process_time() - cpu_start) / len(chunks)
    query_ms = timed(lambda: embedder.embed(["how do I retry a failed http request"], "query"), 50)
    query_cpu_start = time.process_time()
    for _ in range(20):
        single.embed(["how do I retry a failed http request"], "query")
    return {
        "backend": backend,
        "chunks": len(chunks),
        "mean_tokens": round(float(np.mean(embedder.count_tokens(chunks))), 1),
        "chunks_per_s": round(len(chunks) / elapsed, 1),
        "cpu_ms_per_chunk_one_thread": round(cpu_per_chunk * 1000, 1),
        "chunks_per_s_two_idle_cores": round(2 / cpu_per_chunk, 1),
        "query_embed_ms_p50": query_ms,
        "query_embed_cpu_ms_one_thread": round((time.process_time() - query_cpu_start) / 20 * 1000, 2),
    }


def _timed_embed_batch(batch: Any) -> tuple[int, float]:
    """One build batch embedded as ``embed_batch`` does, with the CPU seconds it took in its task."""
    from fourfold.plugins.semantic.embedding import embed_batch

    start = time.process_time()
    embed_batch(batch)
    return len(batch.texts), time.process_time() - start


def scaling(segments: list[Segment], workers: Sequence[int], n_chunks: int, batch: int) -> dict[str, Any]:
    """Embedding throughput through Ray tasks with 1, 2... CPUs in the cluster (see the module doc)."""
    import ray

    from fourfold.plugins.semantic.embedding import EmbedBatch
    from fourfold.plugins.semantic.windows import segment_text
    from fourfold.workers.build import RayMap

    counter = MiniLMEmbedder()
    texts = [segment_text(s) for s in segments]
    chunks = [t for t, n in zip(texts, counter.count_tokens(texts), strict=True) if 180 <= n <= 230][:n_chunks]
    batches = [
        EmbedBatch("minilm", {"backend": "int8"}, tuple(chunks[i : i + batch]), "document")
        for i in range(0, len(chunks), batch)
    ]
    runs: list[dict[str, Any]] = []
    for n in workers:
        ray.init(address="local", num_cpus=n, include_dashboard=False, log_to_driver=False)
        try:
            mapper = RayMap()
            warm = [EmbedBatch("minilm", {"backend": "int8"}, tuple(chunks[:2]), "document")] * (4 * n)
            list(mapper(_timed_embed_batch, warm))  # start the workers and load the model in each
            start = time.perf_counter()
            done = list(mapper(_timed_embed_batch, batches))
            elapsed = time.perf_counter() - start
        finally:
            ray.shutdown()
        cpu = sum(c for _, c in done)
        runs.append(
            {
                "workers": n,
                "chunks_per_s": round(len(chunks) / elapsed, 1),
                "seconds": round(elapsed, 2),
                "cpu_ms_per_chunk": round(cpu / len(chunks) * 1000, 1),
            }
        )
    base = runs[0]["chunks_per_s"] / runs[0]["workers"]
    for run in runs:
        run["efficiency"] = round(run["chunks_per_s"] / (run["workers"] * base), 2)
        # on an otherwise idle machine, if each task kept its measured CPU cost per chunk (Ray's overhead aside)
        run["cpu_efficiency"] = round(runs[0]["cpu_ms_per_chunk"] / run["cpu_ms_per_chunk"], 2)
    return {"chunks": len(chunks), "batch": batch, "tasks": len(batches), "runs": runs}


BUILD_CONFIGS: dict[str, dict[str, str]] = {
    "before": {
        "semantic.skip": "off",
        "semantic.dedup": "off",
        "semantic.sort": "off",
        "semantic.cache": "off",
        "embedder.batch_size": "32",
    },
    "after": {"semantic.cache": "off"},
    "after, warm cache": {},
    # what the documentation windows cost: the default without them
    "after, no doc windows": {"semantic.cache": "off", "semantic.doc_windows": "off"},
}


def build_cost(
    corpus: list[Segment],
    cosqa: tuple[list[Segment], list[Query]] | None,
    rounds: int,
    work: Path,
    names: Sequence[str] = tuple(BUILD_CONFIGS),
) -> dict[str, Any]:
    """Each config of ``BUILD_CONFIGS`` named in ``names`` builds ``corpus`` ``rounds`` times,
    interleaved; medians (speedups against the first named)."""
    configs = {name: BUILD_CONFIGS[name] for name in names}
    cache_dir = work / "embedding-cache"
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in configs}
    windows: dict[str, int] = {}
    mrr: dict[str, float] = {}
    modality = SemanticModality()
    for config in configs.values():  # load the model in every configuration once, untimed
        warm = {"embedder": "minilm", **config, "semantic.cache": "off"}
        ctx = BuildContext(generation="bench", shard="warm", repos=("warm",), settings=warm)
        modality.build(corpus[:8], work / "warm", ctx)
    if cosqa is not None:  # fill the cache from a build of its own, as an earlier index run would
        fill = {"embedder": "minilm", "semantic.cache_dir": str(cache_dir)}
        modality.build(corpus, work / "fill", BuildContext("bench", "fill", ("fill",), settings=fill))
    for _ in range(rounds):
        for name, config in configs.items():
            settings = {"embedder": "minilm", "semantic.cache_dir": str(cache_dir), **config}
            out = work / f"build-{name.replace(' ', '_').replace(',', '')}"
            cpu, wall = time.process_time(), time.perf_counter()
            modality.build(corpus, out, BuildContext("bench", "corpus", ("corpus",), settings=settings))
            samples[name].append((time.process_time() - cpu, time.perf_counter() - wall))
            windows[name] = json.loads((out / "manifest.json").read_text())["windows"]
    if cosqa is not None:
        segments, queries = cosqa
        for name, config in configs.items():
            settings = {"embedder": "minilm", "semantic.cache_dir": str(cache_dir), **config}
            out = work / f"cosqa-{name.replace(' ', '_').replace(',', '')}"
            modality.build(segments, out, BuildContext("bench", "cosqa", ("cosqa",), settings=settings))
            mrr[name] = quality(run_shard(modality.load(out), queries, {}), queries).mrr10
    runs = []
    for name, pairs in samples.items():
        cpu = statistics.median(c for c, _ in pairs)
        wall = statistics.median(w for _, w in pairs)
        runs.append(
            {
                "config": name,
                "cpu_s": round(cpu, 2),
                "wall_s": round(wall, 2),
                "windows": windows[name],
                "segments_per_cpu_s": round(len(corpus) / cpu, 1),
                "windows_per_cpu_s": round(windows[name] / cpu, 1),
                "cosqa_mrr10": mrr.get(name),
                "cpu_samples": [round(c, 2) for c, _ in pairs],
            }
        )
    base = runs[0]["segments_per_cpu_s"]
    for run in runs:
        run["speedup_vs_before"] = round(run["segments_per_cpu_s"] / base, 2)
    return {"segments": len(corpus), "rounds": rounds, "loadavg": os.getloadavg(), "runs": runs}


def index_scale(shard_dir: Path, n_windows: int = 100_000) -> dict[str, Any]:
    """Flat vs IVF search latency on ``n_windows`` codes grown from a real shard (real codes, ~5% bits flipped).

    Only latency is read from this: perturbed copies cluster far more than real code does, so
    recall is measured on the real suites instead.
    """
    import faiss

    from fourfold.plugins.semantic.modality import PRESETS, nlist_for

    faiss.omp_set_num_threads(1)
    files = store.read_shard(shard_dir, verify=False)
    real = np.unpackbits(np.asarray(files.codes), axis=1)
    rng = np.random.default_rng(1)
    picks = rng.integers(0, len(real), n_windows)
    flips = rng.random((n_windows, real.shape[1])) < 0.05
    codes = np.packbits(real[picks] ^ flips, axis=1)
    dims = real.shape[1]
    flat = faiss.IndexBinaryFlat(dims)
    flat.add(codes)
    nlist = nlist_for(n_windows)
    ivf = faiss.IndexBinaryIVF(faiss.IndexBinaryFlat(dims), dims, nlist)
    start = time.perf_counter()
    ivf.train(codes[rng.choice(n_windows, min(n_windows, 64 * nlist), replace=False)])
    ivf.add(codes)
    train_s = time.perf_counter() - start
    query = codes[rng.choice(n_windows, 1)]
    out: dict[str, Any] = {
        "windows": n_windows,
        "nlist": nlist,
        "ivf_train_add_s": round(train_s, 2),
        "flat_ms_p50": timed(lambda: flat.search(query, 200), 30),
    }
    for preset, (share, floor) in PRESETS.items():
        nprobe = min(nlist, max(floor, int(nlist * share)))
        params = faiss.SearchParametersIVF(nprobe=nprobe)
        out[f"ivf_{preset}"] = {
            "nprobe": nprobe,
            "ms_p50": timed(lambda p=params: ivf.search(query, 200, params=p), 30),
        }
    return out


def footprint(shard_dir: Path) -> dict[str, Any]:
    """Bytes on disk per 100k segments, per file; and the Python heap a loaded shard holds.

    The heap is measured with tracemalloc around ``load`` (the windows and segment records; the
    FAISS index is added at its file size, as FAISS allocates outside Python's heap); codes and float
    vectors are memory-mapped, so they cost page cache only while rescoring touches them.
    """
    import tracemalloc

    manifest = json.loads((shard_dir / "manifest.json").read_text())
    segments = manifest["segments"]
    per_segment = {name: entry["bytes"] / segments for name, entry in manifest["files"].items()}
    tracemalloc.start()
    shard = SemanticModality().load(shard_dir)
    heap, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    shard.close()
    return {
        "windows_per_segment": round(manifest["windows"] / segments, 3),
        "disk_mb_per_100k_segments": {name: round(b * 100_000 / 1e6, 1) for name, b in per_segment.items()},
        "disk_mb_per_100k_segments_total": round(sum(per_segment.values()) * 100_000 / 1e6, 1),
        "python_heap_mb_per_100k_segments": round(heap / segments * 100_000 / 1e6, 1),
        # FAISS allocates outside Python's heap; its index lives in memory at its file's size.
        "resident_mb_per_100k_segments": round((heap / segments + per_segment[store.INDEX_FILE]) * 100_000 / 1e6, 1),
    }


def print_table(result: dict[str, Any]) -> None:
    print(f"\n{'suite':<11} {'backend':<6} {'config':<20} {'MRR@10':>7} {'s@1':>6} {'s@10':>6}")
    for run in result["suites"]:
        for config, q in run["quality"].items():
            print(
                f"{run['suite']:<11} {run['backend']:<6} {config:<20} {q['mrr10']:>7.3f} {q['success1']:>6.3f} "
                f"{q['success10']:>6.3f}"
            )
        ivf = run["ivf"]
        print(
            f"{'':<11} {'':<6} IVF nlist {ivf['nlist']} nprobe {ivf['nprobe_default']}: recall@10 vs flat "
            f"{ivf['recall10_vs_flat']} "
            f"(quick {ivf['recall10_vs_flat_by_preset']['quick']}, thorough "
            f"{ivf['recall10_vs_flat_by_preset']['thorough']}); "
            f"{run['segments']} segments, {run['windows']} windows, build {run['chunks_per_s_build']} chunks/s"
        )
    for t in result["throughput"]:
        print(
            f"throughput {t['backend']}: {t['chunks_per_s']} chunks/s wall, {t['chunks_per_s_two_idle_cores']} on two "
            "idle"
            f" cores ({t['cpu_ms_per_chunk_one_thread']} CPU ms/chunk; {t['chunks']} chunks of {t['mean_tokens']} "
            "tokens);"
            f" query embed p50 {t['query_embed_ms_p50']} ms, {t['query_embed_cpu_ms_one_thread']} CPU ms"
        )
    print(f"search latency: {json.dumps(result['query_latency'])}")
    print(f"index at scale: {json.dumps(result['index_scale'])}")
    print(f"footprint: {json.dumps(result['footprint'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dev", type=Path, default=Path(os.environ.get("FOURFOLD_DEV", "~/fourfold-dev")).expanduser())
    parser.add_argument("--backends", default="int8,fp32")
    parser.add_argument("--suites", default="cosqa,docstrings")
    parser.add_argument("--docstring-repos", default="click,httpx,rich")
    parser.add_argument("--max-pairs", type=int, default=400)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--build", action="store_true", help="only the build cost before/after its economies")
    parser.add_argument("--rounds", type=int, default=3, help="--build: interleaved rounds per configuration")
    parser.add_argument("--configs", default="", help="--build: only these configurations, separated by ';'")
    parser.add_argument("--scaling", action="store_true", help="only the Ray embedding scaling measurement")
    parser.add_argument("--workers", default="1,2", help="--scaling: cluster sizes (CPUs) to measure")
    parser.add_argument("--chunks", type=int, default=384, help="--scaling: chunks embedded per cluster size")
    parser.add_argument("--batch", type=int, default=16, help="--scaling: chunks per Ray task")
    args = parser.parse_args(argv)
    if args.build:
        names = [n.strip() for n in args.configs.split(";")] if args.configs else list(BUILD_CONFIGS)
        unknown = [n for n in names if n not in BUILD_CONFIGS]
        if unknown:
            print(f"unknown --configs {unknown}; choose from: {'; '.join(BUILD_CONFIGS)}", file=sys.stderr)
            return 2
        if not (default_model_dir("int8") / "manifest.json").exists():
            print("prepare the model first: python scripts/prepare_model.py --backend int8", file=sys.stderr)
            return 1
        cosqa = cosqa_suite(args.dev) if (args.dev / "suites" / "cosqa.jsonl").exists() else None
        corpus = list(cosqa[0]) if cosqa else []
        for repo in args.docstring_repos.split(","):
            if (args.dev / "corpora" / repo).is_dir():
                corpus.extend(segment_repo(args.dev / "corpora" / repo, repo))
        with tempfile.TemporaryDirectory(prefix="fourfold-bench-build-") as tmp:
            result = build_cost(corpus, cosqa, args.rounds, Path(tmp), names)
        print(f"\n{result['segments']} segments, {result['rounds']} rounds interleaved, load {result['loadavg']}")
        header = ("config", "CPU s", "wall s", "windows", "seg/CPU-s", "win/CPU-s", f"x {names[0]}", "MRR@10")
        print(f"{header[0]:<22}" + "".join(f" {h:>9}" for h in header[1:]))
        for run in result["runs"]:
            keys = ("cpu_s", "wall_s", "windows", "segments_per_cpu_s", "windows_per_cpu_s", "speedup_vs_before")
            print(f"{run['config']:<22}" + "".join(f" {run[k]!s:>9}" for k in (*keys, "cosqa_mrr10")))
        out = args.out or Path("bench-results") / "semantic-build.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1))
        return 0
    if args.scaling:
        if not (default_model_dir("int8") / "manifest.json").exists():
            print("prepare the model first: python scripts/prepare_model.py --backend int8", file=sys.stderr)
            return 1
        workers = [int(n) for n in args.workers.split(",")]
        segments = [s for repo in ("httpx", "click") for s in segment_repo(args.dev / "corpora" / repo, repo)]
        result = scaling(segments, workers, args.chunks, args.batch)
        for run in result["runs"]:
            print(
                f"ray embedding, {run['workers']} worker(s): {run['chunks_per_s']} chunks/s, efficiency "
                f"{run['efficiency']},"
                f" {run['cpu_ms_per_chunk']} CPU ms/chunk (efficiency by CPU cost {run['cpu_efficiency']}) "
                f"({result['chunks']} chunks in {result['tasks']} tasks)"
            )
        if args.out:
            args.out.write_text(json.dumps(result, indent=1))
        return 0
    for backend in args.backends.split(","):
        if not (default_model_dir(backend) / "manifest.json").exists():
            print(f"prepare the model first: python scripts/prepare_model.py --backend {backend}", file=sys.stderr)
            return 1

    suites: dict[str, tuple[list[Segment], list[Query]]] = {}
    if "cosqa" in args.suites:
        suites["cosqa"] = cosqa_suite(args.dev)
    if "docstrings" in args.suites:
        suites["docstrings"] = docstring_suite(args.dev, args.docstring_repos.split(","), args.max_pairs)
    result: dict[str, Any] = {"suites": [], "throughput": []}
    with tempfile.TemporaryDirectory(prefix="fourfold-bench-semantic-") as tmp:
        work = Path(tmp)
        for backend in args.backends.split(","):
            for name, (segments, queries) in suites.items():
                print(
                    f"{name} / {backend}: {len(segments)} segments, {len(queries)} queries", file=sys.stderr, flush=True
                )
                result["suites"].append(evaluate_suite(name, segments, queries, backend, work))
            all_segments = [s for segs, _ in suites.values() for s in segs]
            result["throughput"].append(throughput(all_segments, backend))
        biggest = max(suites, key=lambda n: len(suites[n][0]))
        backend = args.backends.split(",")[0]
        flat = SemanticModality().load(work / f"{biggest}-{backend}-flat")
        ivf = SemanticModality().load(work / f"{biggest}-{backend}-ivf")
        qcode = np.packbits(flat.embedder().embed(["how do I retry a failed http request"], "query") > 0, axis=1)
        q = ModalityQuery("how do I retry a failed http request")
        result["query_latency"] = {
            "shard": biggest,
            "flat_search_ms_p50": timed(lambda: flat.search(q), 50),
            "ivf_search_ms_p50": timed(lambda: ivf.search(q), 50),
            "flat_hamming_only_ms_p50": timed(lambda: flat._hamming(qcode, 200, 1), 50),
            "ivf_hamming_only_ms_p50": timed(lambda: ivf._hamming(qcode, 200, ivf.nprobe({})), 50),
        }
        result["index_scale"] = index_scale(work / f"{biggest}-{backend}-flat")
        result["footprint"] = footprint(work / f"{biggest}-{backend}-flat")
    result["content_hash_of_suites"] = content_hash(
        json.dumps({n: [q.text for q in qs] for n, (_, qs) in suites.items()})
    )
    print_table(result)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
