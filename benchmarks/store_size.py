"""Store size benchmark: where the bytes of a store go, per indexed byte, and what reading segments costs.

    python benchmarks/store_size.py [--sets fleet100,stubs] [--baseline /path/to/other/checkout]
                                    [--rounds 5] [--out bench-results/store_size.json]

Two sets of real code, each built with text, structural and graph (no embeddings) in a fresh
store by a fresh process:

* ``fleet100``: the ``scale`` section's fleet of 100 small repositories (``benchmarks/fleet.py``:
  every source folder of the installed packages, at most 100 KB each);
* ``stubs``: stub-heavy code: mypy's typeshed and the installed ``*-stubs`` packages;
* ``site150``: the >= 150 MB corpus of ``benchmarks/text_vs_ripgrep.py`` (every installed package's
  sources, typeshed among them), one repository a package: the whole store at the size the text
  benchmark measures its shards.

For each set and each code tree (this one, and with ``--baseline`` another checkout, e.g. the
layout before a change) the table gives each component's bytes over the indexed bytes: the
segment databases, each modality's shards, the catalog (its per-file cache), the graph facts cache,
the manifests; hard-linked files are counted once. They are measured once the build's process has
exited (the store at rest); the JSON keeps what the build process saw too (``components_in_process``:
a write-ahead log not yet folded in). Then, interleaved over ``--rounds`` (A, B, A, B ...), medians of
the CPU milliseconds each read takes in its process (wall time on a shared machine measures the
neighbours):

* ``segment_rows``: 50 random segment ids looked up with their repositories (what the snippet and
  rerank steps ask), on a fresh reader (connections opened) and on a warm one;
* ``snippets``: the coordinator's snippet step over those 50 hits (``Engine._snippets``);
* ``read_file``: 20 files read back;
* ``stream``: every segment of the set read in order (what a shard build reads).

The load average is recorded before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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
MODALITIES = ["graph", "structural", "text"]
IGNORE = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", "*.pyd")


def make_set(name: str, dest: Path) -> list[tuple[Path, str]]:
    """The repositories of one set, copied under ``dest`` (name, path)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    if name == "fleet100":
        from fleet import make_fleet, scale_sources  # the scale section's fleet

        make_fleet(scale_sources(100), dest)
        return [(dest / n, n) for n in sorted(p.name for p in dest.iterdir())]
    if name == "stubs":
        out = []
        shutil.copytree(SITE / "mypy" / "typeshed", dest / "typeshed", ignore=IGNORE)
        out.append((dest / "typeshed", "typeshed"))
        for p in sorted(SITE.glob("*-stubs")):
            shutil.copytree(p, dest / p.name, ignore=IGNORE)
            out.append((dest / p.name, p.name))
        return out
    if name == "site150":
        from text_vs_ripgrep import make_corpus

        repos = make_corpus(dest, 150 << 20)
        return [(path, repo) for repo, path in sorted(repos.items())]
    raise SystemExit(f"unknown set {name!r}: use fleet100, stubs or site150")


def _bytes(paths: list[Path], seen: set[int]) -> int:
    """Bytes of the files under ``paths``, each inode counted once (carried files are hard links)."""
    total = 0
    for root in paths:
        files = [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file()]
        for f in files:
            st = f.stat()
            if st.st_ino not in seen:
                seen.add(st.st_ino)
                total += st.st_size
    return total


def components(home: Path) -> dict[str, int]:
    """Bytes of each part of a store: segments, each modality, catalog, manifests, the rest."""
    out: dict[str, int] = {}
    seen: set[int] = set()
    gens = sorted(p for p in (home / "generations").glob("g*") if p.is_dir())
    segs = [g / "segments" for g in gens if (g / "segments").is_dir()]
    segs += [g / "segments.sqlite" for g in gens if (g / "segments.sqlite").is_file()]
    out["segments"] = _bytes(segs, seen)
    for m in MODALITIES:
        out[m] = _bytes([g / m for g in gens if (g / m).is_dir()], seen)
    out["catalog"] = _bytes([p for p in home.glob("catalog.sqlite*")], seen)
    out["graph facts cache"] = _bytes([p for p in home.glob("cache/graph-facts*")], seen)
    out["manifests"] = _bytes([g / "manifest.json" for g in gens], seen)
    embeddings = _bytes([p for p in home.glob("cache/embeddings*")], seen)  # none built: not counted
    out["other"] = _bytes([home], seen)  # what is left: locks, ids, progress files
    out["total"] = sum(out.values())
    out["(embeddings, not counted)"] = embeddings
    return out


# -- steps run in a child process (argv: _child KIND JSON) ---------------------------------------


def child(kind: str, params: dict[str, Any]) -> dict[str, Any]:
    from fourfold.index.store import IndexStore

    home = Path(params["home"])
    store = IndexStore(home)
    if kind == "build":
        from fourfold.index.generation import build_generation

        repos = [(Path(p), n) for p, n in params["repos"]]
        t, cpu = time.perf_counter(), time.process_time()
        summary = build_generation(store, repos, modalities=MODALITIES)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return {
            "build_s": time.perf_counter() - t,
            "build_cpu_s": time.process_time() - cpu + children.ru_utime + children.ru_stime,
            "bytes": summary.bytes,
            "files": summary.files,
            "segments": summary.segments,
            "components": components(home),
        }
    if kind == "read":
        return reads(store, params["seed"])
    raise SystemExit(f"unknown step {kind}")


