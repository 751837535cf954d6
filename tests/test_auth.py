"""Tokens, grants and limits without a cluster: the grants document, hashing, the interceptor on a
real gRPC server with a stand-in Coordinator servicer, and the per-request limits."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from fourfold.client import error_from_rpc
from fourfold.connection import PUSHBACK_KEY
from fourfold.coordinator.auth import (
    ALL_REPOS,
    TOKENS_ENV,
    AuthInterceptor,
    Limits,
    TokenStore,
    check_limits,
    current_principal,
    hash_token,
    new_token,
)
from fourfold.errors import InvalidInput, InvalidQuery
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

ALICE, BOB, ADMIN = new_token(), new_token(), new_token()


def grants(**extra: Any) -> str:
    return json.dumps(
        {
            "tokens": [
                {"name": "alice", "sha256": hash_token(ALICE), "repos": ["alpha"], "max_concurrent": 1},
                {"name": "bob", "sha256": hash_token(BOB), "repos": ["beta", "gamma"]},
                {"name": "ops", "sha256": hash_token(ADMIN), "repos": [ALL_REPOS], "admin": True, **extra},
            ]
        }
    )


def test_grants_map_token_digests_to_principals() -> None:
    store = TokenStore.parse(grants(), "test")
    alice, bob, ops = (store.authenticate(t) for t in (ALICE, BOB, ADMIN))
    assert alice is not None and (alice.name, alice.repos, alice.admin, alice.max_concurrent) == (
        "alice",
        {"alpha"},
        False,
        1,
    )
    assert bob is not None and bob.visible(["alpha", "beta", "gamma"]) == ["beta", "gamma"]
    assert ops is not None and ops.repos is None and ops.admin and ops.may_read("anything")
    assert store.authenticate("ff_" + "x" * 43) is None and store.authenticate("") is None
    assert len(hash_token(ALICE)) == 64 and ALICE not in grants()  # only digests are stored


@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        ("{", "not valid JSON"),
        ('{"tokens": []}', "at least one entry"),
        ('{"tokens": [{"name": "a", "token": "secret", "repos": ["x"]}]}', "plain tokens are refused"),
        ('{"tokens": [{"name": "a", "sha256": "abc", "repos": ["x"]}]}', "64 lower-case hex digits"),
        ('{"tokens": [{"name": "a", "sha256": "' + "a" * 64 + '", "repos": "x"}]}', '"repos" must be a list'),
        ('{"tokens": [{"sha256": "' + "a" * 64 + '", "repos": ["x"]}]}', 'missing "name"'),
        (
            '{"tokens": [{"name": "a", "sha256": "' + "a" * 64 + '", "repos": ["x"], "max_concurrent": 0}]}',
            "positive integer",
        ),
        ('{"tokens": [{"name": "a", "sha256": "' + "a" * 64 + '", "repos": ["x"], "admn": true}]}', "unknown field"),
    ],
)
def test_bad_grants_are_refused_with_the_fix(doc: str, fragment: str) -> None:
    with pytest.raises(InvalidInput) as info:
        TokenStore.parse(doc, "grants.json")
    assert fragment in str(info.value) and "grants.json" in str(info.value)


def test_grants_from_file_or_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKENS_ENV, raising=False)
    assert TokenStore.load(None) is None  # neither: the server runs open
    monkeypatch.setenv(TOKENS_ENV, grants())
    env_store = TokenStore.load(None)
    assert env_store is not None and env_store.authenticate(BOB) is not None
    f = tmp_path / "grants.json"
    f.write_text(grants())
    file_store = TokenStore.load(f)
    assert file_store is not None and len(file_store) == 3
    with pytest.raises(InvalidInput, match="cannot read the token file"):
        TokenStore.load(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("kw", "fragment"),
    [
        ({"query": "x" * 10_001}, "query too long: 10001 characters"),
        ({"k": 1001}, "invalid k 1001"),
        ({"query": "a" * 1001, "options": {"mode": "regex"}}, "regular expression too long"),
        ({"repos": ["r"] * 1001}, "too many repositories"),
        ({"path_glob": "*" * 1001}, "path glob too long"),
        ({"options": {str(i): "" for i in range(33)}}, "too many options"),
        ({"options": {"mode": "m" * 1000}}, "option 'mode' too long"),
    ],
)
def test_limits_name_what_was_exceeded(kw: dict[str, Any], fragment: str) -> None:
    args = {"query": "parse", "k": 10, "options": {}, "repos": [], "path_glob": "", **kw}
    with pytest.raises(InvalidQuery) as info:
        check_limits(args["query"], args["k"], args["options"], args["repos"], args["path_glob"], Limits())
    assert fragment in str(info.value)


def test_limits_accept_what_is_within_them() -> None:
    check_limits("a" * 1000, 1000, {"mode": "regex"}, ["r"] * 1000, "*" * 1000, Limits())


# -- the interceptor on a real gRPC server ---------------------------------------------------------


class EchoCoordinator(coordinator_pb2_grpc.CoordinatorServicer):
    """Answers with the caller's name; Search waits on ``gate`` when asked to (for the concurrency cap)."""

    def __init__(self) -> None:
        self.gate: asyncio.Event | None = None

    async def Search(
        self, request: coordinator_pb2.SearchRequest, context: grpc.aio.ServicerContext
    ) -> coordinator_pb2.SearchResponse:
        if request.query == "wait" and self.gate is not None:
            await self.gate.wait()
        p = current_principal()
        return coordinator_pb2.SearchResponse(intent=p.name, notes=sorted(p.repos or ["*"]))

    async def Index(self, request: coordinator_pb2.IndexRequest, context: grpc.aio.ServicerContext) -> Any:
        for stage in ("walk", "done"):
            yield coordinator_pb2.IndexProgress(stage=stage, message=current_principal().name)


