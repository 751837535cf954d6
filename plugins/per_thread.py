"""One object per thread and key, for libraries whose objects are not thread-safe.

tree-sitter parsers and python-zstandard's contexts must not be shared by threads (a shared zstd
context segfaulted or read a sound shard as corrupt; ``fourfold.plugins.codec``); making one per
call costs an allocation each time. :class:`PerThread` makes one with its factory on a thread's
first use of a key and keeps it for that thread:

    parsers = PerThread(get_parser)
    tree = parsers.get("python").parse(source)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["PerThread"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class PerThread(Generic[K, V]):
    """``factory(key)`` made once per thread and key, then kept by that thread."""

    def __init__(self, factory: Callable[[K], V]) -> None:
        self._factory = factory
        self._local = threading.local()

    def get(self, key: K) -> V:
        """The calling thread's object for ``key``."""
        kept: dict[K, V] | None = getattr(self._local, "kept", None)
        if kept is None:
            kept = self._local.kept = {}
        found = kept.get(key)
        if found is None:
            found = kept[key] = self._factory(key)
        return found
