"""The weight fit (benchmarks/fit_weights.py), the fitted profiles it ships, and picking them per search."""

from __future__ import annotations

import pytest
from conftest import load_benchmark

from fourfold.coordinator.engine import Engine, SearchParams
from fourfold.coordinator.evaluate import EvalQuery, Relevant
from fourfold.coordinator.profiles import default_profiles, fitted_profiles, select_profiles
from fourfold.errors import InvalidQuery
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Hit

fit_weights = load_benchmark("fit_weights")

MODALITIES = {"semantic", "text", "structural", "graph"}


def _hit(path: str) -> Hit:
    return Hit(f"r:{path}", "r", path, 1, 5, 0.0)


def _asked(i: int) -> object:
    """A question whose answer text ranks first and semantic ranks last (behind four distractors)."""
    answer = f"answer{i}.py"
    distractors = [f"other{i}_{j}.py" for j in range(4)]
    q = EvalQuery(f"q{i}", "how is the cache flushed", None, "file", (Relevant("r", answer),))
    ranked = {
        "semantic": tuple(_hit(p) for p in [*distractors, answer]),
        "text": tuple(_hit(p) for p in [answer, *distractors]),
        "structural": (),
        "graph": (),
    }
    return fit_weights.Asked("toy", q, "understand_code", 0.40, ranked)


def test_grid_search_picks_the_modality_that_ranks_the_answer_first() -> None:
    asked = [_asked(i) for i in range(3)]
    hand = default_profiles()["understand_code"]
    assert (
        fit_weights.score(hand, asked).mrr_at_10 < 1.0
    )  # semantic leads the hand-set profile: the answer is not first
    best = fit_weights.best_weights(asked, fit_weights.weight_grid(), hand)
    assert best["text"] > best["semantic"]
    assert fit_weights.score(best, asked).mrr_at_10 == 1.0


def test_grid_is_normalised_and_ties_go_to_the_hand_set_profile() -> None:
    grid = fit_weights.weight_grid(("a", "b"), (0.0, 0.5, 1.0))
    assert all(abs(sum(w.values()) - 1.0) < 1e-3 for w in grid)
    # (0,1) (1,0) (.5,.5) (1/3,2/3) (2/3,1/3): (.5,.5) and (1,1), (0,.5) and (0,1)... are one vector each
    assert sorted(w["a"] for w in grid) == [0.0, 0.3333, 0.5, 0.6667, 1.0]
    no_answer = fit_weights.Asked(
        "toy",
        EvalQuery("n", "x", None, "file", (Relevant("r", "none.py"),)),
        "understand_code",
        0.4,
        {"semantic": (_hit("a.py"),), "text": (_hit("b.py"),)},
    )
    hand = {"semantic": 0.5, "text": 0.2, "structural": 0.2, "graph": 0.1}
    best = fit_weights.best_weights([no_answer], fit_weights.weight_grid(), hand)
    assert best == {"semantic": 0.5, "text": 0.2, "structural": 0.2, "graph": 0.1}


def test_a_zscore_plan_keeps_the_weights_the_engine_fuses_with() -> None:
    """The engine fuses the profile's top modalities with their own weights; reciprocal rank fusion's
    order does not depend on their scale (normalised: one fusion per key), z-score fusion's does
    (``exp(Σ w·z)`` against the centrality boost), so its key keeps them as they are."""
    a = _asked(0)
    profile = {"semantic": 0.3, "text": 0.2, "structural": 0.2, "graph": 0.1}
    rrf = dict(fit_weights.plan_key(profile, a))
    zscore = dict(fit_weights.plan_key({**profile, fit_weights.METHOD: 1.0}, a))
    assert abs(sum(rrf[m] for m in ("semantic", "text", "structural")) - 1.0) < 1e-3
    fused = {m: zscore[m] for m in ("semantic", "text", "structural")}
    assert fused == {"semantic": 0.3, "text": 0.2, "structural": 0.2}


def test_a_sure_prose_question_is_replayed_fused_as_the_engine_answers_it() -> None:
    """The engine never answers understand_code direct (``profiles.goes_direct``); the fit's replay of a
    sure one fuses too, while a sure entity question keeps the dominant modality's own order."""
    from dataclasses import replace

    profile = {"semantic": 0.3, "text": 0.2, "structural": 0.2, "graph": 0.1}
    prose = replace(_asked(0), confidence=0.95)
    assert len(fit_weights.plan_key(profile, prose)) > 1 + 2  # two modalities and the two pseudo-modalities
    entity = replace(prose, intent="find_definition")
    assert fit_weights.plan_key(profile, entity) == (("semantic", 0.0),)


def test_the_halves_are_stable_and_both_used() -> None:
    halves = [fit_weights.fit_half(f"q{i}") for i in range(200)]
    assert halves == [fit_weights.fit_half(f"q{i}") for i in range(200)]
    assert 60 < sum(halves) < 140


def test_fitted_profiles_load_with_known_modalities_and_non_negative_weights() -> None:
    fitted = fitted_profiles()
    assert set(fitted) == set(default_profiles())
    for intent, weights in fitted.items():
        assert set(weights) <= MODALITIES, intent
        assert all(w >= 0 for w in weights.values()), intent
        assert any(w > 0 for w in weights.values()), intent


def test_select_profiles_rejects_an_unknown_name() -> None:
    hand = default_profiles()
    assert select_profiles("", hand) == select_profiles("fitted", hand)  # the fitted set is the default
    assert select_profiles("hand", hand) is hand
    with pytest.raises(InvalidQuery, match="unknown profile 'tuned'"):
        select_profiles("tuned", hand)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return Engine(IndexStore(tmp_path_factory.mktemp("home")))


def test_profile_fitted_changes_the_plan_weights(engine: Engine) -> None:
    fitted, hand = fitted_profiles(), default_profiles()
    changed = [
        i for i in hand if {m: w for m, w in fitted[i].items() if w > 0} != {m: w for m, w in hand[i].items() if w > 0}
    ]
    assert changed, "the fit kept every hand-set profile: nothing to compare"
    intent = changed[0]
    plans = {
        name: engine.plan(SearchParams(query="q", intent=intent, preset="thorough", options={"profile": name}))
        for name in ("hand", "fitted")
    }
    assert plans["hand"].weights == {m: w for m, w in hand[intent].items() if w > 0}
    assert plans["fitted"].weights == {m: w for m, w in fitted[intent].items() if w > 0}
    assert engine.plan(SearchParams(query="q", intent=intent, preset="thorough")).weights == plans["fitted"].weights


def test_unknown_profile_is_an_invalid_query(engine: Engine) -> None:
    with pytest.raises(InvalidQuery, match="unknown profile"):
        engine.plan(SearchParams(query="q", options={"profile": "nope"}))


def test_a_refit_keeps_the_lexical_share_of_a_zscore_intent() -> None:
    share = {"bm25_centre": 3.0, "bm25_slope": 4.0, "cosine_centre": 0.65, "cosine_slope": 5.0}
    before = {"intents": {"understand_code": {"lexical_share": share}, "find_definition": {"lexical_share": share}}}
    refit: dict[str, dict[str, object]] = {
        "understand_code": {"fusion": "zscore"},
        "find_definition": {"fusion": "rrf"},  # a rank fusion has no scores to share by
        "exact_match": {"fusion": "zscore"},  # nothing to keep
    }
    fit_weights.keep_lexical_share(before, refit)
    assert refit["understand_code"]["lexical_share"] == share
    assert "lexical_share" not in refit["find_definition"] and "lexical_share" not in refit["exact_match"]
