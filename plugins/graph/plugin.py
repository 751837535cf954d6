"""Registers the graph modality (placeholder until its implementation lands)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fourfold.plugins import BuildContext, BuildStats, ModalityQuery, Segment, ShardResult, hookimpl


class _Shard:
    def search(self, query: ModalityQuery) -> ShardResult:
        return ShardResult(hits=(), total_matches=0, notes=("graph: not implemented yet",))

    def close(self) -> None:
        pass


class Placeholder:
    name = "graph"
    sharding = "repo"

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        n = sum(1 for _ in segments)
        shard_dir.mkdir(parents=True, exist_ok=True)
        return BuildStats(segments=n)

    def load(self, shard_dir: Path) -> _Shard:
        return _Shard()


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(Placeholder())
