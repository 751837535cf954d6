"""Conversion between the plugin value types and the worker protocol's messages (the only place it happens).

Hits are encoded as on the public API, by :mod:`fourfold.wire`.
"""

from __future__ import annotations

from fourfold.plugins.types import FollowUp, ModalityQuery, ShardResult
from fourfold.v1 import worker_pb2
from fourfold.wire import hit_from_pb, hit_to_pb

__all__ = ["query_from_pb", "query_to_pb", "result_from_pb", "result_to_pb"]


def query_to_pb(q: ModalityQuery, generation: str = "") -> worker_pb2.ShardSearchRequest:
    return worker_pb2.ShardSearchRequest(
        query=q.text,
        k=q.k,
        intent=q.intent,
        repos=list(q.repos),
        path_glob=q.path_glob or "",
        languages=list(q.languages),
        case_sensitive=q.case_sensitive,
        options=dict(q.options),
        generation=generation,
    )


def query_from_pb(m: worker_pb2.ShardSearchRequest) -> ModalityQuery:
    return ModalityQuery(
        text=m.query,
        k=m.k,
        intent=m.intent,
        repos=tuple(m.repos),
        path_glob=m.path_glob or None,
        languages=tuple(m.languages),
        case_sensitive=m.case_sensitive,
        options=dict(m.options),
    )


def result_to_pb(
    r: ShardResult, modality: str, shard: str, generation: str, seconds: float
) -> worker_pb2.ShardSearchResponse:
    return worker_pb2.ShardSearchResponse(
        hits=[hit_to_pb(h) for h in r.hits],
        total_matches=r.total_matches,
        modality=modality,
        shard=shard,
        generation=generation,
        notes=list(r.notes),
        seconds=seconds,
        follow_ups=[
            worker_pb2.FollowUp(repos=list(f.repos), options=dict(f.options), if_empty=f.if_empty) for f in r.follow_ups
        ],
        total_files=r.total_files,
        line_counts=r.line_counts,
        total_lower_bound=r.total_lower_bound,
        absence_notes=list(r.absence_notes),
    )


def result_from_pb(m: worker_pb2.ShardSearchResponse) -> ShardResult:
    return ShardResult(
        hits=tuple(hit_from_pb(h) for h in m.hits),
        total_matches=m.total_matches,
        notes=tuple(m.notes),
        follow_ups=tuple(FollowUp(tuple(f.repos), dict(f.options), f.if_empty) for f in m.follow_ups),
        total_files=m.total_files,
        line_counts=m.line_counts,
        total_lower_bound=m.total_lower_bound,
        absence_notes=tuple(m.absence_notes),
    )
