"""End to end on a real local Ray cluster and real gRPC over loopback: every intent, bad input,
status and health, indexing through the API with a rolling switch, and a killed worker.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
import ray
from grpc_health.v1 import health_pb2, health_pb2_grpc

from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


@pytest.fixture(scope="module")
def stub(cluster: Any) -> coordinator_pb2_grpc.CoordinatorStub:
    channel = grpc.insecure_channel(cluster.address)
    return coordinator_pb2_grpc.CoordinatorStub(channel)


def search(stub: coordinator_pb2_grpc.CoordinatorStub, query: str, **kw: Any) -> coordinator_pb2.SearchResponse:
    return stub.Search(coordinator_pb2.SearchRequest(query=query, **kw), timeout=30)


def paths(r: coordinator_pb2.SearchResponse) -> list[str]:
    return [h.path for h in r.hits]


def test_definition_query_takes_the_direct_path(stub: Any) -> None:
    r = search(stub, "def parse_config")
    assert (r.intent, r.fusion_strategy, r.confidence) == ("find_definition", "direct", pytest.approx(0.95))
    assert set(r.weights) == {"structural"}
    top = r.hits[0]
    assert (top.path, top.symbol, top.start_line) == ("app/config.py", "parse_config", 8)
    assert "structural" in top.modalities and top.modalities["structural"].rank == 0
    vendor = [h for h in r.hits if h.path.startswith("vendor/")]
    assert vendor and vendor[0].demoted and paths(r).index("vendor/lib/helper.py") > 0


def test_quoted_string_is_an_exact_match(stub: Any) -> None:
    r = search(stub, '"ECONNREFUSED"')
    assert (r.intent, r.fusion_strategy) == ("exact_match", "direct")
    assert paths(r) == ["app/session.py"]  # debug.log is git-ignored
    assert 18 in r.hits[0].match_lines
    piped = search(stub, "grep -rn 'request' app/ | grep -v attempts")  # the second grep's lines, from the workers
    kept = [(h.path, list(h.match_lines)) for h in piped.hits]
    assert kept == [("app/session.py", [10, 16])] and piped.total_matches == 2  # 11 and 13 name attempts
    first = search(stub, "grep -m 1 -rn 'request' app/")  # each file's first matching line, from the workers
    assert [(h.path, list(h.match_lines)) for h in first.hits] == [("app/session.py", [10])]
    listed = search(stub, "cd app && find . -name '*.py' | grep -v -e auth -e config")  # paths as printed from app/
    assert paths(listed) == ["app/session.py"] and listed.total_files == 1
    around = search(stub, "grep -rn -B 1 ECONNREFUSED app/").hits[0].snippet.split("\n")  # the line before too
    assert [ln[:3] for ln in around] == ["17-", "18:"] and around[1].endswith(
        'RuntimeError("ECONNREFUSED while sending")'
    )


def test_a_direct_route_that_finds_nothing_falls_back_to_fusion(stub: Any) -> None:
    """The direct path never answers with less than fusion would: an empty text answer is re-asked fused."""
    r = search(stub, '"check the user password and open a login session"')
    assert r.intent == "exact_match" and r.fusion_strategy == "fused"
    assert r.notes[0] == "direct path (text) found nothing: answered by fusion"
    assert r.hits and "app/auth.py" in paths(r)
    forced = search(stub, '"check the user password and open a login session"', modalities=["text"])
    assert not forced.hits and forced.fusion_strategy == "direct"  # an explicit choice is kept as asked


def test_files_are_listed_by_their_paths_across_the_workers(stub: Any) -> None:
    """A file command and a path listing travel to the workers' text shards and back with their totals."""
    r = search(stub, "find . -name '*.py' -path '*/app/*'")
    assert (r.intent, r.fusion_strategy) == ("exact_match", "direct")
    assert "app/config.py" in paths(r) and all(p.startswith("app/") and p.endswith(".py") for p in paths(r))
    assert r.total_files == len(r.hits) and r.total_matches == 0 and r.complete
    one = search(stub, "config", k=1, options={"mode": "paths"})
    assert paths(one) == ["app/config.py"] and one.total_files >= 1
    top = search(stub, "ls -la")  # the folders travel as the shards' notes, said once
    folders = [n for n in top.notes if n.startswith("text: folders in ./: ")]
    assert len(folders) == 1 and "app/ (" in folders[0], list(top.notes)
    assert "app/config.py" in paths(search(stub, "ls app", k=20))


