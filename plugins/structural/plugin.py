"""Registers the structural modality and its definition extractor.

The extractor (:mod:`.extract`, registered through ``fourfold_register_extractors``) runs during
ingestion and gives definition segments their symbol, kind, qualified name and signature; this
modality indexes those segments per shard (:mod:`.index`) and answers symbol lookups parsed by
:mod:`.query`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from fourfold.errors import NoIndex
from fourfold.plugins import BuildContext, BuildStats, Segment, ShardResult, hookimpl
from fourfold.plugins.structural.extract import EXTRACTOR_VERSION
from fourfold.plugins.structural.index import INDEX_FILE, StructuralShard, build_shard, merge_parts

__all__ = ["EXTRACTOR_NAME", "EXTRACTOR_REFERENCE", "StructuralModality"]

#: The extractor this plugin registers, by name and by the function ingestion's workers import.
EXTRACTOR_NAME = "structural"
EXTRACTOR_REFERENCE = "fourfold.plugins.structural.extract:extract"


class StructuralModality:
    """Definitions by exact, case-insensitive, prefix, qualified and fuzzy name; one shard per repository."""

    name = "structural"
    sharding = "repo"
    masks_paths = True  # honours MASK_OPTION: a revision's shard may be a delta over its base's
    real = True

    def merge_parts(self, parts: Sequence[ShardResult], k: int) -> ShardResult:
        """A delta shard's two answers as one (keeps the class cut; see ``index.merge_parts``)."""
        return merge_parts(parts, k)

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


@hookimpl
def fourfold_register_extractors(register: Callable[[str, str, str], None]) -> None:
    register(EXTRACTOR_NAME, EXTRACTOR_VERSION, EXTRACTOR_REFERENCE)
