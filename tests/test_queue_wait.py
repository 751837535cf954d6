"""A search's deadline counts from when the call arrived, not from when a busy coordinator read it;
a refusal for overload says when to retry where callers look for it.

fourfold's clients say the gRPC timeout they send (``fourfold-timeout-ms``); the time left of it when
the coordinator reads the call tells how long the call waited unread, which is taken off the
deadline: a call that waited past its deadline is refused at once with the wait, one that waited
part of it is searched in what is left and says so. A refusal carries gRPC's
``grpc-retry-pushback-ms``, read into ``Overloaded.retry_after_s`` and the web API's ``Retry-After``.
Each client's metadata is checked over a real gRPC call, and the coordinator's reading against the
session's real cluster.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest

import fourfold
from fourfold.client import error_from_rpc
from fourfold.connection import PUSHBACK_KEY, TIMEOUT_KEY, Connection, WireClient
from fourfold.coordinator.service import waited_s
from fourfold.errors import InvalidInput, Overloaded
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc


class Context:
    """What :func:`waited_s` reads of a gRPC servicer context."""

    def __init__(self, remaining: float | None, metadata: tuple[tuple[str, str], ...]) -> None:
        self.remaining, self.metadata = remaining, metadata

    def time_remaining(self) -> float | None:
        return self.remaining

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self.metadata


def test_the_wait_is_the_timeout_said_less_the_time_left_of_it() -> None:
    assert waited_s(Context(27.5, (("authorization", "Bearer x"), (TIMEOUT_KEY, "30000")))) == pytest.approx(2.5)
    assert waited_s(Context(27.5, ())) == 0.0  # a caller that says nothing: its deadline counts from now
    assert waited_s(Context(None, ((TIMEOUT_KEY, "30000"),))) == 0.0  # no gRPC timeout was sent
    assert waited_s(Context(31.0, ((TIMEOUT_KEY, "30000"),))) == 0.0  # never less than nothing
    for bad in ("abc", "-5", "1.5", "", "３０"):
        with pytest.raises(InvalidInput, match=f"metadata {TIMEOUT_KEY} must be the call's gRPC timeout"):
            waited_s(Context(10.0, ((TIMEOUT_KEY, bad),)))


def test_a_search_call_says_its_timeout() -> None:
    conn = Connection("h:1", timeout_s=30.0)
    request = coordinator_pb2.SearchRequest(query="x", deadline_ms=60_000)
    timeout, metadata = conn.search_call(request, (("authorization", "Bearer t"),))
    assert timeout == 65.0 and metadata == (("authorization", "Bearer t"), (TIMEOUT_KEY, "65000"))
    assert conn.search_call(coordinator_pb2.SearchRequest(query="x", deadline_ms=2000), ()) == (
        30.0,
        ((TIMEOUT_KEY, "30000"),),
    )


class Recorder(coordinator_pb2_grpc.CoordinatorServicer):
    """A coordinator that answers every search with nothing (or refuses it, as overloaded, saying
    ``pushback`` where that is set) and keeps each call's metadata."""

    def __init__(self, pushback: str | None = None) -> None:
        self.seen: list[dict[str, str]] = []
        self.pushback = pushback

    def Search(self, request: Any, context: grpc.ServicerContext) -> coordinator_pb2.SearchResponse:
        self.seen.append(dict(context.invocation_metadata()))
        if self.pushback is not None:
            context.abort_with_status(_Refused(self.pushback))
        return coordinator_pb2.SearchResponse()


class _Refused(grpc.Status):
    def __init__(self, pushback: str) -> None:
        self.code = grpc.StatusCode.RESOURCE_EXHAUSTED
        self.details = "coordinator overloaded: 9 searches in flight; retry after 2.5s, or add coordinators"
        self.trailing_metadata = ((PUSHBACK_KEY, pushback),)


@pytest.fixture
def recorder(request: pytest.FixtureRequest) -> Iterator[tuple[Recorder, str]]:
    servicer = Recorder(getattr(request, "param", None))
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    coordinator_pb2_grpc.add_CoordinatorServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield servicer, f"127.0.0.1:{port}"
    finally:
        server.stop(None)


def test_every_client_says_the_timeout_of_its_search(recorder: tuple[Recorder, str]) -> None:
    servicer, address = recorder
    with fourfold.Client(address, token="ff_t") as c:
        c.search("x", deadline_ms=40_000)

    async def run() -> None:
        async with fourfold.AsyncClient(address) as ac:
            await ac.search("x", deadline_ms=1_000)

    asyncio.run(run())
    wire = WireClient(address)
    try:
        wire.search_pb(coordinator_pb2.SearchRequest(query="x", deadline_ms=50_000))
    finally:
        wire.close()
    assert [m.get(TIMEOUT_KEY) for m in servicer.seen] == ["45000", "30000", "55000"]
    assert servicer.seen[0]["authorization"] == "Bearer ff_t"  # said beside the token, not instead of it


