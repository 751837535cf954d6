"""The entry point: registers the ``history`` modality, the ``history`` intent and its weights.

Loaded by fourfold from the entry-point group ``fourfold`` (see this package's pyproject.toml);
nothing in fourfold's core names it. ``FOURFOLD_BLOCK_PLUGINS=history`` turns it off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fourfold.plugins import BuildContext, BuildStats, Segment, hookimpl
from fourfold_history import __version__
from fourfold_history.build import build_shard
from fourfold_history.shard import HistoryShard

__all__ = ["HISTORY_RULES", "HISTORY_WEIGHTS", "HistoryModality", "__version__"]

_CHANGE_VERB = r"(?:chang|modif|add|introduc|remov|delet|touch|writ|wrote|renam|break|broke|fix|edit|rewr|refactor)\w*"

#: (pattern, confidence). At 0.85 and above the coordinator's direct path runs history alone.
#: Only past-tense "why was/did ..." is claimed (fused, 0.70): "why does X do Y" is the core's
#: understand_code form, which a plugin must not take over.
HISTORY_RULES: tuple[tuple[str, float], ...] = (
    (rf"\bwhen\s+(?:was|were|did|has|have|is)\b.*\b{_CHANGE_VERB}", 0.90),
    (rf"\bwho\s+(?:last\s+|first\s+|most\s+recently\s+)?(?:{_CHANGE_VERB}|owns|authored)", 0.90),
    (
        r"\b(?:recent|latest|last|newest)\s+(?:\w+\s+)?(?:changes?|commits?|edits?|modifications?)\b"
        r"|\bchanged\s+recently\b|\bgit\s+(?:log|blame|history)\b|\b(?:commit|change)\s+history\b|\bhistory\s+of\b",
        0.85,
    ),
    (r"^\s*why\s+(?:was|were|did)\b", 0.70),
)

#: The ``history`` intent's profile: commits first, code by meaning and words beside them.
HISTORY_WEIGHTS: dict[str, float] = {"history": 0.6, "semantic": 0.2, "text": 0.1, "structural": 0.1}

#: What history adds to the built-in intents' profiles (kept below their third modality so the
#: default and thorough presets of those intents run what they ran before; it joins when chosen).
PROFILE_WEIGHTS: dict[str, float] = {"understand_code": 0.1}


class HistoryModality:
    """The ``history`` modality: a shard per repository over its git history.

    ``build`` reads ``git log -p`` of the repository found at ``context.settings["repo_path.<repo>"]``
    (set by fourfold's indexer), maps each commit's changed lines onto today's segments and writes
    one SQLite file; ``load`` opens it read-only. ``history.max_commits`` in the build settings caps
    the commits read per repository (default 20,000; 0 reads all).
    """

    name = "history"
    sharding = "repo"

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        return build_shard(segments, shard_dir, context)

    def load(self, shard_dir: Path) -> HistoryShard:
        return HistoryShard(shard_dir)


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(HistoryModality())


@hookimpl
def fourfold_register_intents(register: Callable[..., None]) -> None:
    for pattern, confidence in HISTORY_RULES:
        register("history", pattern, confidence, HISTORY_WEIGHTS)


@hookimpl
def fourfold_adjust_profiles(profiles: dict[str, dict[str, float]]) -> None:
    for intent, weight in PROFILE_WEIGHTS.items():
        if intent in profiles:
            profiles[intent].setdefault("history", weight)
