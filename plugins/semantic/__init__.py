"""The semantic modality: binary embeddings in FAISS, rescored with float vectors.

See :mod:`fourfold.plugins.semantic.modality` for the build and search, and
:mod:`fourfold.plugins.semantic.store` for the shard's files.
"""

from fourfold.plugins.semantic.modality import PRESETS, SemanticModality, SemanticShard, nlist_for

__all__ = ["PRESETS", "SemanticModality", "SemanticShard", "nlist_for"]
