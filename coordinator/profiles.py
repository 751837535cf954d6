"""Weight profiles per intent and the presets.

Weights (semantic, text, structural, graph), the original profiles (``docs/design.md``, "Weights"):

    find_definition  .2 .1 .6 .1      find_references .1 .2 .2 .5
    understand_code  .5 .2 .2 .1      find_similar    .4 .3 .2 .1
    impact_analysis  .1 .1 .1 .7      exact_match     0  .9 .1 0

Those are the hand-set profiles, the default. ``fitted_profiles()`` reads the weights fitted on the
development suites by ``benchmarks/fit_weights.py`` (``fitted_profiles.json``, with its held-out
numbers); a search picks them with ``options["profile"] = "fitted"``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fourfold.errors import InvalidQuery

__all__ = [
    "DIRECT_CONFIDENCE",
    "FITTED_PATH",
    "PRESETS",
    "PROFILE_SETS",
    "Preset",
    "centrality_scale",
    "default_profiles",
    "dominant",
    "fitted_profiles",
    "get_preset",
    "select_profiles",
    "top_modalities",
]

#: The direct path runs only the dominant modality at or above this confidence.
DIRECT_CONFIDENCE = 0.85

_ORDER = ("semantic", "text", "structural", "graph")

#: The fitted weights and how they were measured, written by ``benchmarks/fit_weights.py``.
FITTED_PATH = Path(__file__).with_name("fitted_profiles.json")

#: Names ``options["profile"]`` accepts; empty means ``hand``.
PROFILE_SETS = ("hand", "fitted")


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


def centrality_scale(name: str, intent: str) -> float:
    """The centrality boost's scale for ``intent`` under the profile set ``name`` (1: docs/design.md's boost)."""
    if name != "fitted":
        return 1.0
    entry = _fitted_document().get("intents", {}).get(intent, {})
    return float(entry.get("centrality", 1.0))


def select_profiles(name: str, hand: Mapping[str, Mapping[str, float]]) -> Mapping[str, Mapping[str, float]]:
    """The profile set ``name`` picks: ``hand`` (or empty) is ``hand`` itself, ``fitted`` overlays the fitted weights.

    Intents the fit does not know (a plugin's) keep their hand-set weights.
    """
    if name in ("", "hand"):
        return hand
    if name == "fitted":
        return {**hand, **fitted_profiles()}
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
