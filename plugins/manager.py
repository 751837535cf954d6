"""The plugin manager: built-ins, entry points, allow/block lists, and the registries they fill.

``FOURFOLD_PLUGINS`` (comma-separated names) loads only those external plugins;
``FOURFOLD_BLOCK_PLUGINS`` skips the named ones. Built-ins always load.

An external plugin that fails to import, implements a hook that does not exist, raises in a
registration hook or registers something malformed is dropped whole (unregistered, with what it had
registered) and recorded in ``PluginRegistry.failures`` under its name; the others keep working.
A built-in that does any of that raises: fourfold itself is broken.
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from fourfold.errors import PluginError
from fourfold.plugins import hookspecs
from fourfold.plugins.extractor import ExtractorSpec, load_extractor
from fourfold.plugins.modality import Modality
from fourfold.plugins.types import INTENTS, IntentRule

__all__ = ["DEFAULT_PLUGINS", "PluginRegistry", "get_registry", "reset_registry"]

log = logging.getLogger(__name__)

#: Built-in plugins: ordinary plugin modules, each implementing hooks with ``@hookimpl``.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "fourfold.plugins.structural.plugin",
    "fourfold.plugins.text.plugin",
    "fourfold.plugins.graph.plugin",
    "fourfold.plugins.semantic.plugin",
    "fourfold.plugins.rerankers.plugin",
)


@dataclass
class PluginRegistry:
    """What the loaded plugins registered."""

    pm: pluggy.PluginManager
    modalities: dict[str, Modality] = field(default_factory=dict)
    embedders: dict[str, Callable[..., Any]] = field(default_factory=dict)
    rerankers: dict[str, Callable[..., Any]] = field(default_factory=dict)
    extractors: dict[str, ExtractorSpec] = field(default_factory=dict)  # name -> spec, in plugin order
    intent_rules: list[IntentRule] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)  # plugin name -> why it failed to load
    versions: dict[str, str] = field(default_factory=dict)  # entry-point plugin name -> its distribution's version
    owners: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, name) -> the plugin that registered it

    def modality(self, name: str) -> Modality:
        try:
            return self.modalities[name]
        except KeyError:
            known = ", ".join(sorted(self.modalities)) or "none"
            raise PluginError(f"unknown modality {name!r}; loaded modalities: {known}") from None

    @property
    def extractor(self) -> ExtractorSpec | None:
        """The definition extractor ingestion uses: the last registered in plugin order, None when none is.

        Plugin order is the built-ins (``DEFAULT_PLUGINS``), then installed plugins in entry-point
        order, then plugins passed to :func:`build_registry`; so an installed plugin refines the
        built-in structural extractor rather than the other way round.
        """
        return next(reversed(self.extractors.values()), None)

    def plugin_versions(self) -> dict[str, str]:
        """Name -> version for every loaded plugin (built-ins carry fourfold's version)."""
        from fourfold import __version__

        out: dict[str, str] = {}
        for plugin, dist in self.pm.list_plugin_distinfo():
            out[self.pm.get_name(plugin) or repr(plugin)] = dist.version
        for name, plugin in self.pm.list_name_plugin():
            if name in self.versions:
                out.setdefault(name, self.versions[name])
            out.setdefault(name, getattr(plugin, "__version__", __version__))
        return out


def _env_names(var: str) -> set[str]:
    return {n.strip() for n in os.environ.get(var, "").split(",") if n.strip()}


def _load_entrypoints(pm: pluggy.PluginManager, failures: dict[str, str], versions: dict[str, str]) -> None:
    allow = _env_names("FOURFOLD_PLUGINS")
    block = _env_names("FOURFOLD_BLOCK_PLUGINS")
    for ep in metadata.entry_points(group="fourfold"):
        if ep.name in block or (allow and ep.name not in allow):
            log.info("plugin %s skipped by FOURFOLD_PLUGINS/FOURFOLD_BLOCK_PLUGINS", ep.name)
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
            if ep.dist is not None:
                versions[ep.name] = ep.dist.version
        except Exception as exc:  # noqa: BLE001 - one broken plugin must not take the others down
            failures[ep.name] = f"{type(exc).__name__}: {exc}"
            log.error("plugin %s (%s) failed to load: %s", ep.name, ep.value, exc)


def build_registry(extra_plugins: tuple[object, ...] = ()) -> PluginRegistry:
    """Build a fresh plugin manager and call every registration hook."""
    pm = pluggy.PluginManager("fourfold")
    pm.add_hookspecs(hookspecs)
    failures: dict[str, str] = {}
    versions: dict[str, str] = {}
    for modname in DEFAULT_PLUGINS:
        pm.register(importlib.import_module(modname), name=modname.rsplit(".", 2)[-2])
    _load_entrypoints(pm, failures, versions)
    for plugin in extra_plugins:
        pm.register(plugin, name=getattr(plugin, "__name__", None) or getattr(plugin, "name", None))
    _check_pending(pm, failures)
    registry = PluginRegistry(pm=pm, failures=failures, versions=versions)

    def _owner(impl_plugin: object) -> str:
        return pm.get_name(impl_plugin) or repr(impl_plugin)

    for impl in pm.hook.fourfold_register_modalities.get_hookimpls():
        owner = _owner(impl.plugin)

        def register_modality(modality: Any, _owner: str = owner) -> None:
            for attr in ("name", "sharding", "build", "load"):
                if not hasattr(modality, attr):
                    raise PluginError(f"plugin {_owner!r} registered {modality!r}, which lacks {attr!r}")
            if modality.name in registry.modalities:
                first = registry.owners.get(("modality", modality.name), "?")
                raise PluginError(
                    f"plugin {_owner!r} registered modality {modality.name!r}, already registered by plugin {first!r}"
                )
            registry.modalities[modality.name] = modality
            registry.owners[("modality", modality.name)] = _owner

        _call_one(impl, registry, owner, register=register_modality)

    for kind, table, hook in (
        ("embedder", registry.embedders, pm.hook.fourfold_register_embedders),
        ("reranker", registry.rerankers, pm.hook.fourfold_register_rerankers),
    ):
        for impl in hook.get_hookimpls():
            owner = _owner(impl.plugin)

            def register_factory(
                name: str,
                factory: Callable[..., Any],
                _owner: str = owner,
                _kind: str = kind,
                _table: dict[str, Callable[..., Any]] = table,
            ) -> None:
                if not callable(factory):
                    raise PluginError(
                        f"plugin {_owner!r} registered {_kind} {name!r} with {factory!r}, which is not callable"
                    )
                _table[name] = factory
                registry.owners[(_kind, name)] = _owner

            _call_one(impl, registry, owner, register=register_factory)
    for impl in pm.hook.fourfold_register_extractors.get_hookimpls():
        owner = _owner(impl.plugin)

        def register_extractor(name: str, version: str, reference: str, _owner: str = owner) -> None:
            for what, value in (("name", name), ("version", version)):
                if not isinstance(value, str) or not value.strip():
                    raise PluginError(
                        f"plugin {_owner!r} registered an extractor with {what} {value!r}; use a non-empty string"
                    )
            if name in registry.extractors:
                first = registry.owners.get(("extractor", name), "?")
                raise PluginError(
                    f"plugin {_owner!r} registered extractor {name!r}, already registered by plugin {first!r}"
                )
            try:
                load_extractor(reference)  # fail here, naming the plugin, not in the middle of a build
            except PluginError as exc:
                raise PluginError(f"plugin {_owner!r} registered extractor {name!r}: {exc}") from None
            registry.extractors[name] = ExtractorSpec(name, version, reference, _owner)
            registry.owners[("extractor", name)] = _owner

        _call_one(impl, registry, owner, register=register_extractor)
    if (chosen := registry.extractor) is not None:
        others = [n for n in registry.extractors if n != chosen.name]
        log.info(
            "definitions come from extractor %s %s of plugin %s%s",
            chosen.name,
            chosen.version,
            chosen.plugin,
            f" (also registered, not used: {', '.join(others)})" if others else "",
        )
    else:
        log.info("no plugin registered a definition extractor: files are segmented as line windows")
    for impl in pm.hook.fourfold_register_intents.get_hookimpls():
        owner = _owner(impl.plugin)

        def register_intent(
            intent: str, pattern: str, confidence: float, weights: dict[str, float], _owner: str = owner
        ) -> None:
            try:
                compiled = re.compile(pattern, re.IGNORECASE)
            except re.error as exc:
                raise PluginError(
                    f"plugin {_owner!r} registered intent {intent!r} with an invalid pattern {pattern!r}: {exc}"
                ) from None
            if not 0.0 <= confidence <= 1.0:
                raise PluginError(
                    f"plugin {_owner!r} registered intent {intent!r} with confidence {confidence!r}; use 0 to 1"
                )
            registry.intent_rules.append(
                IntentRule(f"plugin:{_owner}", intent, confidence, compiled, dict(weights), _owner)
            )

        _call_one(impl, registry, owner, register=register_intent)
    # fourfold_adjust_profiles runs in the coordinator; try each implementation once here, on a
    # scratch copy, so that one that raises is dropped now rather than failing the coordinator.
    scratch: dict[str, dict[str, float]] = {intent: {} for intent in INTENTS}
    scratch.update({r.intent: dict(r.weights) for r in registry.intent_rules})
    for impl in pm.hook.fourfold_adjust_profiles.get_hookimpls():
        _call_one(impl, registry, _owner(impl.plugin), profiles=scratch)
    return registry


def _check_pending(pm: pluggy.PluginManager, failures: dict[str, str]) -> None:
    """``pm.check_pending()``, dropping an external plugin with a misspelt hook instead of failing all."""
    while True:
        try:
            pm.check_pending()
            return
        except pluggy.PluginValidationError as exc:
            name = pm.get_name(exc.plugin) or repr(exc.plugin)
            if name in _BUILTIN_NAMES:
                raise
            failures[name] = f"PluginValidationError: {exc}"
            log.error("plugin %s dropped: %s", name, exc)
            pm.unregister(exc.plugin)


_BUILTIN_NAMES = frozenset(m.rsplit(".", 2)[-2] for m in DEFAULT_PLUGINS)


def _call_one(impl: Any, registry: PluginRegistry, owner: str, **kwargs: Any) -> None:
    """Call one hook implementation; a failing external plugin is dropped and recorded, a built-in raises."""
    if owner in registry.failures:
        return  # already dropped by an earlier hook
    try:
        impl.function(**kwargs)
    except Exception as exc:
        if owner in _BUILTIN_NAMES:
            raise
        registry.failures[owner] = f"{type(exc).__name__}: {exc}"
        log.error("plugin %s broke the contract and is not loaded: %s", owner, exc)
        _drop(registry, owner, impl.plugin)


def _drop(registry: PluginRegistry, owner: str, plugin: object) -> None:
    """Forget everything ``owner`` registered and unregister it, so no later hook call reaches it."""
    tables: dict[str, dict[str, Any]] = {
        "modality": registry.modalities,
        "embedder": registry.embedders,
        "reranker": registry.rerankers,
        "extractor": registry.extractors,
    }
    for (kind, name), who in list(registry.owners.items()):
        if who == owner:
            tables[kind].pop(name, None)
            del registry.owners[(kind, name)]
    registry.intent_rules[:] = [r for r in registry.intent_rules if r.plugin != owner]
    if registry.pm.is_registered(plugin):
        registry.pm.unregister(plugin)


@functools.cache
def get_registry() -> PluginRegistry:
    """The process-wide registry (built on first use)."""
    return build_registry()


def reset_registry() -> None:
    get_registry.cache_clear()
