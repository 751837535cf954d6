"""Delta shards: a revision ``NAME@REV`` is its base's shard (masked, relabelled) plus its changed files.

Real builds (text, structural and the semantic plugin with the hash embedder; SQLite and files on
disk). The differential tests build the same revision twice — as a delta over its base in one
store, whole (no base) in another — and ask both the same queries through the real engine with
the in-process searcher, and through a real ``ShardServer`` (the worker's host code).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from test_compound_shards import search_store

from fourfold.api import Answer, SearchParams
from fourfold.index.delta import BASE_DIR, DELTA_DIR, DELTA_FILE, base_of
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.v1 import worker_pb2
from fourfold.workers.servicer import ShardServer

MODALITIES = ["structural", "text"]
REV = "lib@feature"


def _base(root: Path) -> Path:
    repo = root / "lib"
    (repo / "pkg").mkdir(parents=True)
    for i in range(10):
        (repo / "pkg" / f"m{i}.py").write_text(
            f"def helper_{i}(x):\n    return x + {i}  # shared_token\n\n\n"
            f"class Thing{i}:\n    def run(self):\n        return helper_{i}(1)  # shared_token\n"
        )
    return repo


def _revision(root: Path, base: Path) -> Path:
    """The base with m1 changed, m2 removed and a new file: 2 of its 10 files are its own."""
    rev = root / REV
    shutil.copytree(base, rev)
    (rev / "pkg" / "m1.py").write_text("def helper_1(x):\n    return x * 100  # shared_token changed_only\n")
    (rev / "pkg" / "m2.py").unlink()
    (rev / "pkg" / "new.py").write_text("def branch_only(y):\n    return helper_3(y)  # shared_token\n")
    return rev


def _key(answer: Answer) -> tuple[object, ...]:
    hits = sorted(
        (f.hit.repo, f.hit.path, f.hit.start_line, f.hit.end_line, f.hit.segment_id, tuple(f.hit.match_lines))
        for f in answer.hits
    )
    return (tuple(hits), answer.total_matches, answer.total_files)


QUERIES = [
    SearchParams("shared_token", k=100, modalities=("text",), options={"mode": "literal"}),
    SearchParams("changed_only", k=100, modalities=("text",), options={"mode": "literal"}),
    SearchParams("return x + 2", k=100, modalities=("text",), options={"mode": "literal"}),  # only in m2, removed
    SearchParams(r"helper_\d+\(1\)", k=100, modalities=("text",), options={"mode": "regex"}),
    SearchParams("def helper_1", k=20, modalities=("structural",)),
    SearchParams("def helper_2", k=20, modalities=("structural",)),
    SearchParams("def branch_only", k=20, modalities=("structural",)),
    SearchParams("def Thing4.run", k=20, modalities=("structural",)),
    SearchParams("def helper", k=50, modalities=("structural",)),  # prefix matches, across both parts
]


@pytest.fixture
def stores(tmp_path: Path) -> tuple[IndexStore, IndexStore]:
    """(the revision as a delta over its base, the same revision built whole in a store without the base)."""
    base = _base(tmp_path)
    rev = _revision(tmp_path, base)
    delta = IndexStore(tmp_path / "delta-home")
    build_generation(delta, [(base, "lib")], modalities=MODALITIES)
    build_generation(delta, [(rev, REV)], modalities=MODALITIES)
    whole = IndexStore(tmp_path / "whole-home")
    build_generation(whole, [(rev, REV)], modalities=MODALITIES)
    return delta, whole


def test_a_revision_sharing_most_files_gets_delta_shards(stores: tuple[IndexStore, IndexStore]) -> None:
    delta, whole = stores
    live = delta.require_live()
    for modality in MODALITIES:
        spec = live.shard(modality, REV)
        assert spec.base == "lib" and spec.repos == (REV,)
        assert sorted(k.split("\0")[1] for k in spec.files) == ["pkg/m1.py", "pkg/new.py"]
        folder = live.shard_dir(spec)
        assert (folder / BASE_DIR).is_dir() and (folder / DELTA_DIR).is_dir()
        record = json.loads((folder / DELTA_FILE).read_text())
        assert record["base"] == "lib" and record["masked"] == ["pkg/m1.py", "pkg/m2.py"]
        base_files = {
            p.relative_to(live.shard_dir(live.shard(modality, "lib"))): p.stat().st_ino
            for p in live.shard_dir(live.shard(modality, "lib")).rglob("*")
            if p.is_file()
        }
        linked = {
            p.relative_to(folder / BASE_DIR): p.stat().st_ino for p in (folder / BASE_DIR).rglob("*") if p.is_file()
        }
        assert linked == base_files  # hard links: the shared files are stored once
    assert all(not s.base for s in whole.require_live().shards())
    assert base_of(REV) == "lib" and base_of("lib") is None and base_of("@x") is None


@pytest.mark.parametrize("params", QUERIES, ids=[p.query for p in QUERIES])
def test_a_delta_answers_exactly_as_the_revision_built_whole(
    stores: tuple[IndexStore, IndexStore], params: SearchParams
) -> None:
    delta, whole = stores
    scoped = dataclasses.replace(params, repos=(REV,))
    got, want = search_store(delta, scoped), search_store(whole, scoped)
    assert _key(got) == _key(want)
    assert all(f.hit.repo == REV for f in got.hits)


def test_every_repository_at_once_keeps_base_and_revision_apart(stores: tuple[IndexStore, IndexStore]) -> None:
    delta, _ = stores
    every = search_store(delta, QUERIES[0])
    by_repo = {r: sorted(f.hit.path for f in every.hits if f.hit.repo == r) for r in ("lib", REV)}
    assert by_repo["lib"] == [f"pkg/m{i}.py" for i in range(10)]
    assert by_repo[REV] == sorted([f"pkg/m{i}.py" for i in range(10) if i != 2] + ["pkg/new.py"])
    assert every.total_matches == 20 + 16 + 1 + 1  # lib: 2 a file; the revision: 8 shared files x 2, m1 and new.py 1
    old = search_store(delta, QUERIES[2])  # m2's line lives on in the base only
    assert {f.hit.repo for f in old.hits} == {"lib"}
    base_only = SearchParams("changed_only", k=10, modalities=("text",), options={"mode": "literal"}, repos=("lib",))
    assert not search_store(delta, base_only).hits


def test_a_worker_serves_a_delta_shard(stores: tuple[IndexStore, IndexStore]) -> None:
    delta, whole = stores
    answers = []
    for store in (delta, whole):
        live = store.require_live()
        server = ShardServer(str(live.root), "text", REV)
        try:
            req = worker_pb2.ShardSearchRequest(query="shared_token", k=100, options={"mode": "literal"})
            got = server.search_local(req)
            other = server.search_local(
                worker_pb2.ShardSearchRequest(query="shared_token", k=100, options={"mode": "literal"}, repos=["lib"])
            )
            assert not other.hits and other.total_matches == 0
            answers.append((sorted((h.repo, h.path, tuple(h.match_lines)) for h in got.hits), got.total_matches))
        finally:
            for shard in server.shards.values():
                shard.close()
    assert answers[0] == answers[1] and answers[0][1] == 18


def test_a_delta_carries_and_outlives_a_change_of_its_base(
    stores: tuple[IndexStore, IndexStore], tmp_path: Path
) -> None:
    delta, _ = stores
    before = [_key(search_store(delta, dataclasses.replace(q, repos=(REV,)))) for q in QUERIES]
    folder = delta.require_live().shard_dir(delta.require_live().shard("text", REV))
    inodes = {p.relative_to(folder): p.stat().st_ino for p in folder.rglob("*") if p.is_file()}
    (tmp_path / "lib" / "pkg" / "m5.py").write_text("def moved_on():\n    return 0  # shared_token\n")
    summary = build_generation(delta, [], modalities=MODALITIES)
    assert summary.changed_repos == ["lib"]
    live = delta.require_live()
    spec = live.shard("text", REV)
    assert spec.base == "lib"
    after_folder = live.shard_dir(spec)
    assert {p.relative_to(after_folder): p.stat().st_ino for p in after_folder.rglob("*") if p.is_file()} == inodes
    after = [_key(search_store(delta, dataclasses.replace(q, repos=(REV,)))) for q in QUERIES]
    assert after == before  # the revision's answers do not follow its base's new commit


def test_a_revision_that_changed_most_files_is_built_whole(tmp_path: Path) -> None:
    base = _base(tmp_path)
    rev = tmp_path / REV
    shutil.copytree(base, rev)
    for i in range(6):
        (rev / "pkg" / f"m{i}.py").write_text(f"def other_{i}():\n    return {i}\n")
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(base, "lib"), (rev, REV)], modalities=MODALITIES)
    assert all(not s.base for s in store.require_live().shards())


def test_a_base_and_its_revision_built_together_still_share(tmp_path: Path) -> None:
    """The first sync of a repository with several branches: the base's shard is built first."""
    base = _base(tmp_path)
    rev = _revision(tmp_path, base)
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(base, "lib"), (rev, REV)], modalities=MODALITIES)
    live = store.require_live()
    assert {live.shard(m, REV).base for m in MODALITIES} == {"lib"}
    answer = search_store(
        store, SearchParams("branch_only", k=10, modalities=("text",), options={"mode": "literal"}, repos=(REV,))
    )
    assert [f.hit.path for f in answer.hits] == ["pkg/new.py"]


