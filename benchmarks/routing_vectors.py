"""The learned routing layer's two heads, one at a time and combined, asked of the held-out sets.

    PYTHONPATH=$PWD python benchmarks/routing_vectors.py [--folds 5] [--out bench-results/routing-vectors.json]

The shipped layer (``coordinator/intent_model.npz``) has an n-gram head (a logistic regression over
hashed word and character n-grams, which learns the words of its templates) and a head over the
default local embedder's sentence vectors (``routing.train_vector_head``), combined by their
geometric mean. This compares the ways to combine them on every held-out set
(``routing.HELD_OUT_SETS``): each head alone, the plain mean (the first configuration measured, not
shipped), the geometric mean, and each with the seed rules as ``classify`` consults a model
(``intent_model.consult``); ``--folds 5`` adds ``routing.py``'s template split. Prints a table per
set; ``--out`` writes it as JSON. Embedding the training phrasings takes about a minute on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

import routing
from routing_phrasings import INTENTS, Phrasing, fold_of, frozen_names, generate

from fourfold.coordinator.intent import classify_rules
from fourfold.coordinator.intent_model import Prediction, consult, load_model

Array = npt.NDArray[np.float64]


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


def _heads(grams: Array, vec: Array) -> dict[str, Array]:
    """Each head alone, their plain mean, and their geometric mean (renormalised), as shipped."""
    geometric = np.sqrt(grams * vec)
    return {
        "n-grams": grams,
        "vectors": vec,
        "mean": (grams + vec) / 2,
        "geometric": geometric / geometric.sum(1, keepdims=True),
    }


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
    heads: dict[str, list[Array]] = {"n-grams": [], "vectors": [], "mean": [], "geometric": []}
    for f in range(folds):
        train_rows, test_rows = np.where(fold != f)[0], np.where(fold == f)[0]
        grams_model = routing.train([training[i] for i in train_rows])
        w, b = routing.train_vector_head(x[train_rows], labels[train_rows])
        vec = probabilities(x[test_rows], w, b)
        grams = np.array([grams_model.ngram_probabilities(training[i].text) for i in test_rows])
        asked += [training[i] for i in test_rows]
        for name, p in _heads(grams, vec).items():
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
    vectors = routing.Vectors()
    x = vectors.of([p.text for p in training])
    print(f"embedded {len(training):,} training phrasings in {time.perf_counter() - t0:.0f} s")
    w, b = routing.train_vector_head(x, np.array([INTENTS.index(p.intent) for p in training]))
    report: dict[str, object] = {"load_average": os.getloadavg(), "training_phrasings": len(training)}
    for name, generate_set in routing.HELD_OUT_SETS.items():
        phrasings = list(generate_set())
        vec = probabilities(vectors.of([p.text for p in phrasings]), w, b)
        grams = np.array([ngram.ngram_probabilities(p.text) for p in phrasings])
        rows = measure(phrasings, _heads(grams, vec))
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
