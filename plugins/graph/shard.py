"""Answer graph questions over a loaded graph: callers, references, callees, impact, paths.

Every answer is bounded: callers list every caller in ``total_matches`` but return ``k``;
impact stops after ``MAX_IMPACT_NODES`` dependents; a path search after ``MAX_PATH_NODES``
nodes. A bound that cut an answer says so in the notes (``truncated``). Cycles cannot loop:
every walk keeps a visited set.

A partition (see ``store.py``) reports only the hits it owns, so callers, callees, references
and definitions come back complete in one round with each hit from exactly one shard. The walks
continue in other partitions through ``FollowUp`` rounds the coordinator runs:

- impact: a partition walks reverse usage edges from the nodes it may start from (round one:
  the targets it owns, at distance 0; later rounds: the seeds in ``graph.seeds``). A node whose
  dependents live in another repository is handed to that repository's partition as a seed
  ``[node, distance, confidence]``; that partition reports the dependents and walks on. A node's
  distance is its shortest distance over followed edges and its confidence the best at that
  distance; both are a minimum/maximum over the edges, so the coordinator's merge (best score
  per segment, ``impact_score`` falls with distance and rises with confidence) gives exactly the
  single graph's answer, whatever round a shorter path arrives in.
- path: one partition at a time holds the search (``graph.path_state``: the pending ends of
  paths in other repositories, the best path found, the repository entries already expanded).
  Paths compare by (length, node sequence), so the answer is the lexicographically first
  shortest path, the same in one graph or many partitions; the holder of the smallest pending
  path goes next, and the one that finds nothing pending below the best reports it.
"""

from __future__ import annotations

import difflib
import functools
import heapq
import json
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.errors import InvalidQuery
from fourfold.plugins.globs import excluded_globs, path_filter
from fourfold.plugins.graph.query import GraphQuestion, parse_query
from fourfold.plugins.graph.resolve import CALL, CLASS_KINDS, IMPORT, INHERIT
from fourfold.plugins.graph.store import USAGE_KINDS, Graph, IntArray, load_graph
from fourfold.plugins.paths import is_auxiliary, is_example
from fourfold.plugins.types import (
    CODE_FIRST_OPTION,
    DEAD_OPTION,
    SCOPE_OPTION,
    FollowUp,
    Hit,
    ModalityQuery,
    ShardResult,
)
from fourfold.plugins.vocabulary import QUALIFIER_SEPARATORS

__all__ = [
    "MAX_IMPACT_NODES",
    "PATH_OPTION",
    "SEEDS_OPTION",
    "GraphShard",
    "impact_evidence",
    "impact_score",
    "spread_dependents",
]

#: The follow-up option carrying an impact walk's seeds: JSON ``[[node, distance, confidence], ...]``.
SEEDS_OPTION = "graph.seeds"
#: The follow-up option carrying a path search's state (see ``_PathState``).
PATH_OPTION = "graph.path_state"

#: The most dependents an impact walk visits before it stops and says it was truncated.
MAX_IMPACT_NODES = 5000
#: The kinds of an abstract type: an implementation of one is listed after the concrete ones.
ABSTRACT_KINDS = frozenset({"interface", "trait", "protocol"})
#: Evidence factors of an implementation that is abstract, and of one in a test, an example or the like: an
#: interface embedding the target (1.0 x 0.8) after a type satisfying it by its methods (IMPLEMENTS_WEIGHT 0.9).
ABSTRACT_FACTOR = 0.8
AUXILIARY_FACTOR = 0.75
#: Evidence factor of a dependent that is itself a definition of the name asked about: an overload calling
#: another (Java's ``findThreads(group)`` calling ``findThreads(predicate)`` of its class), a wrapper or a facade
#: forwarding to another class's method of the name (re2's ``CompileSet`` calling ``Compiler::CompileSet``), an
#: override calling ``super``'s. Named, every definition of the name is what is being changed: it is listed
#: after the code depending on it at that distance.
OVERLOAD_FACTOR = 0.5
#: Evidence factor per layer of an indirect implementation (a class extending a class that implements the
#: target): the types implementing it directly come first among equals, a concrete indirect one still
#: before a direct interface (0.9 > ``ABSTRACT_FACTOR``).
INDIRECT_FACTOR = 0.9
#: The most layers of subtypes "who implements X" follows.
MAX_IMPLEMENTATION_LAYERS = 8
#: The most nodes a path search visits.
MAX_PATH_NODES = 200_000
#: Edges weaker than this (a member name with many candidate definitions) are reported as direct
#: dependents but not followed further: chaining guesses would flood the blast radius.
MIN_FOLLOW_WEIGHT = 0.3
#: A plain reference (not a call) ranks a little below a call site of the same confidence.
REFERENCE_FACTOR = 0.9
#: A callee only a nested helper calls, against one the definition's own body calls (``_callees``).
NESTED_FACTOR = 0.5
#: Evidence factor of depending on a class through one of its members (``live.stop()`` calling
#: ``self._live_render.restore_cursor()``) against using the class itself (building one, naming its type): both
#: break when the class changes, the second whatever part of it changes, so it comes first at its distance.
MEMBER_FACTOR = 0.9
#: What a call builds or expands rather than runs, as a callee question sees it: a type, a constant (an enum's
#: variant), a C macro (expanded in place: what runs is what its body calls, which the graph does not read).
_CONSTRUCTED_KINDS = CLASS_KINDS | {"union", "extension", "constant", "module", "macro"}
#: A hit's score carries the graph's order among equal evidence, so that a merge by score keeps it
#: (the coordinator merges shards' lists by score, then by path): a user that is its file's first
#: adds ``8 * ORDER_STEP``, one that is a definition (not a file's module-level code) ``4 * ORDER_STEP``, one in the
#: shipped code (not a test's, an example's, a script's: ``paths.is_auxiliary``) ``2 * ORDER_STEP``, a centrality
#: ``c`` adds ``ORDER_STEP * c / (1 + c)``; all are below any difference of evidence the graph draws, so they order
#: only what the evidence leaves tied.
ORDER_STEP = 1e-4


@dataclass(frozen=True, slots=True)
class _Found:
    """A dependent found by the impact walk."""

    node: int
    distance: int
    confidence: float
    lines: tuple[int, ...]
    via: int


#: A path: its steps as (node id, lines where the step before uses it), and its label (length, node ids).
Chain = tuple[tuple[str, tuple[int, ...]], ...]
Label = tuple[int, tuple[str, ...]]
#: What a path step's hit needs when another partition reports it: repository, path, start, end,
#: symbol, kind, language, centrality, label.
Described = list[Any]


@dataclass(frozen=True, slots=True)
class _PathState:
    """A path search between rounds: the smallest pending path to each node another partition
    owns, the best path found, each repository entry already expanded (node id -> length), and
    what the steps of those paths look like (node id -> ``Described``)."""

    pending: dict[str, tuple[int, Chain]]
    best: tuple[int, Chain] | None
    done: dict[str, int]
    nodes: dict[str, Described]


def impact_score(distance: int, confidence: float) -> float:
    """A dependent's score: any distance outranks every longer one; confidence orders within one."""
    return 1.0 / (distance + 1.0 - min(confidence, 1.0))


