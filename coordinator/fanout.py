"""Parallel gRPC fan-out to the shards of the modalities a query needs.

Per (modality, shard): the replica with the fewest calls in flight is chosen, and every shard
whose choice is the same worker goes to it in one ``SearchShards`` call, with the time left
before the deadline; a failure (UNAVAILABLE, DEADLINE_EXCEEDED, FAILED_PRECONDITION) is retried
once — on another replica if there is one, else on the same actor after asking it for its address
again (a restarted actor serves on a new port). A replica whose call failed is asked for its
address again in the background either way, so a restarted replica is used again. A shard that
still fails is reported missing and the answer is marked partial. Domain errors
(INVALID_ARGUMENT...) are not retried: they are the query's fault and go back to the caller.

:class:`WorkerSearcher` is the engine's view of it: the
:class:`~fourfold.coordinator.searcher.ShardSearcher` whose shards are Ray-discovered workers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

import grpc

from fourfold.coordinator.metrics import RETRIES
from fourfold.coordinator.searcher import ShardAnswer, ShardKey
from fourfold.plugins.types import ModalityQuery
from fourfold.v1 import worker_pb2_grpc
from fourfold.workers.auth import SecretMetadata, WorkerTls
from fourfold.workers.convert import query_to_pb, result_from_pb
from fourfold.workers.registry import Endpoint, EndpointRegistry

__all__ = ["FanOut", "ShardAnswer", "ShardCallError", "WorkerSearcher"]

log = logging.getLogger(__name__)

#: The query's own fault: returned to the caller as they are.
_CALLER_ERRORS = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.OUT_OF_RANGE,
}
#: Worth a second try (elsewhere); any other status marks the shard missing at once.
_RETRYABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.INTERNAL,
}


def _preference(e: Endpoint) -> tuple[bool, int, int]:
    """Replicas in the order they are asked: warm before warming, then least busy, then least failing."""
    return (not e.serving, e.outstanding, e.failures)


class ShardCallError(Exception):
    """A non-retryable error from a shard (the query's fault): carries the gRPC code and details."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class FanOut:
    """Holds one channel per worker address; used from one asyncio loop."""

    def __init__(self, registry: EndpointRegistry, secret: str = "", tls: WorkerTls | None = None) -> None:
        self.registry = registry
        self._interceptors = [SecretMetadata(secret)] if secret else []  # workers refuse calls without it
        self._tls = tls  # the worker plane's pinned certificate, when it is encrypted
        self._channels: dict[str, grpc.aio.Channel] = {}

    def channel(self, address: str) -> grpc.aio.Channel:
        """The channel to the worker at ``address`` (made once; TLS when the worker plane is encrypted)."""
        ch = self._channels.get(address)
        if ch is None:
            if self._tls is not None:
                creds, options = self._tls.channel_credentials(), self._tls.channel_options()
                ch = grpc.aio.secure_channel(address, creds, options=options, interceptors=self._interceptors)
            else:
                ch = grpc.aio.insecure_channel(address, interceptors=self._interceptors)
            self._channels[address] = ch
        return ch

    def _stub(self, address: str) -> worker_pb2_grpc.ModalityWorkerStub:
        return worker_pb2_grpc.ModalityWorkerStub(self.channel(address))

    async def close(self) -> None:
        for ch in self._channels.values():
            await ch.close()
        self._channels.clear()

    async def call(
        self,
        replicas: list[Endpoint],
        modality: str,
        shards: tuple[str, ...],
        query: ModalityQuery,
        generation: str,
        deadline: float,
    ) -> list[ShardAnswer]:
        """Search ``shards`` of ``modality`` with one call to one of ``replicas`` (each serves them all)."""
        started = time.perf_counter()
        request = query_to_pb(query, generation)
        request.shards.extend(shards)
        order = sorted(replicas, key=_preference)
        last_error = ""
        for attempt in range(2):
            remaining = deadline - time.monotonic()
            if remaining <= 0.001:
                last_error = last_error or "deadline exceeded before the call"
                break
            ep = order[attempt % len(order)] if order else None
            if ep is None:
                last_error = "no replica serves this shard"
                break
            if attempt == 1 and len(order) == 1:
                refreshed = await self.registry.reresolve(ep.key, timeout_s=remaining)
                if refreshed is None:
                    break
                ep = refreshed
            ep.outstanding += 1
            try:
                response = await self._stub(ep.address).SearchShards(request, timeout=remaining)
                ep.failures = 0
                seconds = time.perf_counter() - started
                answers = {
                    r.shard: ShardAnswer(modality, r.shard, result_from_pb(r), seconds, retried=attempt > 0)
                    for r in response.results
                }
                answers.update(
                    {e.shard: ShardAnswer(modality, e.shard, None, seconds, error=e.message) for e in response.errors}
                )
                return [
                    answers.get(s) or ShardAnswer(modality, s, None, seconds, error=f"{ep.key} did not answer for it")
                    for s in shards
                ]
            except grpc.aio.AioRpcError as exc:
                if exc.code() in _CALLER_ERRORS:
                    raise ShardCallError(exc.code(), exc.details() or str(exc.code())) from None
                ep.failures += 1
                last_error = f"{exc.code().name}: {exc.details()}"
                if len(order) > 1:
                    # asked for its address again in the background (a restarted actor serves on
                    # a new port), so it is used again before the other replica fails as well
                    self.registry.reresolve_later(ep.key)
                if exc.code() not in _RETRYABLE:
                    break
                log.info(
                    "shards %s/%s on %s failed (%s); %s",
                    modality,
                    ",".join(shards),
                    ep.address,
                    last_error,
                    "retrying" if attempt == 0 else "giving up",
                )
                if attempt == 0:
                    RETRIES.inc()
            finally:
                ep.outstanding -= 1
        seconds = time.perf_counter() - started
        return [ShardAnswer(modality, s, None, seconds, error=last_error) for s in shards]

    async def gather(
        self, targets: dict[tuple[str, str], list[Endpoint]], query: ModalityQuery, generation: str, deadline: float
    ) -> list[ShardAnswer]:
        """Every target shard's answer; the shards one worker serves go to it in one call."""
        # keyed by the chosen worker (a shard no worker serves goes alone, and is reported missing)
        batches: dict[object, tuple[str, list[str], list[Endpoint]]] = {}
        for (m, s), reps in targets.items():
            first = min(reps, key=_preference) if reps else None
            batch = batches.setdefault(id(first) if first is not None else (m, s), (m, [], list(reps)))
            batch[1].append(s)
            # a retry must go to a worker that serves every shard of the batch
            batch[2][:] = [e for e in batch[2] if any(e is r for r in reps)]
        tasks = [self.call(reps, m, tuple(shards), query, generation, deadline) for m, shards, reps in batches.values()]
        return [answer for answers in await asyncio.gather(*tasks) for answer in answers]


class WorkerSearcher:
    """The :class:`~fourfold.coordinator.searcher.ShardSearcher` of a cluster: shards served by
    the worker actors an :class:`EndpointRegistry` discovers, asked through a :class:`FanOut`."""

    def __init__(self, registry: EndpointRegistry, secret: str = "", tls: WorkerTls | None = None) -> None:
        self.registry = registry
        self.fanout = FanOut(registry, secret, tls)

    async def refresh(self) -> None:
        await self.registry.refresh()

    def generations(self) -> set[str]:
        return self.registry.generations()

    def available(self, generation: str) -> set[ShardKey]:
        return {key for key, replicas in self.registry.shards(generation).items() if replicas}

    async def search(
        self, generation: str, shards: Sequence[ShardKey], query: ModalityQuery, deadline: float
    ) -> list[ShardAnswer]:
        served = self.registry.shards(generation)
        return await self.fanout.gather({key: served.get(key, []) for key in shards}, query, generation, deadline)

    async def close(self) -> None:
        await self.fanout.close()
