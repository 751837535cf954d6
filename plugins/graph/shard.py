"""Answer graph questions over a loaded graph: callers, references, callees, impact, paths.

Every answer is bounded: callers list every caller in ``total_matches`` but return ``k``;
impact stops after ``MAX_IMPACT_NODES`` dependents; a path search after ``MAX_PATH_NODES``
nodes. A bound that cut an answer says so in the notes (``truncated``). Cycles cannot loop:
every walk keeps a visited set.
"""

from __future__ import annotations

import difflib
import fnmatch
import heapq
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fourfold.plugins.graph.query import GraphQuestion, parse_query
from fourfold.plugins.graph.resolve import CALL, CLASS_KINDS
from fourfold.plugins.graph.store import USAGE_KINDS, Graph, load_graph
from fourfold.plugins.types import Hit, ModalityQuery, ShardResult

__all__ = ["MAX_IMPACT_NODES", "GraphShard"]

#: The most dependents an impact walk visits before it stops and says it was truncated.
MAX_IMPACT_NODES = 5000
#: The most nodes a path search visits.
MAX_PATH_NODES = 200_000
#: Edges weaker than this (a member name with many candidate definitions) are reported as direct
#: dependents but not followed further: chaining guesses would flood the blast radius.
MIN_FOLLOW_WEIGHT = 0.3
#: A plain reference (not a call) ranks a little below a call site of the same confidence.
REFERENCE_FACTOR = 0.9


@dataclass(frozen=True, slots=True)
class _Found:
    """A dependent found by the impact walk."""

    node: int
    distance: int
    confidence: float
    lines: tuple[int, ...]
    via: int


