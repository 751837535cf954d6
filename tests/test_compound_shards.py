"""Compound shards: small repositories share shards, a change leaves a tombstone, compaction re-packs.

Real builds (text and structural plugins, SQLite, files on disk) of tiny repositories; searches go
through the real engine with the in-process searcher, and one through a real ``ShardServer`` (the
worker's host code, without Ray). The packing thresholds are lowered by build settings so a
handful of repositories behaves as a fleet does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import search_once

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.errors import InvalidInput
from fourfold.index.compound import (
    CompoundPolicy,
    compound_policy,
    is_compound,
    plan_repo_shards,
    shard_query,
)
from fourfold.index.generation import RepoOptions, build_generation
from fourfold.index.store import GenerationReader, IndexStore, ShardSpec
from fourfold.plugins.types import ModalityQuery
from fourfold.v1 import worker_pb2
from fourfold.workers.servicer import ShardServer

MODALITIES = ["structural", "text"]
NAMES = [f"r{i:02d}" for i in range(6)]
#: Packing from 3 small single shards on (16 by default), so six repositories are a fleet.
SETTINGS = {"compound.compact": "3"}


def _repo(root: Path, name: str, marker: str = "shared_token") -> Path:
    repo = root / name
    (repo / "pkg").mkdir(parents=True, exist_ok=True)
    for i in range(2):
        (repo / "pkg" / f"m{i}.py").write_text(
            f"def {name}_f{i}(x):\n    return x + {i}  # {marker}\n\n\ndef {name}_g{i}(y):\n    return y  # {marker}\n"
        )
    return repo


def _inodes(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_ino for p in sorted(folder.rglob("*")) if p.is_file()}


def search_store(store: IndexStore, p: SearchParams, visible: frozenset[str] | None = None) -> Answer:
    """``p`` asked of ``store`` through the engine with the in-process searcher (``visible``: a caller's scope)."""
    return search_once(Engine(store), p, visible)


def _literal(store: IndexStore, text: str, **kw: object) -> Answer:
    return search_store(store, SearchParams(text, k=100, modalities=("text",), options={"mode": "literal"}, **kw))  # type: ignore[arg-type]


def _compounds(reader: GenerationReader, modality: str) -> list[ShardSpec]:
    return [s for s in reader.shards(modality) if is_compound(s)]


@pytest.fixture
def fleet(tmp_path: Path) -> IndexStore:
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(_repo(tmp_path, n), n) for n in NAMES], modalities=MODALITIES, settings=SETTINGS)
    return store


def test_a_fleet_of_small_repositories_is_packed_into_one_shard_per_modality(fleet: IndexStore) -> None:
    live = fleet.require_live()
    for modality in MODALITIES:
        (spec,) = live.shards(modality)
        assert is_compound(spec) and spec.repos == tuple(NAMES) and spec.dead == ()
        assert spec.shard.startswith("~c-") and spec.folder == f"{modality}/{spec.shard}"
    a = _literal(fleet, "shared_token")
    assert (a.total_matches, a.total_files) == (4 * len(NAMES), 2 * len(NAMES))
    assert {f.hit.repo for f in a.hits} == set(NAMES)
    only = _literal(fleet, "shared_token", repos=("r02", "r04"))
    assert (only.total_matches, {f.hit.repo for f in only.hits}) == (8, {"r02", "r04"})
    defs = search_store(fleet, SearchParams("def r03_g1", modalities=("structural",), k=10))
    assert [(f.hit.repo, f.hit.symbol) for f in defs.hits][:1] == [("r03", "r03_g1")]


