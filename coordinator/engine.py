"""The coordinator's core: validate → classify → plan → fan out → fuse → answer.

Stateless apart from caches: the live generation comes from the index store, the endpoints from
Ray's named actors, so several coordinators can serve one cluster and a restarted one needs no
rebuild.
"""

from __future__ import annotations

import asyncio
import fnmatch
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from fourfold.coordinator import intent as intent_mod
from fourfold.coordinator import metrics, refusal, rerank
from fourfold.coordinator.fanout import FanOut, ShardAnswer
from fourfold.coordinator.fusion import FusedHit, fuse, merge_shards
from fourfold.coordinator.profiles import (
    DIRECT_CONFIDENCE,
    centrality_scale,
    default_profiles,
    dominant,
    get_preset,
    select_profiles,
    top_modalities,
)
from fourfold.errors import IndexLocked, InvalidQuery, NoIndex, PermissionDenied, Unavailable, UnknownRepository
from fourfold.index.fleet import revision_name
from fourfold.index.generation import IndexSummary, RepoOptions, ShardExecutor, build_generation
from fourfold.index.store import GenerationReader, IndexStore
from fourfold.plugins.manager import PluginRegistry, get_registry
from fourfold.plugins.types import INTENTS, Hit, ModalityQuery
from fourfold.workers.cluster import Launcher
from fourfold.workers.registry import EndpointRegistry

__all__ = [
    "MAX_FOLLOW_UP_ROUNDS",
    "MAX_K",
    "MAX_QUERY_CHARS",
    "Answer",
    "Engine",
    "FollowUpOutcome",
    "SearchParams",
    "follow_up_rounds",
]

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 10_000
MAX_K = 1000
DEFAULT_K = 10
DEFAULT_DEADLINE_MS = 5_000
#: How often a coordinator re-lists the workers (new replicas, restarted or retired actors).
REFRESH_INTERVAL_S = 5.0
#: The most follow-up rounds one search runs after the first fan-out (see ``follow_up_rounds``).
MAX_FOLLOW_UP_ROUNDS = 8

#: ``ask(modality, shard, query)``: one shard's answer (the engine: a gRPC call with retries).
AskShard = Callable[[str, str, ModalityQuery], Awaitable[ShardAnswer]]


@dataclass(frozen=True, slots=True)
class FollowUpOutcome:
    """The answers of the follow-up rounds, how many rounds ran, and whether asks were left when they stopped."""

    answers: tuple[ShardAnswer, ...]
    rounds: int
    exhausted: bool


async def follow_up_rounds(
    first: Sequence[ShardAnswer],
    query: ModalityQuery,
    covering: Mapping[str, Sequence[tuple[str, tuple[str, ...]]]],
    ask: AskShard,
    deadline: float,
    max_rounds: int = MAX_FOLLOW_UP_ROUNDS,
) -> FollowUpOutcome:
    """Run the ``FollowUp`` rounds the answers ask for, each after the previous one.

    A follow-up goes only to the asking modality's shards (``covering``: modality -> (shard,
    repositories)) whose repositories meet its own, as ``query`` with its options added. The same
    follow-up asked twice in one round (or by two shards) is asked once. Stops when no answer asks
    for more, after ``max_rounds``, or at the deadline; what the options mean is the modality's
    business.
    """
    answers: list[ShardAnswer] = []
    latest: Sequence[ShardAnswer] = first
    rounds = 0
    while True:
        asks: dict[tuple[str, str, tuple[tuple[str, str], ...]], ModalityQuery] = {}
        for a in latest:
            for f in a.result.follow_ups if a.result is not None else ():
                options = tuple(sorted(f.options.items()))
                for shard, repos in covering.get(a.modality, ()):
                    if set(repos) & set(f.repos):
                        asks.setdefault(
                            (a.modality, shard, options), replace(query, options={**query.options, **f.options})
                        )
        if not asks:
            return FollowUpOutcome(tuple(answers), rounds, False)
        if rounds >= max_rounds or time.monotonic() >= deadline:
            return FollowUpOutcome(tuple(answers), rounds, True)
        rounds += 1
        latest = list(await asyncio.gather(*(ask(m, s, q) for (m, s, _), q in asks.items())))
        answers.extend(latest)