def _search(address: str, said_ms: str, timeout_s: float, deadline_ms: int) -> tuple[str, str, list[str]]:
    with grpc.insecure_channel(address) as channel:
        stub = coordinator_pb2_grpc.CoordinatorStub(channel)
        request = coordinator_pb2.SearchRequest(query="def parse_config", k=3, deadline_ms=deadline_ms)
        try:
            r = stub.Search(request, timeout=timeout_s, metadata=((TIMEOUT_KEY, said_ms),))
        except grpc.RpcError as exc:
            return exc.code().name, exc.details() or "", []
        return "OK", "", list(r.notes)


@pytest.mark.cluster
@pytest.mark.slow
def test_the_coordinator_takes_a_calls_wait_off_its_deadline(cluster: Any) -> None:
    # a call that says a 22 s timeout and arrives with 20 s of it left waited 2 s: past a 1.5 s deadline
    code, details, _ = _search(cluster.address, "22000", 20.0, 1500)
    assert code == "RESOURCE_EXHAUSTED", (code, details)
    # (gRPC encodes the timeout it sends in a few digits and reads its clock coarsely: a wait read is
    # within about a tenth of a second, either way)
    said = re.search(r"waited (\d\.\d)s to be read, past its 1\.5s deadline; retry after (\d\.\d)s", details)
    assert said and 1.5 <= float(said[1]) <= 2.1 and said[1] == said[2], details
    # one that waited about 0.5 s of a 5 s deadline is searched in what is left, and says so
    code, details, notes = _search(cluster.address, "20500", 20.0, 5000)
    assert code == "OK", details
    said = [n for n in notes if "to be read by a busy coordinator" in n]
    assert len(said) == 1 and "of its 5.00s deadline" in said[0], notes
    waited = re.search(r"waited (\d\.\d\d)s", said[0])
    assert waited and 0.3 <= float(waited[1]) <= 0.6, said  # 0.5 s, less what the call took to come
    # a wait too short to matter is not said
    code, details, notes = _search(cluster.address, "20000", 20.0, 5000)
    assert code == "OK" and not [n for n in notes if "busy coordinator" in n], (details, notes)
    # a deadline below 0 is the caller's error, whatever the wait: not "overloaded"
    code, details, _ = _search(cluster.address, "22000", 20.0, -1)
    assert code == "INVALID_ARGUMENT" and "invalid deadline -1 ms" in details, (code, details)
    # the key said wrong is the caller's error, in words
    code, details, _ = _search(cluster.address, "soon", 20.0, 5000)
    assert code == "INVALID_ARGUMENT" and f"metadata {TIMEOUT_KEY} must be" in details and "'soon'" in details


@pytest.mark.parametrize("recorder", ["2500"], indirect=True)
def test_a_refusal_says_when_to_retry_to_every_caller(recorder: tuple[Recorder, str]) -> None:
    _, address = recorder
    with fourfold.Client(address) as c, pytest.raises(Overloaded, match=r"retry after 2\.5s") as refused:
        c.search("x")
    assert refused.value.retry_after_s == 2.5

    async def run() -> float | None:
        async with fourfold.AsyncClient(address) as ac:
            try:
                await ac.search("x")
            except Overloaded as exc:
                return exc.retry_after_s
        return None

    assert asyncio.run(run()) == 2.5
    # the web API says it as HTTP does, in whole seconds
    from starlette.testclient import TestClient

    from fourfold.web import create_app

    with TestClient(create_app(address, secret="s")) as web:
        r = web.get("/api/v1/search", params={"q": "x"})
        page = web.get("/", params={"q": "x"})
    assert r.status_code == 429 and r.headers["Retry-After"] == "3", (r.status_code, r.headers)
    assert "retry after 2.5s" in r.json()["error"]["message"]
    assert page.status_code == 429 and page.headers["Retry-After"] == "3" and "retry after 2.5s" in page.text


@pytest.mark.parametrize("recorder", ["soon", ""], indirect=True)
def test_a_pushback_not_in_milliseconds_is_no_advice(recorder: tuple[Recorder, str]) -> None:
    _, address = recorder
    with fourfold.Client(address) as c, pytest.raises(Overloaded) as refused:
        c.search("x")
    assert refused.value.retry_after_s is None


@pytest.mark.cluster
@pytest.mark.slow
def test_the_coordinators_refusal_carries_grpcs_pushback(cluster: Any) -> None:
    with grpc.insecure_channel(cluster.address) as channel:
        stub = coordinator_pb2_grpc.CoordinatorStub(channel)
        request = coordinator_pb2.SearchRequest(query="def parse_config", deadline_ms=1500)
        with pytest.raises(grpc.RpcError) as failed:
            stub.Search(request, timeout=20.0, metadata=((TIMEOUT_KEY, "22000"),))
    exc = failed.value
    pushback = dict(exc.trailing_metadata())[PUSHBACK_KEY]  # type: ignore[attr-defined]
    err = error_from_rpc(exc)
    assert isinstance(err, Overloaded) and err.retry_after_s == int(pushback) / 1000
    assert 1.5 <= err.retry_after_s <= 2.1 and f"retry after {err.retry_after_s:.1f}s" in str(err)
