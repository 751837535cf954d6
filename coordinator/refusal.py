"""Refusal: say ``no confident match`` when even the best candidate is probably not an answer.

A search always finds *something*; for a question the index cannot answer, the honest answer is
the candidates marked as unconfident. The confidence of a candidate is its rerank score / 10 when
a reranker ran, else its semantic similarity (the cosine the semantic modality scored it with).
A candidate that neither scored (a direct structural or text answer: an exact name or string
matched) carries no confidence, and an answer with no confidence at all is never refused —
a literal match is its own evidence.

The thresholds are calibrated on the development suites with ``benchmarks/quality.py``: the curve
(refusal rate on questions the corpora cannot answer against false refusals of answered
questions) is in ``docs/quality.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["NO_CONFIDENT_MATCH", "RERANK_THRESHOLD", "SEMANTIC_THRESHOLD", "Verdict", "assess", "hit_confidence"]

#: The words an answer carries when it refuses; the candidates are still listed.
NO_CONFIDENT_MATCH = "no confident match"
#: Semantic cosine below which the best candidate is not trusted: on click, 0.40 refused 97 % of the
#: negatives and 1 % of answered questions (0.45: 97 % / 3 %; docs/quality.md, refusal curve).
SEMANTIC_THRESHOLD = 0.40
#: Rerank relevance / 10 below which the best candidate is not trusted. Not calibrated here (no
#: reranker key on the development machines): Voyage documents scores under 0.3 as weak matches.
RERANK_THRESHOLD = 0.30


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an answer refuses, on what evidence, and the note it carries."""

    refused: bool
    confidence: float | None  # the best candidate's, 0..1; None when no candidate scored
    source: str  # "rerank", "semantic" or "" (no evidence)
    note: str


def hit_confidence(rerank_score: float | None, semantic_score: float | None) -> float | None:
    """A candidate's confidence: the reranker's verdict when it has one, else semantic similarity."""
    if rerank_score is not None:
        return rerank_score / 10.0
    return semantic_score


def assess(
    confidences: Sequence[float | None],
    *,
    reranked: bool,
    semantic_threshold: float = SEMANTIC_THRESHOLD,
    rerank_threshold: float = RERANK_THRESHOLD,
) -> Verdict:
    """Refuse when the best known confidence among the candidates is under its threshold."""
    known = [c for c in confidences if c is not None]
    if not known:
        return Verdict(False, None, "", "")
    best = max(known)
    source, threshold = ("rerank", rerank_threshold) if reranked else ("semantic", semantic_threshold)
    if best >= threshold:
        return Verdict(False, best, source, "")
    note = (
        f"{NO_CONFIDENT_MATCH}: the best candidate's {source} confidence {best:.2f} is under {threshold:.2f}; "
        "candidates listed, unconfirmed"
    )
    return Verdict(True, best, source, note)
