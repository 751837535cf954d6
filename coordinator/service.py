"""The public gRPC service: thin — decode, call the engine, encode; domain errors become statuses."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import ray

from fourfold import __version__
from fourfold.coordinator.convert import answer_to_pb, params_from_pb, summary_to_pb
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.fanout import ShardCallError
from fourfold.errors import FourfoldError
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.workers.server import status_for

__all__ = ["CoordinatorService"]

log = logging.getLogger(__name__)


class CoordinatorService(coordinator_pb2_grpc.CoordinatorServicer):
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def Search(self, request: coordinator_pb2.SearchRequest, context: grpc.aio.ServicerContext) -> coordinator_pb2.SearchResponse:  # noqa: N802
        try:
            answer = await self.engine.search(params_from_pb(request))
        except FourfoldError as exc:
            await context.abort(status_for(exc), str(exc))
        except ShardCallError as exc:
            await context.abort(exc.code, exc.details)
        return answer_to_pb(answer)

    async def Index(self, request: coordinator_pb2.IndexRequest, context: grpc.aio.ServicerContext) -> AsyncIterator[coordinator_pb2.IndexProgress]:  # noqa: N802
        queue: asyncio.Queue[coordinator_pb2.IndexProgress] = asyncio.Queue()

        def progress(stage: str, done: int, total: int, message: str) -> None:
            queue.put_nowait(coordinator_pb2.IndexProgress(stage=stage, done=done, total=total, message=message))

        add = [(Path(r.path), r.name or None) for r in request.repos]
        task = asyncio.ensure_future(self.engine.index(add, progress))
        while not task.done() or not queue.empty():
            try:
                yield await asyncio.wait_for(queue.get(), 0.2)
            except TimeoutError:
                continue
        try:
            summary = task.result()
        except FourfoldError as exc:
            await context.abort(status_for(exc), str(exc))
            return
        yield coordinator_pb2.IndexProgress(stage="done", done=1, total=1, message=f"{summary.generation} is live",
                                            summary=summary_to_pb(summary))

    async def Status(self, request: coordinator_pb2.StatusRequest, context: grpc.aio.ServicerContext) -> coordinator_pb2.StatusResponse:  # noqa: N802
        store = self.engine.store
        live = store.live_generation()
        repo_stats = store.reader(live).manifest.get("repos", {}) if live else {}
        await self.engine.endpoints.refresh()
        shards = []
        health = await self._health()
        for ep in self.engine.endpoints.all():
            shards.append(coordinator_pb2.ShardStatus(
                modality=ep.key.modality, shard=ep.key.shard, replica=ep.key.replica, address=ep.address,
                health=health.get(ep.address, "UNKNOWN"), generation=ep.key.generation,
            ))
        return coordinator_pb2.StatusResponse(
            generation=live or "",
            repos=[coordinator_pb2.RepoStatus(name=r.name, path=r.path, files=repo_stats.get(r.name, {}).get("files", 0),
                                              segments=repo_stats.get(r.name, {}).get("segments", 0)) for r in store.repos()],
            shards=shards, modalities=sorted(self.engine.plugins.modalities), version=__version__,
            nodes=sum(1 for n in ray.nodes() if n.get("Alive")) if ray.is_initialized() else 0,
        )

    async def _health(self) -> dict[str, str]:
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        async def check(address: str) -> tuple[str, str]:
            try:
                async with grpc.aio.insecure_channel(address) as ch:
                    r = await health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=1.0)
                    return address, health_pb2.HealthCheckResponse.ServingStatus.Name(r.status)
            except grpc.aio.AioRpcError:
                return address, "NOT_SERVING"

        results = await asyncio.gather(*(check(ep.address) for ep in self.engine.endpoints.all()))
        return dict(results)
