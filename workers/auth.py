"""The worker plane's credential: one per-cluster secret that every worker checks on every call.

Workers serve shards over gRPC on ports any process that reaches the node could dial; without a
check, a plain ``ModalityWorker.Search`` there reads every repository, past the coordinator's
tokens and grants. So each worker requires the cluster's secret in the metadata
``x-fourfold-worker-secret`` on every ``ModalityWorker`` call (compared in constant time), and the
coordinator's fan-out sends it. Health checks stay open: they carry no code.

Where the secret comes from (:func:`worker_secret`), first match wins:

1. ``$FOURFOLD_WORKER_SECRET`` — a Kubernetes Secret in the coordinator's and the Ray pods' env;
2. the file ``worker.secret`` in the index store (mode 0600), created by the first process that
   needs it (``fourfold serve``) — workers read the same store, so a single machine or a shared
   volume needs no configuration.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc

__all__ = [
    "METADATA_KEY",
    "PROTECTED_SERVICE",
    "SECRET_ENV",
    "SECRET_FILE",
    "SecretMetadata",
    "WorkerAuthInterceptor",
    "worker_secret",
]

#: The environment variable that carries the secret where the store's file is not shared.
SECRET_ENV = "FOURFOLD_WORKER_SECRET"
#: The file in the index store that holds the secret (mode 0600).
SECRET_FILE = "worker.secret"
#: The gRPC metadata key the coordinator sends the secret in.
METADATA_KEY = "x-fourfold-worker-secret"
#: Calls to this service need the secret; health checks do not.
PROTECTED_SERVICE = "/fourfold.v1.ModalityWorker/"
#: Longest secret accepted (a generated one is 43 characters); longer metadata is refused unread.
_MAX_SECRET_CHARS = 1024


def worker_secret(home: Path | str) -> str:
    """The cluster's worker secret: ``$FOURFOLD_WORKER_SECRET``, else the store's file (created
    with mode 0600 when absent; concurrent creators agree on the first one written)."""
    env = os.environ.get(SECRET_ENV, "").strip()
    if env:
        return env
    path = Path(home) / SECRET_FILE
    try:
        text = path.read_text().strip()
        if text:
            return text
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(32) + "\n")
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)  # atomic and refuses to replace: the first writer wins
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text().strip()


class WorkerAuthInterceptor(grpc.aio.ServerInterceptor):
    """Refuses every ``ModalityWorker`` call that lacks the cluster's secret (UNAUTHENTICATED)."""

    def __init__(self, secret: str) -> None:
        if not secret:
            raise ValueError("the worker secret is empty")
        self._secret = secret.encode()

    def allows(self, metadata: Any) -> bool:
        """Whether ``metadata`` carries the secret (constant-time comparison)."""
        for key, value in metadata or ():
            if key == METADATA_KEY:
                given = value if isinstance(value, bytes) else str(value).encode()
                if len(given) > _MAX_SECRET_CHARS:
                    return False
                return hmac.compare_digest(given, self._secret)
        return False

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None or not handler_call_details.method.startswith(PROTECTED_SERVICE):
            return handler
        if self.allows(handler_call_details.invocation_metadata):
            return handler

        async def refuse(request: Any, context: grpc.aio.ServicerContext) -> Any:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "this port serves the fourfold coordinator only; search through the coordinator",
            )

        return grpc.unary_unary_rpc_method_handler(
            refuse, request_deserializer=None, response_serializer=handler.response_serializer
        )


class SecretMetadata(grpc.aio.UnaryUnaryClientInterceptor):
    """Adds the worker secret to every call on a channel (the coordinator's fan-out)."""

    def __init__(self, secret: str) -> None:
        self._pair = (METADATA_KEY, secret)

    async def intercept_unary_unary(
        self,
        continuation: Callable[[grpc.aio.ClientCallDetails, Any], Awaitable[Any]],
        client_call_details: grpc.aio.ClientCallDetails,
        request: Any,
    ) -> Any:
        metadata = grpc.aio.Metadata(*(client_call_details.metadata or ()), self._pair)
        details = grpc.aio.ClientCallDetails(
            client_call_details.method,
            client_call_details.timeout,
            metadata,
            client_call_details.credentials,
            client_call_details.wait_for_ready,
        )
        return await continuation(details, request)
