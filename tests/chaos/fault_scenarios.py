"""Process-kill scenarios of the chaos suite, each on a Ray cluster of its own, run in a subprocess by
tests/chaos/test_faults_cluster.py (one Ray per process: the test session already runs one). Each
prints one line ``RESULT <json>``.

    python tests/chaos/fault_scenarios.py replica-kill WORKDIR
    python tests/chaos/fault_scenarios.py coordinator-kill WORKDIR
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from conftest import write_sample_repo  # noqa: E402

#: Queries of the loop: text only (fast, and served by the replicated modality).
LOOP_QUERIES = ('"ECONNREFUSED"', "parse_config", "retry_request", '"createServer"')


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


class QueryLoop:
    """Searches one after another in a thread; records failures and, per shard, how long it stayed missing."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.queries = 0
        self.failed: list[str] = []
        self.partial = 0
        self._missing_since: dict[str, float] = {}
        self.longest_missing: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> QueryLoop:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        now = time.monotonic()
        for shard, since in self._missing_since.items():
            self.longest_missing[shard] = max(self.longest_missing.get(shard, 0.0), now - since)

    def _run(self) -> None:
        from fourfold.connection import WireClient as Client
        from fourfold.coordinator.engine import SearchParams

        with Client(self.address) as client:
            while not self._stop.is_set():
                q = LOOP_QUERIES[self.queries % len(LOOP_QUERIES)]
                self.queries += 1
                try:
                    r = client.search(SearchParams(query=q, k=5, modalities=("text",), deadline_ms=3000))
                except Exception as exc:  # noqa: BLE001 - every failure is what the scenario counts
                    self.failed.append(f"{type(exc).__name__}: {exc}"[:300])
                    continue
                now = time.monotonic()
                self.partial += bool(r.partial)
                missing = set(r.missing_shards)
                for shard in missing:
                    self._missing_since.setdefault(shard, now)
                for shard in list(self._missing_since):
                    if shard not in missing:
                        since = self._missing_since.pop(shard)
                        self.longest_missing[shard] = max(self.longest_missing.get(shard, 0.0), now - since)
                time.sleep(0.02)

    def summary(self) -> dict[str, Any]:
        return {
            "queries": self.queries,
            "failed": len(self.failed),
            "failures": self.failed[:5],
            "partial": self.partial,
            "longest_missing_s": {k: round(v, 2) for k, v in self.longest_missing.items()},
        }


def _text_workers() -> dict[int, tuple[str, Any]]:
    """replica -> (actor name, handle) of the text workers (one group per replica)."""
    import ray

    from fourfold.workers.actors import NAMESPACE, parse_actor_name

    out: dict[int, tuple[str, Any]] = {}
    for a in ray.util.list_named_actors(all_namespaces=True):
        key = parse_actor_name(a["name"]) if a.get("namespace") == NAMESPACE else None
        if key is not None and key.modality == "text":
            out[key.replica] = (a["name"], ray.get_actor(a["name"], namespace=NAMESPACE))
    return out


def _pid(handle: Any, timeout: float = 60) -> int:
    import ray

    return int(ray.get(handle.describe.remote(), timeout=timeout)["pid"])


