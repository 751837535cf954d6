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
* ``branch``: a second revision of pydantic sharing 95 % of its files, against the first's build.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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
        t = time.perf_counter()
        summary = build_generation(store, adds, modalities=modalities)
        out[label] = time.perf_counter() - t
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
    elif kind == "branch":
        first = copy_package("pydantic", work)
        timed("first branch", [(first, "pydantic")], ALL)
        second = work / "pydantic@feature"
        shutil.copytree(first, second)
        files = sorted(second.rglob("*.py"))
        for i, f in enumerate(files[: max(1, len(files) // 20)]):  # 5 % of the files differ
            f.write_text(f.read_text() + f"\n\ndef branch_only_{i}():\n    return {i}\n")
        timed("second branch (95 % shared)", [(second, "pydantic@feature")], ALL)
    out["rss_mb"] = rss_mb()
    return out


def run_child(code: Path, kind: str, params: dict[str, Any], work: str | None = None) -> dict[str, Any]:
    """Run one measurement in a fresh process with ``code`` on its path (in ``work``, else a temporary folder)."""
    if work is None:
        with tempfile.TemporaryDirectory(prefix="fourfold-fleet-") as tmp:
            return run_child(code, kind, params, tmp)
    env = {**os.environ, "PYTHONPATH": str(code), "FOURFOLD_HOME": str(Path(work) / "home")}
    proc = subprocess.run(
        [sys.executable, __file__, "_child", kind, json.dumps({**params, "work": work})],
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{kind} with {code} failed:\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


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
    ap.add_argument("--sections", default="update,fleet,branch")
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
        branch = [run_child(ROOT, "branch", {}) for _ in range(args.repeats)]
        results["branch"] = branch
        first, second = med(branch, "first branch"), med(branch, "second branch (95 % shared)")
        rows.append(("pydantic: first branch / second (95 % shared)", f"{first:.2f} s / {second:.2f} s", ""))
        rows[-1] = (rows[-1][0], rows[-1][1], f"{100 * second / first:.0f} %")

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


if __name__ == "__main__":
    sys.exit(main())
