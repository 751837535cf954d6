"""Fleet sync benchmark: one commit to one repository -> its answers live, as the fleet grows.

    python benchmarks/fleet_sync.py [--fleet 100,1000] [--repeats 3] [--modalities text,structural,graph]
                                    [--out bench-results/fleet-sync.json]

A fleet of N git repositories is made from real code on this machine: each installed package
with at most 300 KB of Python source becomes a work repository with a bare upstream (reached by
a ``file://`` URL, as a remote host would be); past the number of such packages, further
repositories are forks of them (clones of the same upstream under another name, sharing every
file). A fleet file lists them; ``fourfold sync`` mirrors, checks out and indexes them all.

Then, per repeat and per fleet size, interleaved: one commit is pushed to one repository (a
function added to one of its files) and ``sync --repo NAME`` runs, as a push webhook would
trigger it: fetch that one mirror, check out what moved, build, switch. Reported: the time until
the new generation is live (``IndexSummary.live_seconds`` plus the fetch before it), the whole
call, the shards rebuilt, and the peak RSS of that process; beside them, the same repository
synced alone into an empty store (its own build time and peak RSS), and the fleet's largest
repository synced alone (the reference of the peak RSS goal: an update at 1,000 repositories
within 2x of it). Every measurement runs in a fresh process; medians; the load average before and after.
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

from steps import run_step

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(sys.prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
EDITED = "click"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_ENV})


def packages(limit_bytes: int = 300_000) -> list[str]:
    """Installed packages with at most ``limit_bytes`` of Python source (``click`` first)."""
    out = []
    for p in sorted(SITE.iterdir()):
        if not p.is_dir() or not p.name.isidentifier() or p.name.startswith("_") or not any(p.glob("*.py")):
            continue
        if sum(f.stat().st_size for f in p.rglob("*.py")) <= limit_bytes:
            out.append(p.name)
    return [EDITED, *(p for p in out if p != EDITED)]


def make_upstreams(root: Path, n: int) -> list[tuple[str, Path]]:
    """``n`` (name, bare repository) pairs: packages, then forks of them."""
    base = packages()
    out: list[tuple[str, Path]] = []
    for i in range(n):
        pkg = base[i % len(base)]
        name = pkg if i < len(base) else f"{pkg}-fork{i // len(base)}"
        bare = root / "upstream" / f"{name}.git"
        if i < len(base):
            work = root / "work" / name
            shutil.copytree(SITE / pkg, work / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
            git("init", "-q", "-b", "main", cwd=work)
            git("add", "-A", cwd=work)
            git("commit", "-q", "-m", "import", cwd=work)
            git("clone", "-q", "--bare", str(work), str(bare), cwd=root)
            git("remote", "add", "origin", str(bare), cwd=work)
        else:  # a fork: the same history under another name
            git("clone", "-q", "--bare", str(root / "upstream" / f"{pkg}.git"), str(bare), cwd=root)
        out.append((name, bare))
    return out


def write_fleet(path: Path, upstreams: list[tuple[str, Path]]) -> None:
    lines = ["version: 1", "repositories:"]
    for name, bare in upstreams:
        lines += [f"  - name: {name}", f"    url: {bare.as_uri()}"]
    path.write_text("\n".join(lines) + "\n")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(kind: str, params: dict[str, Any]) -> dict[str, Any]:
    from fourfold.index.fleet import parse_fleet
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore
    from fourfold.index.sync import sync

    home = Path(params["home"])
    store = IndexStore(home)
    fleet = parse_fleet(Path(params["fleet"]).read_text())
    modalities = params["modalities"]

    def build(adds, options):  # type: ignore[no-untyped-def]
        return build_generation(store, adds, modalities=modalities, repo_options=options)

    out: dict[str, Any] = {}
    t = time.perf_counter()
    # "update": sync one repository, as a push webhook would
    report = sync(store, fleet, build) if kind == "init" else sync(store, fleet, build, only=[params["repo"]])
    out["seconds"] = time.perf_counter() - t
    summary = report.summary
    if summary is not None:
        out["build"] = summary.seconds
        out["live_in_build"] = summary.live_seconds
        out["shards"] = summary.shards
        out["built"] = summary.shards - summary.carried_shards
        out["changed"] = summary.changed_repos
    out["moved"] = sorted(report.moved)
    out["stale"] = sorted(report.stale)
    out["rss_mb"] = rss_mb()
    return out


def run_child(kind: str, params: dict[str, Any]) -> dict[str, Any]:
    return run_step(__file__, kind, params, ROOT, params["home"])


def push_edit(work: Path, tag: str) -> None:
    target = sorted((work / EDITED).rglob("*.py"))[0]
    target.write_text(target.read_text() + f"\n\ndef pushed_{tag}():\n    return {tag!r}\n")
    git("commit", "-qam", f"edit {tag}", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "_child":
        print(json.dumps(child(sys.argv[2], json.loads(sys.argv[3]))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fleet", default="100,1000", help="fleet sizes, comma-separated")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--modalities", default="text,structural,graph")
    ap.add_argument("--work", type=Path, default=None, help="keep the fleets here (default: a temporary folder)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "fleet-sync.json")
    ap.add_argument(
        "--reuse", action="store_true", help="--work holds the fleets and stores of a run: time updates only"
    )
    args = ap.parse_args(argv)
    sizes = [int(n) for n in args.fleet.split(",")]
    modalities = args.modalities.split(",")
    load = [os.getloadavg()]
    work = args.work or Path(tempfile.mkdtemp(prefix="fourfold-fleet-sync-"))
    results: dict[str, Any] = {"modalities": modalities, "sizes": sizes, "runs": {}}
    results["packages"] = len(packages())
    inits: dict[str, dict[str, Any]] = {}
    if args.reuse:
        inits = json.loads((work / "inits.json").read_text())
    else:
        made = make_upstreams(work, max(sizes))
        for n in sizes:
            write_fleet(work / f"fleet-{n}.yaml", made[:n])
            write_fleet(work / "fleet-alone.yaml", made[:1])
        for n in [*sizes, "alone"]:
            params = {"home": str(work / f"home-{n}"), "fleet": str(work / f"fleet-{n}.yaml"), "modalities": modalities}
            inits[str(n)] = run_child("init", params)
            print(f"initial sync of {n}: {inits[str(n)]['seconds']:.1f} s", flush=True)
        (work / "inits.json").write_text(json.dumps(inits))
    if "largest" not in inits:  # the peak RSS goal's reference: the fleet's largest repository synced alone
        made = {name: bare for name, bare in ((p.stem, p) for p in (work / "upstream").glob("*.git"))}
        biggest = max(packages(), key=lambda p: sum(f.stat().st_size for f in (SITE / p).rglob("*.py")))
        write_fleet(work / "fleet-largest.yaml", [(biggest, made[biggest])])
        params = {
            "home": str(work / "home-largest"),
            "fleet": str(work / "fleet-largest.yaml"),
            "modalities": modalities,
        }
        inits["largest"] = {**run_child("init", params), "name": biggest}
        (work / "inits.json").write_text(json.dumps(inits))
    results["init"] = inits
    runs: dict[str, list[dict[str, Any]]] = {str(n): [] for n in [*sizes, "alone"]}
    tag = f"{int(time.time())}"
    for i in range(args.repeats):
        push_edit(work / "work" / EDITED, f"r{i}_{tag}")
        for n in [*sizes, "alone"]:
            params = {
                "home": str(work / f"home-{n}"),
                "fleet": str(work / f"fleet-{n}.yaml"),
                "modalities": modalities,
                "repo": EDITED,
            }
            runs[str(n)].append(run_child("update", params))
    results["runs"] = runs
    load.append(os.getloadavg())
    results["load_average"] = load
    rows = []
    for key, rs in runs.items():
        label = "click alone" if key == "alone" else f"{key} repositories"

        def med(field: str, rs: list[dict[str, Any]] = rs) -> float:
            return statistics.median(r[field] for r in rs)

        rows.append(
            (
                label,
                f"{inits[key]['seconds']:.1f} s",
                f"{med('seconds'):.2f} s",
                f"{med('live_in_build'):.2f} s",
                f"{med('built'):.0f} of {med('shards'):.0f}",
                f"{med('rss_mb'):.0f} MB",
            )
        )
    results["rows"] = rows
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    largest = inits["largest"]
    rows.append(
        (
            f"{largest['name']} alone (the largest)",
            f"{largest['seconds']:.1f} s",
            "",
            "",
            "",
            f"{largest['rss_mb']:.0f} MB",
        )
    )
    header = ("fleet", "initial sync", "sync --repo click", "build -> live", "shards rebuilt", "peak RSS")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  ".join(str(c).rjust(w) for c, w in zip(r, widths, strict=True)))
    print(f"modalities {', '.join(modalities)}; {results['packages']} packages, forks beyond; repeats {args.repeats}")
    print(f"load average before/after: {load[0][0]:.1f} / {load[-1][0]:.1f} (2 cores)")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