def _centrality_step(centrality: float) -> float:
    """What a centrality adds to a graph hit's score (see ``ORDER_STEP``): written by the shard, read
    back by ``impact_evidence``."""
    c = max(centrality, 0.0)
    return ORDER_STEP * c / (1.0 + c)


def impact_evidence(hit: Hit) -> tuple[int, float]:
    """An impact hit's (distance, confidence), read back from its score: ``impact_score`` plus the
    centrality's order step (``_centrality_step``), rounded to six decimals: x = distance + 1 - confidence
    is read to within 5e-7 x^2."""
    x = 1.0 / (hit.score - _centrality_step(hit.centrality))
    distance = max(1, math.floor(x + 2e-6 * x * x))  # a confidence of 1 reads as x = distance, give or take
    return distance, min(max(distance + 1.0 - x, 0.0), 1.0)


def spread_dependents(hits: Sequence[Hit], query: ModalityQuery) -> list[Hit]:
    """The merged impact answer with, within a distance and a confidence tier (one decimal), each
    file's first dependent before any file's second, so that the top k spans more of the files a
    change breaks; among the firsts, and among the seconds, definitions with a body before one-line
    declarations that keep a value, and those before module-level code (``_dependent_rank``), and of each
    such rank the shipped code's before a test's, an example's or a script's (``paths.is_auxiliary``; not under
    ``CODE_FIRST_OPTION`` "off"); a file's first is its best-ranked dependent in its best tier (a definition
    rather than the import line). Any other answer as merged.

    Done on the coordinator's merged list, not in a shard: a partitioned graph's dependents of one file
    at one distance may arrive in different follow-up rounds, and only the merged list knows which is
    the file's first; the single graph and its partitions merge to the same list, and so to the same
    order."""
    question = parse_query(query.text, query.intent, query.options)
    if question is None or question.relation != "impact":
        return list(hits)
    groups = [(d, -round(c, 1)) for d, c in map(impact_evidence, hits)]
    ranks = [_dependent_rank(h) for h in hits]
    if _code_first(query):  # a test's use after the shipped code's of its rank: both break, the code is the product
        ranks = [2 * rank + is_auxiliary(h.path) for rank, h in zip(ranks, hits, strict=True)]
    firsts: dict[tuple[str, str], int] = {}  # each file's first: its best hit, by tier, then by rank
    for i, h in enumerate(hits):
        j = firsts.setdefault((h.repo, h.path), i)
        if (groups[i], ranks[i]) < (groups[j], ranks[j]):
            firsts[(h.repo, h.path)] = i  # e.g. the file's import of the name ties with a function that uses it
    chosen = set(firsts.values())
    return [hits[i] for i in sorted(range(len(hits)), key=lambda i: (*groups[i], i not in chosen, ranks[i], i))]


#: Kinds of a one-line declaration that keeps a value (``_messages: BufferedItem[]``).
_VALUE_KINDS = frozenset({"field", "property", "variable", "constant"})
#: Kinds of a definition that can be called.
_CALLABLE_KINDS = frozenset({"function", "method"})
#: Kinds whose use runs code of their own: a callee answer lists them first (a C# property is its accessors).
_RUNS_CODE = _CALLABLE_KINDS | {"property"}
#: Kinds of a declaration of a type's shape, where no code runs (``interface SchedulerLike extends
#: TimestampProvider``, ``type HubMessage = InvocationMessage | …``).
_SHAPE_KINDS = frozenset({"interface", "type"})


def _dependent_rank(hit: Hit) -> int:
    """Where a dependent goes among its tier's: 0 a definition with a body that runs (a function, a method, a
    class); 1 a declaration of a type's shape (an interface or a type alias naming the type: the code that
    uses the shape is where a change shows, and that code is a dependent of its own); 2 a declaration that keeps
    a value, on one line or two (a field, a property, a variable or a constant typed or initialised with the name,
    perhaps under an annotation: ``@SuppressWarnings("rawtypes")`` above ``FailableToLongFunction NOP = t -> 0L;``),
    or a constant of any length (a table: httpx's ``HTTPCORE_EXC_MAP`` naming each exception it maps; the code
    reading it is where a change shows; a field or a variable of many lines may hold a function), likewise; 3 a
    file's module code (its import or re-export of the name)."""
    if hit.symbol is None:
        return 3
    if hit.kind in _SHAPE_KINDS:
        return 1
    if hit.kind == "constant":
        return 2
    return 2 if hit.kind in _VALUE_KINDS and hit.end_line - hit.start_line <= 1 else 0


def _code_first(query: ModalityQuery) -> bool:
    """Whether the shipped code's uses go before the tests' among equal evidence (see ``CODE_FIRST_OPTION``)."""
    return query.options.get(CODE_FIRST_OPTION) != "off"


def _only(query: ModalityQuery) -> bool:
    """Whether ``query.repos`` is the caller's whole world (see ``SCOPE_OPTION``)."""
    return query.options.get(SCOPE_OPTION) == "only"


def _label(distance: int, chain: Chain) -> Label:
    return distance, tuple(node for node, _ in chain)


def _described_hit(node: str, d: Described, score: float, lines: tuple[int, ...], snippet: str) -> Hit:
    return Hit(
        segment_id=node,
        repo=d[0],
        path=d[1],
        start_line=d[2],
        end_line=d[3],
        score=round(score, 6),
        symbol=d[4],
        kind=d[5],
        language=d[6],
        match_lines=lines,
        centrality=d[7],
        snippet=snippet,
    )


