"""Build a text shard: file contents, a trigram index over files, a BM25 term index over segments.

Segments carry their lines, not whole files, so each file is put back together from them: a line
is owned by the innermost segment covering it (the shortest range), and a line that no segment
covers is stored empty and can match nothing. Every match therefore maps to exactly one segment.

On-disk layout (``FORMAT`` in ``meta.json``)::

    meta.json                       counts, average segment length, format version
    files.json                      repositories, languages, [repo index, language index, path] per file
    content.bin                     each block's lines joined by '\\n', UTF-8, one zstd frame per block
    tables.zst                      integer tables (storage.write_arrays), per block: content_offsets,
                                    block_file and block_line (its file and first line, 0-based; a
                                    file's blocks joined by '\\n' are its text); per file: file_blocks
                                    (its block range), seg_offsets (its segment range: segments are
                                    stored file by file); per segment: seg_start and seg_end (1-based
                                    inclusive lines; the end stored as end - start), seg_len (BM25
                                    length: terms in the lines the segment owns)
    seg_symbol.zst, seg_kind.zst    each segment's symbol name and kind ('' for none; packed string tables)
    seg_idname.zst                  when a segment's id is derived from its qualified name, not its
                                    symbol: what comes before the symbol in it ("Class." of
                                    "Class.method"), else ''
    seg_ids.json                    only when some segment's id is not ``segment_id(repo, path, start,
                                    end, name)``: those ids by segment index
    tri_*                           trigram key -> block ids (storage.PostingLists)
    tri_mask.bin                    per posting, the trigram's start offsets in the block mod 8 (a bit each)
    tri_case.bin                    per posting, the case patterns it occurs with in the block (bit p:
                                    pattern p of fold.case_patterns; 0xFF: not known), stored sparse
                                    (storage.write_sparse_bytes) around the commonest, 1 (all lower
                                    case). Optional: a shard written before it is searched without it
    terms.zst                       the sorted BM25 terms (a packed string table)
    term_*                          term index -> segment ids (storage.PostingLists)
    term_tf.bin                     per posting, its weighted term frequency (at most 255): two to a
                                    byte in a list whose frequencies are all under 16, else one
    term_tf_index.zst               which lists are packed two to a byte

Format 3 (still read) stored ``seg_info.bin`` ("id\\0symbol\\0kind" per segment, the id as hex
text) and ``terms.bin`` as plain string tables, each integer table as its own ``.npy`` at a fixed
width, the posting lists' keys, offsets and widths as ``.npy`` too, and a byte per term frequency
(``term_tf.npy``).
"""

from __future__ import annotations

import json
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt
import zstandard

from fourfold.plugins import codec
from fourfold.plugins.doc_comments import comment_above
from fourfold.plugins.modality import BuildStats
from fourfold.plugins.text.fold import case_flags, case_patterns, encode, fold, trigram_positions
from fourfold.plugins.text.storage import write_arrays, write_packed_strings, write_postings, write_sparse_bytes
from fourfold.plugins.text.terms import count_terms, split_identifier
from fourfold.plugins.types import Segment, segment_id

__all__ = [
    "BLOCK_CHARS",
    "FORMAT",
    "LOWER_CASE",
    "SYMBOL_BOOST",
    "build_shard",
    "documented_owners",
    "file_lines",
    "line_owners",
    "split_blocks",
]

FORMAT = 4

#: A file is stored and indexed in blocks of whole lines, cut after about this many characters,
#: so that a query verifies (decompresses and scans) only the blocks of a large file that can
#: match, not all of it. Most files are one block.
BLOCK_CHARS = 64 << 10

#: zstd level of the stored file contents: about 4x smaller, decompressed at GB/s when verifying.
#: Level 6 writes 6 % less than 3 on source code, decompresses as fast, and compresses at about
#: 90 MB/s, far above the rest of a build.
ZSTD_LEVEL = 6

#: The case byte of a trigram seen only in lower case (pattern 0), most of them: ``tri_case.bin``
#: stores the others.
LOWER_CASE = 1

