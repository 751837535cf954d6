"""Weight profiles per intent and the presets.

Weights (semantic, text, structural, graph), the original profiles (``docs/design.md``, "Weights"):

    find_definition  .2 .1 .6 .1      find_references .1 .2 .2 .5
    understand_code  .5 .2 .2 .1      find_similar    .4 .3 .2 .1
    impact_analysis  .1 .1 .1 .7      exact_match     0  .9 .1 0

Those are the hand-set profiles (``options["profile"] = "hand"``), fused by reciprocal rank with the
centrality boost everywhere. The default is the ``fitted`` set: ``fitted_profiles()`` reads the
weights fitted on the development suites by ``benchmarks/fit_weights.py`` (``fitted_profiles.json``,
with its held-out numbers), and with them, per intent, the fusion method (``rrf`` or ``zscore``) and
the centrality boost's scale, each kept only where it measured better (docs/quality.md).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fourfold.coordinator.fusion import LexicalShare
from fourfold.errors import InvalidQuery

__all__ = [
    "DEFAULT_PROFILE",
    "DIRECT_CONFIDENCE",
    "FITTED_PATH",
    "FUSED_ONLY",
    "PRESETS",
    "PROFILE_SETS",
    "Preset",
    "centrality_scale",
    "default_profiles",
    "dominant",
    "fitted_profiles",
    "fusion_method",
    "get_preset",
    "goes_direct",
    "lexical_share",
    "select_profiles",
    "top_modalities",
]

#: The direct path runs only the dominant modality at or above this confidence.
DIRECT_CONFIDENCE = 0.85

#: Intents answered fused however sure the router is: no one modality answers a question in prose. On the
#: how-to questions of sympy, xarray and pylint, semantic alone (the profile's dominant) scores MRR@10 0.58
#: where the fused answer scores 0.77; a learned route at p >= 0.945, or a caller naming the intent, sent
#: such a question down the direct path to semantic alone.
FUSED_ONLY = frozenset({"understand_code"})


def goes_direct(intent: str, confidence: float) -> bool:
    """Whether a route this sure of ``intent`` takes the direct path, the caller's overrides aside (the
    engine's ``plan``, and the replays that must agree with it)."""
    return confidence >= DIRECT_CONFIDENCE and intent not in FUSED_ONLY


_ORDER = ("semantic", "text", "structural", "graph")

#: The fitted weights and how they were measured, written by ``benchmarks/fit_weights.py``.
FITTED_PATH = Path(__file__).with_name("fitted_profiles.json")

#: Names ``options["profile"]`` accepts; empty means ``DEFAULT_PROFILE``.
PROFILE_SETS = ("fitted", "hand")

#: The profile set a search without ``options["profile"]`` uses: it beat ``hand`` on every suite measured.
DEFAULT_PROFILE = "fitted"


def default_profiles() -> dict[str, dict[str, float]]:
    rows = {
        "find_definition": (0.2, 0.1, 0.6, 0.1),
        "find_references": (0.1, 0.2, 0.2, 0.5),
        "understand_code": (0.5, 0.2, 0.2, 0.1),
        "find_similar": (0.4, 0.3, 0.2, 0.1),
        "impact_analysis": (0.1, 0.1, 0.1, 0.7),
        "exact_match": (0.0, 0.9, 0.1, 0.0),
    }
    return {intent: dict(zip(_ORDER, w, strict=True)) for intent, w in rows.items()}


@functools.cache
def _fitted_document(path: Path = FITTED_PATH) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _load_fitted(path: Path) -> dict[str, dict[str, float]]:
    doc = _fitted_document(path)
    return {intent: {m: float(w) for m, w in row["weights"].items()} for intent, row in doc["intents"].items()}


def fitted_profiles(path: Path = FITTED_PATH) -> dict[str, dict[str, float]]:
    """Weights per intent fitted on the development suites (a fresh copy; the file is read once)."""
    return {intent: dict(w) for intent, w in _load_fitted(path).items()}