@dataclass(frozen=True, slots=True)
class SearchParams:
    query: str
    k: int = DEFAULT_K
    repos: tuple[str, ...] = ()
    intent: str = ""
    preset: str = "default"
    modalities: tuple[str, ...] = ()
    weights: Mapping[str, float] = field(default_factory=dict)
    deadline_ms: int = DEFAULT_DEADLINE_MS
    path_glob: str = ""
    languages: tuple[str, ...] = ()
    case_sensitive: bool = False
    options: Mapping[str, str] = field(default_factory=dict)
    with_snippets: bool = False


@dataclass(frozen=True, slots=True)
class Answer:
    intent: str
    confidence: float
    fusion_strategy: str
    preset: str
    partial: bool
    missing_shards: tuple[str, ...]
    hits: tuple[FusedHit, ...]
    total_candidates: int
    timings: Mapping[str, float]
    generation: str
    notes: tuple[str, ...]
    weights: Mapping[str, float]
    rerank: str = ""  # "<reranker>" when it reordered the candidates, "skipped (<reason>)", "" when not asked
    no_confident_match: bool = False
    confidences: tuple[float | None, ...] = ()  # per hit (rerank / 10, else semantic similarity)


class Engine:
    """Answers searches and runs index builds against one store and one Ray cluster."""

    def __init__(
        self,
        store: IndexStore,
        launcher: Launcher | None,
        plugins: PluginRegistry | None = None,
        executor_factory: Callable[[], ShardExecutor] | None = None,
    ) -> None:
        self.store = store
        self.launcher = launcher
        self.plugins = plugins or get_registry()
        self.endpoints = EndpointRegistry(store.store_id())
        self.fanout = FanOut(self.endpoints)
        self.executor_factory = executor_factory
        self.profiles = default_profiles()
        self._rerankers: dict[str, rerank.Reranker] = {}
        self.extra_rules: list[intent_mod.IntentRule] = []
        import re

        for r in self.plugins.intent_rules:
            self.extra_rules.append(
                intent_mod.IntentRule(
                    f"plugin:{r.plugin}", r.intent, r.confidence, re.compile(r.pattern, re.IGNORECASE)
                )
            )
            self.profiles.setdefault(r.intent, {}).update(r.weights)
        self.plugins.pm.hook.fourfold_adjust_profiles(profiles=self.profiles)
        self._generation: str | None = None
        self._refresher: asyncio.Future[None] | None = None
        self._readers: dict[str, GenerationReader] = {}
        self._repos_cache: tuple[str | None, frozenset[str]] | None = None
        self._index_lock = asyncio.Lock()

    # -- generations -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Deploy the live generation's workers (if needed) and discover endpoints."""
        live = self.store.live_generation()
        if live and self.launcher is not None:
            await self.launcher.deploy(live)
        await self.endpoints.refresh()
        self._generation = live if live in self.endpoints.generations() else self._newest_served()
        if self._refresher is None:
            self._refresher = asyncio.ensure_future(self._refresh_periodically())

    async def _refresh_periodically(self, interval_s: float = REFRESH_INTERVAL_S) -> None:
        """Pick up replicas added by `fourfold scale` or another launcher, and drop retired ones."""
        while True:
            await asyncio.sleep(interval_s)
            try:
                await self.endpoints.refresh()
            except Exception as exc:  # noqa: BLE001 - discovery must outlive a transient Ray hiccup
                log.warning("endpoint refresh failed: %s", exc)

    async def stop(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
            self._refresher = None
        await self.fanout.close()

    def _reader(self, generation: str) -> GenerationReader:
        """The generation's reader, kept while it is the one served (its manifest is parsed once,
        not per query: a split repository's manifest lists every file)."""
        cached = self._readers.get(generation)
        if cached is None:
            for old in self._readers.values():
                old.close()
            cached = self.store.reader(generation)
            self._readers = {generation: cached}
        return cached

    def registered_repos(self) -> frozenset[str]:
        """Registered repository names (what grants are resolved against)."""
        return self._registered_repos()

    def _registered_repos(self) -> frozenset[str]:
        """Registered repository names, read again only when the live generation changes."""
        live = self.store.live_generation()
        if self._repos_cache is None or self._repos_cache[0] != live:
            self._repos_cache = (live, frozenset(r.name for r in self.store.repos()))
        return self._repos_cache[1]

    def _newest_served(self) -> str | None:
        gens = sorted(self.endpoints.generations())
        return gens[-1] if gens else None

    async def current_generation(self) -> str:
        live = self.store.live_generation()
        if live is None:
            raise NoIndex(f"nothing is indexed in {str(self.store.home)!r}; run `fourfold index PATH` first")
        if live != self._generation:
            await self.endpoints.refresh()
            if live in self.endpoints.generations():
                self._generation = live
            elif self._generation is None:
                self._generation = self._newest_served()
        if self._generation is None:
            raise Unavailable("no worker serves any index generation yet; is `fourfold serve` running its workers?")
        return self._generation

    # -- search ----------------------------------------------------------------------------------
    def validate(self, p: SearchParams, visible: frozenset[str] | None = None) -> None:
        """Reject bad input. ``visible``: the repositories the caller may read (None: all).

        A restricted caller naming a repository it may not read gets the same PERMISSION_DENIED as
        for one that does not exist, so the answer never tells whether it exists.
        """
        q = p.query
        if not q or not q.strip():
            raise InvalidQuery("empty query: give a symbol, a quoted string, a question or a code snippet")
        if len(q) > MAX_QUERY_CHARS:
            raise InvalidQuery(
                f"query too long: {len(q)} characters; the limit is {MAX_QUERY_CHARS}. Search for a distinctive part "
                "of it"
            )
        if p.k <= 0 or p.k > MAX_K:
            raise InvalidQuery(f"invalid k {p.k}: ask for 1 to {MAX_K} hits")
        known_intents = set(INTENTS) | set(self.profiles)
        if p.intent and p.intent not in known_intents:
            raise InvalidQuery(f"unknown intent {p.intent!r}; choose one of: {', '.join(sorted(known_intents))}")
        get_preset(p.preset)
        for m in list(p.modalities) + list(p.weights):
            if m not in self.plugins.modalities:
                raise InvalidQuery(
                    f"unknown modality {m!r}; loaded modalities: {', '.join(sorted(self.plugins.modalities))}"
                )
        for m, w in p.weights.items():
            if not (w >= 0.0) or w > 100:
                raise InvalidQuery(f"invalid weight {w!r} for modality {m!r}: use a number from 0 to 100")
        if p.deadline_ms < 0:
            raise InvalidQuery(f"invalid deadline {p.deadline_ms} ms: use a positive number of milliseconds")
        known_repos = set(self._registered_repos())
        if visible is not None:
            mine = known_repos & visible
            for r in p.repos:
                if r not in mine:
                    raise PermissionDenied(
                        f"repository {r!r} is not one you may search; yours: {', '.join(sorted(mine)) or 'none'}"
                    )
            return
        for r in p.repos:
            if r not in known_repos:
                raise UnknownRepository(
                    f"unknown repository {r!r}; indexed: {', '.join(sorted(known_repos)) or 'none'}"
                )

    def plan(self, p: SearchParams) -> tuple[str, float, str, dict[str, float], str, int]:
        """(intent, confidence, strategy, weights of the modalities to run, rule, rrf k)."""
        preset = get_preset(p.preset)
        if p.intent:
            intent, confidence, rule = p.intent, 1.0, "forced"
        else:
            c = intent_mod.classify(p.query, self.extra_rules)
            intent, confidence, rule = c.intent, c.confidence, c.rule
        profiles = select_profiles(p.options.get("profile", ""), self.profiles)
        profile = {
            m: w for m, w in profiles.get(intent, profiles["understand_code"]).items() if m in self.plugins.modalities
        }
        profile.update({m: float(w) for m, w in p.weights.items()})
        if p.modalities:
            weights = {m: profile.get(m, 0.0) or 1.0 for m in p.modalities}
            # one chosen modality has nothing to fuse: its own order stands (no centrality boost)
            strategy = "direct" if len(weights) == 1 else "fused"
            return intent, confidence, strategy, weights, rule, preset.rrf_k
        if preset.fixed:
            weights = {m: 1.0 for m in preset.fixed if m in self.plugins.modalities}
            return intent, confidence, "direct", weights, rule, preset.rrf_k
        if confidence >= DIRECT_CONFIDENCE and not p.weights and preset.name == "default":
            top = dominant(profile)
            return intent, confidence, "direct", {top: profile[top]}, rule, preset.rrf_k
        chosen = top_modalities(profile, preset.modalities)
        return intent, confidence, "fused", {m: profile[m] for m in chosen}, rule, preset.rrf_k

    async def search(self, p: SearchParams, visible: frozenset[str] | None = None) -> Answer:
        """Answer ``p`` from the repositories in ``p.repos`` (empty: all) that ``visible`` allows.

        A restricted caller's search is narrowed to its repositories before the fan-out, and every
        hit is checked again before it leaves (defence in depth: a shard that ignored the filter
        still leaks nothing).
        """
        t0 = time.perf_counter()
        if any("@" in r for r in p.repos):  # NAME@release/1.0 is indexed as NAME@release+1.0
            p = replace(p, repos=tuple(revision_name(r) for r in p.repos))
        self.validate(p, visible)
        generation = await self.current_generation()
        intent, confidence, strategy, weights, _rule, rrf_k = self.plan(p)
        t_classify = time.perf_counter()
        allowed: frozenset[str] | None = frozenset(p.repos) if p.repos else None
        if visible is not None and allowed is None:
            allowed = self._registered_repos() & visible
        if allowed is not None and not allowed:
            weights = {}  # nothing this caller may read: no fan-out, an empty answer
        reader = self._reader(generation)
        shards = self.endpoints.shards(generation)
        depth = min(max(3 * p.k, 30), 300)
        query = ModalityQuery(
            text=p.query,
            k=depth,
            intent=intent,
            repos=tuple(sorted(allowed)) if allowed is not None else (),
            path_glob=p.path_glob or None,
            languages=p.languages,
            case_sensitive=p.case_sensitive,
            options=dict(p.options),
        )
        targets = {}
        missing: list[str] = []
        repos_of: dict[tuple[str, str], tuple[str, ...]] = {}
        covering: dict[str, list[tuple[str, tuple[str, ...]]]] = {}  # modality -> (shard, repos), for follow-ups
        for spec in reader.shards():
            if spec.modality not in weights:
                continue
            repos_of[(spec.modality, spec.shard)] = spec.repos
            covering.setdefault(spec.modality, []).append((spec.shard, spec.repos))
            partitioned = self.plugins.modalities[spec.modality].sharding == "partitioned"
            if allowed is not None and not allowed.intersection(spec.repos) and not partitioned:
                continue  # pruned: the shard cannot match the repository filter (a partition's walk may pass through)
            reps = shards.get((spec.modality, spec.shard), [])
            if not reps:
                missing.append(self._shard_label(spec.modality, spec.shard, spec.repos, allowed, visible))
                continue
            targets[(spec.modality, spec.shard)] = reps
        deadline = time.monotonic() + (p.deadline_ms or DEFAULT_DEADLINE_MS) / 1000.0
        answers: list[ShardAnswer] = await self.fanout.gather(targets, query, generation, deadline)

        async def ask(modality: str, shard: str, q: ModalityQuery) -> ShardAnswer:
            (answer,) = await self.fanout.gather(
                {(modality, shard): shards.get((modality, shard), [])}, q, generation, deadline
            )
            return answer

        t_first = time.perf_counter()
        more = await follow_up_rounds(answers, query, covering, ask, deadline)
        answers = [*answers, *more.answers]
        t_fanout = time.perf_counter()
        per_modality: dict[str, list[list[Hit]]] = {m: [] for m in weights}
        notes: list[str] = []
        modality_ms: dict[str, float] = {}
        for a in answers:
            modality_ms[a.modality] = max(modality_ms.get(a.modality, 0.0), a.seconds * 1000)
            if a.result is None:
                repos = repos_of.get((a.modality, a.shard), ())
                missing.append(self._shard_label(a.modality, a.shard, repos, allowed, visible))
                notes.append(
                    f"{missing[-1]} missing: {'unavailable' if self._hidden(repos, allowed, visible) else a.error}"
                )
                continue
            per_modality[a.modality].append(list(a.result.hits))
            for n in a.result.notes:
                if n not in notes:
                    notes.append(n)
        if more.exhausted:
            notes.append(
                f"stopped after {more.rounds} follow-up rounds (the limit or the deadline): "
                "a walk across partitions may be incomplete"
            )
        glob = p.path_glob
        ranked = {}
        for m, lists in per_modality.items():
            merged = merge_shards(lists, depth)
            if allowed is not None:
                merged = [h for h in merged if h.repo in allowed]  # defence in depth
            if glob:
                merged = [h for h in merged if fnmatch.fnmatch(h.path, glob)]
            ranked[m] = merged
        # impact analysis lists dependents: two functions of one file are two answers
        fused = fuse(
            ranked,
            weights,
            rrf_k,
            use_centrality=strategy == "fused",
            per_file=intent != "impact_analysis",
            centrality_scale=centrality_scale(p.options.get("profile", ""), intent),
        )
        fused, rerank_scores, rerank_status = await self._rerank(p, reader, fused, deadline)
        total = len(fused)
        hits = fused[: p.k]
        reranked = bool(rerank_status) and not rerank_status.startswith("skipped")
        confidences = tuple(
            refusal.hit_confidence(
                rerank_scores[i] if reranked else None,
                f.modalities["semantic"].score if "semantic" in f.modalities else None,
            )
            for i, f in enumerate(hits)
        )
        verdict = refusal.assess(confidences, reranked=reranked)
        if rerank_status and not reranked:
            notes.append(f"rerank: {rerank_status}")
        if verdict.refused:
            notes.append(verdict.note)
        if p.with_snippets and hits:
            hits = self._snippets(reader, hits)
        t_fuse = time.perf_counter()
        timings = {
            "classify": (t_classify - t0) * 1000,
            "fanout": (t_fanout - t_classify) * 1000,
            "fuse": (t_fuse - t_fanout) * 1000,
            "total": (t_fuse - t0) * 1000,
        }
        timings.update({f"modality:{m}": ms for m, ms in modality_ms.items()})
        if more.rounds:
            timings[f"follow_up:{more.rounds}"] = (t_fanout - t_first) * 1000  # the stage names how many rounds ran
        metrics.observe(intent, strategy, timings, bool(missing))
        return Answer(
            intent=intent,
            confidence=confidence,
            fusion_strategy=strategy,
            preset=get_preset(p.preset).name,
            partial=bool(missing),
            missing_shards=tuple(sorted(set(missing))),
            hits=tuple(hits),
            total_candidates=total,
            timings=timings,
            generation=generation,
            notes=tuple(notes),
            weights=weights,
            rerank=rerank_status,
            no_confident_match=verdict.refused,
            confidences=confidences,
        )

    @staticmethod
    def _hidden(repos: Sequence[str], allowed: frozenset[str] | None, visible: frozenset[str] | None) -> bool:
        """Whether a shard of ``repos`` must go unnamed: the caller is restricted and the shard holds
        none of its repositories (a partitioned walk may have asked it), so its name, or its error,
        would tell of a repository the caller may not know of."""
        return visible is not None and allowed is not None and not allowed.intersection(repos)

    @classmethod
    def _shard_label(
        cls,
        modality: str,
        shard: str,
        repos: Sequence[str],
        allowed: frozenset[str] | None,
        visible: frozenset[str] | None,
    ) -> str:
        """How an answer names a missing shard (see ``_hidden``)."""
        return (
            f"{modality}/(a shard outside your repositories)"
            if cls._hidden(repos, allowed, visible)
            else f"{modality}/{shard}"
        )

    async def _rerank(
        self, p: SearchParams, reader: GenerationReader, fused: list[FusedHit], deadline: float
    ) -> tuple[list[FusedHit], tuple[float | None, ...], str]:
        """The optional rerank stage (``options["rerank"]`` names the reranker): (order, scores, status)."""
        name = p.options.get("rerank", "")
        if not name or not fused:
            return fused, (), ""
        try:
            model = self._rerankers.get(name) or self._rerankers.setdefault(
                name, rerank.make_reranker(name, self.plugins.rerankers)
            )
        except InvalidQuery:
            raise
        except Exception as exc:  # noqa: BLE001 - an unavailable reranker leaves the fused order, named
            return fused, (), f"skipped ({exc})"
        top = fused[: rerank.RERANK_DEPTH]
        rows = reader.segment_rows((f.hit.segment_id for f in top), repos=[f.hit.repo for f in top])
        docs = [
            rerank.document_for(f.hit.path, rows[f.hit.segment_id].content if f.hit.segment_id in rows else "")
            for f in top
        ]
        budget = min(rerank.DEFAULT_RERANK_DEADLINE_S, deadline - time.monotonic())
        out = await rerank.rerank_candidates(model, name, p.query, docs, deadline_s=budget)
        order = [*out.order, *range(len(top), len(fused))]
        scores = (*out.scores, *(None,) * (len(fused) - len(top)))
        return [fused[i] for i in order], tuple(scores[i] for i in order), out.status

    @staticmethod
    def _snippets(reader: GenerationReader, hits: Sequence[FusedHit], lines: int = 6) -> list[FusedHit]:
        rows = reader.segment_rows((f.hit.segment_id for f in hits), repos=[f.hit.repo for f in hits])
        out = []
        for f in hits:
            seg = rows.get(f.hit.segment_id)
            if seg is None or f.hit.snippet:  # a modality's own explanation (commits, call sites) wins
                out.append(f)
                continue
            inside = [ln for ln in f.hit.match_lines if seg.start_line <= ln <= seg.end_line]
            first = (min(inside) if inside else seg.start_line) - seg.start_line
            body = seg.content.split("\n")
            start = max(0, first - 1)
            snippet = "\n".join(body[start : start + lines])
            out.append(replace(f, hit=replace(f.hit, snippet=snippet)))
        return out

    # -- index -----------------------------------------------------------------------------------
    async def index(
        self,
        add: Sequence[tuple[Path, str | None]],
        progress: Callable[[str, int, int, str], None],
        *,
        repo_options: Mapping[str, RepoOptions] | None = None,
    ) -> IndexSummary:
        """Build a generation, deploy its workers, switch to it, retire the old one's."""
        if self._index_lock.locked():
            raise IndexLocked("an index build is already running on this coordinator; wait for it to finish")
        async with self._index_lock:
            loop = asyncio.get_running_loop()

            def report(stage: str, done: int, total: int, message: str) -> None:
                loop.call_soon_threadsafe(progress, stage, done, total, message)

            executor = self.executor_factory() if self.executor_factory else None
            old = self._generation
            summary = await asyncio.to_thread(
                functools.partial(build_generation, repo_options=repo_options),
                self.store,
                list(add),
                executor=executor,
                progress=report,
            )
            if self.launcher is not None:
                progress("deploy", 0, 1, f"starting workers for {summary.generation}")
                await self.launcher.deploy(summary.generation)
                await self.endpoints.refresh()
                self._generation = summary.generation
                progress("deploy", 1, 1, f"{summary.generation} serving")
                if old and old != summary.generation:
                    self.launcher.retire(old)
                    await self.endpoints.refresh()
            return summary
