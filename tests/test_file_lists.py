"""A repository's file list kept in the catalog by key: an update in a large fleet neither opens every
carried repository's segment database for its files nor lists every peer's paths for the graph.

Real builds through ``build_generation`` (SQLite on disk, the graph's facts cache on disk).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fourfold.index import generation
from fourfold.index.generation import RepoOptions, build_generation
from fourfold.index.store import IndexStore, paths_key, recall_file_list, remember_file_list
from fourfold.plugins.graph import plugin as graph_plugin
from fourfold.plugins.graph.facts_cache import FactsCache


def _repo(root: Path, name: str, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / name / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / name / rel).write_text(text)
    return root / name


def test_a_file_list_round_trips_by_key_and_a_new_key_replaces_the_old(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    files = [("a.py", 10), ("pkg/b.py", 20), ("é.py", 3)]
    key = paths_key(files)
    assert key == paths_key(list(reversed(files)))  # the order does not matter
    assert key != paths_key([("a.py", 11), ("pkg/b.py", 20), ("é.py", 3)])  # a size does
    with store.catalog() as catalog:
        remember_file_list(catalog, "r", key, files)
        assert recall_file_list(catalog, "r", key) == files
        assert recall_file_list(catalog, "r", "other") is None
        assert recall_file_list(catalog, "s", key) is None
        newer = [("a.py", 10)]
        remember_file_list(catalog, "r", paths_key(newer), newer)
        assert recall_file_list(catalog, "r", key) is None  # the old list went
        catalog.execute("UPDATE file_lists SET files = ? WHERE repo = 'r'", (b"not zlib",))
        assert recall_file_list(catalog, "r", paths_key(newer)) is None  # damaged: a miss, not a failure


def test_a_pinned_repository_is_carried_from_its_kept_file_list_without_opening_its_segments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = IndexStore(tmp_path / "home")
    alpha = _repo(tmp_path, "alpha", {"alpha/__init__.py": "def one():\n    return 1\n", "alpha/x.py": "X = 1\n"})
    beta = _repo(tmp_path, "beta", {"beta/__init__.py": "import alpha\n\n\ndef two():\n    return alpha.one()\n"})
    options = {"alpha": RepoOptions(commit="c1"), "beta": RepoOptions(commit="c1")}
    build_generation(store, [(alpha, "alpha"), (beta, "beta")], modalities=["text"], repo_options=options)
    first = store.require_live()
    keys = {name: first.manifest["repos"][name]["paths_key"] for name in ("alpha", "beta")}
    sizes = [(rel, (alpha / rel).stat().st_size) for rel in ("alpha/__init__.py", "alpha/x.py")]
    assert keys["alpha"] == paths_key(sizes)

    opened: list[str] = []
    real = sqlite3.connect

    def counting(database: object, *args: object, **kwargs: object) -> sqlite3.Connection:
        if "mode=ro" in str(database) and "/segments/" in str(database):
            opened.append(str(database))
        return real(database, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(generation.sqlite3, "connect", counting)
    summary = build_generation(store, [], modalities=["text"], repo_options=options)
    monkeypatch.undo()
    assert opened == []  # neither repository's segment database was opened for its files
    assert summary.carried_shards == summary.shards
    second = store.require_live()
    assert second.name != first.name
    for name in ("alpha", "beta"):
        assert second.manifest["repos"][name]["paths_key"] == keys[name]
        assert sorted(second.paths(name)) == sorted(first.paths(name))


def test_a_partition_reads_a_peers_paths_once_then_keeps_its_names_by_key(tmp_path: Path) -> None:
    kept = FactsCache(tmp_path / "facts.sqlite")
    asked: list[str] = []

    def paths_of(repo: str) -> list[str]:
        asked.append(repo)
        return ["click/__init__.py", "click/core.py"]

    first = graph_plugin._provided("build-1", "click", paths_of, kept, "k1")
    assert first == frozenset({"py:click"}) and asked == ["click"]
    kept.flush()
    again = graph_plugin._provided("build-2", "click", paths_of, FactsCache(tmp_path / "facts.sqlite"), "k1")
    assert again == first and asked == ["click"]  # a later build (another process's cache) reads no paths
    graph_plugin._provided("build-3", "click", paths_of, kept, "k2")
    assert asked == ["click", "click"]  # the paths moved (a new key): read again
    graph_plugin._provided("build-4", "click", paths_of, kept, "")
    assert asked == ["click", "click", "click"]  # no key: nothing is kept
