"""ShardServer: loads a group of shards of one modality and serves them over gRPC (ModalityWorker + health).

A plain class — ``fourfold.workers.actors`` turns it into a Ray actor — so it is testable
without Ray.

State it owns: the loaded shards, the gRPC server and its port. Nothing survives a restart: a
restarted actor reloads the shard from the store and, on the next ``address()`` call, serves on a
new ephemeral port, which is why clients re-resolve endpoints after UNAVAILABLE.

Readiness: gRPC health says NOT_SERVING until every loaded shard answered one warm-up query (a
modality may load a model on its first query), so a caller is never the one who waits for it;
``ready()`` returns once that is done.

Damage: each shard's files are checked against the sizes and checksums the manifest recorded
(``fourfold.index.integrity``) at load, their sizes again before every search (a file cut short
under a memory map would kill the process with SIGBUS), and their checksums after a search fails
unexpectedly. A damaged shard is dropped and answered for with the reason; the worker lives.

Threading: the gRPC server runs on the actor's asyncio loop; each search runs in a worker thread
(``asyncio.to_thread``) so a slow search never blocks health checks. Shards are thread-safe by
the Modality contract.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from fourfold.errors import CorruptIndex, FourfoldError, IndexStateError, InvalidQuery
from fourfold.index import integrity
from fourfold.index.compound import shard_query, skipped_result
from fourfold.index.delta import load_shard
from fourfold.index.store import GenerationReader
from fourfold.plugins.manager import get_registry
from fourfold.plugins.modality import Shard
from fourfold.plugins.types import Hit, ModalityQuery, ShardResult
from fourfold.v1 import worker_pb2, worker_pb2_grpc
from fourfold.workers.auth import WorkerAuthInterceptor, worker_secret, worker_tls
from fourfold.workers.convert import query_from_pb, result_to_pb
from fourfold.workers.server_options import server_options

__all__ = ["WARM_UP_QUERY", "ShardServer", "status_for", "with_centrality"]

log = logging.getLogger(__name__)

#: What a worker asks each of its shards before it says SERVING (loads lazy models, warms caches).
WARM_UP_QUERY = ModalityQuery(text="how is the configuration loaded", k=1, intent="understand_code")

_Response = TypeVar("_Response", worker_pb2.ShardSearchResponse, worker_pb2.ShardSearchResponses)


def status_for(exc: FourfoldError) -> grpc.StatusCode:
    return getattr(grpc.StatusCode, exc.grpc_status, grpc.StatusCode.INTERNAL)


class ShardServer(worker_pb2_grpc.ModalityWorkerServicer):
    """Serves one replica of a group of shards of one modality of one generation.

    ``shards`` is one shard name or several: a worker hosting a group answers a fan-out for all
    of them with one call (``SearchShards``), which is what keeps a query over many shards from
    paying a process hop per shard.
    """

    def __init__(
        self,
        generation_dir: str,
        modality: str,
        shards: str | Sequence[str],
        replica: int = 0,
        host: str | None = "127.0.0.1",
        group: str = "",
        secret: str | None = None,
    ) -> None:
        self.generation_dir = Path(generation_dir)
        # every ModalityWorker call must carry the cluster's secret (see workers.auth); the store
        # holding this generation holds the secret unless the environment gives it
        self._secret = secret or worker_secret(self.generation_dir.parent.parent)
        self.modality_name = modality
        self.shard_names = (shards,) if isinstance(shards, str) else tuple(shards)
        if not self.shard_names:
            raise ValueError("a worker serves at least one shard")
        self.group = group or self.shard_names[0]
        self.replica = replica
        self.host = host or _node_ip()
        self.reader = GenerationReader(self.generation_dir)
        self.specs = {name: self.reader.shard(modality, name) for name in self.shard_names}
        # A shard that fails to load must not crash-loop the actor: the worker keeps serving its
        # other shards and answers for the broken one with the reason, so the coordinator reports
        # that shard missing; with none loaded it reports NOT_SERVING.
        self.shards: dict[str, Shard] = {}
        self.load_errors: dict[str, str] = {}
        self.expected = {n: integrity.expected_files(self.reader.manifest, s.folder) for n, s in self.specs.items()}
        self._sizes = {  # the stat-per-file check before every search
            n: integrity.size_checker(self.reader.shard_dir(s), self.expected[n]) for n, s in self.specs.items()
        }
        for name, spec in self.specs.items():
            problem = integrity.check(self.reader.shard_dir(spec), self.expected[name])
            if problem is not None:
                self.load_errors[name] = integrity.damage_message(modality, name, self.reader.name, problem)
                log.error("%s", self.load_errors[name])
                continue
            try:
                self.shards[name] = load_shard(get_registry().modality(modality), self.reader.shard_dir(spec), spec)
            except Exception as exc:  # noqa: BLE001 - any plugin failure becomes a reported, unhealthy shard
                self.load_errors[name] = (
                    f"{modality}/{name} of {self.reader.name} failed to load: {type(exc).__name__}: {exc}"
                )
                log.error("%s", self.load_errors[name])
        self._server: grpc.aio.Server | None = None
        self._port = 0
        self._health = health.aio.HealthServicer() if hasattr(health, "aio") else health.HealthServicer()
        self._start_lock: asyncio.Lock | None = None
        self._warm_up: asyncio.Task[None] | None = None
        self.warm = False  # every loaded shard answered the warm-up query

    @property
    def load_error(self) -> str:
        """Why shards failed to load ("" when every one serves)."""
        return "; ".join(self.load_errors[n] for n in self.shard_names if n in self.load_errors)

    # -- lifecycle -------------------------------------------------------------------------------
    async def address(self) -> str:
        """Start the gRPC server on first call; return host:port."""
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            if self._server is None:
                server = grpc.aio.server(interceptors=[WorkerAuthInterceptor(self._secret)], options=server_options())
                worker_pb2_grpc.add_ModalityWorkerServicer_to_server(self, server)
                health_pb2_grpc.add_HealthServicer_to_server(self._health, server)
                tls = worker_tls(self.generation_dir.parent.parent)  # the store's: encrypted plane when present
                bind = f"{self.host}:0"
                self._port = (
                    server.add_secure_port(bind, tls.server_credentials()) if tls else server.add_insecure_port(bind)
                )
                await server.start()
                self._server = server
                await self._set_serving(False)
                self._warm_up = asyncio.ensure_future(self._warm())
        return f"{self.host}:{self._port}"

    async def ready(self) -> str:
        """``address()``, once the worker is warm (health SERVING, or NOT_SERVING with no shard loaded)."""
        address = await self.address()
        if self._warm_up is not None:
            await asyncio.shield(self._warm_up)
        return address

    async def _warm(self) -> None:
        """Ask every loaded shard the warm-up query, then say SERVING (a failure is logged, not fatal:
        the shard loaded, and the query only warms it)."""
        started = time.perf_counter()
        for name, shard in list(self.shards.items()):
            try:
                await asyncio.to_thread(shard.search, WARM_UP_QUERY)
            except Exception as exc:  # noqa: BLE001 - a modality may refuse this query; it is warm all the same
                log.info("warm-up query on %s/%s: %s: %s", self.modality_name, name, type(exc).__name__, exc)
        self.warm = True
        await self._set_serving(bool(self.shards))
        log.info("%s/%s warm in %.2fs", self.modality_name, self.group, time.perf_counter() - started)

    async def _set_serving(self, serving: bool) -> None:
        status = health_pb2.HealthCheckResponse.SERVING if serving else health_pb2.HealthCheckResponse.NOT_SERVING
        await _set_health(self._health, "", status)
        await _set_health(self._health, "fourfold.v1.ModalityWorker", status)

    async def describe(self) -> dict[str, object]:
        return {
            "modality": self.modality_name,
            "shard": self.shard_names[0],
            "shards": list(self.shard_names),
            "group": self.group,
            "replica": self.replica,
            "generation": self.reader.name,
            "address": await self.address(),
            "pid": os.getpid(),
            "node_id": _node_id(),
            "ready": bool(self.shards),
            "serving": self.warm and bool(self.shards),
            "error": self.load_error,
        }

    async def stop(self) -> None:
        if self._warm_up is not None and not self._warm_up.done():
            with contextlib.suppress(Exception):  # its thread reads the shards closed below
                await asyncio.wait_for(asyncio.shield(self._warm_up), 30)
        if self._server is not None:
            await _set_health(self._health, "", health_pb2.HealthCheckResponse.NOT_SERVING)
            await self._server.stop(grace=1.0)
            self._server = None
        for shard in self.shards.values():
            shard.close()

    # -- ModalityWorker --------------------------------------------------------------------------
    def _asked(self, request: worker_pb2.ShardSearchRequest) -> tuple[str, ...]:
        """The shards a request names (all of this worker's when it names none)."""
        if not request.shards:
            return self.shard_names
        unknown = [s for s in request.shards if s not in self.specs]
        if unknown:
            raise IndexStateError(
                f"this worker serves {self.modality_name} shards {list(self.shard_names)}, not {unknown}; "
                "the coordinator's worker list is stale, it refreshes on its own"
            )
        return tuple(request.shards)

    def _search_one(self, name: str, query: ModalityQuery) -> worker_pb2.ShardSearchResponse:
        shard = self.shards.get(name)
        if shard is None:
            raise CorruptIndex(self.load_errors[name])
        problem = self._sizes[name]()
        if problem is not None:
            raise self._drop_damaged(name, problem)
        started = time.perf_counter()
        scoped = shard_query(self.specs[name], query)  # a compound shard's tombstones are never answered for
        if scoped is None:
            return result_to_pb(skipped_result(), self.modality_name, name, self.reader.name, 0.0)
        try:
            found = shard.search(scoped)
        except FourfoldError:
            raise
        except Exception:
            problem = integrity.check(self.reader.shard_dir(self.specs[name]), self.expected[name])
            if problem is not None:
                raise self._drop_damaged(name, problem) from None
            raise
        result = self._with_centrality(found)
        return result_to_pb(result, self.modality_name, name, self.reader.name, time.perf_counter() - started)

    def _drop_damaged(self, name: str, problem: str) -> CorruptIndex:
        """Stop serving shard ``name`` (its files no longer match the manifest); the error to answer with.

        The shard object is dropped, not closed: another thread may still be reading its maps.
        """
        message = integrity.damage_message(self.modality_name, name, self.reader.name, problem)
        if self.shards.pop(name, None) is not None:
            log.error("%s", message)
        self.load_errors[name] = message
        return CorruptIndex(message)

    def search_local(self, request: worker_pb2.ShardSearchRequest) -> worker_pb2.ShardSearchResponse:
        """One shard's answer (``Search``): the shard the request names, or this worker's only one."""
        asked = self._asked(request)
        if len(asked) != 1:
            raise InvalidQuery(
                f"Search answers for one shard; this worker serves {list(asked)}: name one in "
                "`shards`, or call SearchShards"
            )
        return self._search_one(asked[0], query_from_pb(request))

    def search_many(self, request: worker_pb2.ShardSearchRequest) -> worker_pb2.ShardSearchResponses:
        """Every asked shard's answer, one after another in this thread (``SearchShards``).

        A shard that failed to load is listed in ``errors``; a query error (the caller's fault)
        fails the whole call, as it would fail on every shard.
        """
        query = query_from_pb(request)
        out = worker_pb2.ShardSearchResponses()
        for name in self._asked(request):
            if name in self.load_errors:
                out.errors.add(shard=name, message=self.load_errors[name])
                continue
            try:
                out.results.append(self._search_one(name, query))
            except CorruptIndex as exc:  # this shard's fault, not the query's: the others still answer
                out.errors.add(shard=name, message=str(exc))
        return out

    async def _answer(
        self,
        search: Callable[[worker_pb2.ShardSearchRequest], _Response],
        request: worker_pb2.ShardSearchRequest,
        context: grpc.aio.ServicerContext,
    ) -> _Response:
        """``search(request)`` in a worker thread, for the generation this worker serves; a
        fourfold error becomes its gRPC status."""
        if request.generation and request.generation != self.reader.name:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this worker serves generation {self.reader.name}, not {request.generation}",
            )
        try:
            return await asyncio.to_thread(search, request)
        except FourfoldError as exc:
            await context.abort(status_for(exc), str(exc))
            raise  # unreachable: abort raises
        finally:
            if not self.shards and self.warm:  # every shard damaged: say so to health checks
                await self._set_serving(False)

    async def Search(
        self, request: worker_pb2.ShardSearchRequest, context: grpc.aio.ServicerContext
    ) -> worker_pb2.ShardSearchResponse:
        return await self._answer(self.search_local, request, context)

    async def SearchShards(
        self, request: worker_pb2.ShardSearchRequest, context: grpc.aio.ServicerContext
    ) -> worker_pb2.ShardSearchResponses:
        return await self._answer(self.search_many, request, context)

    async def Info(self, request: worker_pb2.InfoRequest, context: grpc.aio.ServicerContext) -> worker_pb2.InfoResponse:
        repos = sorted({r for spec in self.specs.values() for r in spec.repos})
        return worker_pb2.InfoResponse(
            modality=self.modality_name,
            shard=self.shard_names[0],
            shards=list(self.shard_names),
            generation=self.reader.name,
            replica=self.replica,
            repos=repos,
            segments=sum(spec.segments for spec in self.specs.values()),
            ready=self._server is not None and bool(self.shards),
            node_id=_node_id(),
            pid=os.getpid(),
            error=self.load_error,
        )

    def _with_centrality(self, result: ShardResult) -> ShardResult:
        return with_centrality(self.reader, result)


def with_centrality(reader: GenerationReader, result: ShardResult) -> ShardResult:
    """``result`` with the generation's precomputed centrality on the hits the modality left at 0
    (a worker and the coordinator's in-process searcher both attach it)."""
    missing = [h.segment_id for h in result.hits if not h.centrality]
    if not missing:
        return result
    cent = reader.centrality(missing, repos={h.repo for h in result.hits if not h.centrality})
    hits: list[Hit] = []
    for h in result.hits:
        c = cent.get(h.segment_id, 0.0)
        if c and not h.centrality:
            h = replace(h, centrality=c)
        hits.append(h)
    return replace(result, hits=tuple(hits))


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
