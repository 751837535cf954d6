"""Branches that cost what they changed: a revision's shard as its base's shard plus a delta.

A repository's default branch is indexed as ``NAME``, its other revisions as ``NAME@REV``
(``fourfold.index.sync``). Two revisions usually share almost every file, yet each used to get
shards of its own, built whole: a second branch changing 5 % of the files cost 49-65 % of the
first build, and stored every shared file twice.

A **delta shard** of ``NAME@REV`` holds, in its folder:

* ``base/`` — the files of ``NAME``'s shard, hard-linked (no byte is copied or rewritten; they
  stay valid when ``NAME`` moves on later, since shard files are never modified);
* ``delta/`` — a shard of just the files of ``NAME@REV`` that ``NAME`` does not hold identically
  (absent when there are none);
* ``delta.json`` — the base repository, the base's paths to hide (``masked``: the files the
  revision changed or removed) and the base's segment ids mapped to the revision's.

A host loads it with :func:`load_shard` as one :class:`DeltaShard`: a search asks ``delta/`` as it
is, and ``base/`` narrowed to the base repository with the masked paths hidden
(:data:`~fourfold.plugins.types.MASK_OPTION`), relabels the base's hits as the revision's (its name,
its segment ids), and merges. Counts and totals stay exact: the two parts hold disjoint files.

A modality whose answers are not a plain union by score merges the two itself
(``Modality.merge_parts(parts, k)``: structural keeps its exact-before-prefix cut).

Only modalities that honour the mask (``Modality.masks_paths = True``: text, structural,
semantic) and shard per repository get delta shards, and only when the base has one whole
shard of its own (not split by size, not packed in a compound shard) and the revision changed
at most half of its files. Everything else is built whole, as before.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fourfold.index.ingest.segment import place_id
from fourfold.index.segdb import open_segment_db
from fourfold.index.store import SEGMENTS_DIR, ShardSpec, link_tree
from fourfold.plugins.modality import BuildStats, Shard
from fourfold.plugins.types import MASK_OPTION, FollowUp, Hit, ModalityQuery, Segment, ShardResult, segment_id

__all__ = [
    "BASE_DIR",
    "DELTA_DIR",
    "DELTA_FILE",
    "MAX_CHANGED_SHARE",
    "DeltaShard",
    "RevisionDiff",
    "base_of",
    "build_delta",
    "delta_spec",
    "inherited_centrality",
    "load_shard",
    "masks_paths",
    "merge_results",
    "revision_diff",
    "write_delta",
]

BASE_DIR = "base"
DELTA_DIR = "delta"
DELTA_FILE = "delta.json"

#: A revision that changed more than this share of its files is built whole.
MAX_CHANGED_SHARE = 0.5


def base_of(name: str) -> str | None:
    """The repository whose default branch ``name`` is a revision of (``NAME@REV`` -> ``NAME``)."""
    base, sep, rev = name.partition("@")
    return base if sep and base and rev else None


def masks_paths(modality: Any) -> bool:
    """Whether a modality's shards honour :data:`MASK_OPTION` (so they can be a delta's base)."""
    return bool(getattr(modality, "masks_paths", False))


@dataclass(frozen=True, slots=True)
class RevisionDiff:
    """How a revision's files differ from its base's, by content."""

    changed: tuple[str, ...]  # the revision's paths the base does not hold identically (built in delta/)
    masked: tuple[str, ...]  # the base's paths the revision changed or removed (hidden in base/)
    files: int  # the revision's files

    @property
    def shares_enough(self) -> bool:
        return self.files > 0 and len(self.changed) <= MAX_CHANGED_SHARE * self.files


def revision_diff(
    catalog: sqlite3.Connection,
    base: str,
    base_paths: Collection[str],
    revision: str,
    revision_paths: Collection[str],
) -> RevisionDiff:
    """Compare two repositories' files by the content hashes the segmenter's file cache recorded."""

    def hashes(repo: str, paths: Collection[str]) -> dict[str, str]:
        wanted = set(paths)
        rows = catalog.execute("SELECT path, file_hash FROM file_cache WHERE repo = ?", (repo,))
        return {p: h for p, h in rows if p in wanted}

    ours, theirs = hashes(revision, revision_paths), hashes(base, base_paths)
    changed = tuple(sorted(p for p in revision_paths if p not in ours or theirs.get(p) != ours[p]))
    masked = tuple(sorted(p for p in base_paths if p not in theirs or ours.get(p) != theirs[p]))
    return RevisionDiff(changed, masked, len(revision_paths))


def delta_spec(modality: str, revision: str, base: str, diff: RevisionDiff) -> ShardSpec:
    """The spec of ``revision``'s delta shard: built from its changed files, read through ``base``'s."""
    return ShardSpec(
        modality,
        revision,
        f"{modality}/{revision}",
        (revision,),
        files=tuple(f"{revision}\0{p}" for p in diff.changed),
        base=base,
    )


def build_delta(
    build_dir: Path,
    spec: ShardSpec,
    base_folder: str,
    masked: Sequence[str],
    segments: Iterable[Segment],
    build: Callable[[Iterable[Segment], Path], BuildStats],
) -> BuildStats:
    """Build a delta shard: ``build`` (the modality's) over the revision's changed files into
    ``delta/`` (skipped when they hold no segment), then the base's files and ``delta.json``."""
    folder = build_dir / spec.folder
    folder.mkdir(parents=True, exist_ok=True)
    changed = list(segments)  # the changed files' segments only: a few percent of the revision
    stats = build(changed, folder / DELTA_DIR) if changed else BuildStats(segments=0)
    write_delta(build_dir, spec, base_folder, masked)
    return stats


def write_delta(build_dir: Path, spec: ShardSpec, base_folder: str, masked: Sequence[str]) -> None:
    """Link the base shard's files into the delta's folder and write ``delta.json``.

    The segment id map joins the two repositories' segment databases on the place of a segment
    (path, lines, qualified name) in the files they share.
    """
    revision, base = spec.repos[0], spec.base
    folder = build_dir / spec.folder
    link_tree(build_dir / base_folder, folder / BASE_DIR)
    hidden = set(masked) | {key.split("\0", 1)[1] for key in spec.files}
    ids = _shared_ids(build_dir / SEGMENTS_DIR / f"{revision}.sqlite", base, frozenset(hidden))
    record = {"base": base, "masked": sorted(masked), "ids": ids}
    (folder / DELTA_FILE).write_text(json.dumps(record, separators=(",", ":")))


_shared_cache: dict[tuple[str, int, str, frozenset[str]], dict[str, str]] = {}


def _shared_ids(db: Path, base: str, hidden: frozenset[str]) -> dict[str, str]:
    """The base's segment id -> the revision's, for the segments of the files they share.

    A segment's id names its place (``place_id``: repository, path, lines, qualified name), and
    a shared file's segments are the base's re-stamped, so the base's ids are computed from the
    revision's rows. Cached per process: every modality's delta of one build asks the same.
    """
    key = (str(db), db.stat().st_mtime_ns, base, hidden)
    found = _shared_cache.get(key)
    if found is None:
        segments = open_segment_db(db, db.stem)
        try:
            found = {
                place_id(base, p.path, p.start_line, p.end_line, p.qualified_name, p.symbol): p.id
                for p in segments.places()
                if p.path not in hidden
            }
        finally:
            segments.close()
        _shared_cache.clear()  # one build's at a time
        _shared_cache[key] = found
    return found


def inherited_centrality(base_db: Path, segments: Sequence[Segment], changed: Collection[str]) -> dict[str, float]:
    """A revision's centrality from its base's, instead of the usage graph built anew.

    A segment of a file the two share takes its base's value (the same place); a definition in a
    changed file takes the value of the base's definition of the same qualified name in the same
    file, else 1.0 (the scale's average). Exact when the revision changed nothing that moves the
    usage graph, and close otherwise (a few percent of the files); a build without the base
    computes it in full.
    """
    at_place: dict[tuple[Any, ...], float] = {}
    by_name: dict[tuple[str, str], float] = {}
    base = open_segment_db(base_db, base_db.stem)
    try:
        for p in base.places():
            at_place[(p.path, p.start_line, p.end_line, p.qualified_name, p.symbol)] = float(p.centrality or 0.0)
            if p.qualified_name or p.symbol:
                by_name[(p.path, p.qualified_name or p.symbol or "")] = float(p.centrality or 0.0)
    finally:
        base.close()
    hidden = set(changed)
    out: dict[str, float] = {}
    for seg in segments:
        if seg.path not in hidden:
            value = at_place.get((seg.path, seg.start_line, seg.end_line, seg.qualified_name, seg.symbol))
            if value is not None:
                out[seg.id] = value
                continue
        if seg.symbol is not None:
            out[seg.id] = by_name.get((seg.path, seg.qualified_name or seg.symbol), 1.0)
    return out


class DeltaShard:
    """A revision's shard read as its base's (masked, relabelled) plus its own changed files."""

    def __init__(
        self,
        own: Shard | None,
        base: Shard,
        revision: str,
        record: Mapping[str, Any],
        merge: Callable[[Sequence[ShardResult], int], ShardResult] | None = None,
    ) -> None:
        self.own = own
        self.merge = merge or merge_results
        self.base = base
        self.revision = revision
        self.base_repo = str(record["base"])
        self.masked = "\n".join(record.get("masked", ()))
        self.ids: dict[str, str] = dict(record.get("ids", {}))

    def search(self, query: ModalityQuery) -> ShardResult:
        if query.repos and self.revision not in query.repos:
            return ShardResult(hits=())
        mine = replace(query, repos=(self.revision,)) if query.repos else query
        options = {**query.options, MASK_OPTION: self.masked} if self.masked else dict(query.options)
        theirs = self.base.search(replace(query, repos=(self.base_repo,), options=options))
        parts = [self._relabel(theirs)]
        if self.own is not None:
            parts.append(self.own.search(mine))
        return self.merge(parts, query.k)

    def _relabel(self, result: ShardResult) -> ShardResult:
        hits = tuple(
            replace(
                h,
                repo=self.revision,
                segment_id=self.ids.get(h.segment_id)
                or segment_id(self.revision, h.path, h.start_line, h.end_line, h.symbol),
            )
            for h in result.hits
        )
        follow_ups = tuple(
            replace(f, repos=tuple(self.revision if r == self.base_repo else r for r in f.repos))
            for f in result.follow_ups
        )
        return replace(result, hits=hits, follow_ups=follow_ups)

    def close(self) -> None:
        if self.own is not None:
            self.own.close()
        self.base.close()


def merge_results(parts: Sequence[ShardResult], k: int) -> ShardResult:
    """One answer from answers over disjoint files: hits by score (the best ``k``), totals summed."""
    if len(parts) == 1:
        return parts[0]
    hits: list[Hit] = sorted((h for p in parts for h in p.hits), key=lambda h: -h.score)
    follow_ups: list[FollowUp] = []
    for f in (f for p in parts for f in p.follow_ups):
        if f not in follow_ups:
            follow_ups.append(f)
    return ShardResult(
        hits=tuple(hits[: max(k, 0)]) if k > 0 else tuple(hits),
        total_matches=sum(p.total_matches for p in parts),
        notes=tuple(dict.fromkeys(n for p in parts for n in p.notes)),
        follow_ups=tuple(follow_ups),
        total_files=sum(p.total_files for p in parts),
        line_counts=any(p.line_counts for p in parts),
        total_lower_bound=any(p.total_lower_bound for p in parts),
        # "no definition named X" holds for the revision only when neither part found it
        absence_notes=tuple(dict.fromkeys(n for p in parts for n in p.absence_notes))
        if all(p.absence_notes for p in parts)
        else (),
    )


def load_shard(modality: Any, shard_dir: Path, spec: ShardSpec) -> Shard:
    """A spec's shard as a host serves it: the modality's own, or a :class:`DeltaShard`."""
    if not spec.base:
        shard: Shard = modality.load(shard_dir)
        return shard
    record = json.loads((shard_dir / DELTA_FILE).read_text())
    base = modality.load(shard_dir / BASE_DIR)
    own = modality.load(shard_dir / DELTA_DIR) if os.path.isdir(shard_dir / DELTA_DIR) else None
    return DeltaShard(own, base, spec.repos[0], record, getattr(modality, "merge_parts", None))
