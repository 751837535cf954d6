"""fourfold.Client / AsyncClient: settings from the environment, the retry rule (UNAVAILABLE only),
errors as fourfold errors, wire answers back to the engine's values — then both against the
session's real cluster."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc
import pytest

import fourfold
from fourfold.client import error_from_rpc, search_request
from fourfold.connection import TLS_CA_ENV, TOKEN_ENV, Connection
from fourfold.coordinator.engine import Answer
from fourfold.coordinator.fusion import FusedHit, ModalityRank
from fourfold.errors import (
    InvalidInput,
    InvalidQuery,
    NotFound,
    Overloaded,
    PermissionDenied,
    RemoteError,
    Unauthenticated,
    Unavailable,
)
from fourfold.plugins.types import Hit
from fourfold.wire import answer_from_pb, answer_to_pb


class Failure(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode, details: str = "why") -> None:
        self._code, self._details = code, details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def test_connection_takes_token_and_ca_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    monkeypatch.delenv(TLS_CA_ENV, raising=False)
    plain = Connection.from_env("h:1")
    assert (plain.token, plain.tls, plain.metadata()) == (None, False, ())
    monkeypatch.setenv(TOKEN_ENV, "ff_env")
    monkeypatch.setenv(TLS_CA_ENV, str(tmp_path / "ca.pem"))
    env = Connection.from_env("h:1")
    assert env.metadata() == (("authorization", "Bearer ff_env"),) and env.tls and env.ca_cert == tmp_path / "ca.pem"
    assert Connection.from_env("h:1", token="ff_arg").token == "ff_arg"  # an argument wins
    with pytest.raises(InvalidInput, match="cannot read the CA certificate"):
        env.channel()


def test_only_unavailable_is_retried() -> None:
    conn = Connection("h:1", retries=2, backoff_s=0.0)
    attempts: list[int] = []

    def flaky(code: grpc.StatusCode, fail: int) -> Any:
        def call() -> str:
            attempts.append(1)
            if len(attempts) <= fail:
                raise Failure(code)
            return "ok"

        return call

    assert conn.call(flaky(grpc.StatusCode.UNAVAILABLE, 2)) == "ok" and len(attempts) == 3
    attempts.clear()
    with pytest.raises(grpc.RpcError):
        conn.call(flaky(grpc.StatusCode.UNAVAILABLE, 5))
    assert len(attempts) == 3
    for code in (
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
    ):
        attempts.clear()
        with pytest.raises(grpc.RpcError):
            conn.call(flaky(code, 1))
        assert len(attempts) == 1


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        (grpc.StatusCode.INVALID_ARGUMENT, InvalidInput),
        (grpc.StatusCode.NOT_FOUND, NotFound),
        (grpc.StatusCode.PERMISSION_DENIED, PermissionDenied),
        (grpc.StatusCode.UNAUTHENTICATED, Unauthenticated),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, Overloaded),
        (grpc.StatusCode.UNAVAILABLE, Unavailable),
        (grpc.StatusCode.INTERNAL, RemoteError),
    ],
)
def test_statuses_become_fourfold_errors(code: grpc.StatusCode, cls: type[Exception]) -> None:
    err = error_from_rpc(Failure(code, "the reason"))
    assert type(err) is cls and str(err) == "the reason" and err.grpc_status == code.name


def test_wire_answers_come_back_as_engine_values() -> None:
    """Engine answer → wire → engine answer is the identity (a hit's score is the fused score on the wire)."""
    hits = (
        FusedHit(
            Hit("s1", "r", "a.py", 3, 9, 0.25, "f", "function", "python", (4, 5), 0.5, "def f():"),
            0.25,
            {"text": ModalityRank(0, 0.125, 7.5), "graph": ModalityRank(2, 0.125, 1.0)},
            False,
        ),
        FusedHit(Hit("s2", "r", "vendor/b.py", 1, 2, 0.0625, None, None, "python"), 0.0625, {}, True),
    )
    a = Answer(
        "find_references",
        0.9,
        "fused",
        "thorough",
        True,
        ("graph/all",),
        hits,
        17,
        {"total": 4.5, "fanout": 2.25},
        "g000003",
        ("graph/all missing: timeout",),
        {"text": 1.0, "graph": 0.5},
    )
    assert answer_from_pb(answer_to_pb(a)) == a


def test_a_lone_surrogate_is_an_invalid_query_before_the_wire() -> None:
    """The wire carries UTF-8 only: a lone surrogate in any field is named, not a UnicodeEncodeError."""
    for kw in ({"query": "where is \ud800 defined"}, {"query": "parse", "path_glob": "src/\udcff*"}):
        with pytest.raises(InvalidQuery, match=r"the search holds '\\ud[89a-f][0-9a-f]{2}'"):
            search_request(**kw)
    assert search_request("parse").query == "parse"


def test_public_names() -> None:
    assert fourfold.Client is fourfold.client.Client and fourfold.AsyncClient is fourfold.client.AsyncClient


@pytest.mark.cluster
@pytest.mark.slow
def test_sync_and_async_clients_against_the_session_cluster(cluster: Any) -> None:
    with fourfold.Client(cluster.address) as c:
        assert c.healthy()
        a = c.search("def parse_config", snippets=True)
        top = a.hits[0].hit
        assert (a.intent, top.path, top.symbol, top.start_line) == (
            "find_definition",
            "app/config.py",
            "parse_config",
            8,
        )
        assert "def parse_config" in top.snippet and a.timings["total"] > 0
        assert "sample" in [r.name for r in c.repositories()]
        with pytest.raises(InvalidInput, match="unknown intent"):
            c.search("x", intent="guess")

    async def run() -> tuple[Any, Any]:
        async with fourfold.AsyncClient(cluster.address) as ac:
            answers = await asyncio.gather(
                *(
                    ac.search(q, k=3)
                    for q in ('"ECONNREFUSED"', "who calls parse_config", "retry", "who calls parse_konfig_file")
                )
            )
            return answers, await ac.status()

    answers, status = asyncio.run(run())
    assert [f.hit.path for f in answers[0].hits] == ["app/session.py"] and answers[1].intent == "find_references"
    assert not answers[1].no_confident_match
    # a name no file holds: its neighbours come back marked, over the wire, with the reason
    assert answers[3].hits and answers[3].no_confident_match
    assert any("'parse_konfig_file' is in no file searched" in n for n in answers[3].notes), answers[3].notes
    assert status.generation and {s.modality for s in status.shards} >= {"semantic", "text", "structural", "graph"}