#: While block ids stay under this, the trigram sort carries the case byte in its key.
_CASE_IN_KEY_BLOCKS = 1 << 24

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


def documented_owners(segs: list[Segment], lines: list[str], owner: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """``owner`` with each definition's doc comment (``doc_comments.comment_above``) given to it.

    The comment above a function lies in the gap between definitions, so its words would be
    counted for a window of comment lines: "how does the client pick a proxy" found the comment
    that says so, and the answer pointed at it instead of at the function. Only lines that a gap
    window or an enclosing definition owns move (a method's comment inside its class's body); the
    lines still belong to their window for literal and regular-expression matches.
    """
    out = owner.copy()
    numbered = _Numbered(lines)
    for j, s in enumerate(segs):
        if not s.symbol:
            continue
        first, above = comment_above(numbered, s.start_line, s.language)
        for at in range(first - 1, first - 1 + len(above)):
            o = int(out[at])
            held = segs[o] if o >= 0 else None
            if held is None or not held.symbol or (held.start_line <= s.start_line and s.end_line <= held.end_line):
                out[at] = j
    return out


class _Numbered(Mapping[int, str]):
    """A file's lines by 1-based number, without copying them into a dict."""

    __slots__ = ("_lines",)

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines

    def __getitem__(self, n: int) -> str:
        if not 1 <= n <= len(self._lines):
            raise KeyError(n)
        return self._lines[n - 1]

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and 1 <= n <= len(self._lines)

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, len(self._lines) + 1))

    def __len__(self) -> int:
        return len(self._lines)


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


