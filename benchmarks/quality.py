"""Quality benchmark: the development suites, per suite and per intent, fused and per modality.

    python benchmarks/quality.py [--dev ~/fourfold-dev] [--suite click --suite express] [--preset default]
                                 [--profile fitted] [--scope-to-suite] [--out bench-results/quality.json]

Indexes ``<dev>/corpora/<name>`` under the repository name ``<name>`` for every suite chosen (all
of ``<dev>/suites/*.jsonl`` by default) into a fresh FOURFOLD_HOME with an in-process build, starts
the embedded deployment (local Ray cluster, workers, coordinator's gRPC server) and runs each suite
through the gRPC API with :mod:`fourfold.coordinator.evaluate`, as ``fourfold eval`` does. Prints
the table and writes it, with the JSON numbers and the index summary, to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", type=Path, default=Path.home() / "fourfold-dev", help="folder with corpora/ and suites/")
    ap.add_argument("--suite", action="append", default=[], help="only this suite (repeatable; default: all)")
    ap.add_argument("--modality", action="append", default=[], help="score only this modality alone (repeatable)")
    ap.add_argument("--preset", default="default")
    ap.add_argument(
        "--profile", default="", help="weight profiles: fitted (the default: coordinator/fitted_profiles.json) or hand"
    )
    ap.add_argument("--out", type=Path, default=None, help="JSON report; the table goes next to it as .txt")
    ap.add_argument(
        "--negatives",
        type=Path,
        default=Path(__file__).resolve().parents[1] / "tests/fixtures/eval/negatives.jsonl",
        help="questions the corpora cannot answer: refusal rate on them against false refusals (the curve)",
    )
    ap.add_argument(
        "--scope-to-suite",
        action="store_true",
        help="ask each suite within its own repository (as `fourfold eval --scope-to-suite`): the corpora are "
        "indexed together, and a user working in one repository scopes to it",
    )
    ap.add_argument(
        "--home",
        type=Path,
        default=None,
        help="FOURFOLD_HOME to index into and keep; reused without re-indexing when it already holds every corpus",
    )
    args = ap.parse_args(argv)

    from fourfold.connection import WireClient
    from fourfold.coordinator import evaluate
    from fourfold.coordinator.profiles import DEFAULT_PROFILE
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    files = sorted((args.dev / "suites").glob("*.jsonl"))
    if args.suite:
        files = [f for f in files if f.stem in args.suite]
    if not files:
        print(f"no suites under {args.dev / 'suites'} match {args.suite or 'anything'}", file=sys.stderr)
        return 2
    suites = [(f.stem, evaluate.load_suite(f)) for f in files]
    repos = sorted({r.repo for _, queries in suites for q in queries for r in q.relevant})
    missing = [r for r in repos if not (args.dev / "corpora" / r).is_dir()]
    if missing:
        print(
            f"missing corpora {missing} under {args.dev / 'corpora'}: build them with shared/eval/dev_suites.sh",
            file=sys.stderr,
        )
        return 2

    home = args.home or Path(tempfile.mkdtemp(prefix="fourfold-quality-"))
    store = IndexStore(home)
    t = time.perf_counter()
    index: dict[str, object]
    if store.live_generation() and set(repos) <= {r.name for r in store.repos()}:
        index = {"generation": store.live_generation(), "reused": str(home)}
        print(f"reusing the index in {home} ({index['generation']})", file=sys.stderr)
    else:
        summary = build_generation(store, [(args.dev / "corpora" / r, r) for r in repos])
        index = {**summary.as_dict(), "wall_seconds": time.perf_counter() - t}
        print(
            f"indexed {', '.join(repos)}: {summary.files} files, {summary.segments} segments in "
            f"{index['wall_seconds']:.1f}s",
            file=sys.stderr,
        )

    rows: list[evaluate.Row] = []
    fused: list[evaluate.Outcome] = []
    negatives = evaluate.load_suite(args.negatives) if args.negatives and args.negatives.is_file() else []
    with EmbeddedServer(home) as embedded, WireClient(embedded.address) as client:
        modalities = args.modality or list(client.status().modalities)

        search = evaluate.scoped(client.search, profile=args.profile)
        for name, queries in suites:

            def progress(done: int, total: int, qid: str, name: str = name) -> None:
                if done == total or done % 50 == 0:
                    print(f"eval {name}: {done}/{total} searches ({qid})", file=sys.stderr, flush=True)

            suite_search = evaluate.scoped(
                client.search, profile=args.profile, repos=(name,) if args.scope_to_suite else ()
            )
            outcomes = evaluate.run_suite(suite_search, queries, modalities, preset=args.preset, progress=progress)
            rows.extend(evaluate.rows_for(name, outcomes))
            fused.extend(outcomes[evaluate.FUSED])
        refused = evaluate.run_suite(search, negatives, (), preset=args.preset)[evaluate.FUSED] if negatives else []
    table = evaluate.format_table(rows)
    curve = evaluate.refusal_curve(fused, refused, [t / 100 for t in range(20, 75, 5)])
    if negatives:
        answered = sum(1 for o in fused if evaluate.first_relevant_rank(o.query, o.hits, 10) is not None)
        table += (
            f"\n\nrefusal ({len(refused)} negatives, {answered} answered positives; engine threshold as shipped: "
            f"{sum(o.refused for o in refused)}/{len(refused)} negatives and "
            f"{sum(o.refused for o in fused)}/{len(fused)} positives refused)\n" + evaluate.format_curve(curve)
        )
    print(table)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        report = {
            "preset": args.preset,
            "profile": args.profile or DEFAULT_PROFILE,
            "scoped_to_suite": args.scope_to_suite,
            "modalities": modalities,
            "repos": repos,
            "index": index,
            "rows": evaluate.rows_to_json(rows),
            "refusal_curve": [asdict(p) for p in curve],
        }
        args.out.write_text(json.dumps(report, indent=2) + "\n")
        args.out.with_suffix(".txt").write_text(table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
