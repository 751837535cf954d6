"""Start the coordinator's gRPC server (and, by role, the workers) — in the foreground or embedded.

Roles: ``all`` (a laptop: workers + coordinator in one process's cluster), ``coordinator``
(stateless front: discovers workers through Ray), ``workers`` (deploys the live generation's
actors and rolls them to each new generation).

Security: with a :class:`~fourfold.coordinator.auth.TokenStore` every Coordinator call needs a
bearer token (health and reflection stay open); with a :class:`TlsFiles` the port speaks TLS only.
Without tokens the server is open and says so in its log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from fourfold.coordinator import intent_model
from fourfold.coordinator.auth import AuthInterceptor, Limits, TokenStore
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.exposure import exposure
from fourfold.coordinator.fanout import WorkerSearcher
from fourfold.coordinator.malformed import DecodeGuard
from fourfold.coordinator.readiness import wait_until_warm
from fourfold.coordinator.service import CoordinatorService
from fourfold.coordinator.syncer import FleetSyncer
from fourfold.errors import FourfoldError
from fourfold.index.store import IndexStore
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.workers import cluster
from fourfold.workers.auth import ensure_worker_tls, worker_secret, worker_tls
from fourfold.workers.build import RayShardExecutor
from fourfold.workers.registry import EndpointRegistry
from fourfold.workers.server_options import server_options

__all__ = ["EmbeddedServer", "RunningServer", "TlsFiles", "start_server", "watch_generations"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """PEM files of the coordinator's certificate chain and private key."""

    cert: Path
    key: Path

    def credentials(self) -> grpc.ServerCredentials:
        try:
            chain, key = Path(self.cert).read_bytes(), Path(self.key).read_bytes()
        except OSError as exc:
            which = "certificate" if exc.filename == str(self.cert) else "key"
            raise OSError(f"cannot read the TLS {which} {exc.filename!r}: {exc.strerror}") from None
        return grpc.ssl_server_credentials([(key, chain)])


@dataclass
class RunningServer:
    address: str
    server: grpc.aio.Server | None
    engine: Engine | None
    health_server: grpc.aio.Server | None = None
    health_address: str = ""
    sync_task: asyncio.Future[None] | None = None

    async def stop(self) -> None:
        if self.sync_task is not None:
            self.sync_task.cancel()
        if self.health_server is not None:
            await self.health_server.stop(grace=None)
        if self.server is not None:
            await self.server.stop(grace=1.0)
        if self.engine is not None:
            await self.engine.stop()


def _warmed(done: Future[None] | asyncio.Future[None]) -> None:
    """A router that could not warm up still routes (its first query loads what it can): say why."""
    if not done.cancelled() and done.exception() is not None:
        log.warning("the router's model did not load at start: %s", done.exception())


