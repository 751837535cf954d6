"""The worker plane answers only the coordinator: a raw gRPC probe of a worker's port, found the way
the coordinator finds it (Ray's named actors, then ``describe``), gets UNAUTHENTICATED and no data,
over the session's real Ray cluster; the same call with the cluster's secret does answer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import grpc
import pytest
import ray
from grpc_health.v1 import health_pb2, health_pb2_grpc

from fourfold.index.store import IndexStore
from fourfold.plugins.types import ModalityQuery
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc, worker_pb2, worker_pb2_grpc
from fourfold.workers.actors import NAMESPACE, named_workers
from fourfold.workers.auth import METADATA_KEY, worker_secret
from fourfold.workers.convert import query_to_pb

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


def worker_addresses(home: Path) -> dict[str, str]:
    """modality -> a worker's host:port, resolved as the coordinator's registry resolves it."""
    store = IndexStore(home)
    out: dict[str, str] = {}
    for key, name in named_workers(store.store_id()).items():
        if key.generation == store.live_generation():
            info = ray.get(ray.get_actor(name, namespace=NAMESPACE).describe.remote(), timeout=60)
            out[key.modality] = str(info["address"])
    return out


def test_a_raw_worker_port_refuses_callers_without_the_cluster_secret(cluster: Any, indexed_home: Path) -> None:
    addresses = worker_addresses(indexed_home)
    assert {"text", "structural", "graph", "semantic"} <= set(addresses)
    generation = IndexStore(indexed_home).live_generation() or ""
    request = query_to_pb(ModalityQuery(text="parse_config", k=10, intent="exact_match"), generation)
    for modality, address in addresses.items():
        # a single-node cluster binds loopback only: nothing off this machine reaches the port
        assert address.startswith("127.0.0.1:"), address
        with grpc.insecure_channel(address) as ch:
            stub = worker_pb2_grpc.ModalityWorkerStub(ch)
            for call, req in (
                (stub.Search, request),
                (stub.SearchShards, request),
                (stub.Info, worker_pb2.InfoRequest()),
            ):
                for metadata in ((), ((METADATA_KEY, "guessed"),), (("authorization", "Bearer x"),)):
                    with pytest.raises(grpc.RpcError) as info:
                        call(req, metadata=metadata, timeout=10)
                    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED, (modality, call, metadata)
                    assert "parse_config" not in (info.value.details() or "")
            # health stays open (probes), and says nothing but the status
            health = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
            # the test has teeth: the same port answers with the cluster's secret
            answer = stub.SearchShards(request, metadata=((METADATA_KEY, worker_secret(indexed_home)),), timeout=30)
            assert answer.results or answer.errors, modality
    text = worker_pb2_grpc.ModalityWorkerStub(grpc.insecure_channel(addresses["text"]))
    found = text.SearchShards(request, metadata=((METADATA_KEY, worker_secret(indexed_home)),), timeout=30)
    assert any(h.path for r in found.results for h in r.hits)
    # and the coordinator, which holds the secret, still searches through them
    with grpc.insecure_channel(cluster.address) as ch:
        r = coordinator_pb2_grpc.CoordinatorStub(ch).Search(
            coordinator_pb2.SearchRequest(query="parse_config", k=5), timeout=60
        )
    assert r.hits and not r.partial


def test_the_secret_file_is_private(indexed_home: Path) -> None:
    secret = worker_secret(indexed_home)
    path = indexed_home / "worker.secret"
    assert len(secret) >= 32 and path.read_text().strip() == secret
    assert path.stat().st_mode & 0o777 == 0o600
    assert worker_secret(indexed_home) == secret  # stable: workers and coordinators agree


def test_a_tls_coordinator_encrypts_the_worker_plane(cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """With TLS on the coordinator, workers speak TLS only, with a certificate made for the cluster
    that the coordinator pins; a plaintext probe gets nothing, and searches and health still work."""
    import asyncio

    from fourfold.coordinator.serving import TlsFiles, start_server
    from fourfold.index.generation import build_generation
    from fourfold.workers.auth import TLS_NAME, worker_tls

    sys.path.insert(0, str(Path(__file__).parent))
    from test_input_cli import self_signed, write_repo

    base = tmp_path_factory.mktemp("worker-tls")
    store = IndexStore(base / "home")
    store.ensure()
    build_generation(store, [(write_repo(base / "repo", 2), "repo")], modalities=["text", "structural"])
    cert, key = self_signed(base)
    running = asyncio.run_coroutine_threadsafe(
        start_server(store.home, "127.0.0.1:0", role="all", tls=TlsFiles(cert, key)), cluster._loop
    ).result(timeout=300)
    try:
        material = worker_tls(store.home)
        assert material is not None and (store.home / "worker-tls.key").stat().st_mode & 0o777 == 0o600
        request = query_to_pb(ModalityQuery(text="handler_1", k=5, intent="exact_match"), store.live_generation() or "")
        secret = ((METADATA_KEY, worker_secret(store.home)),)
        for address in worker_addresses(store.home).values():
            with grpc.insecure_channel(address) as plain, pytest.raises(grpc.RpcError) as info:
                worker_pb2_grpc.ModalityWorkerStub(plain).SearchShards(request, metadata=secret, timeout=5)
            assert info.value.code() == grpc.StatusCode.UNAVAILABLE
            options = [("grpc.ssl_target_name_override", TLS_NAME)]
            with grpc.secure_channel(address, grpc.ssl_channel_credentials(material.cert), options=options) as ch:
                stub = worker_pb2_grpc.ModalityWorkerStub(ch)
                assert stub.SearchShards(request, metadata=secret, timeout=30).results
                with pytest.raises(grpc.RpcError) as info:
                    stub.SearchShards(request, timeout=30)
                assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        creds = grpc.ssl_channel_credentials(cert.read_bytes())
        with grpc.secure_channel(running.address, creds) as ch:
            stub = coordinator_pb2_grpc.CoordinatorStub(ch)
            r = stub.Search(coordinator_pb2.SearchRequest(query="handler_1", k=5), timeout=60)
            assert r.hits and not r.partial
            status = stub.Status(coordinator_pb2.StatusRequest(), timeout=60)
            assert status.shards and {s.health for s in status.shards} == {"SERVING"}
    finally:
        asyncio.run_coroutine_threadsafe(running.stop(), cluster._loop).result(timeout=30)
        assert running.engine is not None and running.engine.launcher is not None
        running.engine.launcher.retire(store.live_generation() or "")
