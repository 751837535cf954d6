"""Measured retrieval quality: run labelled suites through the public API and score the answers.

The suite format and the metrics are those of the evaluation README (``shared/eval/README.md``):
success@1/@5/@10, recall@10, MRR@10, zero-result rate, routing accuracy and latency p50/p95, per
suite and per intent, for the fused answer and for each modality alone — so that what fusion adds
(or costs) is a measured difference. The scoring is pure functions over plain values; only
:func:`run_suite` talks to a coordinator, through a ``search`` callable, so the numbers can be
checked by hand on small examples.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from fourfold.errors import InvalidInput

__all__ = [
    "ALL_INTENTS",
    "FUSED",
    "UNLABELLED",
    "CurvePoint",
    "EvalQuery",
    "Glance",
    "HitSpan",
    "Outcome",
    "Relevant",
    "Row",
    "Summary",
    "covers",
    "first_relevant_rank",
    "format_curve",
    "format_glance",
    "format_table",
    "glance",
    "glance_to_json",
    "load_suite",
    "mrr_at",
    "percentile",
    "recall_at",
    "refusal_curve",
    "relevant_repos",
    "routing_accuracy",
    "routing_confusion",
    "rows_for",
    "rows_to_json",
    "run_suite",
    "scoped",
    "success_at",
    "summarize",
    "zero_result_rate",
]

#: The answer column for the coordinator's own choice (classified intent, fused or direct).
FUSED = "fused"
#: The intent column that pools every query of a suite.
ALL_INTENTS = "all"
#: The intent column for queries without a label (e.g. CoSQA's web queries).
UNLABELLED = "unlabelled"

_MATCHES = ("line", "file")


@dataclass(frozen=True, slots=True)
class Relevant:
    """One item that answers a query: a file, or a line of it when the suite matches by line."""

    repo: str
    path: str
    line: int | None = None
    end_line: int | None = None


@dataclass(frozen=True, slots=True)
class EvalQuery:
    """One labelled query; no ``relevant`` items makes it a negative (the corpus cannot answer it)."""

    id: str
    query: str
    intent: str | None
    match: str
    relevant: tuple[Relevant, ...]


@dataclass(frozen=True, slots=True)
class HitSpan:
    """What the scoring needs of a hit: where it points. ``lines``: the lines it names besides its range
    (its match lines: a literal's matches and call sites elsewhere in the file, carried onto the file's
    best segment when the answer keeps one hit per file)."""

    repo: str
    path: str
    start_line: int
    end_line: int
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """One query's answer under one configuration, as returned by the coordinator."""

    query: EvalQuery
    hits: tuple[HitSpan, ...]
    classified_intent: str
    latency_ms: float
    error: str = ""
    partial: bool = False  # some shard did not answer: a miss may be the deployment's, not the ranking's
    notes: tuple[str, ...] = ()
    #: The best hit's semantic similarity (what refusal reads without a reranker); None when semantic did not run.
    confidence: float | None = None
    refused: bool = False  # the answer said "no confident match"


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """Refusal at one threshold: the share of unanswerable queries refused, and of answered ones refused."""

    threshold: float
    negatives_refused: float
    false_refusals: float


