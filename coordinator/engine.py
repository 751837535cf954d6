"""The coordinator's core: validate → plan → target shards → search them → collect → fuse → answer.

The engine asks shards through a :class:`~fourfold.coordinator.searcher.ShardSearcher`: gRPC
workers found through Ray in a cluster (:class:`~fourfold.coordinator.fanout.WorkerSearcher`,
wired by ``coordinator/serving.py``), or shards loaded in this process
(:class:`~fourfold.coordinator.searcher.LocalSearcher`, the default). Everything else — routing,
ACL filtering, follow-up rounds, fusion, partial answers — is this module's, the same for both.

Stateless apart from caches: the live generation comes from the index store and what serves it
from the searcher, so several coordinators can serve one cluster and a restarted one needs no
rebuild.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import re
import shlex
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fourfold.api import DEFAULT_DEADLINE_MS, Answer, FusedHit, IndexProgress, IndexSummary, SearchParams
from fourfold.coordinator import (
    absent,
    code_first,
    copied,
    declared,
    echo,
    file_read,
    file_subject,
    identifier,
    localize,
    mentions,
    metrics,
    named_repo,
    query_filters,
    refusal,
    rerank,
    search_command,
    shell_words,
    unindexed,
)
from fourfold.coordinator import intent as intent_mod
from fourfold.coordinator.cursor import Cursor, decode_cursor, encode_cursor, query_digest
from fourfold.coordinator.fusion import FURTHER_SEGMENT, fuse, listed, merge_shards, share_weights
from fourfold.coordinator.notes import MAX_LISTING_NOTE_CHARS, tidy_notes
from fourfold.coordinator.profiles import (
    Preset,
    centrality_scale,
    default_profiles,
    dominant,
    fusion_method,
    get_preset,
    goes_direct,
    lexical_share,
    select_profiles,
    top_modalities,
)
from fourfold.coordinator.searcher import LocalSearcher, ShardAnswer, ShardKey, ShardSearcher
from fourfold.coordinator.shell_words import is_glob
from fourfold.coordinator.tool_call import ToolCall, read_tool_call
from fourfold.errors import (
    FourfoldError,
    IndexLocked,
    InvalidQuery,
    NoIndex,
    PermissionDenied,
    Unavailable,
    UnknownRepository,
)
from fourfold.index.fleet import revision_name, split_index_name
from fourfold.index.generation import RepoOptions, ShardExecutor, build_generation
from fourfold.index.ingest.languages import KNOWN_LANGUAGES
from fourfold.index.ingest.segment import owner_of_line
from fourfold.index.progress import Progress
from fourfold.index.store import GenerationReader, IndexStore
from fourfold.plugins.globs import GLOB_CHARS, path_filter
from fourfold.plugins.manager import PluginRegistry, get_registry
from fourfold.plugins.types import (
    CODE_FIRST_OPTION,
    FALLBACK_OPTION,
    FOLDERS_OPTION,
    HOLDING_OPTION,
    INTENTS,
    LINE_FILTERS_OPTION,
    SCOPE_OPTION,
    Hit,
    ModalityQuery,
    Segment,
    ShardResult,
    context_lines,
    line_filters,
    max_count,
    multiline,
    order,
)
from fourfold.plugins.vocabulary import asks_for_callees, asks_for_implementations

if TYPE_CHECKING:
    from fourfold.workers.cluster import Launcher
    from fourfold.workers.registry import EndpointRegistry

__all__ = [
    "MAX_FOLLOW_UP_ROUNDS",
    "MAX_K",
    "MAX_QUERY_CHARS",
    "Answer",
    "Engine",
    "FollowUpOutcome",
    "Plan",
    "SearchParams",
    "follow_up_rounds",
    "invalid_deadline",
    "missing_notes",
]

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 10_000
#: A lone surrogate: half of a UTF-16 pair, or a byte a terminal's bytes could not decode (``surrogateescape``).
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_K = 1000
#: How often a coordinator re-lists the workers (new replicas, restarted or retired actors).
REFRESH_INTERVAL_S = 5.0
#: How often a coordinator that runs workers looks for a generation made live by another process.
FOLLOW_INTERVAL_S = 1.0
#: The most follow-up rounds one search runs after the first fan-out (see ``follow_up_rounds``).
MAX_FOLLOW_UP_ROUNDS = 8
#: ``options["explain"]`` set to this adds the routing decision to the answer's notes.
EXPLAIN_OPTION = "explain"
#: ``options[LEXICAL_SHARE_OPTION] = "off"`` fuses with the profile's text and semantic weights as they are
#: (``fusion.LexicalShare``; for comparisons).
LEXICAL_SHARE_OPTION = "lexical_share"
#: ``options[FILE_SEGMENTS_OPTION] = "one"`` answers a prose question with one segment per file, as every other
#: intent is (``fusion.fuse(further=)``; for comparisons).
FILE_SEGMENTS_OPTION = "file_segments"
#: A double-quoted span: the text modality lists its literal matches (grep scores, not BM25) for it.
_QUOTED_SPAN = re.compile(r'"[^"]+"')
#: A references or impact question asks its modalities for this many candidates per hit asked (at least 100).
RELATION_DEPTH = 10
#: Text search modes that list lines, or files by their paths (a regex stays a regex: never classified as prose).
LISTING_MODES = ("literal", "regex", "paths")
#: A hedged plan's share of understand_code's weights (``Plan.hedged``): on the how-to dev suite
#: (replayed from each modality's lists) 0.5 and 1.0 both lift MRR@10 0.806 -> 0.833; 0.5 keeps the
#: click and httpx suites' entity questions as they were (1.0 loses 0.004 on click).
HEDGE_SHARE = 0.5
#: The intents a learned route is hedged for when the query names no code: entity questions, similar code, and an
#: exact string (of 8,697 labelled questions, the 4 learned exact-string routes that name no code are prose questions).
HEDGED_INTENTS = intent_mod.ENTITY_INTENTS | {"exact_match"}

#: The intent a question about one file named by its path asks (``file_subject``).
UNDERSTAND = "understand_code"
#: The most files of a folder an overview call answers with the overview of each.
MAX_OUTLINED = 20

#: ``ask(modality, shard, query)``: one shard's answer (the engine: its searcher's).
AskShard = Callable[[str, str, ModalityQuery], Awaitable[ShardAnswer]]


def _segments_of(reader: GenerationReader, repo: str, path: str) -> list[Segment]:
    """Every segment of ``repo``'s file ``path`` in the generation ``reader`` reads."""
    return list(reader.segments(files=[f"{repo}\0{path}"]))


def _file_of(reader: GenerationReader, repo: str, path: str) -> tuple[list[Segment], int, bool]:
    """Every segment of ``repo``'s file ``path``, how many lines the file has (its empty last lines too, which no
    segment covers, where the generation keeps its text), and whether its last line ends in a newline."""
    segments = _segments_of(reader, repo, path)
    counted = reader.line_count(repo, path)
    lines, ended = counted if counted is not None else (0, True)
    if counted is not None and not lines and not any(s.content for s in segments):
        return segments, 0, True  # an empty file: its one segment covers no line
    return segments, max([s.end_line for s in segments] + [lines]), ended


#: A word as wc counts it in a UTF-8 locale: what lies between the characters glibc calls spaces and the no-break
#: spaces coreutils' wc parts words at too.
_WORD = re.compile("[^ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u2060\u3000]+")


def _wc_of(
    reader: GenerationReader, repo: str, path: str, letters: str, sizes: dict[str, dict[str, int]] | None = None
) -> tuple[int, ...]:
    """What ``wc`` counts of ``repo``'s file ``path`` as indexed, the counts ``letters`` asks (``l`` its newlines,
    ``w`` words, ``m`` characters, ``c`` bytes), in that order; ``sizes`` keeps each repository's file sizes read."""
    out: list[int] = []
    if "l" in letters:
        lines, ended = _lines_of(reader, repo, path)
        out.append(lines if ended else lines - 1)  # wc counts newlines: a last line without one is not
    text = reader.file_text(repo, path) if "w" in letters or "m" in letters else None
    if "w" in letters:
        out.append(len(_WORD.findall(text or "")))
    if "m" in letters:
        out.append(len(text or ""))
    if "c" in letters:
        size = _size_of(reader, repo, path, sizes if sizes is not None else {})
        out.append(size if size is not None else len((text or "").encode()))
    return tuple(out)


def _size_of(reader: GenerationReader, repo: str, path: str, known: dict[str, dict[str, int]]) -> int | None:
    """The size in bytes of ``repo``'s indexed file ``path`` (None: none kept); ``known`` keeps each repository's
    sizes, read once."""
    of_repo = known.get(repo)
    if of_repo is None:
        of_repo = known[repo] = reader.sizes(repo)
    return of_repo.get(path)


def _lines_of(reader: GenerationReader, repo: str, path: str) -> tuple[int, bool]:
    """How many lines ``repo``'s file ``path`` has and whether its last one ends in a newline: from the stored text's
    last block, from its segments only where the generation keeps no text (``_file_of``)."""
    held = reader.line_count(repo, path)
    if held is not None:
        return held
    _, lines, ended = _file_of(reader, repo, path)
    return lines, ended


def _expanded(
    read_as: file_read.FileRead, resolve: Callable[[str, bool], list[tuple[str, str]]]
) -> tuple[list[tuple[file_read.FileRead, list[tuple[str, str]] | None]], tuple[str, ...]]:
    """Each file ``read_as`` reads, in order, with the (repository, path) it is where a glob named it (None: its path
    is resolved when it is read); and the notes naming the files each glob expands to (``head -n 3 render/*.go``)."""
    reads: list[tuple[file_read.FileRead, list[tuple[str, str]] | None]] = []
    notes: list[str] = []
    for one in read_as.each():
        if not is_glob(one.path):
            reads.append((one, None))
            continue
        files = resolve(one.path, read_as.called)  # an agent's read call: its glob tool's ** is any folders
        reads.extend((replace(one, path=path), [(repo, path)]) for repo, path in files[: file_read.MAX_EXPANDED])
        if not files:
            reads.append((one, []))  # the answer says no file is so named
            continue
        shown = ", ".join(path for _, path in files[:5]) + (", …" if len(files) > 5 else "")
        kept = f"; the first {file_read.MAX_EXPANDED} read" if len(files) > file_read.MAX_EXPANDED else ""
        files_said = f"{len(files)} file{'s' if len(files) > 1 else ''}"
        notes.append(f"read as {read_as.said}: {one.path} expands to {files_said} ({shown}){kept}")
    return reads, tuple(notes)


