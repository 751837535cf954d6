"""Fault scenarios that need a Ray cluster of their own, run in a subprocess by tests/test_faults.py
(one Ray per process: the test session already runs one). Each prints one JSON object.

    python tests/cluster_scenarios.py two-node WORKDIR
    python tests/cluster_scenarios.py coordinator-restart WORKDIR
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from conftest import write_sample_repo  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def index(work: Path) -> Path:
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    home = work / "home"
    repo_a = write_sample_repo(work / "alpha")
    repo_b = work / "beta"
    repo_b.mkdir()
    (repo_b / "billing.py").write_text("def compute_invoice_total(lines):\n    return sum(l.amount for l in lines)\n")
    build_generation(IndexStore(home), [(repo_a, "alpha"), (repo_b, "beta")])
    return home


def two_node(work: Path) -> dict[str, Any]:
    """Shards placed on both nodes, queries answered from both; a removed node's shards are named missing."""
    import ray
    from ray.cluster_utils import Cluster

    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.serving import EmbeddedServer

    home = index(work)
    mem = {"object_store_memory": 80 << 20}
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "resources": {"node_a": 1}, "include_dashboard": False, **mem},
    )
    node_b = cluster.add_node(num_cpus=1, resources={"node_b": 1}, **mem)
    cluster.wait_for_nodes()
    out: dict[str, Any] = {}
    try:
        with EmbeddedServer(home, ray_address=cluster.address) as server, WireClient(server.address) as client:
            status = client.status()
            out["nodes"] = status.nodes
            placement: dict[str, list[str]] = {}
            for sh in status.shards:
                placement.setdefault(sh.node_id, []).append(f"{sh.modality}/{sh.shard}")
            out["placement"] = placement
            out["node_b"] = node_b.node_id
            answers = [
                client.search(SearchParams(query=q, k=5, preset="thorough"))
                for q in ("def parse_config", "def compute_invoice_total", "how does authentication work")
            ]
            out["complete_before"] = [not a.partial and bool(a.hits) for a in answers]
            out["repos_answered"] = sorted({h.repo for a in answers for h in a.hits})
            on_b = sorted(placement.get(node_b.node_id, []))
            cluster.remove_node(node_b, allow_graceful=False)
            # a deadline a loaded machine meets: the surviving node's shards must answer within it (1.5 s was
            # missed under load, and the answer then held no hit at all)
            after = client.search(
                SearchParams(query="how does authentication work", k=5, preset="thorough", deadline_ms=10_000)
            )
            out["after_kill"] = {
                "partial": after.partial,
                "missing": sorted(after.missing_shards),
                "hits": len(after.hits),
            }
            out["on_b"] = on_b
            # detached actors restart on the surviving node: the answers become complete again
            recovered = False
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                r = client.search(
                    SearchParams(query="how does authentication work", k=5, preset="thorough", deadline_ms=3000)
                )
                if not r.partial:
                    recovered = True
                    break
                time.sleep(1)
            out["recovered"] = recovered
    finally:
        ray.shutdown()
        cluster.shutdown()
    return out


def _wait_healthy(address: str, timeout: float = 120) -> None:
    from fourfold.connection import WireClient

    deadline = time.monotonic() + timeout
    with WireClient(address) as c:
        while time.monotonic() < deadline:
            if c.healthy(1.0):
                return
            time.sleep(0.5)
    raise TimeoutError(f"no coordinator became healthy at {address}")