def reads(store: Any, seed: int) -> dict[str, float]:
    """Milliseconds of each read path on this store (one round)."""
    from fourfold.api import FusedHit
    from fourfold.coordinator.engine import Engine
    from fourfold.coordinator.files import read_file
    from fourfold.plugins.types import Hit

    rng = random.Random(seed)
    reader = store.require_live()
    t = time.process_time()
    every = list(reader.segments())
    stream_ms = (time.process_time() - t) * 1000
    picked = rng.sample(every, 50)
    ids, repos = [s.id for s in picked], [s.repo for s in picked]
    files = rng.sample(sorted({(s.repo, s.path) for s in every}), 20)
    hits = [
        FusedHit(Hit(s.id, s.repo, s.path, s.start_line, s.end_line, 1.0, match_lines=(s.start_line + 1,)), 1.0)
        for s in picked
    ]
    del every
    out: dict[str, float] = {"stream": stream_ms}
    fresh = store.reader(reader.name)
    t = time.process_time()
    rows = fresh.segment_rows(ids, repos=repos)
    out["segment_rows cold"] = (time.process_time() - t) * 1000
    assert len(rows) == 50
    warm = []
    for _ in range(5):
        t = time.process_time()
        fresh.segment_rows(ids, repos=repos)
        warm.append((time.process_time() - t) * 1000)
    out["segment_rows warm"] = statistics.median(warm)
    snip = []
    for _ in range(5):
        t = time.process_time()
        Engine._snippets(fresh, hits)
        snip.append((time.process_time() - t) * 1000)
    out["snippets"] = statistics.median(snip)
    t = time.process_time()
    for repo, path in files:
        read_file(fresh, repo, path)
    out["read_file x20"] = (time.process_time() - t) * 1000
    fresh.close()
    reader.close()
    return out


def run_child(code: Path, kind: str, params: dict[str, Any]) -> dict[str, Any]:
    return run_step(__file__, kind, params, code, params["home"])


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_child":
        print(json.dumps(child(sys.argv[2], json.loads(sys.argv[3]))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="fleet100,stubs", help="comma-separated: fleet100, stubs, site150 (>= 150 MB)")
    ap.add_argument("--baseline", type=Path, default=None, help="another checkout to compare with (its code)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-results" / "store_size.json")
    args = ap.parse_args()
    codes = {"this": ROOT}
    if args.baseline is not None:
        codes["baseline"] = args.baseline.resolve()
    load = [os.getloadavg()]
    results: dict[str, Any] = {"sets": {}, "codes": {k: str(v) for k, v in codes.items()}}
    with tempfile.TemporaryDirectory(prefix="fourfold-size-") as tmp:
        work = Path(tmp)
        for set_name in args.sets.split(","):
            repos = make_set(set_name, work / set_name / "src")
            entry: dict[str, Any] = {"builds": {}, "reads": {}}
            for label, code in codes.items():
                home = work / set_name / f"home-{label}"
                params = {"home": str(home), "repos": [(str(p), n) for p, n in repos]}
                entry["builds"][label] = b = run_child(code, "build", params)
                # the store at rest, its build process gone: what it held open (a write-ahead log) is folded in
                b["components_in_process"] = b["components"]
                b["components"] = components(home)
                print(
                    f"{set_name} [{label}]: {b['bytes'] / 1e6:.2f} MB indexed, {b['files']} files, "
                    f"{b['segments']} segments, built in {b['build_s']:.1f} s ({b['build_cpu_s']:.1f} CPU-s)",
                    flush=True,
                )
            rounds: dict[str, list[dict[str, float]]] = {label: [] for label in codes}
            for r in range(args.rounds):
                for label, code in codes.items():  # interleaved: A, B, A, B ...
                    home = str(work / set_name / f"home-{label}")
                    rounds[label].append(run_child(code, "read", {"home": home, "seed": r}))
            for label in codes:
                keys = rounds[label][0].keys()
                entry["reads"][label] = {k: statistics.median(x[k] for x in rounds[label]) for k in keys}
            results["sets"][set_name] = entry
    load.append(os.getloadavg())
    results["load"] = load
    report(results)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1))
    return 0


def report(results: dict[str, Any]) -> None:
    labels = list(results["codes"])
    for set_name, entry in results["sets"].items():
        print(f"\n## {set_name}: bytes / indexed bytes")
        print("| component | " + " | ".join(f"{label} MB | {label} ×" for label in labels) + " |")
        print("|---" * (1 + 2 * len(labels)) + "|")
        first = entry["builds"][labels[0]]["components"]
        for comp in first:
            cells = []
            for label in labels:
                b = entry["builds"][label]
                cells.append(f"{b['components'][comp] / 1e6:.2f} | {b['components'][comp] / b['bytes']:.2f}×")
            print(f"| {comp} | " + " | ".join(cells) + " |")
        print(f"\n## {set_name}: read paths, ms (medians of {len(entry['reads'][labels[0]])} keys)")
        print("| read | " + " | ".join(labels) + (" | ratio |" if len(labels) == 2 else " |"))
        print("|---" * (1 + len(labels) + (len(labels) == 2)) + "|")
        for key in entry["reads"][labels[0]]:
            vals = [entry["reads"][label][key] for label in labels]
            ratio = f" | {vals[0] / vals[1]:.2f} |" if len(vals) == 2 and vals[1] else " |"
            print(f"| {key} | " + " | ".join(f"{v:.2f}" for v in vals) + ratio)
    print(f"\nload average before / after: {results['load'][0]} / {results['load'][1]}")


if __name__ == "__main__":
    raise SystemExit(main())
