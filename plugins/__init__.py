"""The plugin contract and the built-in plugins.

A modality plugin builds a shard from segments and answers a search over it; it knows nothing
of Ray or gRPC. Import the contract from here:

    from fourfold.plugins import Segment, Hit, ModalityQuery, ShardResult, Modality, Shard, hookimpl
"""

from fourfold.plugins.hookspecs import hookimpl, hookspec
from fourfold.plugins.modality import BuildContext, BuildStats, Modality, Shard
from fourfold.plugins.types import (
    INTENTS,
    Definition,
    Extraction,
    Hit,
    ModalityQuery,
    Segment,
    ShardResult,
)

__all__ = [
    "INTENTS",
    "BuildContext",
    "BuildStats",
    "Definition",
    "Extraction",
    "Hit",
    "Modality",
    "ModalityQuery",
    "Segment",
    "Shard",
    "ShardResult",
    "hookimpl",
    "hookspec",
]