def _wait_for_ray(port: int, head: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if head.poll() is not None:
            raise RuntimeError(f"ray start exited with {head.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                time.sleep(2)  # the GCS listens before the raylet registers
                return
        time.sleep(0.5)
    raise TimeoutError(f"the Ray head did not listen on {port}")


def _stop_session(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group ``proc`` leads (its whole Ray cluster), then SIGKILL what is left."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def coordinator_restart(work: Path) -> dict[str, Any]:
    """SIGKILL the coordinator: a restarted one serves the same generation from the same workers,
    with no rebuild; a second, stateless coordinator serves the same cluster meanwhile."""
    from fourfold.connection import WireClient
    from fourfold.coordinator.engine import SearchParams

    home = index(work)
    gens_before = sorted(p.name for p in (home / "generations").iterdir())
    ray_port = free_port()
    env = {**os.environ, "FOURFOLD_HOME": str(home), "RAY_AUTH_MODE": "disabled"}
    ray_bin = str(Path(sys.executable).parent / "ray")
    # `ray start --block` in a session of its own: stopping it stops this cluster only (`ray stop`
    # would stop every Ray cluster on the machine, the test session's included).
    head = subprocess.Popen(
        [
            ray_bin,
            "start",
            "--head",
            "--block",
            f"--port={ray_port}",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--disable-usage-stats",
            "--object-store-memory=100000000",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(work / "ray-head.log", "wb"),  # noqa: SIM115 - held by the child for its life
        start_new_session=True,
    )
    _wait_for_ray(ray_port, head)
    procs: list[subprocess.Popen[bytes]] = []
    out: dict[str, Any] = {}
    try:

        def serve(address: str, role: str) -> subprocess.Popen[bytes]:
            p = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "fourfold",
                    "serve",
                    "--address",
                    address,
                    "--role",
                    role,
                    "--ray-address",
                    f"127.0.0.1:{ray_port}",
                ],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=open(work / f"serve-{role}-{len(procs)}.log", "wb"),  # noqa: SIM115 - held by the child
            )
            procs.append(p)
            _wait_healthy(address)
            return p

        first_addr = f"127.0.0.1:{free_port()}"
        first = serve(first_addr, "all")
        with WireClient(first_addr) as c:
            r = c.search(SearchParams(query="def parse_config", k=3))
            s = c.status()
        out["before"] = {
            "generation": r.generation,
            "top": r.hits[0].path if r.hits else None,
            "workers": sorted(sh.address for sh in s.shards),
        }
        second_addr = f"127.0.0.1:{free_port()}"
        serve(second_addr, "coordinator")
        with WireClient(second_addr) as c:
            r2 = c.search(SearchParams(query="def compute_invoice_total", k=3))
        out["second_coordinator"] = {"generation": r2.generation, "top": r2.hits[0].path if r2.hits else None}
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        with WireClient(second_addr) as c:
            r3 = c.search(SearchParams(query="def parse_config", k=3))
        out["while_first_is_down"] = {"top": r3.hits[0].path if r3.hits else None, "partial": r3.partial}
        serve(first_addr, "all")
        with WireClient(first_addr) as c:
            r4 = c.search(SearchParams(query="def parse_config", k=3))
            s4 = c.status()
        out["after_restart"] = {
            "generation": r4.generation,
            "top": r4.hits[0].path if r4.hits else None,
            "workers": sorted(sh.address for sh in s4.shards),
        }
        # scale the text shards to two replicas on the running cluster; the coordinator picks them up
        subprocess.run(
            [
                sys.executable,
                "-m",
                "fourfold",
                "scale",
                "--ray-address",
                f"127.0.0.1:{ray_port}",
                "--replicas",
                "text=2",
            ],
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        deadline = time.monotonic() + 30
        replicas: dict[str, int] = {}
        with WireClient(first_addr) as c:
            while time.monotonic() < deadline:
                s5 = c.status()
                replicas = {}
                for sh in s5.shards:
                    if sh.modality == "text" and sh.generation == s5.generation:
                        replicas[sh.shard] = replicas.get(sh.shard, 0) + 1
                if replicas and min(replicas.values()) == 2:
                    break
                time.sleep(1)
            r5 = c.search(SearchParams(query='"ECONNREFUSED"', k=3))
        out["scaled"] = {"text_replicas": replicas, "top": r5.hits[0].path if r5.hits else None, "partial": r5.partial}
        out["generations_before"] = gens_before
        out["generations_after"] = sorted(p.name for p in (home / "generations").iterdir())
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
        _stop_session(head)
    return out


if __name__ == "__main__":
    scenario, workdir = sys.argv[1], Path(sys.argv[2])
    workdir.mkdir(parents=True, exist_ok=True)
    result = {"two-node": two_node, "coordinator-restart": coordinator_restart}[scenario](workdir)
    print("RESULT " + json.dumps(result))
