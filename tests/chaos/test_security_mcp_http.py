"""MCP over HTTP acts for each caller: ``fourfold mcp --transport http`` (a real subprocess, the
SDK's own HTTP client) passes every request's ``Authorization: Bearer`` token through to a
coordinator with tokens, answers 401 without one, and never acts with a token of its own — its
environment holds an admin token that reads everything, and no caller ever sees through it."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest

from fourfold.coordinator.auth import hash_token, new_token

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

ALICE, BOB, OPS = new_token(), new_token(), new_token()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write(root: Path, tag: str) -> Path:
    (root / f"{tag}_pkg").mkdir(parents=True, exist_ok=True)
    (root / f"{tag}_pkg" / "core.py").write_text(
        f'MARKER = "{tag}-mcp-canary"\n\n\ndef {tag}_entry(x):\n    return x + 1\n'
    )
    return root


@dataclass(frozen=True, slots=True)
class Mcp:
    url: str


@pytest.fixture(scope="module")
def mcp_http(cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mcp]:
    from fourfold.coordinator.auth import TokenStore
    from fourfold.coordinator.serving import start_server
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    base = tmp_path_factory.mktemp("mcp-http")
    store = IndexStore(base / "home")
    store.ensure()
    build_generation(store, [(write(base / "alpha", "alpha"), "alpha"), (write(base / "beta", "beta"), "beta")])
    grants = {
        "tokens": [
            {"name": "alice", "sha256": hash_token(ALICE), "repos": ["alpha"]},
            {"name": "bob", "sha256": hash_token(BOB), "repos": ["beta"]},
            {"name": "ops", "sha256": hash_token(OPS), "repos": ["*"], "admin": True},
        ]
    }
    running = asyncio.run_coroutine_threadsafe(
        start_server(store.home, "127.0.0.1:0", role="all", tokens=TokenStore.parse(json.dumps(grants), "t")),
        cluster._loop,
    ).result(timeout=300)
    port = free_port()
    env = {**os.environ, "FOURFOLD_TOKEN": OPS, "FOURFOLD_HOME": str(base / "mcp-home")}  # must never be used
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fourfold",
            "mcp",
            "--transport",
            "http",
            "--port",
            str(port),
            "--address",
            running.address,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(base / "mcp.log", "wb"),  # noqa: SIM115 - closed with the process
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx2.get(url, timeout=2)
                break
            except httpx2.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the MCP server did not start: {(base / 'mcp.log').read_text()}")
                time.sleep(0.3)
        yield Mcp(url)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        asyncio.run_coroutine_threadsafe(running.stop(), cluster._loop).result(timeout=30)
        assert running.engine is not None and running.engine.launcher is not None
        running.engine.launcher.retire(store.live_generation() or "")


def call(url: str, token: str, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    from mcp import Client as McpClient
    from mcp.client.streamable_http import streamable_http_client

    async def run() -> tuple[bool, str]:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
            McpClient(streamable_http_client(url, http_client=http)) as client,
        ):
            r = await client.call_tool(tool, args)
            return bool(r.is_error), r.content[0].text  # type: ignore[union-attr]

    return asyncio.run(run())


def test_a_request_without_a_bearer_token_gets_401(mcp_http: Mcp) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    for headers in ({}, {"Authorization": "Basic x"}, {"Authorization": "Bearer " + "x" * 10_000}):
        r = httpx2.post(mcp_http.url, json=init, headers={"Accept": "application/json", **headers}, timeout=10)
        assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer"), (headers, r.text)
        assert "Authorization: Bearer" in r.json()["message"] or "bad token" in r.json()["message"]


def test_each_caller_reads_what_its_own_token_may(mcp_http: Mcp) -> None:
    assert call(mcp_http.url, ALICE, "list_repositories", {}) == (False, "alpha: 1 files, 2 segments")
    assert call(mcp_http.url, BOB, "list_repositories", {})[1].startswith("beta:")
    error, text = call(mcp_http.url, ALICE, "search", {"query": '"beta-mcp-canary"'})
    assert "beta" not in text.replace("beta-mcp-canary", ""), text
    error, text = call(mcp_http.url, BOB, "search", {"query": '"beta-mcp-canary"'})
    assert not error and "beta:beta_pkg/core.py" in text
    # the server's own admin token ($FOURFOLD_TOKEN) is never a fallback
    error, text = call(mcp_http.url, "ff_not-a-token", "list_repositories", {})
    assert error and "matches no configured token" in text, text
