"""The graph modality: imports, calls, references and inheritance between definitions.

Sharding is ``partitioned``: one shard per repository (``graph/<repo>``), never split by size.
A call from one repository into another is exactly the edge a blast radius must not lose, so a
partition is built from its repository and the repositories it imports (``links.py``): never
from the whole fleet, so an update costs what changed and what uses it, not the fleet. It stores
the edges leaving its own nodes, with the nodes they reach as stubs (``store.py``). Callers,
callees and references come back complete in one round, each hit from the partition that owns
the code that uses. Impact and path walks that leave the repository continue as ``FollowUp``
rounds (``graph.seeds``, ``graph.path_state``, naming nodes by segment id), which the
coordinator runs; the merged answer equals the single graph's (see ``shard.py``). The build
setting ``graph.sharding=global`` gives the single shard ``graph/all`` instead.

``fourfold_compute_centrality`` (called by the indexer per repository before the shards are
built) builds that repository's graph and keeps it in this process, keyed by the segments' ids
and content hashes, so a partition with no dependencies is written from it without parsing again.

Parsed facts are kept on disk by content across processes when the host names a file in the
build setting ``graph.facts_cache`` (``facts_cache.py``): a sync after one commit parses the
files that commit changed, not the repository.
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.plugins import BuildContext, BuildStats, Segment, hookimpl
from fourfold.plugins.graph import partition_notes
from fourfold.plugins.graph.facts_cache import FactsCache, facts_cache_for
from fourfold.plugins.graph.links import (
    Links,
    dependencies,
    import_names,
    is_revision,
    provided_names,
    stale,
    surface_of,
)
from fourfold.plugins.graph.parse import using_facts_cache
from fourfold.plugins.graph.resolve import GraphData, build_graph
from fourfold.plugins.graph.shard import GraphShard, spread_dependents
from fourfold.plugins.graph.store import centrality_of, save_graph
from fourfold.plugins.types import Hit, ModalityQuery

__all__ = ["FACTS_CACHE_SETTING", "GraphModality", "compute_centrality", "graph_of"]

#: The build setting naming the on-disk facts cache (the host sets it to a file of the store).
FACTS_CACHE_SETTING = "graph.facts_cache"


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
    # 2: a JavaScript default export resolves to the definition it names (parse.SELF_MODULE); 3: a Go type
    # satisfying an interface by its methods inherits from it (resolve._go_implementations); 4: a Go member
    # chain starting from a parameter is read through the parameter's declared type (parse._Go._typed); 5:
    # ``super().m()`` is the bases' m and ``object.__new__`` a built-in's, not every indexed m (parse.SUPER);
    # 6: Java's imports, calls and inheritance are read (parse._Java, resolve._java_scope); a JavaScript or
    # TypeScript receiver of known type is read through it (parse._JavaScript._typed), a global's member is none;
    # 7: Rust's modules, uses, impl blocks and typed receivers are read (parse._Rust, resolve._resolve_rust);
    # 8: what a TypeScript overload signature names is its implementation's use (resolve._ts_implementations);
    # C's includes and names are read (parse._C, resolve._c_name); 9: C++'s includes, names, classes and typed
    # receivers are read (parse._Cpp, resolve._resolve_cpp); 10: a C++ macro invoked as a statement outside functions
    # is read past (``cpp_source.readable``: re2's ``DEFINE_FLAG(...)`` had swallowed the file's namespace); 11: so
    # are older clang's lock annotations (``void Lock() EXCLUSIVE_LOCK_FUNCTION()``); 12: a Go struct literal's key
    # is its type's field, not the name in scope (``&Mux{handler: h}``); 13: C#'s namespaces, usings and typed
    # receivers are read (parse._CSharp, resolve._JAVA_LIKE); 14: a JavaScript function assigned to a property of a
    # function or class of its file is that one's method (``Suite.prototype.addTest = function``: resolve._js_attach),
    # and the property it is assigned to is its name, no use (parse._names_assigned_function); 15:
    # ``inherits(Dot, Base)`` makes the constructor function Dot a class whose base is Base
    # (parse._JavaScript._inherits), and ``require("./base")`` of a file whose ``module.exports = Base`` gives Base
    # besides the file (parse.COMMONJS_EXPORT); 16: a C# call is of the overloads its arguments' types fit best
    # (resolve._by_argument_types); 17: so is a Java call; 18: a Python built-in's member called on a literal is
    # nobody's here (``", ".join``), and one called on a value of unknown type is at half weight (``stream.read``:
    # resolve._untyped_weight); a member of a Python local or attribute whose type is written (an annotation, a class
    # or an annotated function called) is that type's (resolve._python_typed); a decorator on a function nested in
    # another is the outer one's use; a call runs the implementation, not its ``@overload`` declarations; a member
    # through a function's or a property's return annotation is that type's; 19: C is read as its compiler sees it
    # after the macros that decorate declarations (``int ZEXPORT inflate(strm, flush)``: c_source.readable); 20: a
    # JavaScript shorthand property (``module.exports = { concat }``) uses its name; 21: a Python class implements a
    # ``typing.Protocol`` whose every method it has (resolve._python_protocols), and a base written with type
    # arguments (``Repository[Model]``) is read; 22: a Go type satisfies an interface only with methods of as many
    # parameters and results (resolve._go_shape), and the classes naming a base defined outside the index are kept
    # by its name (``GraphData.external_bases``: "which classes extend Exception"); 23: by the dotted name it is
    # known by, its first part read through the file's import (``django.db.models.Model``: resolve.external_name);
    # 24: TypeScript call signatures on lines of their own read as members (``readable.typescript_members``)
    build_version = "24"

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        """Write the partition of ``context.repos`` (one repository), or the single graph.

        The host gives a partition its repository's segments and ``context.segments_of`` to read
        its dependencies' (see ``links.py``); segments of other repositories given directly serve
        as the pool dependencies are chosen from. Without either, the segments are the single graph.
        """
        given = list(segments)
        kept = facts_cache_for(context.settings.get(FACTS_CACHE_SETTING))
        with using_facts_cache(kept):
            if context.segments_of is None and (not context.repos or {s.repo for s in given} <= set(context.repos)):
                return self._build_single(given, shard_dir)
            return self._build_partition(given, shard_dir, context, kept)

    def _build_single(self, segments: list[Segment], shard_dir: Path) -> BuildStats:
        built = graph_of(segments, keep=True)
        data = built.data
        _written(built, {n.repo for n in data.nodes})
        size = save_graph(data, shard_dir, built.pagerank, built.degree)
        usage = sum(1 for key in data.edges if key[2] != 0)
        reuse = ", graph reused" if built.reused else ""
        notes = (f"graph: {data.segment_count} segments, {usage} usage edges{reuse}", *data.notes)
        return BuildStats(segments=data.segment_count, bytes_on_disk=size, notes=notes)

    def _build_partition(
        self, given: list[Segment], shard_dir: Path, context: BuildContext, kept: FactsCache | None
    ) -> BuildStats:
        """One partition: the repositories of ``context.repos`` (one, or several small ones packed
        together), built from their segments and their dependencies' (see ``links.py``)."""
        mine_repos = frozenset(context.repos)
        own = [s for s in given if s.repo in mine_repos]
        pool: dict[str, list[Segment]] = defaultdict(list)
        for seg in given:
            if seg.repo not in mine_repos:
                pool[seg.repo].append(seg)
        if context.segments_of is not None:
            peers = [p for p in context.peers if p not in mine_repos and not is_revision(p)]
            paths_of = context.paths_of or (lambda r: ())
            load = context.segments_of
        else:
            peers = sorted(r for r in pool if not is_revision(r))

            def paths_of(r: str) -> Sequence[str]:
                return sorted({s.path for s in pool[r]})

            def load(rs: Sequence[str]) -> Iterable[Segment]:
                return (s for r in rs for s in pool[r])

        keys = context.paths_keys
        provided = {p: _provided(context.build_id, p, paths_of, kept, keys.get(p, "")) for p in peers}
        mine: frozenset[str] = frozenset()
        for repo in sorted(mine_repos):
            mine |= provided_names(repo, {s.path for s in own if s.repo == repo})
        wanted = import_names(own) - mine
        deps = dependencies(wanted, provided)
        built = graph_of([*own, *load(deps)], keep=False)
        data = built.data
        partition = tuple(sorted(mine_repos))
        size = save_graph(data, shard_dir, built.pagerank, built.degree, partition=partition)
        stubs: dict[str, set[str]] = defaultdict(set)
        for (src, dst, _), _value in data.edges.items():
            # every node another repository's code points at, in this pack too: when that repository
            # changes, its pack is carried with it dead only while these stay where they were
            if data.nodes[src].repo in mine_repos and data.nodes[dst].repo != data.nodes[src].repo:
                stubs[data.nodes[dst].repo].add(data.nodes[dst].id)
        names: set[str] = set()
        for repo in mine_repos:
            names |= surface_of(repo, (s for s in own if s.repo == repo)).names
        Links(
            partition[0],
            deps,
            tuple(sorted(wanted)),
            tuple(sorted(mine)),
            tuple(sorted(names)),
            {r: tuple(sorted(ids)) for r, ids in stubs.items()},
            tuple(sorted({name for r, name in data.misses if r in mine_repos})),
            partition,
        ).write(shard_dir)
        owned = sum(1 for n in data.nodes if n.kind != "module" and n.repo in mine_repos)
        usage = sum(1 for (src, _, kind) in data.edges if kind != 0 and data.nodes[src].repo in mine_repos)
        using = f" with {len(deps)} dependencies ({', '.join(deps[:5])}{', ...' if len(deps) > 5 else ''})"
        scope = partition[0] if len(partition) == 1 else f"{len(partition)} repositories"
        notes = (f"graph: partition {scope}: {owned} segments, {usage} usage edges{using if deps else ''}", *data.notes)
        return BuildStats(segments=owned, bytes_on_disk=size, notes=notes)

    def stale_partitions(
        self,
        changed: frozenset[str],
        previous: Mapping[str, Path],
        paths: Mapping[str, Sequence[str]],
        segments_of: Callable[[Sequence[str]], Iterable[Segment]],
    ) -> frozenset[str]:
        """Which previous partitions (repository -> folder) a change to ``changed`` makes stale
        (``paths``: the files of each changed repository still indexed, ``segments_of`` their
        segments now); see ``links.stale``."""
        provided = {r: provided_names(r, p) for r, p in paths.items() if not is_revision(r)}
        # a revision is never another partition's dependency: its surface is nobody's concern
        surfaces = {r: surface_of(r, segments_of([r])) for r in paths if not is_revision(r)}
        return stale(changed, previous, provided, surfaces)

    def load(self, shard_dir: Path) -> GraphShard:
        return GraphShard.open(shard_dir)

    def merge_notes(self, notes: Sequence[str]) -> list[str]:
        """The partitions' truncation notes of one name said once (``partition_notes.merge``)."""
        return partition_notes.merge(notes)

    def order_merged(self, hits: Sequence[Hit], query: ModalityQuery) -> list[Hit]:
        """The merged answer's order among equal evidence (``shard.spread_dependents``)."""
        return spread_dependents(hits, query)


