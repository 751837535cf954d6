"""Conversion between fourfold's values (:mod:`fourfold.api`) and the public protobuf messages.

The only place a search, an answer, a hit, an index's progress and summary or a status crosses between Python
values and ``fourfold.v1`` messages, for both sides: the coordinator encodes answers and decodes
requests, the client does the reverse, and the workers' conversions
(:mod:`fourfold.workers.convert`) reuse the hit codec. Imports only protobuf's generated stubs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from fourfold.api import (
    DEFAULT_DEADLINE_MS,
    DEFAULT_K,
    Answer,
    FileSymbol,
    FileText,
    FusedHit,
    IndexProgress,
    IndexSummary,
    ModalityRank,
    RepoInfo,
    SearchParams,
    ShardInfo,
    Status,
)
from fourfold.plugins.types import Hit
from fourfold.v1 import common_pb2, coordinator_pb2

__all__ = [
    "answer_from_pb",
    "answer_to_json",
    "answer_to_pb",
    "file_from_pb",
    "file_to_pb",
    "hit_from_pb",
    "hit_to_pb",
    "params_from_pb",
    "params_to_pb",
    "progress_from_pb",
    "progress_to_pb",
    "status_from_pb",
    "summary_from_pb",
    "summary_to_pb",
]


def hit_to_pb(h: Hit) -> common_pb2.Hit:
    return common_pb2.Hit(
        repo=h.repo,
        path=h.path,
        start_line=h.start_line,
        end_line=h.end_line,
        symbol=h.symbol or "",
        kind=h.kind or "",
        language=h.language,
        score=h.score,
        segment_id=h.segment_id,
        match_lines=list(h.match_lines),
        centrality=h.centrality,
        snippet=h.snippet,
    )


def hit_from_pb(m: common_pb2.Hit) -> Hit:
    return Hit(
        segment_id=m.segment_id,
        repo=m.repo,
        path=m.path,
        start_line=m.start_line,
        end_line=m.end_line,
        score=m.score,
        symbol=m.symbol or None,
        kind=m.kind or None,
        language=m.language,
        match_lines=tuple(m.match_lines),
        centrality=m.centrality,
        snippet=m.snippet,
    )


def params_from_pb(m: coordinator_pb2.SearchRequest) -> SearchParams:
    """The search a request asks for (0 and "" mean the defaults)."""
    return SearchParams(
        query=m.query,
        k=m.k if m.k != 0 else DEFAULT_K,
        repos=tuple(m.repos),
        intent=m.intent,
        preset=m.preset or "default",
        modalities=tuple(m.modalities),
        weights=dict(m.weights),
        deadline_ms=m.deadline_ms or DEFAULT_DEADLINE_MS,
        path_glob=m.path_glob,
        languages=tuple(m.languages),
        case_sensitive=m.case_sensitive,
        options=dict(m.options),
        with_snippets=m.with_snippets,
        cursor=m.cursor,
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
        cursor=p.cursor,
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
        total_matches=a.total_matches,
        total_files=a.total_files,
        total_exact=a.total_exact,
        complete=a.complete,
        cursor=a.cursor,
    )


def answer_from_pb(r: coordinator_pb2.SearchResponse) -> Answer:
    """The :class:`Answer` a response carries (the inverse of :func:`answer_to_pb`)."""
    hits = []
    for h in r.hits:
        # the wire's hit score is the fused score; the modality's own score is in ModalityRank
        ranks = {m: ModalityRank(c.rank, c.contribution, c.score) for m, c in h.modalities.items()}
        hits.append(FusedHit(hit_from_pb(h), h.score, ranks, h.demoted))
    confidences = tuple(h.confidence if h.HasField("confidence") else None for h in r.hits)
    return Answer(
        intent=r.intent,
        confidence=r.confidence,
        fusion_strategy=r.fusion_strategy,
        preset=r.preset,
        partial=r.partial,
        missing_shards=tuple(r.missing_shards),
        hits=tuple(hits),
        total_candidates=r.total_candidates,
        timings={t.stage: t.ms for t in r.timings},
        generation=r.generation,
        notes=tuple(r.notes),
        weights=dict(r.weights),
        rerank=r.rerank,
        no_confident_match=r.no_confident_match,
        # () when no hit carries one, as the engine leaves it
        confidences=confidences if any(c is not None for c in confidences) else (),
        total_matches=r.total_matches,
        total_files=r.total_files,
        total_exact=r.total_exact,
        complete=r.complete,
        cursor=r.cursor,
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
        # literal and regex search: every match, or exactly how the answer falls short of it
        "complete": r.complete,
        "total_matches": {"lines": r.total_matches, "files": r.total_files, "exact": r.total_exact},
        "cursor": r.cursor or None,
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


def progress_to_pb(p: IndexProgress) -> coordinator_pb2.IndexProgress:
    return coordinator_pb2.IndexProgress(
        stage=p.stage,
        done=p.done,
        total=p.total,
        message=p.message,
        unit=p.unit,
        repo=p.repo,
        rate=p.rate,
        eta_seconds=p.eta_s,
        shard=p.shard,
    )


def progress_from_pb(m: coordinator_pb2.IndexProgress) -> IndexProgress:
    """The report in ``m`` (its ``summary``, on the last message of a stream, is ``summary_from_pb``'s)."""
    return IndexProgress(
        stage=m.stage,
        done=m.done,
        total=m.total,
        message=m.message,
        unit=m.unit,
        repo=m.repo,
        rate=m.rate if m.HasField("rate") else None,
        eta_s=m.eta_seconds if m.HasField("eta_seconds") else None,
        shard=m.shard,
    )


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
        failed_shards=list(s.failed_shards),
    )


def summary_from_pb(s: coordinator_pb2.IndexSummary) -> IndexSummary:
    return IndexSummary(
        generation=s.generation,
        files=s.files,
        segments=s.segments,
        bytes=s.bytes,
        skipped=Counter(dict(s.skipped)),
        reused_files=s.reused_files,
        parse_errors=s.parse_errors,
        unsupported_languages=Counter(dict(s.unsupported_languages)),
        seconds=s.seconds,
        failed_shards=list(s.failed_shards),
    )


def status_from_pb(s: coordinator_pb2.StatusResponse) -> Status:
    return Status(
        generation=s.generation,
        repos=tuple(RepoInfo(r.name, r.path, r.files, r.segments) for r in s.repos),
        shards=tuple(ShardInfo(x.modality, x.shard, x.replica, x.generation, x.health, x.address) for x in s.shards),
        modalities=tuple(s.modalities),
        version=s.version,
        nodes=s.nodes,
        building=progress_from_pb(s.building) if s.HasField("building") else None,
    )


def file_to_pb(f: FileText) -> coordinator_pb2.ReadFileResponse:
    return coordinator_pb2.ReadFileResponse(
        repo=f.repo,
        path=f.path,
        language=f.language,
        generation=f.generation,
        start_line=f.start_line,
        end_line=f.end_line,
        total_lines=f.total_lines,
        content=f.content,
        symbols=[
            coordinator_pb2.FileSymbol(symbol=s.symbol, kind=s.kind, start_line=s.start_line, end_line=s.end_line)
            for s in f.symbols
        ],
    )


def file_from_pb(f: coordinator_pb2.ReadFileResponse) -> FileText:
    return FileText(
        repo=f.repo,
        path=f.path,
        language=f.language,
        generation=f.generation,
        start_line=f.start_line,
        end_line=f.end_line,
        total_lines=f.total_lines,
        content=f.content,
        symbols=tuple(FileSymbol(s.symbol, s.kind, s.start_line, s.end_line) for s in f.symbols),
    )
