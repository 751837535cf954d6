"""The refusal curve and negative queries in the evaluation, checked by hand on small examples."""

from __future__ import annotations

from pathlib import Path

from fourfold.coordinator.evaluate import EvalQuery, HitSpan, Outcome, Relevant, format_curve, load_suite, refusal_curve

FIXTURES = Path(__file__).parent / "fixtures" / "eval"


def outcome(qid: str, confidence: float | None, *, relevant: bool, answered: bool = True) -> Outcome:
    items = (Relevant("r", "a.py"),) if relevant else ()
    hits = (HitSpan("r", "a.py" if answered else "b.py", 1, 5),)
    return Outcome(EvalQuery(qid, "q", None, "file", items), hits, "understand_code", 1.0, confidence=confidence)


def test_curve_counts_refused_negatives_and_answered_positives_only() -> None:
    positives = [
        outcome("p1", 0.6, relevant=True),
        outcome("p2", 0.3, relevant=True),
        outcome("p3", 0.1, relevant=True, answered=False),
        outcome("p4", None, relevant=True),
    ]
    negatives = [
        outcome("n1", 0.2, relevant=False),
        outcome("n2", 0.5, relevant=False),
        outcome("n3", None, relevant=False),
    ]
    low, high = refusal_curve(positives, negatives, [0.25, 0.55])
    # p3 is not answered (no loss if refused); p4 and n3 have no confidence and are never refused
    assert (low.negatives_refused, low.false_refusals) == (1 / 3, 0.0)
    assert (high.negatives_refused, high.false_refusals) == (2 / 3, 1 / 3)
    assert "0.55" in format_curve([high]) and "67%" in format_curve([high])


def test_the_negative_suite_has_thirty_questions_without_answers() -> None:
    negatives = load_suite(FIXTURES / "negatives.jsonl")
    assert len(negatives) >= 30 and all(q.relevant == () for q in negatives)
    assert len({q.query for q in negatives}) == len(negatives)
