"""Choosing and caching embedders: one instance per (name, options) per process, loaded lazily.

A shard records the embedder's registry name, its options and its ``identity()``. Building
takes them from ``BuildContext.settings`` (``embedder=minilm``, ``embedder.backend=fp32``...);
loading a shard recreates the same embedder the first time a query needs it and refuses to
search if its identity differs from the recorded one (another model or backend would give
vectors from another space, and the results would be silently wrong).

``embed_batch`` is the unit of a build's embedding: a module-level function over a picklable
``EmbedBatch``, so that the host's ``BuildContext.map_batches`` can run it in another process
(a Ray task) as well as here. Each process creates the embedder once and reuses it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from fourfold.errors import PluginError
from fourfold.plugins.embedders import DEFAULT_EMBEDDER, Embedder, InputType

__all__ = ["EmbedBatch", "EmbedderFactories", "embed_batch", "embedder_options", "get_embedder", "pack_bits"]

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


def pack_bits(vectors: np.ndarray) -> np.ndarray:
    """Sign bits (x > 0) packed eight to a byte, as FAISS binary indexes expect."""
    return np.packbits(vectors > 0, axis=1)


@dataclass(frozen=True, slots=True)
class EmbedBatch:
    """Texts to embed with the embedder ``name`` created from ``options`` (and ``factories``, for
    embedders registered outside the plugin registry, as tests do)."""

    name: str
    options: Mapping[str, str]
    texts: tuple[str, ...]
    input_type: InputType
    factories: EmbedderFactories = None


def embed_batch(batch: EmbedBatch) -> tuple[np.ndarray, np.ndarray | None]:
    """``(codes, vectors)`` of the batch: packed sign bits, and float16 unit vectors (``None`` for a
    binary embedder, whose vectors are the bits). Computed where the batch runs, so that only the
    compact arrays travel back; the result is the same in any process."""
    embedder = get_embedder(batch.name, batch.options, batch.factories)
    dims = embedder.dimensions
    vectors = embedder.embed(list(batch.texts), batch.input_type)
    if vectors.shape != (len(batch.texts), dims):
        raise PluginError(
            f"embedder {embedder.identity()} returned shape {vectors.shape}, expected ({len(batch.texts)}, {dims})"
        )
    return pack_bits(vectors), None if embedder.binary else vectors.astype(np.float16)
