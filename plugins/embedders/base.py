"""The embedder contract the semantic modality relies on, and helpers every embedder shares."""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

import numpy as np

__all__ = ["Embedder", "InputType", "check_input_type", "l2_normalize"]

#: Documents are indexed, queries are searched; asymmetric models embed them differently.
InputType = Literal["document", "query"]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors.

    ``dimensions`` is the vector width. ``max_tokens`` is the model's window: longer texts are
    truncated by ``embed``, so the modality splits long segments into windows beforehand using
    ``count_tokens``. ``identity()`` names the model *and* the backend (int8 and fp32 runs of the
    same model give different sign bits), and is recorded in every shard so that a shard is
    never searched with vectors from another embedder. ``binary`` is True when the vectors are
    already sign bits (±1): there is then nothing to rescore with.
    """

    dimensions: int
    max_tokens: int
    binary: bool

    def identity(self) -> str: ...

    def count_tokens(self, texts: list[str]) -> list[int]: ...

    def embed(self, texts: list[str], input_type: InputType) -> np.ndarray: ...


def check_input_type(input_type: str) -> None:
    """Reject anything but ``document`` or ``query`` (a typo would silently embed the wrong way)."""
    if input_type not in ("document", "query"):
        raise ValueError(f"input_type must be 'document' or 'query', got {input_type!r}")


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: np.ndarray = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    return unit
