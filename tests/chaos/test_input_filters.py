"""Filters that name nothing are errors, not silent empty answers, at every entry point; and MCP's
``read_segment`` finds the segment holding a line inside a large class.

An unknown ``--lang`` (``klingon``) or definition kind is INVALID_ARGUMENT listing the valid values
from gRPC, the Python client and the CLI (MCP's tools take neither filter). A method line inside
a 1,500-line class reads as that method, a line between methods as the class — not "no segment contains it".
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

METHODS = 300  # 5 lines each: a class of ~1,500 lines


def big_class() -> str:
    lines = ['"""A framework module."""', "", "", "class Flask:", '    """The application object."""', ""]
    lines += ["    default_config = {", '        "DEBUG": False,', "    }", ""]
    for i in range(METHODS):
        lines += [f"    def handler_{i}(self, request):", f'        """Handle {i}."""', "        value = request + 1"]
        lines += [f"        return value * {i}", ""]
    lines += ["", "def make_app():", "    return Flask()", ""]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def served(cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from fourfold.coordinator.serving import start_server
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    base = tmp_path_factory.mktemp("filters")
    (base / "web").mkdir()
    (base / "web" / "app.py").write_text(big_class())
    store = IndexStore(base / "home")
    store.ensure()
    build_generation(store, [(base / "web", "web")], modalities=["text", "structural"], centrality=False)
    running = asyncio.run_coroutine_threadsafe(
        start_server(store.home, "127.0.0.1:0", role="all"), cluster._loop
    ).result(timeout=300)
    try:
        yield running.address
    finally:
        asyncio.run_coroutine_threadsafe(running.stop(), cluster._loop).result(timeout=30)
        assert running.engine is not None and running.engine.launcher is not None
        running.engine.launcher.retire(store.live_generation() or "")


def test_unknown_language_and_kind_over_grpc(served: str) -> None:
    with grpc.insecure_channel(served) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)
        search = coordinator_pb2.SearchRequest
        for request, fragment, valid in (
            (search(query="make_app", languages=["klingon"]), "unknown language 'klingon'", "python"),
            (
                search(query="make_app", options={"kind": "spaceship"}, modalities=["structural"]),
                "unknown kind 'spaceship'",
                "function",
            ),
            (
                search(query="def make_app", options={"kind": "function,spaceship"}),
                "unknown kind 'spaceship'",
                "method",
            ),
        ):
            with pytest.raises(grpc.RpcError) as info:
                stub.Search(request, timeout=60)
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
            assert fragment in info.value.details() and valid in info.value.details()
        # the valid values still answer
        ok = stub.Search(
            coordinator_pb2.SearchRequest(query="make_app", languages=["python"], options={"kind": "function"}),
            timeout=60,
        )
        assert [h.symbol for h in ok.hits][:1] == ["make_app"]


def test_unknown_language_from_the_python_client_and_the_cli(served: str, tmp_path: Path) -> None:
    from fourfold import Client
    from fourfold.errors import InvalidInput

    with Client(served) as c, pytest.raises(InvalidInput, match=r"unknown language 'klingon'.*python"):
        c.search("make_app", languages=["klingon"])
    env = {**os.environ, "FOURFOLD_HOME": str(tmp_path / "home")}
    r = subprocess.run(
        [sys.executable, "-m", "fourfold", "search", "make_app", "--lang", "klingon", "--address", served],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "unknown language 'klingon'" in r.stderr and "python" in r.stderr, r.stderr


def mcp_call(address: str, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    from mcp import Client as McpClient

    from fourfold.client import AsyncClient
    from fourfold.coordinator.mcp_server import build_server

    async def run() -> tuple[bool, str]:
        client = AsyncClient(address)

        async def backend() -> AsyncClient:
            return client

        try:
            async with McpClient(build_server(backend)) as mcp:  # type: ignore[arg-type]
                r = await mcp.call_tool(tool, args)
                return bool(r.is_error), r.content[0].text  # type: ignore[union-attr]
        finally:
            await client.close()

    return asyncio.run(run())


def test_mcp_read_segment_inside_a_large_class(served: str) -> None:
    source = big_class().split("\n")
    method_line = source.index("    def handler_200(self, request):") + 3  # 1-based: the line after the def
    between = source.index("    default_config = {") + 2
    error, text = mcp_call(served, "read_segment", {"repo": "web", "path": "app.py", "line": method_line})
    assert not error and text.startswith(f"web:app.py:{method_line - 2}-{method_line + 1} method handler_200"), text
    error, text = mcp_call(served, "read_segment", {"repo": "web", "path": "app.py", "line": between})
    assert not error and text.startswith("web:app.py:4-") and "class Flask" in text.split("\n")[0], text
    error, text = mcp_call(
        served, "read_segment", {"repo": "web", "path": "app.py", "line": method_line, "symbol": "Flask"}
    )
    assert not error and "class Flask" in text.split("\n")[0], text