@dataclass(slots=True)
class _ShardTables:
    """Everything a shard stores but its file contents, gathered file by file as the contents are written."""

    repos: dict[str, int] = field(default_factory=dict)  # repository -> index, in order of first file
    languages: dict[str, int] = field(default_factory=dict)  # language -> index, in order of first file
    file_rows: list[tuple[int, int, str]] = field(default_factory=list)  # [repo index, language index, path]
    content_offsets: list[int] = field(default_factory=lambda: [0])
    block_file: list[int] = field(default_factory=list)
    block_line: list[int] = field(default_factory=list)
    file_blocks: list[int] = field(default_factory=lambda: [0])
    seg_offsets: list[int] = field(default_factory=lambda: [0])
    seg_start: list[int] = field(default_factory=list)
    seg_end: list[int] = field(default_factory=list)
    seg_len: list[int] = field(default_factory=list)
    seg_symbol: list[str] = field(default_factory=list)
    seg_kind: list[str] = field(default_factory=list)
    seg_idname: list[str] = field(default_factory=list)  # the prefix of the qualified name the id derives from
    seg_ids: dict[int, str] = field(default_factory=dict)  # ids not derived from (repo, path, lines, name)
    tri_parts: list[npt.NDArray[np.uint64]] = field(default_factory=list)
    case_parts: list[npt.NDArray[np.uint8]] = field(default_factory=list)  # per entry of tri_parts
    terms: _TermAccumulator = field(default_factory=_TermAccumulator)
    uncovered: int = 0  # lines covered by no segment (stored empty, unsearchable)

    def add_file(
        self, repo: str, path: str, segs: list[Segment], out: BinaryIO, compressor: zstandard.ZstdCompressor
    ) -> None:
        """Add one file: its row, its blocks (contents written to ``out``) and its segments.

        ``segs`` is sorted in place by start line, outer segments first: the order they are stored in.
        """
        file_id = len(self.file_rows)
        segs.sort(key=lambda s: (s.start_line, -s.end_line))
        language = segs[0].language
        repo_index = self.repos.setdefault(repo, len(self.repos))
        self.file_rows.append((repo_index, self.languages.setdefault(language, len(self.languages)), path))
        lines = file_lines(segs)
        self._add_blocks(file_id, lines, out, compressor)
        self._add_segments(segs, lines)

    def _add_blocks(self, file_id: int, lines: list[str], out: BinaryIO, compressor: zstandard.ZstdCompressor) -> None:
        """Write each block of a file as one zstd frame and gather its trigrams (with their offset masks)."""
        for first_line, block_text in split_blocks(lines):
            block_id = len(self.block_file)
            packed = compressor.compress(encode(block_text))
            out.write(packed)
            self.content_offsets.append(self.content_offsets[-1] + len(packed))
            self.block_file.append(file_id)
            self.block_line.append(first_line)
            tri, case = _block_trigrams(block_text, block_id)
            self.tri_parts.append(tri)
            self.case_parts.append(case)
        self.file_blocks.append(len(self.block_file))

    def _add_segments(self, segs: list[Segment], lines: list[str]) -> None:
        """Add a file's segments and their BM25 terms.

        A segment's terms are those of the lines it owns (where it is the innermost segment), so a
        line counts once, for its most specific segment; its length is their count. A definition
        also owns its doc comment (:func:`documented_owners`). Its symbol's parts are boosted on top
        (not counted in the length).
        """
        starts = np.array([s.start_line for s in segs], dtype=np.int32)
        ends = np.array([s.end_line for s in segs], dtype=np.int32)
        owner = line_owners(starts, ends, len(lines))
        self.uncovered += int(np.count_nonzero(owner < 0))
        owned: dict[int, list[str]] = defaultdict(list)
        for line, o in zip(lines, documented_owners(segs, lines, owner).tolist(), strict=True):
            owned[o].append(line)
        base = len(self.seg_start)
        for j, s in enumerate(segs):
            counts = count_terms("\n".join(owned.get(j, ())))
            self.seg_len.append(sum(counts.values()))
            if s.symbol:
                for t in split_identifier(s.symbol):
                    counts[t] += SYMBOL_BOOST
            self.terms.add(base + j, counts)
            self.seg_start.append(s.start_line)
            self.seg_end.append(s.end_line)
            self._add_names(base + j, s)
        self.seg_offsets.append(len(self.seg_start))

    def _add_names(self, index: int, s: Segment) -> None:
        """A segment's symbol and kind, and how to recompute its id (stored only when it cannot be)."""
        symbol = s.symbol or ""
        self.seg_symbol.append(symbol)
        self.seg_kind.append(s.kind or "")
        if s.id == segment_id(s.repo, s.path, s.start_line, s.end_line, symbol):
            self.seg_idname.append("")
        elif (
            symbol
            and s.qualified_name
            and s.qualified_name != symbol
            and s.qualified_name.endswith(symbol)
            and s.id == segment_id(s.repo, s.path, s.start_line, s.end_line, s.qualified_name)
        ):
            self.seg_idname.append(s.qualified_name[: -len(symbol)])  # "Class." of "Class.method"
        else:
            self.seg_idname.append("")
            self.seg_ids[index] = s.id


def build_shard(segments: Iterable[Segment], shard_dir: Path) -> BuildStats:
    """Write a shard for ``segments`` (any order) under ``shard_dir``.

    The steps: group the segments by file; add the files in (repository, path) order, writing
    their compressed blocks to ``content.bin`` and gathering everything else; then write the
    trigram index, the term index, the block and segment tables, the file table and ``meta.json``.
    """
    shard_dir.mkdir(parents=True, exist_ok=True)
    tables = _ShardTables()
    content_path = shard_dir / "content.bin"
    compressor = codec.compressor(ZSTD_LEVEL)
    with content_path.open("wb") as out:
        for (repo, path), segs in sorted(_by_file(segments).items()):
            tables.add_file(repo, path, segs, out, compressor)
    nbytes = content_path.stat().st_size
    nbytes += _write_trigrams(shard_dir, tables.tri_parts, tables.case_parts)
    nbytes += _write_terms(shard_dir, tables.terms)
    nbytes += _write_tables(shard_dir, tables)
    nbytes += _write_files_and_meta(shard_dir, tables)
    uncovered = tables.uncovered
    notes = (f"text: {uncovered} lines covered by no segment are not searchable",) if uncovered else ()
    return BuildStats(segments=len(tables.seg_start), bytes_on_disk=nbytes, notes=notes)


