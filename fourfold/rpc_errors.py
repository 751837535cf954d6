"""What a failed call to a coordinator means, in words a person can act on.

gRPC reports transport problems in its own terms: a token too long for the server's metadata
limit arrives as "RESOURCE_EXHAUSTED: received metadata size exceeds hard limit", a plaintext
client against a TLS port as "UNAVAILABLE: Socket closed". :func:`check_token` refuses a token
that cannot be a fourfold token before it is sent; :func:`explain` turns a failed call into one
clear line (the problem, the value, what to do); :func:`speaks_tls` tells a TLS port from a dead one.
"""

from __future__ import annotations

import socket
import ssl

import grpc

from fourfold.errors import FourfoldError, Unauthenticated

__all__ = ["MAX_TOKEN_CHARS", "check_token", "explain", "speaks_tls"]

#: Longest bearer token a client sends or a coordinator reads (a generated one has 46 characters).
MAX_TOKEN_CHARS = 4096


def check_token(token: str) -> None:
    """Raise :class:`Unauthenticated` for a token no coordinator could accept (too long, or holding
    a line break, a space or another character metadata cannot carry)."""
    if len(token) > MAX_TOKEN_CHARS:
        raise Unauthenticated(
            f"bad token: {len(token)} characters, more than any fourfold token ({MAX_TOKEN_CHARS} at most); "
            "check $FOURFOLD_TOKEN holds only the token `fourfold token` printed"
        )
    bad = sorted({repr(c) for c in token if not c.isprintable() or c.isspace()})
    if bad:
        raise Unauthenticated(
            f"bad token: it contains {', '.join(bad)}; a fourfold token is one line of printable characters "
            "(strip the trailing newline from $FOURFOLD_TOKEN)"
        )


def speaks_tls(address: str, timeout_s: float = 2.0) -> bool:
    """Whether ``address`` (host:port) completes a TLS handshake (the certificate is not checked)."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    try:
        with (
            socket.create_connection((host, int(port)), timeout=timeout_s) as sock,
            context.wrap_socket(sock, server_hostname=host),
        ):
            return True
    except (OSError, ValueError):
        return False


def explain(exc: grpc.RpcError, address: str, *, tls: bool) -> FourfoldError | None:
    """The fourfold error a transport failure stands for, or None when the status says it already."""
    code = exc.code()
    details = exc.details() or ""
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and "metadata" in details.lower():
        return Unauthenticated(
            "bad token: the request's metadata is over the coordinator's limit; a fourfold token is "
            "about 46 characters: check $FOURFOLD_TOKEN"
        )
    if code == grpc.StatusCode.INTERNAL and "metadata" in details.lower():
        return Unauthenticated("bad token: it holds characters gRPC metadata cannot carry (a line break?)")
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return Unauthenticated(f"{details}; set $FOURFOLD_TOKEN to a token the operator issued")
    if code == grpc.StatusCode.UNAVAILABLE and not tls and speaks_tls(address):
        return FourfoldError(
            f"the server at {address} speaks TLS: pass --tls (CLI: set $FOURFOLD_TLS_CA to its CA bundle)"
        )
    return None
