"""Fleet benchmark: what an update costs as the store grows.

    python benchmarks/fleet.py [--out bench-results/fleet.json] [--repeats 2] [--fleet 10,40] [--baseline PATH]

Repositories are installed packages' sources copied out of site-packages (real code). Every
measurement runs in a fresh process with a fresh store (peak RSS is that process's own), and the
variants run interleaved (A, B, A, B ...); the table gives medians and the load average.

* ``update``: a store of three repositories (requests, click, jinja2), then: nothing changed,
  a 3-file repository added, one file of one repository edited; and the 3-file repository alone.
  Run with this tree's code and, with ``--baseline``, with another checkout's (a store that
  rebuilds everything), side by side. Modalities text, structural and graph.
* ``fleet``: N repositories (one package each); one file of one repository edited -> new
  generation live, at each N in ``--fleet``, text and structural (the graph's partitions share one
  graph over all repositories, so with the graph the update cost still grows with the fleet:
  measured separately as ``fleet+graph``). Peak RSS of the update against a build of the largest
  repository alone.
* ``branch``: a second revision (``NAME@feature``) sharing 95 % of its files, built after the first
  in a process of its own, against the first's build (pydantic, pip; with and without the graph):
  wall and CPU time, CPU by stage, and the bytes its shards add to the disk.
* ``scale``: fleets of ``--scale`` repositories (100 and 1,000) of at most 100 KB each, made by
  splitting installed packages into one repository per source folder (a folder over 100 KB into
  several), text and structural, small repositories packed into compound shards. Initial build;
  one file of one repository edited -> new generation live (``--scale-repeats`` times, the fleet
  sizes interleaved) against that repository built alone; peak RSS of the update against a build
  of the fleet's largest repository alone; shards per modality and shards asked per search; search
  p50 in process (the engine over ``LocalSearcher``) and over gRPC against the embedded deployment
  (local Ray, workers, coordinator; one client, C=1), direct (``def NAME``, a literal) and fused.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from steps import run_step

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(sys.prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
THREE = ("requests", "click", "jinja2")
LIGHT = ["text", "structural"]
ALL = ["graph", "structural", "text"]


def copy_package(name: str, dest: Path) -> Path:
    """A repository made of one installed package's source files (no caches, no binaries)."""
    out = dest / name
    shutil.copytree(SITE / name, out, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    return out


def small_packages(limit_bytes: int = 1_000_000) -> list[str]:
    """Installed packages with at most ``limit_bytes`` of Python source, by name: the fleet's repositories."""
    out = []
    for p in sorted(SITE.iterdir()):
        if not p.is_dir() or not p.name.isidentifier() or p.name.startswith("_") or not any(p.glob("*.py")):
            continue
        if sum(f.stat().st_size for f in p.rglob("*.py")) <= limit_bytes:
            out.append(p.name)
    return out


def small_repo(dest: Path) -> Path:
    out = dest / "tiny"
    out.mkdir(parents=True)
    for i in range(3):
        (out / f"t{i}.py").write_text(f"def tiny_{i}(x):\n    return x + {i}\n")
    return out


def edit_one_file(repo: Path, tag: str) -> None:
    target = sorted(repo.rglob("*.py"))[0]
    target.write_text(target.read_text() + f"\n\ndef edited_{tag}():\n    return {tag!r}\n")


#: A scale fleet's repositories hold at most this many bytes of source each.
SCALE_REPO_BYTES = 100_000


def scale_sources(n: int) -> list[tuple[str, list[Path]]]:
    """``n`` repositories of real code, (name, files) each: every source folder of every installed
    package is one repository of its own ``.py`` files (a folder over ``SCALE_REPO_BYTES`` split
    into several by file, a larger file left out), taken in path order."""
    out: list[tuple[str, list[Path]]] = []
    for pkg in sorted(SITE.iterdir()):
        if not pkg.is_dir() or not pkg.name.isidentifier() or pkg.name.startswith("_"):
            continue
        for folder, dirs, names in os.walk(pkg):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            files = [Path(folder) / f for f in sorted(names) if f.endswith(".py")]
            chunk: list[Path] = []
            size = 0
            chunks: list[list[Path]] = []
            for f in files:
                b = f.stat().st_size
                if b > SCALE_REPO_BYTES:
                    continue
                if chunk and size + b > SCALE_REPO_BYTES:
                    chunks.append(chunk)
                    chunk, size = [], 0
                chunk.append(f)
                size += b
            if chunk:
                chunks.append(chunk)
            base = str(Path(folder).relative_to(SITE)).replace("/", "-").replace("~", "-")[:90]
            for i, c in enumerate(chunks):
                out.append((f"{base}-{i}" if len(chunks) > 1 else base, c))
                if len(out) == n:
                    return out
    raise SystemExit(f"only {len(out)} source folders under {SITE}; the scale section needs {n}")


def make_fleet(sources: list[tuple[str, list[Path]]], dest: Path) -> None:
    """Copy each repository's files into ``dest/<name>`` (copies: the edits must not reach site-packages)."""
    for name, files in sources:
        repo = dest / name
        repo.mkdir(parents=True)
        for f in files:
            shutil.copyfile(f, repo / f.name)


def cpu_seconds() -> float:
    """CPU of this process and of its children that ended (the segmenter's pool ends with a build)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- steps run in a child process (argv: _child KIND JSON) ---------------------------------------


def child(kind: str, params: dict[str, Any]) -> dict[str, Any]:
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    work = Path(params["work"])
    store = IndexStore(work / "home")
    out: dict[str, Any] = {}

    def timed(label: str, adds: list[tuple[Path, str]], modalities: list[str]) -> None:
        t, cpu = time.perf_counter(), cpu_seconds()
        summary = build_generation(store, adds, modalities=modalities)
        out[label] = time.perf_counter() - t
        out[f"{label}: cpu"] = cpu_seconds() - cpu  # with the segmenter's worker processes
        out[f"{label}: shards built"] = summary.shards - summary.carried_shards
        out[f"{label}: live"] = summary.live_seconds  # the new generation answers from here on

    if kind == "update":
        repos = [(copy_package(n, work), n) for n in THREE]
        timed("initial (3 repositories)", repos, ALL)
        timed("nothing changed", [], ALL)
        timed("add a 3-file repository", [(small_repo(work), "tiny")], ALL)
        edit_one_file(work / "click", "u")
        timed("edit one file of click", [], ALL)
    elif kind == "alone":
        timed("3-file repository alone", [(small_repo(work), "tiny")], ALL)
    elif kind == "fleet-init":
        names = params["names"]
        t = time.perf_counter()
        build_generation(store, [(copy_package(n, work), n) for n in names], modalities=params["modalities"])
        out["initial"] = time.perf_counter() - t
    elif kind == "fleet-update":  # a fresh process: its peak RSS is the update's own
        edit_one_file(work / params["edit"], "f")
        timed("update", [], params["modalities"])
    elif kind == "largest":
        t = time.perf_counter()
        build_generation(store, [(copy_package(params["name"], work), params["name"])], modalities=params["modalities"])
        out["build"] = time.perf_counter() - t
        edit_one_file(work / params["name"], "l")
        timed("update", [], params["modalities"])
    elif kind.startswith("branch-"):  # each branch's build in a process of its own, as two syncs are
        out.update(branch_child(kind, params, store, work, timed))
    elif kind.startswith("scale-"):
        out.update(scale_child(kind, params, store, work))
    out["rss_mb"] = rss_mb()
    return out


def branch_child(kind: str, params: dict[str, Any], store: Any, work: Path, timed: Any) -> dict[str, Any]:
    """One branch's build. The plugins are loaded first and timed apart (``load``): a serving process
    (``serve --sync-interval``) loads them once, a ``fourfold sync`` command pays them each time."""
    from fourfold.plugins.manager import get_registry

    out: dict[str, Any] = {}
    t = time.perf_counter()
    get_registry()
    out["load"] = time.perf_counter() - t
    package = params["package"]
    if kind == "branch-first":
        timed("build", [(copy_package(package, work), package)], params["modalities"])
    else:
        second = work / f"{package}@feature"
        shutil.copytree(work / package, second)
        files = sorted(second.rglob("*.py"))
        for i, f in enumerate(files[: max(1, len(files) // 20)]):  # 5 % of the files differ
            f.write_text(f.read_text() + f"\n\ndef branch_only_{i}():\n    return {i}\n")
        timed("build", [(second, second.name)], params["modalities"])
        live = store.require_live()
        out["own bytes"] = sum(own_bytes(live.shard_dir(s)) for s in live.shards() if s.repos == (second.name,))
        out["base bytes"] = sum(all_bytes(live.shard_dir(s)) for s in live.shards() if s.repos == (package,))
    out["stages"] = build_stages(store)
    return out


def build_stages(store: Any) -> dict[str, float]:
    """CPU seconds by stage of the live generation's build (``IndexSummary.stages``)."""
    summary = store.require_live().manifest["summary"]
    return {k: v["cpu_seconds"] for k, v in summary.get("stages", {}).items()}


def all_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def own_bytes(folder: Path) -> int:
    """Bytes of the files under ``folder`` that no other link shares (what the folder adds to the disk)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and p.stat().st_nlink == 1)


def scale_child(kind: str, params: dict[str, Any], store: Any, work: Path) -> dict[str, Any]:
    """One step of the ``scale`` section in this (fresh) process."""
    from fourfold.index.generation import build_generation

    out: dict[str, Any] = {}
    fleet = work / "fleet"
    if kind == "scale-init":
        t = time.perf_counter()
        summary = build_generation(
            store,
            [(fleet / n, n) for n in sorted(p.name for p in fleet.iterdir())],
            modalities=LIGHT,
            settings=params["settings"],
        )
        out["initial"] = time.perf_counter() - t
        out["bytes"] = summary.bytes
        out["files"] = summary.files
    elif kind == "scale-update":
        edit_one_file(fleet / params["edit"], params["tag"])
        t = time.perf_counter()
        summary = build_generation(store, [], modalities=LIGHT, settings=params["settings"])
        out["update"] = time.perf_counter() - t
        out["changed"] = summary.changed_repos
        out["carried"] = summary.carried_shards
    elif kind == "scale-alone":
        t = time.perf_counter()
        build_generation(store, [(fleet / params["name"], params["name"])], modalities=LIGHT)
        out["build"] = time.perf_counter() - t
    elif kind == "scale-query":
        out.update(engine_queries(store, params["queries"]))
    elif kind == "scale-serve":
        out.update(served_queries(store, params["queries"]))
    live = store.require_live()
    out["shards"] = {m: len(live.shards(m)) for m in LIGHT}
    out["compound_shards"] = {m: sum(s.shard.startswith("~c-") for s in live.shards(m)) for m in LIGHT}
    return out


def scale_queries(store: Any, count: int) -> dict[str, list[dict[str, Any]]]:
    """Direct queries (``def NAME`` of the fleet's functions, quoted literals) and fused questions."""
    symbols = sorted(
        {s.symbol for s in store.require_live().segments() if s.symbol and s.kind == "function" and len(s.symbol) > 6}
    )
    step = max(1, len(symbols) // count)
    picked = symbols[::step][:count]
    questions = [
        "how is the configuration loaded",
        "how are errors retried after a timeout",
        "parse command line arguments",
        "where is the cache invalidated",
        "how does the connection pool close sockets",
    ]
    return {
        "direct def": [{"query": f"def {s}", "k": 10} for s in picked],
        "direct literal": [{"query": f'"{s}("', "k": 10} for s in picked],
        "fused": [{"query": questions[i % len(questions)], "k": 10} for i in range(count)],
    }


def engine_queries(store: Any, count: int) -> dict[str, Any]:
    """p50 of each kind of query through the engine over ``LocalSearcher``, and the shards it asks."""
    import asyncio

    from fourfold.api import SearchParams
    from fourfold.coordinator.engine import Engine
    from fourfold.coordinator.searcher import LocalSearcher

    asked: list[int] = []

    class Counting(LocalSearcher):
        async def search(self, generation: str, shards: Any, query: Any, deadline: float) -> Any:
            asked.append(len(shards))
            return await super().search(generation, shards, query, deadline)

    engine = Engine(store, Counting(store))
    out: dict[str, Any] = {}

    async def run() -> None:
        try:
            for kind, queries in scale_queries(store, count).items():
                for q in queries[:3]:
                    await engine.search(SearchParams(**q))  # warm-up: shards load on first use
                asked.clear()
                times, strategies = [], set()
                for q in queries:
                    t = time.perf_counter()
                    a = await engine.search(SearchParams(**q))
                    times.append((time.perf_counter() - t) * 1000)
                    strategies.add(a.fusion_strategy)
                out[kind] = {
                    "p50_ms": statistics.median(times),
                    "strategy": sorted(strategies),
                    "shards_asked_max": max(asked),
                    "shards_asked_median": statistics.median(asked),
                }
        finally:
            await engine.stop()

    asyncio.run(run())
    return out


def served_queries(store: Any, count: int) -> dict[str, Any]:
    """p50 of each kind of query over gRPC (one client, C=1) against the embedded deployment."""
    from fourfold.api import SearchParams
    from fourfold.connection import WireClient
    from fourfold.coordinator.serving import EmbeddedServer

    out: dict[str, Any] = {}
    t = time.perf_counter()
    with EmbeddedServer(store.home) as server, WireClient(server.address) as client:
        out["serve_start_s"] = time.perf_counter() - t
        for kind, queries in scale_queries(store, count).items():
            for q in queries[:3]:
                client.search(SearchParams(**q))
            times, strategies = [], set()
            for q in queries:
                t = time.perf_counter()
                r = client.search(SearchParams(**q))
                times.append((time.perf_counter() - t) * 1000)
                strategies.add(r.fusion_strategy)
            out[kind] = {"p50_ms": statistics.median(times), "strategy": sorted(strategies)}
    return out


def run_child(code: Path, kind: str, params: dict[str, Any], work: str | None = None) -> dict[str, Any]:
    """Run one measurement in a fresh process with ``code`` on its path (in ``work``, else a temporary folder)."""
    if work is None:
        with tempfile.TemporaryDirectory(prefix="fourfold-fleet-") as tmp:
            return run_child(code, kind, params, tmp)
    # scale-serve: a local cluster of its own, for this one measurement
    env = {"RAY_AUTH_MODE": "disabled"} if kind == "scale-serve" else {}
    return run_step(__file__, kind, {**params, "work": work}, code, str(Path(work) / "home"), env)


def med(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "_child":
        print(json.dumps(child(sys.argv[2], json.loads(sys.argv[3]))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "fleet.json")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--fleet", default="20,90", help="fleet sizes (repositories), comma-separated")
    ap.add_argument("--baseline", type=Path, default=None, help="another checkout to compare the update with")
    ap.add_argument("--sections", default="update,fleet,branch", help="any of update,fleet,branch,scale")
    ap.add_argument("--scale", default="100,1000", help="the scale section's fleet sizes")
    ap.add_argument("--branch-packages", default="pydantic,pip", help="the branch section's repositories")
    ap.add_argument("--scale-repeats", type=int, default=3)
    ap.add_argument("--scale-queries", type=int, default=30, help="queries of each kind per measurement")
    ap.add_argument("--scale-serve", default="100,1000", help="fleet sizes also measured over gRPC")
    ap.add_argument("--scale-baseline", default="1000", help="fleet sizes also built with one shard per repository")
    ap.add_argument(
        "--fleet-kinds", default="light,all", help="fleet modalities: light (text+structural), all (+graph)"
    )
    args = ap.parse_args(argv)
    sections = set(args.sections.split(","))
    load = [os.getloadavg()]
    results: dict[str, Any] = {"repeats": args.repeats}
    rows: list[tuple[str, str, str]] = []

    if "update" in sections:
        codes = {"this tree": ROOT, **({"baseline": args.baseline} if args.baseline else {})}
        runs: dict[str, list[dict[str, Any]]] = {k: [] for k in codes}
        alone: list[dict[str, Any]] = []
        for _ in range(args.repeats):
            for label, code in codes.items():
                runs[label].append(run_child(code, "update", {}))
            alone.append(run_child(ROOT, "alone", {}))
        results["update"] = {**runs, "alone": alone}
        for step in (
            "initial (3 repositories)",
            "nothing changed",
            "add a 3-file repository",
            "edit one file of click",
        ):
            rows.append((step, *(f"{med(runs[k], step):.2f} s" for k in codes)))
        rows.append(("3-file repository alone", f"{med(alone, '3-file repository alone'):.2f} s", ""))

    if "fleet" in sections:
        sizes = [int(n) for n in args.fleet.split(",")]
        edit = "click"
        packages = [p for p in small_packages() if p != edit]
        fleet_runs: dict[str, list[dict[str, Any]]] = {}
        for _ in range(args.repeats):
            for n in sizes:
                names = sorted({edit, *packages[: n - 1]})
                kinds = {"light": (LIGHT, "text+structural"), "all": (ALL, "text+structural+graph")}
                for mods, tag in (kinds[k] for k in args.fleet_kinds.split(",")):
                    with tempfile.TemporaryDirectory(prefix="fourfold-fleet-") as work:
                        init = run_child(ROOT, "fleet-init", {"names": names, "modalities": mods}, work)
                        upd = run_child(ROOT, "fleet-update", {"edit": edit, "modalities": mods}, work)
                    fleet_runs.setdefault(f"{n} repositories, {tag}", []).append(
                        {
                            **init,
                            "update": upd["update"],
                            "rss_update_mb": upd["rss_mb"],
                            "built": upd["update: shards built"],
                            "live": upd["update: live"],
                        }
                    )
            fleet_runs.setdefault("largest", []).append(
                run_child(ROOT, "largest", {"name": "aiohttp", "modalities": LIGHT})
            )
        results["fleet"] = fleet_runs
        for key, rs in fleet_runs.items():
            if key == "largest":
                rows.append(
                    (
                        "aiohttp alone (text+structural): build / one edit -> live / peak RSS",
                        f"{med(rs, 'build'):.2f} s / {med(rs, 'update'):.2f} s",
                        f"{med(rs, 'rss_mb'):.0f} MB",
                    )
                )
                continue
            rows.append(
                (
                    f"{key}: initial build / one edit -> live (whole call; shards rebuilt) / peak RSS of the update",
                    f"{med(rs, 'initial'):.1f} s / {med(rs, 'live'):.2f} s "
                    f"({med(rs, 'update'):.2f} s; {med(rs, 'built'):.0f})",
                    f"{med(rs, 'rss_update_mb'):.0f} MB",
                )
            )

    if "branch" in sections:
        results["branch"] = branch_section(args, rows)

    if "scale" in sections:
        results["scale"] = scale_section(args, rows, load)
    load.append(os.getloadavg())
    results["load_average"] = load
    results["rows"] = rows
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    width = max(len(r[0]) for r in rows) if rows else 10
    for r in rows:
        print(f"{r[0]:<{width}}  " + "  ".join(f"{c:>22}" for c in r[1:]))
    print(f"load average before/after: {load[0][0]:.1f} / {load[-1][0]:.1f} (2 cores)")
    return 0


def branch_section(args: argparse.Namespace, rows: list[tuple[str, str, str]]) -> dict[str, Any]:
    """A second branch sharing 95 % of its files, built after the first in a new process (as a sync
    after a push is), against the first's build: wall time, CPU by stage, and the bytes its shards
    add to the disk (hard-linked files shared with the first not counted)."""
    kinds = {"text+structural": LIGHT, "text+structural+graph": ALL}
    runs: dict[str, list[dict[str, Any]]] = {}
    for _ in range(args.repeats):
        for package in args.branch_packages.split(","):
            for tag, mods in kinds.items():
                with tempfile.TemporaryDirectory(prefix="fourfold-branch-") as work:
                    params = {"package": package, "modalities": mods}
                    first = run_child(ROOT, "branch-first", params, work)
                    second = run_child(ROOT, "branch-second", params, work)
                runs.setdefault(f"{package}, {tag}", []).append({"first": first, "second": second})
    out: dict[str, Any] = {}
    for key, rs in runs.items():
        first_s = statistics.median(r["first"]["build"] for r in rs)
        second_s = statistics.median(r["second"]["build"] for r in rs)
        first_cpu = statistics.median(r["first"]["build: cpu"] for r in rs)
        second_cpu = statistics.median(r["second"]["build: cpu"] for r in rs)
        stages = {
            k: statistics.median(r["second"]["stages"].get(k, 0.0) for r in rs) for k in rs[0]["second"]["stages"]
        }
        top = ", ".join(f"{k} {v:.2f}" for k, v in sorted(stages.items(), key=lambda kv: -kv[1])[:4])
        load = statistics.median(r[which]["load"] for r in rs for which in ("first", "second"))
        own = statistics.median(r["second"]["own bytes"] for r in rs) / 1e6
        base = statistics.median(r["second"]["base bytes"] for r in rs) / 1e6
        rows.append(
            (
                f"{key}: first / second branch (95 % shared): wall, CPU; second's CPU by stage",
                f"{first_s:.2f} / {second_s:.2f} s ({100 * second_s / first_s:.0f} %), "
                f"{first_cpu:.2f} / {second_cpu:.2f} cpu-s ({100 * second_cpu / first_cpu:.0f} %); "
                f"with the plugins' loading ({load:.2f} s) in each: "
                f"{100 * (second_s + load) / (first_s + load):.0f} %",
                f"{top}; shards {own:.2f} MB new vs {base:.2f} MB",
            )
        )
        out[key] = {"runs": rs, "first_s": first_s, "second_s": second_s, "first_cpu": first_cpu, "load_s": load}
    return out


def scale_section(args: argparse.Namespace, rows: list[tuple[str, str, str]], load: list[Any]) -> dict[str, Any]:
    """The ``scale`` section: builds, interleaved updates, memory, shards and search latency per fleet size
    (and, for the sizes in ``--scale-baseline``, the same fleet with one shard per repository)."""
    sizes = [int(n) for n in args.scale.split(",")]
    sources = scale_sources(max(sizes))
    edit = sources[0][0]  # in every fleet
    largest = max(sources, key=lambda s: sum(f.stat().st_size for f in s[1]))[0]
    variants: dict[str, tuple[int, dict[str, str]]] = {str(n): (n, {}) for n in sizes}
    for n in (int(x) for x in args.scale_baseline.split(",") if x):
        variants[f"{n} one shard per repository"] = (n, {"compound.below": "0"})
    serve = {int(x) for x in args.scale_serve.split(",") if x}
    out: dict[str, Any] = {"sizes": sizes, "edited": edit, "largest": largest, "fleet": {}}
    works: dict[str, Path] = {}
    try:
        for label, (n, settings) in variants.items():
            works[label] = Path(tempfile.mkdtemp(prefix=f"fourfold-scale-{n}-"))
            make_fleet(sources[:: len(sources) // n][:n], works[label] / "fleet")  # spread over the largest fleet
            init = run_child(ROOT, "scale-init", {"settings": settings}, str(works[label]))
            out["fleet"][label] = {"init": init, "updates": []}
            print(f"scale {label}: built in {init['initial']:.1f} s, shards {init['shards']}", flush=True)
        for r in range(args.scale_repeats):
            for label, (_, settings) in variants.items():  # interleaved: 100, 1000, 100, 1000 ...
                params = {"edit": edit, "tag": f"s{r}", "settings": settings}
                upd = run_child(ROOT, "scale-update", params, str(works[label]))
                out["fleet"][label]["updates"].append(upd)
                print(f"scale {label}: edit {r + 1}: {upd['update']:.2f} s", flush=True)
        alone: dict[str, list[dict[str, Any]]] = {"edited": [], "largest": []}
        for _ in range(args.scale_repeats):
            for which, name in (("edited", edit), ("largest", largest)):
                with tempfile.TemporaryDirectory(prefix="fourfold-scale-alone-") as tmp:
                    make_fleet([s for s in sources if s[0] == name], Path(tmp) / "fleet")
                    alone[which].append(run_child(ROOT, "scale-alone", {"name": name}, tmp))
        out["alone"] = alone
        for label, (_, settings) in variants.items():
            count = min(args.scale_queries, 10) if settings else args.scale_queries  # the baseline is slow
            query = run_child(ROOT, "scale-query", {"queries": count}, str(works[label]))
            out["fleet"][label]["query"] = query
            print(f"scale {label}: in-process queries {query}", flush=True)
        for label, (n, settings) in variants.items():
            if n in serve and not settings:
                wire = run_child(ROOT, "scale-serve", {"queries": args.scale_queries}, str(works[label]))
                out["fleet"][label]["serve"] = wire
                print(f"scale {label}: gRPC queries {wire}", flush=True)
            load.append(os.getloadavg())
    finally:
        for w in works.values():
            shutil.rmtree(w, ignore_errors=True)
    edited_alone = statistics.median(a["build"] for a in alone["edited"])
    largest_rss = statistics.median(a["rss_mb"] for a in alone["largest"])
    out["edited_alone_s"] = edited_alone
    out["largest_alone_rss_mb"] = largest_rss
    for label in variants:
        f = out["fleet"][label]
        upd = statistics.median(u["update"] for u in f["updates"])
        rss = statistics.median(u["rss_mb"] for u in f["updates"])
        init = f["init"]
        rows.append(
            (
                f"scale {label} ({init['bytes'] / 1e6:.1f} MB): initial build / shards per modality",
                f"{init['initial']:.1f} s",
                " / ".join(f"{m} {init['shards'][m]} ({init['compound_shards'][m]} compound)" for m in LIGHT),
            )
        )
        rows.append(
            (
                f"scale {label}: one edit -> live (median of {len(f['updates'])}) / the repository alone",
                f"{upd:.2f} s / {edited_alone:.2f} s",
                f"+{upd - edited_alone:.2f} s",
            )
        )
        rows.append(
            (
                f"scale {label}: peak RSS of the update / largest repository ({largest}) alone",
                f"{rss:.0f} MB / {largest_rss:.0f} MB",
                f"{rss / largest_rss:.2f}x",
            )
        )
        for kind, q in f["query"].items():
            if not isinstance(q, dict) or "p50_ms" not in q:
                continue
            wire = f.get("serve", {}).get(kind, {})
            rows.append(
                (
                    f"scale {label}: {kind} p50 in process / gRPC C=1; shards asked (max)",
                    f"{q['p50_ms']:.1f} ms / " + (f"{wire['p50_ms']:.1f} ms" if wire else "-"),
                    f"{q['shards_asked_max']} shards ({','.join(q['strategy'])})",
                )
            )
    return out


if __name__ == "__main__":
    sys.exit(main())