def _revision_repos(p: SearchParams) -> SearchParams:
    """``p`` with its repositories named as indexed: ``NAME@release/1.0`` is indexed as ``NAME@release+1.0``."""
    if any("@" in r for r in p.repos):
        return replace(p, repos=tuple(revision_name(r) for r in p.repos))
    return p


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
    repositories)) whose repositories meet its own (every one when it names none), as ``query``
    with its options added; a fallback (``if_empty``) only while no shard of the modality has
    found anything. The same follow-up asked twice in one round (or by two shards) is
    asked once. Stops when no answer asks
    for more, after ``max_rounds``, or at the deadline; what the options mean is the modality's
    business.
    """
    answers: list[ShardAnswer] = []
    latest: Sequence[ShardAnswer] = first
    rounds = 0
    found = {a.modality for a in first if a.result is not None and a.result.hits}
    while True:
        asks: dict[tuple[str, str, tuple[tuple[str, str], ...]], ModalityQuery] = {}
        for a in latest:
            for f in a.result.follow_ups if a.result is not None else ():
                if f.if_empty and a.modality in found:
                    continue  # a fallback, and a shard of the modality found something
                options = tuple(sorted(f.options.items()))
                for shard, repos in covering.get(a.modality, ()):
                    if not f.repos or set(repos) & set(f.repos):
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
        found |= {a.modality for a in latest if a.result is not None and a.result.hits}


#: The most absence notes said for one modality (partitions suggesting different near names).
MAX_ABSENCE_NOTES = 3


#: The most shards a note names as missing, and the most reasons said (a lost node holds thousands of shards).
MISSING_NAMED = 3


def _all_read(commands: Sequence[str]) -> bool:
    """Whether there are commands and each is a read (``file_read``) or a search (``search_command``) as written."""
    return bool(commands) and all(file_read.read(c) or search_command.read(c) for c in commands)


#: The characters of a matching line a grep's snippet shows (as the text modality cuts them).
_LINE_SHOWN = 240


def _shown_at(reader: GenerationReader, hit: Hit, lines: tuple[int, ...]) -> Hit:
    """``hit`` (a grep's file) with only its matching ``lines``: the innermost segment holding the first of them, and a
    snippet of their first few (context a grep asked for is not kept)."""
    segments = _segments_of(reader, hit.repo, hit.path)
    owner = owner_of_line(segments, lines[0])
    text = file_read.text_of(segments)
    snippet = "\n".join(text.get(n, "")[:_LINE_SHOWN] for n in lines[: len(hit.snippet.splitlines()) or 3])
    if owner is None:
        return replace(hit, match_lines=lines, snippet=snippet)
    return replace(
        hit,
        segment_id=owner.id,
        start_line=owner.start_line,
        end_line=owner.end_line,
        symbol=owner.symbol,
        kind=owner.kind,
        match_lines=lines,
        snippet=snippet,
    )


def _first_files(answer: Answer, k: int) -> Answer:
    """A listing asked deep (every file sized) cut to its first ``k`` files: not complete where it was cut, and a note
    says how to see the rest."""
    if len(answer.hits) <= k:
        return answer
    more = f"{len(answer.hits) - k} more files: ask for more hits (k)"
    confidences = answer.confidences[:k] if answer.confidences else ()
    return replace(answer, hits=answer.hits[:k], confidences=confidences, complete=False, notes=(*answer.notes, more))


def _first_lines(answer: Answer, n: int) -> Answer:
    """``answer`` cut to its first ``n`` matching lines (``rg -n X | head -n``): its hits in order until they hold
    ``n``, the last one's lines cut; not complete where any was cut (its totals still count every line). An answer
    without matching lines (fusion's, where the listing found none) as it is."""
    if not any(f.hit.match_lines for f in answer.hits):
        return answer
    kept: list[FusedHit] = []
    held = 0
    for f in answer.hits:
        if held >= n:
            break
        lines = f.hit.match_lines[: n - held]
        kept.append(f if len(lines) == len(f.hit.match_lines) else replace(f, hit=replace(f.hit, match_lines=lines)))
        held += len(lines)
    cut = held < sum(len(f.hit.match_lines) for f in answer.hits)
    confidences = answer.confidences[: len(kept)] if answer.confidences else ()
    return replace(answer, hits=tuple(kept), confidences=confidences, complete=answer.complete and not cut)


def missing_notes(failed: Mapping[str, Sequence[str]]) -> list[str]:
    """What the shards that did not answer say: one note per reason naming its first ``MISSING_NAMED`` shards, the
    first ``MISSING_NAMED`` reasons; the answer's ``missing_shards`` names every one."""
    notes = []
    for why, shards in list(failed.items())[:MISSING_NAMED]:
        named = list(dict.fromkeys(shards))[:MISSING_NAMED]  # a hidden shard's label is the same for every one
        more = len(shards) - len(named)
        notes.append(f"{', '.join(named)}{f' and {more} more shards' if more else ''} missing: {why}")
    if len(failed) > MISSING_NAMED:
        rest = sum(len(shards) for shards in list(failed.values())[MISSING_NAMED:])
        notes.append(f"{rest} more shards missing for {len(failed) - MISSING_NAMED} other reasons (see missing_shards)")
    return notes


def absence_notes(results: Sequence[ShardResult]) -> list[str]:
    """One modality's ``absence_notes`` that hold for the index: only when none of its shards found
    anything and every one that answered said what it lacks. Those with a suggestion first
    ("did you mean"), at most ``MAX_ABSENCE_NOTES``."""
    if not results or any(r.hits or not r.absence_notes for r in results):
        return []
    said = list(dict.fromkeys(n for r in results for n in r.absence_notes))
    hinted = [n for n in said if ";" in n]
    if hinted:  # a suggestion says the plain note too
        said = hinted + [n for n in said if n not in hinted and not any(h.startswith(n) for h in hinted)]
    return said[:MAX_ABSENCE_NOTES]


@dataclass(frozen=True, slots=True)
class Plan:
    """How a search runs: the intent and the classifier rule that chose it, the fusion strategy
    and the weight of each modality to ask, under the resolved preset."""

    intent: str
    confidence: float
    rule: str  # the classifier rule that chose the intent; "forced" when the caller named it
    strategy: str  # "direct" (one modality's own order) or "fused"
    weights: Mapping[str, float]
    preset: Preset
    #: The learned layer read a question about one definition (or code like an example), but the query
    #: names no code: the weights are half the intent's, half understand_code's, fused as understand_code fuses.
    hedged: bool = False
    #: Why the learned layer read the query's words without its sentence vector ("" when it read both).
    words_only: str = ""

    def describe(self) -> str:
        """One line for notes and logs."""
        weights = ", ".join(f"{m} {w:g}" for m, w in self.weights.items()) or "none"
        hedge = ", hedged with understand_code (the query names no code)" if self.hedged else ""
        words = f" from its words alone: {self.words_only}" if self.words_only else ""
        return (
            f"routing: intent {self.intent} ({self.confidence:.2f}, rule {self.rule}{words}), {self.strategy}{hedge}, "
            f"preset {self.preset.name}, weights {weights}"
        )

    @property
    def fusion_intent(self) -> str:
        """The intent whose fusion method and centrality boost the fused answer takes."""
        return "understand_code" if self.hedged else self.intent


@dataclass(slots=True)
class _Targets:
    """The shards a search asks, and what the engine needs to name the ones it cannot."""

    shards: list[ShardKey] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # labels of shards nothing serves
    repos_of: dict[ShardKey, tuple[str, ...]] = field(default_factory=dict)
    covering: dict[str, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)  # for follow-ups


@dataclass(slots=True)
class _Collected:
    """The shards' answers sorted out: each modality's hit lists, the missing shards, the notes."""

    per_modality: dict[str, list[list[Hit]]]
    missing: list[str]
    notes: list[str]
    modality_ms: dict[str, float]
    results: list[ShardResult] = field(default_factory=list)  # every shard's answer, for the listing totals


def invalid_deadline(deadline_ms: int) -> str:
    """Why a search's deadline of ``deadline_ms`` (below 0) is refused."""
    return f"invalid deadline {deadline_ms} ms: use a positive number of milliseconds"


class Engine:
    """Answers searches and runs index builds against one store, through one shard searcher.

    ``searcher``: where queries go (default: a :class:`LocalSearcher` over ``store``);
    ``launcher``: deploys a generation's workers after a build (a cluster's; None in process).
    """

    def __init__(
        self,
        store: IndexStore,
        searcher: ShardSearcher | None = None,
        *,
        launcher: Launcher | None = None,
        plugins: PluginRegistry | None = None,
        executor_factory: Callable[[], ShardExecutor] | None = None,
    ) -> None:
        self.store = store
        self.launcher = launcher
        self.plugins = plugins or get_registry()
        self.searcher: ShardSearcher = searcher if searcher is not None else LocalSearcher(store, self.plugins)
        self.executor_factory = executor_factory
        self.profiles = default_profiles()
        self._rerankers: dict[str, rerank.Reranker] = {}
        self.extra_rules = list(self.plugins.intent_rules)  # tried after the built-in keyword rules
        for r in self.extra_rules:
            self.profiles.setdefault(r.intent, {}).update(r.weights)
        self.plugins.pm.hook.fourfold_adjust_profiles(profiles=self.profiles)
        self._generation: str | None = None
        self._refresher: asyncio.Future[None] | None = None
        self._readers: dict[str, GenerationReader] = {}
        self._repos_cache: tuple[str | None, frozenset[str]] | None = None
        self._files: file_subject.FileIndex | None = None  # the served generation's files by name
        self._index_lock = asyncio.Lock()
        self._failed_roll: str | None = None  # a live generation whose workers failed to deploy

    @property
    def endpoints(self) -> EndpointRegistry | None:
        """The worker registry of a cluster's searcher (None in process), for ``Status``."""
        registry: EndpointRegistry | None = getattr(self.searcher, "registry", None)
        return registry

    # -- generations -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Deploy the live generation's workers (if this engine launches them) and discover what serves."""
        live = self.store.live_generation()
        if live and self.launcher is not None:
            await self.launcher.deploy(live)
        await self.searcher.refresh()
        self._generation = live if live in self.searcher.generations() else self._newest_served()
        if self._refresher is None:
            self._refresher = asyncio.ensure_future(self._refresh_periodically())

    async def _refresh_periodically(self, interval_s: float = REFRESH_INTERVAL_S) -> None:
        """Pick up replicas added by `fourfold scale` or another launcher, and drop retired ones;
        follow the store to a generation another process made live (every ``FOLLOW_INTERVAL_S``)."""
        last_refresh = time.monotonic()
        while True:
            await asyncio.sleep(min(FOLLOW_INTERVAL_S, interval_s))
            try:
                await self.follow_store()
            except Exception as exc:  # noqa: BLE001 - a failed roll is retried for the next generation only
                log.warning("could not roll the workers to the live generation: %s", exc)
            if time.monotonic() - last_refresh < interval_s:
                continue
            last_refresh = time.monotonic()
            try:
                await self.searcher.refresh()
            except Exception as exc:  # noqa: BLE001 - discovery must outlive a transient Ray hiccup
                log.warning("endpoint refresh failed: %s", exc)

    @property
    def served_generation(self) -> str | None:
        """The generation searches are answered from (what `status` reports), None before any."""
        return self._generation

    async def follow_store(self) -> str | None:
        """Roll the workers to the store's live generation when another process (``fourfold index``
        without a server, another coordinator) published a new one: deploy its workers, switch the
        searches to it, retire the old generation's. Returns the generation switched to, if any.

        Only a coordinator that runs workers (has a launcher) rolls them; one that failed to deploy a
        generation does not retry it (the next generation is tried; the old one keeps serving).
        """
        live = self.store.live_generation()
        if (
            live is None
            or live == self._generation
            or self.launcher is None
            or self._index_lock.locked()
            or live == self._failed_roll
        ):
            return None
        async with self._index_lock:
            live = self.store.live_generation()
            if live is None or live == self._generation:
                return None
            old = self._generation
            log.info("generation %s is live in the store; rolling the workers from %s", live, old)
            try:
                await self.launcher.deploy(live)
            except Exception:
                self._failed_roll = live
                raise
            await self.searcher.refresh()
            self._generation = live
            if old and old != live:
                self.launcher.retire(old)
                await self.searcher.refresh()
            return live

    async def stop(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
            self._refresher = None
        await self.searcher.close()
        for reader in self._readers.values():
            reader.close()
        self._readers = {}

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

    def live_reader(self) -> GenerationReader:
        """The live generation's cached reader (what ReadFile reads); :class:`NoIndex` before any build."""
        live = self.store.live_generation()
        if live is None:
            raise NoIndex(f"no index in {str(self.store.home)!r}; run `fourfold index PATH` first")
        return self._reader(live)

    def _registered_repos(self) -> frozenset[str]:
        """Registered repository names, read again only when the live generation changes."""
        live = self.store.live_generation()
        if self._repos_cache is None or self._repos_cache[0] != live:
            self._repos_cache = (live, frozenset(r.name for r in self.store.repos()))
        return self._repos_cache[1]

    def _newest_served(self) -> str | None:
        gens = sorted(self.searcher.generations())
        return gens[-1] if gens else None

    async def current_generation(self) -> str:
        live = self.store.live_generation()
        if live is None:
            raise NoIndex(f"nothing is indexed in {str(self.store.home)!r}; run `fourfold index PATH` first")
        if live != self._generation:
            await self.searcher.refresh()
            if live in self.searcher.generations():
                self._generation = live
            elif self._generation is None:
                self._generation = self._newest_served()
        if self._generation is None:
            raise Unavailable("no worker serves any index generation yet; is `fourfold serve` running its workers?")
        return self._generation

    # -- search: validate and plan ---------------------------------------------------------------
    def validate(self, p: SearchParams, visible: frozenset[str] | None = None) -> Preset:
        """Reject bad input; return the preset ``p`` names. ``visible``: the repositories the
        caller may read (None: all).

        A restricted caller naming a repository it may not read gets the same PERMISSION_DENIED as
        for one that does not exist, so the answer never tells whether it exists.
        """
        q = p.query
        if not q or not q.strip():
            raise InvalidQuery("empty query: give a symbol, a quoted string, a question or a code snippet")
        if len(q) > MAX_QUERY_CHARS:
            raise InvalidQuery(
                f"query too long: {len(q)} characters; the limit is {MAX_QUERY_CHARS}. "
                "Search for a distinctive part of it"
            )
        surrogate = _SURROGATE.search(q)
        if surrogate is not None:
            raise InvalidQuery(
                f"query holds {surrogate.group()!r} at character {surrogate.start()}: half of a UTF-16 pair or an "
                "undecodable byte, not text. Send the query as UTF-8"
            )
        if p.k <= 0 or p.k > MAX_K:
            raise InvalidQuery(f"invalid k {p.k}: ask for 1 to {MAX_K} hits")
        known_intents = set(INTENTS) | set(self.profiles)
        if p.intent and p.intent not in known_intents:
            raise InvalidQuery(f"unknown intent {p.intent!r}; choose one of: {', '.join(sorted(known_intents))}")
        preset = get_preset(p.preset)
        for m in list(p.modalities) + list(p.weights):
            if m not in self.plugins.modalities:
                raise InvalidQuery(
                    f"unknown modality {m!r}; loaded modalities: {', '.join(sorted(self.plugins.modalities))}"
                )
        for m, w in p.weights.items():
            if not (w >= 0.0) or w > 100:
                raise InvalidQuery(f"invalid weight {w!r} for modality {m!r}: use a number from 0 to 100")
        unknown_langs = sorted(set(p.languages) - KNOWN_LANGUAGES)
        if unknown_langs:
            valid = ", ".join(sorted(KNOWN_LANGUAGES))
            raise InvalidQuery(f"unknown language {', '.join(map(repr, unknown_langs))}; choose from: {valid}")
        if p.deadline_ms < 0:
            raise InvalidQuery(invalid_deadline(p.deadline_ms))
        try:
            context_lines(p.options)
            max_count(p.options)
            multiline(p.options)
            order(p.options)
            line_filters(p.options)
            line_filters(p.options, HOLDING_OPTION)
        except ValueError as exc:
            raise InvalidQuery(str(exc)) from None
        self._check_repos(p.repos, visible)
        return preset

    def _check_repos(self, repos: Sequence[str], visible: frozenset[str] | None) -> None:
        known_repos = set(self._registered_repos())
        if visible is not None:
            mine = known_repos & visible
            for r in repos:
                if r not in mine:
                    raise PermissionDenied(
                        f"repository {r!r} is not one you may search; yours: {', '.join(sorted(mine)) or 'none'}"
                    )
            return
        for r in repos:
            if r not in known_repos:
                raise UnknownRepository(
                    f"unknown repository {r!r}; indexed: {', '.join(sorted(known_repos)) or 'none'}"
                )

    def plan(self, p: SearchParams, preset: Preset | None = None) -> Plan:
        """The intent (classified unless forced), the strategy and the modalities to ask, by weight."""
        preset = preset or get_preset(p.preset)
        mode = p.options.get("mode", "")
        if mode in LISTING_MODES and not p.modalities and not p.weights and "text" in self.plugins.modalities:
            # a literal or regex asks for lines, not for meaning: the text modality alone lists them
            return Plan(p.intent or "exact_match", 1.0, f"mode={mode}", "direct", {"text": 1.0}, preset)
        if p.intent:
            intent, confidence, rule = p.intent, 1.0, "forced"
        else:
            # options["localize"]="off": route a bug report as before the localize intent (for comparisons)
            c = intent_mod.classify(p.query, self.extra_rules, reports=p.options.get("localize") != "off")
            intent, confidence, rule = c.intent, c.confidence, c.rule
        profiles = select_profiles(p.options.get("profile", ""), self.profiles)
        profile = {
            m: w for m, w in profiles.get(intent, profiles["understand_code"]).items() if m in self.plugins.modalities
        }
        # an entity, similar-code or exact-string question the learned layer read into a query that names no code
        # ("python change encoding stdout", "how does the code call all callbacks", "match specifc string except
        # other python": no quote, so no literal to find) is as likely prose: hedged
        hedged = (
            rule == "learned"
            and intent in HEDGED_INTENTS
            and not (p.weights or p.modalities or preset.fixed)
            and not intent_mod.names_code(p.query)
        )
        if hedged:
            prose = profiles["understand_code"]
            profile = {
                m: (1 - HEDGE_SHARE) * profile.get(m, 0.0) + HEDGE_SHARE * prose.get(m, 0.0)
                for m in self.plugins.modalities
                if m in profile or m in prose
            }
        profile.update({m: float(w) for m, w in p.weights.items()})

        words_only = intent_mod.vectors_unavailable() if rule == "learned" else ""

        def planned(strategy: str, weights: Mapping[str, float]) -> Plan:
            return Plan(intent, confidence, rule, strategy, dict(weights), preset, hedged, words_only)

        if p.modalities:
            weights = {m: profile.get(m, 0.0) or 1.0 for m in p.modalities}
            # one chosen modality has nothing to fuse: its own order stands (no centrality boost)
            return planned("direct" if len(weights) == 1 else "fused", weights)
        if preset.fixed:
            return planned("direct", {m: 1.0 for m in preset.fixed if m in self.plugins.modalities})
        if goes_direct(intent, confidence) and not p.weights and preset.name == "default" and not hedged:
            top = dominant(profile)
            return planned("direct", {top: profile[top]})
        return planned("fused", {m: profile[m] for m in top_modalities(profile, preset.modalities)})

    # -- search ----------------------------------------------------------------------------------
    async def search(self, p: SearchParams, visible: frozenset[str] | None = None) -> Answer:
        """Answer ``p`` from the repositories in ``p.repos`` (empty: all) that ``visible`` allows, a
        grep-like command written as the query (``rg -n "retry" src/``) or the filters a one-line query
        writes (``lang:go -file:_test\\.go$ who calls Render``) read first and noted; several commands run one after
        another (``cat a.py && cat b.py``) each answered in turn."""
        handed = (
            shell_words.shell_command(p.query)
            if p.query.lstrip()[:1] in "[{" or "(" in p.query or "-" in p.query
            else None
        )
        if handed is not None and handed != p.query.strip():  # bash -lc 'rg -n X', Bash(command=…): the command itself
            answer = await self.search(replace(p, query=handed), visible)
            return replace(answer, notes=(f"read as the command the shell call runs: `{handed}`", *answer.notes))
        question_call = shell_words.search_call(p.query) if "(" in p.query or p.query.lstrip()[:1] == "{" else None
        if question_call is not None:  # codebase_search(query=…, target_directories=[…]): the question, in them
            question, folders = question_call
            glob = (
                "{" + ",".join(f"{f}/**" for f in folders) + "}"
                if len(folders) > 1
                else "".join(f"{f}/**" for f in folders)
            )
            kept = replace(p, query=question, path_glob=p.path_glob or glob)
            answer = await self.search(kept, visible)
            within = f" within {', '.join(f'{f}/' for f in folders)}" if folders and not p.path_glob else ""
            return replace(
                answer, notes=(f"read as the question the search call asks{within}: {question!r}", *answer.notes)
            )
        written = not (p.intent or p.path_glob or p.cursor or p.options.get("mode", "") in LISTING_MODES)
        if written and "||" in p.query:  # rg X src || true: the command; what runs where it fails, left out
            before, fallbacks = shell_words.without_fallbacks(p.query)
            parts = shell_words.commands(before) if before else []
            readable = [c for c in parts if not shell_words.prints_words(c)]
            if fallbacks and _all_read(readable):
                answer = await self.search(replace(p, query=before), visible)
                said = "; ".join(f"`{f}`" for f in fallbacks)
                note = f"read as `{before}`; left out: {said} (run only where the command before it fails)"
                return replace(answer, notes=(note, *answer.notes))
        if written and ("&&" in p.query or ";" in p.query):
            commands = shell_words.commands(p.query)
            shown = [c for c in commands if not shell_words.prints_words(c)]  # echo '---': its own words
            if _all_read(shown) and commands != [p.query]:
                return await self._in_turn(p, shown, visible, [c for c in commands if c not in shown])
        # off the serving loop: a command's paths are read against the files (a checkout's absolute path, a folder
        # named main or v1.2, a path no repository holds), whose lists a first read loads from the segment databases
        read_first = await asyncio.to_thread(self._read_first, p, visible)
        if read_first is None:
            return await self._search_written(p, visible)
        asked, notes, command = read_first
        if command is not None and (command.counts_lines or command.sizes):
            # find … | xargs wc -l: every file listed is counted; find -size +100k: every file listed is sized
            listed = await self._search_written(replace(asked, k=MAX_K), visible)
            if command.sizes:
                listed = await asyncio.to_thread(self._of_sizes, listed, command.sizes)
            if command.counts_lines:
                answer = await asyncio.to_thread(self._lines_counted, listed, command, p.k)
            else:
                answer = _first_files(listed, p.k)
        else:
            answer = await self._search_written(asked, visible)
        if command is not None and command.within != (1, 0):  # head -40 a.py | grep -n def: in its first 40 lines
            answer = await asyncio.to_thread(self._within, answer, command.within)
        if command is not None and command.first_lines:  # rg -n X | head -20: the answer's first 20 matching lines
            answer = _first_lines(answer, command.first_lines)
        return replace(answer, notes=(*notes, *answer.notes))

    def _within(self, answer: Answer, within: tuple[int, int]) -> Answer:
        """``answer``'s matching lines kept to the lines ``within`` of each file (``head -40 a.py | grep def``: its
        first 40; numbered as ``file_read.FileRead`` numbers them: below 0 from the file's end); a file with none left
        out, the totals counting what is kept. An answer without matching lines (fusion's) as it is."""
        if not any(f.hit.match_lines for f in answer.hits):
            return answer
        first, last = within
        reader = self._reader(answer.generation) if first < 0 or last < 0 else None
        kept: list[FusedHit] = []
        confidences: list[float] = []
        for f, confidence in itertools.zip_longest(answer.hits, answer.confidences[: len(answer.hits)]):
            total = 1 << 30  # lines counted from the top need no length
            if reader is not None:  # tail -n 20: the file's length says where its last 20 lines start
                total = _lines_of(reader, f.hit.repo, f.hit.path)[0]
            top, bottom = file_read.kept(first, last, 1, total)
            lines = tuple(n for n in f.hit.match_lines if top <= n <= bottom)
            if not lines:
                continue
            if lines != f.hit.match_lines:  # shown at its first line kept, as the grep prints it
                reader = reader or self._reader(answer.generation)
                f = replace(f, hit=_shown_at(reader, f.hit, lines))
            kept.append(f)
            confidences.extend([confidence] if confidence is not None else [])
        matched = sum(len(f.hit.match_lines) for f in kept)
        return replace(
            answer,
            hits=tuple(kept),
            confidences=tuple(confidences),
            total_matches=matched if answer.total_matches else 0,
            total_files=len(kept) if answer.total_files else 0,
        )

    def _of_sizes(self, listed: Answer, sizes: tuple[str, ...]) -> Answer:
        """The files ``listed`` whose sizes (as indexed: their bytes) pass each of the tests ``sizes`` (``find -size
        +100k``, ``-empty``, ``fd --size -1ki``: ``search_command.size_test``), the totals counting them; a note says
        so where more files were listed than were tested (the first ``MAX_K``). An answer that is no listing (a
        fallback's lines) as it is."""
        if any(f.hit.match_lines for f in listed.hits):
            return listed
        sized = search_command.sizes_test(sizes) or (lambda _: True)
        reader = self._reader(listed.generation)
        known: dict[str, dict[str, int]] = {}
        kept: list[FusedHit] = []
        for f in listed.hits:
            size = _size_of(reader, f.hit.repo, f.hit.path, known)
            if size is not None and sized(size):
                kept.append(f)
        notes = listed.notes
        tested_all = listed.total_files <= len(listed.hits)
        if not tested_all:
            notes = (*notes, f"sized the first {len(listed.hits)} of the {listed.total_files} files listed")
        return replace(
            listed,
            hits=tuple(kept),
            confidences=(),
            total_files=len(kept),
            total_exact=listed.total_exact and tested_all,
            complete=listed.complete and tested_all,
            cursor="",
            notes=notes,
        )

    def _lines_counted(self, listed: Answer, command: search_command.Command, k: int) -> Answer:
        """The files ``listed`` (in the order of their paths), each with its lines counted as ``wc -l`` counts them
        (its newlines), in a note that prints them as wc does: the longest first where the command sorts the counts
        (``| sort -n | tail -5``), as many as the lines it keeps (wc's total among them), at most ``k``."""
        if not listed.hits or any(f.hit.match_lines for f in listed.hits):
            return listed  # nothing listed, or no listing (a fallback's lines): as it is
        reader = self._reader(listed.generation)
        sizes: dict[str, dict[str, int]] = {}
        counted = [(_wc_of(reader, f.hit.repo, f.hit.path, command.counted, sizes), f) for f in listed.hits]
        if command.order == "lines":  # sort -n: by its first count, then the line's text (the path); most first
            counted.sort(key=lambda c: (c[0], c[1].hit.path), reverse=True)
        summed = command.counts_lines == "total" and len(counted) > 1  # wc prints a total after several files
        printed = len(counted) + summed  # the lines wc prints
        kept = counted
        if command.tail:  # | tail -3: the last files, then the total
            kept = counted[len(counted) - min(command.tail - summed, len(counted)) :] if command.tail > summed else []
        elif command.head and command.order == "lines":  # sorted: the total is among the lines kept, at an end
            kept = counted[: max(command.head - summed, 0)]
        elif command.head:  # | head -5: the first lines, the total after every file
            kept = counted[: command.head]
        shown = kept[:k]
        several = len({f.hit.repo for _, f in counted}) > 1
        rows: list[str] = []
        for i, (n, f) in enumerate(shown):
            if sum(len(r) + 2 for r in rows) > MAX_LISTING_NOTE_CHARS - 200:  # a long listing: its hits name the rest
                rows.append(f"… {len(shown) - i} more")
                break
            rows.append(f"{' '.join(map(str, n))} {f'{f.hit.repo}:' if several else ''}{f.hit.path}")
        if summed and (command.order == "lines" or command.tail or not command.head or command.head >= printed):
            rows.append(f"{' '.join(str(sum(column)) for column in zip(*(n for n, _ in counted), strict=True))} total")
        more = listed.total_files - len(counted)
        said = f"{search_command.wc_said(command.counted)}: {', '.join(rows) or 'no file'}"
        if more > 0:
            said += f"; counted the first {len(counted)} of {listed.total_files} files by path (their total too)"
        elif len(shown) < len(counted):
            said += f" ({len(shown)} of the {len(counted)} files counted shown)"
        return replace(
            listed,
            hits=tuple(f for _, f in shown),
            confidences=listed.confidences[: len(shown)] if listed.confidences else (),
            notes=(said, *listed.notes),
            complete=listed.complete and more <= 0 and len(shown) == len(counted),
        )

    async def _in_turn(
        self, p: SearchParams, commands: list[str], visible: frozenset[str] | None, left_out: Sequence[str] = ()
    ) -> Answer:
        """Several commands run one after another (``cat a.py && cat b.py``, ``ls src; grep -rn X src``, a ``for``
        loop's runs): each asked in turn with its share of ``k``, their hits in that order (a hit twice: once), notes
        and totals joined; ``left_out``: the commands that print their own words (``echo '---'``), not asked."""
        t0 = time.perf_counter()
        echoed = f"; left out: {'; '.join(f'`{c}`' for c in left_out)} (printing its own words)" if left_out else ""
        if len(commands) == 1:  # for f in a.py; do cat $f; done, echo '==' && cat a.py: one command asked
            one = await self.search(replace(p, query=commands[0]), visible)
            return replace(one, notes=(f"read as the command `{commands[0]}`{echoed}", *one.notes))
        k = max(1, p.k // len(commands))
        answers = [await self.search(replace(p, query=command, k=k), visible) for command in commands]
        seen: set[tuple[str, str, int, int]] = set()
        hits = []
        for f in (f for a in answers for f in a.hits):
            key = (f.hit.repo, f.hit.path, f.hit.start_line, f.hit.end_line)
            if key not in seen:
                seen.add(key)
                hits.append(f)
        said = "; ".join(f"`{c}`" for c in commands)
        first = answers[0]
        counted = len({bool(a.total_matches) for a in answers}) == 1  # lines and files are no one total
        return replace(
            first,
            intent=first.intent if all(a.intent == first.intent for a in answers) else "exact_match",
            fusion_strategy="+".join(dict.fromkeys(a.fusion_strategy for a in answers)),
            partial=any(a.partial for a in answers),
            missing_shards=tuple(dict.fromkeys(m for a in answers for m in a.missing_shards)),
            hits=tuple(hits[: p.k]),
            total_candidates=sum(a.total_candidates for a in answers),
            notes=(
                f"read as {len(commands)} commands run in turn, each answered: {said}{echoed}",
                *(n for a in answers for n in a.notes),
            ),
            confidences=(),
            no_confident_match=all(a.no_confident_match for a in answers),
            total_matches=sum(a.total_matches for a in answers) if counted else 0,
            total_files=sum(a.total_files for a in answers) if counted else 0,
            total_exact=counted and all(a.total_exact for a in answers),
            complete=all(a.complete for a in answers) and len(hits) <= p.k,
            cursor="",
            timings={"total": (time.perf_counter() - t0) * 1000},
        )

    def _read_first(
        self, p: SearchParams, visible: frozenset[str] | None
    ) -> tuple[SearchParams, tuple[str, ...], search_command.Command | None] | None:
        """``p`` as the command (``search_command``) or the filters (``query_filters``) its query writes ask
        it, the notes that say so, and the command as read (None where only filters are); None where it writes
        neither, asks for a listing of its text as written, or sets ``filters=off``."""
        if p.options.get("mode", "") in LISTING_MODES or p.options.get(query_filters.FILTERS_OPTION) == "off":
            return None
        command = search_command.read(
            p.query, self._absolute_paths(p, visible), lambda: self._searchable(visible), self._folders(p, visible)
        )
        if command is not None:
            asked, note = search_command.apply(p, command)
            note += self._missing(asked, command, visible)
            searched = len(asked.repos) if asked.repos else len(self._searchable(visible))
            if command.folder is not None and searched > 1:  # ls: whose folder? every repository's, summed
                note += f"; across {searched} repositories, their folders summed: ask within one with repo:NAME"
            if command.revision:  # git grep X v1.2: the repositories indexed at v1.2, else the ones asked
                asked, at = self._at_revision(asked, command.revision, visible)
                return asked, (note, at), command
            return asked, (note,), command
        filters = query_filters.read(p.query)
        if filters is None:
            return None
        asked, left_out = query_filters.apply(p, filters, self._searchable(visible), visible is not None, MAX_K)
        after = None
        if not asked.options.get("mode"):
            within = asked.repos or self._searchable(visible)
            after = search_command.read(
                asked.query, self._absolute_paths(asked, visible), lambda: within, self._folders(asked, visible)
            )
        if after is not None:  # repo:api rg -n "retry" src/: the command, within the repositories the filters keep
            commanded, said = search_command.apply(asked, after)
            notes = (f"read the query's filters {' '.join(filters.written)}", said, *left_out)
            return commanded, notes, after
        if asked.options.get("mode") != "paths":
            did = f"searched {asked.query[:80]!r}"
        elif asked.query == "*":  # a query of filters alone: the files they allow
            did = "listed the files they allow"
        else:
            did = f"listed the files whose path holds {asked.query[:80]!r}"
        note = f"read the query's filters {' '.join(filters.written)}; {did}"
        return asked, (note, *left_out), None

    def _searchable(self, visible: frozenset[str] | None) -> frozenset[str]:
        """The registered repositories the caller may search."""
        registered = self._registered_repos()
        return registered if visible is None else registered & visible

    async def _search_written(self, p: SearchParams, visible: frozenset[str] | None) -> Answer:
        """Answer ``p`` from the repositories in ``p.repos`` (empty: all) that ``visible`` allows.

        A restricted caller's search is narrowed to its repositories before the shards are asked,
        and every hit is checked again before it leaves (defence in depth: a shard that ignored
        the filter still leaks nothing). An agent's tool call pasted as the query
        (``find_callers(symbol="retry")``) is asked as the call says: its intent, its subject; an
        explain question about one file (``what does coordinator/fusion.py do``, a call's ``path``)
        is asked of that file (``file_subject``), the usual answer given when it finds nothing; a
        literal or regex listing is the text as written, whatever it looks like.
        """
        listing = p.options.get("mode", "") in LISTING_MODES
        call = None if p.intent or listing else read_tool_call(p.query)
        read_as = None if listing or call or p.intent or p.path_glob or p.cursor else file_read.read(p.query)
        if read_as is not None:  # cat a.py, head -n 40 a.py: the file's segments that hold those lines
            answered = await self._file_read(p, read_as, visible)
            if answered is not None:
                return answered
        if call is not None and call.intent == UNDERSTAND and call.path and not call.subject:
            outlined = await self._folder_outline(p, call, visible)
            if outlined is not None:  # list_code_definition_names(path="src"): each file's overview
                return outlined
        found = None if listing else await self._named_file(p, call, visible)
        if found is None:
            return await self._as_asked(p, call, visible)
        named, confidence = found
        if len(named.files) > 1:
            answer = await self._as_asked(p, call, visible)
            return replace(answer, notes=(*answer.notes, named.ambiguity()))
        t0 = time.monotonic()
        (repo, path), asked = named.files[0], "tool call" if call else "query"
        try:
            answer = await self._of_file(p, repo, path, named.ask, named.whole, visible)
        except InvalidQuery:  # asked otherwise than the caller asked: the usual search is the answer
            return await self._as_asked(p, call, visible)
        if answer.hits:
            note = f"asked of {path} ({repo}), the file the {asked} names: {named.ask[:80]!r}"
            if not named.whole:
                return replace(answer, confidence=confidence, notes=(note, *answer.notes))
            return replace(answer, confidence=confidence, notes=(note, file_subject.OVERVIEW_NOTE, *answer.notes))
        note = f"nothing in {path} ({repo}), the file the {asked} names, answers {named.ask[:80]!r}"
        left_ms = (p.deadline_ms or DEFAULT_DEADLINE_MS) - int((time.monotonic() - t0) * 1000)
        if left_ms > 0:  # the usual answer, in the time left
            answer = await self._as_asked(replace(p, deadline_ms=left_ms), call, visible)
            note = f"{note}: searched every file"
        return replace(answer, notes=(note, *answer.notes))

    async def _as_asked(self, p: SearchParams, call: ToolCall | None, visible: frozenset[str] | None) -> Answer:
        """``p`` searched as written, or as the tool call it is says (its intent, its subject)."""
        if call is None or not call.subject:
            return await self._search(p, visible)
        answer = await self._search(replace(p, query=call.subject, intent=call.intent), visible)
        note = f"read as a tool call: {call.tool} asks {call.intent} of {call.subject[:80]!r}"
        return replace(answer, notes=(note, *answer.notes))

    async def _of_file(
        self, p: SearchParams, repo: str, path: str, ask: str, whole: bool, visible: frozenset[str] | None
    ) -> Answer:
        """``ask`` asked of ``repo``'s file ``path`` alone, its segments ranked (``whole``: in an overview's order,
        ``_overview``), the first ``p.k``."""
        scoped = replace(
            p,
            query=ask,
            intent=UNDERSTAND,
            repos=(repo,),
            path_glob=path,  # holds no glob syntax (``file_subject.path_glob``)
            options={"segments": "all", **p.options},  # the file's segments, not its one best
        )
        if not whole:
            return await self._search(scoped, visible)
        # an overview orders more of the file's segments than the page shows
        answer = await self._search(replace(scoped, k=max(p.k, file_subject.OVERVIEW_DEPTH)), visible)
        return await self._overview(answer, p.k) if answer.hits else answer

    async def _folder_outline(self, p: SearchParams, call: ToolCall, visible: frozenset[str] | None) -> Answer | None:
        """An overview call of a folder (Cline's ``list_code_definition_names(path="src")``, ``explain_code(path=…)``)
        answered by the overview of each file directly in it, in path order, each with its share of ``k`` (at most
        ``MAX_OUTLINED`` files); None where the path is no folder of one repository the caller may search, or the
        caller's own path glob or page is asked (the usual search answers those)."""
        if p.path_glob or p.cursor:
            return None
        found = await asyncio.to_thread(self._live_files, p, visible)
        if found is None:
            return None
        index, repos = found
        written = call.path.strip()
        folder = (await asyncio.to_thread(index.relative, written, repos) if written.startswith("/") else written) or ""
        folder = folder.strip("/")
        files = await asyncio.to_thread(index.files_in, folder, repos) if folder else []
        if not files or len({repo for repo, _ in files}) > 1:
            return None
        t0 = time.perf_counter()
        share = max(1, p.k // min(len(files), MAX_OUTLINED))
        answers = []
        for repo, path in files[:MAX_OUTLINED]:
            ask = file_subject.name_words(path)
            answer = await self._of_file(replace(p, k=share), repo, path, ask, True, visible)
            if not answer.hits:  # its name's words are in none of its segments: its top-level segments, in order
                segments = await asyncio.to_thread(_segments_of, self._reader(answer.generation), repo, path)
                top = sorted((s for s in segments if s.parent_id is None), key=lambda s: s.start_line)[:share]
                answer = replace(answer, hits=tuple(file_read.segment_hit(s) for s in top))
            answers.append(answer)
        more = f"; the first {MAX_OUTLINED} of its {len(files)} files" if len(files) > MAX_OUTLINED else ""
        said = (
            f"read as the tool call {call.tool}: the overview of each file directly in {folder} ({files[0][0]}){more}"
        )
        hits = [f for a in answers for f in a.hits][: p.k]
        return replace(
            answers[0],
            hits=tuple(hits),
            confidences=(),
            confidence=intent_mod.TOOL_CALL_CONFIDENCE,
            notes=(said, file_subject.OVERVIEW_NOTE),
            total_candidates=sum(a.total_candidates for a in answers),
            complete=len(files) <= MAX_OUTLINED and len(hits) == sum(len(a.hits) for a in answers),
            timings={"total": (time.perf_counter() - t0) * 1000},
        )

    async def _named_file(
        self, p: SearchParams, call: ToolCall | None, visible: frozenset[str] | None
    ) -> tuple[file_subject.Named, float] | None:
        """The file(s) an explain question (or call) names among the repositories the caller may search,
        and how sure the reading of it as an explain question is (the classifier's, or the tool call
        rule's); None when it names none or asks something else (``file_subject``). The caller's own path glob,
        or a search this cannot be (a cursor, bad parameters: the usual search says what is wrong), is
        left as it is; a hidden repository's files are never looked at."""
        if p.path_glob or p.cursor or (p.intent and p.intent != UNDERSTAND):
            return None
        if call is not None and call.intent != UNDERSTAND:
            return None
        text = p.query if call is None else call.subject
        if not (call is not None and call.path) and not file_subject.mentions(text[:MAX_QUERY_CHARS]):
            return None
        found = await self._file_resolver(p, visible)
        if found is None:
            return None
        resolve = found[1]
        named = await asyncio.to_thread(file_subject.named, text, call, lambda path: resolve(path, False))  # lists
        if named is not None and len(named.files) == 1 and file_subject.path_glob(named.files[0][1]) is None:
            return None
        if named is None:
            return None
        if p.intent or (call is None and file_subject.is_path_alone(text, named.written)):
            return named, 1.0  # asked as an explain question, or the query is a file's path alone: the file itself
        if call is not None:
            return named, intent_mod.TOOL_CALL_CONFIDENCE
        reports = p.options.get("localize") != "off"
        asked = await asyncio.to_thread(intent_mod.classify, p.query, self.extra_rules, reports=reports)
        return (named, asked.confidence) if asked.intent == UNDERSTAND else None

    async def _file_resolver(
        self, p: SearchParams, visible: frozenset[str] | None
    ) -> tuple[str, Callable[[str, bool], list[tuple[str, str]]]] | None:
        """The generation, and the (repository, path) files a written path names among the repositories the
        caller may search (``file_subject.FileIndex``); None for a search that cannot be (bad parameters: the
        usual search says what is wrong). A hidden repository's files are never looked at."""
        try:
            generation = await self.current_generation()
        except FourfoldError:
            return None
        found = self._files_of(generation, p, visible)
        if found is None:
            return None
        files, repos = found
        return generation, lambda path, globstar: files.resolve(path, repos, globstar)

    def _files_of(
        self, generation: str, p: SearchParams, visible: frozenset[str] | None
    ) -> tuple[file_subject.FileIndex, list[str]] | None:
        """The generation's files by name, and the repositories of it the caller may search; None where ``p``
        cannot be searched (the usual search says why)."""
        p = _revision_repos(p)
        try:
            self.validate(p, visible)
        except FourfoldError:
            return None
        reader = self._reader(generation)
        if self._files is None or self._files.generation != generation:
            self._files = file_subject.FileIndex(generation, reader.paths, reader.unheld)
        allowed = self._scope(p, visible)
        return self._files, [r for r in reader.segment_repos() if allowed is None or r in allowed]

    def _unindexed(
        self, generation: str, p: SearchParams, visible: frozenset[str] | None
    ) -> tuple[file_subject.FileIndex, list[str], dict[str, int]] | None:
        """The generation's files, the repositories ``p`` may search, and how many files each does not index."""
        found = self._files_of(generation, p, visible)
        if found is None:
            return None
        records = self._reader(generation).manifest.get("repos") or {}
        counts = {r: int(rec.get("unheld") or 0) for r, rec in records.items() if isinstance(rec, dict)}
        return found[0], found[1], counts

    def _unindexed_listed(
        self, generation: str, p: SearchParams, visible: frozenset[str] | None, query: ModalityQuery
    ) -> str:
        """A path listing's note naming the files it would list that are not indexed (binary, too large); ""."""
        found = self._unindexed(generation, p, visible)
        repos = [r for r in found[1] if not query.repos or r in query.repos] if found else []
        if not found or not repos:
            return ""
        return unindexed.note(unindexed.listed(found[0], repos, found[2], query), several=len(repos) > 1)

    def _unindexed_read(self, generation: str, p: SearchParams, visible: frozenset[str] | None, path: str) -> str:
        """Why a read of ``path`` shows nothing where it names files that are not indexed; ""."""
        found = self._unindexed(generation, p, visible)
        return unindexed.unread(unindexed.named(*found, path)) if found else ""

    def _absolute_paths(self, p: SearchParams, visible: frozenset[str] | None) -> Callable[[str], str | None]:
        """How a command's absolute folder or file (an agent's checkout path) is read as the index's path
        (``FileIndex.relative``), among the repositories the caller may search; looked at only when one is written."""

        def relative(path: str) -> str | None:
            found = self._live_files(p, visible)
            return None if found is None else found[0].relative(path, found[1])

        return relative

    def _live_files(
        self, p: SearchParams, visible: frozenset[str] | None
    ) -> tuple[file_subject.FileIndex, list[str]] | None:
        """The serving generation's files by name and the repositories of it ``p`` may search (``_files_of``), as a
        command's paths are read against them; None where no generation is live or ``p`` cannot be searched."""
        generation = self._generation or self.store.live_generation()
        return None if generation is None else self._files_of(generation, p, visible)

    def _missing(self, p: SearchParams, command: search_command.Command, visible: frozenset[str] | None) -> str:
        """What a note adds where a folder or file the command names is none of the repositories ``p`` searches
        (``rg X coordinator/web``, where the tool says no such file or directory): the paths that end so, else ""."""
        written = [w.strip("/") for w in command.paths if w.strip("/") and not any(c in w for c in GLOB_CHARS)]
        found = self._live_files(p, visible) if written else None
        if found is None:
            return ""
        said = []
        for path in written:
            if not found[0].holds(path, found[1]):
                near = found[0].ending(path, found[1])
                said.append(
                    f"{path} is no file or folder of the repositories searched"
                    if not near
                    else f"{path} is no file or folder at the top: it names {', '.join(near)}"
                )
        return "".join(f"; {s}" for s in said)

    def _folders(self, p: SearchParams, visible: frozenset[str] | None) -> Callable[[str], bool]:
        """Whether a command's path (``vendor/github.com``) is a folder of the repositories the caller may search
        (``FileIndex.is_folder``); looked at only when a path whose last name holds a dot, or more than two bare words
        after a pattern (``rg X src lib tests``), are written."""

        def is_folder(path: str) -> bool:
            found = self._live_files(p, visible)
            return found is not None and found[0].is_folder(path, found[1])

        return is_folder

    async def _file_read(
        self, p: SearchParams, read_as: file_read.FileRead, visible: frozenset[str] | None
    ) -> Answer | None:
        """A command that reads a file (``cat a.py``, ``sed -n '10,40p' a.py``) answered by the file's segments
        that hold those lines (``file_read``); no hits, and a note that says why, where its path names no file the
        caller may search or several; None for a search that cannot be (the usual search says what is wrong).
        Several files (``cat a.py b.py``) are answered one after another, each with its share of ``k``; as one
        stream (``sed -n '1,80p' a.py b.py``), each with the stream's lines it holds, until the lines run out or a
        path names no one file (the lines of the files after it are then unknown)."""
        t0 = time.perf_counter()
        revised: tuple[str, ...] = ()
        if read_as.revision:  # git show v1.2:a.py: the repositories indexed at v1.2, else the ones asked
            p, at = self._at_revision(p, read_as.revision, visible)
            revised = (at,)
        found = await self._file_resolver(p, visible)
        if found is None:
            return None
        generation, resolve = found
        reads, expanded = await asyncio.to_thread(_expanded, read_as, resolve)  # may read the file lists
        if read_as.stream and (read_as.first < 0 or read_as.last < 0 or read_as.then):
            # cat *.go | tail -n 5: from the stream's end; | head -n 50 | tail -n 10: the end of its first 50 lines
            counted = await asyncio.to_thread(self._stream_lines, reads, resolve, generation)
            if isinstance(counted, tuple):  # a file of the stream is none, or several: its lines are unknown
                unread = file_read.unread(counted[0], counted[1], generation)
                return replace(unread, notes=(*revised, *expanded, *unread.notes))
            first, last = read_as.lines(counted)
            if first > last:
                return file_read.past_end(replace(read_as, first=first, then=()), counted, generation)
            read_as = replace(read_as, first=first, last=last if last < counted else 0, then=())
            reads = [(replace(one, first=read_as.first, last=read_as.last, then=()), known) for one, known in reads]
        answers: list[Answer] = []
        offset = 0  # a stream's lines in the files before this one
        for one, known in reads:
            if read_as.stream and read_as.last and offset >= read_as.last:
                break  # the stream's lines end before this file
            files = known if known is not None else await asyncio.to_thread(resolve, one.path, False)
            whole = [(repo, path) for repo, path in files if path == one.path]  # cat index.js: ./index.js, as a shell
            files = whole or files
            if not files and len(reads) == 1 and file_read.bare(one.path):
                return None  # "less CPU": no file so named, the words searched
            no_glob = not set(one.path) & set("*?[{")  # a glob or braces naming nothing: no folder to list
            if not files and len(reads) == 1 and one.viewed_whole and not one.path.startswith(("/", "~")) and no_glob:
                # an editor's view of a folder ({"command": "view", "path": "src"}) lists it, as ls does
                listed = await self.search(replace(p, query=f"ls {shlex.quote(one.path)}"), visible)
                if listed.hits or any(n.startswith("text: folders in ") for n in listed.notes):
                    return replace(listed, notes=(f"{one.path!r} is a folder: listed as ls lists it", *listed.notes))
            if len(files) != 1:  # no file, or several: the answer says so (a search for the command's words is none)
                why = "" if files else await asyncio.to_thread(self._unindexed_read, generation, p, visible, one.path)
                unread = file_read.unread(one, files, generation, why)
                if read_as.stream:
                    answers.append(unread)  # the lines of the files after it are unknown
                    break
                answer: Answer | None = unread
            else:
                (repo, path), reader = files[0], self._reader(generation)
                segments, total, ended = await asyncio.to_thread(_file_of, reader, repo, path)
                if read_as.stream:  # its part of the stream's lines, numbered in it
                    part, offset = one.in_stream(offset, total), offset + total
                    if part is None:
                        continue
                    one = part
                k = max(1, p.k // len(reads))
                counts = _wc_of(reader, repo, path, one.counted) if one.counted not in ("", "l") else ()
                answer = file_read.answer(one, repo, path, segments, k, generation, total, ended, counts)
                if answer is not None and p.with_snippets and answer.hits:
                    answer = replace(answer, hits=tuple(self._snippets(reader, answer.hits)))
            if answer is None and len(reads) == 1:
                return None
            answers.extend([answer] if answer is not None else [])
        if not answers:  # a stream's lines all past its files' ends
            return file_read.past_end(read_as, offset, generation)
        answer = answers[0] if len(answers) == 1 else file_read.joined(answers, generation, p.k, bool(read_as.counted))
        notes = (*revised, *expanded, *answer.notes)
        return replace(answer, notes=notes, timings={"total": (time.perf_counter() - t0) * 1000})

    def _stream_lines(
        self,
        reads: list[tuple[file_read.FileRead, list[tuple[str, str]] | None]],
        resolve: Callable[[str, bool], list[tuple[str, str]]],
        generation: str,
    ) -> int | tuple[file_read.FileRead, list[tuple[str, str]]]:
        """How many lines the files of a stream hold in all (``cat *.go | tail -n 5`` starts that many from its end);
        the read of the first that names no one file, and the files it names, where one does not."""
        reader, total = self._reader(generation), 0
        for one, known in reads:
            files = known if known is not None else resolve(one.path, False)
            files = [(repo, path) for repo, path in files if path == one.path] or files
            if len(files) != 1:
                return one, files
            total += _lines_of(reader, *files[0])[0]
        return total

    def _at_revision(self, p: SearchParams, revision: str, visible: frozenset[str] | None) -> tuple[SearchParams, str]:
        """``p`` kept to the repositories indexed at ``revision`` (``NAME@REV``; of those ``p`` names, where it names
        some), and the note that says which; where none is, ``p`` as asked and a note that says the file is read at
        the revision indexed."""
        named = {split_index_name(revision_name(r))[0] for r in p.repos}
        held = sorted(
            r
            for r in self._searchable(visible)
            if split_index_name(r)[1] == revision and (not named or split_index_name(r)[0] in named)
        )
        if held:
            return replace(p, repos=tuple(held)), f"read at {revision}: the index holds it as {', '.join(held)}"
        return p, (
            f"the index holds no revision {revision!r} apart: read at the revision indexed "
            "(`fourfold status` lists the repositories and revisions indexed)"
        )

    async def _overview(self, answer: Answer, k: int) -> Answer:
        """A whole file's answer in an overview's order (``file_subject.overview_order``), its first ``k``
        hits: the segment that opens the file is read from the answer's generation to see whether it
        is the file's account of itself."""
        reader = self._reader(answer.generation)
        top = [f.hit for f in answer.hits if f.hit.symbol is None]
        rows = await asyncio.to_thread(reader.segment_rows, (h.segment_id for h in top), repos=[h.repo for h in top])
        order = file_subject.overview_order(
            answer.hits, lambda f: rows[f.hit.segment_id].content if f.hit.segment_id in rows else ""
        )[:k]
        confidences = tuple(answer.confidences[i] for i in order) if answer.confidences else ()
        return replace(answer, hits=tuple(answer.hits[i] for i in order), confidences=confidences)

    async def _known_type(self, p: SearchParams, plan: Plan, visible: frozenset[str] | None) -> Plan | Answer | None:
        """An implementations question about a name that only a guess read, which the index knows as a type.

        "who implements setter" (a plain word: Go's unexported interfaces): the plan that asks the graph for its
        implementations directly (rule ``implements-known-type``), or, where the definition's name is written in
        another case ("who implements modality"; the graph reads names as written), the answer to the question
        asked with that name, which says so. "implementations of Formatter" (the noun, which also asks for code
        like a function): the graph's implementations of it, noted, where it finds any. None when the question is
        neither, structural knows no such type, or the graph no implementations."""
        named = identifier.implementations_named(p, plan)
        if named is not None:
            return await self._implementations_of(p, named, visible)
        asked = identifier.implemented_word(p, plan)
        if asked is None or "structural" not in self.plugins.modalities:
            return None
        word = asked.group(1)
        options = {**identifier.inner_options(p), "segments": "all"}  # every definition, not a file's best
        lookup = replace(p, query=word, k=100, intent="find_definition", modalities=("structural",), options=options)
        found = identifier.defines_type((await self.search(lookup, visible)).hits, word)
        if found is None:
            return None
        name = found.hit.symbol or word
        if name != word:
            answer = await self._search(
                replace(p, query=p.query[: asked.start(1)] + name + p.query[asked.end(1) :]), visible
            )
            note = (
                f"read {word!r} as {found.hit.kind} {name} ({found.hit.repo}:{found.hit.path}), the index's definition"
            )
            return replace(answer, notes=(note, *answer.notes))
        forced = self.plan(replace(p, intent="find_references"), plan.preset)
        return replace(forced, confidence=identifier.KNOWN_TYPE_CONFIDENCE, rule=identifier.KNOWN_TYPE_RULE)

    async def _implementations_of(self, p: SearchParams, name: str, visible: frozenset[str] | None) -> Answer | None:
        """ "implementations of X": the graph's implementations of X, asked as an agent's tool asks them
        (``relation=implementations``: the types X names, in another case too, or the classes naming a base defined
        outside the index), with a note; None where it finds none (X a function, a type nothing implements, an unknown
        word), and the question keeps the guess's reading: code like X."""
        if "graph" not in self.plugins.modalities:
            return None
        request = replace(p, query=name, intent="find_references", options={**p.options, "relation": "implementations"})
        answer = await self._search(request, visible)
        if not answer.hits:
            return None
        note = (
            f"read as the types implementing or extending {name}; for code that does what it does, ask with intent "
            "find_similar"
        )
        return replace(answer, confidence=identifier.KNOWN_TYPE_CONFIDENCE, notes=(note, *answer.notes))

    async def _search(self, p: SearchParams, visible: frozenset[str] | None) -> Answer:
        t0 = time.perf_counter()
        p = _revision_repos(p)
        preset = self.validate(p, visible)
        generation = await self.current_generation()
        # off the event loop: the learned layer may embed the query (a few ms of onnxruntime, which
        # releases the GIL), and a burst of such queries must not hold up the loop's other calls
        plan = await asyncio.to_thread(self.plan, p, preset)
        log.debug("%r: %s", p.query[:80], plan.describe())
        listing = self._is_listing(p, plan)
        if plan.intent == localize.LOCALIZE and not listing:  # a bug report: its own plan of searches
            return await self._localize(p, plan, generation, visible)
        bare = identifier.applies(p, plan, self.plugins.modalities)
        if bare is not None:  # a bare name: structural and text first, fused only when they disagree
            return await identifier.answer(self, p, plan, bare, visible)
        known_type = await self._known_type(p, plan, visible)
        if isinstance(known_type, Answer):
            return known_type
        if known_type is not None:
            plan = known_type
        t_classify = time.perf_counter()
        allowed = self._scope(p, visible)
        weights = plan.weights if allowed is None or allowed else {}  # nothing the caller may read: ask no one
        depth = min(max(3 * p.k, 30), 300)
        if plan.intent in code_first.RELATION_INTENTS:
            # the uses of a name crowd into few files (every test calls runner.invoke): deep enough that one
            # segment a file still fills the page
            depth = min(max(RELATION_DEPTH * p.k, 100), 300)
        offset = 0
        options = dict(p.options)
        if code_first.asks_for_auxiliary(p.query):  # "which tests call X": the tests' uses rank as the code's
            options.setdefault(CODE_FIRST_OPTION, "off")
        if listing:
            # one hit per file with every matching line; deep enough for this page after the cursor's
            options["group"] = "file"
            offset = self._cursor_offset(p, generation, allowed)
            depth = offset + p.k
        elif p.cursor:
            raise InvalidQuery(
                "a cursor continues a literal or regex listing (text modality alone); this search ranks "
                "instead: ask again without the cursor, or with mode=literal/regex"
            )
        query = ModalityQuery(
            text=p.query,
            k=depth,
            intent=plan.intent,
            repos=tuple(sorted(allowed)) if allowed is not None else (),
            path_glob=p.path_glob or None,
            languages=p.languages,
            case_sensitive=p.case_sensitive,
            # a restricted caller's answer must be the one the store would give without the others;
            # fallbacks run as follow-up rounds, only when no shard found anything
            options={**options, FALLBACK_OPTION: "defer", **({SCOPE_OPTION: "only"} if visible is not None else {})},
        )
        targets = self._targets(generation, weights, allowed, visible)
        deadline = time.monotonic() + (p.deadline_ms or DEFAULT_DEADLINE_MS) / 1000.0
        first = await self.searcher.search(generation, targets.shards, query, deadline)
        t_first = time.perf_counter()
        more = await follow_up_rounds(first, query, targets.covering, self._asker(generation, deadline), deadline)
        t_fanout = time.perf_counter()
        collected = self._collect([*first, *more.answers], targets, weights, allowed, visible)
        absent = sorted(m for m in weights if m not in targets.covering)
        if absent:  # a generation published before every modality was built (or one whose build failed)
            collected.notes.append(
                f"generation {generation} has no {', '.join(absent)} yet (still building or failed: see "
                f"`fourfold status`); answered by {', '.join(sorted(targets.covering)) or 'no modality'}"
            )
        if more.exhausted:
            collected.notes.append(
                f"stopped after {more.rounds} follow-up rounds (the limit or the deadline): "
                "a walk across partitions may be incomplete"
            )
        ranked = self._ranked(collected.per_modality, depth, allowed, query)
        if plan.intent in echo.INTENTS and not listing and p.options.get(echo.OPTION) != "off":
            ranked = await self._without_quoting(p, generation, ranked, collected.notes)
        pinned: frozenset[str] = frozenset()
        answering = _Answering(generation, query, allowed, visible, deadline)
        if plan.intent in copied.INTENTS and not listing and p.options.get(copied.OPTION) != "off":
            wanted = copied.lines(p.query, plan.intent)
            if wanted:
                ranked, pinned = await self._copied_from(p, wanted, ranked, answering, collected.notes)
        if (
            plan.intent in declared.INTENTS
            and not (listing or pinned or p.modalities)
            and p.options.get(declared.OPTION) != "off"
            and "text" in self.plugins.modalities
        ):
            ranked, pinned = await self._declared(p, ranked, answering, collected.notes)
        if not listing:
            weights = self._shared(p, plan, ranked, weights, collected.notes)
        preferred = frozenset() if listing else self._named_repos(p, plan, allowed)
        if preferred:
            collected.notes.insert(0, named_repo.note(preferred))  # it explains the order: first
        fused = (
            listed(ranked.get("text", []))  # a listing's order stands, so pages extend each other
            if listing
            else fuse(
                ranked,
                weights,
                plan.preset.rrf_k,
                use_centrality=plan.strategy == "fused",
                # impact lists dependents (two functions, two answers), "who implements X" its implementers
                # (two types, two answers), "what does X call" its callees (two functions of one file, two
                # answers); segments=all asks for every segment
                per_file=plan.intent != "impact_analysis"
                and not (
                    plan.intent == "find_references"
                    and (
                        asks_for_implementations(p.query)
                        or plan.rule in ("implements-pasted", identifier.KNOWN_TYPE_RULE)
                        or asks_for_callees(p.query)
                        or p.options.get("relation") in ("implementations", "callees")  # a tool's request
                    )
                )
                and p.options.get("segments") != "all",
                further=(
                    FURTHER_SEGMENT
                    if plan.fusion_intent == "understand_code" and p.options.get(FILE_SEGMENTS_OPTION) != "one"
                    else 0.0
                ),
                centrality_scale=centrality_scale(p.options.get("profile", ""), plan.fusion_intent),
                method=fusion_method(p.options.get("profile", ""), plan.fusion_intent),
                demote_kinds=(
                    code_first.demoted_kinds(p.query)
                    if plan.intent in code_first.INTENTS and p.options.get(code_first.OPTION) != "off"
                    else frozenset()
                ),
                prefer_repos=preferred,
                pinned=pinned,
            )
        )
        if (
            plan.intent in code_first.RELATION_INTENTS
            and not listing
            and options.get(CODE_FIRST_OPTION) != "off"
            and any(w > 0 for w in weights.values())
        ):  # the uses of a name: the shipped code's before the tests' where the modality finding uses says so
            fused = code_first.shipped_first(fused, dominant(weights))
        elif plan.intent in code_first.RELATION_INTENTS and not listing and p.options.get(CODE_FIRST_OPTION) != "off":
            fused = code_first.asked_first(fused, code_first.auxiliary_asked(p.query))  # "which tests call X"
        # a path listing that finds no file is the answer: its pattern is no question for the other modalities; so is
        # a listing piped into greps (| grep -v _test): fusion's candidates would hold the lines they leave out
        chosen_direct = (
            plan.strategy == "direct"
            and plan.rule != "forced"
            and not plan.preset.fixed
            and p.options.get("mode") != "paths"
            and not p.options.get(LINE_FILTERS_OPTION)
        )
        if chosen_direct and weights and not (p.modalities or p.weights or fused or collected.missing):
            # the dominant modality found nothing: never answer with less than fusion would (once: weights set),
            # with every modality the intent's profile leaves at 0 given a little weight (a quoted sentence
            # no file holds still has semantic neighbours). A shard that could not answer is not "nothing":
            # that answer is partial and names it.
            left_ms = int((deadline - time.monotonic()) * 1000)
            profile = select_profiles(p.options.get("profile", ""), self.profiles).get(plan.intent, {})
            floor = {m: profile.get(m) or 0.05 for m in self.plugins.modalities}
            named = mentions.asked(p, plan) if left_ms > 0 else None
            if named is not None:  # a references or impact question naming code: where text finds it written
                mentioned = await mentions.answer(self, p, plan, named, visible, left_ms)
                if mentioned is not None:
                    return mentioned
                left_ms = int((deadline - time.monotonic()) * 1000)
            if left_ms > 0:
                fused_answer = await self.search(replace(p, weights=floor, deadline_ms=left_ms), visible)
                note = f"direct path ({', '.join(weights)}) found nothing: answered by fusion"
                return replace(fused_answer, notes=(note, *fused_answer.notes))
        reader = self._reader(generation)
        fused, rerank_scores, rerank_status = await self._rerank(p, reader, fused, deadline)
        hits = fused[offset : offset + p.k] if listing else fused[: p.k]
        if p.options.get("mode") == "paths":  # find, fd, ls: the files it would list that are not indexed, named
            unlisted = await asyncio.to_thread(self._unindexed_listed, generation, p, visible, query)
            if unlisted:
                collected.notes.append(unlisted)
        confidences, refused = self._judge(hits, rerank_scores, rerank_status, collected.notes)
        if not listing and not collected.missing:  # also where semantic refused, or nothing came back: this says why
            missing = await self._absent_subject(p, plan, ranked, hits, visible, deadline)
            if missing:
                refused = True
                collected.notes.insert(0, missing)
        if p.with_snippets and hits:
            hits = self._snippets(reader, hits)
        if p.options.get(EXPLAIN_OPTION):
            collected.notes.insert(0, plan.describe())
        t_fuse = time.perf_counter()
        timings = {
            "classify": (t_classify - t0) * 1000,
            "fanout": (t_fanout - t_classify) * 1000,
            "fuse": (t_fuse - t_fanout) * 1000,
            "total": (t_fuse - t0) * 1000,
        }
        timings.update({f"modality:{m}": ms for m, ms in collected.modality_ms.items()})
        if more.rounds:
            timings[f"follow_up:{more.rounds}"] = (t_fanout - t_first) * 1000  # the stage names how many rounds ran
        if p.options.get(identifier.IDENTIFIER_OPTION) != identifier.INNER:  # counted once, as the answer it makes
            metrics.observe(plan.intent, plan.strategy, timings, bool(collected.missing))
        return Answer(
            intent=plan.intent,
            confidence=plan.confidence,
            fusion_strategy=plan.strategy,
            preset=plan.preset.name,
            partial=bool(collected.missing),
            missing_shards=tuple(sorted(set(collected.missing))),
            hits=tuple(hits),
            total_candidates=len(fused),
            timings=timings,
            generation=generation,
            notes=tidy_notes(collected.notes, p.query, listing=FOLDERS_OPTION in p.options),
            weights=weights,
            rerank=rerank_status,
            no_confident_match=refused,
            confidences=confidences,
            **_ListingTotals.of(collected.results).answer_fields(
                listing=listing,
                partial=bool(collected.missing),
                returned=offset + len(hits),
                next_cursor=lambda n: encode_cursor(Cursor(n, generation, self._digest(p, allowed))),
            ),
        )

    async def _contents(self, generation: str, ranked: Mapping[str, Sequence[Hit]]) -> dict[str, str]:
        """The text of every segment ``ranked`` lists (id -> content), from the catalog."""
        repos = {h.segment_id: h.repo for hits in ranked.values() for h in hits}
        if not repos:
            return {}
        reader = self._reader(generation)
        rows = await asyncio.to_thread(reader.segment_rows, list(repos), repos=sorted(set(repos.values())))
        return {sid: seg.content for sid, seg in rows.items()}

    async def _text_lookup(
        self, at: _Answering, text: str, k: int, mode: str, case_sensitive: bool | None = None
    ) -> list[Hit]:
        """Text's ``k`` best segments for ``text`` as a ``mode`` listing (one hit a segment, not a file), in the
        scope and deadline of the answer ``at`` describes, filtered as its own lists are."""
        options = {**{key: v for key, v in at.query.options.items() if key != "group"}, "mode": mode}
        case = at.query.case_sensitive if case_sensitive is None else case_sensitive
        lookup = replace(at.query, text=text, k=k, intent="exact_match", options=options, case_sensitive=case)
        shards = self._targets(at.generation, {"text": 1.0}, at.allowed, at.visible).shards
        answers = await self.searcher.search(at.generation, shards, lookup, at.deadline)
        lists = [list(a.result.hits) for a in answers if a.result is not None]
        return self._ranked({"text": lists}, k, at.allowed, lookup)["text"]

    @staticmethod
    def _joined(ranked: dict[str, list[Hit]], hits: Sequence[Hit]) -> dict[str, list[Hit]]:
        """``ranked`` with the ``hits`` text's list does not hold appended to it at its last score (no list's best
        score moves)."""
        text = ranked.get("text", [])
        listed_ids = {h.segment_id for h in text}
        last = text[-1].score if text else 1.0
        return {**ranked, "text": [*text, *(replace(h, score=last) for h in hits if h.segment_id not in listed_ids)]}

    async def _copied_from(
        self, p: SearchParams, wanted: list[str], ranked: dict[str, list[Hit]], at: _Answering, notes: list[str]
    ) -> tuple[dict[str, list[Hit]], frozenset[str]]:
        """``ranked`` with the code the pasted ``wanted`` lines were copied from, and the ids of the segments that
        hold every line (``copied``): fused first. Besides the lists' candidates, text is asked for the longest
        line as a literal (``copied.LOOKUP_K`` segments, in the caller's scope): a long function BM25 ranks low may
        be in no list. A holder only the lookup found joins text's list at its last score (no list's best score
        moves). The candidates' and the lookup's text is read from the catalog at once."""
        looked: list[Hit] = []
        if "text" in self.plugins.modalities and not p.modalities and time.monotonic() < at.deadline:
            found = await self._text_lookup(at, max(wanted, key=len), copied.LOOKUP_K, "literal")
            listed_ids = {h.segment_id for hits in ranked.values() for h in hits}
            looked = [h for h in found if h.segment_id not in listed_ids]
        every = {**ranked, "": looked}
        spans = {h.segment_id: (h.repo, h.path, h.start_line, h.end_line) for hits in every.values() for h in hits}
        holders = copied.innermost(copied.holders(wanted, await self._contents(at.generation, every)), spans)
        if not holders:
            return ranked, frozenset()
        ranked = self._joined(ranked, [h for h in looked if h.segment_id in holders])
        notes.append(
            f"{len(holders)} segment(s) hold every pasted line as written, in order: shown first "
            f"(the code it was copied from; {copied.OPTION}=off leaves them to fusion)"
        )
        return ranked, frozenset(holders)

    async def _declared(
        self, p: SearchParams, ranked: dict[str, list[Hit]], at: _Answering, notes: list[str]
    ) -> tuple[dict[str, list[Hit]], frozenset[str]]:
        """``ranked`` with the segments that declare the question's name, and their ids (fused first), where
        structural's list defines no such name (``declared``); as it was where text finds more than
        ``declared.MOST`` declarations or none, or time is up."""
        word = declared.name(p.query)
        if word is None or declared.defined(word, ranked.get("structural", ())) or time.monotonic() >= at.deadline:
            return ranked, frozenset()
        found = await self._text_lookup(at, declared.pattern(word), declared.MOST + 1, "regex", case_sensitive=True)
        lines = sum(len(h.match_lines) or 1 for h in found)
        if not found or lines > declared.MOST:
            return ranked, frozenset()
        found = declared.first_in_file(found)
        notes.append(declared.note(word, lines))
        return self._joined(ranked, found), frozenset(h.segment_id for h in found)

    async def _without_quoting(
        self, p: SearchParams, generation: str, ranked: dict[str, list[Hit]], notes: list[str]
    ) -> dict[str, list[Hit]]:
        """``ranked`` without the segments that quote the prose question itself (``echo``): a query list,
        test data or a demo script holding the sentence is the question, not its answer."""
        if not echo.asks_enough(p.query):
            return ranked
        quoting = echo.quoting(p.query, await self._contents(generation, ranked))
        if not quoting:
            return ranked
        left = sorted({(h.repo, h.path) for hits in ranked.values() for h in hits if h.segment_id in quoting})
        shown = ", ".join(f"{repo}:{path}" for repo, path in left[:3]) + (
            f" and {len(left) - 3} more" if len(left) > 3 else ""
        )
        notes.append(
            f"left out {len(quoting)} segment(s) that quote the question itself ({shown}): the question, not its answer"
        )
        return {m: [h for h in hits if h.segment_id not in quoting] for m, hits in ranked.items()}

    async def _absent_subject(
        self,
        p: SearchParams,
        plan: Plan,
        ranked: Mapping[str, Sequence[Hit]],
        hits: Sequence[FusedHit],
        visible: frozenset[str] | None,
        deadline: float,
    ) -> str:
        """The note of a definition, references or impact answer whose question names code that no file
        searched holds, or of a references or impact question that names nothing (``absent``), "" otherwise.
        The answer's own lists are the evidence first;
        only when they show nothing of the name is text asked for it as a whole word, in the time left,
        with the caller's scope."""
        if plan.intent not in absent.INTENTS or "text" not in self.plugins.modalities:
            return ""
        if p.modalities or p.options.get(identifier.IDENTIFIER_OPTION) == identifier.INNER:
            return ""
        asked = absent.subject(p.query)
        if asked is None:
            return (
                absent.UNNAMED_NOTE if plan.intent in absent.RELATION_INTENTS and absent.names_nothing(p.query) else ""
            )
        if absent.evidenced(asked, ranked, hits):
            return ""
        left_ms = int((deadline - time.monotonic()) * 1000)
        if left_ms <= 0:
            return ""
        found = await self.search(replace(identifier.word_lookup(p, asked.word, 1), deadline_ms=left_ms), visible)
        return "" if found.hits or found.partial else absent.note(asked)

    @staticmethod
    def _shared(
        p: SearchParams, plan: Plan, ranked: Mapping[str, Sequence[Hit]], weights: Mapping[str, float], notes: list[str]
    ) -> Mapping[str, float]:
        """``weights`` with text and semantic sharing their sum by this query's lists, where the profile
        says so (``profiles.lexical_share``): not for weights the caller set, nor for a quoted span (the
        text list then holds literal matches, scored otherwise than BM25)."""
        asked = p.options.get(LEXICAL_SHARE_OPTION, "on")
        if asked not in ("on", "off"):
            raise InvalidQuery(f"option {LEXICAL_SHARE_OPTION} must be 'on' or 'off', got {asked!r}")
        share = lexical_share(p.options.get("profile", ""), plan.fusion_intent)
        if share is None or plan.strategy != "fused" or p.weights or asked == "off" or _QUOTED_SPAN.search(p.query):
            return weights
        shared = share_weights(ranked, weights, share)
        if shared is None:
            return weights
        if p.options.get(EXPLAIN_OPTION):
            best = max(ranked["text"], key=lambda h: h.score)
            bm25, cosine = best.score, max(h.score for h in ranked["semantic"])
            shift = share.shift(best.language)
            leaning = f", {shift:+.1f} toward text for {best.language}" if shift else ""
            notes.append(
                f"fused with text {shared['text']:.2f}, semantic {shared['semantic']:.2f}: their "
                f"{weights['text'] + weights['semantic']:.2f} shared by this question's evidence "
                f"(best BM25 {bm25:.1f}, best cosine {cosine:.2f}{leaning})"
            )
        return {m: round(w, 4) for m, w in shared.items()}

    async def _localize(self, p: SearchParams, plan: Plan, generation: str, visible: frozenset[str] | None) -> Answer:
        """A bug report's files: the localize plan (``coordinator/localize.py``) asks ordinary searches."""
        served = sorted({s.modality for s in self._reader(generation).shards()} & set(self.plugins.modalities))
        answer = await localize.localize(lambda q: self.search(q, visible), p, plan, served, generation)
        if p.with_snippets and answer.hits:
            answer = replace(answer, hits=tuple(self._snippets(self._reader(generation), answer.hits)))
        if p.options.get(EXPLAIN_OPTION):
            answer = replace(answer, notes=(plan.describe(), *answer.notes))
        metrics.observe(plan.intent, plan.strategy, dict(answer.timings), answer.partial)
        return answer

    @staticmethod
    def _is_listing(p: SearchParams, plan: Plan) -> bool:
        """Whether this search lists literal/regex matches file by file (the text modality alone)."""
        return (
            p.options.get("mode") in LISTING_MODES
            and plan.strategy == "direct"
            and set(plan.weights) == {"text"}
            and plan.intent != "impact_analysis"
            and p.options.get("segments") != "all"  # every segment asked for: segment hits, ranked
        )

    @staticmethod
    def _digest(p: SearchParams, allowed: frozenset[str] | None) -> str:
        return query_digest(p.query, sorted(allowed or ()), p.path_glob, p.languages, p.case_sensitive, p.options)

    def _cursor_offset(self, p: SearchParams, generation: str, allowed: frozenset[str] | None) -> int:
        """Files of the listing already returned (0 without a cursor)."""
        if not p.cursor:
            return 0
        return decode_cursor(p.cursor, generation, self._digest(p, allowed)).offset

    def _named_repos(self, p: SearchParams, plan: Plan, allowed: frozenset[str] | None) -> frozenset[str]:
        """The repositories a prose question asked of no particular ones names (``named_repo``), when they
        are some but not all of those it may search; else none."""
        if (
            p.repos
            or plan.intent not in named_repo.INTENTS
            or len(p.modalities) == 1
            or p.options.get(named_repo.OPTION) == "off"
        ):
            return frozenset()
        registered = self._registered_repos()  # one matcher for the store, whoever asks (named_repo._matcher)
        searchable = registered if allowed is None else allowed
        found = named_repo.named(p.query, registered) & searchable
        return found if found != searchable else frozenset()

    def _scope(self, p: SearchParams, visible: frozenset[str] | None) -> frozenset[str] | None:
        """The repositories a search may answer from (None: every one)."""
        if p.repos:
            return frozenset(p.repos)
        if visible is not None:
            return self._registered_repos() & visible
        return None

    def _targets(
        self,
        generation: str,
        weights: Mapping[str, float],
        allowed: frozenset[str] | None,
        visible: frozenset[str] | None,
    ) -> _Targets:
        """The shards of the planned modalities that can hold an allowed repository (a partition
        of a partitioned modality always: a walk may pass through it), and those nothing serves."""
        out = _Targets()
        served = self.searcher.available(generation)
        for spec in self._reader(generation).shards():
            if spec.modality not in weights:
                continue
            key = (spec.modality, spec.shard)
            out.repos_of[key] = spec.repos
            outside = allowed is not None and not allowed.intersection(spec.repos)
            if outside and visible is not None:
                continue  # a restricted caller's answer is the one the store would give without the others
            out.covering.setdefault(spec.modality, []).append((spec.shard, spec.repos))
            partitioned = self.plugins.modalities[spec.modality].sharding == "partitioned"
            if outside and not partitioned:
                continue  # pruned: the shard cannot match the repository filter
            if key not in served:
                out.missing.append(self._shard_label(spec.modality, spec.shard, spec.repos, allowed, visible))
                continue
            out.shards.append(key)
        return out

    def _asker(self, generation: str, deadline: float) -> AskShard:
        """How a follow-up round asks one shard."""

        async def ask(modality: str, shard: str, q: ModalityQuery) -> ShardAnswer:
            (answer,) = await self.searcher.search(generation, [(modality, shard)], q, deadline)
            return answer

        return ask

    def _collect(
        self,
        answers: Sequence[ShardAnswer],
        targets: _Targets,
        weights: Mapping[str, float],
        allowed: frozenset[str] | None,
        visible: frozenset[str] | None,
    ) -> _Collected:
        """Each modality's hit lists, the shards that did not answer (with a note why) and the shards' notes, each
        modality's as it merges them."""
        out = _Collected({m: [] for m in weights}, list(targets.missing), [], {})
        said: dict[str, list[str]] = {}  # each modality's shards' notes, in order (``Modality.merge_notes``)
        failed: dict[str, list[str]] = {}  # the shards that did not answer, by why
        for a in answers:
            out.modality_ms[a.modality] = max(out.modality_ms.get(a.modality, 0.0), a.seconds * 1000)
            if a.result is None:
                repos = targets.repos_of.get((a.modality, a.shard), ())
                out.missing.append(self._shard_label(a.modality, a.shard, repos, allowed, visible))
                why = "unavailable" if self._hidden(repos, allowed, visible) else a.error
                failed.setdefault(why, []).append(out.missing[-1])
                continue
            out.per_modality[a.modality].append(list(a.result.hits))
            out.results.append(a.result)
            said.setdefault(a.modality, []).extend(a.result.notes)
        out.notes.extend(missing_notes(failed))
        for modality, notes in said.items():
            merge = getattr(self.plugins.modalities.get(modality), "merge_notes", None)
            for n in notes if merge is None else merge(notes):
                if n not in out.notes:
                    out.notes.append(n)
        for modality in weights:
            for n in absence_notes([a.result for a in answers if a.modality == modality and a.result is not None]):
                if n not in out.notes:
                    out.notes.append(n)
        return out

    def _ranked(
        self,
        per_modality: Mapping[str, list[list[Hit]]],
        depth: int,
        allowed: frozenset[str] | None,
        query: ModalityQuery,
    ) -> dict[str, list[Hit]]:
        """Each modality's one ranked list from its shards' lists (in the modality's own order among
        ties, where it has one: ``Modality.order_merged``), filtered again by repository (defence in
        depth), path glob and left-out globs."""
        ranked = {}
        passes = path_filter(query)
        for m, lists in per_modality.items():
            own = getattr(self.plugins.modalities.get(m), "order_merged", None)
            merged = merge_shards(lists, depth, None if own is None else functools.partial(own, query=query))
            if allowed is not None:
                merged = [h for h in merged if h.repo in allowed]
            if passes is not None:
                merged = [h for h in merged if passes(h.path)]
            ranked[m] = merged
        return ranked

    @staticmethod
    def _judge(
        hits: Sequence[FusedHit], rerank_scores: tuple[float | None, ...], rerank_status: str, notes: list[str]
    ) -> tuple[tuple[float | None, ...], bool]:
        """Each hit's confidence, and whether the answer is no confident match (noted in ``notes``)."""
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
        return confidences, verdict.refused

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
        progress: Progress,
        *,
        repo_options: Mapping[str, RepoOptions] | None = None,
    ) -> IndexSummary:
        """Build a generation, deploy its workers, switch to it, retire the old one's."""
        if self._index_lock.locked():
            raise IndexLocked("an index build is already running on this coordinator; wait for it to finish")
        async with self._index_lock:
            loop = asyncio.get_running_loop()

            def report(update: IndexProgress) -> None:
                loop.call_soon_threadsafe(progress, update)

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
                progress(IndexProgress("deploy", 0, 1, f"starting workers for {summary.generation}", unit="steps"))
                await self.launcher.deploy(summary.generation)
                await self.searcher.refresh()
                self._generation = summary.generation
                progress(IndexProgress("deploy", 1, 1, f"{summary.generation} serving", unit="steps"))
                if old and old != summary.generation:
                    self.launcher.retire(old)
                    await self.searcher.refresh()
            return summary


@dataclass(frozen=True, slots=True)
class _Answering:
    """The answer being made, as a sub-search of text within it needs it: the generation, the modalities'
    query, the repositories it may answer from (None: every one) and the caller may read, and its deadline."""

    generation: str
    query: ModalityQuery
    allowed: frozenset[str] | None
    visible: frozenset[str] | None
    deadline: float


@dataclass(slots=True)
class _ListingTotals:
    """Sums the shards' line and file counts of a literal/regex search (see ``ShardResult``)."""

    lines: int = 0
    files: int = 0
    lower_bound: bool = False
    counted: bool = False

    @classmethod
    def of(cls, results: Sequence[ShardResult]) -> _ListingTotals:
        totals = cls()
        for r in results:
            totals.add(r)
        return totals

    def add(self, r: ShardResult) -> None:
        if r.line_counts:
            self.counted = True
            self.lines += r.total_matches
            self.files += r.total_files
            self.lower_bound |= r.total_lower_bound

    def answer_fields(
        self, *, listing: bool, partial: bool, returned: int, next_cursor: Callable[[int], str]
    ) -> dict[str, Any]:
        """The Answer's totals, completeness and cursor (``returned``: files up to this page's end)."""
        if not self.counted:
            return {}
        exact = not self.lower_bound and not partial
        more = returned < self.files or (self.lower_bound and listing)
        return {
            "total_matches": self.lines,
            "total_files": self.files,
            "total_exact": exact,
            "complete": listing and exact and not more,
            "cursor": next_cursor(returned) if listing and more else "",
        }