def test_the_target_size_fills_several_packs_by_name(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    repos = [(_repo(tmp_path, n), n) for n in NAMES]
    size = sum(f.stat().st_size for f in (tmp_path / "r00").rglob("*.py"))
    settings = {**SETTINGS, "compound.target": str(2 * size)}
    build_generation(store, repos, modalities=["text"], settings=settings)
    packs = [s.repos for s in store.require_live().shards("text")]
    assert sorted(packs) == [("r00", "r01"), ("r02", "r03"), ("r04", "r05")]
    # too few small repositories for a pack: each keeps its own shard, as before compound shards
    few = IndexStore(tmp_path / "few")
    build_generation(few, repos[:2], modalities=["text"], settings=settings)
    assert [s.shard for s in few.require_live().shards("text")] == ["r00", "r01"]


def test_a_changed_repository_leaves_a_tombstone_and_gets_its_own_shard(fleet: IndexStore, tmp_path: Path) -> None:
    before = fleet.require_live()
    (tmp_path / "r01" / "pkg" / "m0.py").write_text("def r01_fresh(x):\n    return x  # fresh_token shared_token\n")
    summary = build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    after = fleet.require_live()
    assert summary.changed_repos == ["r01"]
    for modality in MODALITIES:
        (old,) = _compounds(before, modality)
        (new,) = _compounds(after, modality)
        assert new.shard == old.shard and new.dead == ("r01",)
        assert new.repos == tuple(n for n in NAMES if n != "r01")
        assert _inodes(before.shard_dir(old)) == _inodes(after.shard_dir(new))  # linked, not rewritten
        assert after.shard(modality, "r01").repos == ("r01",)
    # the compound shard still holds r01's old file; no answer may come from it
    stale = _literal(fleet, "r01_f0")
    assert (stale.hits, stale.total_matches) == ((), 0)
    assert _literal(fleet, "r01_f0", repos=("r01",)).total_matches == 0
    a = _literal(fleet, "shared_token")
    assert (a.total_matches, a.total_files) == (4 * len(NAMES) - 1, 2 * len(NAMES))
    mine = _literal(fleet, "shared_token", repos=("r01",))
    assert (mine.total_matches, mine.total_files) == (3, 2)
    assert {f.hit.path for f in mine.hits} == {"pkg/m0.py", "pkg/m1.py"}
    fresh = search_store(fleet, SearchParams("def r01_fresh", modalities=("structural",), k=10))
    assert fresh.hits[0].hit.symbol == "r01_fresh"
    gone = search_store(fleet, SearchParams("def r01_f0", modalities=("structural",), k=10))
    assert "r01_f0" not in {f.hit.symbol for f in gone.hits}
    # the manifest keeps the tombstone; the next generation with nothing changed carries it as it is
    assert [s.get("dead") for s in after.manifest["shards"] if s["shard"].startswith("~c-")] == [["r01"], ["r01"]]
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    again = fleet.require_live()
    assert [s.dead for s in _compounds(again, "text")] == [("r01",)]
    assert again.shard("text", "r01").repos == ("r01",)


def test_a_removed_repository_vanishes_from_its_compound_shard(fleet: IndexStore) -> None:
    before = fleet.require_live()
    fleet.unregister_repo("r03")
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    after = fleet.require_live()
    (old,) = _compounds(before, "text")
    (new,) = _compounds(after, "text")
    assert new.dead == ("r03",) and "r03" not in new.repos
    assert _inodes(before.shard_dir(old)) == _inodes(after.shard_dir(new))
    assert not any("r03" in s.repos for s in after.shards())
    a = _literal(fleet, "r03_g1")
    assert (a.hits, a.total_matches) == ((), 0)
    assert _literal(fleet, "shared_token").total_matches == 4 * (len(NAMES) - 1)


def test_compaction_repacks_small_singles_and_mostly_dead_packs(fleet: IndexStore, tmp_path: Path) -> None:
    # two changed repositories: two small single shards, below the 3 that make a pack
    for name in ("r00", "r01"):
        (tmp_path / name / "pkg" / "m1.py").write_text(f"def {name}_new():\n    return 1  # shared_token\n")
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    mid = fleet.require_live()
    assert sorted(s.shard for s in mid.shards("text") if not is_compound(s)) == ["r00", "r01"]
    # a third: three small singles are packed into a new compound shard; the old one keeps its tombstones
    (tmp_path / "r02" / "pkg" / "m1.py").write_text("def r02_new():\n    return 2  # shared_token\n")
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    live = fleet.require_live()
    packs = sorted(_compounds(live, "text"), key=lambda s: s.repos)
    assert [(s.repos, s.dead) for s in packs] == [
        (("r00", "r01", "r02"), ()),
        (("r03", "r04", "r05"), ("r00", "r01", "r02")),
    ]
    assert len(live.shards("text")) == 2
    assert _literal(fleet, "shared_token").total_matches == 4 * 3 + 3 * 3
    # one more change makes the old pack more than half dead: its live repositories are re-packed
    (tmp_path / "r03" / "pkg" / "m1.py").write_text("def r03_new():\n    return 3  # shared_token\n")
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    final = fleet.require_live()
    old = next(s for s in packs if s.dead)
    assert old.shard not in {s.shard for s in final.shards("text")}
    assert sorted((s.repos, s.dead) for s in _compounds(final, "text")) == [
        (("r00", "r01", "r02"), ()),
        (("r04", "r05"), ()),
    ]
    assert final.shard("text", "r03").repos == ("r03",)
    assert _literal(fleet, "shared_token").total_matches == 4 * 2 + 3 * 4


def test_a_restricted_caller_sees_only_its_repositories_in_a_compound_shard(fleet: IndexStore, tmp_path: Path) -> None:
    (tmp_path / "r01" / "pkg" / "m0.py").write_text("def r01_fresh(x):\n    return x  # shared_token\n")
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    mine = frozenset({"r02"})
    a = search_store(
        fleet, SearchParams("shared_token", k=100, modalities=("text",), options={"mode": "literal"}), mine
    )
    assert {f.hit.repo for f in a.hits} == {"r02"} and (a.total_matches, a.total_files) == (4, 2)
    assert not any(n in note for note in a.notes for n in NAMES if n != "r02")
    ranked = search_store(fleet, SearchParams("shared_token y", k=100, modalities=("text", "structural")), mine)
    assert ranked.hits and {f.hit.repo for f in ranked.hits} == {"r02"}
    # a tombstoned repository read by a caller who may read it: only its fresh shard answers
    dead = search_store(
        fleet, SearchParams("r01_f0", k=100, modalities=("text",), options={"mode": "literal"}), frozenset({"r01"})
    )
    assert (dead.hits, dead.total_matches) == ((), 0)


def test_a_worker_narrows_queries_to_a_compound_shards_live_repositories(fleet: IndexStore, tmp_path: Path) -> None:
    (tmp_path / "r01" / "pkg" / "m0.py").write_text("def r01_fresh(x):\n    return x\n")
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    live = fleet.require_live()
    (spec,) = _compounds(live, "text")
    server = ShardServer(str(live.root), "text", spec.shard)
    try:

        def ask(**kw: object) -> worker_pb2.ShardSearchResponse:
            req = worker_pb2.ShardSearchRequest(query="shared_token", k=100, options={"mode": "literal"}, **kw)  # type: ignore[arg-type]
            return server.search_local(req)

        every = ask()
        assert every.total_matches == 4 * (len(NAMES) - 1)
        assert {h.repo for h in every.hits} == set(NAMES) - {"r01"}
        assert ask(repos=["r01"]).total_matches == 0 and not ask(repos=["r01"]).hits
        assert ask(repos=["r01", "r05"]).total_matches == 4
    finally:
        for shard in server.shards.values():
            shard.close()


def test_shard_query_rewrites_only_shards_with_tombstones() -> None:
    q = ModalityQuery("x")
    plain = ShardSpec("text", "~c-1", "text/~c-1", ("a", "b"))
    assert shard_query(plain, q) is q
    dead = ShardSpec("text", "~c-1", "text/~c-1", ("a", "b"), dead=("c",))
    assert shard_query(dead, q) == ModalityQuery("x", repos=("a", "b"))
    assert shard_query(dead, ModalityQuery("x", repos=("b", "c", "z"))) == ModalityQuery("x", repos=("b",))
    assert shard_query(dead, ModalityQuery("x", repos=("c",))) is None


def test_planning_keeps_repositories_with_their_own_settings_apart() -> None:
    sizes = {n: 100 for n in NAMES}
    plan = plan_repo_shards(
        "text", sizes, set(), set(NAMES) - {"r00"}, [], lambda s: True, CompoundPolicy(compact_singles=3)
    )
    assert plan.singles == ("r00",) and [c.repos for c in plan.compounds] == [tuple(NAMES[1:])]
    big = plan_repo_shards(
        "text", {**sizes, "r05": 10**9}, set(), set(NAMES), [], lambda s: True, CompoundPolicy(compact_singles=3)
    )
    assert big.singles == ("r05",)


def test_per_repository_settings_and_modalities_with_compound_shards(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    options = {"r00": RepoOptions(settings={"text.some": "1"}), "r01": RepoOptions(modalities=("structural",))}
    build_generation(
        store, [(_repo(tmp_path, n), n) for n in NAMES], modalities=MODALITIES, settings=SETTINGS, repo_options=options
    )
    live = store.require_live()
    assert live.shard("text", "r00").repos == ("r00",)  # its own settings: its own shard
    (text,) = _compounds(live, "text")
    assert text.repos == tuple(NAMES[2:])  # r01 wants no text
    (structural,) = _compounds(live, "structural")
    assert structural.repos == tuple(NAMES[1:])


def test_bad_compound_settings_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    assert compound_policy({"compound.below": "0"}).below == 0
    with pytest.raises(InvalidInput, match=r"compound.target='lots' is not a whole number"):
        compound_policy({"compound.target": "lots"})
    store = IndexStore(tmp_path / "home")
    with pytest.raises(InvalidInput, match=r"compound\.compact='0'"):
        build_generation(store, [(_repo(tmp_path, "a"), "a")], settings={"compound.compact": "0"})
    assert store.live_generation() is None


def test_old_manifests_without_tombstones_still_load(fleet: IndexStore) -> None:
    live = fleet.require_live()
    manifest = json.loads((live.root / "manifest.json").read_text())
    assert all("dead" not in s for s in manifest["shards"])  # written only when there are some
    assert all(s.dead == () for s in GenerationReader(live.root).shards())


@pytest.mark.slow
@pytest.mark.cluster
def test_tombstones_hold_through_ray_workers_and_the_coordinators_grpc(
    cluster: object, fleet: IndexStore, tmp_path: Path
) -> None:
    import grpc

    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
    from fourfold.workers.cluster import Launcher

    (tmp_path / "r01" / "pkg" / "m0.py").write_text("def r01_fresh(x):\n    return x  # shared_token\n")
    build_generation(fleet, [], modalities=MODALITIES, settings=SETTINGS)
    live = fleet.require_live()
    with EmbeddedServer(fleet.home, workers_per_modality=1) as server:
        try:
            with grpc.insecure_channel(server.address) as ch:
                stub = coordinator_pb2_grpc.CoordinatorStub(ch)

                def literal(text: str, repos: tuple[str, ...] = ()) -> coordinator_pb2.SearchResponse:
                    request = coordinator_pb2.SearchRequest(
                        query=text, k=100, modalities=["text"], repos=list(repos), options={"mode": "literal"}
                    )
                    return stub.Search(request, timeout=30)

                every = literal("shared_token")
                assert not every.partial and (every.total_matches, every.total_files) == (4 * len(NAMES) - 1, 12)
                assert {h.repo for h in every.hits} == set(NAMES)
                stale = literal("r01_f0")
                assert not stale.partial and (len(stale.hits), stale.total_matches) == (0, 0)
                mine = literal("shared_token", ("r01",))
                assert (mine.total_matches, {h.repo for h in mine.hits}) == (3, {"r01"})
                shards = stub.Status(coordinator_pb2.StatusRequest(), timeout=30).shards
                (compound,) = _compounds(live, "text")
                assert {s.shard for s in shards if s.modality == "text"} == {compound.shard, "r01"}
        finally:
            Launcher(fleet).retire(live.name)


def test_a_pack_holds_at_most_compound_max_repos() -> None:
    from fourfold.index.compound import COMPOUND_MAX_REPOS, pack

    packs = pack("text", {f"n{i:05d}": 1 for i in range(COMPOUND_MAX_REPOS + 5)}, 1 << 30)
    assert [len(p.repos) for p in packs] == [COMPOUND_MAX_REPOS, 5]


@pytest.mark.slow
def test_index_and_remove_from_the_cli_pack_and_tombstone_with_the_default_thresholds(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from fourfold.index.compound import COMPACT_SINGLES

    names = [f"c{i:02d}" for i in range(COMPACT_SINGLES)]  # as many small repositories as make a pack
    env = {**os.environ, "FOURFOLD_HOME": str(tmp_path / "home")}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "fourfold", *args], capture_output=True, text=True, env=env)

    paths = [str(_repo(tmp_path, n)) for n in names]
    built = cli("index", *paths, "--modality", "text", "--modality", "structural", "--no-centrality")
    assert built.returncode == 0, built.stderr
    store = IndexStore(tmp_path / "home")
    (pack,) = _compounds(store.require_live(), "text")
    assert pack.repos == tuple(names) and len(store.require_live().shards()) == 2
    removed = cli("remove", "c03")
    assert removed.returncode == 0 and "removed c03" in removed.stdout, removed.stderr
    live = store.require_live()
    (after,) = _compounds(live, "text")
    assert after.shard == pack.shard and after.dead == ("c03",) and len(live.shards()) == 2
    assert (_literal(store, "c03_f0").total_matches, _literal(store, "c04_f0").total_matches) == (0, 1)


def test_a_plain_folder_is_walked_without_a_git_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fleet scan walks every repository on every build: a folder with no .git in or above it
    costs no git process (a thousand of them cost seconds)."""
    import subprocess

    from fourfold.index.ingest import walk

    calls: list[object] = []
    real = subprocess.run

    def counting(*args: object, **kw: object) -> object:
        calls.append(args)
        return real(*args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(walk.subprocess, "run", counting)
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    plain = _repo(tmp_path, "plain")
    if any((p / ".git").exists() for p in (plain.resolve(), *plain.resolve().parents)):
        pytest.skip("the temporary folder lies inside a git work tree")
    assert sorted(f.path for f in walk.walk_repository(plain).files) == ["pkg/m0.py", "pkg/m1.py"]
    assert calls == []
    real(["git", "init", "-q", str(plain)], check=True)
    (plain / ".gitignore").write_text("pkg/m1.py\n")
    assert sorted(f.path for f in walk.walk_repository(plain).files) == [".gitignore", "pkg/m0.py"]
    assert calls  # a work tree: git lists its files


def test_a_long_repository_filter_in_the_structural_shard_keeps_what_sql_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compound shard's host names every live repository: the structural shard applies a long
    list to the rows instead of binding it into each statement, and keeps exactly what the
    statement would (also when the statement reaches its candidate limit)."""
    from fourfold.plugins.manager import get_registry
    from fourfold.plugins.structural import index as structural

    names = [f"n{i:02d}" for i in range(40)]
    for n in names:
        (tmp_path / n).mkdir()
        (tmp_path / n / "m.py").write_text("def common_name(x):\n    return x\n")
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(tmp_path / n, n) for n in names], modalities=["structural"], centrality=False)
    live = store.require_live()
    (spec,) = live.shards("structural")
    assert is_compound(spec) and len(spec.repos) == 40
    shard = get_registry().modality("structural").load(live.shard_dir(spec))
    try:
        wanted = tuple(names[3:38])  # 35 names: longer than the statement binds
        assert len(wanted) > structural._SQL_REPO_FILTER
        q = ModalityQuery("def common_name", k=100, intent="find_definition", repos=wanted)
        got = shard.search(q)
        assert got.total_matches == 35 and {h.repo for h in got.hits} == set(wanted)
        monkeypatch.setattr(structural, "_MAX_CANDIDATES", 10)  # the statement stops at its limit
        capped = shard.search(q)
        assert capped.total_matches == 10 and {h.repo for h in capped.hits} <= set(wanted)
        monkeypatch.setattr(structural, "_SQL_REPO_FILTER", 100)  # bound into the statement, as before
        assert {h.segment_id for h in shard.search(q).hits} == {h.segment_id for h in capped.hits}
    finally:
        shard.close()


