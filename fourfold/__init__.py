"""fourfold: distributed, plugin-based code search.

A query is classified by intent, sent to the retrieval modalities that suit it (semantic, text,
structural, graph — each a pluggy plugin hosted by Ray actors behind gRPC), and the ranked lists
are fused by weighted Reciprocal Rank Fusion.

``fourfold.Client`` and ``fourfold.AsyncClient`` talk to a coordinator; they are imported on first
use, so ``import fourfold`` stays light for the plugins and workers.
"""

from typing import Any

__version__ = "0.1.0"

__all__ = ["AsyncClient", "Client", "__version__"]


def __getattr__(name: str) -> Any:
    if name in ("Client", "AsyncClient"):
        from fourfold import client

        return getattr(client, name)
    raise AttributeError(f"module 'fourfold' has no attribute {name!r}")
