"""Choosing and caching embedders: one instance per (name, options) per process, loaded lazily.

A shard records the embedder's registry name, its options and its ``identity()``. Building
takes them from ``BuildContext.settings`` (``embedder=minilm``, ``embedder.backend=fp32``...);
loading a shard recreates the same embedder the first time a query needs it and refuses to
search if its identity differs from the recorded one (another model or backend would give
vectors from another space, and the results would be silently wrong).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from fourfold.errors import PluginError
from fourfold.plugins.embedders import DEFAULT_EMBEDDER, Embedder

__all__ = ["EmbedderFactories", "embedder_options", "get_embedder"]

#: Registry name -> factory; ``None`` means "ask the plugin registry".
EmbedderFactories = Mapping[str, Callable[..., Any]] | None

_cache: dict[tuple[Callable[..., Any], tuple[tuple[str, str], ...]], Embedder] = {}
_cache_lock = threading.Lock()


def embedder_options(settings: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """``(name, options)`` from build settings: ``embedder`` and every ``embedder.<option>``."""
    name = settings.get("embedder") or DEFAULT_EMBEDDER
    options = {k.removeprefix("embedder."): v for k, v in settings.items() if k.startswith("embedder.")}
    return name, options


def _factories(factories: EmbedderFactories) -> Mapping[str, Callable[..., Any]]:
    if factories is not None:
        return factories
    from fourfold.plugins.manager import get_registry

    return get_registry().embedders


def get_embedder(name: str, options: Mapping[str, str], factories: EmbedderFactories = None) -> Embedder:
    """The process-wide embedder for ``name``'s factory with ``options``, created on first use."""
    known = _factories(factories)
    if name not in known:
        raise PluginError(f"unknown embedder {name!r}; registered embedders: {', '.join(sorted(known)) or 'none'}")
    key = (known[name], tuple(sorted(options.items())))
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
        try:
            embedder: Embedder = known[name](**options)
        except TypeError as exc:
            raise PluginError(f"embedder {name!r} rejected its options {dict(options)} ({exc})") from exc
        _cache[key] = embedder
        return embedder
