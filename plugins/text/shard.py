"""A loaded text shard: literal, regex and BM25 searches over memory-mapped arrays.

Searches are read-only over memory maps and immutable tables, so one ``TextShard`` serves any
number of threads. ``total_matches`` counts matching lines for literal and regex searches (as
``rg --count`` summed over files) and matching segments for BM25, however many hits ``k`` keeps.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import json
import math
import mmap
import re
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import zstandard

from fourfold.errors import CorruptIndex, InvalidQuery
from fourfold.plugins import inline_regex
from fourfold.plugins.codec import decompress
from fourfold.plugins.globs import GLOB_CHARS, compile_glob, path_filter
from fourfold.plugins.text.build import FORMAT, LOWER_CASE
from fourfold.plugins.text.fold import encode
from fourfold.plugins.text.matchers import (
    ANY_CASE,
    Gram,
    Matcher,
    find_lines,
    literal_matcher,
    multiline_matcher,
    regex_matcher,
)
from fourfold.plugins.text.shard_notes import folders_note, paths_note, stopped_note, verified_note
from fourfold.plugins.text.storage import PostingLists, SparseBytes, StringTable, read_arrays
from fourfold.plugins.text.terms import content_terms, query_terms
from fourfold.plugins.text.trigram_query import All, And, Or, Query, Tri
from fourfold.plugins.types import (
    FOLDER_TREE_OPTION,
    FOLDERS_OPTION,
    HOLDING_OPTION,
    MASK_OPTION,
    PATH_SHOWN,
    Hit,
    LineFilter,
    ModalityQuery,
    ShardResult,
    context_lines,
    line_filters,
    max_count,
    multiline,
    order,
    segment_id,
)

__all__ = ["MODES", "TextShard", "lists_path"]

#: Decompressed blocks each thread keeps (a few MB at most: a block is about 64 K characters
#: unless one line is longer, and a file is under 1 MiB).
_RECENT_BLOCKS = 16
#: Candidate blocks holding up to this many compressed bytes in all are verified as they are:
#: decoding more posting lists or checking position masks would cost more than decompressing and
#: searching them (about 0.5 ms here). Above it, the masks prune first.
_VERIFY_BYTES = 64 << 10

MODES = ("auto", "literal", "regex", "bm25", "paths")
#: ``options["question_words"] = "keep"``: a one-line question's BM25 counts the words that frame it too ("how",
#: "does", "where": ``terms.QUESTION_WORDS``), as ``mode=bm25`` and a paste of several lines always do ("drop": the
#: default, leaves them out).
QUESTION_WORDS_OPTION = "question_words"

#: A literal/regex listing whose candidate blocks hold more compressed bytes than this (a few
#: tens of ms of verification) stops once it holds k files, with lower-bound totals (Zoekt's
#: shard match limit); below it every candidate is verified and the totals are exact.
_LISTING_BUDGET_BYTES = 2 << 20

#: BM25 parameters (Lucene's defaults) and the weight of a term found in the file name.
K1, B = 1.2, 0.75
FILENAME_WEIGHT = 0.5

_QUOTED = re.compile(r'"((?:[^"\\]|\\.)+)"')
_SNIPPET_LINES = 3
_SNIPPET_WIDTH = 240
#: a snippet with context lines (``CONTEXT_OPTION``) holds whole groups up to this many lines
_CONTEXT_SNIPPET_LINES = 40


def _order(query: ModalityQuery) -> str:
    """How ``query`` orders a listing (``plugins.types.order``): "" where its value is bad (the coordinator refuses
    it; a host that did not ranks as usual)."""
    try:
        return order(query.options)
    except ValueError:
        return ""


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
        if meta.get("format") not in (2, 3, FORMAT):
            raise CorruptIndex(
                f"text shard {shard_dir} has format {meta.get('format')!r}, expected {FORMAT}; rebuild it"
            )
        self.dir = shard_dir
        self._local = threading.local()
        self._parent_cache: dict[int, npt.NDArray[np.int64]] = {}
        self._symbols: bytes | None = None
        self.n_files = int(meta["files"])
        self.n_segments = int(meta["segments"])
        self.avg_seg_len = max(float(meta["avg_seg_len"]), 1.0)
        self._fields: npt.NDArray[np.bool_] | None = None  # which segments are fields: _field_segments
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
        fmt = int(meta["format"])
        tables = _load_tables(shard_dir, fmt)
        offsets = tables["content_offsets"]
        self.content_offsets: list[int] = offsets.tolist()  # per block
        self.content_sizes = np.diff(offsets.astype(np.int64))
        if meta["format"] == 2:  # before blocks: one block per file
            self.block_file = np.arange(self.n_files, dtype=np.int64)
            self.block_line = np.zeros(self.n_files, dtype=np.int64)
            self.file_blocks = np.arange(self.n_files + 1, dtype=np.int64)
        else:
            self.block_file = tables["block_file"].astype(np.int64)
            self.block_line = tables["block_line"].astype(np.int64)
            self.file_blocks = tables["file_blocks"].astype(np.int64)
        self.n_blocks = int(self.block_file.size)
        if self.content_sizes.size != self.n_blocks or self.file_blocks.size != self.n_files + 1:
            raise CorruptIndex(
                f"text shard {shard_dir} has {self.content_sizes.size} stored blocks for {self.n_blocks} "
                f"indexed ones; rebuild it"
            )
        # stored in their narrowest types (format 4): widened to what the searches compute in
        self.seg_offsets = tables["seg_offsets"].astype(np.int64)
        self.seg_start = tables["seg_start"].astype(np.int32)
        self.seg_end = tables["seg_end"].astype(np.int32)
        self.seg_len = tables["seg_len"]
        self.seg_file = np.repeat(np.arange(self.n_files, dtype=np.int64), np.diff(self.seg_offsets))
        # the same bounds for one-at-a-time lookups (``_owner_of``): items of an ``array`` are
        # plain ints, where a numpy item costs a scalar object and a slow comparison
        self._seg_lo = array("q", self.seg_offsets.tobytes())
        self._seg_start_list = array("i", self.seg_start.tobytes())
        self._seg_end_list = array("i", self.seg_end.tobytes())
        self._file_repo_list = array("i", self.file_repo.tobytes())
        self._rank: list[int] | None = None
        try:
            self._load_names(shard_dir, fmt)
        except (OSError, ValueError, zstandard.ZstdError) as exc:
            raise CorruptIndex(
                f"text shard {shard_dir} has unreadable segment names or terms ({exc}); rebuild it"
            ) from None
        self.tri = PostingLists.load(shard_dir, "tri")
        #: trigram -> list index, remembered: a query looks each trigram up several times (to order
        #: an AND, to decode, to check positions), and repeated queries ask the same ones
        self._tri_find = functools.lru_cache(maxsize=1 << 16)(self.tri.find)
        self.tri_mask, self.tri_first = self._load_masks(shard_dir)
        self.tri_case = self._load_cases(shard_dir)
        self.term = PostingLists.load(shard_dir, "term")
        self._load_tf(shard_dir, fmt)

    def _load_names(self, shard_dir: Path, fmt: int) -> None:
        """The segments' symbols, kinds and ids, and the term table.

        Format 4 stores no id that ``segment_id`` recomputes from the segment's place and name;
        older shards stored each one (``seg_info``: "id\\0symbol\\0kind"), split here into tables.
        """
        self._seg_ids: dict[int, str] = {}
        self._id_table: StringTable | None = None
        if fmt >= 4:
            self.seg_symbol = StringTable.load_packed(shard_dir, "seg_symbol")
            self.seg_kind = StringTable.load_packed(shard_dir, "seg_kind")
            self._seg_idname = StringTable.load_packed(shard_dir, "seg_idname")
            ids = shard_dir / "seg_ids.json"
            if ids.exists():
                self._seg_ids = {int(i): v for i, v in json.loads(ids.read_text()).items()}
            self.terms = StringTable.load_packed(shard_dir, "terms")
        else:
            parts = [info.split(b"\0") for info in _split_table(StringTable.load(shard_dir, "seg_info"))]
            self._id_table = _table([p[0] for p in parts])
            self.seg_symbol = _table([p[1] for p in parts])
            self.seg_kind = _table([p[2] for p in parts])
            self._seg_idname = _table([b""] * len(parts))
            self.terms = StringTable.load(shard_dir, "terms")
        for name in ("seg_symbol", "seg_kind", "_seg_idname"):
            if len(getattr(self, name)) != self.n_segments:
                raise CorruptIndex(
                    f"text shard {shard_dir} has {len(getattr(self, name))} {name.strip('_')} entries for "
                    f"{self.n_segments} segments; rebuild it"
                )

    def _load_tf(self, shard_dir: Path, fmt: int) -> None:
        """The postings' term frequencies, and where each list's start (in bytes)."""
        starts = self.term.starts()
        if fmt < 4:
            self.term_tf = np.load(shard_dir / "term_tf.npy", mmap_mode="r").view(np.ndarray)
            self.term_tf_offsets = starts
            self._tf_packed = np.zeros(starts.size - 1, dtype=bool)
            return
        path = shard_dir / "term_tf.bin"
        try:
            self._tf_packed = read_arrays(shard_dir / "term_tf_index.zst")["packed"].astype(bool)
        except (OSError, ValueError, KeyError, zstandard.ZstdError) as exc:
            raise CorruptIndex(
                f"text shard {shard_dir} has no readable term_tf_index.zst ({exc}); rebuild it"
            ) from None
        lengths = np.diff(starts)
        if self._tf_packed.size != lengths.size:
            raise CorruptIndex(
                f"text shard {shard_dir}: term frequencies for {self._tf_packed.size} of {lengths.size} terms"
            )
        byte_len = np.where(self._tf_packed, (lengths + 1) // 2, lengths)
        self.term_tf_offsets = np.concatenate(([0], np.cumsum(byte_len))).astype(np.int64)
        if path.stat().st_size != int(self.term_tf_offsets[-1]):
            raise CorruptIndex(f"text shard {shard_dir} has a term_tf.bin of the wrong size; rebuild it")
        self.term_tf = (
            np.memmap(path, dtype=np.uint8, mode="r").view(np.ndarray)
            if self.term_tf_offsets[-1]
            else np.empty(0, dtype=np.uint8)
        )

    def _term_tf(self, i: int, n: int) -> npt.NDArray[np.float64]:
        """The term frequencies of term list ``i`` (``n`` postings)."""
        raw = self.term_tf[self.term_tf_offsets[i] : self.term_tf_offsets[i + 1]]
        if not self._tf_packed[i]:
            return raw.astype(np.float64)
        tf = np.empty(2 * raw.size, dtype=np.float64)
        tf[0::2] = raw & 0x0F
        tf[1::2] = raw >> 4
        return tf[:n]

    def _segment_id(self, seg: int, f: int) -> str:
        """The id of segment ``seg`` (of file ``f``): stored, or recomputed from its place and name."""
        if self._id_table is not None:
            return self._id_table[seg]
        given = self._seg_ids.get(seg)
        if given is not None:
            return given
        name = self._seg_idname[seg] + self.seg_symbol[seg]  # the qualified name, else the symbol
        repo = self.repos[self._file_repo_list[f]]
        return segment_id(repo, self.paths[f], self._seg_start_list[seg], self._seg_end_list[seg], name)

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

    def _load_cases(self, shard_dir: Path) -> SparseBytes | None:
        """The postings' case patterns (None: a shard built before them, or without position
        masks, searched without them)."""
        path = shard_dir / "tri_case.bin"
        if self.tri_mask is None or not path.exists():
            return None
        try:
            return SparseBytes.load(path, int(self.tri_first[-1]), LOWER_CASE)
        except ValueError as exc:
            raise CorruptIndex(
                f"text shard {shard_dir} has unreadable trigram case patterns ({exc}); rebuild it"
            ) from None

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
            if mode == "paths":
                raise InvalidQuery(
                    "the path search is empty (mode=paths); give part of a path (core.py) or a glob (*.go)"
                )
            raise InvalidQuery(f'the text search is empty (mode={mode}); give a word, a "quoted literal" or a regex')
        if query.k < 1:
            raise InvalidQuery(f"k={query.k} asks for no hits; ask for at least 1")
        if mode == "paths":
            return self._paths(text.strip(), query, self._file_mask(query))
        framing = query.options.get(QUESTION_WORDS_OPTION, "drop")
        if framing not in ("drop", "keep"):
            raise InvalidQuery(f"text option {QUESTION_WORDS_OPTION} must be 'drop' or 'keep', got {framing!r}")
        mask = self._file_mask(query)
        cs = query.case_sensitive
        if mode == "literal":
            return self._grep((literal_matcher(text, cs),), query, mask)
        if mode == "regex":
            try:
                spanning = multiline(query.options)
            except ValueError:
                spanning = ""  # the coordinator refuses it; a host that did not matches within lines
            if spanning:  # rg -U: a match may span lines
                return self._grep((multiline_matcher(text, cs, spanning == "dotall"),), query, mask)
            return self._grep((regex_matcher(text, cs),), query, mask)
        if mode == "bm25":
            return self._bm25(query_terms(text), query, mask)
        inline = inline_regex.find(text)
        if inline is not None:  # "regex save_\w+\(", "/TODO\(\w+\)/": the pattern, its matches ranked by the rest
            return self._inline_regex(inline, text, query, mask)
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
        if framing == "drop" and "\n" not in text.strip():
            terms = content_terms(terms)  # a question ranked by what it asks about, not by its frame
        return self._bm25(terms, query, mask)

    def _inline_regex(
        self, inline: inline_regex.InlineRegex, text: str, query: ModalityQuery, mask: npt.NDArray[np.bool_] | None
    ) -> ShardResult:
        """The lines matching a pattern the query writes inline; one RE2 cannot compile is matched as a literal,
        and the notes say so (a query's words are not a caller's ``mode=regex``, which is refused)."""
        rest = query_terms(inline.rest(text))
        try:
            matcher = regex_matcher(inline.pattern, query.case_sensitive)
            said = f"text: regex {inline.pattern!r} from the query"
        except InvalidQuery as exc:
            matcher = literal_matcher(inline.pattern, query.case_sensitive)
            said = f"text: {exc}; {inline.pattern!r} matched as a literal"
        result = self._grep((matcher,), query, mask, rank_terms=rest)
        return replace(result, notes=(said, *result.notes))

    # --- filters and candidates ------------------------------------------------------------

    def _file_mask(self, query: ModalityQuery) -> npt.NDArray[np.bool_] | None:
        """Files the repository, language and path filters allow (None: no filter)."""
        mask: npt.NDArray[np.bool_] | None = None

        def narrow(m: npt.NDArray[np.bool_]) -> None:
            nonlocal mask
            mask = m if mask is None else mask & m

        if query.repos:
            repos = set(query.repos)  # once: a compound shard's host names hundreds of live repositories
            wanted = [i for i, r in enumerate(self.repos) if r in repos]
            narrow(np.isin(self.file_repo, wanted))
        if query.languages:
            languages = set(query.languages)
            wanted = [i for i, lang in enumerate(self.languages) if lang in languages]
            narrow(np.isin(self.file_lang, wanted))
        passes = path_filter(query)
        if passes is not None:
            narrow(np.fromiter((passes(p) for p in self.paths), dtype=bool, count=self.n_files))
        if query.options.get(MASK_OPTION):
            hidden = set(query.options[MASK_OPTION].split("\n"))
            narrow(np.fromiter((p not in hidden for p in self.paths), dtype=bool, count=self.n_files))
        try:
            holding = line_filters(query.options, HOLDING_OPTION)
        except ValueError:
            holding = ()  # the coordinator refuses it; a host that did not lists every file
        for f in holding:  # grep -l X | xargs grep Y: the files holding X, found as a listing of X finds them
            held = self._holding(_matcher_of(f), mask)
            narrow(~held if f.invert else held)  # grep -L X: the files without it
        return mask

    def _holding(self, m: Matcher, mask: npt.NDArray[np.bool_] | None) -> npt.NDArray[np.bool_]:
        """The files (of those ``mask`` allows) with a line ``m`` matches."""
        blocks = self._candidates(m.trigrams, mask)
        by_file: dict[int, list[int]] = {}
        for b, f in zip(blocks.tolist(), self.block_file[blocks].tolist(), strict=True):
            by_file.setdefault(f, []).append(b)
        held = np.zeros(self.n_files, dtype=bool)
        for f, in_file in by_file.items():
            held[f] = bool(self._match_lines(m, in_file))
        return held

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
                i = self._tri_find(q.key)
                ids = decoded[q.key] = self.tri.ids(i) if i >= 0 else np.empty(0, dtype=np.int64)
            return ids
        if isinstance(q, And):
            # cheapest first: single trigrams by list length, then the rest
            def cost(c: Query) -> float:
                if isinstance(c, Tri):
                    i = self._tri_find(c.key)
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

    def _whole_files(
        self, q: Query, mask: npt.NDArray[np.bool_] | None, decoded: dict[int, npt.NDArray[np.int64]]
    ) -> npt.NDArray[np.int64]:
        """Every block of the files (of those ``mask`` allows) that hold each trigram ``q`` asks for in some block of
        theirs: a multi-line match's parts may lie in different blocks."""
        files = self._evaluate_files(q, decoded)
        if files is None:
            files = np.arange(self.n_files, dtype=np.int64)
        if mask is not None:
            files = files[mask[files]]
        starts, ends = self.file_blocks[files], self.file_blocks[files + 1]
        if not files.size:
            return np.empty(0, dtype=np.int64)
        return np.concatenate(
            [np.arange(a, b, dtype=np.int64) for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]
        )

    def _evaluate_files(self, q: Query, decoded: dict[int, npt.NDArray[np.int64]]) -> npt.NDArray[np.int64] | None:
        """File ids that may satisfy ``q``, each trigram in any of a file's blocks (None: every file)."""
        if isinstance(q, All):
            return None
        if isinstance(q, Tri):
            ids = self._evaluate(q, decoded)
            return np.unique(self.block_file[ids]) if ids is not None else None
        parts = [self._evaluate_files(child, decoded) for child in q.children]
        if isinstance(q, And):
            known = [p for p in parts if p is not None]
            if not known:
                return None
            result = known[0]
            for p in known[1:]:
                result = np.intersect1d(result, p, assume_unique=True)
            return result
        if any(p is None for p in parts):
            return None
        return np.unique(np.concatenate([p for p in parts if p is not None])) if parts else np.empty(0, np.int64)

    def _cheap_to_verify(self, blocks: npt.NDArray[np.int64]) -> bool:
        """Whether verifying ``blocks`` costs less than narrowing them further (see ``_VERIFY_BYTES``)."""
        return blocks.size <= 1 or int(self.content_sizes[blocks].sum()) <= _VERIFY_BYTES

    def _aligned(
        self,
        strings: tuple[tuple[Gram, ...], ...],
        candidates: npt.NDArray[np.int64],
        decoded: dict[int, npt.NDArray[np.int64]],
    ) -> npt.NDArray[np.int64]:
        """The candidates where one of ``strings`` (a matcher's: every match's text is one of
        them) can sit, its trigrams at its own relative offsets and in its case."""
        if self.tri_mask is None:
            return candidates
        if len(strings) == 1:
            return self._aligned_one(strings[0], candidates, decoded)
        kept = [self._aligned_one(grams, candidates, decoded) for grams in strings]
        return np.unique(np.concatenate(kept))

    def _aligned_one(
        self,
        grams: tuple[Gram, ...],
        candidates: npt.NDArray[np.int64],
        decoded: dict[int, npt.NDArray[np.int64]],
    ) -> npt.NDArray[np.int64]:
        """The candidates where a literal's trigrams can sit at its own relative offsets, in its case.

        A match at byte ``P`` puts the trigram of offset ``i`` at ``P + i``: for some ``r = P % 8``
        every trigram's mask holds bit ``(r + i) % 8``. Rotating each mask right by its offset and
        AND-ing them leaves bit ``r`` set, so a block whose AND is 0 cannot match. Blocks holding
        every trigram of a phrase of common words (``Too many redirects``) mostly fail this. A
        case-sensitive literal's trigram must also occur in the block in its own case pattern
        (``NoReturn``'s ``NoR``), which rules out the blocks that hold it only in other cases
        (``noreturn``, ``ignore``); a block without the trigram at all is ruled out too.
        """
        assert self.tri_mask is not None
        acc = np.full(candidates.size, 0xFF, dtype=np.uint16)
        found = [(self._tri_find(key), key, offset, case) for key, offset, case in grams]
        if any(k < 0 for k, _, _, _ in found):
            return candidates[:0]
        cases = self.tri_case
        # rarest trigrams first, dropping ruled-out blocks as they go, until what is left is cheap
        # (putting those with capitals first measured no better)
        for k, key, offset, case in sorted(found, key=lambda f: self.tri.size(f[0])):
            ids = decoded.get(key)
            if ids is None:
                ids = decoded[key] = self.tri.ids(k)
            at = np.minimum(np.searchsorted(ids, candidates), ids.size - 1)
            held = ids[at] == candidates
            where = self.tri_first[k] + at
            m = self.tri_mask[where].astype(np.uint16)
            s = offset & 7
            rotated = ((m >> s) | (m << (8 - s))) & 0xFF
            if cases is not None and case != ANY_CASE:
                held &= (cases.take(where) & case) != 0
            acc &= np.where(held, rotated, 0).astype(np.uint16)
            alive = acc != 0
            if not alive.all():
                candidates, acc = candidates[alive], acc[alive]
            if self._cheap_to_verify(candidates):
                break
        return candidates

    def _block_bytes(self, b: int) -> bytes:
        """The content of block ``b`` (zstd contexts are per thread: ``fourfold.plugins.codec``).

        The last ``_RECENT_BLOCKS`` blocks each thread decompressed are kept, so verifying a block
        and then cutting its hits' snippets decompresses it once.
        """
        recent: OrderedDict[int, bytes] | None = getattr(self._local, "recent", None)
        if recent is None:
            recent = self._local.recent = OrderedDict()
        data = recent.get(b)
        if data is not None:
            recent.move_to_end(b)
            return data
        packed = self.content[self.content_offsets[b] : self.content_offsets[b + 1]]
        data = decompress(packed) if packed else b""
        recent[b] = data
        if len(recent) > _RECENT_BLOCKS:
            recent.popitem(last=False)
        return data

    def _block_of(self, f: int, line: int) -> int:
        """The block of file ``f`` holding its 0-based ``line``."""
        lo, hi = int(self.file_blocks[f]), int(self.file_blocks[f + 1])
        return lo + max(int(np.searchsorted(self.block_line[lo:hi], line, side="right")) - 1, 0)

    def _match_lines(self, m: Matcher, blocks: Sequence[int], texts: list[bytes] | None = None) -> list[int]:
        """The 0-based file lines that ``m`` matches in ``blocks`` (of one file, in order).

        ``texts``: filled with the text of the first few matching lines (a file hit's snippet),
        cut while the block is in hand rather than decompressed again for the hit.
        """
        if m.multiline:  # the whole file (its blocks joined by newlines), a match free to cross them
            return m.lines(b"\n".join(self._block_bytes(b) for b in blocks)) if len(blocks) else []
        out: list[int] = []
        for b in blocks:
            first = int(self.block_line[b])
            data = self._block_bytes(b)
            if texts is not None and len(texts) < _SNIPPET_LINES:
                spans: list[tuple[int, int]] = []
                rel = m.lines(data, spans, _SNIPPET_LINES - len(texts))
                texts.extend(data[lo : min(hi, lo + _SNIPPET_WIDTH * 4)] for lo, hi in spans)
            else:
                rel = m.lines(data)
            if first:
                out.extend([first + line for line in rel])
            else:
                out.extend(rel)
        return out

    def _parents(self, f: int) -> npt.NDArray[np.int64]:
        """Per segment of file ``f`` (file-local index), the nearest earlier segment that encloses
        it (-1: none). Segments are stored by (start, -end), so enclosing ones come first; computed
        once per file with a stack and kept (read-only arrays: safe to share between threads)."""
        cache: dict[int, npt.NDArray[np.int64]] = self._parent_cache
        got = cache.get(f)
        if got is not None:
            return got
        lo, hi = int(self.seg_offsets[f]), int(self.seg_offsets[f + 1])
        ends = self.seg_end[lo:hi].tolist()
        parent = [-1] * (hi - lo)
        stack: list[int] = []
        for j, end in enumerate(ends):
            while stack and ends[stack[-1]] < end:
                stack.pop()
            parent[j] = stack[-1] if stack else -1
            stack.append(j)
        got = cache[f] = np.array(parent, dtype=np.int64)
        return got

    def _file_rank(self) -> list[int]:
        """Each file's place in (repository, path) order, the tie-break of file hits (computed once)."""
        rank = self._rank
        if rank is None:
            order = sorted(range(self.n_files), key=lambda f: (self.repos[int(self.file_repo[f])], self.paths[f]))
            rank = [0] * self.n_files
            for place, f in enumerate(order):
                rank[f] = place
            self._rank = rank
        return rank

    def _owner_of(self, f: int, line: int) -> int:
        """``_owners_of`` for one line, without arrays: a file hit names the owner of its first
        matching line, and numpy's per-call cost is most of a one-line lookup."""
        lo, hi = self._seg_lo[f], self._seg_lo[f + 1]
        at = line + 1
        c = bisect.bisect_right(self._seg_start_list, at, lo, hi) - 1
        if c < lo:
            return -1
        ends = self._seg_end_list
        if ends[c] >= at:
            return c
        parent = self._parents(f)
        while c >= lo and ends[c] < at:
            up = int(parent[c - lo])
            c = up + lo if up >= 0 else -1
        return c if c >= lo else -1

    def _owners_of(self, f: int, lines: Sequence[int]) -> list[int]:
        """Global segment index owning each given 0-based line of file ``f`` (-1: none).

        The innermost covering segment is the last one starting at or before the line that still
        covers it: a binary search finds the last start, then enclosing parents are followed while
        the segment ends before the line (a few steps: the nesting depth). Cost: O(matches · log
        segments), not matches × segments.
        """
        lo, hi = int(self.seg_offsets[f]), int(self.seg_offsets[f + 1])
        if not len(lines) or lo == hi:
            return [-1] * len(lines)
        at = np.asarray(lines, dtype=np.int64) + 1  # 1-based, as the segment bounds
        starts = self.seg_start[lo:hi]
        ends = self.seg_end[lo:hi]
        cand = np.searchsorted(starts, at, side="right").astype(np.int64) - 1
        if hi - lo > 1:
            parent = self._parents(f)
            while True:
                bad = (cand >= 0) & (ends[np.maximum(cand, 0)] < at)
                if not bad.any():
                    break
                cand[bad] = parent[cand[bad]]
        return np.where(cand >= 0, cand + lo, -1).tolist()

    # --- literal and regex -----------------------------------------------------------------

    def _grep(
        self,
        matchers: tuple[Matcher, ...],
        query: ModalityQuery,
        mask: npt.NDArray[np.bool_] | None,
        rank_terms: tuple[str, ...] = (),
    ) -> ShardResult:
        """Lines that match every matcher (within one segment when there are several matchers).

        Every candidate file is verified, so the totals (lines and files) are exact; only the
        hits ``k`` keeps are scored in full, given their owners and cut into snippets. With the
        option ``group=file`` a hit is a file: its best segment carrying every matching line of
        the file; otherwise a hit is a segment with the lines it owns.
        """
        try:
            filters = _compiled(line_filters(query.options))
        except ValueError:
            filters = []  # the coordinator refuses it; a host that did not lists every matching line
        try:
            first_n = max_count(query.options)
        except ValueError:
            first_n = 0  # the coordinator refuses it; a host that did not lists every matching line
        ordered = _order(query)
        decoded: dict[int, npt.NDArray[np.int64]] = {}
        # each matcher's candidate blocks (a match lies on one line, so in one block); a file
        # must hold candidates of every matcher, and each matcher is verified on its own blocks
        per_block: list[dict[int, list[int]]] = []
        for m in matchers:
            if m.multiline:  # a match may span blocks: every block of a file holding the trigrams in any of them
                blocks = self._whole_files(m.trigrams, mask, decoded)
            else:
                blocks = self._candidates(m.trigrams, mask, decoded)
            if not m.multiline and m.strings and not self._cheap_to_verify(blocks):
                blocks = self._aligned(m.strings, blocks, decoded)
            by_file: dict[int, list[int]] = {}
            for b, f in zip(blocks.tolist(), self.block_file[blocks].tolist(), strict=True):
                by_file.setdefault(f, []).append(b)
            per_block.append(by_file)
        files = sorted(set(per_block[0]).intersection(*per_block[1:]))
        verified = sum(len(by_file[f]) for by_file in per_block for f in files)
        per_file = query.options.get("group", "") == "file"
        symbol_segs = self._symbol_matches(matchers) if files else frozenset()
        # a listing over more candidate bytes than the budget is verified in a fixed order (files
        # defining a matching name, then by path) and stops once it holds k files: the totals are
        # then lower bounds, and the order does not depend on k, so pages stay consistent
        budgeted = (
            per_file
            and not ordered  # by their counts or paths: every file verified
            and len(matchers) == 1
            and int(self.content_sizes[[b for f in files for b in per_block[0][f]]].sum()) > _LISTING_BUDGET_BYTES
        )
        if budgeted:
            defining = {int(self.seg_file[seg]) for seg in symbol_segs}
            files = [f for f in files if f in defining] + [f for f in files if f not in defining]
        stopped_at = len(files)
        # (file, 1-based matching lines, {segment: its lines} or None when not resolved yet)
        matched: list[tuple[int, list[int], dict[int, list[int]] | None]] = []
        snippets: dict[int, list[bytes]] = {}
        for f in files:
            per_matcher = []
            texts: list[bytes] | None = [] if per_file and len(matchers) == 1 else None
            for m, by_file in zip(matchers, per_block, strict=True):
                lines = self._match_lines(m, by_file[f], texts)
                if not lines:
                    break
                per_matcher.append(lines)
            else:
                if len(matchers) == 1:
                    kept = [line + 1 for line in per_matcher[0]]
                    cut = bool(first_n) and len(kept) > first_n  # grep -m N: a file's first N matching lines
                    kept = kept[:first_n] if cut else kept
                    if filters:
                        kept = self._kept(f, kept, filters)
                        if not kept:
                            continue
                    matched.append((f, kept, None))
                    if texts and not filters and not cut:  # a multi-line match cuts none: its lines are read
                        snippets[f] = texts
                    if budgeted and len(matched) >= query.k:
                        stopped_at = files.index(f) + 1
                        break
                    continue
                by_seg = [self._by_owner(f, lines) for lines in per_matcher]
                common = set(by_seg[0]).intersection(*by_seg[1:])
                if common:
                    segs = {seg: sorted(set().union(*(s[seg] for s in by_seg))) for seg in sorted(common)}
                    if first_n:  # grep -m N: the file's first N matching lines, whichever segments hold them
                        first = set(sorted(set().union(*segs.values()))[:first_n])
                        segs = {seg: kept for seg, lines in segs.items() if (kept := [n for n in lines if n in first])}
                    if filters:
                        segs = {seg: kept for seg, lines in segs.items() if (kept := self._kept(f, lines, filters))}
                    if segs:
                        matched.append((f, sorted(set().union(*segs.values())), segs))
        total_lines = sum(len(lines) for _, lines, _ in matched)
        extra = self._bm25_scores(rank_terms) if rank_terms and matched else {}
        lower_bound = stopped_at < len(files)
        try:
            context = context_lines(query.options)
        except ValueError:
            context = (0, 0)  # the coordinator refuses it; a host that did not still gets the plain snippet
        if per_file:
            hits = self._file_hits(matched, query.k, symbol_segs, extra, snippets, budgeted, context, ordered)
        else:
            hits = self._segment_hits(matched, query.k, symbol_segs, extra, context, ordered)
        notes = [
            verified_note(" AND ".join(m.label for m in matchers), len(files), self.n_files, verified, self.n_blocks)
        ]
        if lower_bound:
            notes.append(stopped_note(stopped_at, len(files), query.k, total_lines, len(matched)))
        return ShardResult(
            hits=hits,
            total_matches=total_lines,
            notes=tuple(notes),
            total_files=len(matched),
            line_counts=True,
            total_lower_bound=lower_bound,
        )

    def _paths(self, pattern: str, query: ModalityQuery, mask: npt.NDArray[np.bool_] | None) -> ShardResult:
        """The files whose path ``pattern`` selects (``mode=paths``), each a hit naming its first segment: a glob
        (``*.go``, ``src/**/test_*.py``; without ``/`` the file name in any folder) or a fragment of the path
        (``core.py``, ``src/api/``; case as the query says). A file whose name holds the fragment comes before one
        whose folders do, the name itself first; ties by path. The totals are exact: every path is read."""
        score = _path_score(pattern, query.case_sensitive)
        # a file without segments (none are built so) has nothing to name, and is not counted
        named = np.diff(self.seg_offsets[: self.n_files + 1]) > 0
        allowed = np.flatnonzero(named if mask is None else named & mask).tolist()
        folder = query.options.get(FOLDERS_OPTION)
        tree = query.options.get(FOLDER_TREE_OPTION)
        kept = _path_filters(query)  # find … | grep -v _test: the paths each grep keeps
        listed = (lambda _: True) if folder is not None else kept  # ls, find -type d: greps read what they list
        scored = [(s, f) for f in allowed if (s := score(self.paths[f])) > 0.0 and listed(self.paths[f])]
        notes = [paths_note(pattern, len(scored), self.n_files)]  # said once for every shard: shard_notes.merge
        if folder is not None and tree is not None:  # as find -type d lists them: folders alone, at every depth
            beneath, held = self._folders_beneath(folder, scored, tree, kept)
            scored, notes = [], [folders_note(folder, beneath, held)]
        elif folder is not None:  # as ls lists it: its own files, and its folders with the files beneath each
            scored, beneath = self._in_folder(folder, scored)
            scored = [(s, f) for s, f in scored if kept(self.paths[f])]  # ls | grep -v test: each name it prints
            beneath = {name: held for name, held in beneath.items() if kept(name)}
            notes = [folders_note(folder, beneath, len(scored))]
        if _order(query) == "path":  # find … | sort: by path, each scored 1 (merged across shards by path)
            top = heapq.nsmallest(query.k, [(1.0, f) for _, f in scored], key=lambda p: self.paths[p[1]])
        else:
            rank = self._file_rank()
            top = heapq.nsmallest(query.k, scored, key=lambda p: (-p[0], rank[p[1]]))
        hits = tuple(self._hit(int(self.seg_offsets[f]), s, ()) for s, f in top)
        return ShardResult(
            hits=hits,
            notes=tuple(notes),
            total_files=len(scored),
            line_counts=True,
        )

    def _in_folder(
        self, folder: str, scored: list[tuple[float, int]]
    ) -> tuple[list[tuple[float, int]], dict[str, int]]:
        """Of the ``scored`` files, those directly in ``folder`` (``.``: the top; a file: itself), and the number
        beneath each of its folders (by name)."""
        itself = folder.strip("/")
        prefix = itself + "/" if itself not in ("", ".") else ""
        direct: list[tuple[float, int]] = []
        beneath: dict[str, int] = {}
        for s, f in scored:
            path = self.paths[f]
            if path == itself:  # ls of a file lists it
                direct.append((s, f))
            if not path.startswith(prefix):
                continue
            name, slash, _ = path[len(prefix) :].partition("/")
            if slash:
                beneath[name] = beneath.get(name, 0) + 1
            else:
                direct.append((s, f))
        return direct, beneath

    def _folders_beneath(
        self, folder: str, scored: list[tuple[float, int]], tree: str, kept: Callable[[str], bool] = lambda _: True
    ) -> tuple[dict[str, int], int]:
        """The folders beneath ``folder`` that ``tree`` (``DEPTH:GLOB``, ``FOLDER_TREE_OPTION``) asks for and whose
        path ``kept`` keeps, by their path from it, each with the ``scored`` files beneath it; and how many of those
        files are beneath it."""
        depth_text, _, glob = tree.partition(":")
        depth = int(depth_text) if depth_text.isdigit() else 0
        named = compile_glob(glob) if glob else None
        itself = folder.strip("/")
        prefix = itself + "/" if itself not in ("", ".") else ""
        beneath: dict[str, int] = {}
        held = 0
        for _, f in scored:
            path = self.paths[f]
            if not path.startswith(prefix):
                continue
            held += 1
            parts = path[len(prefix) :].split("/")[:-1]
            for i, name in enumerate(parts[:depth] if depth else parts):
                if named is None or named.match(name) is not None:
                    at = "/".join(parts[: i + 1])
                    if kept(prefix + at):
                        beneath[at] = beneath.get(at, 0) + 1
        return beneath, held

    def _by_owner(self, f: int, lines: Sequence[int]) -> dict[int, list[int]]:
        """The given 0-based lines of file ``f`` by owning segment, 1-based (lines no segment owns dropped)."""
        segs: dict[int, list[int]] = {}
        for line, o in zip(lines, self._owners_of(f, lines), strict=True):
            if o >= 0:
                segs.setdefault(o, []).append(line + 1)
        return segs

    def _segment_hits(
        self,
        matched: list[tuple[int, list[int], dict[int, list[int]] | None]],
        k: int,
        symbol_segs: frozenset[int],
        extra: dict[int, float],
        context: tuple[int, int] = (0, 0),
        ordered: str = "",
    ) -> tuple[Hit, ...]:
        """One hit per matching segment, best ``k`` first (more lines; a definition whose name matches); ``ordered``
        "matches": the segments of the files with most matching lines first, each scored its file's count; "path": in
        the order of their paths and lines, each scored 1."""
        scored: list[tuple[float, int, int, tuple[int, ...]]] = []
        for f, lines, segs in matched:
            if segs is None:
                segs = self._by_owner(f, [line - 1 for line in lines])
            for seg, seg_lines in segs.items():
                if ordered:  # by the file's count, or alike (by path)
                    score = float(len(lines)) if ordered == "matches" else 1.0
                else:
                    score = self._grep_score(seg, len(seg_lines), symbol_segs) + extra.get(seg, 0.0)
                scored.append((score, f, seg, tuple(seg_lines)))
        top = heapq.nsmallest(k, scored, key=lambda p: (-p[0], self.paths[p[1]], self._seg_start_list[p[2]], p[2]))
        return tuple(self._hit(seg, score, lines, context=context) for score, _, seg, lines in top)

    def _file_hits(
        self,
        matched: list[tuple[int, list[int], dict[int, list[int]] | None]],
        k: int,
        symbol_segs: frozenset[int],
        extra: dict[int, float],
        snippets: dict[int, list[bytes]],
        in_order: bool = False,
        context: tuple[int, int] = (0, 0),
        ordered: str = "",
    ) -> tuple[Hit, ...]:
        """One hit per matching file, best ``k`` first: its best segment, with every matching line
        of the file. Files are ranked without resolving owners (a definition of the file whose
        name matches, then more lines; ``ordered`` "matches": its count of matching lines, its score,
        ties by path; "path": by path, each scored 1); only the files kept are given a segment to name."""
        def_files: dict[int, list[int]] = {}
        for seg in sorted(symbol_segs):
            def_files.setdefault(int(self.seg_file[seg]), []).append(seg)
        extra_files: dict[int, float] = {}
        for seg, v in extra.items():
            f = int(self.seg_file[seg])
            extra_files[f] = max(extra_files.get(f, 0.0), v)
        if in_order:  # verified in a fixed order and stopped early: that order stands (see _grep)
            scored = [
                (1.0 + (4.0 if f in def_files else 0.0) + 2.9 / (1.0 + i), f, lines, segs)
                for i, (f, lines, segs) in enumerate(matched)
            ]
        elif ordered:
            scored = [
                (float(len(lines)) if ordered == "matches" else 1.0, f, lines, segs) for f, lines, segs in matched
            ]
        else:
            scored = [
                (_file_score(len(lines), f in def_files) + extra_files.get(f, 0.0), f, lines, segs)
                for f, lines, segs in matched
            ]
        if ordered:  # merged across shards by score, ties by path: each shard's first k so
            top = heapq.nsmallest(k, scored, key=lambda p: (-p[0], self.paths[p[1]]))
        else:
            rank = self._file_rank()
            top = heapq.nsmallest(k, scored, key=lambda p: (-p[0], rank[p[1]]))
        hits = []
        for score, f, lines, segs in top:
            defs = def_files.get(f, [])
            if segs is not None:
                seg = self._best_segment(f, segs, defs, symbol_segs, extra)
            else:  # one matcher: a matching definition, else the owner of the first matching line
                seg = defs[0] if defs else self._owner_of(f, lines[0] - 1)
                if seg < 0:
                    seg = self._best_segment(f, {}, defs, symbol_segs, extra)
            if seg < 0:
                continue  # a file without segments (none are built so): nothing to name
            hits.append(self._hit(seg, score, tuple(lines), snippets.get(f), context))
        return tuple(hits)

    def _best_segment(
        self, f: int, segs: dict[int, list[int]], defs: list[int], symbol_segs: frozenset[int], extra: dict[int, float]
    ) -> int:
        """The segment a file hit names: the owner of its lines that is a matching definition, else
        the one holding the most of them (the ranked words break ties), else a matching definition."""
        if segs:
            return max(
                segs,
                key=lambda s: (s in symbol_segs, len(segs[s]) + extra.get(s, 0.0), -self._seg_start_list[s]),
            )
        if defs:
            return defs[0]
        lo, hi = int(self.seg_offsets[f]), int(self.seg_offsets[f + 1])
        return lo if hi > lo else -1

    def _grep_score(self, seg: int, n_lines: int, symbol_segs: frozenset[int]) -> float:
        """More matching lines score higher (logarithmically); a definition whose name matches most."""
        score = 1.0 + math.log1p(n_lines)
        if seg in symbol_segs:
            score += 3.5
        elif self._has_symbol(seg):
            score += 0.5
        return score

    def _has_symbol(self, seg: int) -> bool:
        offsets = self.seg_symbol.offsets
        return int(offsets[seg + 1]) > int(offsets[seg])

    def _symbol_blob(self) -> bytes:
        """Every segment's symbol name, one a line (empty for windows): matched once per query
        instead of once per segment."""
        blob = self._symbols
        if blob is None:
            parts = _split_table(self.seg_symbol)
            blob = self._symbols = b"\n".join(p.replace(b"\n", b" ") for p in parts)
        return blob

    def _symbol_matches(self, matchers: tuple[Matcher, ...]) -> frozenset[int]:
        """Segments whose symbol name every matcher matches."""
        if self.n_segments == 0:
            return frozenset()
        blob = self._symbol_blob()
        found: set[int] | None = None
        for m in matchers:
            segs = set(m.lines(blob))
            found = segs if found is None else found & segs
        if not found:
            return frozenset()
        # an empty symbol is a window, never a matching definition (``^$`` matches its empty line)
        return frozenset(s for s in found if s < self.n_segments and self._has_symbol(s))

    # --- BM25 ------------------------------------------------------------------------------

    def _field_segments(self) -> npt.NDArray[np.bool_]:
        """Which segments are fields (struct and class data members), once per loaded shard."""
        if self._fields is None:
            self._fields = self.seg_kind.equal("field")
        return self._fields

    def _bm25_scores(self, terms: tuple[str, ...], field_floor: bool = False) -> dict[int, float]:
        """Segment -> BM25 score for ``terms`` (symbol names boosted at build, file names here).

        ``field_floor``: a field's length counts as at least the average (a one-line struct member
        wins no prose question on its shortness)."""
        seg_parts: list[npt.NDArray[np.int64]] = []
        score_parts: list[npt.NDArray[np.float64]] = []
        idfs: dict[str, float] = {}
        n = max(self.n_segments, 1)
        for t in terms:
            i = self.terms.bisect(t)
            if i < 0:
                continue
            segs = self.term.ids(i)
            tf = self._term_tf(i, segs.size)
            df = segs.size
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            idfs[t] = idf
            lengths = np.asarray(self.seg_len[segs], dtype=np.float64)
            if field_floor:
                lengths = np.where(self._field_segments()[segs], np.maximum(lengths, self.avg_seg_len), lengths)
            norm = K1 * (1.0 - B + B * lengths / self.avg_seg_len)
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
        scores = self._bm25_scores(terms, query.options.get("field_floor", "on") != "off")
        if mask is not None:
            scores = {s: v for s, v in scores.items() if mask[self.seg_file[s]]}
        # a partial sort: only the k best are ordered
        ranked = heapq.nsmallest(
            query.k,
            scores.items(),
            key=lambda p: (-p[1], self.paths[self.seg_file[p[0]]], self._seg_start_list[p[0]]),
        )
        hits = []
        if ranked:
            marked = self._line_terms(terms)
            finder = regex_matcher("|".join(re.escape(t) for t in marked), False)
            needles = tuple(encode(t.lower()) for t in marked) if all(t.isascii() for t in marked) else ()
            for seg, score in ranked[: query.k]:
                hits.append(self._hit(seg, score, self._lines_in_segment(seg, finder, needles)))
        note = f"text: BM25 over terms {', '.join(terms) if terms else '(none)'}"
        return ShardResult(hits=tuple(hits), total_matches=len(scores), notes=(note,))

    def _line_terms(self, terms: tuple[str, ...]) -> tuple[str, ...]:
        """The terms worth marking lines for: those in at most a fifth of the segments (words like
        ``the``, ``self`` or ``return`` would mark most lines and cost a rescan each), else the rarest."""
        df = {t: self.term.size(i) for t in terms if (i := self.terms.bisect(t)) >= 0}
        if not df:
            return terms
        kept = tuple(t for t in terms if t in df and df[t] <= self.n_segments / 5)
        return kept or (min(df, key=df.__getitem__),)

    def _lines_in_segment(self, seg: int, matcher: Matcher, needles: tuple[bytes, ...] = ()) -> tuple[int, ...]:
        """The lines of ``seg`` that ``matcher`` matches. ``needles``: the same words as lower-case
        ASCII bytes, found with ``bytes.find`` in a lower-cased ASCII block (the regex binding
        costs microseconds per match; the common case needs none)."""
        f = int(self.seg_file[seg])
        first, last = self._block_of(f, self._seg_start_list[seg] - 1), self._block_of(f, self._seg_end_list[seg] - 1)
        lines: list[int] = []
        for b in range(first, last + 1):
            data = self._block_bytes(b)
            base = int(self.block_line[b])
            if needles and data.isascii():
                low = data.lower()
                found = sorted({line for n in needles for line in find_lines(low, n)})
            else:
                found = matcher.lines(data)
            lines.extend(base + line for line in found)
        return tuple(line + 1 for line, o in zip(lines, self._owners_of(f, lines), strict=True) if o == seg)

    # --- hits ------------------------------------------------------------------------------

    def _lines_bytes(self, f: int, lines: Sequence[int]) -> list[bytes]:
        """The 1-based ``lines`` of file ``f`` (empty past its end), each block they lie in split once."""
        out: list[bytes] = []
        block, parts, base = -1, [b""], 0
        for line in lines:
            b = self._block_of(f, line - 1)
            if b != block:
                block, parts, base = b, self._block_bytes(b).split(b"\n"), int(self.block_line[b])
            rel = line - 1 - base
            out.append(parts[rel] if 0 <= rel < len(parts) else b"")
        return out

    def _kept(self, f: int, lines: list[int], filters: Sequence[tuple[LineFilter, Matcher]]) -> list[int]:
        """The 1-based ``lines`` of file ``f`` that every grep the output is piped to keeps, each seen as the command
        printed it (``LineFilter.seen``; ``LINE_FILTERS_OPTION``)."""
        path, kept = self.paths[f], []
        for line, raw in zip(lines, self._lines_bytes(f, lines), strict=True):
            text = raw.decode("utf-8", "replace")
            if all(m.matches(flt.seen(path, line, text)) != flt.invert for flt, m in filters):
                kept.append(line)
        return kept

    def _line_count(self, f: int) -> int:
        """How many lines file ``f`` has as indexed: the last its segments cover, or its text holds (its last
        block's first line and the lines in it). A file's text ends at its last line that is not empty, so empty
        lines after it are counted where a segment covers them."""
        covered = max(self._seg_end_list[int(self.seg_offsets[f]) : int(self.seg_offsets[f + 1])], default=0)
        last = int(self.file_blocks[f + 1]) - 1
        if last < int(self.file_blocks[f]):
            return covered
        data = self._block_bytes(last)
        held = int(self.block_line[last]) + data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
        return max(covered, held)

    def _context_snippet(self, f: int, lines: tuple[int, ...], before: int, after: int) -> str:
        """The 1-based matching ``lines`` of file ``f`` as ``grep -n -B before -A after`` prints them (see
        ``CONTEXT_OPTION``): whole groups, in order, while they fit ``_CONTEXT_SNIPPET_LINES`` lines (the first
        group cut to them where it alone is longer)."""
        end, matching = self._line_count(f), set(lines)
        windows: list[list[int]] = []  # [first, last] line of each group; touching windows are one group
        for line in lines:
            lo, hi = max(line - before, 1), max(min(line + after, end), line)
            if windows and lo <= windows[-1][1] + 1:
                windows[-1][1] = max(windows[-1][1], hi)
            else:
                windows.append([lo, hi])
        out: list[str] = []
        for lo, hi in windows:
            if out and len(out) + 1 + hi - lo + 1 > _CONTEXT_SNIPPET_LINES:
                break
            if out:
                out.append("--")
            numbers = range(lo, min(hi, lo + _CONTEXT_SNIPPET_LINES - 1) + 1)
            for n, raw in zip(numbers, self._lines_bytes(f, numbers), strict=True):
                text = raw[: _SNIPPET_WIDTH * 4].decode("utf-8", "replace")[:_SNIPPET_WIDTH]
                out.append(f"{n}{':' if n in matching else '-'}{text}")
        return "\n".join(out)

    def _hit(
        self,
        seg: int,
        score: float,
        lines: tuple[int, ...],
        shown: list[bytes] | None = None,
        context: tuple[int, int] = (0, 0),
    ) -> Hit:
        """The hit for segment ``seg``; ``shown``: its snippet's lines when already in hand; ``context``: the lines
        before and after each matching line its snippet shows (``CONTEXT_OPTION``)."""
        f = int(self.seg_file[seg])
        symbol, kind = self.seg_symbol[seg], self.seg_kind[seg]
        snippet = ""
        if lines and any(context):
            snippet = self._context_snippet(f, lines, *context)
        elif lines:
            if shown is None:  # decode only the lines shown, from the blocks that hold them
                shown = self._lines_bytes(f, lines[:_SNIPPET_LINES])
            snippet = "\n".join(
                text[: _SNIPPET_WIDTH * 4].decode("utf-8", "replace")[:_SNIPPET_WIDTH] for text in shown
            )
        return Hit(
            segment_id=self._segment_id(seg, f),
            repo=self.repos[self._file_repo_list[f]],
            path=self.paths[f],
            start_line=self._seg_start_list[seg],
            end_line=self._seg_end_list[seg],
            score=float(score),
            symbol=symbol or None,
            kind=kind or None,
            language=self.languages[int(self.file_lang[f])],
            match_lines=lines,
            snippet=snippet,
        )


