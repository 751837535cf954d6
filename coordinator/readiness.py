"""When a coordinator may say SERVING: once the live generation's workers are warm.

A worker says NOT_SERVING until each of its shards answered a warm-up query (see
``fourfold.workers.servicer``). The coordinator's own health follows: it turns SERVING when every
worker of the generation it serves is warm, or, after ``timeout_s``, with the ones still warming
named in its log (a replica that never warms must not keep the others from serving).
"""

from __future__ import annotations

import asyncio
import logging

from fourfold.workers.registry import EndpointRegistry

__all__ = ["wait_until_warm"]

log = logging.getLogger(__name__)


async def wait_until_warm(
    registry: EndpointRegistry, generation: str | None, timeout_s: float = 120.0, poll_s: float = 0.2
) -> list[str]:
    """Wait until no worker of ``generation`` is warming; returns those still warming at the timeout."""
    if generation is None:
        return []
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout_s
    reported: list[str] = []
    while True:
        warming = registry.warming(generation)
        for ep in registry.all():
            if ep.key.generation == generation and not ep.serving:
                await registry.reresolve(ep.key, timeout_s=max(give_up - loop.time(), 0.001))
        warming = registry.warming(generation)
        if not warming:
            return []
        if warming != reported:
            log.info("waiting for %d warming worker(s): %s", len(warming), ", ".join(warming))
            reported = warming
        if loop.time() >= give_up:
            log.warning("serving while %d worker(s) still warm up: %s", len(warming), ", ".join(warming))
            return warming
        await asyncio.sleep(poll_s)
