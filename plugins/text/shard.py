"""A loaded text shard: literal, regex and BM25 searches over memory-mapped arrays.

Searches are read-only over memory maps and immutable tables, so one ``TextShard`` serves any
number of threads. ``total_matches`` counts matching lines for literal and regex searches (as
``rg --count`` summed over files) and matching segments for BM25, however many hits ``k`` keeps.
"""

from __future__ import annotations

import json
import math
import mmap
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import zstandard

from fourfold.errors import CorruptIndex, InvalidQuery
from fourfold.plugins.text.build import FORMAT
from fourfold.plugins.text.globs import compile_glob
from fourfold.plugins.text.matchers import Matcher, literal_matcher, regex_matcher
from fourfold.plugins.text.storage import PostingLists, StringTable
from fourfold.plugins.text.terms import query_terms
from fourfold.plugins.text.trigram_query import All, And, Or, Query, Tri
from fourfold.plugins.types import Hit, ModalityQuery, ShardResult

__all__ = ["MODES", "TextShard"]

#: Decompressed blocks each thread keeps (a few MB at most: a block is about 64 K characters
#: unless one line is longer, and a file is under 1 MiB).
_RECENT_BLOCKS = 16
#: Candidate blocks holding up to this many compressed bytes in all are verified as they are:
#: decoding more posting lists or checking position masks would cost more than decompressing and
#: searching them (about 0.5 ms here). Above it, the masks prune first.
_VERIFY_BYTES = 64 << 10

MODES = ("auto", "literal", "regex", "bm25")

#: BM25 parameters (Lucene's defaults) and the weight of a term found in the file name.
K1, B = 1.2, 0.75
FILENAME_WEIGHT = 0.5

_QUOTED = re.compile(r'"((?:[^"\\]|\\.)+)"')
_SNIPPET_LINES = 3
_SNIPPET_WIDTH = 240


@dataclass(frozen=True, slots=True)
class _SegmentMatch:
    """The matching lines (1-based) one segment owns."""

    seg: int
    file: int
    lines: tuple[int, ...]


