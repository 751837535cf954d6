"""Train the learned routing layer and measure it on held-out templates.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/routing.py            # measure, then ship the model
    PYTHONPATH=$PWD .venv/bin/python benchmarks/routing.py --no-ship  # measure only

Phrasings come from ``routing_phrasings.py`` (templates x slot fillers; names from this
repository's own definitions). Generalization is measured honestly: the templates are split into
``--folds`` groups; for each fold a model is trained on the other folds' templates only and asked
the held-out fold's phrasings, so no test phrasing *shape* was seen in training. Reported per
intent: accuracy of the rules alone (``classify_rules``), of the model alone, and of the rules with
the model consulted (``classify``'s policy), plus the precision of the model where it is sure
enough for the direct path. Then the shipped model is trained on every template and written to
``coordinator/intent_model.npz``; the table and settings go to ``bench-results/routing.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from routing_phrasings import INTENTS, Phrasing, fold_of, generate, names_from_source

from fourfold.coordinator.intent import classify_rules
from fourfold.coordinator.intent_model import (
    CONFIDENCE_SCALE,
    DIMENSIONS,
    MODEL_PATH,
    IntentModel,
    consult,
    hashed,
)
from fourfold.coordinator.profiles import DIRECT_CONFIDENCE

ROOT = Path(__file__).resolve().parents[1]


def train(phrasings: list[Phrasing], dimensions: int = DIMENSIONS, epochs: int = 160, l2: float = 1e-5) -> IntentModel:
    """Multinomial logistic regression over hashed features, full-batch Adam on the sparse rows."""
    rows = [hashed(p.text, dimensions) for p in phrasings]
    indices = np.concatenate(rows)
    owner = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
    starts = np.cumsum([0] + [len(r) for r in rows[:-1]])
    labels = np.array([INTENTS.index(p.intent) for p in phrasings])
    # balance the intents: each weighs the same in the loss whatever its template count
    counts = np.bincount(labels, minlength=len(INTENTS)).astype(np.float64)
    sample_weight = (len(labels) / (len(INTENTS) * counts))[labels]
    w = np.zeros((dimensions, len(INTENTS)))
    b = np.zeros(len(INTENTS))
    m_w, v_w, m_b, v_b = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    onehot = np.eye(len(INTENTS))[labels]
    lr, beta1, beta2 = 0.05, 0.9, 0.999
    for step in range(1, epochs + 1):
        scores = np.add.reduceat(w[indices], starts, axis=0) + b
        scores -= scores.max(axis=1, keepdims=True)
        prob = np.exp(scores)
        prob /= prob.sum(axis=1, keepdims=True)
        delta = (prob - onehot) * sample_weight[:, None] / len(labels)
        grad_w = np.stack(
            [np.bincount(indices, weights=delta[owner, c], minlength=dimensions) for c in range(len(INTENTS))], axis=1
        )
        grad_w += l2 * w
        grad_b = delta.sum(axis=0)
        for param, grad, m, v in ((w, grad_w, m_w, v_w), (b, grad_b, m_b, v_b)):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            param -= lr * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-8)
    return IntentModel(INTENTS, w.astype(np.float32), b.astype(np.float32))


def _accuracy(pairs: list[tuple[str, str]]) -> dict[str, float]:
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for gold, got in pairs:
        total[gold] += 1
        right[gold] += gold == got
    out = {intent: right[intent] / total[intent] for intent in INTENTS if total[intent]}
    out["all"] = sum(right.values()) / max(1, sum(total.values()))
    return out


def evaluate(phrasings: list[Phrasing], folds: int) -> dict[str, object]:
    rules: list[tuple[str, str]] = []
    alone: list[tuple[str, str]] = []
    combined: list[tuple[str, str]] = []
    direct_right = direct_total = 0
    misses: dict[str, Counter[str]] = defaultdict(Counter)
    sweep: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for fold in range(folds):
        train_set = [p for p in phrasings if fold_of(p.template, folds) != fold]
        test_set = [p for p in phrasings if fold_of(p.template, folds) == fold]
        if not test_set:
            continue
        model = train(train_set)
        for p in test_set:
            rule = classify_rules(p.text)
            guess = model.predict(p.text)
            final = consult(p.text, rule, model)
            for keep in (0.85, 0.9):
                for least in (0.4, 0.5, 0.6, 0.7, 0.8):
                    other = consult(p.text, rule, model, keep_from=keep, min_probability=least)
                    sweep[f"keep<{keep} p>={least}"].append((p.intent, other.intent))
            rules.append((p.intent, rule.intent))
            alone.append((p.intent, guess.intent))
            combined.append((p.intent, final.intent))
            if final.intent != p.intent:
                misses[p.intent][f"{p.template} -> {final.intent} ({final.rule})"] += 1
            if final.rule == "learned" and guess.probability * CONFIDENCE_SCALE >= DIRECT_CONFIDENCE:
                direct_total += 1
                direct_right += final.intent == p.intent
    return {
        "rules": _accuracy(rules),
        "model": _accuracy(alone),
        "rules+model": _accuracy(combined),
        "learned_direct_precision": direct_right / max(1, direct_total),
        "learned_direct_count": direct_total,
        "worst_misses": {k: dict(v.most_common(4)) for k, v in misses.items()},
        "policy_sweep": {k: _accuracy(v) for k, v in sweep.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--per-template", type=int, default=60)
    parser.add_argument("--no-ship", action="store_true", help="measure only; leave the shipped model alone")
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results" / "routing.json")
    args = parser.parse_args()
    started = time.perf_counter()
    phrasings = list(generate(names_from_source(ROOT), per_template=args.per_template))
    templates = {p.template for p in phrasings}
    print(f"{len(phrasings)} phrasings from {len(templates)} templates; {args.folds} folds split by template")
    result = evaluate(phrasings, args.folds)
    print(f"\n{'intent':<18}{'rules':>8}{'model':>8}{'rules+model':>13}   (held-out templates)")
    for intent in (*INTENTS, "all"):
        row = [result[k][intent] for k in ("rules", "model", "rules+model")]  # type: ignore[index]
        print(f"{intent:<18}{row[0]:>8.3f}{row[1]:>8.3f}{row[2]:>13.3f}")
    print(
        f"\nlearned routes sure enough for the direct path: {result['learned_direct_count']}, "
        f"precision {result['learned_direct_precision']:.3f}"
    )
    for intent, misses in result["worst_misses"].items():  # type: ignore[attr-defined]
        print(f"  misses {intent}: {misses}")
    print("\npolicy sweep (rules overruled below `keep`, model sure at least `p`): " + " ".join(INTENTS))
    for name, acc in result["policy_sweep"].items():  # type: ignore[attr-defined]
        print(f"  {name:<18}" + " ".join(f"{acc[i]:.3f}" for i in (*INTENTS, "all")))
    if not args.no_ship:
        model = train(phrasings)
        model.save(MODEL_PATH)
        print(f"\nshipped {MODEL_PATH.relative_to(ROOT)} ({MODEL_PATH.stat().st_size // 1024} KiB)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "phrasings": len(phrasings),
        "templates": len(templates),
        "folds": args.folds,
        "load_average": os.getloadavg(),
        "seconds": time.perf_counter() - started,
        **result,
    }
    args.out.write_text(json.dumps(doc, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
