"""Segmentation's definition extractor comes from a hook: the structural plugin registers the default,
another plugin refines it (segments and segmenter version change), none at all cuts line windows, and
the process pool cuts with the extractor chosen in the parent, without building the plugin registry.

Plugins are installed as entry points by patching ``importlib.metadata.entry_points`` as the manager
sees it (as tests/test_plugins.py does); the process-wide registry is rebuilt for the test and reset
after it.
"""

from __future__ import annotations

import logging
import sys
import types
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path

import pytest

from fourfold.coordinator import cli
from fourfold.index.generation import build_generation
from fourfold.index.ingest.parallel import MIN_PARALLEL_FILES, FileTask, ParallelSegmenter
from fourfold.index.ingest.segment import segment_file, segmenter_version
from fourfold.index.store import IndexStore
from fourfold.plugins import hookimpl, manager
from fourfold.plugins.extractor import ExtractorSpec
from fourfold.plugins.manager import PluginRegistry
from fourfold.plugins.structural.extract import EXTRACTOR_VERSION
from fourfold.plugins.testing import LINE_DEFINITIONS_REFERENCE, line_definitions
from fourfold.plugins.types import Extraction, Segment

SOURCE = (
    b"import os\n\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n"
    b"\n\nclass Store:\n    def get(self, key):\n        return key\n"
)
FIXTURES = Path(__file__).parent / "fixtures" / "structural"

Install = Callable[..., PluginRegistry]


def _extractor_plugin(module: str, name: str, reference: str = LINE_DEFINITIONS_REFERENCE) -> types.ModuleType:
    """A plugin module registering one extractor called ``name``."""

    @hookimpl
    def fourfold_register_extractors(register: Callable[[str, str, str], None]) -> None:
        register(name, "1", reference)

    mod = types.ModuleType(module)
    mod.fourfold_register_extractors = fourfold_register_extractors  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """``install(name=module, ..., structural=True)``: rebuild the process registry with these plugins installed.

    ``structural=False`` leaves the built-in structural plugin out, as if it were not there.
    """
    monkeypatch.delenv("FOURFOLD_PLUGINS", raising=False)
    monkeypatch.delenv("FOURFOLD_BLOCK_PLUGINS", raising=False)

    def rebuild(structural: bool = True, **plugins: types.ModuleType) -> PluginRegistry:
        eps = []
        for name, mod in plugins.items():
            monkeypatch.setitem(sys.modules, mod.__name__, mod)
            eps.append(metadata.EntryPoint(name=name, value=mod.__name__, group="fourfold"))
        monkeypatch.setattr(
            manager.metadata, "entry_points", lambda group: metadata.EntryPoints(eps) if group == "fourfold" else ()
        )
        builtins = tuple(m for m in manager.DEFAULT_PLUGINS if structural or m != "fourfold.plugins.structural.plugin")
        monkeypatch.setattr(manager, "DEFAULT_PLUGINS", builtins)
        manager.reset_registry()
        return manager.get_registry()

    try:
        yield rebuild
    finally:
        manager.reset_registry()  # the next test builds the real registry again


def _shape(segments: tuple[Segment, ...] | list[Segment]) -> list[tuple[int, int, str | None]]:
    return [(s.start_line, s.end_line, s.symbol) for s in segments]


def test_the_structural_plugin_registers_the_default_extractor() -> None:
    chosen = manager.get_registry().extractor
    assert chosen == ExtractorSpec(
        "structural", EXTRACTOR_VERSION, "fourfold.plugins.structural.extract:extract", "structural"
    )
    assert segmenter_version(chosen) == f"w50-xstructural-{EXTRACTOR_VERSION}-e"
    seg = segment_file("r", "a.py", "python", SOURCE)
    assert ("load", 4, 6) in [(s.symbol, s.start_line, s.end_line) for s in seg.segments]
    assert seg.extraction.supported


def test_a_plugin_extractor_changes_the_segments_and_the_segmenter_version(
    install: Install, caplog: pytest.LogCaptureFixture
) -> None:
    structural = segment_file("r", "a.py", "python", SOURCE)
    structural_version = segmenter_version(manager.get_registry().extractor)
    with caplog.at_level(logging.INFO, logger="fourfold.plugins.manager"):
        registry = install(lines=_extractor_plugin("fourfold_probe_lines", "lines"))
    assert list(registry.extractors) == ["structural", "lines"]  # both registered, the installed one used
    assert registry.extractor == ExtractorSpec("lines", "1", LINE_DEFINITIONS_REFERENCE, "lines")
    assert "definitions come from extractor lines 1 of plugin lines (also registered, not used: structural)" in (
        caplog.text
    )
    refined = segment_file("r", "a.py", "python", SOURCE)
    # one-line definitions from the plugin's extractor, windows over the rest
    assert [(s.start_line, s.end_line, s.symbol) for s in refined.segments if s.symbol] == [
        (4, 4, "load"),
        (9, 9, "Store"),
        (10, 10, "get"),
    ]
    assert refined == segment_file("r", "a.py", "python", SOURCE, line_definitions(SOURCE, "python"))
    assert _shape(refined.segments) != _shape(structural.segments)
    assert segmenter_version(registry.extractor) == "w50-xlines-1-e" != structural_version
    assert ParallelSegmenter(max_workers=1).version == "w50-xlines-1-e"