class GraphShard:
    """A loaded graph shard; read-only, so safe for concurrent ``search`` calls."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        names = sorted(graph.by_name)
        self._names = names
        self._index = {node_id: i for i, node_id in enumerate(graph.ids)}  # follow-ups name nodes by id
        self._repo_names = sorted(set(graph.repo))
        where = {r: i for i, r in enumerate(self._repo_names)}
        self._repo_of = np.array([where[r] for r in graph.repo], dtype=np.int32)
        self._owned_cache: dict[str, npt.NDArray[np.bool_]] = {}

    @functools.cached_property
    def _example(self) -> npt.NDArray[np.bool_]:
        """Each node's file is in an example's directory (``paths.is_example``): a dependent there demonstrates the
        code it uses rather than being part of it, after the shipped code and its tests at its distance (evidence x
        ``AUXILIARY_FACTOR``). Read on the first impact question, not at load."""
        return self._per_path(is_example)

    @functools.cached_property
    def _named(self) -> npt.NDArray[np.bool_]:
        """Each node is a definition (a function, a type, a value), not a file's module-level code."""
        return np.array([symbol is not None for symbol in self.graph.symbol], dtype=bool)

    @functools.cached_property
    def _auxiliary(self) -> npt.NDArray[np.bool_]:
        """Each node's file is a test, an example, documentation, a benchmark or a script (``paths.is_auxiliary``):
        its use of a name comes after the shipped code's among equal evidence (``_code_first``), and its
        implementation of a type after the shipped ones (``_secondary``)."""
        return self._per_path(is_auxiliary)

    def _per_path(self, test: Callable[[str], bool]) -> npt.NDArray[np.bool_]:
        """``test`` of each node's path, asked once a path."""
        told = {path: test(path) for path in set(self.graph.path)}
        return np.array([told[path] for path in self.graph.path], dtype=bool)

    def _owned(self, query: ModalityQuery) -> npt.NDArray[np.bool_]:
        """This partition's own nodes, less those of repositories the host says are dead here
        (``DEAD_OPTION``: a packed partition carried after one of its repositories changed)."""
        raw = query.options.get(DEAD_OPTION, "")
        if not raw:
            return self.graph.owned
        found = self._owned_cache.get(raw)
        if found is None:
            dead = [i for i, r in enumerate(self._repo_names) if r in set(raw.split(","))]
            found = self.graph.owned & ~np.isin(self._repo_of, dead)
            if len(self._owned_cache) < 64:
                self._owned_cache[raw] = found
        return found

    @classmethod
    def open(cls, shard_dir: Path) -> GraphShard:
        return cls(load_graph(shard_dir))

    def close(self) -> None:
        """Nothing to release: the graph lives in memory and is dropped with the shard."""

    # --- entry point --------------------------------------------------------------------------

    def search(self, query: ModalityQuery) -> ShardResult:
        question = parse_query(query.text, query.intent, query.options)
        if question is None:
            return ShardResult(
                hits=(),
                total_matches=0,
                notes=(
                    "graph: the query asks no graph question (callers, callees, references, impact, path); "
                    "ask e.g. 'who calls NAME' or 'impact of changing NAME'",
                ),
            )
        targets, notes = self._targets(question.symbol, query.repos, _only(query))
        # a later round of a walk goes on from the nodes it carries, whether or not this partition knows the names
        later = SEEDS_OPTION in query.options or PATH_OPTION in query.options
        asked_type = any(self.graph.kind[t] in CLASS_KINDS for t in targets)
        if question.relation == "implementations" and not asked_type and not later:
            # "modality" where fields are named so and the class Modality: a type is what is implemented
            typed = self._types_named(question.symbol, query.repos, _only(query))
            if typed:
                shown = self._labels(query, typed)
                return self._callers(query, question, typed, [f"graph: read {question.symbol!r} as {shown}"])
            external = self._extending_external(query, question.symbol)
            if external is not None:  # "which classes extend Exception": a base defined outside the index
                return external
        if not targets and self.graph.partition:  # another partition may know the name: said only if none does
            if not later:
                return ShardResult(hits=(), total_matches=0, absence_notes=tuple(notes))
            notes = []
        elif not targets and not later:
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))
        if question.relation == "path":
            ends, end_notes = self._targets(question.target, query.repos, _only(query))
            if not self.graph.partition:
                notes += end_notes
                if not ends:
                    return ShardResult(hits=(), total_matches=0, notes=tuple(notes))
            # a partition searches on without knowing the end: the partition owning it does
            return self._path(query, question, targets, ends, notes)
        if question.relation in ("callers", "references", "implementations"):
            return self._callers(query, question, targets, notes)
        if question.relation == "callees":
            return self._callees(query, targets, notes)
        if question.relation == "impact":
            return self._impact(query, question, targets, notes)
        return self._definitions(query, targets, notes)

    # --- symbols ------------------------------------------------------------------------------

    def _targets(self, symbol: str, repos: tuple[str, ...] = (), only: bool = False) -> tuple[list[int], list[str]]:
        """Nodes ``symbol`` names (``name``, ``Class.name``, ``package.module.name``, a module).

        Near-miss suggestions come only from ``repos`` when the query names some; ``only``: no
        node outside ``repos`` exists (see ``SCOPE_OPTION``).
        """
        g = self.graph
        parts = [p for p in symbol.split(".") if p]
        if not parts:
            return [], [f"graph: {symbol!r} is not a symbol name"]
        last = parts[-1]
        wanted = set(repos) if only and repos else None

        def seen(nodes: Any) -> list[int]:
            return [int(n) for n in nodes if wanted is None or g.repo[n] in wanted]

        named = (
            seen(g.by_name.get(last, ()))
            or seen(g.by_lower_name.get(last.lower(), ()))
            or seen(g.by_name.get("#" + last, ()))  # a JavaScript private member: ``#updateTimers``, asked without #
        )
        candidates = _getters_over_fields(g, named)
        if len(parts) > 1:
            qualified = [n for n in candidates if _subsequence(parts[:-1], self._context(n))]
            if qualified:
                return qualified, []
            modules = seen(
                n
                for n, key in g.module_keys.items()
                if key == symbol or key.endswith("." + symbol) or key.endswith("/" + symbol.replace(".", "/"))
            )
            if modules:
                return modules, []
            if candidates and g.partition:  # another partition may hold the exact definition
                return [], [f"graph: no definition named {symbol!r} in this index"]
            if candidates:
                return candidates, [f"graph: no definition matches {symbol!r} exactly; answering for every {last!r}"]
        elif candidates:
            return candidates, []
        else:
            modules = seen(n for n, key in g.module_keys.items() if key.rsplit(".", 1)[-1].rsplit("/", 1)[-1] == symbol)
            if modules:
                return modules, []
        near = difflib.get_close_matches(last, self._names_in(repos), n=5, cutoff=0.75)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        return [], [f"graph: no definition named {symbol!r} in this index{hint}"]

    def _names_in(self, repos: tuple[str, ...]) -> list[str]:
        """Every definition name (or those with a definition in ``repos``), sorted."""
        if not repos:
            return self._names
        g = self.graph
        wanted = set(repos)
        return [name for name in self._names if any(g.repo[n] in wanted for n in g.by_name[name])]

    def _context(self, node: int) -> list[str]:
        """The names that qualify ``node``: its module's dotted key, then enclosing definitions."""
        g = self.graph
        path = g.path[node]
        stem = path.rsplit(".", 1)[0].replace("/", ".")
        qualified = (g.qualified_name[node] or g.symbol[node] or "").replace("::", ".")
        return [g.repo[node], *stem.split("."), *qualified.split(".")[:-1]]

    # --- hits ---------------------------------------------------------------------------------

    def _accept(self, query: ModalityQuery, node: int, stub: bool = False) -> bool:
        """Whether ``node`` may be a hit: never a module; a stub only when ``stub`` (a callee: only
        this partition knows the edge, so only it reports the stub)."""
        g = self.graph
        if g.is_module(node) or not (stub or self._owned(query)[node]):
            return False
        if query.repos and g.repo[node] not in query.repos:
            return False
        if query.languages and g.language[node] not in query.languages:
            return False
        passes = path_filter(query)
        return passes is None or passes(g.path[node])

    def _ordered(
        self, score: float, node: int, first: bool = False, shipped: bool = False, named: bool = False
    ) -> float:
        """``score`` with the graph's order among equal evidence in it (see ``ORDER_STEP``)."""
        step = 8.0 * first + 4.0 * named + 2.0 * shipped
        return score + step * ORDER_STEP + _centrality_step(float(self.graph.centrality[node]))

    def _hit(self, node: int, score: float, lines: tuple[int, ...] = (), snippet: str = "") -> Hit:
        g = self.graph
        return Hit(
            segment_id=g.ids[node],
            repo=g.repo[node],
            path=g.path[node],
            start_line=g.start[node],
            end_line=g.end[node],
            score=round(score, 6),
            symbol=g.symbol[node],
            kind=g.kind[node],
            language=g.language[node],
            match_lines=lines,
            centrality=float(g.centrality[node]),
            snippet=snippet,
        )

    def _scope(self, query: ModalityQuery) -> str:
        """How a note names this shard's part: nothing for the single graph, " in REPO" for a
        partition (" elsewhere" for one outside the repositories the query may see)."""
        if not self.graph.partition:
            return ""
        if query.repos and not set(self.graph.partition) <= set(query.repos):
            return " elsewhere"
        if len(self.graph.partition) > 3:  # small repositories packed together
            return f" in {len(self.graph.partition)} repositories"
        return f" in {', '.join(self.graph.partition)}"

    def _hidden(self, query: ModalityQuery, node: int) -> bool:
        """Whether ``node`` lies outside the caller's world (``SCOPE_OPTION``): never walked, counted or named."""
        return _only(query) and bool(query.repos) and self.graph.repo[node] not in query.repos

    def _shown(self, query: ModalityQuery, node: int) -> str:
        """``_label(node)`` if the query may see its repository, else a placeholder: a caller
        restricted to some repositories must not learn names from the others through snippets
        and notes (a walk may pass through them)."""
        if query.repos and self.graph.repo[node] not in query.repos:
            return "(a definition in another repository)"
        return self._label(node)

    def _label(self, node: int) -> str:
        g = self.graph
        if g.is_module(node):
            return g.module_keys.get(node, g.path[node])
        return g.qualified_name[node] or g.symbol[node] or f"{g.path[node]}:{g.start[node]}"

    # --- relations ----------------------------------------------------------------------------

    def _with_members(self, targets: list[int]) -> list[int]:
        """A class is used through its members too: ``Foo.bar()`` depends on ``Foo``."""
        g = self.graph
        out = list(targets)
        for node in targets:
            if g.kind[node] in CLASS_KINDS:
                out.extend(g.children.get(node, ()))
        return out

    def _callers(
        self, query: ModalityQuery, question: GraphQuestion, targets: list[int], notes: list[str]
    ) -> ShardResult:
        """Every segment using a target, best evidence first; vectorised, so a hub of 50k callers stays fast."""
        g = self.graph
        implementations = question.relation == "implementations"
        if implementations:  # the types that derive from it or satisfy it, through their own bases too
            # a type, not its constructor of the same name (C++'s ``Adapter::Adapter``, Java's ``Adapter()``)
            targets = [t for t in targets if g.kind[t] in CLASS_KINDS] or targets
            edges, factor, origin = self._implementing(targets)
            kinds, src = g.edge_kind[edges], g.src[edges]
        else:
            edges = np.concatenate([g.incoming(t) for t in targets])
            kinds = g.edge_kind[edges]
            src = g.src[edges]
            keep = np.isin(kinds, USAGE_KINDS)
            if question.relation == "callers":  # a target reached from another target only by a call
                keep &= ~(np.isin(src, targets) & (kinds != CALL))
                # "who calls X" where X names a function and a field (chi's methodNotAllowedHandler): reading the
                # field calls nothing; calling it (a field holding a function) does
                fields = [t for t in targets if g.kind[t] in _VALUE_KINDS]
                if fields and any(g.kind[t] in _CALLABLE_KINDS for t in targets):
                    keep &= ~(np.isin(g.dst[edges], fields) & (kinds != CALL))
            edges, kinds, src = edges[keep], kinds[keep], src[keep]
            # a call is the best evidence; asked for references, any use but an import is as good (the import
            # only enables the use: where a file both imports and uses, the use is the answer)
            full = (kinds == CALL) | ((question.relation == "references") & (kinds != IMPORT))
            factor = np.where(full, 1.0, REFERENCE_FACTOR)
        weight = g.weight[edges].astype(np.float64) if implementations else _pooled(g, edges, targets)
        users, which = np.unique(src, return_inverse=True)
        best = np.zeros(len(users))
        np.maximum.at(best, which, weight * factor)
        accepted = ~g.module[users] & self._owned(query)[users]
        if query.repos or query.languages or query.path_glob or excluded_globs(query):
            accepted &= np.array([self._accept(query, int(n)) for n in users], dtype=bool)
        users, best = users[accepted], best[accepted]
        if implementations:  # in the score, so shards' lists merge in the same order as one graph's
            best *= self._secondary(users)
        # by evidence, centrality, path, line; then, within a confidence tier (one decimal), one
        # segment per file first: the top k then spans more files
        order = np.lexsort((g.starts[users], g.path_rank[users], -g.centrality[users], -best))
        values, tier_of = np.unique(best, return_inverse=True)
        tier = np.array([round(float(v), 1) for v in values])[tier_of]
        first = np.zeros(len(order), dtype=bool)
        first[np.unique(g.file_id[users[order]], return_index=True)[1]] = True
        firsts = set(order[first].tolist())  # the users that are their file's first
        # and among a tier's firsts (and among its seconds), the shipped code's uses before the tests': "who calls
        # segment_file" is answered by the indexer that calls it, then by the tests' helpers that do
        shipped = ~self._auxiliary[users] if not implementations and _code_first(query) else np.zeros(len(users), bool)
        named = self._named[users] if not implementations else np.ones(len(users), bool)
        order = order[np.lexsort((~shipped[order], ~named[order], ~first, -tier[order]))]
        names = self._labels(query, targets)
        verb = "implements or extends" if implementations else "uses"
        # a file's first user also names the lines of the file's users past k, which no hit would name (an
        # answer shows one segment a file, with the lines of the file's other hits: the README's recall)
        file_lines: dict[int, set[int]] = defaultdict(set)
        shown = [int(g.file_id[users[i]]) for i in order[: query.k] if i in firsts]
        if not implementations and shown and len(users) > query.k:
            same_file = np.isin(g.file_id[src], shown) & ~np.isin(src, users[order[: query.k]])
            for e, user in zip(edges[same_file].tolist(), src[same_file].tolist(), strict=True):
                file_lines[int(g.file_id[user])].update(g.edge_lines(e))
        hits = []
        for i in order[: query.k]:
            node = int(users[i])
            own = edges[src == node]
            lines = {line for e in own for line in g.edge_lines(int(e))}
            if i in firsts:
                lines |= file_lines.get(int(g.file_id[node]), set())
            # what this segment uses or implements, of the targets (each hit says which of two ``get_default``)
            reached = origin.get(node, set()) - {node} if implementations else set(g.dst[own].tolist())
            hits.append(
                self._hit(
                    node,
                    self._ordered(float(best[i]), node, i in firsts, bool(shipped[i]), bool(named[i])),
                    tuple(sorted(lines)),
                    f"{verb} {self._labels(query, reached) or names}",
                )
            )
        if len(users) > query.k:
            what = "implement or extend" if implementations else "use"
            notes.append(
                f"graph: truncated: {len(users)} segments{self._scope(query)} {what} {names}, showing {query.k}"
            )
        # a partition sees only its own users: only the single graph can say that nothing uses the targets
        if not len(users) and not g.partition and (implementations or not self._used_elsewhere(query, targets)):
            notes.append(
                f"graph: nothing in this index implements or extends {names}"
                if implementations
                else f"graph: nothing in this index uses {names}"
            )

        return ShardResult(hits=tuple(hits), total_matches=len(users), notes=tuple(notes))

    def _types_named(self, symbol: str, repos: tuple[str, ...], only: bool) -> list[int]:
        """The types (``CLASS_KINDS``) ``symbol`` names in another case than written (``Modality`` for
        "modality"), its qualifiers matching as ``_targets`` reads them; ``only``: none outside ``repos``."""
        g = self.graph
        parts = [p for p in symbol.split(".") if p]
        if not parts:
            return []
        wanted = set(repos) if only and repos else None
        return [
            int(n)
            for n in g.by_lower_name.get(parts[-1].lower(), ())
            if g.kind[n] in CLASS_KINDS
            and (wanted is None or g.repo[n] in wanted)
            and (len(parts) == 1 or _subsequence(parts[:-1], self._context(int(n))))
        ]

    def _extending_external(self, query: ModalityQuery, symbol: str) -> ShardResult | None:
        """The classes that name ``symbol``, a base no definition of the index answers (``Exception``,
        ``models.Model``, ``unittest.TestCase``), as their base, then their own subclasses (``INDIRECT_FACTOR`` a
        layer, as for a base the index defines): the shipped code's before a test's, then by centrality (in the
        score, so partitions merge in one order); None when no class of this part is one. A partition reaches its
        own subclasses of another partition's such class through that class's stub."""
        g = self.graph
        owned = self._owned(query)
        asked = re.split(QUALIFIER_SEPARATORS, symbol)
        named = {  # ``Model``: every base of that last name; ``models.Model``: those whose name ends so
            key: nodes for key, nodes in g.external_bases.items() if re.split(r"[./]", key)[-len(asked) :] == asked
        }
        written = {n: key for key, nodes in sorted(named.items()) for n in nodes}
        seeds = set(written)  # a stub among them: another partition's, a way to ours
        if not seeds:
            return None
        best = dict.fromkeys(seeds, 1.0)
        edges, factor, origin = self._implementing(sorted(seeds))
        for src, w in zip(g.src[edges].tolist(), (g.weight[edges] * factor * INDIRECT_FACTOR).tolist(), strict=True):
            best[src] = max(best.get(src, 0.0), float(w))
        nodes = [n for n in best if owned[n] and self._accept(query, n)]
        if not nodes:
            return None
        factors = self._secondary(np.array(nodes, dtype=np.int64)).tolist()
        scored = sorted(
            ((self._ordered(best[n] * f, n, shipped=True), n) for f, n in zip(factors, nodes, strict=True)),
            key=lambda sn: (-sn[0], g.path[sn[1]], g.start[sn[1]]),
        )

        def extends(n: int) -> str:
            if n in seeds:
                return f"extends {written[n]} (defined outside this index)"
            through = sorted(origin.get(n, ()), key=lambda o: written.get(o, ""))
            base = written.get(through[0], symbol) if through else symbol
            return f"extends {base} (defined outside this index) through {self._labels(query, through)}"

        hits = tuple(self._hit(n, score, (g.start[n],), extends(n)) for score, n in scored[: query.k])
        name = symbol if len(named) == 1 and symbol in named else f"{symbol} ({', '.join(sorted(named)[:5])})"
        notes = [f"graph: {name} is defined outside this index: the classes that name it as a base{self._scope(query)}"]
        if len(scored) > query.k:
            notes.append(
                f"graph: truncated: {len(scored)} classes{self._scope(query)} extend {symbol}, showing {query.k}"
            )
        return ShardResult(hits=hits, total_matches=len(scored), notes=tuple(notes))

    def _labels(self, query: ModalityQuery, nodes: Iterable[int]) -> str:
        """The first five of ``nodes``' names a snippet or a note shows, as the caller may see them."""
        return ", ".join(sorted({self._shown(query, int(n)) for n in nodes})[:5])

    def _implementing(self, targets: list[int]) -> tuple[IntArray, npt.NDArray[np.float64], dict[int, set[int]]]:
        """The inherit edges into ``targets`` and, layer by layer, into the types found (``Base64`` extends
        ``BaseNCodec``, which implements ``BinaryDecoder``, which extends ``Decoder``: Base64 implements
        Decoder), with each edge's factor: ``INDIRECT_FACTOR`` per layer past the first, times the weight of the way
        from the type it enters to the target (a subclass of a class that satisfies a Go interface or a Python
        protocol by its methods' names, 0.9, comes after that class, not beside it); and each type found with the
        targets it implements (``Base64``: ``Decoder``, not every type asked for)."""
        g = self.graph
        seen = set(targets)
        frontier = list(targets)
        reach = dict.fromkeys(targets, 1.0)  # a type found -> the weight of its best way to a target
        origin = {t: {t} for t in targets}  # a type found -> the targets it implements
        found: list[IntArray] = []
        factors: list[npt.NDArray[np.float64]] = []
        for layer in range(MAX_IMPLEMENTATION_LAYERS):
            if not frontier:
                break
            edges = np.concatenate([g.incoming(t) for t in frontier])
            edges = edges[g.edge_kind[edges] == INHERIT]
            found.append(edges)
            way = np.array([reach[int(d)] for d in g.dst[edges].tolist()], dtype=np.float64)
            factors.append(INDIRECT_FACTOR**layer * way)
            for src, dst, w in zip(
                g.src[edges].tolist(), g.dst[edges].tolist(), (g.weight[edges] * way).tolist(), strict=True
            ):
                if src not in seen:
                    reach[src] = max(reach.get(src, 0.0), float(w))
                origin.setdefault(src, set()).update(origin[dst] - {src})
            frontier = [n for n in dict.fromkeys(g.src[edges].tolist()) if n not in seen]
            seen.update(frontier)
        if not found:
            return np.zeros(0, dtype=np.int64), np.zeros(0), origin
        return np.concatenate(found), np.concatenate(factors), origin

    def _secondary(self, nodes: IntArray) -> npt.NDArray[np.float64]:
        """Per implementing node, the factor on its evidence: the types that ship before a test's or an
        example's stub (``paths.is_auxiliary``: ``AUXILIARY_FACTOR``), and concrete types before an interface
        that embeds the target (``ABSTRACT_FACTOR``: it implements it only through its own implementations)."""
        g = self.graph
        auxiliary = self._auxiliary[nodes]
        return np.array(
            [
                (AUXILIARY_FACTOR if aux else 1.0) * (ABSTRACT_FACTOR if g.kind[n] in ABSTRACT_KINDS else 1.0)
                for n, aux in zip(nodes.tolist(), auxiliary.tolist(), strict=True)
            ]
        )

    def _used_elsewhere(self, query: ModalityQuery, targets: list[int]) -> bool:
        """Whether code anywhere (only in ``query.repos`` under ``SCOPE_OPTION``) uses ``targets``."""
        g = self.graph
        if not _only(query):
            return bool(float(g.degree[targets].sum()))
        wanted = set(query.repos)
        for t in targets:
            edges = g.incoming(t)
            for e, src in zip(edges, g.src[edges], strict=True):
                if int(g.edge_kind[e]) in USAGE_KINDS and g.repo[int(src)] in wanted:
                    return True
        return False

    def _callees(self, query: ModalityQuery, targets: list[int], notes: list[str]) -> ShardResult:
        g = self.graph
        sources: list[int] = []
        stack = list(targets)
        while stack:  # the definition and everything nested in it
            node = stack.pop()
            sources.append(node)
            stack.extend(
                c
                for c in g.children.get(node, ())
                # a function's are what its body holds: a JavaScript constructor function's methods, attached to it
                # from outside (``Mocha.prototype.run = function``), are no part of what ``Mocha`` calls
                if g.kind[node] in CLASS_KINDS or g.start[node] <= g.start[c] <= g.end[node]
            )
        # what the question is about and, for a class, its members: no callees of their own. A function's nested
        # helpers are (``function jsonStringify(o) { function _stringify(v) {…} … _stringify(o) }``): it calls them
        inside = set(sources) if any(g.kind[t] in CLASS_KINDS for t in targets) else set(targets)
        # what the definition's own body (a class's: its members' bodies) calls comes before what only a nested
        # helper does: "what does wrapAsync call" is _resolve and _reject, which it passes on, before done, which
        # they call
        own = set(targets) | {m for t in targets if g.kind[t] in CLASS_KINDS for m in g.children.get(t, ())}
        best: dict[int, float] = {}
        sites: dict[int, set[tuple[str, int]]] = {}
        for src in sources:
            for edge in g.outgoing(src):
                kind = int(g.edge_kind[edge])
                dst = int(g.dst[edge])
                if kind not in USAGE_KINDS or dst in inside or not self._accept(query, dst, stub=True):
                    continue
                # a call of a function, a method or a value holding one (a variable, a field) is a callee;
                # constructing a type or an enum's variant (``Err(GlobError {..})``, ``Kind::Open(..)``) or
                # expanding a macro is a use of it, listed with the names the body reads
                called = kind == CALL and g.kind[dst] not in _CONSTRUCTED_KINDS
                factor = (1.0 if called else REFERENCE_FACTOR) * (1.0 if src in own else NESTED_FACTOR)
                best[dst] = max(best.get(dst, 0.0), float(g.weight[edge]) * factor)
                sites.setdefault(dst, set()).update((g.path[src], line) for line in g.edge_lines(int(edge)))
        # the functions and methods (and C#'s properties) first, whatever the evidence: asked what X calls, a method
        # called on a local whose type is not read (``xn.isLeaf()``, a share of the evidence) or a function passed as
        # a value (``return run``) is what the asker wants before the types and fields the body reads. The score says so
        # (1 + the evidence for a function or a method), so that partitions' lists merge in this order; centrality
        # only chooses which callees a truncated answer keeps (as the order of ties it lost callee questions in Rust)
        ranked = sorted(
            best,
            key=lambda n: (g.kind[n] not in _RUNS_CODE, -best[n], -float(g.centrality[n]), g.path[n], g.start[n]),
        )
        hits = tuple(
            self._hit(
                n,
                best[n] + (1.0 if g.kind[n] in _RUNS_CODE else 0.0),
                (),
                "used at " + ", ".join(f"{p}:{ln}" for p, ln in sorted(sites[n])[:5]),
            )
            for n in ranked[: query.k]
        )
        if len(ranked) > query.k:
            notes.append(f"graph: truncated: {len(ranked)} callees{self._scope(query)}, showing {query.k}")
        return ShardResult(hits=hits, total_matches=len(ranked), notes=tuple(notes))

    def _impact(
        self, query: ModalityQuery, question: GraphQuestion, targets: list[int], notes: list[str]
    ) -> ShardResult:
        """Dependents within ``question.depth``, walked layer by layer over reverse usage edges.

        A node is followed at the shortest distance a followed edge (weight >= MIN_FOLLOW_WEIGHT,
        from a followed node, into a definition) reaches it, with the best confidence at that
        distance; it is reported at the shortest distance any edge from a followed node reaches it.
        """
        g = self.graph
        start = self._with_members(targets)
        origin = set(start)
        # a class target's member -> that class: a member using a sibling is the class itself (using the class
        # by name, as a factory building one does, it depends on it)
        within = {m: t for t in targets if g.kind[t] in CLASS_KINDS for m in g.children.get(t, ())}
        seeds = _seeds(query.options.get(SEEDS_OPTION), self._index, question.depth)
        layers: dict[int, dict[int, float]] = defaultdict(dict)  # distance -> node -> confidence followed with
        # round one: every target this partition holds, its own or a stub (users of a stub live here);
        # later rounds: the stubs among the seeds (the owner of a seed walked its users already)
        owned = self._owned(query)  # a dead repository's nodes are stubs here
        named = set(targets)
        initial = (
            ((t, 0, 1.0 if t in named else MEMBER_FACTOR) for t in start)
            if seeds is None
            else ((n, d, c) for n, d, c in seeds if not owned[n])
        )
        for node, distance, confidence in initial:
            layers[distance][node] = max(layers[distance].get(node, 0.0), confidence)
        # an edge into the named definitions: its user's edges of its kind into its overload set summed (``_pooled``)
        pooled: dict[int, float] = {}
        if seeds is None and named:
            into = np.concatenate([g.incoming(t) for t in named])
            into = into[np.isin(g.edge_kind[into], USAGE_KINDS)]
            pooled = dict(zip(into.tolist(), _pooled(g, into, list(named)).tolist(), strict=True))
        followed: set[int] = set()
        found: dict[int, _Found] = {}
        handoff: dict[int, tuple[int, float]] = {}  # own node followed -> (distance, confidence)
        truncated = False
        for distance in range(question.depth):
            layer = layers.pop(distance, {})
            for node in sorted(layer):
                if truncated:
                    break
                if node in followed:
                    continue
                followed.add(node)
                confidence = layer[node]
                if owned[node] and node not in origin:  # its users elsewhere are in their own partitions
                    handoff[node] = (distance, confidence)
                for edge in g.incoming(node):
                    if int(g.edge_kind[edge]) not in USAGE_KINDS:
                        continue
                    src = int(g.src[edge])
                    if self._hidden(query, src) or not owned[src]:
                        continue  # the caller's world has no such code; or another partition's
                    if src in origin and (distance > 0 or src == node or within.get(src, -1) == within.get(node, -2)):
                        continue  # a target is reported only when it uses another target (an override calling super)
                    weight = float(g.weight[edge])
                    if distance == 0 and node in named and src not in origin:
                        weight = pooled.get(int(edge), weight)
                    conf = confidence * weight
                    overload = src in origin and g.symbol[src] == g.symbol[node]
                    shown = conf * OVERLOAD_FACTOR if overload else conf
                    if self._example[src]:  # an example of its use, after the code and tests that ship
                        shown *= AUXILIARY_FACTOR
                    _reach(found, _Found(src, distance + 1, shown, g.edge_lines(int(edge)), node), g.ids)
                    if (
                        weight >= MIN_FOLLOW_WEIGHT
                        and g.symbol[src] is not None
                        and src not in origin
                        and src not in followed
                    ):
                        after = layers[distance + 1]
                        after[src] = max(after.get(src, 0.0), conf)
                    if len(found) >= MAX_IMPACT_NODES:
                        truncated = True
                        break
        accepted = [f for f in found.values() if self._accept(query, f.node)]
        accepted.sort(
            key=lambda f: (
                f.distance,
                -round(f.confidence, 1),
                -float(g.centrality[f.node]),
                -f.confidence,
                g.path[f.node],
                g.start[f.node],
            )
        )
        hits = tuple(
            self._hit(
                f.node,
                self._ordered(impact_score(f.distance, f.confidence), f.node),
                f.lines,
                f"distance {f.distance}: uses {self._shown(query, f.via)}",
            )
            for f in accepted[: query.k]
        )
        if truncated:
            notes.append(
                f"graph: truncated: the blast radius passed {MAX_IMPACT_NODES} dependents{self._scope(query)}; "
                f"lower depth (now {question.depth}) or name a narrower symbol"
            )
        elif len(accepted) > query.k:
            notes.append(
                f"graph: truncated: {len(accepted)} dependents{self._scope(query)} within depth {question.depth}, "
                f"showing {query.k}"
            )
        follow_ups: tuple[FollowUp, ...] = ()
        if handoff and g.partition:  # every partition holding a followed node as a stub walks on from it
            seeds_out = [[g.ids[n], d, c] for n, (d, c) in sorted(handoff.items(), key=lambda item: g.ids[item[0]])]
            follow_ups = (FollowUp((), {SEEDS_OPTION: json.dumps(seeds_out, separators=(",", ":"))}),)
        return ShardResult(hits=hits, total_matches=len(accepted), notes=tuple(notes), follow_ups=follow_ups)

    def _path(
        self, query: ModalityQuery, question: GraphQuestion, sources: list[int], ends: list[int], notes: list[str]
    ) -> ShardResult:
        """The lexicographically first shortest dependency path (nested code costs nothing)."""
        g = self.graph
        goal = set(self._with_members(ends))
        state = _path_state(query.options.get(PATH_OPTION))
        if state is None:
            start: dict[str, tuple[int, Chain]] = {g.ids[s]: (0, ((g.ids[s], ()),)) for s in sources}
            state = _PathState(start, None, {}, {g.ids[s]: self._describe(s) for s in sources})
        if not state.pending:
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))
        owned = self._owned(query)
        first = self._index.get(min(state.pending, key=lambda n: _label(*state.pending[n])))
        if first is None or not owned[first]:
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))  # another partition holds the search
        best = state.best
        done = dict(state.done)
        described = dict(state.nodes)
        heap: list[tuple[Label, int, Chain]] = []
        rest: dict[str, tuple[int, Chain]] = {}
        for key, (distance, chain) in state.pending.items():
            node = self._index.get(key)
            if node is None or not owned[node]:
                rest[key] = (distance, chain)
            elif distance <= done.get(key, distance):
                done[key] = distance
                heap.append((_label(distance, chain), node, chain))
        heapq.heapify(heap)
        tentative = {node: label for label, node, _ in heap}
        settled: set[int] = set()
        while heap and len(settled) < MAX_PATH_NODES:
            label, node, chain = heapq.heappop(heap)
            if best is not None and label >= _label(*best):
                break
            if node in settled:
                continue
            settled.add(node)
            if node in goal and (label[0] > 0 or node in sources):
                best = (label[0], chain)
                break  # every path left on the heap is larger
            steps = [
                (int(g.dst[e]), label[0] + 1, g.edge_lines(int(e)))
                for e in g.outgoing(node)
                if int(g.edge_kind[e]) in USAGE_KINDS and float(g.weight[e]) >= MIN_FOLLOW_WEIGHT
            ]
            steps += [
                (child, label[0], ()) for child in g.children.get(node, ())
            ]  # a definition reaches what its nested code uses
            for nxt, distance, lines in steps:
                if nxt in settled or self._hidden(query, nxt):
                    continue
                key = g.ids[nxt]
                longer = (*chain, (key, lines))
                new = _label(distance, longer)
                if key not in described:
                    described[key] = self._describe(nxt)
                if owned[nxt]:
                    if nxt not in tentative or new < tentative[nxt]:
                        tentative[nxt] = new
                        heapq.heappush(heap, (new, nxt, longer))
                elif distance <= done.get(key, distance) and (key not in rest or new < _label(*rest[key])):
                    rest[key] = (distance, longer)
        truncated = len(settled) >= MAX_PATH_NODES
        pending = {n: v for n, v in rest.items() if best is None or _label(*v) < _label(*best)}
        if pending and not truncated:
            holder = described[min(pending, key=lambda n: _label(*pending[n]))][0]
            chains = [c for _, c in pending.values()] + ([best[1]] if best is not None else [])
            encoded = {
                "pending": [[n, d, _chain_json(c)] for n, (d, c) in sorted(pending.items())],
                "best": None if best is None else [best[0], _chain_json(best[1])],
                "done": sorted([n, d] for n, d in done.items()),
                "nodes": {n: described[n] for c in chains for n, _ in c},
            }
            follow = FollowUp((holder,), {PATH_OPTION: json.dumps(encoded, separators=(",", ":"))})
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes), follow_ups=(follow,))
        if best is None:
            notes.append(
                f"graph: no dependency path from {question.symbol} to {question.target}"
                + (" (search truncated)" if truncated else "")
            )
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))
        path = [(n, lines) for n, lines in best[1] if described[n][5] != "module"]
        # each step's lines are where it uses the next step
        hits = []
        for i, (n, _) in enumerate(path):
            lines = path[i + 1][1] if i + 1 < len(path) else ()
            hits.append(_described_hit(n, described[n], 1.0 / (i + 1), lines, f"path step {i + 1} of {len(path)}"))
        notes.append("graph: path " + " -> ".join(self._shown_described(query, described[n]) for n, _ in path))
        return ShardResult(hits=tuple(hits), total_matches=len(hits), notes=tuple(notes))

    def _describe(self, node: int) -> Described:
        g = self.graph
        return [
            g.repo[node],
            g.path[node],
            g.start[node],
            g.end[node],
            g.symbol[node],
            g.kind[node],
            g.language[node],
            float(g.centrality[node]),
            self._label(node),
        ]

    def _shown_described(self, query: ModalityQuery, d: Described) -> str:
        """``_shown`` for a node described by another partition."""
        return "(a definition in another repository)" if query.repos and d[0] not in query.repos else str(d[8])

    def _definitions(self, query: ModalityQuery, targets: list[int], notes: list[str]) -> ShardResult:
        g = self.graph
        accepted = [t for t in targets if self._accept(query, t)]
        accepted.sort(key=lambda n: (-float(g.centrality[n]), g.path[n], g.start[n]))
        hits = tuple(self._hit(n, 1.0, (g.start[n],), "definition, by centrality") for n in accepted[: query.k])
        return ShardResult(hits=hits, total_matches=len(accepted), notes=tuple(notes))


