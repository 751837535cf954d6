"""The JSON shape of a search answer, shared by ``fourfold search --json`` and the HTTP API.

Light on purpose: it reads the answer's attributes and imports nothing of the engine, Ray or
gRPC, so a front end encodes answers without loading the cluster's code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fourfold.coordinator.engine import Answer

__all__ = ["answer_to_json"]


def answer_to_json(a: Answer) -> dict[str, Any]:
    """The answer as plain JSON values: header fields, then one object per hit, best first."""
    hits = []
    for i, f in enumerate(a.hits):
        h = f.hit
        confidence = a.confidences[i] if i < len(a.confidences) else None
        hits.append(
            {
                "repo": h.repo,
                "path": h.path,
                "start_line": h.start_line,
                "end_line": h.end_line,
                "symbol": h.symbol or None,
                "kind": h.kind or None,
                "score": round(f.score, 6),
                "match_lines": list(h.match_lines),
                "demoted": f.demoted,
                "confidence": round(confidence, 4) if confidence is not None else None,
                **({"snippet": h.snippet} if h.snippet else {}),
                "modalities": {
                    m: {"rank": r.rank, "contribution": round(r.contribution, 6)}
                    for m, r in sorted(f.modalities.items())
                },
            }
        )
    return {
        "intent": a.intent,
        "confidence": round(a.confidence, 4),
        "fusion_strategy": a.fusion_strategy,
        "preset": a.preset,
        "partial": a.partial,
        "no_confident_match": a.no_confident_match,
        "rerank": a.rerank or None,
        "missing_shards": list(a.missing_shards),
        "generation": a.generation,
        "notes": list(a.notes),
        "timings_ms": {stage: round(ms, 3) for stage, ms in a.timings.items()},
        "hits": hits,
    }
