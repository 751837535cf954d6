"""Index builds as Ray tasks: one task per (modality, shard), spread over the cluster's CPUs.

A shard build hands its heavy batches (the semantic modality's embedding) to ``RayMap``, made
inside the build task: each batch becomes a Ray task of its own (one CPU, or a GPU with
``embed.num_gpus``), spread over the cluster, its result coming back in order. A build task
waiting for its batches sits in ``ray.get``, and Ray lends a task's CPU back while it waits
there, so shard builds holding every CPU of a small cluster do not starve their own batches.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import ray

from fourfold.api import IndexProgress
from fourfold.errors import InvalidInput
from fourfold.index.generation import ShardJob, build_one_shard, shard_progress_of
from fourfold.index.progress import Progress
from fourfold.index.shard_failure import failed_build
from fourfold.plugins.modality import BuildStats

__all__ = ["RayMap", "RayShardExecutor"]

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


def _apply(fn: Callable[[Any], Any], item: Any) -> Any:
    return fn(item)


_apply_task = ray.remote(_apply)


class RayMap:
    """``BuildContext.map_batches`` over Ray tasks (``num_cpus``/``num_gpus`` each, spread over the
    nodes), at most ``in_flight`` submitted at once (default: twice the cluster's CPUs), results
    yielded in the order of the items."""

    def __init__(self, num_cpus: float = 1.0, num_gpus: float = 0.0, in_flight: int | None = None) -> None:
        self.num_cpus = num_cpus
        self.num_gpus = num_gpus
        self.in_flight = in_flight

    def __call__(self, fn: Callable[[_Item], _Result], items: Sequence[_Item], /) -> Iterator[_Result]:
        task = _apply_task.options(
            num_cpus=self.num_cpus, num_gpus=self.num_gpus, max_retries=1, scheduling_strategy="SPREAD"
        )
        limit = self.in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: deque[ray.ObjectRef[Any]] = deque()
        for item in items:
            pending.append(task.remote(fn, item))
            if len(pending) >= limit:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())


def _queue_progress(queue: Any, job: ShardJob, label: str) -> Any:
    """A ``BuildContext.progress`` inside a build task: reports go to the driver through ``queue``."""

    def send(update: IndexProgress) -> None:
        with contextlib.suppress(Exception):  # progress is a courtesy: a full or gone queue never fails a build
            queue.put_nowait(update)

    return shard_progress_of(job, send, label)


def _build(job: ShardJob, embed_num_gpus: float, queue: Any = None, label: str = "") -> BuildStats:
    import faiss  # one OpenMP thread per task: several threads under contention were measured 200x slower

    faiss.omp_set_num_threads(1)
    raw = job.settings.get("embed.num_gpus", str(embed_num_gpus))
    try:
        gpus = float(raw)
    except ValueError:
        gpus = -1.0
    if gpus < 0:
        raise InvalidInput(f"setting embed.num_gpus must be a number >= 0, got {raw!r}")
    progress = _queue_progress(queue, job, label) if queue is not None else None
    return build_one_shard(job, RayMap(num_gpus=gpus), progress)


class RayShardExecutor:
    """Runs shard builds as Ray tasks (``num_cpus`` each) and yields them as they finish.

    Their embedding batches run as Ray tasks too, with ``embed_num_gpus`` GPUs each (a build's
    ``embed.num_gpus`` setting overrides it): give 1 on a cluster with a GPU node.
    """

    def __init__(
        self,
        num_cpus: float = 1.0,
        num_gpus: float = 0.0,
        embed_num_gpus: float = 0.0,
        report: Progress | None = None,
    ) -> None:
        self.num_cpus = num_cpus
        self.num_gpus = num_gpus
        self.embed_num_gpus = embed_num_gpus
        #: Hears the progress inside each shard's build (``build_generation`` sets it to its own report).
        self.report = report

    def run(self, jobs: Sequence[ShardJob]) -> Iterator[tuple[ShardJob, BuildStats]]:
        task = ray.remote(_build).options(num_cpus=self.num_cpus, num_gpus=self.num_gpus, max_retries=1)
        queue = None
        if self.report is not None:
            from ray.util.queue import Queue

            queue = Queue(maxsize=10_000, actor_options={"num_cpus": 0})
        pending = {
            task.remote(job, self.embed_num_gpus, queue, f"shard {i}/{len(jobs)} {job.modality}/{job.spec.shard}"): job
            for i, job in enumerate(jobs, start=1)
        }
        try:
            yield from self._collect(pending, queue)
        finally:
            if queue is not None:
                with contextlib.suppress(Exception):
                    queue.shutdown()

    def _drain(self, queue: Any) -> None:
        if queue is None or self.report is None:
            return
        with contextlib.suppress(Exception):
            size = queue.qsize()
            for update in queue.get_nowait_batch(size) if size else ():
                self.report(update)

    def _collect(self, pending: dict[Any, ShardJob], queue: Any) -> Iterator[tuple[ShardJob, BuildStats]]:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5 if queue is not None else None)
            self._drain(queue)
            for ref in done:
                job = pending.pop(ref)
                try:
                    stats = ray.get(ref)
                except ray.exceptions.RayError as exc:  # the task died (a crashing plugin, the OOM killer)
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, InvalidInput):
                        raise cause from None
                    stats = failed_build(cause if isinstance(cause, BaseException) else exc)
                yield job, stats
