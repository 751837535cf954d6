"""The graph shard on disk, and the read-only graph a loaded shard answers from.

Two files under the shard folder, nothing pickled, both compressed (a shard written before they
were, ``nodes.json`` and an uncompressed ``edges.npz``, still reads):

- ``nodes.json.zst``: zstd-compressed JSON: the node table as columns (ids, repositories and paths by index into
  string tables, lines, symbol, kind, qualified name, parent index, module keys, ``owned``) and
  the ``partition`` (the repositories the shard owns; empty: all);
- ``edges.npz`` (``np.savez_compressed``): ``src``, ``dst``, ``kind`` (index into ``EDGE_KINDS``), ``weight``, the
  evidence lines as ``line_ptr``/``lines`` (edge ``e`` has ``lines[line_ptr[e]:line_ptr[e+1]]``),
  and per-node ``centrality`` (PageRank x node count) and ``degree`` (weighted in-degree).

A partition (one repository's shard of a partitioned graph, built from that repository and the
repositories it imports: see ``links.py``) stores the edges that leave its own nodes, its own
nodes, and as stubs the nodes of other repositories those edges reach. A cross-repository edge is
stored once, in the partition of the code that uses (the edge's source): the partition that
reports a caller is the one that owns it. ``owned`` marks its own nodes; a stub carries its
repository's centrality and is named (a callee, a path step) but never walked from.

Loading builds forward and reverse adjacency (CSR over edge ids) with numpy; the result is
never written to after ``load_graph`` returns, so concurrent searches need no lock.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import zstandard

from fourfold.errors import CorruptIndex
from fourfold.plugins.codec import compress, decompress
from fourfold.plugins.graph.centrality import degree, scaled_pagerank
from fourfold.plugins.graph.resolve import CALL, EDGE_KINDS, IMPORT, INHERIT, REF, GraphData, sorted_lines

__all__ = ["FORMAT_VERSION", "NODES_FILE", "USAGE_KINDS", "Graph", "centrality_of", "load_graph", "save_graph"]

FORMAT_VERSION = 2  # 2: a partition stores the edges leaving its nodes, not the whole node table
NODES_FILE = "nodes.json.zst"
_PLAIN_NODES = "nodes.json"  # written before the node table was compressed
#: The edge kinds that make one definition depend on another (containment is structure, not use).
USAGE_KINDS = (IMPORT, CALL, REF, INHERIT)

IntArray = npt.NDArray[np.int64]


def _usage_arrays(data: GraphData) -> tuple[IntArray, IntArray, npt.NDArray[np.float64]]:
    keys = [k for k in data.edges if k[2] in USAGE_KINDS]
    src = np.array([k[0] for k in keys], dtype=np.int64)
    dst = np.array([k[1] for k in keys], dtype=np.int64)
    weight = np.array([data.edges[k][0] for k in keys], dtype=np.float64)
    return src, dst, weight


def centrality_of(data: GraphData) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(scaled PageRank, weighted in-degree) per node over the usage edges.

    PageRank is computed within each repository, over the edges between its own nodes: a
    definition's rank then depends on its repository alone, so a caller who may read only some
    repositories gets the ranking it would get if the others were not indexed (a global rank
    would let code it cannot read reorder its answers).
    """
    src, dst, weight = _usage_arrays(data)
    n = len(data.nodes)
    rank = np.zeros(n)
    repo_of = np.array([node.repo for node in data.nodes], dtype=object)
    for repo in sorted(set(repo_of.tolist())):
        members = np.flatnonzero(repo_of == repo)
        local = np.full(n, -1, dtype=np.int64)
        local[members] = np.arange(len(members))
        inside = (local[src] >= 0) & (local[dst] >= 0) if len(src) else np.zeros(0, dtype=bool)
        rank[members] = scaled_pagerank(len(members), local[src[inside]], local[dst[inside]], weight[inside])
    return rank, degree(n, dst, weight)


