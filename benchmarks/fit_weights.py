"""Fit the per-intent weight profiles on the development suites and check them on held-out queries.

    python benchmarks/fit_weights.py --home /tmp/qhome [--dev ~/fourfold-dev] [--suite click ...]
                                     [--runs bench-results/fit_runs.json] [--out coordinator/fitted_profiles.json]

Step 1 (online, once): every suite query is asked of each modality alone through the gRPC API, with
the intent the coordinator would classify it as, and the ranked (repo, path, lines, segment id,
centrality) lists, every segment of a file, are kept in ``--runs`` (reused when present, so refitting needs no server).

Step 2 (offline): for every weight vector of a grid, each query is answered again as the engine's
``plan()`` would with that profile under the default preset (the direct path for a confident
classification, else the top three modalities fused with :func:`fourfold.coordinator.fusion.fuse`),
and per classified intent the vector with the best MRR@10 wins (ties: the one closest to the
hand-set profile). Queries are split in two halves by a hash of their id: the profile is fitted on
one half and scored on the other, so the gain reported is not a memorised one.

The fusion method is fitted with the weights: reciprocal rank (``rrf``) or the weighted sum of each
list's z-scores (``zscore``, which needs the modalities' own scores: runs asked by this script or by
``benchmarks/fusion_check.py --raw`` carry them). The code-first demotion (``coordinator/code_first.py``)
is applied as the engine applies it. ``--intent`` refits only those intents and keeps the others'
entries of ``--out`` as they are (their suites need not be at hand). The grid does not fit the lexical
share of a z-score intent (``fusion.LexicalShare``: text and semantic sharing their weight per query,
chosen afterwards on exact replays of the engine's own fusion inputs, docs/quality.md); a refit keeps
the entry ``--out`` has, and its replays fuse without it.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import itertools
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fourfold.coordinator import code_first, evaluate
from fourfold.coordinator.fusion import FURTHER_SEGMENT, fuse
from fourfold.coordinator.profiles import PRESETS, default_profiles, dominant, goes_direct, top_modalities
from fourfold.plugins.types import Hit

MODALITIES = ("semantic", "text", "structural", "graph")
#: Each weight is one of these before normalising.
GRID_VALUES = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
#: The centrality boost's scale is fitted too, as this pseudo-modality: the original boost (1) or none (0).
CENTRALITY = "_centrality"
CENTRALITY_VALUES = (1.0, 0.0)
#: The fusion method rides along as this pseudo-modality: 0 = rrf, 1 = zscore.
METHOD = "_zscore"
METHOD_VALUES = (0.0, 1.0)
#: Each modality is asked for this many hits; the engine itself merges at most ``DEPTH`` per modality for k=10.
ASK_K = 40
DEPTH = 30
#: The raw lists are each modality's own order, every segment, as the engine fuses them: a list of each
#: file's best segment replays a different answer wherever two modalities' best segments of a file
#: differ, and a list the code-first demotion reordered loses, past its depth, the documentation hits
#: the engine fuses (the replay applies the demotion and keeps each file's best itself).
RAW_OPTIONS = {"segments": "all", "code_first": "off"}
MRR_K = 10


@dataclass(frozen=True, slots=True)
class Asked:
    """One suite query with its classification and each modality's own ranked answer."""

    suite: str
    query: evaluate.EvalQuery
    intent: str
    confidence: float
    ranked: Mapping[str, tuple[Hit, ...]]


@dataclass(frozen=True, slots=True)
class Score:
    """MRR@10 and success@1 of a set of queries under one profile."""

    n: int
    mrr_at_10: float
    success_at_1: float


def fit_half(query_id: str) -> bool:
    """True for the half the profiles are fitted on; the other half is held out (stable across runs)."""
    return hashlib.sha1(query_id.encode()).digest()[0] % 2 == 0


def weight_grid(
    modalities: Sequence[str] = MODALITIES, values: Sequence[float] = GRID_VALUES
) -> list[dict[str, float]]:
    """Every non-zero combination of ``values`` over ``modalities``, normalised to sum 1, without duplicates."""
    seen: set[tuple[float, ...]] = set()
    out: list[dict[str, float]] = []
    for combo in itertools.product(values, repeat=len(modalities)):
        total = sum(combo)
        if total <= 0:
            continue
        normal = tuple(round(w / total, 4) for w in combo)
        if normal not in seen:
            seen.add(normal)
            out.append(dict(zip(modalities, normal, strict=True)))
    return out


#: What one answer depends on: the direct path's modality, or the fused modalities with their weights
#: (normalised for reciprocal rank fusion, whose order does not depend on their scale).
PlanKey = tuple[tuple[str, float], ...]


