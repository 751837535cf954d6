"""Discovery: which workers exist, which shards each serves, and at which gRPC address.

The registry is rebuilt from Ray's named actors, so it holds no state that a restart could lose:
a restarted coordinator lists the actors again; an actor that restarted on a new port is asked
for its address again (``reresolve``, or ``reresolve_later`` in the background) after a call to it
fails, and every refresh asks the workers whose last calls failed again, so a restarted replica
is used again however many of its siblings are still up.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass

import ray

from fourfold.workers.actors import NAMESPACE, EndpointKey, named_workers

__all__ = ["Endpoint", "EndpointRegistry"]

log = logging.getLogger(__name__)


@dataclass
class Endpoint:
    """One worker (a replica of a group of shards): where it serves and how busy it is."""

    key: EndpointKey
    address: str
    handle: object
    shards: tuple[str, ...] = ()  # the shards it serves
    outstanding: int = 0  # calls in flight, for least-outstanding balancing
    failures: int = 0
    node_id: str = ""
    serving: bool = True  # warm: the worker's health says SERVING (a cold one is asked only if no replica is warm)


class EndpointRegistry:
    """Maps (generation, modality, shard) to the workers serving it. Used from one asyncio loop."""

    def __init__(self, store_id: str, resolve_timeout_s: float = 60.0) -> None:
        self.store_id = store_id  # only this index store's workers
        self.resolve_timeout_s = resolve_timeout_s
        self._endpoints: dict[EndpointKey, Endpoint] = {}
        self._pending: dict[EndpointKey, asyncio.Task[Endpoint | None]] = {}  # background re-resolutions

    async def refresh(self) -> None:
        """List the named actors and resolve the address of each new one."""
        keys = named_workers(self.store_id)
        for gone in set(self._endpoints) - set(keys):
            del self._endpoints[gone]
        new = [k for k in keys if k not in self._endpoints]
        if new:
            resolved = await asyncio.gather(*(self._resolve(k, keys[k]) for k in new), return_exceptions=True)
            for k, ep in zip(new, resolved, strict=True):
                if isinstance(ep, BaseException):
                    log.warning("endpoint %s did not resolve: %s", k, ep)
                else:
                    self._endpoints[k] = ep
        for k, known in self._endpoints.items():
            if known.failures or not known.serving:  # restarted on a new port, or still warming up
                self.reresolve_later(k)

    async def _resolve(self, key: EndpointKey, name: str) -> Endpoint:
        handle = ray.get_actor(name, namespace=NAMESPACE)
        info: dict[str, object] = await asyncio.wait_for(handle.describe.remote(), self.resolve_timeout_s)
        shards = tuple(str(s) for s in info.get("shards") or (key.group,))
        return Endpoint(
            key,
            str(info["address"]),
            handle,
            shards,
            node_id=str(info.get("node_id", "")),
            serving=bool(info.get("serving", True)),
        )

    async def reresolve(self, key: EndpointKey, timeout_s: float | None = None) -> Endpoint | None:
        """Ask the actor for its address again (it may have restarted on a new port)."""
        ep = self._endpoints.get(key)
        if ep is None:
            return None
        try:
            wait = self.resolve_timeout_s if timeout_s is None else max(timeout_s, 0.001)
            info = await asyncio.wait_for(ep.handle.describe.remote(), wait)  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - the actor may be gone or still restarting
            log.info("re-resolving %s failed: %s", key, exc)
            return None
        address = str(info["address"])
        if address != ep.address:
            log.info("worker %s now serves at %s (was %s)", key, address, ep.address)
            ep.failures = 0  # a new process: its predecessor's failures say nothing of it
        ep.address, ep.node_id = address, str(info.get("node_id", ""))
        ep.serving = bool(info.get("serving", True))
        return ep

    def reresolve_later(self, key: EndpointKey) -> None:
        """``reresolve(key)`` in the background (one at a time per worker): for a replica whose call
        failed while another replica answered in its place."""
        task = self._pending.get(key)
        if task is not None and not task.done():
            return
        task = asyncio.ensure_future(self._reresolve_until_up(key))
        self._pending[key] = task

        def forget(done: asyncio.Task[Endpoint | None]) -> None:
            if self._pending.get(key) is done:
                del self._pending[key]

        task.add_done_callback(forget)

    async def _reresolve_until_up(self, key: EndpointKey, every_s: float = 0.5) -> Endpoint | None:
        """``reresolve`` until it answers (a restarting actor may refuse calls for a moment)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.resolve_timeout_s
        while key in self._endpoints:
            ep = await self.reresolve(key, timeout_s=max(give_up - loop.time(), 0.001))
            if ep is not None or loop.time() >= give_up:
                return ep
            await asyncio.sleep(every_s)
        return None

    def generations(self) -> set[str]:
        return {k.generation for k in self._endpoints}

    def shards(self, generation: str) -> dict[tuple[str, str], list[Endpoint]]:
        """(modality, shard) -> the workers serving it, for one generation."""
        out: dict[tuple[str, str], list[Endpoint]] = defaultdict(list)
        for k, ep in sorted(self._endpoints.items()):
            if k.generation == generation:
                for shard in ep.shards:
                    out[(k.modality, shard)].append(ep)
        return dict(out)

    def warming(self, generation: str) -> list[str]:
        """The workers of ``generation`` not yet serving (warming up, or never answered)."""
        return [str(k) for k, ep in sorted(self._endpoints.items()) if k.generation == generation and not ep.serving]

    def all(self) -> list[Endpoint]:
        return [self._endpoints[k] for k in sorted(self._endpoints)]