def test_a_semantic_compound_shard_answers_only_for_its_live_repositories(tmp_path: Path) -> None:
    settings = {**SETTINGS, "embedder": "hash"}
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(_repo(tmp_path, n), n) for n in NAMES], modalities=["semantic"], settings=settings)
    (tmp_path / "r01" / "pkg" / "m0.py").write_text("def r01_fresh(x):\n    return x  # fresh\n")
    build_generation(store, [], modalities=["semantic"], settings=settings)
    live = store.require_live()
    (spec,) = _compounds(live, "semantic")
    assert spec.dead == ("r01",) and live.shard("semantic", "r01").repos == ("r01",)
    current = {s.id for s in live.segments()}

    def ask(**kw: object) -> Answer:
        return search_store(store, SearchParams("r01_f0 returns x", k=50, modalities=("semantic",), **kw))  # type: ignore[arg-type]

    every = ask()
    assert every.hits and {f.hit.segment_id for f in every.hits} <= current  # nothing of r01's old m0.py
    mine = ask(repos=("r01",))
    assert mine.hits and {f.hit.repo for f in mine.hits} == {"r01"}
    assert {f.hit.segment_id for f in mine.hits} <= current


def test_the_building_file_is_not_rewritten_for_every_unchanged_repository(tmp_path: Path) -> None:
    from fourfold.api import IndexProgress
    from fourfold.index.progress import BUILDING_FILE, ProgressFile

    path = tmp_path / BUILDING_FILE
    progress = ProgressFile(path, "g000002", interval=60)
    for i in range(100):  # a fleet scan: one finished "segment" report per unchanged repository
        progress(IndexProgress("segment", 3, 3, f"r{i:02d}: unchanged", unit="files", repo=f"r{i:02d}"))
    assert json.loads(path.read_text())["message"] == "r00: unchanged"  # written once this interval
    progress(IndexProgress("build:text", 0, 4, "shard 1/4"))
    assert json.loads(path.read_text())["stage"] == "build:text"  # a new stage at once
    progress.close()
    assert not path.exists()
