"""An experiment, not shipped: the learned routing layer with a second head over the local model's
sentence vectors, asked of the held-out sets.

    PYTHONPATH=$PWD python benchmarks/routing_vectors.py [--folds 5] [--out bench-results/routing-vectors.json]

The shipped layer (``coordinator/intent_model.npz``) is a logistic regression over hashed word and
character n-grams: it learns the words of the templates it was trained on. Here a second logistic
regression is trained on the same training phrasings (``routing_phrasings.generate``), each embedded
as a query by the default local embedder (384 dimensions), and the two heads' probabilities are
averaged. One configuration, declared before it was measured (200 full-batch Adam steps, L2 1e-4,
intents balanced as ``routing.train`` does, the plain mean of the two heads), asked of every
held-out set (``routing.HELD_OUT_SETS``): each head alone, the mean, and each with the seed rules as
``classify`` consults a model (``intent_model.consult``); ``--folds 5`` adds ``routing.py``'s
template split. Prints a table per set; ``--out`` writes it as JSON. Embedding the 49,076 training
phrasings takes about a minute on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

import routing
from routing_phrasings import INTENTS, Phrasing, fold_of, frozen_names, generate

from fourfold.coordinator.intent import classify_rules
from fourfold.coordinator.intent_model import Prediction, consult, load_model
from fourfold.plugins.embedders import DEFAULT_EMBEDDER
from fourfold.plugins.semantic.embedding import get_embedder

Array = npt.NDArray[np.float64]


def embed(texts: Sequence[str], batch: int = 128) -> Array:
    embedder = get_embedder(DEFAULT_EMBEDDER, {})
    parts = [embedder.embed(list(texts[i : i + batch]), "query") for i in range(0, len(texts), batch)]
    return np.concatenate(parts).astype(np.float64)


def fit(x: Array, labels: npt.NDArray[np.int64], steps: int = 200, l2: float = 1e-4) -> tuple[Array, Array]:
    """Multinomial logistic regression, full-batch Adam, intents balanced (deterministic)."""
    counts = np.bincount(labels, minlength=len(INTENTS)).astype(np.float64)
    sample_weight = (len(labels) / (len(INTENTS) * counts))[labels]
    w = np.zeros((x.shape[1], len(INTENTS)))
    b = np.zeros(len(INTENTS))
    moments = [(np.zeros_like(w), np.zeros_like(w)), (np.zeros_like(b), np.zeros_like(b))]
    onehot = np.eye(len(INTENTS))[labels]
    for step in range(1, steps + 1):
        delta = (probabilities(x, w, b) - onehot) * sample_weight[:, None] / len(labels)
        for param, grad, (m, v) in zip((w, b), (x.T @ delta + l2 * w, delta.sum(axis=0)), moments, strict=True):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            param -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w, b


def probabilities(x: Array, w: Array, b: Array) -> Array:
    scores = x @ w + b
    scores -= scores.max(axis=1, keepdims=True)
    e = np.exp(scores)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


class Table:
    """A model for ``consult``: each phrasing's probabilities, looked up."""

    def __init__(self, rows: Mapping[str, Array]) -> None:
        self.rows = rows

    def predict(self, query: str) -> Prediction:
        p = self.rows[query]
        best = int(p.argmax())
        return Prediction(INTENTS[best], float(p[best]))


def measure(phrasings: list[Phrasing], heads: Mapping[str, Array]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name, p in heads.items():
        table = Table({ph.text: p[i] for i, ph in enumerate(phrasings)})
        alone = [(ph.intent, INTENTS[int(p[i].argmax())]) for i, ph in enumerate(phrasings)]
        ruled = [(ph.intent, consult(ph.text, classify_rules(ph.text), table).intent) for ph in phrasings]  # type: ignore[arg-type]
        out[f"{name} alone"] = routing._accuracy(alone)
        out[f"{name} + rules"] = routing._accuracy(ruled)
    return out


def fold_split(training: list[Phrasing], x: Array, folds: int) -> dict[str, dict[str, float]]:
    """The template split of ``routing.evaluate``: each fold's phrasings asked of both heads trained
    on the other folds' templates only (the n-gram head retrained per fold: a few minutes)."""
    fold = np.array([fold_of(p.template, folds) for p in training])
    labels = np.array([INTENTS.index(p.intent) for p in training])
    asked: list[Phrasing] = []
    heads: dict[str, list[Array]] = {"n-grams": [], "vectors": [], "mean": []}
    for f in range(folds):
        train_rows, test_rows = np.where(fold != f)[0], np.where(fold == f)[0]
        grams_model = routing.train([training[i] for i in train_rows])
        w, b = fit(x[train_rows], labels[train_rows])
        vec = probabilities(x[test_rows], w, b)
        grams = np.array([grams_model.probabilities(training[i].text) for i in test_rows])
        asked += [training[i] for i in test_rows]
        for name, p in (("n-grams", grams), ("vectors", vec), ("mean", (grams + vec) / 2)):
            heads[name].append(p)
    return measure(asked, {name: np.concatenate(parts) for name, parts in heads.items()})


def print_table(title: str, rows: Mapping[str, Mapping[str, float]]) -> None:
    print(f"\n{title}")
    print("variant".ljust(18) + "".join(i[:12].rjust(13) for i in (*INTENTS, "all")))
    for label, acc in rows.items():
        print(label.ljust(18) + "".join(f"{acc[i]:.3f}".rjust(13) for i in (*INTENTS, "all")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--folds", type=int, default=0, help="also the template split into this many folds (5: ~5 min)")
    args = ap.parse_args()
    ngram = load_model()
    if ngram is None:
        sys.exit("no shipped routing model: run benchmarks/routing.py first")
    t0 = time.perf_counter()
    training = list(generate(frozen_names()))
    x = embed([p.text for p in training])
    print(f"embedded {len(training):,} training phrasings in {time.perf_counter() - t0:.0f} s")
    w, b = fit(x, np.array([INTENTS.index(p.intent) for p in training]))
    report: dict[str, object] = {"load_average": os.getloadavg(), "training_phrasings": len(training)}
    for name, generate_set in routing.HELD_OUT_SETS.items():
        phrasings = list(generate_set())
        vec = probabilities(embed([p.text for p in phrasings]), w, b)
        grams = np.array([ngram.probabilities(p.text) for p in phrasings])
        rows = measure(phrasings, {"n-grams": grams, "vectors": vec, "mean": (grams + vec) / 2})
        report[name] = rows
        print_table(f"held-out set {name!r} ({len(phrasings)} phrasings)", rows)
    if args.folds:
        report["fold_split"] = rows = fold_split(training, x, args.folds)
        print_table(f"template split, {args.folds} folds ({len(training):,} phrasings)", rows)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