class TextShard:
    """One loaded shard; see the module docstring for the threading rules."""

    def __init__(self, shard_dir: Path) -> None:
        try:
            meta = json.loads((shard_dir / "meta.json").read_text())
            files = json.loads((shard_dir / "files.json").read_text())
        except (OSError, ValueError) as exc:
            raise CorruptIndex(
                f"text shard {shard_dir} has no readable meta.json/files.json ({exc}); rebuild it"
            ) from None
        if meta.get("format") not in (2, FORMAT):
            raise CorruptIndex(
                f"text shard {shard_dir} has format {meta.get('format')!r}, expected {FORMAT}; rebuild it"
            )
        self.dir = shard_dir
        self._local = threading.local()
        self.n_files = int(meta["files"])
        self.n_segments = int(meta["segments"])
        self.avg_seg_len = max(float(meta["avg_seg_len"]), 1.0)
        self.repos: list[str] = files["repos"]
        self.languages: list[str] = files["languages"]
        rows = files["files"]
        self.file_repo = np.array([r[0] for r in rows], dtype=np.int32)
        self.file_lang = np.array([r[1] for r in rows], dtype=np.int32)
        self.paths: list[str] = [r[2] for r in rows]
        self.basenames = [p.rsplit("/", 1)[-1].lower() for p in self.paths]
        content = shard_dir / "content.bin"
        with content.open("rb") as fh:
            self.content = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if content.stat().st_size else b""
        offsets = np.load(shard_dir / "content_offsets.npy")
        self.content_offsets: list[int] = offsets.tolist()  # per block
        self.content_sizes = np.diff(offsets.astype(np.int64))
        if meta["format"] == 2:  # before blocks: one block per file
            self.block_file = np.arange(self.n_files, dtype=np.int64)
            self.block_line = np.zeros(self.n_files, dtype=np.int64)
            self.file_blocks = np.arange(self.n_files + 1, dtype=np.int64)
        else:
            self.block_file = np.load(shard_dir / "block_file.npy").astype(np.int64)
            self.block_line = np.load(shard_dir / "block_line.npy").astype(np.int64)
            self.file_blocks = np.load(shard_dir / "file_blocks.npy").astype(np.int64)
        self.n_blocks = int(self.block_file.size)
        if self.content_sizes.size != self.n_blocks or self.file_blocks.size != self.n_files + 1:
            raise CorruptIndex(
                f"text shard {shard_dir} has {self.content_sizes.size} stored blocks for {self.n_blocks} "
                f"indexed ones; rebuild it"
            )
        self.seg_offsets = np.load(shard_dir / "seg_offsets.npy")
        self.seg_start = np.load(shard_dir / "seg_start.npy")
        self.seg_end = np.load(shard_dir / "seg_end.npy")
        self.seg_len = np.load(shard_dir / "seg_len.npy", mmap_mode="r")
        self.seg_file = np.repeat(np.arange(self.n_files, dtype=np.int64), np.diff(self.seg_offsets))
        self.seg_info = StringTable.load(shard_dir, "seg_info")
        self.tri = PostingLists.load(shard_dir, "tri")
        self.tri_mask, self.tri_first = self._load_masks(shard_dir)
        self.term = PostingLists.load(shard_dir, "term")
        self.terms = StringTable.load(shard_dir, "terms")
        self.term_tf = np.load(shard_dir / "term_tf.npy", mmap_mode="r")
        self.term_tf_offsets = self.term.starts()

    def _load_masks(self, shard_dir: Path) -> tuple[npt.NDArray[np.uint8] | None, npt.NDArray[np.int64]]:
        """The postings' position masks and where each list's masks start (None: a shard built
        before masks existed, searched without them)."""
        path = shard_dir / "tri_mask.bin"
        if not path.exists():
            return None, np.zeros(1, dtype=np.int64)
        first = self.tri.starts()
        if path.stat().st_size != int(first[-1]):
            raise CorruptIndex(
                f"text shard {shard_dir} has {path.stat().st_size} trigram masks for {int(first[-1])} postings; "
                "rebuild it"
            )
        masks = np.memmap(path, dtype=np.uint8, mode="r").view(np.ndarray) if first[-1] else np.empty(0, dtype=np.uint8)
        return masks, first

    def close(self) -> None:
        """Release the content map (the other arrays go with the object)."""
        if isinstance(self.content, mmap.mmap):
            self.content.close()

    # --- entry point -----------------------------------------------------------------------

    def search(self, query: ModalityQuery) -> ShardResult:
        mode = query.options.get("mode", "auto")
        if mode not in MODES:
            raise InvalidQuery(f"text search mode {mode!r} is unknown; use one of {', '.join(MODES)}")
        text = query.text
        if not (text if mode in ("literal", "regex") else text.strip()):
            raise InvalidQuery(f'the text search is empty (mode={mode}); give a word, a "quoted literal" or a regex')
        if query.k < 1:
            raise InvalidQuery(f"k={query.k} asks for no hits; ask for at least 1")
        mask = self._file_mask(query)
        cs = query.case_sensitive
        if mode == "literal":
            return self._grep((literal_matcher(text, cs),), query, mask)
        if mode == "regex":
            return self._grep((regex_matcher(text, cs),), query, mask)
        if mode == "bm25":
            return self._bm25(query_terms(text), query, mask)
        quoted = [q.replace('\\"', '"').replace("\\\\", "\\") for q in _QUOTED.findall(text)]
        if quoted:
            rest = query_terms(_QUOTED.sub(" ", text))
            return self._grep(tuple(literal_matcher(q, cs) for q in quoted), query, mask, rank_terms=rest)
        if query.intent == "exact_match":
            exact = self._grep((literal_matcher(text.strip(), cs),), query, mask)
            if exact.total_matches:
                return exact
            terms = query_terms(text)
            if not terms:
                return exact
            # No literal match in this shard, but another shard may have one: its ranked words
            # are scored below every literal match (grep scores are >= 1), so merging the shards'
            # lists keeps the exact matches first.
            fallback = self._bm25(terms, query, mask)
            hits = tuple(replace(h, score=h.score / (1.0 + h.score)) for h in fallback.hits)
            return replace(
                fallback,
                hits=hits,
                notes=(
                    f"text: no literal match for {text.strip()!r} here; ranked its words below literal matches",
                    *fallback.notes,
                ),
            )
        terms = query_terms(text)
        if not terms:
            return self._grep((literal_matcher(text.strip(), cs),), query, mask)
        return self._bm25(terms, query, mask)

    # --- filters and candidates ------------------------------------------------------------

    def _file_mask(self, query: ModalityQuery) -> npt.NDArray[np.bool_] | None:
        """Files the repository, language and path filters allow (None: no filter)."""
        mask: npt.NDArray[np.bool_] | None = None

        def narrow(m: npt.NDArray[np.bool_]) -> None:
            nonlocal mask
            mask = m if mask is None else mask & m

        if query.repos:
            wanted = [i for i, r in enumerate(self.repos) if r in set(query.repos)]
            narrow(np.isin(self.file_repo, wanted))
        if query.languages:
            wanted = [i for i, lang in enumerate(self.languages) if lang in set(query.languages)]
            narrow(np.isin(self.file_lang, wanted))
        if query.path_glob:
            rx = compile_glob(query.path_glob)
            narrow(np.fromiter((rx.match(p) is not None for p in self.paths), dtype=bool, count=self.n_files))
        return mask

    def _evaluate(self, q: Query, decoded: dict[int, npt.NDArray[np.int64]]) -> npt.NDArray[np.int64] | None:
        """Block ids that may satisfy ``q`` (None: every block); ``decoded`` keeps each list it decodes.

        A superset is enough, since every candidate is verified: an AND stops intersecting once a
        few candidates are left, so the longest lists (the commonest trigrams) are often never
        decoded.
        """
        if isinstance(q, All):
            return None
        if isinstance(q, Tri):
            ids = decoded.get(q.key)
            if ids is None:
                ids = decoded[q.key] = self.tri.get(q.key)
            return ids
        if isinstance(q, And):
            # cheapest first: single trigrams by list length, then the rest
            def cost(c: Query) -> float:
                if isinstance(c, Tri):
                    i = self.tri.find(c.key)
                    return self.tri.size(i) if i >= 0 else 0
                return math.inf

            result: npt.NDArray[np.int64] | None = None
            for child in sorted(q.children, key=cost):
                ids = self._evaluate(child, decoded)
                if ids is None:
                    continue
                result = ids if result is None else _intersect_sorted(result, ids)
                if self._cheap_to_verify(result):
                    break
            return result
        if isinstance(q, Or):
            parts: list[npt.NDArray[np.int64]] = []
            for child in q.children:
                ids = self._evaluate(child, decoded)
                if ids is None:
                    return None
                parts.append(ids)
            return np.unique(np.concatenate(parts)) if parts else np.empty(0, np.int64)
        raise TypeError(f"unknown trigram query node {q!r}")

    def _candidates(
        self, q: Query, mask: npt.NDArray[np.bool_] | None, decoded: dict[int, npt.NDArray[np.int64]] | None = None
    ) -> npt.NDArray[np.int64]:
        """Block ids that may match ``q`` in files ``mask`` allows."""
        ids = self._evaluate(q, {} if decoded is None else decoded)
        if ids is None:
            ids = np.arange(self.n_blocks, dtype=np.int64)
        return ids[mask[self.block_file[ids]]] if mask is not None else ids

    def _cheap_to_verify(self, blocks: npt.NDArray[np.int64]) -> bool:
        """Whether verifying ``blocks`` costs less than narrowing them further (see ``_VERIFY_BYTES``)."""
        return blocks.size <= 1 or int(self.content_sizes[blocks].sum()) <= _VERIFY_BYTES

    def _aligned(
        self,
        grams: tuple[tuple[int, int], ...],
        candidates: npt.NDArray[np.int64],
        decoded: dict[int, npt.NDArray[np.int64]],
    ) -> npt.NDArray[np.int64]:
        """The candidates where a literal's trigrams can sit at its own relative offsets.

        A match at byte ``P`` puts the trigram of offset ``i`` at ``P + i``: for some ``r = P % 8``
        every trigram's mask holds bit ``(r + i) % 8``. Rotating each mask right by its offset and
        AND-ing them leaves bit ``r`` set, so a block whose AND is 0 cannot match. Blocks holding
        every trigram of a phrase of common words (``Too many redirects``) mostly fail this.
        """
        if self.tri_mask is None:
            return candidates
        acc = np.full(candidates.size, 0xFF, dtype=np.uint16)
        found = [(self.tri.find(key), key, offset) for key, offset in grams]
        if any(k < 0 for k, _, _ in found):
            return candidates[:0]
        # rarest trigrams first, dropping ruled-out blocks as they go, until what is left is cheap
        for k, key, offset in sorted(found, key=lambda f: self.tri.size(f[0])):
            ids = decoded.get(key)
            if ids is None:
                ids = decoded[key] = self.tri.ids(k)
            at = np.minimum(np.searchsorted(ids, candidates), ids.size - 1)
            held = ids[at] == candidates
            m = self.tri_mask[self.tri_first[k] + at].astype(np.uint16)
            s = offset & 7
            rotated = ((m >> s) | (m << (8 - s))) & 0xFF
            acc &= np.where(held, rotated, 0xFF).astype(np.uint16)
            alive = acc != 0
            if not alive.all():
                candidates, acc = candidates[alive], acc[alive]
            if self._cheap_to_verify(candidates):
                break
        return candidates

    def _block_bytes(self, b: int) -> bytes:
        """The content of block ``b`` (a zstd decompressor per thread: they are not thread-safe).

        The last ``_RECENT_BLOCKS`` blocks each thread decompressed are kept, so verifying a block
        and then cutting its hits' snippets decompresses it once.
        """
        recent: OrderedDict[int, bytes] | None = getattr(self._local, "recent", None)
        if recent is None:
            recent = self._local.recent = OrderedDict()
            self._local.zstd = zstandard.ZstdDecompressor()
        data = recent.get(b)
        if data is not None:
            recent.move_to_end(b)
            return data
        packed = self.content[self.content_offsets[b] : self.content_offsets[b + 1]]
        data = self._local.zstd.decompress(packed) if packed else b""
        recent[b] = data
        if len(recent) > _RECENT_BLOCKS:
            recent.popitem(last=False)
        return data

    def _block_of(self, f: int, line: int) -> int:
        """The block of file ``f`` holding its 0-based ``line``."""
        lo, hi = int(self.file_blocks[f]), int(self.file_blocks[f + 1])
        return lo + max(int(np.searchsorted(self.block_line[lo:hi], line, side="right")) - 1, 0)

    def _match_lines(self, m: Matcher, blocks: Sequence[int]) -> list[int]:
        """The 0-based file lines that ``m`` matches in ``blocks`` (of one file, in order)."""
        out: list[int] = []
        for b in blocks:
            first = int(self.block_line[b])
            out.extend(first + line for line in m.lines(self._block_bytes(b)))
        return out

    def _owners_of(self, f: int, lines: Sequence[int]) -> list[int]:
        """Global segment index owning each given 0-based line of file ``f`` (-1: none).

        Only the matching lines are resolved (innermost = shortest covering segment; ties: the
        later one, as ``line_owners`` paints), so a file with thousands of segments costs a few
        vector operations per match instead of a pass over every segment.
        """
        lo, hi = int(self.seg_offsets[f]), int(self.seg_offsets[f + 1])
        if not lines or lo == hi:
            return [-1] * len(lines)
        starts = self.seg_start[lo:hi].astype(np.int64) - 1
        ends = self.seg_end[lo:hi].astype(np.int64) - 1
        at = np.asarray(lines, dtype=np.int64)[:, None]
        covers = (starts[None, :] <= at) & (at <= ends[None, :])
        width = np.where(covers, (ends - starts)[None, :], np.iinfo(np.int64).max)
        # the shortest covering segment; among equals the last one (argmin on the reversed columns)
        best = width.shape[1] - 1 - np.argmin(width[:, ::-1], axis=1)
        found = covers[np.arange(len(lines)), best]
        return [int(b) + lo if ok else -1 for b, ok in zip(best.tolist(), found.tolist(), strict=True)]

    # --- literal and regex -----------------------------------------------------------------

    def _grep(
        self,
        matchers: tuple[Matcher, ...],
        query: ModalityQuery,
        mask: npt.NDArray[np.bool_] | None,
        rank_terms: tuple[str, ...] = (),
    ) -> ShardResult:
        """Segments whose lines match every matcher; ranked by how well, then by ``rank_terms``."""
        decoded: dict[int, npt.NDArray[np.int64]] = {}
        # each matcher's candidate blocks (a match lies on one line, so in one block); a file
        # must hold candidates of every matcher, and each matcher is verified on its own blocks
        per_block: list[dict[int, list[int]]] = []
        for m in matchers:
            blocks = self._candidates(m.trigrams, mask, decoded)
            if m.grams and not self._cheap_to_verify(blocks):
                blocks = self._aligned(m.grams, blocks, decoded)
            by_file: dict[int, list[int]] = {}
            for b, f in zip(blocks.tolist(), self.block_file[blocks].tolist(), strict=True):
                by_file.setdefault(f, []).append(b)
            per_block.append(by_file)
        files = sorted(set(per_block[0]).intersection(*per_block[1:]))
        verified = sum(len(by_file[f]) for by_file in per_block for f in files)
        found: list[_SegmentMatch] = []
        total = 0
        for f in files:
            per_matcher = []
            for m, by_file in zip(matchers, per_block, strict=True):
                lines = self._match_lines(m, by_file[f])
                if not lines:
                    break
                per_matcher.append(lines)
            else:
                by_seg: list[dict[int, set[int]]] = []
                for lines in per_matcher:
                    segs: dict[int, set[int]] = {}
                    for line, o in zip(lines, self._owners_of(f, lines), strict=True):
                        if o >= 0:
                            segs.setdefault(o, set()).add(line + 1)
                    by_seg.append(segs)
                common = set(by_seg[0]).intersection(*by_seg[1:])
                for seg in sorted(common):
                    lines_of_seg = sorted(set().union(*(s[seg] for s in by_seg)))
                    total += len(lines_of_seg)
                    found.append(_SegmentMatch(seg, f, tuple(lines_of_seg)))
        extra = self._bm25_scores(rank_terms) if rank_terms and found else {}
        scored = [(self._grep_score(sm, matchers) + extra.get(sm.seg, 0.0), sm) for sm in found]
        scored.sort(key=lambda p: (-p[0], self.paths[p[1].file], int(self.seg_start[p[1].seg])))
        hits = tuple(self._hit(sm.seg, score, sm.lines) for score, sm in scored[: query.k])
        notes = (
            f"text: {' AND '.join(str(m) for m in matchers)}; {len(files)} of {self.n_files} files verified "
            f"({verified} of {self.n_blocks} blocks)",
        )
        return ShardResult(hits=hits, total_matches=total, notes=notes)

    def _grep_score(self, sm: _SegmentMatch, matchers: tuple[Matcher, ...]) -> float:
        """More matching lines score higher (logarithmically); a definition whose name matches most."""
        score = 1.0 + math.log1p(len(sm.lines))
        symbol = self.seg_info[sm.seg].split("\0")[1]
        if symbol:
            score += 0.5
            if all(m.matches(symbol) for m in matchers):
                score += 3.0
        return score

    # --- BM25 ------------------------------------------------------------------------------

    def _bm25_scores(self, terms: tuple[str, ...]) -> dict[int, float]:
        """Segment -> BM25 score for ``terms`` (symbol names boosted at build, file names here)."""
        seg_parts: list[npt.NDArray[np.int64]] = []
        score_parts: list[npt.NDArray[np.float64]] = []
        idfs: dict[str, float] = {}
        n = max(self.n_segments, 1)
        for t in terms:
            i = self.terms.bisect(t)
            if i < 0:
                continue
            segs = self.term.ids(i)
            tf = np.asarray(self.term_tf[self.term_tf_offsets[i] : self.term_tf_offsets[i + 1]], dtype=np.float64)
            df = segs.size
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            idfs[t] = idf
            norm = K1 * (1.0 - B + B * np.asarray(self.seg_len[segs], dtype=np.float64) / self.avg_seg_len)
            seg_parts.append(segs)
            score_parts.append(idf * tf * (K1 + 1.0) / (tf + norm))
        if not seg_parts:
            return {}
        segs_all = np.concatenate(seg_parts)
        uniq, inverse = np.unique(segs_all, return_inverse=True)
        # with weights, bincount sums floats (its stubs say integers)
        totals = np.bincount(inverse, weights=np.concatenate(score_parts)).astype(np.float64, copy=False)
        for t, idf in idfs.items():
            named = [f for f, name in enumerate(self.basenames) if t in name]
            if named:
                in_named = np.isin(self.seg_file[uniq], named)
                totals[in_named] += FILENAME_WEIGHT * idf
        return dict(zip(uniq.tolist(), totals.tolist(), strict=True))

    def _bm25(self, terms: tuple[str, ...], query: ModalityQuery, mask: npt.NDArray[np.bool_] | None) -> ShardResult:
        scores = self._bm25_scores(terms)
        if mask is not None:
            scores = {s: v for s, v in scores.items() if mask[self.seg_file[s]]}
        ranked = sorted(
            scores.items(), key=lambda p: (-p[1], self.paths[self.seg_file[p[0]]], int(self.seg_start[p[0]]))
        )
        hits = []
        if ranked:
            pattern = "|".join(re.escape(t) for t in terms)
            finder = regex_matcher(pattern, False)
            for seg, score in ranked[: query.k]:
                hits.append(self._hit(seg, score, self._lines_in_segment(seg, finder)))
        note = f"text: BM25 over terms {', '.join(terms) if terms else '(none)'}"
        return ShardResult(hits=tuple(hits), total_matches=len(scores), notes=(note,))

    def _lines_in_segment(self, seg: int, matcher: Matcher) -> tuple[int, ...]:
        f = int(self.seg_file[seg])
        first, last = self._block_of(f, int(self.seg_start[seg]) - 1), self._block_of(f, int(self.seg_end[seg]) - 1)
        lines = self._match_lines(matcher, range(first, last + 1))
        return tuple(line + 1 for line, o in zip(lines, self._owners_of(f, lines), strict=True) if o == seg)

    # --- hits ------------------------------------------------------------------------------

    def _line_bytes(self, f: int, line: int) -> bytes:
        """The 0-based ``line`` of file ``f`` (empty past its end)."""
        b = self._block_of(f, line)
        rel = line - int(self.block_line[b])
        parts = self._block_bytes(b).split(b"\n", rel + 1)
        return parts[rel] if 0 <= rel < len(parts) else b""

    def _hit(self, seg: int, score: float, lines: tuple[int, ...]) -> Hit:
        f = int(self.seg_file[seg])
        seg_id, symbol, kind = self.seg_info[seg].split("\0")
        snippet = ""
        if lines:
            # decode only the lines shown, from the blocks that hold them
            shown = [self._line_bytes(f, line - 1) for line in lines[:_SNIPPET_LINES]]
            snippet = "\n".join(
                text[: _SNIPPET_WIDTH * 4].decode("utf-8", "replace")[:_SNIPPET_WIDTH] for text in shown
            )
        return Hit(
            segment_id=seg_id,
            repo=self.repos[int(self.file_repo[f])],
            path=self.paths[f],
            start_line=int(self.seg_start[seg]),
            end_line=int(self.seg_end[seg]),
            score=float(score),
            symbol=symbol or None,
            kind=kind or None,
            language=self.languages[int(self.file_lang[f])],
            match_lines=lines,
            snippet=snippet,
        )


def _intersect_sorted(small: npt.NDArray[np.int64], large: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The ids in both sorted, duplicate-free arrays, by binary search of the shorter in the longer
    (no re-sort of both, which ``np.intersect1d`` does: the running result is usually far shorter)."""
    if small.size > large.size:
        small, large = large, small
    if small.size == 0 or large.size == 0:
        return small[:0]
    at = np.minimum(np.searchsorted(large, small), large.size - 1)
    return small[large[at] == small]