@dataclass(frozen=True, slots=True)
class Summary:
    """The README's metrics over a set of outcomes; ``routing`` is None where nothing was routed."""

    n: int
    success_at_1: float
    success_at_5: float
    success_at_10: float
    recall_at_10: float
    mrr_at_10: float
    zero_result_rate: float
    routing_accuracy: float | None
    latency_p50_ms: float
    latency_p95_ms: float
    errors: int
    partial_rate: float
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the report: a suite, an intent group and an answer (``fused`` or a modality)."""

    suite: str
    intent: str
    answer: str
    summary: Summary


# -- suites ----------------------------------------------------------------------------------------


def load_suite(path: Path) -> list[EvalQuery]:
    """Read a JSONL suite; a malformed line fails with its line number rather than skewing the numbers."""
    out: list[EvalQuery] = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                match = d.get("match", "line")
                if match not in _MATCHES:
                    raise ValueError(f"match {match!r} is neither 'line' nor 'file'")
                relevant = tuple(
                    Relevant(r["repo"], r["path"], r.get("line") if match == "line" else None, r.get("end_line"))
                    for r in d["relevant"]
                )
                if match == "line" and any(r.line is None for r in relevant):
                    raise ValueError("a relevant item of a 'line' query has no 'line'")
                out.append(EvalQuery(str(d["id"]), d["query"], d.get("intent") or None, match, relevant))
            except (ValueError, KeyError, TypeError) as exc:
                raise InvalidInput(
                    f"bad suite line {path}:{n}: {exc}; one JSON query a line, as `fourfold eval --help` shows"
                ) from None
    return out


# -- matching and per-query scores -----------------------------------------------------------------


def covers(hit: HitSpan, item: Relevant, named: bool = False) -> bool:
    """A hit covers an item when repo and path are equal and, for a line item, its range holds the line
    (``named``: or it names the line, ``HitSpan.lines``). Recall counts every line an answer names;
    success and MRR ask whether the segment a hit shows is relevant."""
    if hit.repo != item.repo or hit.path != item.path:
        return False
    return item.line is None or hit.start_line <= item.line <= hit.end_line or (named and item.line in hit.lines)


def first_relevant_rank(q: EvalQuery, hits: Sequence[HitSpan], k: int) -> int | None:
    """1-based rank of the first hit in the top ``k`` that covers any relevant item; None if none does."""
    for rank, h in enumerate(hits[:k], 1):
        if any(covers(h, r) for r in q.relevant):
            return rank
    return None


def _recall(q: EvalQuery, hits: Sequence[HitSpan], k: int) -> float:
    if not q.relevant:
        return 0.0
    top = hits[:k]
    return sum(1 for r in q.relevant if any(covers(h, r, named=True) for h in top)) / len(q.relevant)


# -- metrics over outcomes -------------------------------------------------------------------------


def success_at(outcomes: Sequence[Outcome], k: int) -> float:
    """Share of queries with at least one relevant hit in the top ``k``."""
    if not outcomes:
        return 0.0
    return sum(1 for o in outcomes if first_relevant_rank(o.query, o.hits, k) is not None) / len(outcomes)


def recall_at(outcomes: Sequence[Outcome], k: int) -> float:
    """Mean over queries of the share of relevant items covered by the top ``k``."""
    if not outcomes:
        return 0.0
    return sum(_recall(o.query, o.hits, k) for o in outcomes) / len(outcomes)


def mrr_at(outcomes: Sequence[Outcome], k: int) -> float:
    """Mean reciprocal rank of the first relevant hit within the top ``k`` (0 for a miss)."""
    if not outcomes:
        return 0.0
    total = 0.0
    for o in outcomes:
        rank = first_relevant_rank(o.query, o.hits, k)
        total += 1.0 / rank if rank else 0.0
    return total / len(outcomes)


def zero_result_rate(outcomes: Sequence[Outcome]) -> float:
    """Share of queries that returned nothing (a failed query returned nothing too)."""
    if not outcomes:
        return 0.0
    return sum(1 for o in outcomes if not o.hits) / len(outcomes)


def routing_accuracy(outcomes: Sequence[Outcome]) -> float | None:
    """Share of labelled queries whose classified intent equals the label; None without labels."""
    labelled = [o for o in outcomes if o.query.intent and not o.error]
    if not labelled:
        return None
    return sum(1 for o in labelled if o.classified_intent == o.query.intent) / len(labelled)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (``q`` in 0..100) — an observed latency, never an interpolated one."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summarize(outcomes: Sequence[Outcome], *, routed: bool) -> Summary:
    """All metrics of one group; ``routed`` is False for forced-intent runs, where routing is not measured."""
    latencies = [o.latency_ms for o in outcomes if not o.error]
    return Summary(
        n=len(outcomes),
        success_at_1=success_at(outcomes, 1),
        success_at_5=success_at(outcomes, 5),
        success_at_10=success_at(outcomes, 10),
        recall_at_10=recall_at(outcomes, 10),
        mrr_at_10=mrr_at(outcomes, 10),
        zero_result_rate=zero_result_rate(outcomes),
        routing_accuracy=routing_accuracy(outcomes) if routed else None,
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
        errors=sum(1 for o in outcomes if o.error),
        partial_rate=sum(1 for o in outcomes if o.partial) / len(outcomes) if outcomes else 0.0,
        notes=_common_notes(outcomes),
    )


def _common_notes(outcomes: Sequence[Outcome], limit: int = 3) -> tuple[str, ...]:
    """The most frequent errors and notes of a group, so that a column of zeros explains itself."""
    counts: dict[str, int] = {}
    for o in outcomes:
        for n in (o.error,) if o.error else o.notes:
            counts[n] = counts.get(n, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return tuple(f"{c}x {n}" for n, c in ranked)


def _is_fused(answer: str) -> bool:
    """Whether an answer column is the classified one (``fused``, or a ``fused+OPTION=VALUE`` comparison)."""
    return answer == FUSED or answer.startswith(FUSED + "+")


def rows_for(suite: str, outcomes_by_answer: Mapping[str, Sequence[Outcome]]) -> list[Row]:
    """Report rows of one suite: per intent group (``all`` first, then each label), per answer."""
    rows: list[Row] = []
    intents: list[str] = []
    for outcomes in outcomes_by_answer.values():
        for o in outcomes:
            label = o.query.intent or UNLABELLED
            if label not in intents:
                intents.append(label)
    for group in [ALL_INTENTS, *intents]:
        for answer, outcomes in outcomes_by_answer.items():
            chosen = [o for o in outcomes if group == ALL_INTENTS or (o.query.intent or UNLABELLED) == group]
            if chosen:
                rows.append(Row(suite, group, answer, summarize(chosen, routed=_is_fused(answer))))
    return rows


@dataclass(frozen=True, slots=True)
class Glance:
    """One suite and intent group at a glance: how the query was routed, and the fused answer against
    the best single modality (by MRR@10, ties by success@10). ``loses`` when fusion is worse than its
    best input by more than ``tolerance``: the line a regression shows up on."""

    suite: str
    intent: str
    n: int
    routing: float | None
    misrouted_to: tuple[tuple[str, int], ...]  # wrong intents chosen, most frequent first
    fused_mrr: float
    fused_s10: float
    best: str  # the best single modality ("" when none ran)
    best_mrr: float
    best_s10: float
    loses: bool


def routing_confusion(outcomes: Sequence[Outcome]) -> dict[str, dict[str, int]]:
    """Labelled intent -> classified intent -> count, over the routed (fused) outcomes that did not fail."""
    out: dict[str, dict[str, int]] = {}
    for o in outcomes:
        if o.query.intent and not o.error:
            row = out.setdefault(o.query.intent, {})
            row[o.classified_intent] = row.get(o.classified_intent, 0) + 1
    return out


def glance(suite: str, outcomes_by_answer: Mapping[str, Sequence[Outcome]], tolerance: float = 0.005) -> list[Glance]:
    """Per intent group of ``suite`` (``all`` first): routing accuracy with the wrong routes taken,
    and the fused answer's MRR@10 / success@10 against the best single modality's."""
    fused = list(outcomes_by_answer.get(FUSED, ()))
    confusion = routing_confusion(fused)
    groups = [ALL_INTENTS, *dict.fromkeys(o.query.intent or UNLABELLED for o in fused)]
    out: list[Glance] = []
    for group in groups:

        def pick(outcomes: Sequence[Outcome], group: str = group) -> list[Outcome]:
            return [o for o in outcomes if group == ALL_INTENTS or (o.query.intent or UNLABELLED) == group]

        chosen = pick(fused)
        if not chosen:
            continue
        wrong: dict[str, int] = {}
        for label, row in confusion.items():
            if group in (ALL_INTENTS, label):
                for got, count in row.items():
                    if got != label:
                        wrong[got] = wrong.get(got, 0) + count
        singles = [
            (answer, mrr_at(pick(o), 10), success_at(pick(o), 10))
            for answer, o in outcomes_by_answer.items()
            if not _is_fused(answer) and pick(o)
        ]
        best = max(singles, key=lambda t: (t[1], t[2]), default=("", 0.0, 0.0))
        fused_mrr, fused_s10 = mrr_at(chosen, 10), success_at(chosen, 10)
        out.append(
            Glance(
                suite,
                group,
                len(chosen),
                routing_accuracy(chosen),
                tuple(sorted(wrong.items(), key=lambda kv: (-kv[1], kv[0]))),
                fused_mrr,
                fused_s10,
                best[0],
                best[1],
                best[2],
                bool(best[0]) and fused_mrr < best[1] - tolerance,
            )
        )
    return out


def format_glance(glances: Sequence[Glance]) -> str:
    """The at-a-glance table: routing per intent (and where the misrouted went), fused against best single."""
    head = (
        f"{'suite':<10} {'intent':<16} {'n':>4} {'route':>5}  {'fused MRR':>9} {'s@10':>4}  "
        f"{'best single':<11} {'MRR':>5} {'s@10':>4}  {'delta':>6}  verdict"
    )
    lines = [head, "-" * len(head)]
    for g in glances:
        delta = f"{g.fused_mrr - g.best_mrr:+6.3f}" if g.best else "     -"
        verdict = "FUSED LOSES" if g.loses else ("ok" if g.best else "-")
        lines.append(
            f"{g.suite[:10]:<10} {g.intent[:16]:<16} {g.n:>4} {_pct(g.routing):>5}  {g.fused_mrr:9.3f} "
            f"{_pct(g.fused_s10)}  {(g.best or '-')[:11]:<11} {g.best_mrr:5.3f} {_pct(g.best_s10)}  {delta}  {verdict}"
        )
        if g.misrouted_to and g.intent != ALL_INTENTS:
            lines.append(f"{'':<28}misrouted to " + ", ".join(f"{intent} {n}" for intent, n in g.misrouted_to))
    return "\n".join(lines)


def glance_to_json(glances: Iterable[Glance]) -> list[dict[str, Any]]:
    """The glance table as plain dictionaries."""
    return [{**asdict(g), "misrouted_to": dict(g.misrouted_to)} for g in glances]


# -- running a suite -------------------------------------------------------------------------------


def relevant_repos(queries: Iterable[EvalQuery]) -> dict[str, tuple[str, ...]]:
    """Query text -> the repositories its relevant items name (``fourfold eval --scope-to-relevant``)."""
    return {q.query: tuple(sorted({r.repo for r in q.relevant})) for q in queries if q.relevant}


def scoped(
    search: Callable[[Any], Any],
    *,
    profile: str = "",
    repos: Sequence[str] = (),
    per_query: Mapping[str, Sequence[str]] | None = None,
) -> Callable[[Any], Any]:
    """``search`` (it takes a ``SearchParams``) with ``profile`` in every query's options and every
    query limited to ``repos`` (none: all), as ``fourfold eval --profile/--repo`` ask; or each
    query to its own repositories (``per_query``: query text -> repositories)."""

    def search_scoped(params: Any) -> Any:
        if profile:
            params = replace(params, options={**params.options, "profile": profile})
        if repos:
            params = replace(params, repos=tuple(repos))
        elif per_query and params.query in per_query:
            params = replace(params, repos=tuple(per_query[params.query]))
        return search(params)

    return search_scoped


def run_suite(
    search: Callable[[Any], Any],
    queries: Sequence[EvalQuery],
    modalities: Sequence[str],
    *,
    k: int = 10,
    preset: str = "default",
    progress: Callable[[int, int, str], None] | None = None,
    compare: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, list[Outcome]]:
    """Ask every query once as classified (the fused answer) and once per modality with its label;
    ``compare`` (column name -> search options) asks it again as classified with those options
    (``fused+localize=off``: the routing before the localize intent), a column beside the fused one.

    ``search`` takes a :class:`SearchParams` and returns a ``SearchResponse`` (``Client.search``);
    an RPC error it raises is recorded against the query as an empty answer, so one bad query costs
    one miss, not the run.
    """
    import grpc

    from fourfold.coordinator.engine import SearchParams
    from fourfold.coordinator.refusal import NO_CONFIDENT_MATCH

    compare = dict(compare or {})
    answers = [FUSED, *compare, *modalities]
    out: dict[str, list[Outcome]] = {a: [] for a in answers}
    total = len(queries) * len(answers)
    done = 0
    for q in queries:
        for answer in answers:
            if answer == FUSED:
                params = SearchParams(query=q.query, k=k, preset=preset)
            elif answer in compare:
                params = SearchParams(query=q.query, k=k, preset=preset, options=dict(compare[answer]))
            else:
                params = SearchParams(query=q.query, k=k, preset=preset, intent=q.intent or "", modalities=(answer,))
            t0 = time.perf_counter()
            try:
                r = search(params)
            except grpc.RpcError as exc:
                message = f"{exc.code().name}: {exc.details()}"
                out[answer].append(Outcome(q, (), "", (time.perf_counter() - t0) * 1000, message))
            else:
                ms = (time.perf_counter() - t0) * 1000
                hits = tuple(HitSpan(h.repo, h.path, h.start_line, h.end_line, tuple(h.match_lines)) for h in r.hits)
                semantic = [h.modalities["semantic"].score for h in r.hits if "semantic" in h.modalities]
                out[answer].append(
                    Outcome(
                        q,
                        hits,
                        r.intent,
                        ms,
                        partial=r.partial,
                        notes=tuple(r.notes),
                        confidence=max(semantic, default=None),
                        refused=any(n.startswith(NO_CONFIDENT_MATCH) for n in r.notes),
                    )
                )
            done += 1
            if progress is not None:
                progress(done, total, q.id)
    return out


def refusal_curve(
    positives: Sequence[Outcome], negatives: Sequence[Outcome], thresholds: Iterable[float]
) -> list[CurvePoint]:
    """Refusal rate on ``negatives`` against false refusals of answered ``positives``, per threshold.

    A positive counts only when its top 10 holds a relevant hit (refusing a wrong answer is no
    loss); an outcome without a confidence is never refused, as the engine does.
    """
    answered = [o for o in positives if first_relevant_rank(o.query, o.hits, 10) is not None]

    def refused(o: Outcome, t: float) -> bool:
        return o.confidence is not None and o.confidence < t

    return [
        CurvePoint(
            t,
            sum(refused(o, t) for o in negatives) / len(negatives) if negatives else 0.0,
            sum(refused(o, t) for o in answered) / len(answered) if answered else 0.0,
        )
        for t in thresholds
    ]


def format_curve(points: Sequence[CurvePoint]) -> str:
    """The refusal curve as a small table."""
    lines = ["threshold  negatives refused  false refusals", "-" * 44]
    lines += [
        f"{p.threshold:9.2f}  {100 * p.negatives_refused:16.0f}%  {100 * p.false_refusals:13.0f}%" for p in points
    ]
    return "\n".join(lines)


# -- report ----------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "   -" if x is None else f"{100 * x:4.0f}"


def format_table(rows: Sequence[Row]) -> str:
    """A fixed-width table: rates in percent, MRR as a fraction, latency in milliseconds; ``err`` counts
    failed queries, ``part`` is the share of partial answers. Below it, what the coordinator said
    about each suite-wide answer that failed or was partial.
    """
    head = (
        f"{'suite':<10} {'intent':<16} {'answer':<11} {'n':>4} {'s@1':>4} {'s@5':>4} {'s@10':>4} {'R@10':>4} "
        f"{'MRR':>5} {'zero':>4} {'route':>5} {'p50ms':>7} {'p95ms':>7} {'err':>3} {'part':>4}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        s = r.summary
        lines.append(
            f"{r.suite[:10]:<10} {r.intent[:16]:<16} {r.answer[:11]:<11} {s.n:>4} {_pct(s.success_at_1)} "
            f"{_pct(s.success_at_5)} "
            f"{_pct(s.success_at_10)} {_pct(s.recall_at_10)} {s.mrr_at_10:5.3f} {_pct(s.zero_result_rate)} "
            f"{_pct(s.routing_accuracy):>5} {s.latency_p50_ms:7.1f} {s.latency_p95_ms:7.1f} {s.errors:>3} "
            f"{_pct(s.partial_rate)}"
        )
    troubled = [
        r for r in rows if r.intent == ALL_INTENTS and (r.summary.errors or r.summary.partial_rate) and r.summary.notes
    ]
    for r in troubled:
        lines.append(f"{r.suite} {r.answer}: " + " | ".join(n[:200] for n in r.summary.notes))
    return "\n".join(lines)


def rows_to_json(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """The same numbers as the table, as plain dictionaries (rates as fractions)."""
    return [{"suite": r.suite, "intent": r.intent, "answer": r.answer, **asdict(r.summary)} for r in rows]
