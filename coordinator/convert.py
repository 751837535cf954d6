"""Conversion between the coordinator's values and the public protobuf messages."""

from __future__ import annotations

from typing import Any

from fourfold.coordinator.engine import Answer, SearchParams
from fourfold.index.generation import IndexSummary
from fourfold.v1 import common_pb2, coordinator_pb2
from fourfold.workers.convert import hit_to_pb

__all__ = ["answer_to_json", "answer_to_pb", "params_from_pb", "params_to_pb", "summary_to_pb"]


def params_from_pb(m: coordinator_pb2.SearchRequest) -> SearchParams:
    return SearchParams(
        query=m.query,
        k=m.k if m.k != 0 else 10,
        repos=tuple(m.repos),
        intent=m.intent,
        preset=m.preset or "default",
        modalities=tuple(m.modalities),
        weights=dict(m.weights),
        deadline_ms=m.deadline_ms or 5000,
        path_glob=m.path_glob,
        languages=tuple(m.languages),
        case_sensitive=m.case_sensitive,
        options=dict(m.options),
        with_snippets=m.with_snippets,
    )


def params_to_pb(p: SearchParams) -> coordinator_pb2.SearchRequest:
    return coordinator_pb2.SearchRequest(
        query=p.query,
        k=p.k,
        repos=list(p.repos),
        intent=p.intent,
        preset=p.preset,
        modalities=list(p.modalities),
        weights=dict(p.weights),
        deadline_ms=p.deadline_ms,
        path_glob=p.path_glob,
        languages=list(p.languages),
        case_sensitive=p.case_sensitive,
        options=dict(p.options),
        with_snippets=p.with_snippets,
    )


def answer_to_pb(a: Answer) -> coordinator_pb2.SearchResponse:
    hits = []
    for i, f in enumerate(a.hits):
        h = hit_to_pb(f.hit)
        h.score = f.score
        h.demoted = f.demoted
        confidence = a.confidences[i] if i < len(a.confidences) else None
        if confidence is not None:
            h.confidence = confidence
        for m, r in f.modalities.items():
            h.modalities[m].CopyFrom(
                common_pb2.ModalityContribution(rank=r.rank, contribution=r.contribution, score=r.score)
            )
        hits.append(h)
    return coordinator_pb2.SearchResponse(
        intent=a.intent,
        confidence=a.confidence,
        fusion_strategy=a.fusion_strategy,
        preset=a.preset,
        partial=a.partial,
        missing_shards=list(a.missing_shards),
        hits=hits,
        total_candidates=a.total_candidates,
        timings=[coordinator_pb2.StageTiming(stage=s, ms=ms) for s, ms in a.timings.items()],
        generation=a.generation,
        notes=list(a.notes),
        weights=dict(a.weights),
        rerank=a.rerank,
        no_confident_match=a.no_confident_match,
    )


def answer_to_json(r: coordinator_pb2.SearchResponse) -> dict[str, Any]:
    """The ``--json`` shape of the CLI (from the wire message, so CLI and API agree)."""
    return {
        "intent": r.intent,
        "confidence": round(r.confidence, 4),
        "fusion_strategy": r.fusion_strategy,
        "preset": r.preset,
        "partial": r.partial,
        "no_confident_match": r.no_confident_match,
        "rerank": r.rerank or None,
        "missing_shards": list(r.missing_shards),
        "generation": r.generation,
        "notes": list(r.notes),
        "timings_ms": {t.stage: round(t.ms, 3) for t in r.timings},
        "hits": [
            {
                "repo": h.repo,
                "path": h.path,
                "start_line": h.start_line,
                "end_line": h.end_line,
                "symbol": h.symbol or None,
                "kind": h.kind or None,
                "score": round(h.score, 6),
                "match_lines": list(h.match_lines),
                "demoted": h.demoted,
                "confidence": round(h.confidence, 4) if h.HasField("confidence") else None,
                **({"snippet": h.snippet} if h.snippet else {}),
                "modalities": {
                    m: {"rank": c.rank, "contribution": round(c.contribution, 6)}
                    for m, c in sorted(h.modalities.items())
                },
            }
            for h in r.hits
        ],
    }


def summary_to_pb(s: IndexSummary) -> coordinator_pb2.IndexSummary:
    return coordinator_pb2.IndexSummary(
        generation=s.generation,
        files=s.files,
        segments=s.segments,
        skipped=dict(s.skipped),
        reused_files=s.reused_files,
        parse_errors=s.parse_errors,
        seconds=s.seconds,
        bytes=s.bytes,
        unsupported_languages=dict(s.unsupported_languages),
    )
