"""The worker plane's credential: one per-cluster secret that every worker checks on every call.

Workers serve shards over gRPC on ports any process that reaches the node could dial; without a
check, a plain ``ModalityWorker.Search`` there reads every repository, past the coordinator's
tokens and grants. So each worker requires the cluster's secret in the metadata
``x-fourfold-worker-secret`` on every ``ModalityWorker`` call (compared in constant time), and the
coordinator's fan-out sends it. Health checks stay open: they carry no code.

The plane is encrypted when the store holds the worker TLS material (:func:`worker_tls`): a
certificate and key made for the cluster (``ensure_worker_tls``, by a coordinator that serves TLS
itself, or ``serve --role workers --worker-tls``), files ``worker-tls.crt`` and ``worker-tls.key``
(0600) in the store. Workers then serve TLS only, and the coordinator trusts exactly that
certificate (pinned, under the name ``fourfold-worker``).

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
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

__all__ = [
    "METADATA_KEY",
    "PROTECTED_SERVICE",
    "SECRET_ENV",
    "SECRET_FILE",
    "TLS_NAME",
    "SecretMetadata",
    "WorkerAuthInterceptor",
    "WorkerTls",
    "ensure_worker_tls",
    "self_signed",
    "worker_secret",
    "worker_tls",
]

#: The environment variable that carries the secret where the store's file is not shared.
SECRET_ENV = "FOURFOLD_WORKER_SECRET"
#: The file in the index store that holds the secret (mode 0600).
SECRET_FILE = "worker.secret"
#: The gRPC metadata key the coordinator sends the secret in.
METADATA_KEY = "x-fourfold-worker-secret"
#: Calls to this service need the secret; health checks do not.
PROTECTED_SERVICE = "/fourfold.v1.ModalityWorker/"
#: Files of the worker plane's certificate and key in the index store.
TLS_CERT_FILE, TLS_KEY_FILE = "worker-tls.crt", "worker-tls.key"
#: The name the worker certificate is made for and checked against (workers have no stable host name).
TLS_NAME = "fourfold-worker"
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


@dataclass(frozen=True, slots=True)
class WorkerTls:
    """The worker plane's certificate and key (PEM): workers serve with both, coordinators pin the certificate."""

    cert: bytes
    key: bytes

    def server_credentials(self) -> grpc.ServerCredentials:
        return grpc.ssl_server_credentials([(self.key, self.cert)])

    def channel_credentials(self) -> grpc.ChannelCredentials:
        return grpc.ssl_channel_credentials(root_certificates=self.cert)

    @staticmethod
    def channel_options() -> list[tuple[str, str]]:
        return [("grpc.ssl_target_name_override", TLS_NAME)]


def worker_tls(home: Path | str) -> WorkerTls | None:
    """The store's worker TLS material, or None when the worker plane runs plaintext."""
    cert, key = Path(home) / TLS_CERT_FILE, Path(home) / TLS_KEY_FILE
    try:
        return WorkerTls(cert.read_bytes(), key.read_bytes())
    except FileNotFoundError:
        return None


def ensure_worker_tls(home: Path | str) -> WorkerTls:
    """The store's worker TLS material, made now (a self-signed P-256 certificate for
    :data:`TLS_NAME`, ten years) when absent; concurrent makers agree on the first one written."""
    found = worker_tls(home)
    if found is not None:
        return found
    cert_pem, key_pem = self_signed((TLS_NAME,), days=3650)
    home = Path(home)
    home.mkdir(parents=True, exist_ok=True)
    # the key first: a reader that sees the certificate finds its key (the pair is linked in order)
    _write_once(home / TLS_KEY_FILE, key_pem, 0o600)
    if (home / TLS_KEY_FILE).read_bytes() == key_pem:
        _write_once(home / TLS_CERT_FILE, cert_pem, 0o644)
    for _ in range(100):  # another process won the race: wait for its certificate
        found = worker_tls(home)
        if found is not None:
            return found
        time.sleep(0.05)
    raise OSError(f"the worker TLS key in {home} has no certificate beside it; remove {TLS_KEY_FILE} and restart")


def self_signed(names: Sequence[str], ips: Sequence[str] = (), days: int = 1) -> tuple[bytes, bytes]:
    """A self-signed P-256 certificate (PEM) for DNS ``names`` and IP addresses ``ips``, valid
    from five minutes ago for ``days``, and its PKCS#8 key (PEM)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])])
    now = datetime.datetime.now(datetime.UTC)
    alternatives: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alternatives += [x509.IPAddress(ipaddress.ip_address(ip)) for ip in ips]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return cert.public_bytes(serialization.Encoding.PEM), key_pem


def _write_once(path: Path, data: bytes, mode: int) -> None:
    """Write ``path`` atomically unless it exists (the first writer wins)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


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
