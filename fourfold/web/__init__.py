"""``fourfold web``: a search page and an HTTP JSON API in front of a coordinator.

:func:`create_app` builds the ASGI application (Starlette); :func:`serve` runs it with uvicorn.
The server is a client of the coordinator like any other (``fourfold.AsyncClient``), holds no
token of its own and no state but a signing secret, so it scales and restarts freely.
"""

from __future__ import annotations

from fourfold.web.app import create_app, http_status
from fourfold.web.server import parse_listen, serve

__all__ = ["create_app", "http_status", "parse_listen", "serve"]