def _by_file(segments: Iterable[Segment]) -> dict[tuple[str, str], list[Segment]]:
    """The segments of each (repository, path)."""
    by_file: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    for s in segments:
        by_file[(s.repo, s.path)].append(s)
    return by_file


def _write_trigrams(
    shard_dir: Path, tri_parts: list[npt.NDArray[np.uint64]], case_parts: list[npt.NDArray[np.uint8]]
) -> int:
    """Write trigram key -> block ids postings and, per posting, its offset mask and case
    patterns; returns bytes written."""
    # (key << 40 | block << 8 | mask) sorts by key, then block: the masks line up with the postings
    packed = np.concatenate(tri_parts) if tri_parts else np.empty(0, dtype=np.uint64)
    cases = np.concatenate(case_parts) if case_parts else np.empty(0, dtype=np.uint8)
    blocks = (packed >> np.uint64(8)) & np.uint64(0xFFFFFFFF)
    if not blocks.size or int(blocks[-1]) < _CASE_IN_KEY_BLOCKS:  # the last block is the largest
        # block ids fit 24 bits: the case byte rides in the sort key (one sort, no argsort)
        keyed = (packed & ~np.uint64((1 << 40) - 1)) | (blocks << np.uint64(16))
        keyed |= (cases.astype(np.uint64) << np.uint64(8)) | (packed & np.uint64(0xFF))
        keyed.sort()
        tri_ids = ((keyed >> np.uint64(16)) & np.uint64(0xFFFFFF)).astype(np.uint32)
        tri_case = ((keyed >> np.uint64(8)) & np.uint64(0xFF)).astype(np.uint8)
        tri_keys, tri_mask = keyed >> np.uint64(40), (keyed & np.uint64(0xFF)).astype(np.uint8)
    else:
        order = np.argsort(packed)
        packed, tri_case = packed[order], cases[order]
        tri_ids = ((packed >> np.uint64(8)) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        tri_keys, tri_mask = packed >> np.uint64(40), (packed & np.uint64(0xFF)).astype(np.uint8)
    nbytes = write_postings(shard_dir, "tri", tri_keys, tri_ids, key_dtype=np.uint32)
    tri_mask.tofile(shard_dir / "tri_mask.bin")
    nbytes += write_sparse_bytes(shard_dir / "tri_case.bin", tri_case, LOWER_CASE)
    return nbytes + int(tri_mask.nbytes)


def _write_tables(shard_dir: Path, tables: _ShardTables) -> int:
    """Write the block and segment arrays (``tables.zst``) and the segments' names: symbols, kinds,
    the names ids derive from, and any ids that do not."""
    arrays: dict[str, npt.ArrayLike] = {
        "content_offsets": tables.content_offsets,
        "block_file": tables.block_file,
        "block_line": tables.block_line,
        "file_blocks": tables.file_blocks,
        "seg_offsets": tables.seg_offsets,
        "seg_start": tables.seg_start,
        "seg_end": tables.seg_end,
        "seg_len": tables.seg_len,
    }
    # a segment's end as its span: small numbers, which compress better
    arrays["seg_end"] = np.subtract(tables.seg_end, tables.seg_start)
    sorted_ = ("content_offsets", "block_file", "file_blocks", "seg_offsets")
    nbytes = write_arrays(shard_dir / "tables.zst", arrays, sorted_=sorted_)
    for name in ("seg_symbol", "seg_kind", "seg_idname"):
        nbytes += write_packed_strings(shard_dir, name, getattr(tables, name))
    if tables.seg_ids:
        ids = json.dumps({str(i): v for i, v in sorted(tables.seg_ids.items())})
        (shard_dir / "seg_ids.json").write_text(ids)
        nbytes += len(ids)
    return nbytes


def _write_files_and_meta(shard_dir: Path, tables: _ShardTables) -> int:
    """Write ``files.json`` (repositories, languages, file rows) and ``meta.json``; returns the former's size."""
    files_json = json.dumps(
        {"repos": list(tables.repos), "languages": list(tables.languages), "files": tables.file_rows}
    )
    (shard_dir / "files.json").write_text(files_json)
    meta = {
        "format": FORMAT,
        "files": len(tables.file_rows),
        "blocks": len(tables.block_file),
        "segments": len(tables.seg_start),
        "content_bytes": tables.content_offsets[-1],  # compressed
        "avg_seg_len": float(np.mean(tables.seg_len)) if tables.seg_len else 0.0,
    }
    (shard_dir / "meta.json").write_text(json.dumps(meta))
    return len(files_json)


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


def _block_trigrams(text: str, block_id: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint8]]:
    """One ``key << 40 | block << 8 | mask`` per distinct trigram of a block's folded text, where
    bit ``b`` of ``mask`` says the trigram starts at some byte offset ``p`` with ``p % 8 == b``;
    and for each, its case byte: bit ``c`` set when it occurs with case pattern ``c``."""
    folded_text = fold(text)
    folded = encode(folded_text)
    keys, positions = trigram_positions(folded)
    if keys.size == 0:
        return np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.uint8)
    order = np.argsort(keys, kind="stable")
    keys, positions = keys[order], positions[order]
    bits = (np.uint8(1) << (positions & 7).astype(np.uint8)).astype(np.uint8)
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    masks = np.bitwise_or.reduceat(bits, starts)
    flags = case_flags(text, folded, folded_text)
    if flags is None:
        cases = np.full(starts.size, 0xFF, dtype=np.uint8)
    elif not flags.any():  # no capital: every trigram in lower case
        cases = np.full(starts.size, LOWER_CASE, dtype=np.uint8)
    else:
        case_bits = (np.uint8(1) << case_patterns(flags, positions)).astype(np.uint8)
        cases = np.bitwise_or.reduceat(case_bits, starts)
    packed = (keys[starts].astype(np.uint64) << np.uint64(40)) | np.uint64(block_id << 8) | masks.astype(np.uint64)
    return packed, cases.astype(np.uint8)


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
    nbytes += _write_tf(shard_dir, term, tf)
    return nbytes + write_packed_strings(shard_dir, "terms", names)


