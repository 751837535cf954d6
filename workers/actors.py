"""The one place where ``ray.remote`` is applied to fourfold's classes.

Serving actors take ``num_cpus=0``: on a 2-core node, actors holding a CPU each never start once
index-build tasks take the CPUs. They restart forever (``max_restarts=-1``) and are named, so a
coordinator finds them again after either of them restarts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ray

from fourfold.workers.servicer import ShardServer

__all__ = ["NAMESPACE", "EndpointKey", "actor_name", "named_workers", "parse_actor_name", "shard_actor"]

NAMESPACE = "fourfold"
_PREFIX = "ff"


@dataclass(frozen=True, slots=True, order=True)
class EndpointKey:
    """One worker: a replica of a group of shards of a modality, in a generation of one index store.

    ``group`` names the group: the shard's own name for a group of one, ``~<i>of<n>`` for the
    i-th of n groups a modality's shards were packed into (see ``workers.groups``).
    """

    generation: str
    modality: str
    group: str
    replica: int
    store: str = ""  # the index store's id (IndexStore.store_id)

    def __str__(self) -> str:
        return f"{self.modality}/{self.group}#{self.replica}@{self.generation}"


def actor_name(key: EndpointKey) -> str:
    return f"{_PREFIX}|{key.store}|{key.generation}|{key.modality}|{key.group}|{key.replica}"


def parse_actor_name(name: str) -> EndpointKey | None:
    parts = name.split("|")
    if len(parts) < 6 or parts[0] != _PREFIX or not parts[-1].isdigit():
        return None
    # a repository name (and so a group named after its shard) may itself hold "|"
    return EndpointKey(parts[2], parts[3], "|".join(parts[4:-1]), int(parts[-1]), parts[1])


def named_workers(store_id: str) -> dict[EndpointKey, str]:
    """Every running worker of the index store ``store_id``: its key -> its Ray actor name."""
    out: dict[EndpointKey, str] = {}
    for a in ray.util.list_named_actors(all_namespaces=True):
        if a.get("namespace") != NAMESPACE:
            continue
        key = parse_actor_name(a["name"])
        if key is not None and key.store == store_id:
            out[key] = a["name"]
    return out


def shard_actor(key: EndpointKey, generation_dir: str, host: str | None, shards: Sequence[str], **options: Any) -> Any:
    """Create (or get, if it already runs) the named actor serving ``key``: the group ``shards``.

    Actors are spread over the nodes (``SPREAD``) unless ``options`` place them otherwise. The gRPC
    server binds the address of the node the actor lands on, unless ``host`` pins one.
    """
    options.setdefault("scheduling_strategy", "SPREAD")
    cls = ray.remote(ShardServer)
    return cls.options(
        name=actor_name(key),
        namespace=NAMESPACE,
        lifetime="detached",
        get_if_exists=True,
        num_cpus=0,
        max_restarts=-1,
        max_task_retries=0,
        max_concurrency=64,
        **options,
    ).remote(generation_dir, key.modality, list(shards), key.replica, host, key.group)