def plan_key(profile: Mapping[str, float], a: Asked) -> PlanKey:
    """How the engine's ``plan()`` would run ``a`` with ``profile`` under the default preset.

    Reciprocal rank fusion's order does not change when every weight is scaled alike, so its weights
    are normalised and two profiles with the same key give the same answer: the fit fuses once per
    key, not once per grid vector. z-score fusion's does (``exp(Σ w·z)`` against the centrality boost
    and the demotions), so its weights stay as the engine uses them: the profile's own, of the top
    modalities, not normalised again after the others are left out.
    """
    usable = {m: w for m, w in profile.items() if m in a.ranked and w > 0}
    if not usable:
        return ()
    if goes_direct(a.intent, a.confidence):
        return ((dominant(usable), 0.0),)  # the direct path: the dominant modality's own order
    chosen = top_modalities(usable, PRESETS["default"].modalities)
    total = 1.0 if profile.get(METHOD, 0.0) else sum(usable[m] for m in chosen)
    # the centrality boost's scale and the method ride along as pseudo-modalities (they change the fused order)
    return (
        *((m, round(usable[m] / total, 4)) for m in chosen),
        (CENTRALITY, profile.get(CENTRALITY, 1.0)),
        (METHOD, profile.get(METHOD, 0.0)),
    )


def answer(key: PlanKey, a: Asked) -> list[Hit]:
    """The top hits the engine would return for ``a`` when planned as ``key``."""
    rrf_k = PRESETS["default"].rrf_k
    per_file = a.intent != "impact_analysis"  # as the engine: each dependent is its own answer
    # as the engine for a prose route: a file's next answers too (a route the engine hedges as prose is replayed
    # as its classified intent, here as for its weights)
    further = FURTHER_SEGMENT if a.intent == "understand_code" else 0.0
    demote = code_first.demoted_kinds(a.query.query) if a.intent in code_first.INTENTS else frozenset()
    if not key:
        return []
    if key[0][1] == 0.0:
        top = key[0][0]
        fused = fuse(
            {top: a.ranked[top][:DEPTH]},
            {top: 1.0},
            rrf_k,
            use_centrality=False,
            per_file=per_file,
            further=further,
            demote_kinds=demote,
        )
    else:
        weights = {m: w for m, w in key if m not in (CENTRALITY, METHOD)}
        scale = dict(key).get(CENTRALITY, 1.0)
        method = "zscore" if dict(key).get(METHOD, 0.0) else "rrf"
        fused = fuse(
            {m: a.ranked[m][:DEPTH] for m in weights},
            weights,
            rrf_k,
            per_file=per_file,
            further=further,
            centrality_scale=scale,
            method=method,
            demote_kinds=demote,
        )
    return [f.hit for f in fused[:MRR_K]]


def reciprocal_rank(
    profile: Mapping[str, float], a: Asked, memo: dict[tuple[str, str, PlanKey], float] | None = None
) -> float:
    """1/rank of the first relevant hit in the top 10 (0 for a miss); ``memo`` keeps one fusion per plan."""
    key = plan_key(profile, a)
    cached = memo.get((a.suite, a.query.id, key)) if memo is not None else None
    if cached is not None:
        return cached
    hits = [evaluate.HitSpan(h.repo, h.path, h.start_line, h.end_line, h.match_lines) for h in answer(key, a)]
    rank = evaluate.first_relevant_rank(a.query, hits, MRR_K)
    rr = 1.0 / rank if rank else 0.0
    if memo is not None:
        memo[(a.suite, a.query.id, key)] = rr
    return rr


def score(
    profile: Mapping[str, float], asked: Sequence[Asked], memo: dict[tuple[str, str, PlanKey], float] | None = None
) -> Score:
    if not asked:
        return Score(0, 0.0, 0.0)
    rr = [reciprocal_rank(profile, a, memo) for a in asked]
    return Score(len(rr), sum(rr) / len(rr), sum(1 for r in rr if r == 1.0) / len(rr))