def save_graph(
    data: GraphData,
    shard_dir: Path,
    centrality: npt.NDArray[np.float64] | None = None,
    deg: npt.NDArray[np.float64] | None = None,
    partition: Collection[str] = (),
) -> int:
    """Write the shard (with ``centrality``/``deg`` when already computed); returns the bytes written.

    ``partition``: the repositories this shard owns (empty: every one, the single graph); only the
    edges leaving their nodes are written, with the nodes they reach (stubs), renumbered.
    """
    shard_dir.mkdir(parents=True, exist_ok=True)
    if centrality is None or deg is None:
        centrality, deg = centrality_of(data)
    if partition:
        data, centrality, deg = _partition_of(data, set(partition), centrality, deg)
    owned = [not partition or n.repo in partition for n in data.nodes]
    repos: dict[str, int] = {}
    paths: dict[str, int] = {}
    languages: dict[str, int] = {}
    nodes = data.nodes
    columns = {
        "id": [n.id for n in nodes],
        "repo": [repos.setdefault(n.repo, len(repos)) for n in nodes],
        "path": [paths.setdefault(n.path, len(paths)) for n in nodes],
        "language": [languages.setdefault(n.language, len(languages)) for n in nodes],
        "start": [n.start_line for n in nodes],
        "end": [n.end_line for n in nodes],
        "symbol": [n.symbol for n in nodes],
        "kind": [n.kind for n in nodes],
        "qualified_name": [n.qualified_name for n in nodes],
        "parent": [n.parent for n in nodes],
        "owned": owned,
    }
    meta = {
        "version": FORMAT_VERSION,
        "edge_kinds": list(EDGE_KINDS),
        "repos": list(repos),
        "paths": list(paths),
        "languages": list(languages),
        "columns": columns,
        "module_keys": {str(k): v for k, v in data.module_keys.items()},
        "external_bases": data.external_bases,
        "notes": data.notes,
        "partition": sorted(partition),
    }
    # compressed: typeshed's node table is 3.2 MB of JSON, 0.75 MB so (decompressing it takes ~5 ms)
    encoded = json.dumps(meta, separators=(",", ":")).encode()
    (shard_dir / NODES_FILE).write_bytes(compress(encoded, 3))
    keys = sorted(data.edges)
    line_lists = [sorted_lines(data.edges[k][1]) for k in keys]
    line_ptr = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in line_lists], out=line_ptr[1:])
    with (shard_dir / "edges.npz").open("wb") as fh:
        np.savez_compressed(
            fh,
            src=np.array([k[0] for k in keys], dtype=np.int32),
            dst=np.array([k[1] for k in keys], dtype=np.int32),
            kind=np.array([k[2] for k in keys], dtype=np.int8),
            weight=np.array([data.edges[k][0] for k in keys], dtype=np.float32),
            line_ptr=line_ptr,
            lines=np.array([line for x in line_lists for line in x], dtype=np.int32),
            centrality=centrality.astype(np.float32),
            degree=deg.astype(np.float32),
        )
    return sum(p.stat().st_size for p in shard_dir.iterdir() if p.is_file())


def _partition_of(
    data: GraphData, partition: set[str], centrality: npt.NDArray[np.float64], deg: npt.NDArray[np.float64]
) -> tuple[GraphData, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The part of ``data`` a partition stores: edges leaving its nodes; its nodes, the stubs they
    reach and the stubs' enclosing definitions."""
    mine = [n.repo in partition for n in data.nodes]
    edges = {k: v for k, v in data.edges.items() if mine[k[0]]}
    reached = {dst for _, dst, _ in edges}
    for node in list(reached):  # a stub's enclosing definitions: ``Shape.area`` is reached through ``Shape``
        parent = data.nodes[node].parent
        while parent >= 0 and parent not in reached:
            reached.add(parent)
            parent = data.nodes[parent].parent
    keep = [i for i, m in enumerate(mine) if m or i in reached]
    new = {old: i for i, old in enumerate(keep)}
    nodes = [replace(data.nodes[i], parent=new.get(data.nodes[i].parent, -1)) for i in keep]
    part = GraphData(
        nodes,
        {(new[s], new[d], k): v for (s, d, k), v in edges.items()},
        {new[n]: key for n, key in data.module_keys.items() if n in new},
        data.notes,
        # its own classes, and the stubs of others' a class of its own extends (a way down to its subclasses)
        external_bases={
            name: [new[n] for n in nodes if n in new]
            for name, nodes in data.external_bases.items()
            if any(n in new for n in nodes)
        },
    )
    index = np.array(keep, dtype=np.int64)
    return part, centrality[index], deg[index]


@dataclass(frozen=True, slots=True)
class Graph:
    """A loaded, read-only graph."""

    ids: list[str]
    repo: list[str]
    path: list[str]
    language: list[str]
    start: list[int]
    end: list[int]
    symbol: list[str | None]
    kind: list[str | None]
    qualified_name: list[str | None]
    parent: list[int]
    module_keys: dict[int, str]
    #: an unresolved base's name -> the classes naming it (``GraphData.external_bases``)
    external_bases: dict[str, list[int]]
    children: dict[int, list[int]]
    by_name: dict[str, list[int]]
    by_lower_name: dict[str, list[int]]
    src: IntArray
    dst: IntArray
    edge_kind: npt.NDArray[np.int8]
    weight: npt.NDArray[np.float32]
    line_ptr: IntArray
    lines: npt.NDArray[np.int32]
    out_ptr: IntArray  # edges leaving node v: out_edges[out_ptr[v]:out_ptr[v+1]]
    out_edges: IntArray
    in_ptr: IntArray
    in_edges: IntArray
    centrality: npt.NDArray[np.float32]
    degree: npt.NDArray[np.float32]
    notes: tuple[str, ...]
    starts: IntArray  # ``start`` as an array, for vectorised ranking
    path_rank: IntArray  # a node's path's place in sorted path order (ties in rankings break by path)
    file_id: IntArray  # one id per (repository, path)
    module: npt.NDArray[np.bool_]  # module nodes (files, Go packages): never a hit
    owned: npt.NDArray[np.bool_]  # this shard's own nodes; the others are stubs of other partitions
    partition: tuple[str, ...]  # the repositories this shard owns; empty: all (the single graph)

    @property
    def size(self) -> int:
        return len(self.ids)

    def edge_lines(self, edge: int) -> tuple[int, ...]:
        return tuple(int(x) for x in self.lines[self.line_ptr[edge] : self.line_ptr[edge + 1]])

    def incoming(self, node: int) -> IntArray:
        return self.in_edges[self.in_ptr[node] : self.in_ptr[node + 1]]

    def outgoing(self, node: int) -> IntArray:
        return self.out_edges[self.out_ptr[node] : self.out_ptr[node + 1]]

    def is_module(self, node: int) -> bool:
        return self.kind[node] == "module"

    @property
    def partitioned(self) -> bool:
        """Whether some nodes belong to other shards (one partition of a graph over several repositories)."""
        return not bool(self.owned.all())


def _csr(keys: IntArray, n: int) -> tuple[IntArray, IntArray]:
    order = np.argsort(keys, kind="stable").astype(np.int64)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=n), out=ptr[1:])
    return ptr, order


