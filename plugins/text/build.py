"""Build a text shard: file contents, a trigram index over files, a BM25 term index over segments.

Segments carry their lines, not whole files, so each file is put back together from them: a line
is owned by the innermost segment covering it (the shortest range), and a line that no segment
covers is stored empty and can match nothing. Every match therefore maps to exactly one segment.

On-disk layout (``FORMAT`` in ``meta.json``)::

    meta.json                       counts, average segment length, format version
    files.json                      repositories, languages, [repo index, language index, path] per file
    content.bin, content_offsets.npy    each block's lines joined by '\\n', UTF-8, one zstd frame per block
    block_file.npy, block_line.npy  each block's file and first line (0-based); a file's blocks
                                    joined by '\\n' are its text
    file_blocks.npy                 block range of each file
    seg_offsets.npy                 segment range of each file (segments are stored file by file)
    seg_start.npy, seg_end.npy      1-based inclusive lines of each segment
    seg_len.npy                     BM25 length: terms in the lines the segment owns
    seg_info.bin (+ _offsets)       "id\\0symbol\\0kind" of each segment
    tri_*                           trigram key -> block ids (storage.PostingLists)
    tri_mask.bin                    per posting, the trigram's start offsets in the block mod 8 (a bit each)
    terms.bin (+ _offsets)          the sorted BM25 terms
    term_* , term_tf.npy            term index -> segment ids, and their weighted term frequencies (uint8)
"""

from __future__ import annotations

import json
from array import array
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import zstandard

from fourfold.plugins.modality import BuildStats
from fourfold.plugins.text.fold import encode, fold_bytes, trigram_positions
from fourfold.plugins.text.storage import write_postings, write_strings
from fourfold.plugins.text.terms import count_terms, split_identifier
from fourfold.plugins.types import Segment

__all__ = ["BLOCK_CHARS", "FORMAT", "SYMBOL_BOOST", "build_shard", "file_lines", "line_owners", "split_blocks"]

FORMAT = 3

#: A file is stored and indexed in blocks of whole lines, cut after about this many characters,
#: so that a query verifies (decompresses and scans) only the blocks of a large file that can
#: match, not all of it. Most files are one block.
BLOCK_CHARS = 64 << 10

#: zstd level of the stored file contents: about 4x smaller, decompressed at GB/s when verifying.
ZSTD_LEVEL = 3

#: Added to a term's frequency in a segment whose symbol name holds the term (Zoekt-style boost).
SYMBOL_BOOST = 5


def file_lines(segments: list[Segment]) -> list[str]:
    """A file's lines (as ripgrep splits them) put back together from its segments."""
    n = max(s.end_line for s in segments)
    lines: list[str | None] = [None] * n
    for s in segments:
        own = s.content.split("\n")
        for i in range(s.end_line - s.start_line + 1):
            at = s.start_line - 1 + i
            if lines[at] is None:
                lines[at] = own[i] if i < len(own) else ""
    return [line if line is not None else "" for line in lines]


def line_owners(starts: npt.NDArray[np.int32], ends: npt.NDArray[np.int32], n_lines: int) -> npt.NDArray[np.int32]:
    """For each line (0-based), the index of the innermost segment covering it, or -1."""
    owner = np.full(n_lines, -1, dtype=np.int32)
    # widest first, so that inner segments paint over their parents; ties: the later one wins
    order = np.lexsort((starts, -(ends - starts)))
    for j in order.tolist():
        owner[starts[j] - 1 : ends[j]] = j
    return owner


@dataclass(slots=True)
class _TermAccumulator:
    """(term, segment, weighted tf) triples gathered during a build, in compact arrays."""

    term_ids: dict[str, int] = field(default_factory=dict)
    term: array[int] = field(default_factory=lambda: array("I"))
    seg: array[int] = field(default_factory=lambda: array("I"))
    tf: array[int] = field(default_factory=lambda: array("B"))

    def add(self, seg: int, counts: dict[str, int]) -> None:
        for t, n in counts.items():
            tid = self.term_ids.setdefault(t, len(self.term_ids))
            self.term.append(tid)
            self.seg.append(seg)
            self.tf.append(min(n, 0xFF))


