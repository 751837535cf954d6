"""A thin synchronous client of the public gRPC API (used by the CLI)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from fourfold.coordinator.convert import params_to_pb
from fourfold.coordinator.engine import SearchParams
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

__all__ = ["Client"]


class Client:
    def __init__(self, address: str, timeout_s: float = 30.0) -> None:
        self.address = address
        self.timeout_s = timeout_s
        self._channel = grpc.insecure_channel(address)
        self._stub = coordinator_pb2_grpc.CoordinatorStub(self._channel)

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def healthy(self, timeout_s: float = 0.5) -> bool:
        try:
            r = health_pb2_grpc.HealthStub(self._channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout_s)
        except grpc.RpcError:
            return False
        return r.status == health_pb2.HealthCheckResponse.SERVING

    def search(self, params: SearchParams) -> coordinator_pb2.SearchResponse:
        return self._stub.Search(params_to_pb(params), timeout=max(self.timeout_s, params.deadline_ms / 1000 + 5))

    def index(self, repos: list[tuple[Path, str | None]]) -> Iterator[coordinator_pb2.IndexProgress]:
        request = coordinator_pb2.IndexRequest(repos=[coordinator_pb2.RepoSpec(path=str(p), name=n or "") for p, n in repos])
        yield from self._stub.Index(request)

    def status(self) -> coordinator_pb2.StatusResponse:
        return self._stub.Status(coordinator_pb2.StatusRequest(), timeout=self.timeout_s)
