"""Updates cost what changed: a generation carries the shards and segment databases of unchanged
repositories from the previous one as hard links, and rebuilds only what changed.

Real plugins (text, structural, graph), real SQLite, real files on disk; no mocks.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fourfold.errors import UnknownRepository
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.manager import get_registry
from fourfold.plugins.types import ModalityQuery

MODALITIES = ["graph", "structural", "text"]


def _repo(root: Path, name: str, n: int) -> Path:
    repo = root / name
    (repo / "pkg").mkdir(parents=True)
    for i in range(n):
        (repo / "pkg" / f"m{i}.py").write_text(
            f"def {name}_f{i}(x):\n    return {name}_g{i}(x) + 1\n\n\ndef {name}_g{i}(y):\n    return y * {i}\n\n\n"
            f"class {name.title()}{i}:\n    def method(self):\n        return {name}_f{i}(self)\n"
        )
    return repo


def _inodes(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_ino for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def store(tmp_path: Path) -> IndexStore:
    s = IndexStore(tmp_path / "home")
    build_generation(
        s, [(_repo(tmp_path, "alpha", 3), "alpha"), (_repo(tmp_path, "beta", 3), "beta")], modalities=MODALITIES
    )
    return s


def test_nothing_changed_carries_every_shard_as_links(store: IndexStore) -> None:
    before = store.require_live()
    again = build_generation(store, [], modalities=MODALITIES)
    after = store.require_live()
    assert after.name == again.generation != before.name
    assert again.changed_repos == [] and again.carried_shards == again.shards == len(before.shards())
    for spec in before.shards():
        assert _inodes(before.shard_dir(spec)) == _inodes(after.shard_dir(after.shard(spec.modality, spec.shard)))
    for repo in ("alpha", "beta"):
        assert before.segment_db(repo).stat().st_ino == after.segment_db(repo).stat().st_ino
    assert sorted(s.id for s in after.segments()) == sorted(s.id for s in before.segments())
    assert after.manifest["repos"] == before.manifest["repos"]
    assert after.manifest["integrity"] == before.manifest["integrity"]  # carried with the links, not re-read


def test_one_changed_file_rebuilds_only_its_repository(store: IndexStore, tmp_path: Path) -> None:
    before = store.require_live()
    (tmp_path / "beta" / "pkg" / "m1.py").write_text("def beta_fresh_name(z):\n    return alpha_f0(z)\n")
    summary = build_generation(store, [], modalities=MODALITIES)
    after = store.require_live()
    assert summary.changed_repos == ["beta"]
    for modality in ("text", "structural"):
        old_a, new_a = before.shard(modality, "alpha"), after.shard(modality, "alpha")
        assert _inodes(before.shard_dir(old_a)) == _inodes(after.shard_dir(new_a))  # carried
        old_b, new_b = before.shard(modality, "beta"), after.shard(modality, "beta")
        assert set(_inodes(before.shard_dir(old_b)).values()).isdisjoint(_inodes(after.shard_dir(new_b)).values())
    assert before.segment_db("alpha").stat().st_ino == after.segment_db("alpha").stat().st_ino
    assert before.segment_db("beta").stat().st_ino != after.segment_db("beta").stat().st_ino
    checked = after.manifest["integrity"]["shards"]
    assert checked["text/alpha"] == before.manifest["integrity"]["shards"]["text/alpha"]
    assert set(checked) == {s.folder for s in after.shards()}
    # alpha's graph partition imports nothing of beta's: it carries too (see the graph's links.py)
    assert summary.carried_shards == 3
    symbols = {s.symbol for s in after.segments(repos=["beta"])}
    assert "beta_fresh_name" in symbols and "beta_f1" not in symbols
    # the carried and the rebuilt shards load and answer
    text = get_registry().modality("text")
    for repo, literal in (("alpha", "alpha_g2"), ("beta", "beta_fresh_name")):
        shard = text.load(after.shard_dir(after.shard("text", repo)))
        result = shard.search(ModalityQuery(literal, repos=(repo,), k=5, options={"mode": "literal"}))
        assert result.hits and all(h.repo == repo for h in result.hits), (repo, result)


def test_touched_but_unchanged_files_still_carry(store: IndexStore, tmp_path: Path) -> None:
    path = tmp_path / "alpha" / "pkg" / "m0.py"
    path.write_text(path.read_text())  # new mtime, same content
    summary = build_generation(store, [], modalities=MODALITIES)
    assert summary.changed_repos == [] and summary.carried_shards == summary.shards


def test_a_new_repository_leaves_the_others_carried(store: IndexStore, tmp_path: Path) -> None:
    summary = build_generation(store, [(_repo(tmp_path, "gamma", 2), "gamma")], modalities=MODALITIES)
    assert summary.changed_repos == ["gamma"]
    assert summary.carried_shards == 6  # text, structural and graph of alpha and beta (neither imports gamma)
    assert summary.reused_files == 6 and summary.files == 8
    assert sorted(store.require_live().manifest["repos"]) == ["alpha", "beta", "gamma"]


def test_other_settings_rebuild_everything(store: IndexStore) -> None:
    summary = build_generation(store, [], modalities=MODALITIES, centrality=False)
    assert summary.carried_shards == 0 and summary.changed_repos == ["alpha", "beta"]


def test_a_modality_whose_build_changed_rebuilds_everything(store: IndexStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A modality's ``build_version`` is part of the carry key: shards built by the older code of a
    plugin (text before a definition owned its doc comment) are rebuilt, not carried."""
    text = get_registry().modality("text")
    monkeypatch.setattr(text, "build_version", str(getattr(text, "build_version", "")) + "-next", raising=False)
    summary = build_generation(store, [], modalities=MODALITIES)
    assert summary.carried_shards == 0 and summary.changed_repos == ["alpha", "beta"]
    monkeypatch.undo()
    assert build_generation(store, [], modalities=MODALITIES).carried_shards == 0  # and back again
    assert build_generation(store, [], modalities=MODALITIES).carried_shards == 6


