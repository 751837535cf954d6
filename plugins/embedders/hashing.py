"""``hash``: a deterministic, model-free embedder for tests and smoke runs (not for quality).

Feature hashing of identifier-split tokens: ``parseHTTPConfig`` and ``parse_http_config`` both
become ``parse http config``; each token adds ±(1 + log tf) to one of ``dimensions`` buckets
chosen by a stable hash. It loads instantly and needs no files, so tests of the semantic
modality run in milliseconds, the way httpx's ``MockTransport`` stands in for the network.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter

import numpy as np

from fourfold.plugins.embedders.base import InputType, check_input_type, l2_normalize

__all__ = ["HashEmbedder", "identifier_tokens"]

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def identifier_tokens(text: str) -> list[str]:
    """Lower-cased word pieces: runs of letters/digits, split further at camelCase boundaries."""
    out: list[str] = []
    for word in _WORD.findall(text):
        out.extend(piece.lower() for piece in _CAMEL.findall(word))
    return out


class HashEmbedder:
    """Feature hashing of identifier tokens; same text, same vector, on every machine."""

    name = "hash"
    binary = False

    def __init__(self, dimensions: int | str = 256, max_tokens: int | str = 512) -> None:
        self.dimensions = int(dimensions)
        self.max_tokens = int(max_tokens)
        if self.dimensions <= 0 or self.dimensions % 8:
            raise ValueError(f"hash embedder dimensions must be a positive multiple of 8, got {self.dimensions}")

    def identity(self) -> str:
        return f"hash/blake2b-identifiers/d{self.dimensions}"

    def count_tokens(self, texts: list[str]) -> list[int]:
        return [len(identifier_tokens(t)) for t in texts]

    def embed(self, texts: list[str], input_type: InputType) -> np.ndarray:
        check_input_type(input_type)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            counts = Counter(identifier_tokens(text)[: self.max_tokens])
            for token, tf in counts.items():
                digest = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")
                sign = 1.0 if digest & 1 else -1.0
                out[row, (digest >> 1) % self.dimensions] += sign * (1.0 + math.log(tf))
        return l2_normalize(out)