def _getters_over_fields(g: Graph, nodes: list[int]) -> list[int]:
    """``nodes`` without the Rust fields a function of theirs is named after: Rust names a getter as its
    field (``fn path(&self) -> &Path { &self.path }``), and asked about ``path`` the getter is meant, not
    the field, whose readers are the getter itself and its type's other methods."""
    if not any(g.language[n] == "rust" and g.kind[n] in _CALLABLE_KINDS for n in nodes):
        return nodes
    return [n for n in nodes if not (g.language[n] == "rust" and g.kind[n] == "field")]


def _subsequence(needle: list[str], haystack: list[str]) -> bool:
    """Whether ``needle`` appears in ``haystack`` in order (not necessarily adjacent)."""
    it = iter(haystack)
    return all(any(part == h for h in it) for part in needle)


def _pooled(g: Graph, edges: IntArray, targets: Sequence[int]) -> npt.NDArray[np.float64]:
    """The weight of each of ``edges`` (each into one of ``targets``), or, where more, the weights of its user's edges
    of its kind into the overloads of its target's name in its target's scope (a class, or a file's top level) summed,
    capped at 1. A call the graph could not tell between ``XMLDocument::LoadFile(const char*)`` and
    ``LoadFile(FILE*)`` is half each one's, and surely the name's; an import naming every overload is still an
    import. One sort of packed integer keys: 200,000 edges into one overload set take about 15 ms."""
    weight = g.weight[edges].astype(np.float64)
    named = np.unique(np.asarray(targets, dtype=np.int64))
    scope = [(int(g.parent[n]) if g.parent[n] >= 0 else -2 - int(g.file_id[n]), g.symbol[n]) for n in named.tolist()]
    numbered = {key: i for i, key in enumerate(dict.fromkeys(scope))}
    if len(numbered) == len(named) or not len(edges):  # no two definitions in one overload set
        return weight
    overload = np.array([numbered[key] for key in scope], dtype=np.int64)[np.searchsorted(named, g.dst[edges])]
    kinds = g.edge_kind[edges].astype(np.int64)
    key = (g.src[edges].astype(np.int64) * len(numbered) + overload) * (int(kinds.max()) + 1) + kinds
    groups, group_of = np.unique(key, return_inverse=True)
    summed = np.zeros(len(groups))
    np.add.at(summed, group_of.ravel(), weight)
    return np.maximum(weight, np.minimum(summed, 1.0)[group_of.ravel()])


