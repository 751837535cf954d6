"""A secured coordinator on the session's Ray cluster: TLS with a certificate made here, bearer
tokens with disjoint grants, and the ACL leak test through gRPC and through MCP (the SDK's own
client over stdio), plus Status, Index, limits and reflection as a restricted caller sees them.

The secured deployment has its own store with two repositories, ``alpha`` and ``beta``, whose
symbols, strings and paths exist in one of them only (and a few names in both).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from certs import self_signed
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from test_mcp import TOOLS

from fourfold.coordinator.auth import hash_token, new_token
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

ALICE, BOB, OPS, NOBODY = new_token(), new_token(), new_token(), new_token()
GRANTS = {"alpha": ALICE, "beta": BOB}
FILES_PER_REPO = 6
INTENTS = ("find_definition", "find_references", "understand_code", "find_similar", "impact_analysis", "exact_match")


def write_repo(root: Path, tag: str) -> Path:
    """Python and JavaScript files whose names and strings carry ``tag``, plus shared names."""
    cap = tag.capitalize()
    for i in range(FILES_PER_REPO):
        py = root / f"{tag}_pkg" / f"ledger_{i}.py"
        py.parent.mkdir(parents=True, exist_ok=True)
        py.write_text(
            f'"""The {tag} ledger, part {i}."""\n\n'
            f'{tag.upper()}_MARKER_{i} = "{tag}-secret-marker-{i}"\n\n\n'
            f'def load_settings(path):\n    """Read the {tag} settings."""\n    return open(path).read().split()\n\n\n'
            f"def {tag}_reconcile_{i}(entries, limit=10):\n"
            f'    """Reconcile {tag} entries against the journal {i}."""\n'
            f"    total = sum(e.amount for e in entries[:limit])\n"
            f"    return {tag}_settle_{i}(total) + len({tag.upper()}_MARKER_{i})\n\n\n"
            f"def {tag}_settle_{i}(total):\n    return round(total * {i + 2}, 2)\n\n\n"
            f'class {cap}Journal{i}:\n    """Keeps {tag} postings."""\n\n'
            f"    def post_{tag}_entry(self, entry):\n        return {tag}_reconcile_{i}([entry])\n"
        )
        js = root / f"{tag}_web" / f"view_{i}.js"
        js.parent.mkdir(parents=True, exist_ok=True)
        js.write_text(
            f"function {tag}Render{i}(node) {{\n  return node.textContent = '{tag}-view-{i}';\n}}\n\n"
            f"function renderAll(nodes) {{\n  return nodes.map({tag}Render{i});\n}}\n\n"
            f"module.exports = {{ {tag}Render{i}, renderAll }};\n"
        )
    return root


@dataclass(frozen=True, slots=True)
class Secured:
    address: str
    ca: Path
    home: Path
    health_address: str


@pytest.fixture(scope="module")
def secured(cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Secured]:
    """A second coordinator (with its workers) on the session's Ray cluster, TLS and tokens on."""
    from fourfold.coordinator.auth import TokenStore
    from fourfold.coordinator.serving import TlsFiles, start_server
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    base = tmp_path_factory.mktemp("acl")
    store = IndexStore(base / "home")
    store.ensure()  # its own store id keeps its workers apart from the session cluster's (both have g000001)
    build_generation(
        store, [(write_repo(base / "alpha", "alpha"), "alpha"), (write_repo(base / "beta", "beta"), "beta")]
    )
    cert, key = self_signed(base)
    grants = {
        "tokens": [
            {"name": "alice", "sha256": hash_token(ALICE), "repos": ["alpha"]},
            {"name": "bob", "sha256": hash_token(BOB), "repos": ["beta"]},
            {"name": "nobody", "sha256": hash_token(NOBODY), "repos": ["gone"]},
            {"name": "ops", "sha256": hash_token(OPS), "repos": ["*"], "admin": True},
        ]
    }
    loop = cluster._loop
    running = asyncio.run_coroutine_threadsafe(
        start_server(
            store.home,
            "127.0.0.1:0",
            role="all",
            tokens=TokenStore.parse(json.dumps(grants), "test"),
            tls=TlsFiles(cert, key),
            health_address="127.0.0.1:0",
        ),
        loop,
    ).result(timeout=300)
    try:
        yield Secured(running.address, cert, store.home, running.health_address)
    finally:
        asyncio.run_coroutine_threadsafe(running.stop(), loop).result(timeout=30)
        assert running.engine is not None and running.engine.launcher is not None
        live = store.live_generation()
        if live:
            running.engine.launcher.retire(live)