def test_a_semantic_delta_answers_as_the_whole_revision(tmp_path: Path) -> None:
    base = _base(tmp_path)
    rev = _revision(tmp_path, base)
    settings = {"embedder": "hash"}
    delta = IndexStore(tmp_path / "delta-home")
    build_generation(delta, [(base, "lib")], modalities=["semantic"], settings=settings)
    build_generation(delta, [(rev, REV)], modalities=["semantic"], settings=settings)
    whole = IndexStore(tmp_path / "whole-home")
    build_generation(whole, [(rev, REV)], modalities=["semantic"], settings=settings)
    assert delta.require_live().shard("semantic", REV).base == "lib"
    for text in ("helper returns x times a hundred", "class Thing run", "branch only helper"):
        p = SearchParams(text, k=10, modalities=("semantic",), repos=(REV,))
        got, want = search_store(delta, p), search_store(whole, p)
        assert [(f.hit.path, f.hit.segment_id) for f in got.hits] == [(f.hit.path, f.hit.segment_id) for f in want.hits]


def test_a_revisions_segment_database_starts_from_its_bases_and_reads_as_one_written_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fourfold.index import segdb

    base = _base(tmp_path)
    (base / "pkg" / "big.py").write_text("class Outer:\n    def inner(self):\n        return 1\n" * 3)
    rev = _revision(tmp_path, base)
    delta = IndexStore(tmp_path / "delta-home")
    build_generation(delta, [(base, "lib")], modalities=MODALITIES)
    written: list[str] = []
    real = segdb.SegmentWriter.add_file

    def counting(self: segdb.SegmentWriter, path: str, *args: object, **kwargs: object) -> None:
        if self.repo == REV:
            written.append(path)
        real(self, path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(segdb.SegmentWriter, "add_file", counting)
    build_generation(delta, [(rev, REV)], modalities=MODALITIES)
    monkeypatch.undo()
    assert sorted(written) == ["pkg/m1.py", "pkg/new.py"]  # the 9 files it shares are the base's, re-stamped
    whole = IndexStore(tmp_path / "whole-home")
    build_generation(whole, [(rev, REV)], modalities=MODALITIES)

    def segments(store: IndexStore) -> list[object]:
        return sorted(store.require_live().segments(repos=(REV,)), key=lambda s: s.id)

    got, want = segments(delta), segments(whole)
    assert len(got) == len(want) > 30 and got == want  # ids, parents, content, signatures: all equal
    assert any(s.parent_id for s in got)
    live = delta.require_live()
    assert sorted(live.paths(REV)) == sorted(whole.require_live().paths(REV))
    assert "pkg/m2.py" not in live.paths(REV) and "pkg/m2.py" in live.paths("lib")
    shared = {(s.path, s.start_line, s.qualified_name): s.id for s in live.segments(repos=("lib",))}
    mine = dict(live.centrality([s.id for s in got]))
    theirs = dict(live.centrality(list(shared.values())))
    for s in got:  # a shared place keeps its base's centrality; nothing is left at the copied value by accident
        key = (s.path, s.start_line, s.qualified_name)
        if s.path not in ("pkg/m1.py", "pkg/new.py") and key in shared:
            assert mine.get(s.id) == theirs.get(shared[key])