def _reach(found: dict[int, _Found], new: _Found, ids: list[str]) -> None:
    """Keep a dependent's shortest distance, the best confidence at it, and on a tie every line
    (and the node it uses with the smallest id, the same in every partition)."""
    old = found.get(new.node)
    if old is None or (new.distance, -new.confidence) < (old.distance, -old.confidence):
        found[new.node] = new
    elif (new.distance, new.confidence) == (old.distance, old.confidence):
        found[new.node] = _Found(
            new.node,
            new.distance,
            new.confidence,
            tuple(sorted({*old.lines, *new.lines})),
            min(old.via, new.via, key=ids.__getitem__),
        )


def _bad(option: str, raw: str, why: str) -> InvalidQuery:
    return InvalidQuery(
        f"graph option {option}={raw[:80]!r} is malformed ({why}); it is set by the coordinator "
        f"between rounds: leave it out of a query"
    )


def _seeds(raw: str | None, index: Mapping[str, int], depth: int) -> list[tuple[int, int, float]] | None:
    """The impact seeds in ``raw`` that this partition holds (None when the option is absent);
    malformed seeds are ``InvalidQuery``."""
    if raw is None:
        return None
    try:
        items = json.loads(raw)
    except ValueError:
        raise _bad(SEEDS_OPTION, raw, "not JSON") from None
    if not isinstance(items, list):
        raise _bad(SEEDS_OPTION, raw, "not a list")
    out = []
    for item in items:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and type(item[1]) is int
            and 0 <= item[1] < depth
            and type(item[2]) in (int, float)
            and 0 < item[2] <= 1
        ):
            raise _bad(SEEDS_OPTION, raw, f"seed {item!r} is not [node id, distance < depth, confidence in (0, 1]]")
        node = index.get(item[0])
        if node is not None:
            out.append((node, item[1], float(item[2])))
    return out


