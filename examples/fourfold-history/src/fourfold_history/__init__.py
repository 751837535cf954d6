"""fourfold-history: a fifth fourfold modality over the repositories' git history.

Install it next to fourfold (``pip install fourfold-history``, or ``pip install -e
examples/fourfold-history`` from a fourfold checkout) and restart: the entry point ``history``
in the group ``fourfold`` registers the modality, its ``history`` intent and its weights.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
