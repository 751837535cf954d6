"""``voyage``: Voyage AI's ``voyage-code-3`` through the ``voyageai`` client, as sign bits.

Both documents and queries are requested with ``output_dtype="ubinary"`` (1024 dimensions
packed into 128 bytes) and the right ``input_type``; the bits come back unpacked as ±1 floats,
so the modality's binary index sees exactly what Voyage produced (``binary = True``: there is
no float vector to rescore with).

Requests are batched within the API's limits (texts per request and an estimated token
budget per request) and retried with exponential backoff and jitter on rate limits, overload,
timeouts and dropped connections. The key comes from ``VOYAGE_API_KEY``; ``base_url`` points
the client elsewhere (the tests use a fake server on 127.0.0.1).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator

import numpy as np

from fourfold.errors import PluginError, Unavailable
from fourfold.plugins.embedders.base import InputType, check_input_type

__all__ = ["VoyageEmbedder"]

#: voyage-code-3 accepts at most 1,000 texts and 120,000 tokens per request.
MAX_TEXTS_PER_REQUEST = 1000
MAX_TOKENS_PER_REQUEST = 120_000
#: Code tokenises at roughly 3 characters per token; the estimate errs towards smaller batches.
_CHARS_PER_TOKEN = 3


class VoyageEmbedder:
    """voyage-code-3 ubinary embeddings over HTTPS, batched and retried."""

    name = "voyage"
    binary = True

    def __init__(
        self,
        model: str = "voyage-code-3",
        dimensions: int | str = 1024,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int | str = 6,
        backoff_s: float | str = 1.0,
        timeout_s: float | str = 60.0,
        batch_texts: int | str = 128,
        batch_tokens: int | str = 100_000,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        key = api_key or os.environ.get("VOYAGE_API_KEY", "")
        if not key:
            raise PluginError(
                "the voyage embedder needs an API key: set VOYAGE_API_KEY (or choose the local embedder, "
                "settings embedder=minilm)"
            )
        from voyageai.client import Client

        self.model = model
        self.dimensions = int(dimensions)
        self.max_tokens = 32_000
        self.max_retries = int(max_retries)
        self.backoff_s = float(backoff_s)
        self.batch_texts = min(int(batch_texts), MAX_TEXTS_PER_REQUEST)
        self.batch_tokens = min(int(batch_tokens), MAX_TOKENS_PER_REQUEST)
        self._sleep = sleep
        # The client's own retries wait at least a second each; ours are configurable and logged.
        self._client = Client(api_key=key, max_retries=0, timeout=float(timeout_s), base_url=base_url)

    def identity(self) -> str:
        return f"voyage/{self.model}/ubinary/d{self.dimensions}"

    def count_tokens(self, texts: list[str]) -> list[int]:
        """An estimate (the exact tokenizer would be a download): characters / 3."""
        return [len(t) // _CHARS_PER_TOKEN + 1 for t in texts]

    def batches(self, texts: list[str]) -> Iterator[tuple[int, int]]:
        """``(start, end)`` ranges that respect the per-request text and token limits."""
        start, tokens = 0, 0
        for i, n in enumerate(self.count_tokens(texts)):
            n = min(n, self.max_tokens)
            if i > start and (i - start >= self.batch_texts or tokens + n > self.batch_tokens):
                yield start, i
                start, tokens = i, 0
            tokens += n
        if start < len(texts):
            yield start, len(texts)

    def embed(self, texts: list[str], input_type: InputType) -> np.ndarray:
        """±1 float32 [len(texts), dimensions], from Voyage's packed sign bits."""
        check_input_type(input_type)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for start, end in self.batches(texts):
            packed = np.asarray(self._request(texts[start:end], input_type), dtype=np.uint8)
            bits = np.unpackbits(packed, axis=1)[:, : self.dimensions]
            out[start:end] = bits.astype(np.float32) * 2.0 - 1.0
        return out

    def _request(self, texts: list[str], input_type: str) -> list[list[int]]:
        from voyageai import error

        retryable = (
            error.RateLimitError,
            error.ServiceUnavailableError,
            error.Timeout,
            error.APIConnectionError,
            error.TryAgain,
        )
        for attempt in range(self.max_retries + 1):
            try:
                result = self._client.embed(
                    texts,
                    model=self.model,
                    input_type=input_type,
                    output_dtype="ubinary",
                    output_dimension=self.dimensions,
                )
                return [[int(v) for v in e] for e in result.embeddings]
            except retryable as exc:
                if attempt == self.max_retries:
                    raise Unavailable(
                        f"Voyage embeddings failed after {attempt + 1} attempts ({type(exc).__name__}: {exc}); "
                        "retry later or raise max_retries"
                    ) from exc
                self._sleep(min(self.backoff_s * 2**attempt, 30.0) * (0.5 + random.random() / 2))
            except error.AuthenticationError as exc:
                raise PluginError(f"Voyage rejected the API key in VOYAGE_API_KEY ({exc}); check the key") from exc
        raise AssertionError("unreachable: the loop returns or raises")
