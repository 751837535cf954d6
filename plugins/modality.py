"""The ``Modality`` protocol: build a shard from segments, load it, search it.

A modality is a plain object registered through ``fourfold_register_modalities``. It never
imports Ray or gRPC: the workers host it, the coordinator fuses what it returns.

Lifecycle::

    stats = modality.build(segments, shard_dir, context)   # in a build task, once per shard
    shard = modality.load(shard_dir)                       # in a worker, once per generation
    result = shard.search(query)                           # per request, possibly concurrently

A build that does heavy per-item work (embedding) may hand it to ``context.map_batches`` when
the host gives one: the host then runs the batches where it likes (Ray tasks over the cluster, a
GPU node) and the modality still never sees Ray.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar, runtime_checkable

from fourfold.plugins.types import ModalityQuery, Segment, ShardResult

__all__ = ["BuildContext", "BuildProgress", "BuildStats", "MapBatches", "Modality", "Shard"]

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


class MapBatches(Protocol):
    """``map_batches(fn, items)``: ``fn(item)`` for every item, possibly in other processes or on
    other nodes, the results yielded in the order of ``items``.

    ``fn`` must be a module-level function and the items and results picklable values (numpy
    arrays, dataclasses of them), because they may travel to another process. Each call of
    ``fn`` may get one CPU (or one GPU) of its own: a call should be a batch worth shipping
    (hundreds of texts, not one). An exception in ``fn`` is raised from the iteration.
    """

    def __call__(self, fn: Callable[[_Item], _Result], items: Sequence[_Item], /) -> Iterator[_Result]: ...


class BuildProgress(Protocol):
    """``progress(unit, done, total)``: how far a shard build is inside its heavy part, in ``unit``
    ("windows", "segments"...). Called from the build's own thread, at least at the start and the end,
    cheaply and often enough for a person to see it move; the host turns it into rates and ETAs."""

    def __call__(self, unit: str, done: int, total: int, /) -> None: ...


@dataclass(frozen=True, slots=True)
class BuildContext:
    """What a build may use besides the segments.

    ``previous_dir`` is the same shard in the live generation (if any), so that a modality can
    reuse work for segments whose ``content_hash`` did not change. ``settings`` carries
    configuration strings (embedder name, nlist...). ``map_batches``, when the host gives one,
    spreads a build's heavy batches over the cluster (see ``MapBatches``); ``None`` means "do the
    work in this process", which is always correct. ``progress``, when the host gives one, hears
    how far the build is (see ``BuildProgress``).

    A partitioned build gets its repository's segments; ``peers`` names the generation's other
    repositories that want the modality, ``paths_of(repo)`` lists a repository's files and
    ``segments_of(repos)`` streams their segments, so a partition reads only the repositories it
    needs (the graph: those its repository imports). ``paths_keys`` gives, for peers where the
    host knows one, a key that changes whenever ``paths_of(repo)`` would answer differently, so
    a modality can keep what it derives from a repository's paths across builds.
    """

    generation: str
    shard: str
    repos: tuple[str, ...]
    previous_dir: Path | None = None
    settings: Mapping[str, str] = field(default_factory=dict)
    map_batches: MapBatches | None = None
    progress: BuildProgress | None = None
    peers: tuple[str, ...] = ()
    build_id: str = ""  # one build's identity (its folder), for what a modality caches across its shards
    paths_of: Callable[[str], Sequence[str]] | None = None
    segments_of: Callable[[Sequence[str]], Iterable[Segment]] | None = None
    paths_keys: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BuildStats:
    """What a shard build did, for the index summary."""

    segments: int
    bytes_on_disk: int = 0
    reused: int = 0
    notes: tuple[str, ...] = ()


@runtime_checkable
class Shard(Protocol):
    """A loaded shard: answers searches; must be safe to call from several threads."""

    def search(self, query: ModalityQuery) -> ShardResult: ...

    def close(self) -> None: ...


@runtime_checkable
class Modality(Protocol):
    """A retrieval modality.

    ``name`` is unique (``semantic``, ``text``...). ``sharding`` is ``"repo"`` (a shard per
    repository, large ones split, small ones packed several to a compound shard: a shard must
    honour ``query.repos`` exactly, hits and totals), ``"global"`` (one shard over every
    repository) or ``"partitioned"`` (a shard per repository, never split, with ``context.repos``
    naming the partition: for data that is one whole, such as the graph, stored in parts; a
    partition reports the hits it owns and hands work that continues elsewhere back as
    ``ShardResult.follow_ups``). A partitioned build gets every segment of the generation, unless
    the modality has ``stale_partitions(changed, previous, paths, segments_of) -> frozenset[str]``:
    then it gets its repository's segments and reads others through the context
    (``segments_of``), and on an update only its partitions that method names (besides the
    changed repositories') are rebuilt; the others carry over. The build setting
    ``<name>.sharding=global`` builds any modality as one shard. A modality may have a
    ``build_version`` (a string): change it when the same segments must now give other shards, so
    that an index built before is rebuilt rather than carried over unchanged. A modality may have
    ``order_merged(hits, query) -> list[Hit]``: the coordinator merges the shards' lists by score,
    cuts them to the depth it asked for and hands that list to it, to order what the scores leave
    tied in a way no single shard can know (the graph: each file's first dependent before any
    file's second); it returns the same hits, reordered. A modality may have
    ``merge_notes(notes) -> list[str]``: the coordinator hands it the notes of all its shards that answered, in
    order, and says what it returns instead (the text modality sums its shards' counts into one note: a fleet has
    thousands of shards). A modality that cannot answer a query (no
    model, nothing indexed) says so in ``ShardResult.notes`` instead of pretending.
    """

    name: str
    sharding: str

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats: ...

    def load(self, shard_dir: Path) -> Shard: ...
