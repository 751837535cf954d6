"""The semantic modality: segments embedded, sign bits in FAISS, float vectors to rescore.

Build: every segment becomes one or more windows (context header + code, within the model's
window), and a documented definition one more of its header and documentation alone (setting
``semantic.doc_windows``, on by default); each window is embedded as a document, its sign bits
packed into a binary code, and its unit vector kept as float16. Codes go into ``IndexBinaryFlat``
for small shards (exact and fast enough) and ``IndexBinaryIVF`` above ``IVF_THRESHOLD`` windows,
with ``nlist`` growing as the square root of the shard and trained on a sample. Unchanged
segments (same content, header and documentation, same embedder) reuse the previous generation's
codes and vectors. The windows to embed go in batches through ``BuildContext.map_batches`` when
the host gives one (Ray tasks over the cluster), else through a plain ``map`` here: the same
function either way, the same arrays.

Search: the query is embedded as a query, its bits searched by Hamming distance for the top
``candidates`` windows, those rescored by the dot product with the float vectors (which gives
back the float model's ranking at binary-index speed), and windows folded into their segments.
"""

from __future__ import annotations

import json
import math
import shutil
import threading
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fourfold.errors import IndexStateError, InvalidQuery, PluginError
from fourfold.plugins.embedders import Embedder
from fourfold.plugins.globs import path_filter
from fourfold.plugins.modality import BuildContext, BuildStats
from fourfold.plugins.semantic import store
from fourfold.plugins.semantic.cache import EmbeddingCache, text_key
from fourfold.plugins.semantic.embedding import (
    EmbedBatch,
    EmbedderFactories,
    embed_batch,
    embedder_options,
    get_embedder,
    pack_bits,
)
from fourfold.plugins.semantic.skip import skipped_segments
from fourfold.plugins.semantic.windows import (
    Docs,
    Window,
    doc_window,
    embed_key,
    read_docs,
    segment_text,
    split_windows,
)
from fourfold.plugins.types import MASK_OPTION, Hit, ModalityQuery, Segment, ShardResult

__all__ = ["EMBED_BATCH", "IVF_THRESHOLD", "PRESETS", "SemanticModality", "SemanticShard", "nlist_for"]

#: Below this many windows a flat (exhaustive) Hamming scan is exact and fast: 384-bit codes
#: scan at ~0.2 ms per 50k windows on one core (benchmarks/semantic.py).
IVF_THRESHOLD = 50_000
#: Share of the IVF lists probed per preset, and its floor. Measured on 8.7k real MiniLM windows
#: (nlist 223) against flat, recall@10 of the rescored segments: a 7 % share gave 0.88, 14 %
#: 0.93, 21 % 0.96, 29 % 0.97, 57 % 0.99. Binary codes of a small model cluster loosely, so the
#: default probes a quarter of the lists to stay above 0.95.
PRESETS: Mapping[str, tuple[float, int]] = {"quick": (1 / 16, 8), "default": (1 / 4, 32), "thorough": (1 / 2, 128)}
#: How many Hamming neighbours are rescored with float vectors, at least.
RESCORE_CANDIDATES = 200
#: A query longer than this many characters is cut before tokenising (far beyond any model window).
_QUERY_CHARS_PER_TOKEN = 16
_SNIPPET_CHARS = 200
#: Windows per embedding batch (setting ``semantic.embed_batch``): one batch is one task when the
#: host spreads the embedding over a cluster, so big enough to be worth shipping.
EMBED_BATCH = 256


@dataclass(frozen=True, slots=True)
class _EmbedCounts:
    """What a build's embedding did: windows embedded, found in the cache, copied from an equal text."""

    embedded: int
    cached: int
    duplicates: int


def _flag(settings: Mapping[str, str], name: str, default: bool = True) -> bool:
    """A boolean build setting (on/off, true/false, yes/no, 1/0)."""
    raw = settings.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in ("on", "true", "yes", "1"):
        return True
    if value in ("off", "false", "no", "0"):
        return False
    raise PluginError(f"setting {name} must be on or off, got {raw!r}")


