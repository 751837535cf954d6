"""Fuzz the public Search request on the session's real cluster: whatever the fields hold, the
coordinator answers or rejects clearly — never a crash, never INTERNAL or UNKNOWN."""

from __future__ import annotations

import string
from typing import Any

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

FUZZ_EXAMPLES = 1500
#: Statuses a bad request may get, each with a message; anything else is a bug.
CLEAR = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.PERMISSION_DENIED}

words = st.sampled_from(
    [
        "parse_config",
        "Session",
        "retry",
        "def ",
        "who calls ",
        '"',
        "ECONNREFUSED",
        "(",
        "[a-z]+",
        "\\",
        "*",
        "\n",
        "é",
        "\x00",
        "",
    ]
)
texts = st.one_of(
    st.text(max_size=60),
    st.lists(words, max_size=6).map("".join),
    st.lists(words, min_size=1, max_size=6).map("".join),
    st.tuples(st.integers(9_990, 10_010), st.sampled_from(string.printable)).map(lambda nc: nc[1] * nc[0]),
)
junk = st.text(max_size=12)
MODALITIES = ["semantic", "text", "structural", "graph"]
INTENTS = [
    "",
    "find_definition",
    "find_references",
    "understand_code",
    "find_similar",
    "impact_analysis",
    "exact_match",
]


def mostly(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Valid values three times in four, so the fuzz reaches the shards and not only validation."""
    return st.one_of(valid, valid, valid, junk)


int32 = st.integers(-(2**31), 2**31 - 1)
requests = st.fixed_dictionaries(
    {"query": texts},
    optional={
        "k": st.one_of(st.integers(1, 60), st.integers(1, 60), st.integers(-3, 1100), int32),
        "repos": st.lists(mostly(st.just("sample")), max_size=2),
        "intent": mostly(st.sampled_from(INTENTS)),
        "preset": mostly(st.sampled_from(["", "quick", "default", "thorough"])),
        "modalities": st.lists(mostly(st.sampled_from(MODALITIES)), max_size=3),
        "weights": st.dictionaries(
            mostly(st.sampled_from(MODALITIES)),
            st.one_of(st.floats(0, 3), st.floats(allow_nan=True, allow_infinity=True)),
            max_size=3,
        ),
        "deadline_ms": st.one_of(st.integers(0, 3000), int32),
        "path_glob": st.one_of(st.sampled_from(["app/*", "*.py", "web/**", "[", "**/*.js", "vendor/*"]), junk),
        "languages": st.lists(mostly(st.sampled_from(["python", "javascript"])), max_size=2),
        "case_sensitive": st.booleans(),
        "options": st.dictionaries(
            st.sampled_from(["mode", "kind", "x", ""]),
            st.one_of(st.sampled_from(["regex", "literal", "bm25", "function", "class"]), junk),
            max_size=3,
        ),
        "with_snippets": st.booleans(),
    },
)


@pytest.fixture(scope="module")
def stub(cluster: Any) -> coordinator_pb2_grpc.CoordinatorStub:
    return coordinator_pb2_grpc.CoordinatorStub(grpc.insecure_channel(cluster.address))


def test_search_fields_never_crash_the_coordinator(stub: coordinator_pb2_grpc.CoordinatorStub) -> None:
    seen: dict[str, int] = {}

    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    @given(requests)
    def one(fields: dict[str, Any]) -> None:
        request = coordinator_pb2.SearchRequest(**fields)
        if request.deadline_ms > 3000:
            request.deadline_ms = 3000  # keep the run short; the field itself is fuzzed below that
        try:
            stub.Search(request, timeout=30)
            outcome = "OK"
        except grpc.RpcError as exc:
            code = exc.code()
            assert code in CLEAR, f"{code.name}: {exc.details()} for {fields!r}"
            assert exc.details(), f"{code.name} without a message for {fields!r}"
            outcome = code.name
        seen[outcome] = seen.get(outcome, 0) + 1

    one()
    print(f"\nfuzz: {sum(seen.values())} Search requests: {dict(sorted(seen.items()))}")
    assert sum(seen.values()) >= FUZZ_EXAMPLES and seen.get("OK", 0) > 0 and seen.get("INVALID_ARGUMENT", 0) > 0
