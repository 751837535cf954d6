"""A real coordinator in this process, without Ray: the gRPC ``CoordinatorService`` over an ``Engine``
whose shards are loaded in this process (``LocalSearcher``), served on a free loopback port from an
event loop on its own thread, with bearer tokens when ``tokens`` is given. Fast enough for the
quick tests; the cluster tests cover the same service on Ray workers."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.auth import AuthInterceptor, TokenStore
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.service import CoordinatorService
from fourfold.coordinator.syncer import FleetSyncer
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.v1 import coordinator_pb2_grpc

__all__ = ["coordinator_in_process", "index_files", "mcp_search", "search_once"]


def index_files(tmp_path: Path, repo: str, files: dict[str, str]) -> Path:
    """A real index (text, structural, graph) of the repository ``repo`` holding ``files`` (path -> text), written
    under ``tmp_path``; its store's home."""
    root = tmp_path / repo
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    home = tmp_path / "home"
    build_generation(IndexStore(home), [(root, repo)], modalities=["text", "structural", "graph"])
    return home


@contextlib.contextmanager
def coordinator_in_process(home: Path, tokens: TokenStore | None = None, fleet: Path | None = None) -> Iterator[str]:
    """Serve the store at ``home`` (syncing the fleet file ``fleet`` on the Sync RPC when given);
    yields ``host:port`` once the server answers its health check."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    engine = Engine(IndexStore(home))

    async def start() -> tuple[grpc.aio.Server, int]:
        await engine.start()
        server = grpc.aio.server(interceptors=[AuthInterceptor(tokens)] if tokens is not None else [])
        syncer = FleetSyncer(engine, fleet) if fleet is not None else None
        coordinator_pb2_grpc.add_CoordinatorServicer_to_server(CoordinatorService(engine, syncer=syncer), server)
        probe = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(probe, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        await probe.set("", health_pb2.HealthCheckResponse.SERVING)
        return server, port

    async def stop(server: grpc.aio.Server) -> None:
        await server.stop(None)
        await engine.stop()

    server, port = asyncio.run_coroutine_threadsafe(start(), loop).result(60)
    address = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(address) as channel:  # ready when it answers, not after a sleep
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=10, wait_for_ready=True
            )
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
        yield address
    finally:
        asyncio.run_coroutine_threadsafe(stop(server), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def search_once(engine: Engine, p: SearchParams, visible: frozenset[str] | None = None) -> Answer:
    """``p`` asked of ``engine`` from synchronous test code (``visible``: a caller's scope); the engine
    is stopped after it."""

    async def run() -> Answer:
        try:
            return await engine.search(p, visible)
        finally:
            await engine.stop()

    return asyncio.run(run())


def mcp_search(address: str, query: str, k: int, **args: object) -> str:
    """The MCP ``search`` tool's answer to ``query`` (and its other ``args``), from an MCP client over a server
    whose backend is the Python client of the coordinator at ``address`` (as ``fourfold mcp --address`` serves an
    agent)."""
    from mcp import Client as McpClient

    from fourfold.client import AsyncClient
    from fourfold.coordinator.mcp_server import build_server

    async def agent() -> str:
        async with AsyncClient(address) as client:

            async def backend() -> AsyncClient:
                return client

            async with McpClient(build_server(backend)) as mcp:
                result = await mcp.call_tool("search", {"query": query, "k": k, **args})
                assert not result.is_error, result.content
                return str(result.content[0].text)

    return asyncio.run(agent())