def _chain_json(chain: Chain) -> list[list[Any]]:
    """A path as ``graph.path_state`` carries it: ``[[node id, [lines...]], ...]`` (read back by ``_chain``)."""
    return [[node, list(lines)] for node, lines in chain]


def _chain(value: Any) -> Chain | None:
    if not isinstance(value, list) or not value:
        return None
    steps = []
    for step in value:
        if not (
            isinstance(step, list)
            and len(step) == 2
            and isinstance(step[0], str)
            and isinstance(step[1], list)
            and all(type(x) is int for x in step[1])
        ):
            return None
        steps.append((step[0], tuple(step[1])))
    return tuple(steps)


def _described(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 9
        and all(isinstance(value[i], str) for i in (0, 1, 6))
        and all(type(value[i]) is int for i in (2, 3))
        and type(value[7]) in (int, float)
    )


def _path_state(raw: str | None) -> _PathState | None:
    """The path search state in ``raw`` (None when the option is absent); a malformed one is ``InvalidQuery``."""
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        raise _bad(PATH_OPTION, raw, "not JSON") from None
    if not isinstance(value, dict) or set(value) != {"pending", "best", "done", "nodes"}:
        raise _bad(PATH_OPTION, raw, "not an object with pending, best, done and nodes")
    nodes = value["nodes"]
    if not isinstance(nodes, dict) or not all(_described(d) for d in nodes.values()):
        raise _bad(PATH_OPTION, raw, "nodes is not {node id: [repository, path, start, end, ...]}")
    pending: dict[str, tuple[int, Chain]] = {}
    for item in value["pending"] if isinstance(value["pending"], list) else [None]:
        chain = _chain(item[2]) if isinstance(item, list) and len(item) == 3 else None
        if (
            chain is None
            or item is None
            or not isinstance(item[0], str)
            or type(item[1]) is not int
            or chain[-1][0] != item[0]
            or any(n not in nodes for n, _ in chain)
        ):
            raise _bad(PATH_OPTION, raw, f"pending entry {item!r} is not [node id, length, steps ending at it]")
        pending[item[0]] = (item[1], chain)
    best = None
    if value["best"] is not None:
        chain = _chain(value["best"][1]) if isinstance(value["best"], list) and len(value["best"]) == 2 else None
        if chain is None or type(value["best"][0]) is not int or any(n not in nodes for n, _ in chain):
            raise _bad(PATH_OPTION, raw, "best is not [length, steps]")
        best = (value["best"][0], chain)
    done = value["done"]
    if not isinstance(done, list) or not all(
        isinstance(d, list) and len(d) == 2 and isinstance(d[0], str) and type(d[1]) is int for d in done
    ):
        raise _bad(PATH_OPTION, raw, "done is not [[node id, length], ...]")
    return _PathState(pending, best, {d[0]: d[1] for d in done}, dict(nodes))
