"""The learned routing layer: shipped, consulted only where a rule guessed, and right on phrasings
that no rule and no training template spells (written here, not generated)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from fourfold.coordinator.intent import Classification, IntentRule, classify, classify_rules
from fourfold.coordinator.intent_model import (
    KEEP_RULES_FROM,
    MODEL_PATH,
    IntentModel,
    consult,
    features,
    hashed,
    load_model,
)

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_the_model_ships_small_and_loads_fast() -> None:
    assert MODEL_PATH.is_file() and MODEL_PATH.stat().st_size < 2 << 20
    started = time.perf_counter()
    model = IntentModel.open(MODEL_PATH)
    assert time.perf_counter() - started < 2.0  # a few ms on an idle machine
    assert set(model.intents) >= {"find_definition", "find_references", "impact_analysis", "exact_match"}
    p = model.probabilities("who would be affected if I delete parse_config")
    assert p.shape == (len(model.intents),) and p.sum() == pytest.approx(1.0) and (p >= 0).all()


def test_features_are_stable_and_names_count_only_by_shape() -> None:
    assert (hashed("who calls parse_config") == hashed("who calls parse_config")).all()
    a, b = features("who calls parse_config"), features("who calls render_template")
    assert a == b  # two snake_case names: the same query for the model
    assert "w:<snake>" in a and not any("parse_config" in f for f in a)


# Written for this test, in shapes no rule and no template of benchmarks/routing_phrasings.py has
# (the template split of benchmarks/routing.py is the measurement; this guards the shipped model).
UNSEEN = [
    ("if we get rid of parse_config, does anything stop working", "impact_analysis"),
    ("parts of the system affected by refactoring SessionStore", "impact_analysis"),
    ("am I going to break something by renaming build_graph", "impact_analysis"),
    ("what will stop compiling if Segment loses its symbol field", "impact_analysis"),
    ("who gets hurt if build_graph starts returning None", "impact_analysis"),
    ("safe to drop the timeout parameter from fetch_user", "impact_analysis"),
    ("which places invoke build_graph", "find_references"),
    ("list the callers for SessionStore.save", "find_references"),
    ("everywhere that render_template is called from", "find_references"),
    ("show me the call sites of normalizePath", "find_references"),
    ("where does the code use SessionStore", "find_references"),
    ("where is func (c *Context) JSON declared", "find_definition"),
    ("jump to the definition of SessionStore", "find_definition"),
    ("where is the SessionStore class", "find_definition"),
    ("fn handle_connection(stream: TcpStream)", "find_definition"),
    ("public static void processRequest(", "find_definition"),
    ("how does the retry loop back off", "understand_code"),
    ("why are shards rebuilt on every commit", "understand_code"),
    ("explain how segments become graph nodes", "understand_code"),
    ("read a yaml config into an object", "understand_code"),
    ("code resembling render_template elsewhere", "find_similar"),
    ("do we already have something like this?\nfor k, v in d.items():\n    out[k.lower()] = v", "find_similar"),
    ("find functions similar to normalizePath", "find_similar"),
    ('"segment cache is stale"', "exact_match"),
    ("OSError: [Errno 24] Too many open files", "exact_match"),
    ("where does it print 'index built in'", "exact_match"),
]


def test_unseen_phrasings_mostly_route_right() -> None:
    wrong = [(q, want, classify(q).intent) for q, want in UNSEEN if classify(q).intent != want]
    assert len(wrong) <= len(UNSEEN) // 8, wrong  # >= 7 in 8 right; the misses are listed on failure


def test_rules_that_are_sure_are_never_overruled() -> None:
    model = load_model()
    assert model is not None
    sure = Classification("exact_match", KEEP_RULES_FROM, "error-token")
    assert consult("what breaks if I change KeyError handling", sure, model) is sure
    plugin = Classification("history", 0.6, "plugin:history")
    assert consult("who would be affected if I delete it", plugin, model) is plugin


def test_without_the_model_file_the_rules_route_alone(tmp_path: Path) -> None:
    assert load_model(tmp_path / "absent.npz") is None


def test_agreeing_model_keeps_the_rule_and_its_confidence() -> None:
    rule = classify_rules("the retry_request helper")
    assert classify("the retry_request helper") == rule  # the rule table's row, unchanged


def test_learned_routes_say_so_and_stay_fused_unless_sure() -> None:
    c = classify("if we get rid of parse_config, does anything stop working")
    assert c.rule == "learned" and 0.45 <= c.confidence <= 0.9


def test_plugin_rules_still_win_over_the_model() -> None:
    history = IntentRule("plugin:history", "history", 0.8, re.compile(r"\bwhen was\b", re.IGNORECASE))
    assert classify("when was parse_config changed", [history]).intent == "history"


def test_the_trainer_learns_from_templates() -> None:
    """benchmarks/routing.py's trainer on a small generated set: a working model, right on its training set."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from routing import train  # type: ignore[import-not-found]
        from routing_phrasings import generate  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(BENCHMARKS))
    phrasings = list(generate(["parse_config", "SessionStore", "build_graph"], per_template=3))
    model = train(phrasings, dimensions=1 << 12, epochs=60)
    right = np.mean([model.predict(p.text).intent == p.intent for p in phrasings])
    assert right > 0.9