def _path_score(pattern: str, case_sensitive: bool) -> Callable[[str], float]:
    """How well a path fits a path listing's ``pattern`` (0: not at all): a glob's match 1; a fragment of the path 3
    where it is the file's name, 2 where the name holds it, 1 where a folder does."""
    if any(c in pattern for c in GLOB_CHARS):
        rx = compile_glob(pattern)
        return lambda path: 1.0 if rx.match(path) is not None else 0.0
    needle = pattern if case_sensitive else pattern.lower()

    def score(path: str) -> float:
        folded = path if case_sensitive else path.lower()
        if needle not in folded:
            return 0.0
        name = folded.rsplit("/", 1)[-1]
        return 3.0 if name == needle else 2.0 if needle in name else 1.0

    return score


def lists_path(query: ModalityQuery) -> Callable[[str], bool]:
    """Whether a path listing (``mode=paths``) would list a file at a path, judged by the path alone: its pattern,
    path glob and left-out globs, the greps it is piped to; ``ls`` of a folder, a file directly in it; ``find -type
    d`` (folders alone), none. What a path does not tell (a repository, a language, what the file holds) is the
    caller's to judge. For the files a build did not index (binary, too large): a listing names them."""
    score = _path_score(query.text.strip(), query.case_sensitive)
    passes = path_filter(query) or (lambda _: True)
    kept = _path_filters(query)
    folder = query.options.get(FOLDERS_OPTION)
    if folder is not None and query.options.get(FOLDER_TREE_OPTION) is not None:
        return lambda _: False
    itself = (folder or "").strip("/")
    prefix = itself + "/" if itself not in ("", ".") else ""

    def inside(path: str) -> bool:
        return folder is None or path == itself or (path.startswith(prefix) and "/" not in path[len(prefix) :])

    return lambda path: score(path) > 0.0 and passes(path) and kept(path) and inside(path)