def test_remove_publishes_a_generation_without_it_and_gc_keeps_two(store: IndexStore) -> None:
    with pytest.raises(UnknownRepository, match="registered: alpha, beta"):
        store.unregister_repo("nope")
    store.unregister_repo("beta")
    summary = build_generation(store, [], modalities=MODALITIES)
    live = store.require_live()
    assert sorted(live.manifest["repos"]) == ["alpha"] and {s.repos for s in live.shards()} == {("alpha",)}
    assert summary.changed_repos == [] and summary.carried_shards == 3  # text, structural, graph of alpha
    build_generation(store, [], modalities=MODALITIES)
    names = sorted(p.name for p in store.generations_dir.glob("g*"))
    assert len(names) == 2 and names[-1] == store.live_generation()  # automatic: the live one and the previous
    assert store.collect_garbage(keep=1) == names[:1]
    assert [p.name for p in store.generations_dir.glob("g*")] == [store.live_generation()]
    assert sum(1 for _ in store.require_live().segments()) == summary.segments


def test_killed_build_of_a_new_repository_leaves_no_registration(store: IndexStore, tmp_path: Path) -> None:
    live = store.live_generation()
    late = _repo(tmp_path, "late", 2)
    code = (
        "import os, signal\n"
        "from pathlib import Path\n"
        "from fourfold.index.generation import build_generation\n"
        "from fourfold.index.store import IndexStore\n"
        "def progress(update):\n"
        "    if update.stage.startswith('build:'):\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        f"build_generation(IndexStore(Path({str(store.home)!r})), [(Path({str(late)!r}), 'late')],"
        f" modalities={MODALITIES!r}, progress=progress)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300, env=os.environ)
    assert proc.returncode == -9, proc.stderr.decode()[-2000:]
    assert [r.name for r in store.repos()] == ["alpha", "beta"] and store.live_generation() == live
    summary = build_generation(store, [], modalities=MODALITIES)
    assert summary.changed_repos == [] and sorted(store.require_live().manifest["repos"]) == ["alpha", "beta"]


def test_a_fork_reuses_segments_by_content_and_matches_a_fresh_build(store: IndexStore, tmp_path: Path) -> None:
    import shutil

    fork = tmp_path / "fork"
    shutil.copytree(tmp_path / "alpha", fork)
    (fork / "pkg" / "m2.py").write_text("def forked_only(q):\n    return q\n")
    summary = build_generation(store, [(fork, "fork")], modalities=MODALITIES)
    assert summary.changed_repos == ["fork"]
    assert summary.reused_files == 6 + 2  # alpha and beta carried, two of the fork's three files by content
    fresh = IndexStore(tmp_path / "fresh")
    build_generation(fresh, [(fork, "fork")], modalities=MODALITIES)
    reused = sorted(store.require_live().segments(repos=["fork"]), key=lambda s: s.id)
    alone = sorted(fresh.require_live().segments(repos=["fork"]), key=lambda s: s.id)
    assert reused == alone and {s.repo for s in reused} == {"fork"}
    parents = {s.parent_id for s in reused} - {None}
    assert parents and parents <= {s.id for s in reused}  # nested definitions keep their parent, re-stamped
    with store.catalog() as catalog:  # at the same path the cached value names no repository: kept as it is
        rows = catalog.execute(
            "SELECT a.path, a.segments = f.segments FROM file_cache a JOIN file_cache f ON f.path = a.path"
            " WHERE a.repo = 'alpha' AND f.repo = 'fork' AND a.file_hash = f.file_hash"
        ).fetchall()
    assert len(rows) == 2 and all(same for _, same in rows)


def test_remove_and_gc_from_the_cli(store: IndexStore) -> None:
    env = {**os.environ, "FOURFOLD_HOME": str(store.home)}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "fourfold", *args], capture_output=True, text=True, env=env)

    unknown = cli("remove", "nope")
    assert unknown.returncode != 0 and "registered: alpha, beta" in unknown.stderr and "Traceback" not in unknown.stderr
    removed = cli("remove", "beta")
    assert removed.returncode == 0 and "removed beta" in removed.stdout, removed.stderr
    assert sorted(store.require_live().manifest["repos"]) == ["alpha"]
    collected = cli("gc", "--keep", "1")
    assert collected.returncode == 0 and "removed 1 generation" in collected.stdout, collected.stdout
    assert [p.name for p in store.generations_dir.glob("g*")] == [store.live_generation()]
    last = cli("remove", "alpha")
    assert last.returncode == 0 and "no repository is left" in last.stdout
    assert store.live_generation() is None


