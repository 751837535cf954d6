"""The history plugin end to end, as a user installs it: a real local Ray cluster whose workers host
its shards, the coordinator's gRPC service, and the CLI; then the same deployment restarted with
the plugin switched off (``FOURFOLD_BLOCK_PLUGINS=history``, what uninstalling amounts to).

Each deployment runs in its own process (one Ray per process; the session's cluster fixture holds
this one), with its own FOURFOLD_HOME. Needs examples/fourfold-history installed (make install).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from test_history import make_history_repo

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

if not any(ep.name == "history" for ep in metadata.entry_points(group="fourfold")):
    pytest.skip("examples/fourfold-history is not installed (make install installs it)", allow_module_level=True)

#: Runs in a subprocess: optionally index, start an embedded deployment, ask over gRPC and through
#: the CLI (against that deployment's address), print what came back as JSON.
DEPLOYMENT = r"""
import json, os, subprocess, sys
from pathlib import Path
import grpc
from google.protobuf.json_format import MessageToDict
from fourfold.coordinator.serving import EmbeddedServer
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

home, repo = Path(os.environ["FOURFOLD_HOME"]), Path(sys.argv[1])
queries, index = json.loads(sys.argv[2]), sys.argv[3] == "index"
if index:
    build_generation(IndexStore(home), [(repo, "demo")])
out = {}
with EmbeddedServer(home) as server:
    with grpc.insecure_channel(server.address) as channel:
        stub = coordinator_pb2_grpc.CoordinatorStub(channel)
        status = stub.Status(coordinator_pb2.StatusRequest(), timeout=60)
        out["modalities"] = list(status.modalities)
        out["shards"] = sorted({(sh.modality, sh.health) for sh in status.shards if sh.generation == status.generation})
        out["grpc"] = {q: MessageToDict(stub.Search(coordinator_pb2.SearchRequest(query=q, k=5), timeout=60),
                                        preserving_proto_field_name=True) for q in queries}
    argv = ["search", queries[0], "--address", server.address, "--json", "-k", "3"]
    cli = subprocess.run([sys.executable, "-m", "fourfold", *argv], capture_output=True, text=True, timeout=120)
    answer = json.loads(cli.stdout) if cli.returncode == 0 else None
    out["cli"] = {"rc": cli.returncode, "stderr": cli.stderr[-2000:], "answer": answer}
print("RESULT " + json.dumps(out))
"""

WHO = "who changed load_lines last"
WHY = "why was password comparison changed to constant time"


def _deploy(home: Path, repo: Path, queries: list[str], *, index: bool, block: bool = False) -> dict[str, Any]:
    env = {**os.environ, "FOURFOLD_HOME": str(home), "FOURFOLD_EMBEDDER": "hash"}
    env.pop("FOURFOLD_PLUGINS", None)
    if block:
        env["FOURFOLD_BLOCK_PLUGINS"] = "history"
    else:
        env.pop("FOURFOLD_BLOCK_PLUGINS", None)
    done = subprocess.run(
        [sys.executable, "-c", DEPLOYMENT, str(repo), json.dumps(queries), "index" if index else "serve"],
        capture_output=True,
        text=True,
        env=env,
        timeout=540,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line[len("RESULT ") :])
    return result


#: (the history repository, its store, the answers of the deployment that built the store)
Deployment = tuple[Path, Path, dict[str, Any]]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Deployment:
    """A history repository, a store with its generation built, and the first deployment's answers."""
    base = tmp_path_factory.mktemp("history-e2e")
    repo, home = make_history_repo(base / "repo"), base / "home"
    out = _deploy(home, repo, [WHO, WHY], index=True)
    assert (home / "LIVE").exists(), "the deployment built no generation"
    return repo, home, out


def test_installed_plugin_answers_history_queries_over_grpc_and_cli(
    deployment: tuple[Path, Path, dict[str, Any]],
) -> None:
    _, _, out = deployment
    assert "history" in out["modalities"] and ["history", "SERVING"] in out["shards"]

    who = out["grpc"][WHO]
    assert (who["intent"], who["fusion_strategy"]) == ("history", "direct")
    top = who["hits"][0]
    assert (top["path"], top["symbol"]) == ("app/config.py", "load_lines")
    assert "Grace Hopper: Skip blank lines in load_lines" in top["snippet"].splitlines()[0]
    assert "history" in top["modalities"]

    why = out["grpc"][WHY]
    assert (why["intent"], why["fusion_strategy"]) == ("history", "fused")
    assert {"history", "semantic"} <= set(why["weights"])
    auth = [h for h in why["hits"] if h["path"] == "app/auth/__init__.py"]
    # the commits explain the file beside the code that semantic found (the fused hit keeps one snippet)
    assert auth and {"history", "semantic"} <= set(auth[0]["modalities"])

    cli = out["cli"]
    assert cli["rc"] == 0, cli["stderr"]
    assert cli["answer"]["intent"] == "history" and cli["answer"]["hits"][0]["symbol"] == "load_lines"


def test_blocked_plugin_leaves_fourfold_working(deployment: Deployment) -> None:
    repo, home, _ = deployment
    out = _deploy(home, repo, [WHO, "def load_lines"], index=False, block=True)
    assert "history" not in out["modalities"]
    who = out["grpc"][WHO]
    assert who["intent"] != "history" and "history" not in who["weights"]
    assert any(h["symbol"] == "load_lines" for h in who["hits"])
    assert out["grpc"]["def load_lines"]["hits"][0]["symbol"] == "load_lines"
    assert out["cli"]["rc"] == 0 and out["cli"]["answer"]["intent"] != "history"

    env = {**os.environ, "FOURFOLD_HOME": str(home), "FOURFOLD_EMBEDDER": "hash", "FOURFOLD_BLOCK_PLUGINS": "history"}
    env.pop("FOURFOLD_PLUGINS", None)
    done = subprocess.run(
        [sys.executable, "-m", "fourfold", "index", str(repo), "--name", "demo", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    live = (home / "LIVE").read_text().strip()
    manifest = json.loads((home / "generations" / live / "manifest.json").read_text())
    assert {s["modality"] for s in manifest["shards"]} == {"semantic", "text", "structural", "graph"}
