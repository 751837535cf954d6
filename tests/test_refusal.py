"""Refusal: the best candidate's confidence against the calibrated threshold."""

from __future__ import annotations

from fourfold.coordinator.refusal import NO_CONFIDENT_MATCH, assess, hit_confidence


def test_rerank_score_wins_over_semantic_similarity() -> None:
    assert hit_confidence(7.5, 0.2) == 0.75
    assert hit_confidence(None, 0.2) == 0.2
    assert hit_confidence(None, None) is None


def test_refuses_when_the_best_semantic_candidate_is_under_the_threshold() -> None:
    v = assess([0.31, None, 0.38], reranked=False, semantic_threshold=0.4)
    assert v.refused and v.confidence == 0.38 and v.source == "semantic"
    assert v.note.startswith(f"{NO_CONFIDENT_MATCH}: the best candidate's semantic confidence 0.38 is under 0.40")


def test_one_confident_candidate_is_enough() -> None:
    v = assess([0.1, 0.55], reranked=False, semantic_threshold=0.4)
    assert not v.refused and v.confidence == 0.55 and v.note == ""


def test_rerank_threshold_applies_to_reranked_answers() -> None:
    assert assess([0.25], reranked=True, rerank_threshold=0.3).refused
    assert not assess([0.35], reranked=True, rerank_threshold=0.3).refused


def test_an_answer_without_any_confidence_is_never_refused() -> None:
    """A direct structural or text answer matched a name or a string literally: its own evidence."""
    v = assess([None, None], reranked=False)
    assert not v.refused and v.confidence is None and v.source == ""
    assert not assess([], reranked=False).refused
