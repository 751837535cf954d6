"""Malformed requests on the wire: raw bytes that are not a valid message (corrupt, truncated, a
string field holding invalid UTF-8) get INVALID_ARGUMENT naming the message, without internal class
names, and leave no traceback in the server's log — on the session's real coordinator."""

from __future__ import annotations

import logging
from typing import Any

import grpc
import pytest

from fourfold.v1 import coordinator_pb2

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

VALID = coordinator_pb2.SearchRequest(query="parse_config", k=3).SerializeToString()
MALFORMED = {
    "invalid UTF-8 in query": b"\x0a\x03\xff\xfe\xfd",
    "truncated length": b"\x0a\x40abc",
    "garbage": b"\xff\xff\xff\xff\xff",
    "bad wire type": b"\x0f\x01",
}


# StatusRequest has no field 1: bytes there are an unknown field, which protobuf keeps (valid)
CASES = [
    (m, c)
    for m in ("Search", "Status", "Index")
    for c in sorted(MALFORMED)
    if (m, c) != ("Status", "invalid UTF-8 in query")
]


@pytest.mark.parametrize(("method", "case"), CASES)
def test_a_malformed_request_is_invalid_argument_in_words(
    cluster: Any, caplog: pytest.LogCaptureFixture, method: str, case: str
) -> None:
    caplog.set_level(logging.DEBUG)
    with grpc.insecure_channel(cluster.address) as ch:
        path = f"/fourfold.v1.Coordinator/{method}"
        call = (
            ch.unary_stream(path, request_serializer=None, response_deserializer=None)
            if method == "Index"
            else ch.unary_unary(path, request_serializer=None, response_deserializer=None)
        )
        with pytest.raises(grpc.RpcError) as info:
            result = call(MALFORMED[case], timeout=30)
            if method == "Index":
                list(result)
    details = info.value.details() or ""
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (info.value.code(), details)
    assert f"not a valid fourfold.v1.{method}Request message" in details
    assert "<class" not in details and "DecodeError" not in details and "Unexpected" not in details
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "Traceback" not in logged and "DecodeError" not in logged, logged


def test_a_valid_raw_request_still_answers(cluster: Any) -> None:
    with grpc.insecure_channel(cluster.address) as ch:
        raw = ch.unary_unary("/fourfold.v1.Coordinator/Search", request_serializer=None, response_deserializer=None)
        answer = coordinator_pb2.SearchResponse.FromString(raw(VALID, timeout=60))
    assert answer.hits