def _path_filters(query: ModalityQuery) -> Callable[[str], bool]:
    """Whether each grep a path listing is piped to keeps a path (``LINE_FILTERS_OPTION``; shown ``path`` or ``./path``,
    as ``find .`` prints it), matched by RE2 as a listing's lines are."""
    try:
        filters = line_filters(query.options)
    except ValueError:
        return lambda _: True  # the coordinator refuses it; a host that did not lists every path
    wrong = next((f.shown for f in filters if f.shown not in PATH_SHOWN), None)
    if wrong is not None:
        raise InvalidQuery(
            f"a path listing (mode=paths) shows each file's path alone: its greps see it shown as "
            f"{' or '.join(PATH_SHOWN)}, not {wrong!r}"
        )
    matchers = _compiled(filters)
    return lambda path: all(m.matches(f.seen(path, 0, "")) != f.invert for f, m in matchers)


def _matcher_of(f: LineFilter) -> Matcher:
    """The RE2 matcher of a grep a listing is piped to (or of a pattern its files must hold), as the listing's own
    pattern's: a pattern can cost no more than the line it is matched against."""
    return (regex_matcher if f.regex else literal_matcher)(f.pattern, f.case_sensitive)


def _compiled(filters: Sequence[LineFilter]) -> list[tuple[LineFilter, Matcher]]:
    """Each grep a listing is piped to, with its matcher; a pattern RE2 does not read is refused, naming that grep."""
    try:
        return [(f, _matcher_of(f)) for f in filters]
    except InvalidQuery as exc:
        raise InvalidQuery(f"the grep the output is piped to: {exc}") from None


