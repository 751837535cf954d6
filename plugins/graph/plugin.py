"""The graph modality: imports, calls, references and inheritance between definitions.

Sharding is ``global``: one shard over every repository. Name resolution needs every
definition an import can reach, and a call from one repository into another is exactly the
edge a blast radius must not lose; PageRank, too, is a property of the whole graph. The shard is
compact (integer edge arrays plus a node table), so one shard holds millions of edges; a
partition per repository with cross-repository edges kept at both ends is the next step when
one shard no longer fits a worker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from fourfold.plugins import BuildContext, BuildStats, Segment, hookimpl
from fourfold.plugins.graph.resolve import build_graph
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.graph.store import centrality_of, save_graph

__all__ = ["GraphModality"]


class GraphModality:
    """Builds the graph shard from segments and loads it for search."""

    name = "graph"
    sharding = "global"

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        data = build_graph(segments)
        size = save_graph(data, shard_dir)
        usage = sum(1 for key in data.edges if key[2] != 0)
        notes = (f"graph: {data.segment_count} segments, {usage} usage edges", *data.notes)
        return BuildStats(segments=data.segment_count, bytes_on_disk=size, notes=notes)

    def load(self, shard_dir: Path) -> GraphShard:
        return GraphShard.open(shard_dir)


def compute_centrality(segments: Sequence[Segment]) -> dict[str, float]:
    """Segment id -> PageRank x node count over the usage graph of ``segments``."""
    data = build_graph(segments)
    pagerank, _ = centrality_of(data)
    return {node.id: float(pagerank[i]) for i, node in enumerate(data.nodes) if node.kind != "module"}


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(GraphModality())


@hookimpl
def fourfold_compute_centrality(segments: Sequence[Segment]) -> Mapping[str, float] | None:
    """Centrality for the coordinator's boost (see ``centrality.py`` for the scale)."""
    return compute_centrality(segments)
