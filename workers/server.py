"""ShardServer: loads one shard of one modality and serves it over gRPC (ModalityWorker + health).

A plain class — ``fourfold.workers.actors`` turns it into a Ray actor — so it is testable
without Ray.

State it owns: the loaded shard, the gRPC server and its port. Nothing survives a restart: a
restarted actor reloads the shard from the store and, on the next ``address()`` call, serves on a
new ephemeral port, which is why clients re-resolve endpoints after UNAVAILABLE.

Threading: the gRPC server runs on the actor's asyncio loop; each search runs in a worker thread
(``asyncio.to_thread``) so a slow search never blocks health checks. Shards are thread-safe by
the Modality contract.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import replace
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from fourfold.errors import CorruptIndex, FourfoldError
from fourfold.plugins.manager import get_registry
from fourfold.plugins.modality import Shard
from fourfold.plugins.store import GenerationReader
from fourfold.plugins.types import Hit, ShardResult
from fourfold.v1 import worker_pb2, worker_pb2_grpc
from fourfold.workers.convert import query_from_pb, result_to_pb

__all__ = ["ShardServer", "status_for"]

log = logging.getLogger(__name__)


def status_for(exc: FourfoldError) -> grpc.StatusCode:
    return getattr(grpc.StatusCode, exc.grpc_status, grpc.StatusCode.INTERNAL)


class ShardServer(worker_pb2_grpc.ModalityWorkerServicer):
    """Serves (modality, shard, replica) of one generation."""

    def __init__(self, generation_dir: str, modality: str, shard: str, replica: int = 0, host: str | None = "127.0.0.1") -> None:
        self.generation_dir = Path(generation_dir)
        self.modality_name = modality
        self.shard_name = shard
        self.replica = replica
        self.host = host or _node_ip()
        self.reader = GenerationReader(self.generation_dir)
        self.spec = self.reader.shard(modality, shard)
        # A shard that fails to load must not crash-loop the actor: it serves NOT_SERVING and
        # answers every search with the reason, so the coordinator reports the shard missing.
        self.shard: Shard | None = None
        self.load_error = ""
        try:
            self.shard = get_registry().modality(modality).load(self.reader.shard_dir(self.spec))
        except Exception as exc:  # noqa: BLE001 - any plugin failure becomes a reported, unhealthy shard
            self.load_error = f"{modality}/{shard} of {self.reader.name} failed to load: {type(exc).__name__}: {exc}"
            log.error("%s", self.load_error)
        self._server: grpc.aio.Server | None = None
        self._port = 0
        self._health = health.aio.HealthServicer() if hasattr(health, "aio") else health.HealthServicer()
        self._start_lock: asyncio.Lock | None = None

    # -- lifecycle -------------------------------------------------------------------------------
    async def address(self) -> str:
        """Start the gRPC server on first call; return host:port."""
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            if self._server is None:
                server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
                worker_pb2_grpc.add_ModalityWorkerServicer_to_server(self, server)
                health_pb2_grpc.add_HealthServicer_to_server(self._health, server)
                self._port = server.add_insecure_port(f"{self.host}:0")
                await server.start()
                self._server = server
                status = health_pb2.HealthCheckResponse.NOT_SERVING if self.shard is None else health_pb2.HealthCheckResponse.SERVING
                await _set_health(self._health, "", status)
                await _set_health(self._health, "fourfold.v1.ModalityWorker", status)
        return f"{self.host}:{self._port}"

    async def describe(self) -> dict[str, object]:
        return {
            "modality": self.modality_name, "shard": self.shard_name, "replica": self.replica,
            "generation": self.reader.name, "address": await self.address(), "pid": os.getpid(),
            "node_id": _node_id(), "ready": self.shard is not None, "error": self.load_error,
        }

    async def stop(self) -> None:
        if self._server is not None:
            await _set_health(self._health, "", health_pb2.HealthCheckResponse.NOT_SERVING)
            await self._server.stop(grace=1.0)
            self._server = None
        if self.shard is not None:
            self.shard.close()

    # -- ModalityWorker --------------------------------------------------------------------------
    def search_local(self, request: worker_pb2.ShardSearchRequest) -> worker_pb2.ShardSearchResponse:
        started = time.perf_counter()
        if self.shard is None:
            raise CorruptIndex(self.load_error)
        result = self.shard.search(query_from_pb(request))
        result = self._with_centrality(result)
        return result_to_pb(result, self.modality_name, self.shard_name, self.reader.name, time.perf_counter() - started)

    async def Search(self, request: worker_pb2.ShardSearchRequest, context: grpc.aio.ServicerContext) -> worker_pb2.ShardSearchResponse:  # noqa: N802
        if request.generation and request.generation != self.reader.name:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this worker serves generation {self.reader.name}, not {request.generation}",
            )
        try:
            return await asyncio.to_thread(self.search_local, request)
        except FourfoldError as exc:
            await context.abort(status_for(exc), str(exc))
            raise  # unreachable: abort raises

    async def Info(self, request: worker_pb2.InfoRequest, context: grpc.aio.ServicerContext) -> worker_pb2.InfoResponse:  # noqa: N802
        return worker_pb2.InfoResponse(
            modality=self.modality_name, shard=self.shard_name, generation=self.reader.name, replica=self.replica,
            repos=list(self.spec.repos), segments=self.spec.segments, ready=self._server is not None and self.shard is not None,
            node_id=_node_id(), pid=os.getpid(), error=self.load_error,
        )

    def _with_centrality(self, result: ShardResult) -> ShardResult:
        """Attach the generation's precomputed centrality to hits the modality left at 0."""
        missing = [h.segment_id for h in result.hits if not h.centrality]
        if not missing:
            return result
        cent = self.reader.centrality(missing)
        hits: list[Hit] = []
        for h in result.hits:
            c = cent.get(h.segment_id, 0.0)
            if c and not h.centrality:
                h = replace(h, centrality=c)
            hits.append(h)
        return ShardResult(tuple(hits), result.total_matches, result.notes)


def _node_ip() -> str:
    """The address coordinators reach this worker at.

    ``FOURFOLD_WORKER_HOST`` overrides. When every Ray node lives on this machine (a laptop, a
    test cluster) that is loopback; otherwise the node's own address.
    """
    override = os.environ.get("FOURFOLD_WORKER_HOST")
    if override:
        return override
    try:
        import ray

        ip = ray.util.get_node_ip_address()
        if all(n.get("NodeManagerAddress") == ip for n in ray.nodes() if n.get("Alive")):
            return "127.0.0.1"
        return ip
    except Exception:  # noqa: BLE001 - outside Ray: serve on loopback
        return "127.0.0.1"


def _node_id() -> str:
    """The Ray node this process runs on ("" outside Ray)."""
    try:
        import ray

        return ray.get_runtime_context().get_node_id() if ray.is_initialized() else ""
    except Exception:  # noqa: BLE001 - outside a Ray worker there is no node
        return ""


async def _set_health(servicer: object, service: str, status: int) -> None:
    res = servicer.set(service, status)  # type: ignore[attr-defined]
    if asyncio.iscoroutine(res):
        await res
