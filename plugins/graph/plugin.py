"""The graph modality: imports, calls, references and inheritance between definitions.

Sharding is ``global``: one shard over every repository. Name resolution needs every
definition an import can reach, and a call from one repository into another is exactly the
edge a blast radius must not lose; PageRank, too, is a property of the whole graph. The shard is
compact (integer edge arrays plus a node table), so one shard holds millions of edges; a
partition per repository with cross-repository edges kept at both ends is the next step when
one shard no longer fits a worker.

The graph is built once per index build: ``fourfold_compute_centrality`` (called by the indexer
before the shards are built) builds it and keeps the last one in this process, keyed by the
segments' ids and content hashes; ``build`` of the same segments then writes that graph instead
of parsing and resolving everything a second time. A shard built in another process (a Ray
task) finds no cached graph and builds its own: the result is the same, only slower.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
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


_last: BuiltGraph | None = None
_last_lock = threading.Lock()


def _key(segments: Sequence[Segment]) -> str:
    """A digest of the segment set that does not depend on the order the segments come in."""
    digest = hashlib.blake2b(digest_size=16)
    for seg_id, content_hash in sorted((s.id, s.content_hash) for s in segments):
        digest.update(f"{seg_id}\0{content_hash}\n".encode())
    return digest.hexdigest()


def graph_of(segments: Sequence[Segment], *, keep: bool) -> BuiltGraph:
    """The graph over ``segments`` and its centrality.

    ``keep``: hold it for the next call over the same segments (the centrality pass keeps it for
    the shard build, which takes it and frees it). At most one graph is held per process.
    """
    global _last
    key = _key(segments)
    with _last_lock:
        found, _last = _last, None
    if found is not None and found.key == key:
        built = BuiltGraph(found.key, found.data, found.pagerank, found.degree, reused=True)
    else:
        data = build_graph(segments)
        pagerank, degree = centrality_of(data)
        built = BuiltGraph(key, data, pagerank, degree)
    if keep:
        with _last_lock:
            _last = built
    return built


class GraphModality:
    """Builds the graph shard from segments and loads it for search."""

    name = "graph"
    sharding = "global"

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        built = graph_of(list(segments), keep=False)
        data = built.data
        size = save_graph(data, shard_dir, built.pagerank, built.degree)
        usage = sum(1 for key in data.edges if key[2] != 0)
        reuse = ", graph reused from the centrality pass" if built.reused else ""
        notes = (f"graph: {data.segment_count} segments, {usage} usage edges{reuse}", *data.notes)
        return BuildStats(segments=data.segment_count, bytes_on_disk=size, notes=notes)

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
