"""The graph modality: imports, calls, references and inheritance between definitions.

Sharding is ``partitioned``: one shard per repository (``graph/<repo>``), never split by size.
Name resolution and PageRank stay global (an import reaches any repository's definitions; a
call from one repository into another is exactly the edge a blast radius must not lose), so
every partition is built from the one graph over all repositories: it stores the whole node
table (every partition names symbols and suggests near names as the single graph does), marks
its own nodes ``owned``, and keeps every edge with at least one end in its repository, so a
cross-repository edge is stored at both ends. A partition reports only hits it owns: callers,
callees and references come back complete in one round, each hit from exactly one shard. Impact
and path walks that leave the repository hand their frontier to the owning partitions as
``FollowUp`` rounds (``graph.seeds``, ``graph.path_state``), which the coordinator runs; the
merged answer equals the single graph's (see ``shard.py``). The build setting
``graph.sharding=global`` gives the single shard ``graph/all`` instead.

The graph is built once per index build: ``fourfold_compute_centrality`` (called by the indexer
before the shards are built) builds it and keeps it in this process, keyed by the segments' ids
and content hashes; ``build`` of every partition then writes that graph instead of parsing and
resolving everything again, and frees it once every repository's partition is written. A shard
built in another process (a Ray task) finds no cached graph and builds its own: the result is
the same (the graph's node order is canonical), only slower.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.plugins import BuildContext, BuildStats, Segment, hookimpl
from fourfold.plugins.graph.resolve import GraphData, build_graph
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.graph.store import centrality_of, save_graph

__all__ = ["GraphModality", "compute_centrality", "graph_of"]


@dataclass(frozen=True, slots=True)
class BuiltGraph:
    """A graph with its centrality (scaled PageRank, weighted in-degree), as built for one segment set."""

    key: str
    data: GraphData
    pagerank: npt.NDArray[np.float64]
    degree: npt.NDArray[np.float64]
    reused: bool = False


@dataclass
class _Held:
    """The graph this process keeps for the shard builds, and the repositories written from it."""

    graph: BuiltGraph
    repos: frozenset[str]
    written: set[str] = field(default_factory=set)


_held: _Held | None = None
_held_lock = threading.Lock()


def _key(segments: Sequence[Segment]) -> str:
    """A digest of the segment set that does not depend on the order the segments come in."""
    digest = hashlib.blake2b(digest_size=16)
    for seg_id, content_hash in sorted((s.id, s.content_hash) for s in segments):
        digest.update(f"{seg_id}\0{content_hash}\n".encode())
    return digest.hexdigest()


def graph_of(segments: Sequence[Segment], *, keep: bool) -> BuiltGraph:
    """The graph over ``segments`` and its centrality.

    ``keep``: hold it for the next calls over the same segments (the centrality pass keeps it for
    the shard builds; ``_written`` frees it once every repository's shard is written). At most
    one graph is held per process. The segments are taken in id order, so every process builds
    the same node order (partitions exchange node numbers).
    """
    global _held
    key = _key(segments)
    with _held_lock:
        held = _held if _held is not None and _held.graph.key == key else None
        _held = held
    if held is not None:
        found = held.graph
        return BuiltGraph(found.key, found.data, found.pagerank, found.degree, reused=True)
    data = build_graph(sorted(segments, key=lambda s: s.id))
    pagerank, degree = centrality_of(data)
    built = BuiltGraph(key, data, pagerank, degree)
    if keep:
        with _held_lock:
            _held = _Held(built, frozenset(n.repo for n in data.nodes))
    return built


def _written(built: BuiltGraph, repos: Collection[str]) -> None:
    """A shard of ``repos`` was written from ``built``: free the held graph once every repository's was."""
    global _held
    with _held_lock:
        if _held is not None and _held.graph.key == built.key:
            _held.written.update(repos)
            if _held.repos <= _held.written:
                _held = None


class GraphModality:
    """Builds one partition of the graph (or the single graph) from segments and loads it for search."""

    name = "graph"
    sharding = "partitioned"

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        """Write the partition of ``context.repos`` (every repository when empty or when they cover all)."""
        built = graph_of(list(segments), keep=True)
        data = built.data
        repos = {n.repo for n in data.nodes}
        partition = () if not context.repos or repos <= set(context.repos) else tuple(sorted(context.repos))
        _written(built, partition or repos)
        size = save_graph(data, shard_dir, built.pagerank, built.degree, partition=partition)
        owned = sum(1 for n in data.nodes if n.kind != "module" and (not partition or n.repo in partition))
        usage = sum(1 for key in data.edges if key[2] != 0)
        reuse = ", graph reused" if built.reused else ""
        scope = f"partition {', '.join(partition)}: {owned} of " if partition else ""
        notes = (f"graph: {scope}{data.segment_count} segments, {usage} usage edges{reuse}", *data.notes)
        return BuildStats(segments=owned if partition else data.segment_count, bytes_on_disk=size, notes=notes)

    def load(self, shard_dir: Path) -> GraphShard:
        return GraphShard.open(shard_dir)


def compute_centrality(segments: Sequence[Segment]) -> dict[str, float]:
    """Segment id -> PageRank x node count over the usage graph of ``segments``."""
    built = graph_of(segments, keep=True)
    return {node.id: float(built.pagerank[i]) for i, node in enumerate(built.data.nodes) if node.kind != "module"}


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(GraphModality())


@hookimpl
def fourfold_compute_centrality(segments: Sequence[Segment]) -> Mapping[str, float] | None:
    """Centrality for the coordinator's boost (see ``centrality.py`` for the scale)."""
    return compute_centrality(segments)
