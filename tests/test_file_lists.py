"""An update in a large fleet holds and reads the file lists of what changed only: a carried
repository's list is read from its segment database if planning asks for it, and the graph keeps
each peer's provided names by the key of its paths instead of listing every peer's files.

Real builds through ``build_generation`` (SQLite on disk, the graph's facts cache on disk).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fourfold.index import generation
from fourfold.index.generation import RepoOptions, build_generation
from fourfold.index.store import IndexStore, paths_key
from fourfold.plugins.graph import plugin as graph_plugin
from fourfold.plugins.graph.facts_cache import FactsCache


def _repo(root: Path, name: str, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / name / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / name / rel).write_text(text)
    return root / name


def test_a_paths_key_names_the_list_not_its_order() -> None:
    files = [("a.py", 10), ("pkg/b.py", 20), ("é.py", 3)]
    assert paths_key(files) == paths_key(list(reversed(files)))
    assert paths_key(files) != paths_key([("a.py", 11), ("pkg/b.py", 20), ("é.py", 3)])  # a size counts
    assert paths_key(files) != paths_key(files[:2])


def test_carried_repositories_segment_databases_are_not_read_for_their_files(
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
    assert opened == []  # neither repository's segment database was opened for its files
    assert summary.carried_shards == summary.shards

    # beta moves (a new commit): alpha is carried without its list being read; beta's is the walk's
    (beta / "beta" / "more.py").write_text("def three():\n    return 3\n")
    options["beta"] = RepoOptions(commit="c2")
    summary = build_generation(store, [], modalities=["text"], repo_options=options)
    monkeypatch.undo()
    assert summary.changed_repos == ["beta"]
    assert [db for db in opened if "alpha.sqlite" in db] == []  # only beta's own segments were read
    third = store.require_live()
    assert sorted(third.paths("alpha")) == ["alpha/__init__.py", "alpha/x.py"]
    assert "beta/more.py" in third.paths("beta")
    assert third.manifest["repos"]["beta"]["paths_key"] != keys["beta"]
    assert third.manifest["repos"]["alpha"]["paths_key"] == keys["alpha"]


def test_planning_reads_a_carried_repositorys_files_from_its_segment_database(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    alpha = _repo(tmp_path, "alpha", {"a.py": "def one():\n    return 1\n", "b.py": "X = 1\n"})
    build_generation(store, [(alpha, "alpha")], modalities=["text"])
    live = store.require_live()
    lists = generation._FileLists({"alpha": None, "new": [("n.py", 4)]}, live.root / "segments")
    assert lists["alpha"] == [("a.py", (alpha / "a.py").stat().st_size), ("b.py", 6)]
    assert lists["new"] == [("n.py", 4)] and sorted(lists) == ["alpha", "new"] and len(lists) == 2
    assert list(lists.subset(["alpha"])) == ["alpha"] and lists.subset(["alpha"])["alpha"] == lists["alpha"]


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
