"""How every fourfold caller reaches a coordinator: address, token, TLS, deadlines, retries.

:class:`Connection` holds the settings and makes channels (sync and asyncio) and call metadata;
:class:`WireClient` is the thin synchronous client of the ``fourfold.v1`` messages themselves
(the CLI, which prints the wire shape, and the benchmarks use it); ``fourfold.Client`` /
``fourfold.AsyncClient`` build on the same :class:`Connection` and return :mod:`fourfold.api`
values. Only ``UNAVAILABLE`` is retried (the call never reached a coordinator,
or it is restarting); every other status is the answer.

The token defaults to ``$FOURFOLD_TOKEN`` and the CA bundle to ``$FOURFOLD_TLS_CA``, so the CLI
and the MCP server need no flags where the environment is set.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from fourfold.api import SearchParams
from fourfold.errors import InvalidInput
from fourfold.rpc_errors import check_token
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.wire import params_to_pb

__all__ = [
    "PUSHBACK_KEY",
    "TIMEOUT_KEY",
    "TLS_CA_ENV",
    "TOKEN_ENV",
    "Connection",
    "WireClient",
    "channel_healthy",
    "millis",
    "read_millis",
]

#: Environment variable holding the bearer token a client sends.
TOKEN_ENV = "FOURFOLD_TOKEN"
#: Environment variable naming a PEM bundle of CA certificates to trust (turns TLS on).
TLS_CA_ENV = "FOURFOLD_TLS_CA"

#: Metadata key of the gRPC timeout a search is sent with, in whole milliseconds. With the time
#: left of that timeout when the coordinator reads the call, it tells how long the call waited
#: unread (a busy coordinator's queue), which the coordinator takes off the search's deadline.
TIMEOUT_KEY = "fourfold-timeout-ms"

#: Trailing metadata of a refusal for overload: how long to wait before retrying, in whole
#: milliseconds (gRPC's own key, which a channel's retry policy honours).
PUSHBACK_KEY = "grpc-retry-pushback-ms"

_T = TypeVar("_T")


def millis(key: str, seconds: float) -> tuple[str, str]:
    """The metadata ``key`` saying ``seconds`` in whole milliseconds (at least one), as the two keys above are said."""
    return key, str(max(1, round(seconds * 1000)))


def read_millis(value: object) -> int | None:
    """The whole milliseconds a metadata value says, as :func:`millis` writes them; None for anything else."""
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else None


@dataclass(frozen=True, slots=True)
class Connection:
    """Where and how to call a coordinator.

    ``tls``: speak TLS, trusting ``ca_cert`` (PEM) or the system roots; ``server_name`` overrides
    the name checked against the certificate. ``retries``: extra attempts after UNAVAILABLE, with
    exponential backoff from ``backoff_s``; ``timeout_s``: the deadline of a unary call.
    """

    address: str
    token: str | None = None
    tls: bool = False
    ca_cert: Path | None = None
    server_name: str | None = None
    timeout_s: float = 30.0
    retries: int = 2
    backoff_s: float = 0.1

    @classmethod
    def from_env(
        cls, address: str, *, token: str | None = None, ca_cert: Path | None = None, tls: bool = False, **kw: object
    ) -> Connection:
        """Settings with the token and CA bundle taken from the environment when not given."""
        token = token if token is not None else (os.environ.get(TOKEN_ENV) or None)
        ca_env = os.environ.get(TLS_CA_ENV)
        ca = ca_cert if ca_cert is not None else (Path(ca_env) if ca_env else None)
        return cls(address=address, token=token, tls=tls or ca is not None, ca_cert=ca, **kw)  # type: ignore[arg-type]

    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The call metadata; a token no coordinator could accept raises Unauthenticated here, not
        as an opaque transport error later."""
        if not self.token:
            return ()
        check_token(self.token)
        return (("authorization", f"Bearer {self.token}"),)

    def search_call(
        self, request: coordinator_pb2.SearchRequest, metadata: tuple[tuple[str, str], ...]
    ) -> tuple[float, tuple[tuple[str, str], ...]]:
        """The gRPC timeout of a search (its deadline and 5 s to carry the answer, at least
        ``timeout_s``) and its metadata, which says that timeout (:data:`TIMEOUT_KEY`)."""
        timeout = max(self.timeout_s, request.deadline_ms / 1000 + 5)
        return timeout, (*metadata, millis(TIMEOUT_KEY, timeout))

    def _credentials(self) -> grpc.ChannelCredentials:
        roots = None
        if self.ca_cert is not None:
            try:
                roots = Path(self.ca_cert).read_bytes()
            except OSError as exc:
                raise InvalidInput(f"cannot read the CA certificate {str(self.ca_cert)!r}: {exc.strerror}") from None
        return grpc.ssl_channel_credentials(root_certificates=roots)

    def _options(self) -> list[tuple[str, str | int]]:
        options: list[tuple[str, str | int]] = [("grpc.max_receive_message_length", 16 << 20)]
        if self.server_name:
            options.append(("grpc.ssl_target_name_override", self.server_name))
        return options

    def channel(self) -> grpc.Channel:
        if self.tls:
            return grpc.secure_channel(self.address, self._credentials(), options=self._options())
        return grpc.insecure_channel(self.address, options=self._options())

    def aio_channel(self) -> grpc.aio.Channel:
        if self.tls:
            return grpc.aio.secure_channel(self.address, self._credentials(), options=self._options())
        return grpc.aio.insecure_channel(self.address, options=self._options())

    def backoff(self, attempt: int) -> float:
        """Seconds to wait before retry ``attempt`` (1-based)."""
        return self.backoff_s * (2 ** (attempt - 1))

    def call(self, fn: Callable[[], _T]) -> _T:
        """Run a unary call, retrying UNAVAILABLE up to ``retries`` times."""
        attempt = 0
        while True:
            try:
                return fn()
            except grpc.RpcError as exc:
                if exc.code() != grpc.StatusCode.UNAVAILABLE or attempt >= self.retries:
                    raise
                attempt += 1
                time.sleep(self.backoff(attempt))