def _intersect_sorted(small: npt.NDArray[np.int64], large: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The ids in both sorted, duplicate-free arrays, by binary search of the shorter in the longer
    (no re-sort of both, which ``np.intersect1d`` does: the running result is usually far shorter)."""
    if small.size > large.size:
        small, large = large, small
    if small.size == 0 or large.size == 0:
        return small[:0]
    at = np.minimum(np.searchsorted(large, small), large.size - 1)
    return small[large[at] == small]


def _file_score(n_lines: int, defines: bool) -> float:
    """A file hit's score: in [1, 4) by its matching lines (bounded, so a long file does not
    outweigh a definition), [5, 8) when one of its definitions' names matches. Always >= 1: above
    every ranked-words fallback score (see ``TextShard.search``)."""
    many = math.log1p(n_lines)
    return 1.0 + (4.0 if defines else 0.0) + 3.0 * many / (1.0 + many)


def _split_table(table: StringTable) -> list[bytes]:
    """Every entry of ``table`` as bytes, by one pass over its blob."""
    offsets = table.offsets.tolist()
    blob = table.blob
    return [blob[offsets[i] : offsets[i + 1]] for i in range(len(offsets) - 1)]


def _load_tables(shard_dir: Path, fmt: int) -> dict[str, npt.NDArray[Any]]:
    """A shard's block and segment arrays: one packed table (format 4), else a ``.npy`` each."""
    if fmt >= 4:
        try:
            tables = read_arrays(shard_dir / "tables.zst")
        except (OSError, ValueError, zstandard.ZstdError) as exc:
            raise CorruptIndex(f"text shard {shard_dir} has no readable tables.zst ({exc}); rebuild it") from None
        tables["seg_end"] = tables["seg_start"].astype(np.int64) + tables["seg_end"]  # stored as the span
        return tables
    names = ["content_offsets", "seg_offsets", "seg_start", "seg_end", "seg_len"]
    if fmt >= 3:
        names += ["block_file", "block_line", "file_blocks"]
    return {name: np.load(shard_dir / f"{name}.npy") for name in names}


def _table(strings: list[bytes]) -> StringTable:
    """A string table in memory of ``strings`` (UTF-8)."""
    offsets = np.zeros(len(strings) + 1, dtype=np.uint64)
    np.cumsum([len(b) for b in strings], out=offsets[1:])
    return StringTable(blob=b"".join(strings), offsets=offsets)