#: Names each repository provides, per build (``BuildContext.build_id``): its paths are read once per build.
_provided_cache: dict[tuple[str, str], frozenset[str]] = {}

#: Bump when ``provided_names`` reads paths differently: names kept on disk before are never read again.
PROVIDED_FORMAT = 1


def _provided(
    build: str,
    repo: str,
    paths_of: Callable[[str], Sequence[str]],
    kept: FactsCache | None = None,
    paths_key: str = "",
) -> frozenset[str]:
    """``repo``'s provided names, cached per build (no cache when nothing says which build), and
    across builds in the facts cache by the host's key of its paths (``BuildContext.paths_keys``):
    one commit in a fleet of 1,000 then reads no other repository's file list."""
    if not build:
        return _provided_kept(repo, paths_of, kept, paths_key)
    key = (build, repo)
    found = _provided_cache.get(key)
    if found is None:
        if len(_provided_cache) > 100_000:
            _provided_cache.clear()
        found = _provided_cache[key] = _provided_kept(repo, paths_of, kept, paths_key)
    return found


def _provided_kept(
    repo: str, paths_of: Callable[[str], Sequence[str]], kept: FactsCache | None, paths_key: str
) -> frozenset[str]:
    if kept is None or not paths_key:
        return provided_names(repo, paths_of(repo))
    key = kept.key(f"provided\0{PROVIDED_FORMAT}\0{repo}\0{paths_key}".encode(), "paths")
    found = kept.get(key)
    if found is not None and all(isinstance(name, str) for name in found):
        return frozenset(found)
    names = provided_names(repo, paths_of(repo))
    kept.put(key, tuple(sorted(names)))
    return names


def compute_centrality(segments: Sequence[Segment], settings: Mapping[str, str] | None = None) -> dict[str, float]:
    """Segment id -> PageRank x node count over the usage graph of ``segments``."""
    with using_facts_cache(facts_cache_for((settings or {}).get(FACTS_CACHE_SETTING))):
        built = graph_of(segments, keep=True)
    return {node.id: float(built.pagerank[i]) for i, node in enumerate(built.data.nodes) if node.kind != "module"}


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(GraphModality())


@hookimpl
def fourfold_compute_centrality(segments: Sequence[Segment], settings: Mapping[str, str]) -> Mapping[str, float] | None:
    """Centrality for the coordinator's boost (see ``centrality.py`` for the scale)."""
    return compute_centrality(segments, settings)
