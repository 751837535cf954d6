"""Plugin hygiene: every hook reaches a plugin, allow/block lists, broken plugins dropped and named
while the rest keep working, versions in ``fourfold plugins``, and the testing fakes' contract checks.

Entry points are faked by patching ``importlib.metadata.entry_points`` as the manager sees it; the
plugin modules they name are put in ``sys.modules`` by the test, so nothing is installed.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
from importlib import metadata
from typing import Any

import pytest

from fourfold.coordinator import cli
from fourfold.errors import PluginError
from fourfold.plugins import hookimpl, hookspecs, manager
from fourfold.plugins.testing import EveryHookPlugin, FakeModality, run_modality, segments_from_files
from fourfold.plugins.types import Hit, ModalityQuery, ShardResult

BUILTINS = {"semantic", "text", "structural", "graph"}


def _module(name: str, **attrs: Any) -> types.ModuleType:
    mod = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(mod, k, v)
    return mod


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``entry_points(name=module, ...)``: the entry points of the group ``fourfold`` for this test only."""
    monkeypatch.delenv("FOURFOLD_PLUGINS", raising=False)
    monkeypatch.delenv("FOURFOLD_BLOCK_PLUGINS", raising=False)

    def install(**plugins: types.ModuleType | str) -> None:
        eps = []
        for name, mod in plugins.items():
            if isinstance(mod, types.ModuleType):
                monkeypatch.setitem(sys.modules, mod.__name__, mod)
                value = mod.__name__
            else:
                value = mod
            eps.append(metadata.EntryPoint(name=name, value=value, group="fourfold"))
        monkeypatch.setattr(
            manager.metadata, "entry_points", lambda group: metadata.EntryPoints(eps) if group == "fourfold" else ()
        )

    yield install
    manager.reset_registry()


def _probe(name: str) -> types.ModuleType:
    """A plugin module registering a FakeModality called ``name``."""

    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(FakeModality(name))

    return _module(f"fourfold_probe_{name}", fourfold_register_modalities=fourfold_register_modalities)


def test_every_hook_is_called_on_a_plugin_that_implements_it(entry_points: Callable[..., None]) -> None:
    entry_points()
    plugin = EveryHookPlugin("probe")
    reg = manager.build_registry(extra_plugins=(plugin,))
    segs = segments_from_files("demo", {"a.py": "def f():\n    return 1\n"})
    assert reg.pm.hook.fourfold_compute_centrality(segments=segs, settings={}) == {s.id: 1.0 for s in segs}
    specs = {n for n in vars(hookspecs) if n.startswith("fourfold_")}
    assert set(plugin.calls) == specs
    assert {"probe"} <= set(reg.modalities) and "probe" in reg.embedders and "probe" in reg.rerankers
    assert [(r.intent, r.plugin) for r in reg.intent_rules if r.plugin == "probe"] == [("probe_intent", "probe")]
    assert not reg.failures