def _distance(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """How far ``a`` is from the hand-set ``b``: normalised weights, plus the boost's scale (1 when absent)
    and the method (rrf when absent)."""
    wa = {m: w for m, w in a.items() if m not in (CENTRALITY, METHOD)}
    wb = {m: w for m, w in b.items() if m not in (CENTRALITY, METHOD)}
    total_b = sum(wb.values()) or 1.0
    return (
        sum(abs(wa.get(m, 0.0) - wb.get(m, 0.0) / total_b) for m in set(wa) | set(wb))
        + abs(a.get(CENTRALITY, 1.0) - b.get(CENTRALITY, 1.0))
        + abs(a.get(METHOD, 0.0) - b.get(METHOD, 0.0))
    )


def keep_lexical_share(before: Mapping[str, Any], intents: Mapping[str, dict[str, object]]) -> None:
    """Give each refitted z-score intent the lexical share its entry in ``before`` (the file being
    rewritten) had: the grid does not fit it (``fusion.LexicalShare``)."""
    for intent, entry in intents.items():
        share = before.get("intents", {}).get(intent, {}).get("lexical_share")
        if share is not None and entry.get("fusion") == "zscore":
            entry["lexical_share"] = share


def best_weights(
    asked: Sequence[Asked], grid: Iterable[Mapping[str, float]], hand: Mapping[str, float]
) -> dict[str, float]:
    """The grid vector with the highest MRR@10 on ``asked``; ties go to the one closest to ``hand``."""
    best: tuple[float, float] | None = None
    chosen: dict[str, float] = dict(hand)
    memo: dict[tuple[str, str, PlanKey], float] = {}
    for w in grid:
        key = (-score(w, asked, memo).mrr_at_10, _distance(w, hand))
        if best is None or key < best:
            best, chosen = key, dict(w)
    return chosen


# -- step 1: asking each modality ------------------------------------------------------------------


def _hit_to_json(h: Hit) -> list[object]:
    return [h.repo, h.path, h.start_line, h.end_line, h.segment_id, h.centrality, h.score]


def _hit_from_json(row: Sequence[object]) -> Hit:
    """A stored hit: repo, path, lines, segment id, centrality and (when kept) the modality's own score."""
    values: list[Any] = list(row)
    repo, path, start, end, segment_id, centrality = values[:6]
    own = float(values[6]) if len(values) > 6 else 0.0
    return Hit(str(segment_id), str(repo), str(path), int(start), int(end), own, centrality=float(centrality))


def asked_row(
    client: Any, suite: str, q: evaluate.EvalQuery, modalities: Sequence[str], repos: Sequence[str] = ()
) -> dict[str, object]:
    """``q`` asked of each modality alone through ``client``, with the intent the coordinator would
    classify it as: a ``--runs`` row (every segment, each modality's own order and score)."""
    from fourfold.coordinator import intent as intent_mod
    from fourfold.coordinator.engine import SearchParams

    c = intent_mod.classify(q.query)
    ranked: dict[str, list[list[object]]] = {}
    for m in modalities:
        params = SearchParams(
            query=q.query, k=ASK_K, intent=c.intent, modalities=(m,), repos=tuple(repos), options=RAW_OPTIONS
        )
        ranked[m] = [
            _hit_to_json(
                Hit(
                    h.segment_id,
                    h.repo,
                    h.path,
                    h.start_line,
                    h.end_line,
                    h.modalities[m].score if m in h.modalities else h.score,  # the modality's own
                    centrality=h.centrality,
                )
            )
            for h in client.search(params).hits
        ]
    return {"suite": suite, "id": q.id, "intent": c.intent, "confidence": c.confidence, "ranked": ranked}


def ask_all(home: Path, suites: Sequence[tuple[str, list[evaluate.EvalQuery]]]) -> list[dict[str, object]]:
    """Each query asked of each modality alone once, through an embedded deployment on ``home``."""
    from fourfold.connection import WireClient
    from fourfold.coordinator.serving import EmbeddedServer

    rows: list[dict[str, object]] = []
    with EmbeddedServer(home) as embedded, WireClient(embedded.address) as client:
        modalities = [m for m in client.status().modalities if m in MODALITIES]
        for name, queries in suites:
            for i, q in enumerate(queries, 1):
                rows.append(asked_row(client, name, q, modalities))
                if i % 50 == 0 or i == len(queries):
                    print(f"asked {name}: {i}/{len(queries)}", file=sys.stderr, flush=True)
    return rows


def load_asked(
    rows: Iterable[Mapping[str, object]], suites: Sequence[tuple[str, list[evaluate.EvalQuery]]]
) -> list[Asked]:
    by_id = {(name, q.id): q for name, queries in suites for q in queries}
    out: list[Asked] = []
    for r in rows:
        q = by_id.get((str(r["suite"]), str(r["id"])))
        if q is None:
            continue
        lists: Mapping[str, Sequence[Sequence[object]]] = r["ranked"]  # type: ignore[assignment]
        ranked = {m: tuple(_hit_from_json(h) for h in hits) for m, hits in lists.items()}
        out.append(Asked(str(r["suite"]), q, str(r["intent"]), float(r["confidence"]), ranked))  # type: ignore[arg-type]
    return out


# -- step 2: fitting -------------------------------------------------------------------------------


def fit(
    asked: Sequence[Asked], grid: Sequence[Mapping[str, float]], intents: Sequence[str] = ()
) -> dict[str, dict[str, object]]:
    """Per classified intent (``intents``; empty: every built-in one): the fitted weights, boost scale and
    fusion method, and hand-set against fitted on held-out and on all queries."""
    hand = default_profiles()
    out: dict[str, dict[str, object]] = {}
    for intent in intents or hand:
        group = [a for a in asked if a.intent == intent]
        train = [a for a in group if fit_half(a.query.id)]
        held = [a for a in group if not fit_half(a.query.id)]
        chosen = best_weights(train, grid, hand[intent]) if train else dict(hand[intent])
        weights = {m: w for m, w in chosen.items() if m not in (CENTRALITY, METHOD)}
        report: dict[str, object] = {
            "weights": weights,
            "centrality": chosen.get(CENTRALITY, 1.0),
            "fusion": "zscore" if chosen.get(METHOD, 0.0) else "rrf",
            "fitted_on": len(train),
        }
        for label, part in (("held_out", held), ("all", group)):
            h, f = score(hand[intent], part), score(chosen, part)
            report[label] = {
                "n": h.n,
                "hand_mrr10": round(h.mrr_at_10, 3),
                "fitted_mrr10": round(f.mrr_at_10, 3),
                "hand_s1": round(h.success_at_1, 3),
                "fitted_s1": round(f.success_at_1, 3),
            }
        out[intent] = report
        print(
            f"{intent:16} fit on {len(train):4}  {weights} {report['fusion']} boost {report['centrality']}  "
            f"held-out {report['held_out']}",
            file=sys.stderr,
            flush=True,
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", type=Path, default=Path.home() / "fourfold-dev", help="folder with corpora/ and suites/")
    ap.add_argument(
        "--home", type=Path, required=True, help="FOURFOLD_HOME already holding every corpus (see quality.py --home)"
    )
    ap.add_argument("--suite", action="append", default=[], help="only this suite (repeatable; default: all)")
    ap.add_argument(
        "--runs",
        type=Path,
        default=Path("bench-results/fit_runs.json"),
        help="the per-modality answers; asked and written when missing, reused when present",
    )
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "coordinator/fitted_profiles.json"
    )
    ap.add_argument(
        "--intent",
        action="append",
        default=[],
        help="refit only this intent (repeatable); the other intents' entries of --out stay as they are",
    )
    ap.add_argument(
        "--methods",
        default="rrf,zscore",
        help="fusion methods the fit may choose, comma-separated (zscore needs runs with the modalities' own scores)",
    )
    args = ap.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    if not methods or set(methods) - {"rrf", "zscore"}:
        print(f"bad --methods {args.methods!r}: give rrf, zscore or both, comma-separated", file=sys.stderr)
        return 2

    files = sorted((args.dev / "suites").glob("*.jsonl"))
    if args.suite:
        files = [f for f in files if f.stem in args.suite]
    if not files:
        print(f"no suites under {args.dev / 'suites'} match {args.suite or 'anything'}", file=sys.stderr)
        return 2
    suites = [(f.stem, evaluate.load_suite(f)) for f in files]
    if args.runs.is_file():
        rows = json.loads(args.runs.read_text())
    else:
        rows = ask_all(args.home, suites)
        args.runs.parent.mkdir(parents=True, exist_ok=True)
        args.runs.write_text(json.dumps(rows) + "\n")
    asked = load_asked(rows, suites)
    grid = [
        {**w, CENTRALITY: c, METHOD: float(mth == "zscore")}
        for mth in methods
        for c in CENTRALITY_VALUES
        for w in weight_grid()
    ]
    intents = fit(asked, grid, args.intent)
    method = (
        f"grid {list(GRID_VALUES)} per modality, normalised, x centrality boost scale {list(CENTRALITY_VALUES)} "
        f"x fusion {methods}; MRR@{MRR_K} under the default preset's routing, code-first demotion on; "
        "fitted on the queries whose sha1(id) first byte is even, held_out = the others; key = classified intent"
    )
    names = [name for name, _ in suites]
    before = json.loads(args.out.read_text()) if args.out.is_file() else {"intents": {}}
    keep_lexical_share(before, intents)
    if args.intent and args.out.is_file():  # a partial refit: the other intents keep their entries
        doc = before
        for intent, entry in intents.items():
            doc["intents"][intent] = {**entry, "suites": names, "method": method}
        doc["date"] = datetime.date.today().isoformat()
    else:
        doc = {"date": datetime.date.today().isoformat(), "suites": names, "method": method, "intents": intents}
    args.out.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
