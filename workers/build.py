"""Index builds as Ray tasks: one task per (modality, shard), spread over the cluster's CPUs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import ray

from fourfold.plugins.indexer import ShardJob, build_one_shard
from fourfold.plugins.modality import BuildStats

__all__ = ["RayShardExecutor"]


def _build(job: ShardJob) -> BuildStats:
    import faiss  # one OpenMP thread per task: several threads under contention were measured 200x slower

    faiss.omp_set_num_threads(1)
    return build_one_shard(job)


class RayShardExecutor:
    """Runs shard builds as Ray tasks (``num_cpus`` each) and yields them as they finish."""

    def __init__(self, num_cpus: float = 1.0, num_gpus: float = 0.0) -> None:
        self.num_cpus = num_cpus
        self.num_gpus = num_gpus

    def run(self, jobs: Sequence[ShardJob]) -> Iterator[tuple[ShardJob, BuildStats]]:
        task = ray.remote(_build).options(num_cpus=self.num_cpus, num_gpus=self.num_gpus, max_retries=1)
        pending = {task.remote(job): job for job in jobs}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                job = pending.pop(ref)
                yield job, ray.get(ref)