def test_allow_and_block_lists(entry_points: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> None:
    entry_points(alpha=_probe("alpha"), beta=_probe("beta"))
    assert {"alpha", "beta"} <= set(manager.build_registry().modalities)
    monkeypatch.setenv("FOURFOLD_PLUGINS", "alpha")
    assert set(manager.build_registry().modalities) == BUILTINS | {"alpha"}
    monkeypatch.setenv("FOURFOLD_PLUGINS", "")
    monkeypatch.setenv("FOURFOLD_BLOCK_PLUGINS", " beta ,gamma")
    assert set(manager.build_registry().modalities) == BUILTINS | {"alpha"}
    monkeypatch.setenv("FOURFOLD_BLOCK_PLUGINS", "text")  # built-ins always load
    assert set(manager.build_registry().modalities) >= BUILTINS


def _raising_register() -> types.ModuleType:
    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(FakeModality("half"))
        raise RuntimeError("no licence key")

    return _module("fourfold_probe_raising", fourfold_register_modalities=fourfold_register_modalities)


def _misspelt() -> types.ModuleType:
    @hookimpl
    def fourfold_register_modality(register: Callable[[Any], None]) -> None:  # one letter short
        register(FakeModality("misspelt"))

    return _module("fourfold_probe_misspelt", fourfold_register_modality=fourfold_register_modality)


def _duplicate() -> types.ModuleType:
    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(FakeModality("text"))

    return _module("fourfold_probe_duplicate", fourfold_register_modalities=fourfold_register_modalities)


def _not_a_modality() -> types.ModuleType:
    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(object())

    return _module("fourfold_probe_object", fourfold_register_modalities=fourfold_register_modalities)


def _bad_intent() -> types.ModuleType:
    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(FakeModality("bad_intent"))

    @hookimpl
    def fourfold_register_intents(register: Callable[..., None]) -> None:
        register("oops", r"(unclosed", 0.9, {"bad_intent": 1.0})

    return _module(
        "fourfold_probe_intent",
        fourfold_register_modalities=fourfold_register_modalities,
        fourfold_register_intents=fourfold_register_intents,
    )


def _bad_profiles() -> types.ModuleType:
    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(FakeModality("bad_profiles"))

    @hookimpl
    def fourfold_adjust_profiles(profiles: dict[str, dict[str, float]]) -> None:
        profiles["no_such_intent"]["x"] = 1.0

    return _module(
        "fourfold_probe_profiles",
        fourfold_register_modalities=fourfold_register_modalities,
        fourfold_adjust_profiles=fourfold_adjust_profiles,
    )


@pytest.mark.parametrize(
    ("factory", "fragment"),
    [
        (
            lambda: "fourfold_probe_missing_module",
            "ModuleNotFoundError: No module named 'fourfold_probe_missing_module'",
        ),
        (_raising_register, "RuntimeError: no licence key"),
        (_misspelt, "unknown hook 'fourfold_register_modality'"),
        (_duplicate, "plugin 'broken' registered modality 'text', already registered by plugin 'text'"),
        (_not_a_modality, "which lacks 'name'"),
        (_bad_intent, "registered intent 'oops' with an invalid pattern '(unclosed'"),
        (_bad_profiles, "KeyError: 'no_such_intent'"),
    ],
    ids=["import", "raises", "misspelt-hook", "duplicate-name", "not-a-modality", "bad-pattern", "adjust-profiles"],
)
def test_a_broken_plugin_is_dropped_and_named_while_the_rest_work(
    entry_points: Callable[..., None], factory: Callable[[], Any], fragment: str
) -> None:
    entry_points(good=_probe("good"), broken=factory())
    reg = manager.build_registry()
    assert fragment in reg.failures["broken"]
    assert set(reg.modalities) == BUILTINS | {"good"}  # nothing half-registered by the broken one
    assert not [r for r in reg.intent_rules if r.plugin == "broken"]
    assert reg.pm.get_plugin("broken") is None
    profiles: dict[str, dict[str, float]] = {"understand_code": {}}
    reg.pm.hook.fourfold_adjust_profiles(profiles=profiles)  # a dropped plugin is never called again


def test_fourfold_plugins_lists_versions_and_failures(
    entry_points: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    entry_points(good=_probe("good"), broken="fourfold_probe_missing_module")
    manager.reset_registry()
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    from fourfold import __version__

    assert f"text {__version__}" in out and "good " in out
    assert "modalities: good, graph, semantic, structural, text" in out
    assert "FAILED broken: ModuleNotFoundError" in out


def test_an_installed_plugin_reports_its_distribution_version() -> None:
    eps = [ep for ep in metadata.entry_points(group="fourfold") if ep.name == "history"]
    if not eps:
        pytest.skip("examples/fourfold-history is not installed (make install installs it)")
    reg = manager.build_registry()
    assert reg.plugin_versions()["history"] == metadata.version("fourfold-history")


def test_a_built_in_that_breaks_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(FakeModality("text"))

    fake_builtin = _module("fourfold_probe_builtin", fourfold_register_modalities=fourfold_register_modalities)
    monkeypatch.setitem(sys.modules, "fourfold.plugins.probe.plugin", fake_builtin)
    monkeypatch.setattr(manager, "DEFAULT_PLUGINS", (*manager.DEFAULT_PLUGINS, "fourfold.plugins.probe.plugin"))
    monkeypatch.setattr(manager, "_BUILTIN_NAMES", manager._BUILTIN_NAMES | {"probe"})
    with pytest.raises(
        PluginError, match="plugin 'probe' registered modality 'text', already registered by plugin 'text'"
    ):
        manager.build_registry()


# -- the fakes a plugin author tests with ---------------------------------------------------------


def test_run_modality_builds_loads_and_searches() -> None:
    segs = segments_from_files("demo", {"net.py": "def send():\n    retry()\n", "db.py": "def save():\n    pass\n"})
    result = run_modality(FakeModality(), segs, ModalityQuery(text="retry", k=5))
    assert [h.symbol for h in result.hits] == ["send"] and result.total_matches == 1


class _Unranked(FakeModality):
    """Returns its hits worst first, which the runner must reject."""

    def load(self, shard_dir: Any) -> Any:
        inner = super().load(shard_dir)

        class Shard:
            def search(self, query: ModalityQuery) -> ShardResult:
                hits = inner.search(query).hits
                return ShardResult(
                    tuple(
                        Hit(h.segment_id, h.repo, h.path, h.start_line, h.end_line, float(i))
                        for i, h in enumerate(hits)
                    )
                )

            def close(self) -> None:
                inner.close()

        return Shard()


def test_run_modality_rejects_a_result_that_breaks_the_contract() -> None:
    segs = segments_from_files("demo", {"a.py": "def a():\n    x = 1\n\n\ndef b():\n    x = 2\n"})
    with pytest.raises(PluginError, match="not ranked best first"):
        run_modality(_Unranked("unranked"), segs, "x")
