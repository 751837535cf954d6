"""The plugin manager: built-ins, entry points, allow/block lists, and the registries they fill.

``FOURFOLD_PLUGINS`` (comma-separated names) loads only those external plugins;
``FOURFOLD_BLOCK_PLUGINS`` skips the named ones. Built-ins always load.
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from fourfold.errors import PluginError
from fourfold.plugins import hookspecs
from fourfold.plugins.modality import Modality

__all__ = ["DEFAULT_PLUGINS", "PluginRegistry", "get_registry", "reset_registry"]

log = logging.getLogger(__name__)

#: Built-in plugins: ordinary plugin modules, each implementing hooks with ``@hookimpl``.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "fourfold.plugins.structural.plugin",
    "fourfold.plugins.text.plugin",
    "fourfold.plugins.graph.plugin",
    "fourfold.plugins.semantic.plugin",
)


@dataclass
class IntentRule:
    intent: str
    pattern: str
    confidence: float
    weights: dict[str, float]
    plugin: str


@dataclass
class PluginRegistry:
    """What the loaded plugins registered."""

    pm: pluggy.PluginManager
    modalities: dict[str, Modality] = field(default_factory=dict)
    embedders: dict[str, Callable[..., Any]] = field(default_factory=dict)
    rerankers: dict[str, Callable[..., Any]] = field(default_factory=dict)
    intent_rules: list[IntentRule] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)  # plugin name -> why it failed to load

    def modality(self, name: str) -> Modality:
        try:
            return self.modalities[name]
        except KeyError:
            known = ", ".join(sorted(self.modalities)) or "none"
            raise PluginError(f"unknown modality {name!r}; loaded modalities: {known}") from None

    def plugin_versions(self) -> dict[str, str]:
        """Name -> version for every loaded plugin (built-ins carry fourfold's version)."""
        from fourfold import __version__

        out: dict[str, str] = {}
        for plugin, dist in self.pm.list_plugin_distinfo():
            out[self.pm.get_name(plugin) or repr(plugin)] = dist.version
        for name, plugin in self.pm.list_name_plugin():
            out.setdefault(name, getattr(plugin, "__version__", __version__))
        return out


def _env_names(var: str) -> set[str]:
    return {n.strip() for n in os.environ.get(var, "").split(",") if n.strip()}


def _load_entrypoints(pm: pluggy.PluginManager, failures: dict[str, str]) -> None:
    allow = _env_names("FOURFOLD_PLUGINS")
    block = _env_names("FOURFOLD_BLOCK_PLUGINS")
    for ep in metadata.entry_points(group="fourfold"):
        if ep.name in block or (allow and ep.name not in allow):
            log.info("plugin %s skipped by FOURFOLD_PLUGINS/FOURFOLD_BLOCK_PLUGINS", ep.name)
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as exc:  # noqa: BLE001 - one broken plugin must not take the others down
            failures[ep.name] = f"{type(exc).__name__}: {exc}"
            log.error("plugin %s (%s) failed to load: %s", ep.name, ep.value, exc)


def build_registry(extra_plugins: tuple[object, ...] = ()) -> PluginRegistry:
    """Build a fresh plugin manager and call every registration hook."""
    pm = pluggy.PluginManager("fourfold")
    pm.add_hookspecs(hookspecs)
    failures: dict[str, str] = {}
    for modname in DEFAULT_PLUGINS:
        pm.register(importlib.import_module(modname), name=modname.rsplit(".", 2)[-2])
    _load_entrypoints(pm, failures)
    for plugin in extra_plugins:
        pm.register(plugin)
    pm.check_pending()
    registry = PluginRegistry(pm=pm, failures=failures)

    def _owner(impl_plugin: object) -> str:
        return pm.get_name(impl_plugin) or repr(impl_plugin)

    for impl in pm.hook.fourfold_register_modalities.get_hookimpls():
        owner = _owner(impl.plugin)

        def register_modality(modality: Any, _owner: str = owner) -> None:
            for attr in ("name", "sharding", "build", "load"):
                if not hasattr(modality, attr):
                    raise PluginError(f"plugin {_owner!r} registered {modality!r}, which lacks {attr!r}")
            if modality.name in registry.modalities:
                raise PluginError(f"plugin {_owner!r} registered modality {modality.name!r}, already registered")
            registry.modalities[modality.name] = modality

        _call_one(impl, registry, owner, register=register_modality)

    for impl in pm.hook.fourfold_register_embedders.get_hookimpls():
        _call_one(impl, registry, _owner(impl.plugin), register=registry.embedders.__setitem__)
    for impl in pm.hook.fourfold_register_rerankers.get_hookimpls():
        _call_one(impl, registry, _owner(impl.plugin), register=registry.rerankers.__setitem__)
    for impl in pm.hook.fourfold_register_intents.get_hookimpls():
        owner = _owner(impl.plugin)

        def register_intent(
            intent: str, pattern: str, confidence: float, weights: dict[str, float], _owner: str = owner
        ) -> None:
            registry.intent_rules.append(IntentRule(intent, pattern, confidence, dict(weights), _owner))

        _call_one(impl, registry, owner, register=register_intent)
    return registry


def _call_one(impl: Any, registry: PluginRegistry, owner: str, **kwargs: Any) -> None:
    """Call one hook implementation; a failing external plugin is recorded, a built-in raises."""
    try:
        impl.function(**kwargs)
    except Exception as exc:
        if owner in {m.rsplit(".", 2)[-2] for m in DEFAULT_PLUGINS}:
            raise
        registry.failures[owner] = f"{type(exc).__name__}: {exc}"
        log.error("plugin %s broke the contract: %s", owner, exc)


@functools.cache
def get_registry() -> PluginRegistry:
    """The process-wide registry (built on first use)."""
    return build_registry()


def reset_registry() -> None:
    get_registry.cache_clear()