def channel_healthy(channel: grpc.Channel, timeout_s: float = 0.5) -> bool:
    """True when the coordinator behind ``channel`` answers its health check SERVING (needs no token)."""
    try:
        r = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout_s)
    except grpc.RpcError:
        return False
    return r.status == health_pb2.HealthCheckResponse.SERVING


class WireClient:
    """The synchronous wire-level client: requests and responses are the ``fourfold.v1`` messages.

    Callers that want values rather than messages use ``fourfold.Client``.
    """

    def __init__(
        self,
        address: str | Connection,
        timeout_s: float = 30.0,
        *,
        token: str | None = None,
        ca_cert: Path | None = None,
        tls: bool = False,
        retries: int = 2,
    ) -> None:
        self.connection = (
            address
            if isinstance(address, Connection)
            else Connection.from_env(
                address, token=token, ca_cert=ca_cert, tls=tls, timeout_s=timeout_s, retries=retries
            )
        )
        self.address = self.connection.address
        self.timeout_s = self.connection.timeout_s
        self._channel = self.connection.channel()
        self._stub = coordinator_pb2_grpc.CoordinatorStub(self._channel)
        self._metadata = self.connection.metadata()

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def healthy(self, timeout_s: float = 0.5) -> bool:
        return channel_healthy(self._channel, timeout_s)

    def search(self, params: SearchParams) -> coordinator_pb2.SearchResponse:
        return self.search_pb(params_to_pb(params))

    def search_pb(self, request: coordinator_pb2.SearchRequest) -> coordinator_pb2.SearchResponse:
        timeout, metadata = self.connection.search_call(request, self._metadata)
        return self.connection.call(lambda: self._stub.Search(request, timeout=timeout, metadata=metadata))

    def index(self, repos: list[tuple[Path, str | None]]) -> Iterator[coordinator_pb2.IndexProgress]:
        """Stream the progress of an index build (not retried: a build is not idempotent)."""
        request = coordinator_pb2.IndexRequest(
            repos=[coordinator_pb2.RepoSpec(path=str(p), name=n or "") for p, n in repos]
        )
        yield from self._stub.Index(request, metadata=self._metadata)

    def sync(self, repos: Sequence[str] = ()) -> Iterator[coordinator_pb2.IndexProgress]:
        """Stream the progress of a fleet sync on the coordinator (all its repositories, or ``repos``)."""
        yield from self._stub.Sync(coordinator_pb2.SyncRequest(repos=list(repos)), metadata=self._metadata)

    def read_file(
        self, repo: str, path: str, start_line: int = 0, end_line: int = 0
    ) -> coordinator_pb2.ReadFileResponse:
        """Lines ``start_line``..``end_line`` of a file as indexed (0: the file's own bounds)."""
        request = coordinator_pb2.ReadFileRequest(repo=repo, path=path, start_line=start_line, end_line=end_line)
        return self.connection.call(
            lambda: self._stub.ReadFile(request, timeout=self.timeout_s, metadata=self._metadata)
        )

    def status(self) -> coordinator_pb2.StatusResponse:
        return self.connection.call(
            lambda: self._stub.Status(coordinator_pb2.StatusRequest(), timeout=self.timeout_s, metadata=self._metadata)
        )