def _set_name(name: str) -> str:
    return name or DEFAULT_PROFILE


def centrality_scale(name: str, intent: str) -> float:
    """The centrality boost's scale for ``intent`` under the profile set ``name`` (1: docs/design.md's boost)."""
    if _set_name(name) != "fitted":
        return 1.0
    entry = _fitted_document().get("intents", {}).get(intent, {})
    return float(entry.get("centrality", 1.0))


def fusion_method(name: str, intent: str) -> str:
    """How ``intent``'s lists are fused under the profile set ``name``: ``rrf`` (hand-set, and the fit's
    default) or ``zscore`` where the fit measured it better."""
    if _set_name(name) != "fitted":
        return "rrf"
    entry = _fitted_document().get("intents", {}).get(intent, {})
    return str(entry.get("fusion", "rrf"))


def lexical_share(name: str, intent: str) -> LexicalShare | None:
    """How ``intent``'s text and semantic weights are shared per query under the profile set ``name``
    (``fusion.LexicalShare``; None: as the profile sets them). Only a fitted z-score intent has one."""
    if _set_name(name) != "fitted" or fusion_method(name, intent) != "zscore":
        return None
    entry = _fitted_document().get("intents", {}).get(intent, {}).get("lexical_share")
    if not entry:
        return None
    return LexicalShare(
        float(entry["bm25_centre"]),
        float(entry["bm25_slope"]),
        float(entry["cosine_centre"]),
        float(entry["cosine_slope"]),
        tuple(sorted((str(k), float(v)) for k, v in entry.get("language_shift", {}).items())),
    )


def select_profiles(name: str, hand: Mapping[str, Mapping[str, float]]) -> Mapping[str, Mapping[str, float]]:
    """The profile set ``name`` picks (empty: ``DEFAULT_PROFILE``): ``hand`` is ``hand`` itself, ``fitted``
    overlays the fitted weights.

    Intents the fit does not know (a plugin's), and built-in intents whose built-in weights a plugin
    or a configured rule changed, keep the weights in ``hand``: the fit measured the built-in ones
    only. A modality a plugin added to a built-in intent joins the fitted weights.
    """
    name = _set_name(name)
    if name == "hand":
        return hand
    if name == "fitted":
        builtin = default_profiles()
        out = dict(hand)
        for intent, weights in fitted_profiles().items():
            own, base = hand.get(intent), builtin.get(intent, {})
            if own is None:
                out[intent] = weights
            elif all(own.get(m) == w for m, w in base.items()):  # a plugin's extra modalities join the fit's
                out[intent] = {**weights, **{m: w for m, w in own.items() if m not in base}}
        return out
    raise InvalidQuery(f"unknown profile {name!r}; choose one of: {', '.join(PROFILE_SETS)}")


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    modalities: int  # how many of the intent's modalities run (by weight); 0 for a fixed set
    rrf_k: int
    fixed: tuple[str, ...] = ()  # quick: semantic only


PRESETS: dict[str, Preset] = {
    "quick": Preset("quick", 0, 60, fixed=("semantic",)),
    "default": Preset("default", 3, 40),
    "thorough": Preset("thorough", 4, 60),
}


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name or "default"]
    except KeyError:
        raise InvalidQuery(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}") from None


def _ranked(weights: Mapping[str, float]) -> list[str]:
    order = {m: i for i, m in enumerate(_ORDER)}
    return sorted((m for m, w in weights.items() if w > 0), key=lambda m: (-weights[m], order.get(m, 99), m))


def dominant(weights: Mapping[str, float]) -> str:
    ranked = _ranked(weights)
    if not ranked:
        raise InvalidQuery("every modality weight is zero; give at least one modality a positive weight")
    return ranked[0]


def top_modalities(weights: Mapping[str, float], n: int) -> list[str]:
    return _ranked(weights)[:n]