def _write_tf(shard_dir: Path, term: npt.NDArray[np.int64], tf: npt.NDArray[np.uint8]) -> int:
    """Write the postings' term frequencies list by list: two to a byte (low nibble first) in a
    list whose frequencies are all under 16, else one to a byte; which lists are packed goes to
    ``term_tf_index.zst``. Bytes written."""
    n = tf.size
    starts = np.flatnonzero(np.r_[True, term[1:] != term[:-1]]) if n else np.empty(0, dtype=np.int64)
    lengths = np.diff(np.r_[starts, n]).astype(np.int64)
    packed = np.maximum.reduceat(tf, starts) < 16 if n else np.empty(0, dtype=bool)
    byte_len = np.where(packed, (lengths + 1) // 2, lengths)
    offsets = np.zeros(starts.size + 1, dtype=np.int64)
    np.cumsum(byte_len, out=offsets[1:])
    within = np.arange(n, dtype=np.int64) - np.repeat(starts, lengths)
    in_packed = np.repeat(packed, lengths)
    pos = np.repeat(offsets[:-1], lengths) + np.where(in_packed, within // 2, within)
    high = in_packed & (within % 2 == 1)
    data = np.zeros(int(offsets[-1]), dtype=np.uint8)
    data[pos[~high]] = tf[~high]  # one frequency a byte, or a packed pair's low nibble
    data[pos[high]] |= tf[high] << 4  # positions are distinct within each assignment
    data.tofile(shard_dir / "term_tf.bin")
    return int(data.nbytes) + write_arrays(shard_dir / "term_tf_index.zst", {"packed": packed})
