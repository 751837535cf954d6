"""The one contract between the engine and the shards: search these shards of this generation.

    ShardSearcher.search(generation, [(modality, shard), ...], query, deadline) -> [ShardAnswer, ...]

Two implementations answer it, so a remote shard and a local one look the same to the engine:

* :class:`~fourfold.coordinator.fanout.WorkerSearcher` — the shards are served by worker actors,
  found through Ray, and asked over gRPC with retries and replicas (a cluster, ``fourfold serve``);
* :class:`LocalSearcher` — the shards are loaded in this process from the index store with the
  modality plugins' own ``load`` (a one-off ``fourfold search`` without a server, tests, notebooks).

Whichever searcher it has, the engine does the rest (validation, routing, ACLs, follow-up rounds,
fusion, partial answers) in the same code.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from fourfold.errors import FourfoldError, InvalidInput
from fourfold.index.compound import shard_query, skipped_result
from fourfold.index.delta import load_shard
from fourfold.index.store import GenerationReader, IndexStore, ShardSpec
from fourfold.plugins.manager import PluginRegistry, get_registry
from fourfold.plugins.modality import Shard
from fourfold.plugins.types import ModalityQuery, ShardResult
from fourfold.workers.servicer import with_centrality

__all__ = ["LocalSearcher", "ShardAnswer", "ShardKey", "ShardSearcher"]

log = logging.getLogger(__name__)

#: A shard as the engine names it: (modality, shard).
ShardKey = tuple[str, str]


@dataclass(frozen=True, slots=True)
class ShardAnswer:
    """One shard's answer to one query, or why there is none (``result`` None: the shard is missing)."""

    modality: str
    shard: str
    result: ShardResult | None  # None: missing
    seconds: float
    error: str = ""
    retried: bool = False


class ShardSearcher(Protocol):
    """Where the engine's queries go. Used from one asyncio loop.

    ``search`` answers for every shard asked, in any order: a shard that cannot answer (not
    served, failed, past the deadline) comes back with ``result=None`` and the reason in
    ``error``. A query the shards reject as the caller's fault raises (``InvalidQuery`` in
    process, ``ShardCallError`` over gRPC) instead, as it would fail on every shard.
    """

    async def refresh(self) -> None:
        """Look again for what can be searched (new workers, a new generation)."""
        ...

    def generations(self) -> set[str]:
        """The generations whose shards can be searched now."""
        ...

    def available(self, generation: str) -> set[ShardKey]:
        """The shards of ``generation`` something serves (the others are missing before any call)."""
        ...

    async def search(
        self, generation: str, shards: Sequence[ShardKey], query: ModalityQuery, deadline: float
    ) -> list[ShardAnswer]:
        """Every asked shard's answer by ``deadline`` (``time.monotonic()`` seconds)."""
        ...

    async def close(self) -> None:
        """Release connections and loaded shards."""
        ...


class LocalSearcher:
    """Loads shards from the store's live generation into this process, each on first use, and
    searches them in worker threads (a shard is thread-safe by the Modality contract).

    Holds the shards of the generation the engine asks for; when it asks for another, the
    previous one's are kept until the next switch (a search still running on them finishes) and
    then closed. A shard that fails to load is reported missing with the reason, as a worker
    reports it, and is tried again on the next query.
    """

    def __init__(self, store: IndexStore, plugins: PluginRegistry | None = None) -> None:
        self.store = store
        self.plugins = plugins or get_registry()
        self._generation: str | None = None
        self._reader: GenerationReader | None = None
        self._shards: dict[ShardKey, Shard] = {}
        self._specs: dict[ShardKey, ShardSpec] = {}  # the loaded shards' manifest entries
        self._previous: tuple[GenerationReader, list[Shard]] | None = None  # closed at the next switch
        self._lock = threading.Lock()  # loading happens in worker threads

    async def refresh(self) -> None:
        return None  # the store is read on every call: nothing to discover

    def generations(self) -> set[str]:
        live = self.store.live_generation()
        return {live} if live else set()

    def available(self, generation: str) -> set[ShardKey]:
        reader = self._reader_for(generation)
        return {(s.modality, s.shard) for s in reader.shards() if s.modality in self.plugins.modalities}

    async def search(
        self, generation: str, shards: Sequence[ShardKey], query: ModalityQuery, deadline: float
    ) -> list[ShardAnswer]:
        return list(await asyncio.gather(*(self._search_one(generation, key, query, deadline) for key in shards)))

    async def close(self) -> None:
        with self._lock:
            self._retire()
            self._retire()  # twice: the current generation, then the previous one, are closed

    # -- internals -------------------------------------------------------------------------------
    def _reader_for(self, generation: str) -> GenerationReader:
        with self._lock:
            if self._generation != generation or self._reader is None:
                self._retire()
                self._reader = self.store.reader(generation)
                self._generation = generation
            return self._reader

    def _retire(self) -> None:
        """Close the previous generation's shards, and make the current one the previous."""
        if self._previous is not None:
            reader, shards = self._previous
            for shard in shards:
                shard.close()
            reader.close()
        self._previous = (self._reader, list(self._shards.values())) if self._reader is not None else None
        self._shards = {}
        self._specs = {}
        self._reader, self._generation = None, None

    def _load(self, generation: str, key: ShardKey) -> tuple[GenerationReader, ShardSpec, Shard]:
        reader = self._reader_for(generation)
        with self._lock:
            shard = self._shards.get(key)
            spec = self._specs.get(key)
            if shard is None or spec is None:
                modality, name = key
                spec = self._specs[key] = reader.shard(modality, name)
                shard = load_shard(self.plugins.modality(modality), reader.shard_dir(spec), spec)
                self._shards[key] = shard
            return reader, spec, shard

    def _run(self, generation: str, key: ShardKey, query: ModalityQuery) -> ShardResult:
        reader, spec, shard = self._load(generation, key)
        scoped = shard_query(spec, query)  # a compound shard's tombstones are never answered for
        if scoped is None:
            return skipped_result()
        return with_centrality(reader, shard.search(scoped))

    async def _search_one(self, generation: str, key: ShardKey, query: ModalityQuery, deadline: float) -> ShardAnswer:
        modality, name = key
        started = time.perf_counter()
        remaining = deadline - time.monotonic()
        if remaining <= 0.001:
            return ShardAnswer(modality, name, None, 0.0, error="deadline exceeded before the call")
        try:
            result = await asyncio.wait_for(asyncio.to_thread(self._run, generation, key, query), remaining)
        except InvalidInput:
            raise  # the query's fault: every shard would say so
        except TimeoutError:
            return ShardAnswer(modality, name, None, time.perf_counter() - started, error="DEADLINE_EXCEEDED")
        except FourfoldError as exc:
            return ShardAnswer(modality, name, None, time.perf_counter() - started, error=f"{exc.code}: {exc}")
        except Exception as exc:  # noqa: BLE001 - a plugin failure makes its shard missing, not the search fail
            log.error("%s/%s of %s failed: %s: %s", modality, name, generation, type(exc).__name__, exc)
            return ShardAnswer(
                modality, name, None, time.perf_counter() - started, error=f"{type(exc).__name__}: {exc}"
            )
        return ShardAnswer(modality, name, result, time.perf_counter() - started)