def test_fourfold_plugins_names_the_extractor(install: Install, capsys: pytest.CaptureFixture[str]) -> None:
    install(lines=_extractor_plugin("fourfold_probe_lines", "lines"))
    assert cli.main(["plugins"]) == 0
    assert "extractor: lines 1 (plugin lines; registered: structural, lines)" in capsys.readouterr().out
    install(structural=False)
    assert cli.main(["plugins"]) == 0
    assert "extractor: none (files are cut into line windows)" in capsys.readouterr().out


def test_without_an_extractor_files_are_line_windows(install: Install, caplog: pytest.LogCaptureFixture) -> None:
    structural_version = segmenter_version(manager.get_registry().extractor)
    with caplog.at_level(logging.INFO, logger="fourfold.plugins.manager"):
        registry = install(structural=False)
    assert registry.extractor is None and not registry.extractors and "structural" not in registry.modalities
    assert "no plugin registered a definition extractor" in caplog.text
    seg = segment_file("r", "a.py", "python", SOURCE)
    assert _shape(seg.segments) == [(1, 11, None)]  # one window: the file is shorter than WINDOW_LINES
    assert seg.extraction == Extraction(definitions=(), parse_errors=0, supported=False)
    assert segmenter_version(registry.extractor) == "w50-xnone-e" != structural_version


def test_two_extractors_the_last_installed_is_used(install: Install) -> None:
    first, second = _extractor_plugin("fourfold_probe_a", "a"), _extractor_plugin("fourfold_probe_b", "b")
    assert install(a=first, b=second).extractor.name == "b"  # type: ignore[union-attr]
    assert install(b=second, a=first).extractor.name == "a"  # type: ignore[union-attr]
    assert install(structural=False, a=first).extractor.name == "a"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("plugin", "fragment"),
    [
        (
            _extractor_plugin("fourfold_probe_dup", "structural"),
            "registered extractor 'structural', already registered by plugin 'structural'",
        ),
        (_extractor_plugin("fourfold_probe_bad_ref", "bad", "no colon here"), "is malformed; write it as"),
        (
            _extractor_plugin("fourfold_probe_missing", "missing", "fourfold_no_such_module:extract"),
            "cannot be imported: ModuleNotFoundError",
        ),
        (
            _extractor_plugin("fourfold_probe_not_callable", "nc", "fourfold.plugins.structural.extract:KINDS"),
            "not callable",
        ),
    ],
    ids=["duplicate-name", "malformed-reference", "missing-module", "not-callable"],
)
def test_a_broken_extractor_registration_drops_its_plugin(
    install: Install, plugin: types.ModuleType, fragment: str
) -> None:
    registry = install(broken=plugin)
    assert fragment in registry.failures["broken"]
    assert registry.pm.get_plugin("broken") is None
    assert list(registry.extractors) == ["structural"] and registry.extractor.plugin == "structural"  # type: ignore[union-attr]


def _worker_modules(segmenter: ParallelSegmenter) -> list[bool]:
    """Whether a pool worker has imported the plugin manager / the semantic plugin (it must not)."""
    pool = segmenter._pool
    assert pool is not None
    probe = "[m in __import__('sys').modules for m in ('fourfold.plugins.manager', 'fourfold.plugins.semantic')]"
    return pool.submit(eval, probe).result(timeout=60)  # type: ignore[no-any-return]


@pytest.mark.slow  # starts worker processes
def test_the_pool_cuts_with_the_registered_extractor_without_building_the_registry(install: Install) -> None:
    tasks = [
        FileTask("fixtures", f"copy{copy}/{path.name}", "python", path.read_bytes())
        for copy in range(MIN_PARALLEL_FILES // 8 + 1)
        for path in sorted(FIXTURES.glob("*.py"))
    ]
    tasks += [FileTask("fixtures", f"extra{i}.py", "python", SOURCE) for i in range(MIN_PARALLEL_FILES)]
    assert len(tasks) >= MIN_PARALLEL_FILES
    structural = [segment_file(t.repo, t.path, t.language, t.source) for t in tasks]
    install(lines=_extractor_plugin("fourfold_probe_lines", "lines"))
    expected = [segment_file(t.repo, t.path, t.language, t.source) for t in tasks]
    assert [_shape(s.segments) for s in expected] != [_shape(s.segments) for s in structural]
    with ParallelSegmenter(max_workers=2) as segmenter:
        assert segmenter.uses_pool(tasks) and segmenter.extractor is not None and segmenter.extractor.name == "lines"
        assert list(segmenter.segment(tasks)) == expected
        assert _worker_modules(segmenter) == [False, False]


def test_a_build_recuts_cached_files_when_the_extractor_changes(
    install: Install, sample_repo: Path, tmp_path: Path
) -> None:
    store = IndexStore(tmp_path / "home")

    def build() -> tuple[int, int, list[tuple[str, int, int, str | None]]]:
        summary = build_generation(store, [(sample_repo, "sample")] if not store.live_generation() else [],
                                   modalities=["text"], centrality=False)  # fmt: skip
        reader = store.require_live()
        try:
            segs = sorted((s.path, s.start_line, s.end_line, s.symbol) for s in reader.segments(repos=["sample"]))
        finally:
            reader.close()
        return summary.files, summary.reused_files, segs

    files, reused, structural = build()
    assert reused == 0 and ("app/config.py", 8, 11, "parse_config") in structural
    install(lines=_extractor_plugin("fourfold_probe_lines", "lines"))
    assert build()[1] == 0  # another extractor: every file is cut again
    files, reused, lines = build()
    assert reused == files > 0  # the same extractor again: every file from the cache
    assert ("app/config.py", 8, 8, "parse_config") in lines and lines != structural
    install(structural=False)
    files, reused, windows = build()
    assert reused == 0 and not [s for s in windows if s[3]]