def test_who_calls_uses_the_graph(stub: Any) -> None:
    r = search(stub, "who calls parse_config")
    assert (r.intent, r.fusion_strategy) == ("find_references", "direct")
    assert "app/session.py" in paths(r)


def test_understanding_query_is_fused(stub: Any) -> None:
    r = search(stub, "how does authentication work", preset="thorough")
    assert (r.intent, r.fusion_strategy, r.preset) == ("understand_code", "fused", "thorough")
    assert set(r.weights) >= {"semantic", "text", "structural", "graph"}  # plugins may add themselves
    assert "app/auth.py" in paths(r)[:3], (r.notes, r.missing_shards, r.no_confident_match)
    assert not r.partial
    stages = {t.stage for t in r.timings}
    assert {"classify", "fanout", "fuse", "total"} <= stages


def test_explicit_overrides(stub: Any) -> None:
    r = search(stub, "parse_config", modalities=["text"], k=2)
    assert (
        r.fusion_strategy == "direct" and set(r.weights) == {"text"} and len(r.hits) <= 2
    )  # one modality: nothing to fuse
    r = search(stub, "parse_config", modalities=["text", "structural"])
    assert r.fusion_strategy == "fused" and set(r.weights) == {"text", "structural"}
    r = search(stub, "session", intent="exact_match", weights={"text": 1.0, "structural": 0.0})
    assert r.intent == "exact_match" and r.confidence == 1.0
    r = search(stub, "retry", repos=["sample"], path_glob="app/*")
    assert all(h.path.startswith("app/") for h in r.hits)


def test_quick_preset_is_semantic_only(stub: Any) -> None:
    r = search(stub, "open a session for a user", preset="quick")
    assert (r.preset, r.fusion_strategy) == ("quick", "direct") and set(r.weights) == {"semantic"}
    assert r.hits


@pytest.mark.parametrize(
    ("request_kw", "code", "fragment"),
    [
        ({"query": ""}, grpc.StatusCode.INVALID_ARGUMENT, "empty query"),
        ({"query": "   "}, grpc.StatusCode.INVALID_ARGUMENT, "empty query"),
        ({"query": "x" * 100_000}, grpc.StatusCode.INVALID_ARGUMENT, "query too long"),
        ({"query": "parse", "k": -1}, grpc.StatusCode.INVALID_ARGUMENT, "invalid k -1"),
        ({"query": "parse", "intent": "guess"}, grpc.StatusCode.INVALID_ARGUMENT, "unknown intent 'guess'"),
        ({"query": "parse", "preset": "fast"}, grpc.StatusCode.INVALID_ARGUMENT, "unknown preset 'fast'"),
        ({"query": "parse", "modalities": ["smell"]}, grpc.StatusCode.INVALID_ARGUMENT, "unknown modality 'smell'"),
        ({"query": "parse", "repos": ["nope"]}, grpc.StatusCode.NOT_FOUND, "unknown repository 'nope'"),
    ],
)
def test_bad_input_gets_a_clear_status(
    stub: Any, request_kw: dict[str, Any], code: grpc.StatusCode, fragment: str
) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.Search(coordinator_pb2.SearchRequest(**request_kw), timeout=30)
    assert info.value.code() == code
    assert fragment in info.value.details()