def test_a_reader_keeps_few_segment_databases_open(store: IndexStore, monkeypatch: pytest.MonkeyPatch) -> None:
    from fourfold.index import store as store_module

    monkeypatch.setattr(store_module, "OPEN_SEGMENT_DBS", 1)
    reader = store.require_live()
    by_repo = {repo: {s.id for s in reader.segments(repos=[repo])} for repo in ("alpha", "beta", "alpha")}
    ids = [*by_repo["alpha"], *by_repo["beta"]]
    rows = reader.segment_rows(ids)  # every repository's database in turn, one open at a time
    assert set(rows) == set(ids) and {r.repo for r in rows.values()} == {"alpha", "beta"}
    assert set(reader.centrality(ids, repos=["beta"])) == by_repo["beta"]  # narrowed to the hits' repositories
    assert len(reader._local.conns) == 1


def test_a_modality_named_twice_is_built_once_and_carries(store: IndexStore) -> None:
    """`fourfold index --modality text --modality text` builds one text shard per repository: named
    twice, each shard was listed twice in the manifest and the next build failed linking it twice."""
    first = build_generation(store, [], modalities=["text", "text"])
    live = store.require_live()
    assert live.manifest["modalities"] == ["text"]
    assert sorted(s.folder for s in live.shards()) == ["text/alpha", "text/beta"] and first.shards == 2
    again = build_generation(store, [], modalities=["text", "text"])
    assert again.carried_shards == again.shards == 2
    assert sorted(s.folder for s in store.require_live().shards()) == ["text/alpha", "text/beta"]


def test_the_summary_says_where_the_time_went(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per-stage wall and CPU seconds: in the summary, its JSON, and the CLI's "time by stage" line."""
    from fourfold.coordinator.cli import main

    store = IndexStore(tmp_path / "home")
    summary = build_generation(store, [(_repo(tmp_path, "solo", 2), "solo")], modalities=MODALITIES)
    assert {"segment", "build:text", "build:structural", "build:graph", "switch"} <= set(summary.stages)
    assert all(v["seconds"] >= 0 and v["cpu_seconds"] >= 0 for v in summary.stages.values())
    assert sum(v["seconds"] for v in summary.stages.values()) <= summary.seconds + 1.0
    assert summary.as_dict()["stages"] == summary.stages
    monkeypatch.setenv("FOURFOLD_HOME", str(tmp_path / "cli"))
    rc = main(["index", str(tmp_path / "solo"), "--modality", "text"])
    assert rc == 0 and "time by stage: " in capsys.readouterr().out
