"""How a modality's shards are packed into workers.

One worker process per shard does not scale: a query over n shards pays n process hops (on a
2-core machine five text shards cost 4.9 ms of fan-out for 1.2 ms of searching), and a thousand
repositories would mean thousands of processes per modality. Instead each modality gets at most
``workers`` worker groups, as a code-search web server hosts many shards in one process: shards
are packed largest first onto the lightest group (by segment count), so the groups carry about
equal work and the plan depends only on the generation and the worker count.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from fourfold.errors import InvalidInput
from fourfold.index.store import ShardSpec

__all__ = ["WORKERS_ENV", "WorkerGroup", "plan_groups", "workers_from_env"]

#: Environment override of the number of worker groups per modality.
WORKERS_ENV = "FOURFOLD_WORKERS_PER_MODALITY"


@dataclass(frozen=True, slots=True)
class WorkerGroup:
    """The shards one worker (and each of its replicas) hosts."""

    modality: str
    name: str  # the shard's name for a group of one, "~<i>of<n>" otherwise (no repository name holds "~")
    shards: tuple[str, ...]


def workers_from_env(default: int) -> int:
    """``FOURFOLD_WORKERS_PER_MODALITY`` if set (a positive integer), else ``default``."""
    raw = os.environ.get(WORKERS_ENV, "").strip()
    if not raw:
        return max(1, default)
    if not raw.isdigit() or int(raw) < 1:
        raise InvalidInput(
            f"{WORKERS_ENV}={raw!r} is not a positive integer; set it to the most workers one modality may use, e.g. 4"
        )
    return int(raw)


def plan_groups(specs: Sequence[ShardSpec], workers: int) -> list[WorkerGroup]:
    """At most ``workers`` groups per modality over ``specs``, about equal in segments."""
    if workers < 1:
        raise InvalidInput(f"workers per modality must be at least 1, not {workers}")
    by_modality: dict[str, list[ShardSpec]] = defaultdict(list)
    for spec in specs:
        by_modality[spec.modality].append(spec)
    out: list[WorkerGroup] = []
    for modality in sorted(by_modality):
        shards = sorted(by_modality[modality], key=lambda s: (-s.segments, s.shard))
        n = min(workers, len(shards))
        members: list[list[str]] = [[] for _ in range(n)]
        load = [0] * n
        for spec in shards:
            i = min(range(n), key=lambda g: (load[g], g))
            members[i].append(spec.shard)
            load[i] += max(spec.segments, 1)
        for i, names in enumerate(members):
            name = names[0] if len(names) == 1 else f"~{i}of{n}"
            out.append(WorkerGroup(modality, name, tuple(sorted(names))))
    return out
