"""Registers the text modality: trigram index shards answering literal, regex and BM25 searches."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from fourfold.plugins import BuildContext, BuildStats, Segment, hookimpl
from fourfold.plugins.text import shard_notes
from fourfold.plugins.text.build import build_shard
from fourfold.plugins.text.shard import TextShard

__all__ = ["TextModality"]


class TextModality:
    """The ``text`` modality: one shard per repository (large ones split), built from segments.

    ``options["mode"]`` picks ``literal``, ``regex`` (RE2), ``bm25``, ``paths`` (the files whose path holds the
    query, or matches it as a glob) or ``auto`` (the default: a
    regular expression the query writes inline, ``plugins/inline_regex.py``, is run as one; quoted
    strings are literals, other words are ranked by BM25; an ``exact_match`` query without quotes is
    first tried as one literal). In BM25 a struct or class field counts as at least the
    average segment length (``options["field_floor"] = "off"`` scores it by its own length).
    """

    name = "text"
    sharding = "repo"
    masks_paths = True  # honours MASK_OPTION: a revision's shard may be a delta over its base's
    build_version = "2"  # 2: a definition's doc comment counts as its words for BM25 (build.documented_owners)

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        return build_shard(segments, shard_dir)

    def load(self, shard_dir: Path) -> TextShard:
        return TextShard(shard_dir)

    def merge_notes(self, notes: Sequence[str]) -> list[str]:
        """Every shard's note of its files verified or listed, said once for the index (``shard_notes.merge``)."""
        return shard_notes.merge(notes)


@hookimpl
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    register(TextModality())
