"""``voyage``: Voyage AI's ``rerank-2.5`` through the ``voyageai`` client."""

from __future__ import annotations

import os

from fourfold.errors import PluginError, Unavailable

__all__ = ["MAX_SCORE", "VoyageReranker"]

MAX_SCORE = 10.0


class VoyageReranker:
    """Voyage AI's ``rerank-2.5`` over HTTPS; relevance 0..1 scaled to 0..10.

    Without ``VOYAGE_API_KEY`` (or ``api_key``) it is unavailable, and says so when built.
    ``base_url`` points the client elsewhere (the tests use a fake server on 127.0.0.1).
    """

    name = "voyage"

    def __init__(
        self,
        model: str = "rerank-2.5",
        api_key: str | None = None,
        base_url: str | None = None,
        timeout_s: float | str = 10.0,
    ) -> None:
        key = api_key or os.environ.get("VOYAGE_API_KEY", "")
        if not key:
            raise Unavailable("the voyage reranker is unavailable: set VOYAGE_API_KEY, or search without --rerank")
        from voyageai.client import Client

        self.model = model
        # No client retries: a retry would outlive the rerank deadline, and the fused order is a fine answer.
        self._client = Client(api_key=key, max_retries=0, timeout=float(timeout_s), base_url=base_url)

    def rerank(self, query: str, documents: list[str]) -> list[float]:
        from voyageai import error

        try:
            result = self._client.rerank(query, documents, model=self.model, truncation=True)
        except error.AuthenticationError as exc:
            raise PluginError(f"Voyage rejected the API key in VOYAGE_API_KEY ({exc}); check the key") from exc
        scores = [0.0] * len(documents)
        for r in result.results:
            scores[r.index] = MAX_SCORE * float(r.relevance_score)
        return scores
