"""Start or join a Ray cluster and deploy the serving actors of an index generation.

``connect(None)`` starts a local Ray cluster (the embedded default); ``connect(ADDR)`` joins one.
``Launcher.deploy(generation)`` starts every (modality, shard group, replica) actor of a generation and
waits until each serves; ``retire(generation)`` stops the actors of an old one. A rolling update is
``deploy(new)`` then the coordinator's switch then ``retire(old)``: no query is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any

import ray

from fourfold.errors import InvalidInput, Unavailable
from fourfold.index.store import IndexStore
from fourfold.workers.actors import NAMESPACE, EndpointKey, named_workers, shard_actor
from fourfold.workers.groups import plan_groups, workers_from_env

__all__ = ["Launcher", "connect", "parse_replicas", "parse_workers", "shutdown"]

log = logging.getLogger(__name__)


#: Ray's logger that announces token authentication for a new local cluster.
_RAY_AUTH_LOGGER = "ray._private.authentication.authentication_token_setup"


def _no_advice_to_opt_out(record: logging.LogRecord) -> bool:
    """Drops Ray's "Token authentication is enabled … Set RAY_AUTH_MODE=disabled to opt out": fourfold's
    workers rely on that authentication, and the line was the first a newcomer saw of ``fourfold demo``.
    Its warning that authentication is off, where it is, stays."""
    return not str(record.msg).startswith("Token authentication is enabled")


def connect(ray_address: str | None = None, *, num_cpus: int | None = None) -> bool:
    """Join ``ray_address`` or start a local cluster; returns True when this call started one."""
    if ray.is_initialized():
        return False
    env = {k: v for k, v in os.environ.items() if k.startswith("FOURFOLD_")}
    runtime_env = {"env_vars": env} if env else None
    if ray_address:
        try:
            ray.init(address=ray_address, namespace=NAMESPACE, runtime_env=runtime_env, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise Unavailable(f"cannot join the Ray cluster at {ray_address!r}: {exc}; check --ray-address") from None
        return False
    logging.getLogger(_RAY_AUTH_LOGGER).addFilter(_no_advice_to_opt_out)
    ray.init(
        address="local",  # start our own, never join a cluster someone else left running here
        namespace=NAMESPACE,
        num_cpus=num_cpus or os.cpu_count() or 2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env=runtime_env,
        object_store_memory=256 << 20,
    )
    return True


def shutdown() -> None:
    if ray.is_initialized():
        ray.shutdown()


def parse_replicas(values: list[str] | None) -> dict[str, int]:
    """``["text=2", "semantic=1"]`` -> {"text": 2, "semantic": 1}; bad forms raise InvalidInput."""
    out: dict[str, int] = {}
    for v in values or []:
        name, sep, n = v.partition("=")
        if not sep or not name or not n.isdigit() or int(n) < 1:
            raise InvalidInput(f"invalid --replicas value {v!r}: use MODALITY=N with N >= 1, e.g. text=2")
        out[name] = int(n)
    return out


def parse_workers(value: int | None) -> int | None:
    """``--workers-per-modality``: None (the default) or a positive count; anything else raises InvalidInput."""
    if value is not None and value < 1:
        raise InvalidInput(f"invalid --workers-per-modality {value}: give a count of at least 1, or leave it out")
    return value


class Launcher:
    """Deploys and retires the serving actors of generations from one index store.

    Each modality's shards are packed into at most ``workers_per_modality`` worker groups (see
    ``workers.groups``; default: ``FOURFOLD_WORKERS_PER_MODALITY``, else the Ray cluster's CPU
    count when the launcher first plans), and each group runs ``replicas[modality]`` replicas.
    """

    def __init__(
        self,
        store: IndexStore,
        replicas: Mapping[str, int] | None = None,
        host: str | None = None,
        workers_per_modality: int | None = None,
    ) -> None:
        self.store = store
        self.replicas = dict(replicas or {})
        self.host = host  # None: each actor serves on the address of the node it lands on
        self.store_id = store.store_id()
        self._workers = workers_per_modality

    @property
    def workers_per_modality(self) -> int:
        if self._workers is None:
            cpus = int(ray.cluster_resources().get("CPU", 1)) if ray.is_initialized() else os.cpu_count() or 1
            self._workers = workers_from_env(cpus)
        return self._workers

    def plan(self, generation: str) -> list[tuple[EndpointKey, tuple[str, ...]]]:
        """Every worker of ``generation``: its key and the shards it hosts."""
        reader = self.store.reader(generation)
        specs = reader.shards()
        unknown = set(self.replicas) - {s.modality for s in specs}
        if unknown:
            raise InvalidInput(
                f"--replicas names unknown modalities {sorted(unknown)}; known: {sorted({s.modality for s in specs})}"
            )
        return [
            (EndpointKey(generation, g.modality, g.name, r, self.store_id), g.shards)
            for g in plan_groups(specs, self.workers_per_modality)
            for r in range(self.replicas.get(g.modality, 1))
        ]

    def keys(self, generation: str) -> list[EndpointKey]:
        return [key for key, _ in self.plan(generation)]

    async def deploy(self, generation: str, timeout_s: float = 300.0) -> list[EndpointKey]:
        """Start every actor of ``generation`` (idempotent) and wait until each serves gRPC, warm."""
        gen_dir = str(self.store.generations_dir / generation)
        plan = self.plan(generation)
        nodes = alive_nodes()
        handles = [
            shard_actor(k, gen_dir, self.host, shards, **placement(i, nodes)) for i, (k, shards) in enumerate(plan)
        ]
        try:
            # ready(): serving and warm (each shard answered a first query), so no caller waits for a model to load
            await asyncio.wait_for(asyncio.gather(*(h.ready.remote() for h in handles)), timeout_s)
        except TimeoutError:
            raise Unavailable(f"workers of generation {generation} did not start within {timeout_s:.0f}s") from None
        log.info("generation %s: %d workers serving", generation, len(plan))
        return [k for k, _ in plan]

    async def scale(self, generation: str) -> tuple[list[EndpointKey], int]:
        """Deploy the replica counts asked for (new ones spread over the nodes, a node that joined
        later included) and retire the workers the plan no longer has: replicas above the counts,
        and groups of an older packing (the new ones serve their shards before they go)."""
        keys = await self.deploy(generation)
        wanted = set(keys)
        groups = {(k.modality, k.group) for k in keys}
        retired = 0
        for key, name in named_workers(self.store_id).items():
            if key.generation != generation:
                continue
            # a modality not named in --replicas keeps its replicas; an old packing's groups go
            if (key.modality in self.replicas and key not in wanted) or (key.modality, key.group) not in groups:
                ray.kill(ray.get_actor(name, namespace=NAMESPACE), no_restart=True)
                retired += 1
        return keys, retired

    def retire(self, generation: str) -> int:
        """Kill the actors of ``generation``; returns how many."""
        n = 0
        for key, name in named_workers(self.store_id).items():
            if key.generation == generation:
                try:
                    ray.kill(ray.get_actor(name, namespace=NAMESPACE), no_restart=True)
                    n += 1
                except ValueError:  # already gone
                    pass
        return n

    def deployed_generations(self) -> set[str]:
        return {key.generation for key in named_workers(self.store_id)}


def alive_nodes() -> list[str]:
    """The ids of the cluster's live nodes, in a stable order."""
    return sorted(n["NodeID"] for n in ray.nodes() if n.get("Alive"))


def placement(index: int, nodes: Sequence[str]) -> dict[str, Any]:
    """Where the ``index``-th worker of a plan should run: the nodes in turn, so the shards (and a
    group's replicas, which are next to each other in the plan) are dealt over every live node.

    Ray's ``SPREAD`` alone is a preference its scheduler may not honour while a node that has just
    joined is not yet in its resource view: every worker then lands on one node. The affinity is
    soft, so a worker whose node is lost restarts on another.
    """
    if len(nodes) < 2:
        return {}
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    return {"scheduling_strategy": NodeAffinitySchedulingStrategy(nodes[index % len(nodes)], soft=True)}