def channel(s: Secured) -> grpc.Channel:
    return grpc.secure_channel(s.address, grpc.ssl_channel_credentials(s.ca.read_bytes()))


@pytest.fixture(scope="module")
def stub(secured: Secured) -> Iterator[coordinator_pb2_grpc.CoordinatorStub]:
    with channel(secured) as ch:
        yield coordinator_pb2_grpc.CoordinatorStub(ch)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def acl_queries(own: str, other: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` Search requests of every intent aimed mostly at ``other``'s names, strings and paths."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        tag = other if rng.random() < 0.8 else own
        i = rng.randrange(FILES_PER_REPO)
        sym = rng.choice(
            [
                f"{tag}_reconcile_{i}",
                f"{tag}_settle_{i}",
                f"{tag.capitalize()}Journal{i}",
                f"{tag}Render{i}",
                f"post_{tag}_entry",
                "load_settings",
                "renderAll",
            ]
        )
        form = rng.randrange(10)
        if form == 0:
            req: dict[str, Any] = {"query": f"def {sym}"}
        elif form == 1:
            req = {"query": f"who calls {sym}"}
        elif form == 2:
            req = {"query": f"what depends on {sym}"}
        elif form == 3:
            req = {"query": f'"{tag}-secret-marker-{i}"'}
        elif form == 4:
            req = {"query": f"how does the {tag} ledger reconcile entries against the journal"}
        elif form == 5:
            req = {"query": f"def {sym}(entries, limit=10):\n    total = sum(e.amount for e in entries[:limit])"}
        elif form == 6:
            req = {
                "query": rng.choice(
                    [f"{tag}_\\w+_{i}", f"{tag.upper()}_MARKER_\\d", "def \\w+\\(", f"{tag}-view-[0-9]"]
                ),
                "options": {"mode": "regex"},
            }
        elif form == 7:
            req = {"query": sym, "path_glob": rng.choice([f"{tag}_pkg/*", f"{tag}_web/view_{i}.js", "*"])}
        elif form == 8:
            req = {"query": sym, "intent": rng.choice(INTENTS)}
        else:
            req = {"query": sym, "intent": rng.choice(INTENTS), "preset": rng.choice(["quick", "default", "thorough"])}
        req["k"] = rng.choice([5, 10, 50])
        out.append(req)
    return out


def names_told(r: Any, other: str, query: str) -> list[str]:
    """Names of ``other``'s repository, paths or definitions that the answer's text (notes, missing
    shards, snippets) carries and the query did not: a graph walk may pass through ``other``."""
    texts = [*r.notes, *r.missing_shards, *(h.snippet for h in r.hits)]
    pattern = re.compile(rf"\w*(?:{other}|{other.capitalize()}|{other.upper()})\w*")
    return sorted({m for t in texts for m in pattern.findall(t) if m.lower() not in query.lower()})


def test_acl_leak_through_grpc(stub: coordinator_pb2_grpc.CoordinatorStub) -> None:
    """1,000 queries (500 per token) aimed at the other's repository: zero forbidden hits, no name
    of it in notes, missing shards or snippets, and the same queries under an all-repositories token
    do find the other repository (the test has teeth)."""
    latencies: list[float] = []
    own_hits = forbidden = 0
    for who, other, seed in (("alpha", "beta", 1), ("beta", "alpha", 2)):
        queries = acl_queries(who, other, 500, seed)
        for req in queries:
            t0 = time.perf_counter()
            r = stub.Search(coordinator_pb2.SearchRequest(**req), metadata=bearer(GRANTS[who]), timeout=30)
            latencies.append(time.perf_counter() - t0)
            leaked = [f"{h.repo}:{h.path}" for h in r.hits if h.repo != who]
            assert not leaked, f"{who}'s query {req} returned {leaked}"
            told = names_told(r, other, req["query"])
            assert not told, (
                f"{who}'s query {req} was told {told} (notes {list(r.notes)}, missing {list(r.missing_shards)})"
            )
            forbidden += len(leaked)
            own_hits += len(r.hits)
        reach = sum(
            1
            for req in queries[:60]
            if any(
                h.repo == other
                for h in stub.Search(coordinator_pb2.SearchRequest(**req), metadata=bearer(OPS), timeout=30).hits
            )
        )
        assert reach >= 30, (
            f"only {reach} of 60 queries find {other} even with the admin token: the leak test would prove nothing"
        )
    assert forbidden == 0 and own_hits > 500
    latencies.sort()
    print(
        f"\nACL gRPC: {len(latencies)} queries, 0 forbidden hits, {own_hits} allowed hits; "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, p95 {latencies[int(0.95 * len(latencies))] * 1000:.1f} ms"
    )


def test_forbidden_repository_looks_like_a_missing_one(stub: coordinator_pb2_grpc.CoordinatorStub) -> None:
    answers = {}
    for repo in ("beta", "no-such-repo"):
        with pytest.raises(grpc.RpcError) as info:
            stub.Search(
                coordinator_pb2.SearchRequest(query="load_settings", repos=[repo]), metadata=bearer(ALICE), timeout=30
            )
        assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
        answers[repo] = info.value.details().replace(repr(repo), "<repo>")
    assert answers["beta"] == answers["no-such-repo"] == "repository <repo> is not one you may search; yours: alpha"
    # a token granted only repositories that are not indexed reads nothing at all
    r = stub.Search(coordinator_pb2.SearchRequest(query="load_settings"), metadata=bearer(NOBODY), timeout=30)
    assert list(r.hits) == []


def test_status_shows_only_what_the_caller_may_see(stub: coordinator_pb2_grpc.CoordinatorStub) -> None:
    mine = stub.Status(coordinator_pb2.StatusRequest(), metadata=bearer(ALICE), timeout=30)
    assert [(r.name, r.path) for r in mine.repos] == [("alpha", "")]
    assert mine.shards and all(sh.address == "" and sh.generation == mine.generation for sh in mine.shards)
    full = stub.Status(coordinator_pb2.StatusRequest(), metadata=bearer(OPS), timeout=30)
    assert sorted(r.name for r in full.repos) == ["alpha", "beta"] and all(r.path for r in full.repos)
    assert all(sh.address for sh in full.shards)


def test_index_needs_an_admin_token(stub: coordinator_pb2_grpc.CoordinatorStub, tmp_path: Path) -> None:
    with pytest.raises(grpc.RpcError) as info:
        list(
            stub.Index(
                coordinator_pb2.IndexRequest(repos=[coordinator_pb2.RepoSpec(path=str(tmp_path))]),
                metadata=bearer(ALICE),
                timeout=30,
            )
        )
    assert (
        info.value.code() == grpc.StatusCode.PERMISSION_DENIED
        and "indexing needs an admin token" in info.value.details()
    )


def test_calls_without_a_valid_token_or_without_tls_are_refused(
    secured: Secured, stub: coordinator_pb2_grpc.CoordinatorStub
) -> None:
    for metadata in ((), bearer("ff_not-a-token")):
        with pytest.raises(grpc.RpcError) as info:
            stub.Search(coordinator_pb2.SearchRequest(query="load_settings"), metadata=metadata, timeout=30)
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with grpc.insecure_channel(secured.address) as plain, pytest.raises(grpc.RpcError) as info:
        coordinator_pb2_grpc.CoordinatorStub(plain).Search(
            coordinator_pb2.SearchRequest(query="x"), metadata=bearer(OPS), timeout=5
        )
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE


@pytest.mark.parametrize(
    ("request_kw", "fragment"),
    [
        ({"query": "x" * 10_001}, "query too long"),
        ({"query": "parse", "k": 1001}, "invalid k 1001"),
        ({"query": "a" * 1001, "options": {"mode": "regex"}}, "regular expression too long"),
        ({"query": "(", "options": {"mode": "regex"}, "modalities": ["text"]}, "regex"),
    ],
)
def test_limits_are_invalid_argument(
    stub: coordinator_pb2_grpc.CoordinatorStub, request_kw: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.Search(coordinator_pb2.SearchRequest(**request_kw), metadata=bearer(ALICE), timeout=30)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT and fragment in info.value.details()


def test_plaintext_health_port_serves_health_only(secured: Secured) -> None:
    """For the kubelet's gRPC probes, which cannot speak TLS: health answers, the Coordinator is not there."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(secured.health_address) as ch:
        r = health_pb2_grpc.HealthStub(ch).Check(
            health_pb2.HealthCheckRequest(service="fourfold.v1.Coordinator"), timeout=10
        )
        assert r.status == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(grpc.RpcError) as info:
            coordinator_pb2_grpc.CoordinatorStub(ch).Status(
                coordinator_pb2.StatusRequest(), metadata=bearer(OPS), timeout=10
            )
        assert info.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_reflection_lists_the_services(secured: Secured) -> None:
    with channel(secured) as ch:
        stub = reflection_pb2_grpc.ServerReflectionStub(ch)
        responses = stub.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=10
        )
        names = {s.name for r in responses for s in r.list_services_response.service}
    assert {"fourfold.v1.Coordinator", "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= names


def test_python_client_with_token_and_tls(secured: Secured) -> None:
    from fourfold import Client
    from fourfold.errors import PermissionDenied, Unauthenticated

    with Client(secured.address, token=BOB, ca_cert=secured.ca) as c:
        answer = c.search('"beta-secret-marker-3"')
        assert (
            answer.hits
            and {f.hit.repo for f in answer.hits} == {"beta"}
            and answer.hits[0].hit.path == "beta_pkg/ledger_3.py"
        )
        assert [r.name for r in c.repositories()] == ["beta"]
        with pytest.raises(PermissionDenied, match="not one you may search"):
            c.search("load_settings", repos=["alpha"])
    with Client(secured.address, token="ff_wrong", ca_cert=secured.ca) as c, pytest.raises(Unauthenticated):
        c.search("load_settings")


MCP_QUERIES = 120


def test_acl_leak_through_mcp(secured: Secured) -> None:
    """The MCP server started as an agent would (stdio, the SDK's client) with alice's token:
    every tool, fed beta's names and strings, answers from alpha only."""
    from mcp import Client as McpClient
    from mcp import StdioServerParameters

    env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH", "FOURFOLD_HOME")},
        "FOURFOLD_TOKEN": ALICE,
    }
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "fourfold.coordinator.cli", "mcp", "--address", secured.address, "--tls-ca", str(secured.ca)],
        env=env,
    )
    rng = random.Random(3)
    calls: list[tuple[str, dict[str, Any]]] = []
    for req in acl_queries("alpha", "beta", MCP_QUERIES, 4):
        tool = rng.choice(["search", "find_definition", "find_references", "find_implementations", "impact"])
        args = {"query": req["query"]} if tool == "search" else {"symbol": req["query"].split()[-1]}
        calls.append((tool, args))

    async def run() -> tuple[int, list[str]]:
        answered = 0
        texts = []
        async with McpClient(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == TOOLS
            repos = await client.call_tool("list_repositories", {})
            texts.append(repos.content[0].text)
            for tool, args in calls:
                result = await client.call_tool(tool, args)
                text = "\n".join(c.text for c in result.content if hasattr(c, "text"))
                assert not result.is_error, f"{tool} {args}: {text}"
                assert "beta:" not in text and "beta_pkg/" not in text and "beta_web/" not in text, (
                    f"{tool} {args} leaked: {text}"
                )
                answered += 1
            denied = await client.call_tool("search", {"query": "load_settings", "repos": ["beta"]})
            texts.append(denied.content[0].text)
            seg = await client.call_tool(
                "read_segment",
                {"repo": "alpha", "path": "alpha_pkg/ledger_2.py", "line": 14, "symbol": "alpha_reconcile_2"},
            )
            texts.append(seg.content[0].text)
            assert not seg.is_error
            forbidden = await client.call_tool(
                "read_segment",
                {"repo": "beta", "path": "beta_pkg/ledger_2.py", "line": 14, "symbol": "beta_reconcile_2"},
            )
            assert forbidden.is_error
            texts.append(forbidden.content[0].text)
            own = await client.call_tool("read_file", {"repo": "alpha", "path": "alpha_pkg/ledger_2.py"})
            other = await client.call_tool("read_file", {"repo": "beta", "path": "beta_pkg/ledger_2.py"})
            absent = await client.call_tool("read_file", {"repo": "beta", "path": "beta_pkg/no_such.py"})
            assert not own.is_error and other.is_error and absent.is_error
            texts += [own.content[0].text, other.content[0].text, absent.content[0].text]
        return answered, texts

    answered, texts = asyncio.run(run())
    assert answered == MCP_QUERIES
    listing, denied, segment, forbidden, own, other, absent = texts
    assert own.startswith("alpha:alpha_pkg/ledger_2.py:1-") and "alpha_reconcile_2" in own
    # a file of a repository the token may not read is answered as a missing one: nothing leaks
    assert other.replace("ledger_2", "no_such") == absent and "beta_reconcile" not in other
    assert listing.startswith("alpha:") and "beta" not in listing
    assert "not one you may search" in denied and "yours: alpha" in denied
    assert segment.startswith("alpha:alpha_pkg/ledger_2.py:") and "alpha_reconcile_2" in segment
    assert "not one you may search" in forbidden