def load_graph(shard_dir: Path) -> Graph:
    """Read a shard written by ``save_graph``; a missing or foreign file is ``CorruptIndex``."""
    try:
        packed = shard_dir / NODES_FILE
        if packed.is_file():
            meta = json.loads(decompress(packed.read_bytes()))
        else:
            meta = json.loads((shard_dir / _PLAIN_NODES).read_text())
        with np.load(shard_dir / "edges.npz", allow_pickle=False) as arrays:
            edges = {name: arrays[name] for name in arrays.files}
    except (OSError, ValueError, zstandard.ZstdError) as exc:
        raise CorruptIndex(f"graph shard {shard_dir} cannot be read ({exc}); rebuild the index") from exc
    if meta.get("version") != FORMAT_VERSION:
        raise CorruptIndex(
            f"graph shard {shard_dir} has format {meta.get('version')!r}, expected {FORMAT_VERSION}; rebuild the index"
        )
    cols = meta["columns"]
    n = len(cols["id"])
    symbol: list[str | None] = cols["symbol"]
    by_name: dict[str, list[int]] = defaultdict(list)
    by_lower: dict[str, list[int]] = defaultdict(list)
    children: dict[int, list[int]] = defaultdict(list)
    for i, name in enumerate(symbol):
        if name:
            by_name[name].append(i)
            by_lower[name.lower()].append(i)
        if cols["parent"][i] >= 0:
            children[cols["parent"][i]].append(i)
    src = edges["src"].astype(np.int64)
    dst = edges["dst"].astype(np.int64)
    out_ptr, out_edges = _csr(src, n)
    in_ptr, in_edges = _csr(dst, n)
    path_of = np.array(cols["path"], dtype=np.int64)
    path_order = np.argsort(np.array(meta["paths"], dtype=object), kind="stable")
    path_place = np.empty(len(path_order), dtype=np.int64)
    path_place[path_order] = np.arange(len(path_order))
    file_id = np.array(cols["repo"], dtype=np.int64) * max(1, len(meta["paths"])) + path_of
    return Graph(
        ids=cols["id"],
        repo=[meta["repos"][i] for i in cols["repo"]],
        path=[meta["paths"][i] for i in cols["path"]],
        language=[meta["languages"][i] for i in cols["language"]],
        start=cols["start"],
        end=cols["end"],
        symbol=symbol,
        kind=cols["kind"],
        qualified_name=cols["qualified_name"],
        parent=cols["parent"],
        module_keys={int(k): v for k, v in meta["module_keys"].items()},
        external_bases={name: list(nodes) for name, nodes in meta.get("external_bases", {}).items()},
        children=dict(children),
        by_name=dict(by_name),
        by_lower_name=dict(by_lower),
        src=src,
        dst=dst,
        edge_kind=edges["kind"],
        weight=edges["weight"],
        line_ptr=edges["line_ptr"],
        lines=edges["lines"],
        out_ptr=out_ptr,
        out_edges=out_edges,
        in_ptr=in_ptr,
        in_edges=in_edges,
        centrality=edges["centrality"],
        degree=edges["degree"],
        notes=tuple(meta.get("notes", ())),
        starts=np.array(cols["start"], dtype=np.int64),
        path_rank=path_place[path_of],
        file_id=file_id,
        module=np.array([k == "module" for k in cols["kind"]], dtype=bool),
        owned=np.array(cols.get("owned", [True] * n), dtype=bool),
        partition=tuple(meta.get("partition", ())),
    )
