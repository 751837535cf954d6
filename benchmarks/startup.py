"""Start-up benchmark: what a one-off caller pays before its first answer.

    python benchmarks/startup.py [--runs 7] [--compare /work/main] [--home STORE] [--embedded-runs 3]
                                 [--out bench-results/startup.json]

Measures, for this tree and for every ``--compare`` tree (another checkout of fourfold, run with
its own code on ``PYTHONPATH``), interleaved run by run (A, B, A, B ...) so a busy machine
slows both alike:

* ``import Client``: seconds of ``from fourfold import Client`` inside a fresh interpreter;
* ``search --address``: wall seconds of ``python -m fourfold search --address ADDR --json QUERY``
  against a running coordinator (the whole process: interpreter, imports, one call, output);
* ``search, no server`` (``--embedded-runs`` > 0): wall seconds of the same search with no
  coordinator to ask, answered from ``$FOURFOLD_HOME`` (this tree: in process; an older tree may
  start a whole local cluster for the call);
* ``python -c pass``: the interpreter's own start, the floor under every number.

The coordinator is served by this tree's code, in this process, over the store given by
``--home`` (default: a small index of ``tests/fixtures/graph_multi`` built here, text, structural
and graph). Prints medians and writes every sample, the load average and the trees to JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "graph_multi"
IMPORT_PROBE = "import time; t = time.perf_counter(); from fourfold import Client; print(time.perf_counter() - t)"


def build_small_store(home: Path) -> None:
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    repos = [(FIXTURE / r, r) for r in ("alpha", "beta", "gamma")]
    build_generation(IndexStore(home), repos, modalities=["text", "structural", "graph"])


class Coordinator:
    """A coordinator's gRPC server over ``home``, searching in process, on its own thread and loop."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.address = ""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: Any = None

    async def _start(self) -> str:
        import grpc
        from grpc_health.v1 import health, health_pb2, health_pb2_grpc

        from fourfold.coordinator.engine import Engine
        from fourfold.coordinator.service import CoordinatorService
        from fourfold.index.store import IndexStore
        from fourfold.v1 import coordinator_pb2_grpc

        self._server = grpc.aio.server()
        coordinator_pb2_grpc.add_CoordinatorServicer_to_server(
            CoordinatorService(Engine(IndexStore(self.home))), self._server
        )
        servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(servicer, self._server)
        port = self._server.add_insecure_port("127.0.0.1:0")
        await self._server.start()
        await servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        return f"127.0.0.1:{port}"

    def __enter__(self) -> Coordinator:
        self._thread.start()
        self.address = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=60)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._server.stop(None), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)


def _env(tree: Path, home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "FOURFOLD_HOME": str(home), "RAY_DEDUP_LOGS": "0"}


def _wall(cmd: list[str], env: dict[str, str], timeout: float = 600) -> tuple[float, str]:
    t = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()[-2000:]}")
    return wall, out.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7, help="samples per measure and tree (default 7)")
    ap.add_argument("--compare", type=Path, action="append", default=[], metavar="TREE", help="another checkout")
    ap.add_argument("--home", type=Path, default=None, help="index store to search (default: a small one built here)")
    ap.add_argument("--query", default="who calls helper", help="the query every search asks")
    ap.add_argument("--embedded-runs", type=int, default=0, help="samples of the search with no server (default 0)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "startup.json")
    args = ap.parse_args(argv)

    home = args.home or Path(tempfile.mkdtemp(prefix="fourfold-startup-")) / "home"
    if args.home is None:
        build_small_store(home)
    trees = [ROOT, *(t.resolve() for t in args.compare)]
    py = sys.executable
    load_before = os.getloadavg()
    samples: dict[str, dict[str, list[float]]] = {str(t): {} for t in trees}

    def add(tree: Path, measure: str, value: float) -> None:
        samples[str(tree)].setdefault(measure, []).append(value)

    with Coordinator(home) as coordinator:
        for _ in range(args.runs):
            for tree in trees:
                env = _env(tree, home)
                add(tree, "python -c pass", _wall([py, "-c", "pass"], env)[0])
                add(tree, "import Client", float(_wall([py, "-c", IMPORT_PROBE], env)[1].strip()))
                wall, out = _wall(
                    [py, "-m", "fourfold", "search", "--address", coordinator.address, "--json", args.query], env
                )
                assert json.loads(out)["hits"], "the search found nothing: the numbers would not mean much"
                add(tree, "search --address", wall)
    for _ in range(args.embedded_runs):
        for tree in trees:
            env = {**_env(tree, home), "FOURFOLD_HOME": str(home)}
            # no --address: nothing answers at the default address, so the store is searched without a server
            add(tree, "search, no server", _wall([py, "-m", "fourfold", "search", "--json", args.query], env)[0])
    load_after = os.getloadavg()

    measures = list(next(iter(samples.values())))
    names = {str(t): ("this tree" if t == ROOT else t.name) for t in trees}
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; {args.runs} runs; medians in ms")
    print(f"{'measure':<20}" + "".join(f"{names[str(t)]:>14}" for t in trees))
    medians: dict[str, dict[str, float]] = {}
    for m in measures:
        row = {str(t): statistics.median(samples[str(t)][m]) * 1000 for t in trees if m in samples[str(t)]}
        medians[m] = row
        print(f"{m:<20}" + "".join(f"{row.get(str(t), float('nan')):>14.1f}" for t in trees))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "trees": {str(t): names[str(t)] for t in trees},
                "home": str(home),
                "query": args.query,
                "load_before": load_before,
                "load_after": load_after,
                "medians_ms": medians,
                "samples_s": samples,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