def test_status_and_health(cluster: Any, stub: Any) -> None:
    s = stub.Status(coordinator_pb2.StatusRequest(), timeout=30)
    assert s.generation and [r.name for r in s.repos] == ["sample"] and s.nodes >= 1
    served = {(sh.modality, sh.health) for sh in s.shards if sh.generation == s.generation}
    assert served >= {(m, "SERVING") for m in ("semantic", "text", "structural", "graph")}
    assert {h for _, h in served} == {"SERVING"}
    for address in [cluster.address] + [sh.address for sh in s.shards]:
        with grpc.insecure_channel(address) as ch:
            r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
            assert r.status == health_pb2.HealthCheckResponse.SERVING


def test_killed_worker_comes_back(cluster: Any, stub: Any) -> None:
    """SIGKILL the text worker: answers meanwhile are partial (never an error), then it serves again."""
    s = stub.Status(coordinator_pb2.StatusRequest(), timeout=30)
    text = next(sh for sh in s.shards if sh.modality == "text" and sh.generation == s.generation)
    from fourfold.index.store import IndexStore
    from fourfold.workers.actors import NAMESPACE, EndpointKey, actor_name

    store_id = IndexStore(cluster.home).store_id()
    handle = ray.get_actor(
        actor_name(EndpointKey(text.generation, "text", text.shard, text.replica, store_id)), namespace=NAMESPACE
    )
    pid = ray.get(handle.describe.remote())["pid"]
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    recovered = False
    saw = []
    while time.monotonic() < deadline:
        r = search(stub, '"ECONNREFUSED"', deadline_ms=2000)
        saw.append(r.partial)
        if not r.partial and paths(r) == ["app/session.py"]:
            recovered = True
            break
        assert r.missing_shards == [f"text/{text.shard}"]
        time.sleep(0.5)
    assert recovered, f"the text worker did not come back: partial answers {saw}"
    assert ray.get(handle.describe.remote())["pid"] != pid


def test_index_through_the_api_switches_generation(stub: Any, tmp_path: Path) -> None:
    repo = tmp_path / "extra"
    repo.mkdir()
    (repo / "billing.py").write_text("def compute_invoice_total(lines):\n    return sum(l.amount for l in lines)\n")
    before = stub.Status(coordinator_pb2.StatusRequest(), timeout=30).generation
    progress = list(
        stub.Index(
            coordinator_pb2.IndexRequest(repos=[coordinator_pb2.RepoSpec(path=str(repo), name="extra")]), timeout=600
        )
    )
    stages = [p.stage for p in progress]
    assert stages[-1] == "done" and "segment" in stages and any(s.startswith("build:") for s in stages)
    summary = progress[-1].summary
    assert summary.generation != before and summary.files >= 7
    r = search(stub, "def compute_invoice_total")
    assert r.generation == summary.generation
    assert (r.hits[0].repo, r.hits[0].path) == ("extra", "billing.py")
    r = search(stub, "def parse_config", repos=["sample"])
    assert r.hits and all(h.repo == "sample" for h in r.hits)
    with pytest.raises(grpc.RpcError) as info:
        list(
            stub.Index(
                coordinator_pb2.IndexRequest(repos=[coordinator_pb2.RepoSpec(path=str(tmp_path / "missing"))]),
                timeout=60,
            )
        )
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "does not exist" in info.value.details()


@pytest.mark.slow
@pytest.mark.cluster
def test_a_new_local_cluster_authenticates_without_advising_to_opt_out(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = (
        "import os, ray\n"
        "from fourfold.workers import cluster\n"
        "assert cluster.connect(None)\n"
        "print('mode', ray.get(ray.remote(lambda: os.environ.get('RAY_AUTH_MODE')).remote()))\n"
        "logging_name = 'ray._private.authentication.authentication_token_setup'\n"
        "import logging; logging.getLogger(logging_name).warning('Token authentication is disabled')\n"
        "ray.shutdown()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=180, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "mode token" in done.stdout  # the workers still authenticate
    assert "opt out" not in done.stderr and "RAY_AUTH_MODE=disabled" not in done.stderr, done.stderr
    assert "Token authentication is disabled" in done.stderr  # Ray's other warnings are not dropped