async def start_server(
    home: Path,
    address: str,
    *,
    role: str = "all",
    replicas: Mapping[str, int] | None = None,
    tokens: TokenStore | None = None,
    tls: TlsFiles | None = None,
    limits: Limits | None = None,
    health_address: str | None = None,
    workers_per_modality: int | None = None,
    allow_unauthenticated: bool = False,
    allow_plaintext_tokens: bool = False,
    encrypt_workers: bool = False,
    fleet: Path | None = None,
    sync_interval_s: float = 0.0,
) -> RunningServer:
    """Start what ``role`` needs on the running asyncio loop (Ray must already be connected).

    ``tokens``: require a bearer token on every Coordinator call; ``tls``: serve TLS only;
    ``limits``: per-request limits (defaults: :class:`~fourfold.coordinator.auth.Limits`);
    ``health_address``: also serve grpc.health.v1 alone, in plaintext, there — for probes that
    cannot speak TLS (the kubelet's gRPC probes); it carries no code and needs no token.
    ``workers_per_modality``: pack each modality's shards into at most this many workers (see
    ``workers.groups``). ``allow_unauthenticated`` / ``allow_plaintext_tokens``: opt into serving
    without tokens, or tokens without TLS, on an address other hosts reach (see ``exposure``).
    ``encrypt_workers``: encrypt the worker plane (always so when ``tls`` is given; see ``workers.auth``).
    ``fleet``: the fleet file the admin ``Sync`` RPC (and, with ``sync_interval_s`` > 0, a schedule)
    syncs; its labels are the ``group:`` grants.
    """
    exposed = (
        exposure(
            address,
            tokens=tokens is not None,
            tls=tls is not None,
            allow_unauthenticated=allow_unauthenticated,
            allow_plaintext_tokens=allow_plaintext_tokens,
        )
        if role != "workers"
        else None
    )
    store = IndexStore(home)
    store.ensure()
    if tls is not None or encrypt_workers:
        ensure_worker_tls(store.home)  # before any worker starts: workers and fan-out read it once
    launcher = (
        cluster.Launcher(store, replicas, workers_per_modality=workers_per_modality)
        if role in ("all", "workers")
        else None
    )
    if role == "workers":
        assert launcher is not None
        live = store.live_generation()
        if live:
            await launcher.deploy(live)
        return RunningServer(address="", server=None, engine=None)
    # workers refuse calls without the cluster's secret; TLS when the worker plane is encrypted
    searcher = WorkerSearcher(EndpointRegistry(store.store_id()), worker_secret(store.home), worker_tls(store.home))
    engine = Engine(store, searcher, launcher=launcher, executor_factory=RayShardExecutor)
    syncer = FleetSyncer(engine, fleet) if fleet is not None else None  # a bad fleet file fails here, first
    await engine.start()
    service = CoordinatorService(engine, limits, syncer=syncer)
    # the caller is authenticated first (a token at its limit is told to retry after about a search's
    # time, as admission measures it); then DecodeGuard refuses a malformed request in words
    authenticated = (
        [AuthInterceptor(tokens, retry_after=lambda: service.admission.latency_s)] if tokens is not None else []
    )
    interceptors = [*authenticated, DecodeGuard()]
    server = grpc.aio.server(
        interceptors=interceptors,
        options=server_options(
            ("grpc.max_receive_message_length", 16 << 20),
            # room for a mistaken long token to reach the interceptor, which refuses it in words
            ("grpc.max_metadata_size", 32 << 10),
        ),
    )
    coordinator_pb2_grpc.add_CoordinatorServicer_to_server(service, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (
            coordinator_pb2.DESCRIPTOR.services_by_name["Coordinator"].full_name,
            health.SERVICE_NAME,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    port = server.add_secure_port(address, tls.credentials()) if tls is not None else server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"cannot listen on {address!r}: the address is in use or not local; pick another with --address")
    await server.start()
    health_server, health_bound = None, ""
    if health_address is not None:
        health_server = grpc.aio.server(options=server_options())
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, health_server)
        health_port = health_server.add_insecure_port(health_address)
        if health_port == 0:
            raise OSError(f"cannot listen on {health_address!r} for health checks: the address is in use or not local")
        await health_server.start()
        health_bound = f"{health_address.rsplit(':', 1)[0]}:{health_port}"
    # the router's model and embedder load beside the start (about a second), not in the first query
    asyncio.get_running_loop().run_in_executor(None, intent_model.warm).add_done_callback(_warmed)
    # SERVING once the served generation's workers are warm: the first queries are not partial
    with contextlib.suppress(FourfoldError):  # nothing indexed or served yet: nothing to wait for
        await wait_until_warm(searcher.registry, await engine.current_generation())
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    await health_servicer.set("fourfold.v1.Coordinator", health_pb2.HealthCheckResponse.SERVING)
    host = address.rsplit(":", 1)[0]
    if host in ("0.0.0.0", "[::]", ""):
        host = "127.0.0.1"
    bound = f"{host}:{port}"
    assert exposed is not None
    log.log(logging.WARNING if exposed.warning else logging.INFO, "%s (connect to %s)", exposed.message, bound)
    sync_task = (
        asyncio.ensure_future(syncer.run_forever(sync_interval_s))
        if syncer is not None and sync_interval_s > 0
        else None
    )
    return RunningServer(
        address=bound,
        server=server,
        engine=engine,
        health_server=health_server,
        health_address=health_bound,
        sync_task=sync_task,
    )


async def watch_generations(
    store: IndexStore, launcher: cluster.Launcher, interval_s: float = 2.0, grace_s: float = 10.0
) -> None:
    """Workers role: deploy each new live generation, then retire older ones after a grace period."""
    served = store.live_generation()
    while True:
        await asyncio.sleep(interval_s)
        live = store.live_generation()
        if live and live != served:
            await launcher.deploy(live)
            old, served = served, live
            if old:
                await asyncio.sleep(grace_s)  # coordinators switch on their next query
                launcher.retire(old)


class EmbeddedServer:
    """A whole local deployment in this process, for one CLI call or a test: a local Ray cluster,
    the workers of the live generation and the coordinator's gRPC server on an ephemeral port.
    """

    def __init__(
        self,
        home: Path,
        *,
        ray_address: str | None = None,
        replicas: Mapping[str, int] | None = None,
        workers_per_modality: int | None = None,
    ) -> None:
        self.home = home
        self.ray_address = ray_address
        self.replicas = replicas
        self.workers_per_modality = workers_per_modality
        self.address = ""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="fourfold-embedded", daemon=True)
        self._running: RunningServer | None = None
        self._started_ray = False

    def __enter__(self) -> EmbeddedServer:
        self._started_ray = cluster.connect(self.ray_address)
        self._thread.start()
        fut: Future[RunningServer] = asyncio.run_coroutine_threadsafe(
            start_server(
                self.home,
                "127.0.0.1:0",
                role="all",
                replicas=self.replicas,
                workers_per_modality=self.workers_per_modality,
            ),
            self._loop,
        )
        self._running = fut.result()
        self.address = self._running.address
        return self

    def __exit__(self, *exc: object) -> None:
        if self._running is not None:
            asyncio.run_coroutine_threadsafe(self._running.stop(), self._loop).result(timeout=10)
            if self._started_ray and self._running.engine is not None and self._running.engine.launcher is not None:
                for gen in self._running.engine.launcher.deployed_generations():
                    self._running.engine.launcher.retire(gen)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if self._started_ray:
            cluster.shutdown()
