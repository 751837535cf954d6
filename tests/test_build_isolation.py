"""A plugin whose build raises costs only its own shards: the rest of the generation is built,
published and searchable, and the failure is reported (summary, manifest, status, progress)."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from fourfold.coordinator import cli
from fourfold.errors import IndexStateError
from fourfold.index.generation import build_generation
from fourfold.index.progress import BUILDING_FILE
from fourfold.index.store import IndexStore
from fourfold.plugins import hookimpl, manager
from fourfold.plugins.manager import get_registry
from fourfold.plugins.modality import BuildContext, BuildStats
from fourfold.plugins.testing import FakeModality
from fourfold.plugins.types import ModalityQuery


class BrokenModality(FakeModality):
    """Registers fine, then fails every build, as a plugin with a bug in its indexer would."""

    name = "broken"

    def build(self, segments: Any, shard_dir: Path, context: BuildContext) -> BuildStats:
        (shard_dir / "half-written").write_text("x")
        raise ValueError("invalid literal for int() with base 10: 'Merge'")


@pytest.fixture
def broken_plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Installs (as an entry point of the group ``fourfold``) a plugin registering ``BrokenModality``."""
    monkeypatch.delenv("FOURFOLD_PLUGINS", raising=False)
    monkeypatch.delenv("FOURFOLD_BLOCK_PLUGINS", raising=False)

    @hookimpl
    def fourfold_register_modalities(register: Callable[[Any], None]) -> None:
        register(BrokenModality("broken"))

    mod = types.ModuleType("fourfold_probe_broken_build")
    mod.fourfold_register_modalities = fourfold_register_modalities  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    eps = [metadata.EntryPoint(name="broken", value=mod.__name__, group="fourfold")]
    monkeypatch.setattr(
        manager.metadata, "entry_points", lambda group: metadata.EntryPoints(eps) if group == "fourfold" else ()
    )
    manager.reset_registry()
    yield
    manager.reset_registry()


def test_a_failing_build_is_reported_and_the_rest_is_published(
    broken_plugin: None, sample_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "broken" in get_registry().modalities
    store = IndexStore(tmp_path / "home")
    reports: list[tuple[str, int, int, str]] = []
    summary = build_generation(
        store,
        [(sample_repo, "sample")],
        modalities=["text", "structural", "broken"],
        progress=lambda u: reports.append((u.stage, u.done, u.total, u.message)),
    )
    assert summary.failed_shards == ["broken/sample: ValueError: invalid literal for int() with base 10: 'Merge'"]
    assert any(stage == "build:broken" and "FAILED: ValueError" in msg for stage, _, _, msg in reports)
    live = store.live_generation()
    assert live == summary.generation
    reader = store.reader(live)
    assert {s.modality for s in reader.shards()} == {"text", "structural"}
    assert reader.manifest["failed_shards"][0]["modality"] == "broken"
    assert not list((store.generations_dir / live).glob("broken/*"))  # the half-written shard was removed
    assert not (store.home / BUILDING_FILE).exists()  # the build's progress file went with the build
    # another modality answers from the published generation
    (text_shard,) = [s for s in reader.shards() if s.modality == "text"]
    shard = get_registry().modality("text").load(store.generations_dir / live / text_shard.folder)
    hits = shard.search(ModalityQuery("parse_config", k=5)).hits
    assert any(h.path == "app/config.py" for h in hits)
    # and `fourfold index` prints it, `fourfold status` on the store shows it
    cli._print_summary(summary.as_dict(), as_json=False)
    assert "FAILED (not published, the rest is live): broken/sample: ValueError" in capsys.readouterr().out


def test_a_build_where_every_shard_fails_keeps_the_live_generation(
    broken_plugin: None, sample_repo: Path, tmp_path: Path
) -> None:
    store = IndexStore(tmp_path / "home")
    first = build_generation(store, [(sample_repo, "sample")], modalities=["text"])
    with pytest.raises(IndexStateError, match=r"every shard failed to build, the live generation stays: broken/sample"):
        build_generation(store, [], modalities=["broken"])
    assert store.live_generation() == first.generation


def test_progress_inside_a_shard_reaches_the_build_report(sample_repo: Path, tmp_path: Path) -> None:
    """The semantic build's windows (counts, then rate and ETA once known) come out as build:semantic reports."""
    reports: list[tuple[str, int, int, str]] = []
    build_generation(
        IndexStore(tmp_path / "home"),
        [(sample_repo, "sample")],
        modalities=["semantic"],
        settings={"embedder": "hash", "semantic.embed_batch": "2"},
        progress=lambda u: reports.append((u.stage, u.done, u.total, u.message)),
    )
    inside = [r for r in reports if r[0] == "build:semantic" and " windows" in r[3]]
    assert inside, reports
    assert inside[0][1] == 0 and inside[-1][1] == inside[-1][2] > 0
    assert all("shard 1/1 semantic/sample" in r[3] for r in inside)
    segment = [r for r in reports if r[0] == "segment"]
    assert segment and segment[-1][1] == segment[-1][2]
    manifest = json.loads((tmp_path / "home" / "generations" / "g000001" / "manifest.json").read_text())
    assert manifest["failed_shards"] == []
