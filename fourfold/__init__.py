"""fourfold: distributed, plugin-based code search.

A query is classified by intent, sent to the retrieval modalities that suit it (semantic, text,
structural, graph — each a pluggy plugin hosted by Ray actors behind gRPC), and the ranked lists
are fused by weighted Reciprocal Rank Fusion.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