def _reasons(skipped: Mapping[int, str]) -> str:
    counts: dict[str, int] = {}
    for reason in skipped.values():
        counts[reason] = counts.get(reason, 0) + 1
    return ", ".join(f"{n} {reason}" for reason, n in sorted(counts.items())) or "none"


def nlist_for(windows: int) -> int:
    """IVF lists for a shard: about 4·sqrt(n), a power of two, between 64 and 65536."""
    return int(min(65536, max(64, 2 ** round(math.log2(4 * math.sqrt(max(windows, 1)))))))


def _snippet(segment: Segment) -> str:
    for line in segment.content.splitlines():
        if line.strip():
            return line.strip()[:_SNIPPET_CHARS]
    return ""


@dataclass(frozen=True, slots=True)
class _Previous:
    """Reusable work from the live generation: embed key -> (codes, vectors) of its windows."""

    by_key: Mapping[str, tuple[np.ndarray, np.ndarray | None, np.ndarray]]


def _load_previous(previous_dir: Path | None, identity: str) -> _Previous | None:
    if previous_dir is None or not (previous_dir / store.MANIFEST_FILE).exists():
        return None
    try:
        files = store.read_shard(previous_dir, verify=True)
    except Exception:  # noqa: BLE001 - any unreadable previous shard only means nothing is reused
        return None
    if files.manifest.get("embedder", {}).get("identity") != identity:
        return None
    by_key: dict[str, tuple[np.ndarray, np.ndarray | None, np.ndarray]] = {}
    rows = files.windows[:, 0]
    order = np.argsort(rows, kind="stable")
    bounds = np.searchsorted(rows[order], np.arange(len(files.segments) + 1))
    for seg_row, record in enumerate(files.segments):
        sel = order[bounds[seg_row] : bounds[seg_row + 1]]
        vectors = None if files.vectors is None else np.asarray(files.vectors[sel])
        by_key[record.embed_key] = (np.asarray(files.codes[sel]), vectors, files.windows[sel, 1:] - record.start_line)
    return _Previous(by_key)