def build_shard(segments: Iterable[Segment], shard_dir: Path) -> BuildStats:
    """Write a shard for ``segments`` (any order) under ``shard_dir``."""
    shard_dir.mkdir(parents=True, exist_ok=True)
    by_file: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    for s in segments:
        by_file[(s.repo, s.path)].append(s)

    repos: dict[str, int] = {}
    languages: dict[str, int] = {}
    file_rows: list[tuple[int, int, str]] = []
    content_path = shard_dir / "content.bin"
    content_offsets = [0]
    block_file: list[int] = []
    block_line: list[int] = []
    file_blocks = [0]
    seg_offsets = [0]
    seg_start: list[int] = []
    seg_end: list[int] = []
    seg_len: list[int] = []
    seg_info: list[str] = []
    tri_parts: list[npt.NDArray[np.uint64]] = []
    terms = _TermAccumulator()
    uncovered = 0

    compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL)
    with content_path.open("wb") as out:
        for file_id, ((repo, path), segs) in enumerate(sorted(by_file.items())):
            segs.sort(key=lambda s: (s.start_line, -s.end_line))
            language = segs[0].language
            file_rows.append((repos.setdefault(repo, len(repos)), languages.setdefault(language, len(languages)), path))
            lines = file_lines(segs)
            for first_line, block_text in split_blocks(lines):
                block_id = len(block_file)
                packed = compressor.compress(encode(block_text))
                out.write(packed)
                content_offsets.append(content_offsets[-1] + len(packed))
                block_file.append(file_id)
                block_line.append(first_line)
                tri_parts.append(_block_trigrams(fold_bytes(block_text), block_id))
            file_blocks.append(len(block_file))

            starts = np.array([s.start_line for s in segs], dtype=np.int32)
            ends = np.array([s.end_line for s in segs], dtype=np.int32)
            owner = line_owners(starts, ends, len(lines))
            uncovered += int(np.count_nonzero(owner < 0))
            owned: dict[int, list[str]] = defaultdict(list)
            for line, o in zip(lines, owner.tolist(), strict=True):
                owned[o].append(line)
            base = len(seg_start)
            for j, s in enumerate(segs):
                counts = count_terms("\n".join(owned.get(j, ())))
                seg_len.append(sum(counts.values()))
                if s.symbol:
                    for t in split_identifier(s.symbol):
                        counts[t] += SYMBOL_BOOST
                terms.add(base + j, counts)
                seg_start.append(s.start_line)
                seg_end.append(s.end_line)
                seg_info.append(f"{s.id}\0{s.symbol or ''}\0{s.kind or ''}")
            seg_offsets.append(len(seg_start))

    nbytes = content_path.stat().st_size
    # (key << 40 | block << 8 | mask) sorts by key, then block: the masks line up with the postings
    packed_tri = np.sort(np.concatenate(tri_parts)) if tri_parts else np.empty(0, dtype=np.uint64)
    tri_ids = ((packed_tri >> np.uint64(8)) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    nbytes += write_postings(shard_dir, "tri", packed_tri >> np.uint64(40), tri_ids, key_dtype=np.uint32)
    tri_mask = (packed_tri & np.uint64(0xFF)).astype(np.uint8)
    tri_mask.tofile(shard_dir / "tri_mask.bin")
    nbytes += int(tri_mask.nbytes)
    nbytes += _write_terms(shard_dir, terms)

    arrays: dict[str, npt.NDArray[np.generic]] = {
        "content_offsets": np.array(content_offsets, dtype=np.int64),
        "block_file": np.array(block_file, dtype=np.int32),
        "block_line": np.array(block_line, dtype=np.int32),
        "file_blocks": np.array(file_blocks, dtype=np.int64),
        "seg_offsets": np.array(seg_offsets, dtype=np.int64),
        "seg_start": np.array(seg_start, dtype=np.int32),
        "seg_end": np.array(seg_end, dtype=np.int32),
        "seg_len": np.array(seg_len, dtype=np.uint32),
    }
    for name, arr in arrays.items():
        np.save(shard_dir / f"{name}.npy", arr)
        nbytes += arr.nbytes
    nbytes += write_strings(shard_dir, "seg_info", seg_info)
    files_json = json.dumps({"repos": list(repos), "languages": list(languages), "files": file_rows})
    (shard_dir / "files.json").write_text(files_json)
    meta = {
        "format": FORMAT,
        "files": len(file_rows),
        "blocks": len(block_file),
        "segments": len(seg_start),
        "content_bytes": content_offsets[-1],  # compressed
        "avg_seg_len": float(np.mean(seg_len)) if seg_len else 0.0,
    }
    (shard_dir / "meta.json").write_text(json.dumps(meta))
    nbytes += len(files_json)
    notes = (f"text: {uncovered} lines covered by no segment are not searchable",) if uncovered else ()
    return BuildStats(segments=len(seg_start), bytes_on_disk=nbytes, notes=notes)


def split_blocks(lines: list[str], size: int | None = None) -> list[tuple[int, str]]:
    """(first line, text) of each block of a file: whole lines, cut once a block reaches ``size``
    characters (``BLOCK_CHARS``); the blocks' texts joined by '\\n' are ``"\\n".join(lines)``."""
    size = BLOCK_CHARS if size is None else size
    text = "\n".join(lines)
    if len(text) <= size:
        return [(0, text)]
    out: list[tuple[int, str]] = []
    start = length = 0
    for i, line in enumerate(lines):
        length += len(line) + 1
        if length >= size:
            out.append((start, "\n".join(lines[start : i + 1])))
            start, length = i + 1, 0
    if start < len(lines):
        out.append((start, "\n".join(lines[start:])))
    return out


def _block_trigrams(folded: bytes, block_id: int) -> npt.NDArray[np.uint64]:
    """One ``key << 40 | block << 8 | mask`` per distinct trigram of a block, where bit ``b`` of
    ``mask`` says the trigram starts at some byte offset ``p`` with ``p % 8 == b``."""
    keys, positions = trigram_positions(folded)
    if keys.size == 0:
        return np.empty(0, dtype=np.uint64)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    bits = (np.uint8(1) << (positions[order] & 7).astype(np.uint8)).astype(np.uint8)
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    masks = np.bitwise_or.reduceat(bits, starts)
    return (keys[starts].astype(np.uint64) << np.uint64(40)) | np.uint64(block_id << 8) | masks.astype(np.uint64)


def _write_terms(shard_dir: Path, terms: _TermAccumulator) -> int:
    """Sort the term table, then write term -> (segment ids, weighted tf) lists."""
    names = sorted(terms.term_ids)
    rank = np.empty(len(names), dtype=np.int64)
    for r, name in enumerate(names):
        rank[terms.term_ids[name]] = r
    term = rank[np.frombuffer(terms.term, dtype=np.uint32).astype(np.int64)]
    seg = np.frombuffer(terms.seg, dtype=np.uint32).astype(np.int64)
    tf = np.frombuffer(terms.tf, dtype=np.uint8)
    order = np.lexsort((seg, term))
    term, seg, tf = term[order], seg[order], tf[order]
    nbytes = write_postings(shard_dir, "term", term.astype(np.uint64), seg.astype(np.uint32), dense_keys=True)
    np.save(shard_dir / "term_tf.npy", tf)
    return nbytes + int(tf.nbytes) + write_strings(shard_dir, "terms", names)
