"""Text embedders for the semantic modality, and the registry names they go by.

    minilm  — the local default: all-MiniLM-L6-v2 on onnxruntime, no network (prepare once with
              ``python scripts/prepare_model.py``)
    voyage  — Voyage AI voyage-code-3, ubinary, key from VOYAGE_API_KEY
    hash    — deterministic feature hashing, no model: for tests and smoke runs only

They are registered through the ``fourfold_register_embedders`` hook by the semantic plugin;
other plugins can add more.
"""

from fourfold.plugins.embedders.base import Embedder, InputType, l2_normalize
from fourfold.plugins.embedders.hashing import HashEmbedder
from fourfold.plugins.embedders.local import MiniLMEmbedder
from fourfold.plugins.embedders.voyage import VoyageEmbedder

__all__ = [
    "BUILTIN_EMBEDDERS",
    "DEFAULT_EMBEDDER",
    "Embedder",
    "HashEmbedder",
    "InputType",
    "MiniLMEmbedder",
    "VoyageEmbedder",
    "l2_normalize",
]

#: The embedder a shard uses when BuildContext.settings names none.
DEFAULT_EMBEDDER = "minilm"

#: Registry name -> factory, as the semantic plugin registers them.
BUILTIN_EMBEDDERS = {"minilm": MiniLMEmbedder, "voyage": VoyageEmbedder, "hash": HashEmbedder}