class SemanticModality:
    """``semantic``: dense retrieval of segments; shards per repository."""

    name = "semantic"
    sharding = "repo"
    # 2: a JSDoc block a blank line or two above its definition is its documentation window; 3: a file's block of
    # imports is not embedded (skip.only_imports)
    build_version = "3"
    masks_paths = True  # honours MASK_OPTION: a revision's shard may be a delta over its base's

    def __init__(self, embedders: EmbedderFactories = None) -> None:
        self._embedders = embedders

    # --- build -----------------------------------------------------------------------------------

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        import faiss

        faiss.omp_set_num_threads(1)
        name, options = embedder_options(context.settings)
        embedder = get_embedder(name, options, self._embedders)
        identity = embedder.identity()
        segs = list(segments)
        previous = _load_previous(context.previous_dir, identity)

        window_rows: list[tuple[int, int, int]] = []
        codes_parts: list[np.ndarray] = []
        vector_parts: list[np.ndarray] = []
        pending: list[Window] = []
        reused = 0
        docs = read_docs(segs) if _flag(context.settings, "semantic.doc_windows") else Docs({}, {})
        # what is embedded for each row: a gap without the doc comments its definitions took
        embedded = [docs.trimmed.get(i, s) for i, s in enumerate(segs)]
        keys = [embed_key(s, docs.text.get(i, "")) for i, s in enumerate(embedded)]
        skipped = skipped_segments(segs, embedded) if _flag(context.settings, "semantic.skip") else {}
        skipped_or_empty = set(skipped) | {i for i, s in docs.trimmed.items() if not s.content}
        fresh = [
            i for i, key in enumerate(keys) if previous is None or key not in previous.by_key or i in skipped_or_empty
        ]
        counted = [i for i in fresh if i not in skipped_or_empty]
        whole_tokens = dict(
            zip(counted, embedder.count_tokens([segment_text(embedded[i]) for i in counted]), strict=True)
        )
        fresh_windows: dict[int, list[Window]] = {
            i: []
            if i in skipped_or_empty
            else split_windows(i, embedded[i], embedder.max_tokens, embedder.count_tokens, whole_tokens[i])
            + ([doc_window(i, segs[i], docs.text[i])] if i in docs.text else [])
            for i in fresh
        }
        for ws in fresh_windows.values():
            pending.extend(ws)
        fresh_codes, fresh_vectors, counts = self._embed_windows(embedder, identity, name, options, pending, context)

        cursor = 0
        for row, seg in enumerate(segs):
            if row in fresh_windows:
                n = len(fresh_windows[row])
                codes_parts.append(fresh_codes[cursor : cursor + n])
                if fresh_vectors is not None:
                    vector_parts.append(fresh_vectors[cursor : cursor + n])
                window_rows.extend((row, w.start_line, w.end_line) for w in fresh_windows[row])
                cursor += n
            else:
                assert previous is not None
                codes, vectors, offsets = previous.by_key[keys[row]]
                codes_parts.append(codes)
                if vectors is not None and not embedder.binary:
                    vector_parts.append(vectors.astype(np.float16))
                window_rows.extend((row, seg.start_line + int(a), seg.start_line + int(b)) for a, b in offsets)
                reused += 1

        dims = embedder.dimensions
        codes = np.concatenate(codes_parts) if codes_parts else np.zeros((0, dims // 8), np.uint8)
        windows = np.asarray(window_rows, dtype=np.int32).reshape(-1, 3)
        index, kind, nlist = self._make_index(codes, dims, context.settings)

        tmp = shard_dir.with_name(shard_dir.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        faiss.write_index_binary(index, str(tmp / store.INDEX_FILE))
        np.save(tmp / store.CODES_FILE, codes, allow_pickle=False)
        np.save(tmp / store.WINDOWS_FILE, windows, allow_pickle=False)
        files = [store.INDEX_FILE, store.CODES_FILE, store.WINDOWS_FILE, store.SEGMENTS_FILE]
        if not embedder.binary:
            vectors = np.concatenate(vector_parts) if vector_parts else np.zeros((0, dims), np.float16)
            np.save(tmp / store.VECTORS_FILE, vectors, allow_pickle=False)
            files.append(store.VECTORS_FILE)
        records = [
            store.SegmentRecord(
                s.id, s.repo, s.path, s.language, s.start_line, s.end_line, s.symbol, s.kind, _snippet(s), keys[i]
            )
            for i, s in enumerate(segs)
        ]
        (tmp / store.SEGMENTS_FILE).write_text(json.dumps([asdict(r) for r in records]))
        manifest = {
            "embedder": {"name": name, "options": options, "identity": identity, "binary": embedder.binary},
            "dimensions": dims,
            "index": kind,
            "nlist": nlist,
            "segments": len(segs),
            "windows": len(windows),
            "generation": context.generation,
            "shard": context.shard,
        }
        size = store.write_manifest(tmp, manifest, files)
        if shard_dir.exists():
            shutil.rmtree(shard_dir)
        tmp.rename(shard_dir)
        notes = (
            f"semantic: {len(windows)} windows for {len(segs)} segments, {kind} index, embedder {identity}",
            f"semantic: embedded {counts.embedded} windows, {counts.cached} from the embedding cache, "
            f"{counts.duplicates} duplicates embedded once, {reused} segments reused from the previous generation, "
            f"{len(skipped)} segments not embedded ({_reasons(skipped)})",
        )
        return BuildStats(segments=len(segs), bytes_on_disk=size, reused=reused, notes=notes)

    def _embed_windows(
        self,
        embedder: Embedder,
        identity: str,
        name: str,
        options: Mapping[str, str],
        windows: list[Window],
        context: BuildContext,
    ) -> tuple[np.ndarray, np.ndarray | None, _EmbedCounts]:
        """Codes and float16 vectors of ``windows``, in order.

        Equal texts are embedded once (``semantic.dedup``); texts the embedding cache holds for this
        embedder are not embedded at all (when the host names ``semantic.cache_dir``; ``semantic.cache=off``
        turns it off); the rest go longest first in batches (possibly elsewhere), so each batch pads
        to a length close to its members' (``semantic.sort``) and the rate a progress bar shows early
        is the slowest one (its ETA errs long, never short). Each finished batch is written to the cache at once:
        an interrupted build keeps what it embedded.
        """
        dims = embedder.dimensions
        settings = context.settings
        codes = np.zeros((len(windows), dims // 8), dtype=np.uint8)
        vectors = None if embedder.binary else np.zeros((len(windows), dims), dtype=np.float16)
        raw = settings.get("semantic.embed_batch", str(EMBED_BATCH))
        if not raw.isdigit() or int(raw) < 1:
            raise PluginError(f"setting semantic.embed_batch must be a positive integer, got {raw!r}")
        size = int(raw)
        texts = [w.text for w in windows]
        keys = [text_key(t) for t in texts]
        first_of: dict[str, int] = {}
        if _flag(settings, "semantic.dedup"):
            for i, key in enumerate(keys):
                first_of.setdefault(key, i)
            unique = sorted(first_of.values())
        else:
            unique = list(range(len(windows)))
        cache = None
        if _flag(settings, "semantic.cache") and settings.get("semantic.cache_dir") and unique:
            cache = EmbeddingCache.open(Path(settings["semantic.cache_dir"]))
        try:
            found = cache.get_many(identity, [keys[i] for i in unique]) if cache is not None else {}
            for i in unique:
                hit = found.get(keys[i])
                if hit is not None:
                    codes[i] = hit[0]
                    if vectors is not None and hit[1] is not None:
                        vectors[i] = hit[1]
            todo = [i for i in unique if keys[i] not in found]
            if _flag(settings, "semantic.sort"):
                todo.sort(key=lambda i: -len(texts[i]))
            batches = [
                EmbedBatch(
                    name, dict(options), tuple(texts[i] for i in todo[s : s + size]), "document", self._embedders
                )
                for s in range(0, len(todo), size)
            ]
            report = context.progress
            if report is not None:
                report("windows", 0, len(todo))
            mapper = context.map_batches or map
            done = 0
            for start, (batch_codes, batch_vectors) in zip(
                range(0, len(todo), size), mapper(embed_batch, batches), strict=True
            ):
                rows = todo[start : start + len(batch_codes)]
                codes[rows] = batch_codes
                if vectors is not None and batch_vectors is not None:
                    vectors[rows] = batch_vectors
                if cache is not None:
                    cache.put_many(identity, [keys[i] for i in rows], batch_codes, batch_vectors)
                done += len(rows)
                if report is not None:
                    report("windows", done, len(todo))
        finally:
            if cache is not None:
                cache.close()
        duplicates = 0
        if first_of:
            for i, key in enumerate(keys):
                j = first_of[key]
                if j != i:
                    codes[i] = codes[j]
                    if vectors is not None:
                        vectors[i] = vectors[j]
                    duplicates += 1
        return codes, vectors, _EmbedCounts(embedded=len(todo), cached=len(unique) - len(todo), duplicates=duplicates)

    @staticmethod
    def _make_index(codes: np.ndarray, dims: int, settings: Mapping[str, str]) -> tuple[Any, str, int]:
        import faiss

        threshold = int(settings.get("semantic.ivf_threshold", IVF_THRESHOLD))
        n = len(codes)
        if n < max(threshold, 1):
            flat = faiss.IndexBinaryFlat(dims)
            if n:
                flat.add(codes)
            return flat, "flat", 0
        nlist = int(settings.get("semantic.nlist", 0)) or nlist_for(n)
        nlist = min(nlist, max(1, n // 39))  # FAISS wants about 39 training points per list
        quantizer = faiss.IndexBinaryFlat(dims)
        ivf = faiss.IndexBinaryIVF(quantizer, dims, nlist)
        sample_size = min(n, max(64 * nlist, 20_000), 131_072)
        rng = np.random.default_rng(0)
        sample = codes[np.sort(rng.choice(n, size=sample_size, replace=False))]
        ivf.train(sample)
        ivf.add(codes)
        ivf.nprobe = max(PRESETS["default"][1], int(nlist * PRESETS["default"][0]))
        return ivf, "ivf", nlist

    # --- load ------------------------------------------------------------------------------------

    def load(self, shard_dir: Path) -> SemanticShard:
        import faiss

        faiss.omp_set_num_threads(1)
        return SemanticShard(store.read_shard(shard_dir), shard_dir, self._embedders)


class SemanticShard:
    """A loaded semantic shard. Thread-safe: FAISS searches get per-call parameters, the arrays
    are read-only and the embedder is created once under a lock."""

    def __init__(self, files: store.ShardFiles, shard_dir: Path, embedders: EmbedderFactories = None) -> None:
        self._files = files
        self._dir = shard_dir
        self._embedders = embedders
        self._embedder: Embedder | None = None
        self._lock = threading.Lock()
        meta = files.manifest["embedder"]
        self._embedder_name: str = meta["name"]
        self._embedder_options: dict[str, str] = dict(meta["options"])
        self._identity: str = meta["identity"]
        self._nlist: int = int(files.manifest["nlist"])
        self._segment_of = files.windows[:, 0]
        self._paths = [s.path for s in files.segments]
        # each segment's repository as an index into _repo_names: a repository filter is one np.isin
        # (a compound shard holds many repositories, and its host always names the live ones)
        self._repo_names = sorted({s.repo for s in files.segments})
        position = {r: i for i, r in enumerate(self._repo_names)}
        self._repo_of = np.fromiter((position[s.repo] for s in files.segments), np.int32, len(files.segments))

    @property
    def identity(self) -> str:
        """The embedder identity recorded when the shard was built."""
        return self._identity

    def embedder(self) -> Embedder:
        """The shard's embedder, created on first use and checked against the recorded identity."""
        if self._embedder is None:
            with self._lock:
                if self._embedder is None:
                    embedder = get_embedder(self._embedder_name, self._embedder_options, self._embedders)
                    if embedder.identity() != self._identity:
                        raise IndexStateError(
                            f"semantic shard {self._dir} was built with embedder {self._identity!r} but this process "
                            f"has {embedder.identity()!r}; rebuild the index or restore the original model"
                        )
                    self._embedder = embedder
        return self._embedder

    def nprobe(self, options: Mapping[str, str]) -> int:
        """``options["nprobe"]`` if given, else the preset's share of the lists (``default`` preset)."""
        if "nprobe" in options:
            raw = options["nprobe"]
            if not raw.isdigit() or int(raw) < 1:
                raise InvalidQuery(f"option nprobe must be a positive integer, got {raw!r}; omit it to use the preset")
            return min(int(raw), max(self._nlist, 1))
        preset = options.get("preset", "default")
        if preset not in PRESETS:
            raise InvalidQuery(f"unknown preset {preset!r}; use one of {', '.join(PRESETS)}")
        share, floor = PRESETS[preset]
        return min(max(floor, int(self._nlist * share)), max(self._nlist, 1))

    def search(self, query: ModalityQuery) -> ShardResult:
        text = query.text.strip()
        if not text:
            raise InvalidQuery("the query is empty; give words or code to search for")
        if query.k < 1:
            raise InvalidQuery(f"k must be at least 1, got {query.k}")
        nprobe = self.nprobe(query.options)
        rescore = query.options.get("rescore", "on")
        if rescore not in ("on", "off"):
            raise InvalidQuery(f"option rescore must be 'on' or 'off', got {rescore!r}")
        files = self._files
        notes: list[str] = []
        allowed = self._allowed_segments(query)
        if len(files.windows) == 0 or (allowed is not None and not allowed.any()):
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))

        embedder = self.embedder()
        limit = embedder.max_tokens * _QUERY_CHARS_PER_TOKEN
        clipped = text[:limit]
        tokens = embedder.count_tokens([clipped])[0]
        if tokens > embedder.max_tokens or len(text) > limit:
            notes.append(f"semantic: the query was truncated to the model window of {embedder.max_tokens} tokens")
        qvec = embedder.embed([clipped], "query")
        qcode = pack_bits(qvec)

        n_windows = len(files.windows)
        candidates = min(n_windows, max(RESCORE_CANDIDATES, 20 * query.k))
        if allowed is not None:
            window_ok = allowed[self._segment_of]
            pool = np.flatnonzero(window_ok)
            if len(pool) <= 4 * candidates:
                # A narrow filter: score the allowed windows exactly instead of hoping the ANN finds them.
                ids = pool
            else:
                ids = self._hamming(qcode, min(n_windows, candidates * 4), nprobe)
                ids = ids[window_ok[ids]]
        else:
            ids = self._hamming(qcode, candidates, nprobe)
        if len(ids) == 0:
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))

        if files.vectors is not None and rescore == "on":
            scores = np.asarray(files.vectors[np.sort(ids)], dtype=np.float32) @ qvec[0]
            ids = np.sort(ids)
        else:
            bits = embedder.dimensions
            dist = _hamming_rows(np.asarray(files.codes[ids]), qcode[0])
            scores = 1.0 - 2.0 * dist / bits  # cosine of the ±1 vectors
        return ShardResult(
            hits=self._fold(ids, scores, query.k),
            total_matches=len(set(self._segment_of[ids].tolist())),
            notes=tuple(notes),
        )

    def _hamming(self, qcode: np.ndarray, k: int, nprobe: int) -> np.ndarray:
        import faiss

        index = self._files.index
        if self._nlist:
            params = faiss.SearchParametersIVF()
            params.nprobe = nprobe  # per call: the shared index is never mutated
            _, ids = index.search(qcode, k, params=params)
        else:
            _, ids = index.search(qcode, k)
        row = ids[0]
        found: np.ndarray = row[row >= 0].astype(np.int64)
        return found

    def _allowed_segments(self, query: ModalityQuery) -> np.ndarray | None:
        """A boolean mask over segments for the repo/language/path filters, or None without filters."""
        hidden = set(query.options[MASK_OPTION].split("\n")) if query.options.get(MASK_OPTION) else set()
        passes = path_filter(query)
        if not (query.repos or query.languages or passes or hidden):
            return None
        segs = self._files.segments
        mask = np.ones(len(segs), dtype=bool)
        if query.repos:
            wanted = set(query.repos)
            mask &= np.isin(self._repo_of, [i for i, r in enumerate(self._repo_names) if r in wanted])
        if query.languages:
            langs = {lang.lower() for lang in query.languages}
            mask &= np.fromiter((s.language.lower() in langs for s in segs), bool, len(segs))
        if passes is not None:
            mask &= np.fromiter((passes(p) for p in self._paths), bool, len(segs))
        if hidden:
            mask &= np.fromiter((p not in hidden for p in self._paths), bool, len(segs))
        return mask

    def _fold(self, ids: np.ndarray, scores: np.ndarray, k: int) -> tuple[Hit, ...]:
        """Best window per segment, segments by score (ties by id for a stable order)."""
        best: dict[int, tuple[float, int]] = {}
        for window, score in zip(ids.tolist(), scores.tolist(), strict=True):
            seg = int(self._segment_of[window])
            if seg not in best or score > best[seg][0]:
                best[seg] = (score, window)
        ranked = sorted(best.items(), key=lambda item: (-item[1][0], self._files.segments[item[0]].id))[:k]
        hits = []
        for seg, (score, window) in ranked:
            rec = self._files.segments[seg]
            _, first, last = (int(v) for v in self._files.windows[window])
            whole = first == rec.start_line and last == rec.end_line
            hits.append(
                Hit(
                    segment_id=rec.id,
                    repo=rec.repo,
                    path=rec.path,
                    start_line=rec.start_line,
                    end_line=rec.end_line,
                    score=float(score),
                    symbol=rec.symbol,
                    kind=rec.kind,
                    language=rec.language,
                    match_lines=() if whole else tuple(range(first, last + 1)),
                    snippet=rec.snippet,
                )
            )
        return tuple(hits)

    def close(self) -> None:
        """Nothing to release beyond memory; the embedder stays cached for other shards."""


_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int32)


def _hamming_rows(codes: np.ndarray, qcode: np.ndarray) -> np.ndarray:
    """Hamming distance of each packed row of ``codes`` to ``qcode``."""
    distances: np.ndarray = _POPCOUNT[np.bitwise_xor(codes, qcode)].sum(axis=1)
    return distances
