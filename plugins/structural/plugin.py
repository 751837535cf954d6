"""Registers the structural modality: tree-sitter definitions looked up by name.

The extractor (:mod:`.extract`) runs during ingestion and gives definition segments their
symbol, kind, qualified name and signature; this modality indexes those segments per shard
(:mod:`.index`) and answers symbol lookups parsed by :mod:`.query`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fourfold.errors import NoIndex
from fourfold.plugins import BuildContext, BuildStats, Segment, hookimpl
from fourfold.plugins.structural.index import INDEX_FILE, StructuralShard, build_shard

__all__ = ["StructuralModality"]


class StructuralModality:
    """Definitions by exact, case-insensitive, prefix, qualified and fuzzy name; one shard per repository."""

    name = "structural"
    sharding = "repo"
    real = True

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        """Index the definition segments of one shard (a rebuild is cheap, so nothing is reused)."""
        return build_shard(segments, shard_dir)

    def load(self, shard_dir: Path) -> StructuralShard:
        """Open a built shard read-only; raises ``NoIndex`` when it was never built."""
        path = shard_dir / INDEX_FILE
        if not path.is_file():
            raise NoIndex(f"no structural shard at {shard_dir}; build the index first (fourfold index)")
        return StructuralShard(path)


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(StructuralModality())