@pytest.fixture(scope="module")
def echo_server() -> Iterator[tuple[str, EchoCoordinator, asyncio.AbstractEventLoop]]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    servicer = EchoCoordinator()

    async def start() -> tuple[grpc.aio.Server, int]:
        tokens = TokenStore.parse(grants(), "test")
        server = grpc.aio.server(interceptors=[AuthInterceptor(tokens, retry_after=lambda: 0.25)])
        coordinator_pb2_grpc.add_CoordinatorServicer_to_server(servicer, server)
        h = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(h, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        await h.set("", health_pb2.HealthCheckResponse.SERVING)
        servicer.gate = asyncio.Event()
        return server, port

    server, port = asyncio.run_coroutine_threadsafe(start(), loop).result(10)
    yield f"127.0.0.1:{port}", servicer, loop
    asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def test_coordinator_calls_need_a_known_token(echo_server: Any) -> None:
    address, _, _ = echo_server
    with grpc.insecure_channel(address) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)
        for metadata, fragment in [
            ((), "missing bearer token"),
            (bearer("ff_wrong"), "invalid bearer token"),
            ((("authorization", ALICE),), "missing bearer token"),
        ]:
            with pytest.raises(grpc.RpcError) as info:
                stub.Search(coordinator_pb2.SearchRequest(query="q"), metadata=metadata, timeout=5)
            assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED and fragment in info.value.details()
        with pytest.raises(grpc.RpcError) as info:
            list(stub.Index(coordinator_pb2.IndexRequest(), timeout=5))
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        r = stub.Search(coordinator_pb2.SearchRequest(query="q"), metadata=bearer(BOB), timeout=5)
        assert (r.intent, list(r.notes)) == ("bob", ["beta", "gamma"])
        assert [p.message for p in stub.Index(coordinator_pb2.IndexRequest(), metadata=bearer(ADMIN), timeout=5)] == [
            "ops",
            "ops",
        ]
        # health probes need no token
        assert (
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status
            == health_pb2.HealthCheckResponse.SERVING
        )


def test_requests_in_flight_are_capped_per_token(echo_server: Any) -> None:
    address, servicer, loop = echo_server
    with grpc.insecure_channel(address) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)
        first = stub.Search.future(coordinator_pb2.SearchRequest(query="wait"), metadata=bearer(ALICE), timeout=10)
        try:
            for _ in range(100):  # wait until the first call holds alice's only slot
                try:
                    stub.Search(coordinator_pb2.SearchRequest(query="q"), metadata=bearer(ALICE), timeout=5)
                except grpc.RpcError as exc:
                    assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    assert (
                        "too many concurrent requests for token 'alice'" in exc.details()
                        and "the limit is 1" in exc.details()
                    )
                    # when to retry: about a search's time, gRPC's pushback (the Python client's retry_after_s)
                    assert dict(exc.trailing_metadata())[PUSHBACK_KEY] == "250"  # type: ignore[attr-defined]
                    assert error_from_rpc(exc).retry_after_s == 0.25  # type: ignore[attr-defined]
                    break
            else:
                pytest.fail("alice's second concurrent call was never refused")
            assert (
                stub.Search(coordinator_pb2.SearchRequest(query="q"), metadata=bearer(BOB), timeout=5).intent == "bob"
            )
        finally:
            gate = servicer.gate
            assert gate is not None
            loop.call_soon_threadsafe(gate.set)
        assert first.result(timeout=10).intent == "alice"
        assert (
            stub.Search(coordinator_pb2.SearchRequest(query="q"), metadata=bearer(ALICE), timeout=5).intent == "alice"
        )


def test_token_command_prints_a_token_and_an_entry_that_authenticates_it(capsys: pytest.CaptureFixture[str]) -> None:
    from fourfold.coordinator.cli import main

    assert main(["token", "--name", "ci", "--repo", "alpha", "--repo", "beta", "--admin"]) == 0
    out, err = capsys.readouterr()
    token = err.rsplit(": ", 1)[1].strip()
    entry = json.loads(out)
    assert token not in out and entry["sha256"] == hash_token(token)
    principal = TokenStore.parse(json.dumps({"tokens": [entry]}), "stdout").authenticate(token)
    assert principal is not None and (principal.name, principal.repos, principal.admin) == (
        "ci",
        {"alpha", "beta"},
        True,
    )
    assert main(["token", "--name", "ci"]) == 2  # no --repo: refused with a message
    assert "at least one --repo" in capsys.readouterr().err
