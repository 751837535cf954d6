"""Every hook fourfold calls, in one file, grouped by lifecycle.

Plugins implement them with ``@hookimpl`` (``pluggy.HookimplMarker("fourfold")``). Built-in
plugins are listed in ``fourfold.plugins.manager.DEFAULT_PLUGINS``; external ones load from the
entry-point group ``fourfold``.

Registration hooks hand the plugin a ``register`` callback (as llm's ``register_models`` does):
every implementation is called and may register any number of things.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pluggy

from fourfold.plugins.types import Segment

__all__ = ["hookimpl", "hookspec"]

hookspec = pluggy.HookspecMarker("fourfold")
hookimpl = pluggy.HookimplMarker("fourfold")


# --- registration (called once when the plugin manager is built) --------------------------------


@hookspec
def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
    """Register retrieval modalities.

    Called once per process when the plugin manager is built. Call ``register(modality)`` for
    each object implementing ``fourfold.plugins.Modality``. Every implementation is called; a
    second modality with a name already taken is an error naming both plugins.
    """


@hookspec
def fourfold_register_embedders(register: Callable[[str, Callable[..., Any]], None]) -> None:
    """Register text embedders for the semantic modality.

    Call ``register(name, factory)``; ``factory(**settings)`` returns an object with
    ``dimensions: int``, ``max_tokens: int`` (the model's window), ``binary: bool`` (True when
    ``embed`` returns ±1 vectors, as Voyage's ubinary does), ``identity() -> str`` (recorded in
    the index; a query with another identity is refused), ``count_tokens(texts) -> list[int]``
    and ``embed(texts, input_type) -> numpy array`` (``input_type`` is "document" or "query").
    See ``fourfold.plugins.embedders.base``. Every implementation is called.
    """


@hookspec
def fourfold_register_rerankers(register: Callable[[str, Callable[..., Any]], None]) -> None:
    """Register rerankers: ``register(name, factory)``; the object has
    ``rerank(query, documents) -> list[float]`` (0-10 relevance per document). Every
    implementation is called.
    """


@hookspec
def fourfold_register_extractors(register: Callable[[str, str, str], None]) -> None:
    """Register definition extractors, which decide where ingestion cuts definition segments.

    Call ``register(name, version, reference)``: ``reference`` names a module-level function as
    ``"package.module:function"`` with the signature ``extract(source: bytes, language: str) ->
    Extraction`` (it must not raise on bad input; an unsupported language comes back
    ``supported=False``). A reference, not the function, because segmentation runs in worker
    processes that import only that module, never the whole plugin registry: keep the module
    cheap to import. ``version`` is part of every file's segment cache key; change it whenever
    the definitions found in a file may change. Every implementation is called; a second
    extractor with a name already taken is an error naming both plugins.

    Ingestion uses one extractor: the one registered last in plugin order (built-ins, then
    installed plugins in entry-point order, then plugins passed in), so an installed plugin
    refines the built-in structural extractor; the choice is logged. With none registered, files
    are cut into line windows only. See ``fourfold.plugins.extractor``.
    """


@hookspec
def fourfold_register_intents(register: Callable[..., None]) -> None:
    """Register intent rules for the coordinator's classifier.

    Call ``register(intent, pattern, confidence, weights)`` where ``pattern`` is a regular
    expression (case-insensitive) tried before the built-in fallbacks, and ``weights`` maps
    modality names to weights for the new intent. Every implementation is called.
    """


@hookspec
def fourfold_adjust_profiles(profiles: dict[str, dict[str, float]]) -> None:
    """Adjust weight profiles in place: ``profiles[intent][modality] = weight``.

    Called once after the built-in profiles and registered intents are known, so a plugin can
    add itself to existing profiles. Every implementation is called, in registration order.
    """


# --- index build ----------------------------------------------------------------------------------


@hookspec(firstresult=True)
def fourfold_compute_centrality(segments: Sequence[Segment], settings: Mapping[str, str]) -> Mapping[str, float] | None:
    """Compute a centrality in [0, inf) for segments of a whole generation (all repositories).

    Called once per index build after segmentation. The first non-None result wins; segments it
    leaves out get 0. The coordinator's boost is ``min(1 + 0.3 ln(1 + c), 1.5)``. ``settings``
    are the build's settings (where the host keeps caches, e.g. ``graph.facts_cache``); an
    implementation may leave the argument out of its signature.
    """