class GraphShard:
    """A loaded graph shard; read-only, so safe for concurrent ``search`` calls."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        names = sorted(graph.by_name)
        self._names = names

    @classmethod
    def open(cls, shard_dir: Path) -> GraphShard:
        return cls(load_graph(shard_dir))

    def close(self) -> None:
        """Nothing to release: the graph lives in memory and is dropped with the shard."""

    # --- entry point --------------------------------------------------------------------------

    def search(self, query: ModalityQuery) -> ShardResult:
        question = parse_query(query.text, query.intent, query.options)
        if question is None:
            return ShardResult(hits=(), total_matches=0, notes=(
                "graph: the query asks no graph question (callers, callees, references, impact, path); "
                "ask e.g. 'who calls NAME' or 'impact of changing NAME'",))
        targets, notes = self._targets(question.symbol)
        if not targets:
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))
        if question.relation == "path":
            ends, end_notes = self._targets(question.target)
            notes += end_notes
            if not ends:
                return ShardResult(hits=(), total_matches=0, notes=tuple(notes))
            return self._path(query, question, targets, ends, notes)
        if question.relation in ("callers", "references"):
            return self._callers(query, question, targets, notes)
        if question.relation == "callees":
            return self._callees(query, targets, notes)
        if question.relation == "impact":
            return self._impact(query, question, targets, notes)
        return self._definitions(query, targets, notes)

    # --- symbols ------------------------------------------------------------------------------

    def _targets(self, symbol: str) -> tuple[list[int], list[str]]:
        """Nodes ``symbol`` names (``name``, ``Class.name``, ``package.module.name``, a module)."""
        g = self.graph
        parts = [p for p in symbol.split(".") if p]
        if not parts:
            return [], [f"graph: {symbol!r} is not a symbol name"]
        last = parts[-1]
        candidates = list(g.by_name.get(last, ())) or list(g.by_lower_name.get(last.lower(), ()))
        if len(parts) > 1:
            qualified = [n for n in candidates if _subsequence(parts[:-1], self._context(n))]
            if qualified:
                return qualified, []
            modules = [n for n, key in g.module_keys.items() if key == symbol or key.endswith("." + symbol)
                       or key.endswith("/" + symbol.replace(".", "/"))]
            if modules:
                return modules, []
            if candidates:
                return candidates, [f"graph: no definition matches {symbol!r} exactly; answering for every {last!r}"]
        elif candidates:
            return candidates, []
        else:
            modules = [n for n, key in g.module_keys.items() if key.rsplit(".", 1)[-1].rsplit("/", 1)[-1] == symbol]
            if modules:
                return modules, []
        near = difflib.get_close_matches(last, self._names, n=5, cutoff=0.75)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        return [], [f"graph: no definition named {symbol!r} in this index{hint}"]

    def _context(self, node: int) -> list[str]:
        """The names that qualify ``node``: its module's dotted key, then enclosing definitions."""
        g = self.graph
        path = g.path[node]
        stem = path.rsplit(".", 1)[0].replace("/", ".")
        qualified = (g.qualified_name[node] or g.symbol[node] or "").replace("::", ".")
        return [g.repo[node], *stem.split("."), *qualified.split(".")[:-1]]

    # --- hits ---------------------------------------------------------------------------------

    def _accept(self, query: ModalityQuery, node: int) -> bool:
        g = self.graph
        if g.is_module(node):
            return False
        if query.repos and g.repo[node] not in query.repos:
            return False
        if query.languages and g.language[node] not in query.languages:
            return False
        return not (query.path_glob and not fnmatch.fnmatch(g.path[node], query.path_glob))

    def _hit(self, node: int, score: float, lines: tuple[int, ...] = (), snippet: str = "") -> Hit:
        g = self.graph
        return Hit(segment_id=g.ids[node], repo=g.repo[node], path=g.path[node], start_line=g.start[node],
                   end_line=g.end[node], score=round(score, 6), symbol=g.symbol[node], kind=g.kind[node],
                   language=g.language[node], match_lines=lines, centrality=float(g.centrality[node]),
                   snippet=snippet)

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

    def _callers(self, query: ModalityQuery, question: GraphQuestion, targets: list[int],
                 notes: list[str]) -> ShardResult:
        """Every segment using a target, best evidence first; vectorised, so a hub of 50k callers stays fast."""
        g = self.graph
        edges = np.concatenate([g.incoming(t) for t in targets])
        kinds = g.edge_kind[edges]
        src = g.src[edges]
        keep = np.isin(kinds, USAGE_KINDS)
        if question.relation == "callers":  # a target reached from another target only by a call
            keep &= ~(np.isin(src, targets) & (kinds != CALL))
        edges, kinds, src = edges[keep], kinds[keep], src[keep]
        factor = np.where((kinds == CALL) | (question.relation == "references"), 1.0, REFERENCE_FACTOR)
        users, which = np.unique(src, return_inverse=True)
        best = np.zeros(len(users))
        np.maximum.at(best, which, g.weight[edges].astype(np.float64) * factor)
        accepted = ~g.module[users]
        if query.repos or query.languages or query.path_glob:
            accepted &= np.array([self._accept(query, int(n)) for n in users], dtype=bool)
        users, best = users[accepted], best[accepted]
        # by evidence, centrality, path, line; then, within a confidence tier (one decimal), one
        # segment per file first: the top k then spans more files
        order = np.lexsort((g.starts[users], g.path_rank[users],
                            -g.centrality[users], -best))
        values, tier_of = np.unique(best, return_inverse=True)
        tier = np.array([round(float(v), 1) for v in values])[tier_of]
        first = np.zeros(len(order), dtype=bool)
        first[np.unique(g.file_id[users[order]], return_index=True)[1]] = True
        order = order[np.lexsort((~first, -tier[order]))]
        names = ", ".join(sorted({self._label(t) for t in targets})[:5])
        hits = []
        for i in order[: query.k]:
            node = int(users[i])
            lines = sorted({line for e in edges[src == node] for line in g.edge_lines(int(e))})
            hits.append(self._hit(node, float(best[i]), tuple(lines), f"uses {names}"))
        if len(users) > query.k:
            notes.append(f"graph: truncated: {len(users)} segments use {names}, showing {query.k}")
        if not len(users):
            notes.append(f"graph: nothing in this index uses {names}")
        return ShardResult(hits=tuple(hits), total_matches=len(users), notes=tuple(notes))

    def _callees(self, query: ModalityQuery, targets: list[int], notes: list[str]) -> ShardResult:
        g = self.graph
        sources: list[int] = []
        stack = list(targets)
        while stack:  # the definition and everything nested in it
            node = stack.pop()
            sources.append(node)
            stack.extend(g.children.get(node, ()))
        inside = set(sources)
        best: dict[int, float] = {}
        sites: dict[int, set[tuple[str, int]]] = {}
        for src in sources:
            for edge in g.outgoing(src):
                kind = int(g.edge_kind[edge])
                dst = int(g.dst[edge])
                if kind not in USAGE_KINDS or dst in inside or not self._accept(query, dst):
                    continue
                factor = 1.0 if kind == CALL else REFERENCE_FACTOR
                best[dst] = max(best.get(dst, 0.0), float(g.weight[edge]) * factor)
                sites.setdefault(dst, set()).update((g.path[src], line) for line in g.edge_lines(int(edge)))
        ranked = sorted(best, key=lambda n: (-best[n], -float(g.centrality[n]), g.path[n], g.start[n]))
        hits = tuple(self._hit(n, best[n], (), "used at " + ", ".join(f"{p}:{ln}" for p, ln in sorted(sites[n])[:5]))
                     for n in ranked[: query.k])
        if len(ranked) > query.k:
            notes.append(f"graph: truncated: {len(ranked)} callees, showing {query.k}")
        return ShardResult(hits=hits, total_matches=len(ranked), notes=tuple(notes))

    def _impact(self, query: ModalityQuery, question: GraphQuestion, targets: list[int],
                notes: list[str]) -> ShardResult:
        g = self.graph
        start = self._with_members(targets)
        origin = set(start)
        seen: set[int] = set()
        found: dict[int, _Found] = {}
        frontier: deque[tuple[int, int, float]] = deque((t, 0, 1.0) for t in start)
        truncated = False
        while frontier and not truncated:
            node, distance, confidence = frontier.popleft()
            if distance >= question.depth:
                continue
            for edge in g.incoming(node):
                if int(g.edge_kind[edge]) not in USAGE_KINDS:
                    continue
                src = int(g.src[edge])
                if src in origin and (distance > 0 or src == node):
                    continue  # a target is reported only when it uses another target (an override calling super)
                weight = float(g.weight[edge])
                conf = confidence * weight
                previous = found.get(src)
                if previous is not None and previous.distance == distance + 1 and previous.confidence < conf:
                    found[src] = _Found(src, distance + 1, conf, g.edge_lines(int(edge)), node)
                if src in seen:
                    continue
                seen.add(src)
                found[src] = _Found(src, distance + 1, conf, g.edge_lines(int(edge)), node)
                if len(found) >= MAX_IMPACT_NODES:
                    truncated = True
                    break
                if weight >= MIN_FOLLOW_WEIGHT and g.symbol[src] is not None:
                    frontier.append((src, distance + 1, conf))
        accepted = [f for f in found.values() if self._accept(query, f.node)]
        accepted.sort(key=lambda f: (f.distance, -round(f.confidence, 1), -float(g.centrality[f.node]),
                                     -f.confidence, g.path[f.node], g.start[f.node]))
        hits = tuple(self._hit(f.node, f.confidence / f.distance, f.lines,
                               f"distance {f.distance}: uses {self._label(f.via)}") for f in accepted[: query.k])
        if truncated:
            notes.append(f"graph: truncated: the blast radius passed {MAX_IMPACT_NODES} dependents; "
                         f"lower depth (now {question.depth}) or name a narrower symbol")
        elif len(accepted) > query.k:
            notes.append(f"graph: truncated: {len(accepted)} dependents within depth {question.depth}, "
                         f"showing {query.k}")
        return ShardResult(hits=hits, total_matches=len(accepted), notes=tuple(notes))

    def _path(self, query: ModalityQuery, question: GraphQuestion, sources: list[int], ends: list[int],
              notes: list[str]) -> ShardResult:
        g = self.graph
        goal = set(self._with_members(ends))
        previous: dict[int, tuple[int, int]] = {}  # node -> (node before it, edge)
        heap: list[tuple[int, int]] = [(0, s) for s in sources]
        seen = set(sources)
        reached = -1
        while heap and len(seen) < MAX_PATH_NODES:
            distance, node = heapq.heappop(heap)
            if node in goal and distance > 0 or (node in goal and node in sources):
                reached = node
                break
            for edge in g.outgoing(node):
                dst = int(g.dst[edge])
                if int(g.edge_kind[edge]) in USAGE_KINDS and float(g.weight[edge]) >= MIN_FOLLOW_WEIGHT \
                        and dst not in seen:
                    seen.add(dst)
                    previous[dst] = (node, int(edge))
                    heapq.heappush(heap, (distance + 1, dst))
            for child in g.children.get(node, ()):  # a definition reaches what its nested code uses
                if child not in seen:
                    seen.add(child)
                    previous[child] = (node, -1)
                    heapq.heappush(heap, (distance, child))
        if reached < 0:
            notes.append(f"graph: no dependency path from {question.symbol} to {question.target}"
                         + (" (search truncated)" if len(seen) >= MAX_PATH_NODES else ""))
            return ShardResult(hits=(), total_matches=0, notes=tuple(notes))
        chain: list[tuple[int, tuple[int, ...]]] = []  # (node, lines where the step before uses it)
        node = reached
        while node in previous:
            before, edge = previous[node]
            chain.append((node, g.edge_lines(edge) if edge >= 0 else ()))
            node = before
        chain.append((node, ()))
        chain.reverse()
        steps = [(n, lines) for n, lines in chain if not g.is_module(n)]
        # each step's lines are where it uses the next step
        hits = []
        for i, (n, _) in enumerate(steps):
            lines = steps[i + 1][1] if i + 1 < len(steps) else ()
            hits.append(self._hit(n, 1.0 / (i + 1), lines, f"path step {i + 1} of {len(steps)}"))
        notes.append("graph: path " + " -> ".join(self._label(n) for n, _ in steps))
        return ShardResult(hits=tuple(hits[: max(query.k, len(hits))]), total_matches=len(hits), notes=tuple(notes))

    def _definitions(self, query: ModalityQuery, targets: list[int], notes: list[str]) -> ShardResult:
        g = self.graph
        accepted = [t for t in targets if self._accept(query, t)]
        accepted.sort(key=lambda n: (-float(g.centrality[n]), g.path[n], g.start[n]))
        hits = tuple(self._hit(n, 1.0, (g.start[n],), "definition, by centrality") for n in accepted[: query.k])
        return ShardResult(hits=hits, total_matches=len(accepted), notes=tuple(notes))


def _subsequence(needle: list[str], haystack: list[str]) -> bool:
    """Whether ``needle`` appears in ``haystack`` in order (not necessarily adjacent)."""
    it = iter(haystack)
    return all(any(part == h for h in it) for part in needle)

