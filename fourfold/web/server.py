"""Run the web application with uvicorn (``fourfold web`` and ``fourfold serve --web-port``)."""

from __future__ import annotations

import logging
from pathlib import Path

import uvicorn

from fourfold.errors import InvalidInput

__all__ = ["DEFAULT_LISTEN", "parse_listen", "serve", "uvicorn_server"]

DEFAULT_LISTEN = "127.0.0.1:8080"
log = logging.getLogger(__name__)


def parse_listen(value: str) -> tuple[str, int]:
    """``HOST:PORT`` as a host and a port; :class:`InvalidInput` naming the value otherwise."""
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise InvalidInput(f"invalid listen address {value!r}: give HOST:PORT, for example 127.0.0.1:8080")
    return host.strip("[]"), int(port)


def uvicorn_server(
    address: str,
    listen: str = DEFAULT_LISTEN,
    *,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
    coordinator_tls: bool = False,
    coordinator_ca: str | None = None,
    coordinator_server_name: str | None = None,
    secret: str | None = None,
) -> uvicorn.Server:
    """The configured :class:`uvicorn.Server` (not started): the page over HTTPS when a
    certificate and key are given, with Secure cookies then."""
    from fourfold.web.app import create_app

    if (tls_cert is None) != (tls_key is None):
        raise InvalidInput("give both --tls-cert and --tls-key, or neither")
    host, port = parse_listen(listen)
    app = create_app(
        address, tls=coordinator_tls, ca_cert=coordinator_ca, server_name=coordinator_server_name, secret=secret
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ssl_certfile=str(tls_cert) if tls_cert else None,
        ssl_keyfile=str(tls_key) if tls_key else None,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
    )
    return uvicorn.Server(config)


def serve(address: str, listen: str = DEFAULT_LISTEN, **kw: object) -> None:
    """Run the page and API in the foreground until interrupted."""
    server = uvicorn_server(address, listen, **kw)  # type: ignore[arg-type]
    scheme = "https" if kw.get("tls_cert") else "http"
    print(f"fourfold web serving on {scheme}://{listen} (coordinator {address})", flush=True)
    server.run()