def _wait_restarted(handle: Any, old_pid: int, timeout: float = 90) -> float:
    """Seconds until the actor answers from a new process."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            if _pid(handle, timeout=5) != old_pid:
                return time.monotonic() - t0
        except Exception:  # noqa: BLE001 - restarting: calls fail for a moment
            pass
        time.sleep(0.2)
    raise TimeoutError("the killed replica did not come back")


def replica_kill(work: Path) -> dict[str, Any]:
    """Cold start, then SIGKILL text replica 0, wait until it is back, SIGKILL replica 1, under a query loop."""
    from fourfold.connection import WireClient as Client
    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.serving import EmbeddedServer

    home = index(work)
    out: dict[str, Any] = {}
    with EmbeddedServer(home, replicas={"text": 2}, workers_per_modality=1) as server:
        # cold start: the first natural-language queries after the server says it is ready
        with Client(server.address) as c:
            out["health_at_ready"] = sorted({s.health for s in c.status().shards})
            firsts = []
            for q in ("how does authentication work", "where is the session retried", "how is the config parsed"):
                r = c.search(SearchParams(query=q, k=5, preset="thorough"))
                firsts.append(
                    {
                        "partial": r.partial,
                        "missing": list(r.missing_shards),
                        "ms": round({t.stage: t.ms for t in r.timings}["fanout"], 1),
                    }
                )
            out["first_queries"] = firsts
        workers = _text_workers()
        out["text_replicas"] = sorted(workers)
        kills = []
        with QueryLoop(server.address) as loop:
            time.sleep(1.0)  # queries flowing before the first kill
            for replica in (0, 1):
                _, handle = workers[replica]
                pid = _pid(handle)
                os.kill(pid, signal.SIGKILL)
                back = _wait_restarted(handle, pid)
                kills.append({"replica": replica, "pid": pid, "restart_s": round(back, 2)})
                time.sleep(3.0)  # queries on the restarted replica before the next kill
            # every shard answers again (before the fix: never, both replicas' old addresses dead)
            t0 = time.monotonic()
            with Client(server.address) as c:
                while True:
                    final = c.search(SearchParams(query='"ECONNREFUSED"', k=5, modalities=("text",)))
                    if not final.partial or time.monotonic() - t0 > 15:
                        break
                    time.sleep(0.2)
        out["kills"] = kills
        out["loop"] = loop.summary()
        out["final"] = {"partial": final.partial, "missing": list(final.missing_shards), "hits": len(final.hits)}
    return out


def _wait_healthy(address: str, timeout: float = 180) -> float:
    from fourfold.connection import WireClient as Client

    t0 = time.monotonic()
    with Client(address) as c:
        while time.monotonic() - t0 < timeout:
            if c.healthy(0.5):
                return time.monotonic() - t0
            time.sleep(0.1)
    raise TimeoutError(f"no coordinator became healthy at {address}")


def _worker_pids(address: str, home: Path) -> list[int]:
    """The PIDs of every worker the coordinator at ``address`` lists (via each worker's Info)."""
    import grpc

    from fourfold.connection import WireClient as Client
    from fourfold.v1 import worker_pb2, worker_pb2_grpc
    from fourfold.workers.auth import METADATA_KEY, worker_secret

    metadata = ((METADATA_KEY, worker_secret(home)),)

    with Client(address) as c:
        shards = c.status().shards
    pids = set()
    for addr in {s.address for s in shards}:
        with grpc.insecure_channel(addr) as ch:
            stub = worker_pb2_grpc.ModalityWorkerStub(ch)
            pids.add(stub.Info(worker_pb2.InfoRequest(), timeout=10, metadata=metadata).pid)
    return sorted(pids)


def coordinator_kill(work: Path) -> dict[str, Any]:
    """``fourfold serve`` in a subprocess; SIGKILL it; a new ``serve`` serves again, from the same workers."""
    from fourfold.connection import WireClient as Client
    from fourfold.coordinator.engine import SearchParams

    home = index(work)
    # Ray's authentication as serve sets it up by default (token), not an opt-out of the test's
    env = {**{k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}, "FOURFOLD_HOME": str(home)}
    address = f"127.0.0.1:{free_port()}"
    cmd = [sys.executable, "-m", "fourfold", "serve", "--address", address, "--workers-per-modality", "1"]
    out: dict[str, Any] = {}
    procs: list[subprocess.Popen[bytes]] = []

    def serve() -> subprocess.Popen[bytes]:
        log = open(work / f"serve-{len(procs)}.log", "wb")  # noqa: SIM115 - kept open for the child
        p = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        procs.append(p)
        return p

    try:
        first = serve()
        out["first_start_s"] = round(_wait_healthy(address), 2)
        with Client(address) as c:
            r = c.search(SearchParams(query="def parse_config", k=3))
        out["before"] = {"partial": r.partial, "top": r.hits[0].path if r.hits else None}
        pids = _worker_pids(address, home)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        t0 = time.monotonic()
        serve()
        _wait_healthy(address, timeout=180)
        out["restart_s"] = round(time.monotonic() - t0, 2)
        with Client(address) as c:
            r2 = c.search(SearchParams(query="def parse_config", k=3))
        out["served_s"] = round(time.monotonic() - t0, 2)
        out["after"] = {"partial": r2.partial, "top": r2.hits[0].path if r2.hits else None}
        out["pids_before"], out["pids_after"] = pids, _worker_pids(address, home)
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)  # a clean stop also stops the Ray head serve started
                try:
                    p.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    p.kill()
        out["left_running"] = subprocess.run(
            [sys.executable, "-m", "fourfold", "stop"], env=env, capture_output=True, text=True, timeout=60
        ).stdout.strip()
    return out


if __name__ == "__main__":
    scenario, workdir = sys.argv[1], Path(sys.argv[2])
    workdir.mkdir(parents=True, exist_ok=True)
    result = {"replica-kill": replica_kill, "coordinator-kill": coordinator_kill}[scenario](workdir)
    print("RESULT " + json.dumps(result))
